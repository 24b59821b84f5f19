import RhizomeCore

/// What of a Dataview query SQLite answers, and what is left to evaluate in Swift (`--explain`).
///
/// The source (`FROM`) always becomes SQL. Conditions of the `WHERE` clauses that come before any other
/// data command become SQL too: exactly, for `file.*` columns compared with literals; as a prefilter
/// (a superset: every page that can match passes) for fields compared with literals, which Swift then
/// checks exactly. When every such condition is exact, a leading `SORT` on file columns and a `LIMIT`
/// run in SQL as well, and the commands they replace are skipped.
public struct DataviewPlan: Sendable {
    /// `SELECT id FROM file WHERE …` — the candidate pages, in order.
    public var sql: String
    var bindings: [SQLiteValue]
    /// What the SQL does, one line each (`FROM #project → tag index`, `WHERE file.size > 100 (exact)`).
    public var pushedDown: [String]
    /// What runs in Swift over the loaded pages.
    public var evaluatedInSwift: [String]
    /// How many leading data commands SQL answered completely (their Swift evaluation is skipped).
    var commandsAnswered: Int
    /// For a `TASK` query: the status its leading `WHERE` requires (only such tasks become rows).
    var taskFilter = DataviewTaskFilter()
    /// For a `TASK` query its task rows answer (`IndexStore.indexedTasks`): the statement reading them,
    /// note by note in path order (`CROSS JOIN` keeps SQLite from scanning every task against every note).
    /// `limit` is the query's `LIMIT` (`.max` without one).
    var taskRows: (sql: String, bindings: [SQLiteValue], limit: Int)? = nil
}

struct DataviewPlanner {
    let store: IndexStore
    let query: DataviewQuery
    /// The note the query runs in (for `[[]]` sources and link resolution), if any.
    let origin: FileRecord?
    let resolveLink: (String) throws -> (path: String, id: Int64?)

    func plan() throws -> DataviewPlan {
        var conditions = ["f.kind = 'note'"]
        var bindings: [SQLiteValue] = []
        var pushed: [String] = []
        var inSwift: [String] = []
        if let source = query.source {
            let (condition, values) = try sql(for: source)
            conditions.append(condition)
            bindings += values
            pushed.append("FROM \(source.queryText) → SQL")
        } else {
            pushed.append("FROM (every note) → SQL")
        }
        var taskFilter = DataviewTaskFilter()
        var taskRows: (sql: String, bindings: [SQLiteValue], limit: Int)? = nil
        if case .task = query.kind {
            // Only notes holding a task (that can pass the leading WHERE) are read for their tasks.
            taskFilter = DataviewTaskFilter(query: query)
            let (condition, values) = taskFilter.sql
            if let limit = IndexStore.taskRowLimit(of: query, filter: taskFilter) {
                taskRows = ("""
                    SELECT f.path, t.line, t.status, coalesce(t.continued_text, t.text), t.parent_line
                    FROM file f CROSS JOIN task t ON \(FileRows.of("f.id", in: "t"))
                    WHERE \(conditions.joined(separator: " AND ")) AND \(condition) ORDER BY f.path, t.id
                    """, bindings + values, limit)
            }
            conditions.append("EXISTS (SELECT 1 FROM task t WHERE \(FileRows.of("f.id", in: "t")) AND \(condition))")
            bindings += values
            pushed.append(taskFilter.isEmpty
                ? "TASK → notes holding a task (task index)"
                : "TASK WHERE \(taskFilter.description) → notes holding such a task (task index); only such tasks become rows")
        }
        var order = "f.path"
        var limit: Int? = nil
        // Leading commands answered completely by SQL; Swift skips them.
        var answered = 0
        // A task query filters tasks, not pages: only its source is pushed down.
        var canFilter = { if case .task = query.kind { false } else { true } }()
        for (index, command) in query.commands.enumerated() where canFilter {
            switch command {
            case .from:
                if answered == index { answered += 1 }
            case .where(let expression):
                // Filters commute with sorting, so a WHERE after a SORT still narrows the candidates.
                var isExact = true
                for conjunct in Self.conjuncts(expression) {
                    guard let (condition, values, exact) = sql(forCondition: conjunct) else {
                        isExact = false
                        continue
                    }
                    conditions.append(condition)
                    bindings += values
                    pushed.append("WHERE \(conjunct.queryText) → SQL (\(exact ? "exact" : "prefilter, checked again in Swift"))")
                    isExact = isExact && exact
                }
                if isExact && answered == index { answered += 1 }
            case .sort(let keys):
                let columns = keys.compactMap { key in Self.sortColumn(key.expression).map { "\($0) \(key.isAscending ? "ASC" : "DESC")" } }
                if answered == index && columns.count == keys.count {
                    order = (columns + ["f.path"]).joined(separator: ", ")
                    pushed.append(command.queryText + " → SQL ORDER BY")
                    answered += 1
                }
            case .limit(let expression):
                if answered == index, case .literal(let value) = expression, let count = DataviewQuery.limitCount(value) {
                    limit = count
                    pushed.append("LIMIT \(count) → SQL")
                    answered += 1
                }
                canFilter = false
            case .groupBy, .flatten:
                canFilter = false
            }
        }
        for (position, command) in query.commands.enumerated() where position >= answered {
            inSwift.append(command.queryText)
        }
        if case .table(let columns, _) = query.kind, !columns.isEmpty {
            inSwift.append("columns: " + columns.map(\.name).joined(separator: ", "))
        } else if case .list(let expression?, _) = query.kind {
            inSwift.append("list value: " + expression.queryText)
        } else if case .task = query.kind {
            if taskRows != nil {
                // `IndexStore.indexedTasks`: nothing is left for Swift but indenting the tasks.
                inSwift = []
                pushed.append("every condition tests the status: tasks read from the index's task rows (no note is read)")
            } else {
                inSwift.append("tasks read from the candidate notes' files")
            }
        }
        var sql = "SELECT f.id FROM file f WHERE " + conditions.joined(separator: " AND ") + " ORDER BY " + order
        if let limit { sql += " LIMIT \(limit)" }
        return DataviewPlan(
            sql: sql, bindings: bindings, pushedDown: pushed, evaluatedInSwift: inSwift, commandsAnswered: answered, taskFilter: taskFilter,
            taskRows: taskRows)
    }

    // MARK: Sources

    func sql(for source: DataviewSource) throws -> (String, [SQLiteValue]) {
        switch source {
        case .tag(let name):
            let key = TagSyntax.key(name)
            // Nested tags as an index range: `key/` ≤ name_key < `key0` (`0` follows `/`). Frontmatter tags as
            // Dataview reads them: the index's own, unless the file keeps Dataview's where they differ
            // (`file.dataview_tags`, a few files: legacy `tag:`, comma-separated text).
            return ("""
                (f.id IN (SELECT t.file_id FROM tag t WHERE (t.name_key = ? OR (t.name_key >= ? AND t.name_key < ?)) \
                AND (t.from_frontmatter = 0 OR NOT EXISTS (SELECT 1 FROM file d WHERE d.id = t.file_id AND d.dataview_tags IS NOT NULL))) \
                OR f.id IN (SELECT d.id FROM file d, json_each(d.dataview_tags) j WHERE d.dataview_tags IS NOT NULL \
                AND (j.value = ? OR (j.value >= ? AND j.value < ?))))
                """, [.text(key), .text(key + "/"), .text(key + "0"), .text(key), .text(key + "/"), .text(key + "0")])
        case .folder(let path):
            let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
            if trimmed.isEmpty { return ("1", []) }
            // Paths are exact (case-sensitive), as Obsidian looks them up; LIKE would ignore ASCII case.
            let prefixLength = SQLiteValue.integer(Int64(trimmed.unicodeScalars.count + 1))
            let isFolder = try store.connection.prepare("SELECT 1 FROM file WHERE folder = ? OR substr(folder, 1, ?) = ? LIMIT 1")
                .bind(.text(trimmed), prefixLength, .text(trimmed + "/")).rows { _ in true }.first ?? false
            if isFolder {
                return ("(f.folder = ? OR substr(f.folder, 1, ?) = ?)", [.text(trimmed), prefixLength, .text(trimmed + "/")])
            }
            return ("f.path IN (?, ?)", [.text(trimmed), .text(trimmed + ".md")])
        case .linksTo(let text):
            let target = try linkTarget(text)
            if let id = target.id {
                return ("f.id IN (SELECT source_id FROM link WHERE target_id = ? AND via_reference = 0)", [.integer(id)])
            }
            // An unresolved link: the notes holding the same unresolved link.
            return ("f.id IN (SELECT source_id FROM link WHERE target_id IS NULL AND link_key = ?)",
                    [.text(LinkResolver<Int64>.resolveKey(ofLinkPath: target.path))])
        case .linkedFrom(let text):
            guard let id = try linkTarget(text).id else {
                throw DataviewError.evaluation(message: "could not find the note [[\(text)]] for outgoing(…); does it exist?")
            }
            return ("f.id IN (SELECT target_id FROM link WHERE id BETWEEN ? AND ? AND target_id IS NOT NULL AND via_reference = 0)",
                    FileRows.bounds(of: id))
        case .and(let left, let right):
            let (a, x) = try sql(for: left), (b, y) = try sql(for: right)
            return ("(\(a) AND \(b))", x + y)
        case .or(let left, let right):
            let (a, x) = try sql(for: left), (b, y) = try sql(for: right)
            return ("(\(a) OR \(b))", x + y)
        case .not(let inner):
            let (a, x) = try sql(for: inner)
            return ("NOT (\(a))", x)
        }
    }

    /// `[[]]` and `[[#…]]` are the note the query runs in; otherwise the link resolved from it.
    private func linkTarget(_ text: String) throws -> (path: String, id: Int64?) {
        let withoutSubpath = DataviewLink.parts(of: text).path.trimmingSpaces
        if withoutSubpath.isEmpty {
            guard let origin else {
                throw DataviewError.evaluation(message: "[[]] means the note the query runs in; run the query with --note NOTE")
            }
            return (origin.path, origin.id)
        }
        return try resolveLink(text)  // the whole text: its path is read again there, escaped pipes and all
    }

    // MARK: Conditions

    /// The `and`-ed parts of a condition (Dataview gives `and` and `or` one precedence, so only a chain of
    /// `and`s on the left is split).
    static func conjuncts(_ expression: DataviewExpression) -> [DataviewExpression] {
        if case .binary(.and, let left, let right) = expression { return conjuncts(left) + [right] }
        return [expression]
    }

    /// SQL for one condition: exact for file columns against literals, a prefilter for fields against literals.
    func sql(forCondition expression: DataviewExpression) -> (String, [SQLiteValue], exact: Bool)? {
        guard case .binary(let op, let left, let right) = expression,
              [.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual].contains(op) else {
            return startsWithCondition(expression)
        }
        var (field, literal, comparison) = (left, right, op)
        if case .literal = left, !Self.isLiteral(right) {
            (field, literal) = (right, left)
            comparison = Self.mirrored(op)
        }
        guard case .literal(let value) = literal else { return nil }
        let symbol = comparison == .equal ? "=" : comparison.rawValue
        // file.* columns: exact.
        if let column = Self.fileColumn(field) {
            switch (column.type, value) {
            case ("text", .string(let text)) where (comparison == .equal || comparison == .notEqual) && text.utf8.allSatisfy({ $0 < 0x80 }):
                // ASCII only: SQL compares bytes, Dataview treats NFC and NFD spellings as equal.
                return ("\(column.sql) \(symbol) ?", [.text(text)], true)
            case ("number", .number(let number)):
                return ("\(column.sql) \(symbol) ?", [.real(number)], true)
            default:
                return nil
            }
        }
        // A field equal to a literal: some property or inline field of the page must hold that value.
        guard comparison == .equal, case .variable(let name) = field, !["file", "this", "row"].contains(name) else { return nil }
        let json: String
        let inline: String?
        switch value {
        case .string(let text) where DataviewFieldValue.frontmatterString(text, resolveLink: { DataviewLink(path: $0) }) == .string(text):
            var encoded = ""
            JSONText.writeString(text, into: &encoded)
            json = encoded
            inline = text
        case .number(let number):
            json = DataviewNumber.text(number)
            inline = nil
        case .boolean(let flag):
            json = flag ? "true" : "false"
            inline = json
        default:
            return nil
        }
        // Inline values are compared as text (`"active"` and `active` alike); numbers may be written
        // many ways (`3.0`), so any page with inline fields passes for them.
        let inlineCondition = inline.map { _ in
            value.isBoolean ? "lower(trim(i.value)) = ?" : "trim(i.value, ' \"') = ?"
        } ?? "1"
        return ("(EXISTS (SELECT 1 FROM property p WHERE \(FileRows.of("f.id", in: "p")) AND p.value_json = ?)"
                + " OR EXISTS (SELECT 1 FROM inline_field i WHERE \(FileRows.of("f.id", in: "i")) AND \(inlineCondition)))",
                [.text(json)] + (inline.map { [SQLiteValue.text($0)] } ?? []), false)
    }

    /// `startswith(file.path, "Projects/")` and the like: exact.
    private func startsWithCondition(_ expression: DataviewExpression) -> (String, [SQLiteValue], exact: Bool)? {
        guard case .call("startswith", let arguments, _, _) = expression, arguments.count == 2,
              let column = Self.fileColumn(arguments[0]), column.type == "text",
              case .literal(.string(let prefix)) = arguments[1] else { return nil }
        return ("substr(\(column.sql), 1, ?) = ?", [.integer(Int64(prefix.unicodeScalars.count)), .text(prefix)], true)
    }

    /// The SQL column behind `file.name`, `file.path`, `file.folder`, `file.ext`, `file.size`, `file.mtime`.
    static func fileColumn(_ expression: DataviewExpression) -> (sql: String, type: String)? {
        guard case .member(.variable("file"), let name) = expression else { return nil }
        switch name {
        case "name": return ("f.name", "text")
        case "path": return ("f.path", "text")
        case "folder": return ("f.folder", "text")
        case "ext": return ("f.extension", "text")
        case "size": return ("f.size", "number")
        default: return nil
        }
    }

    /// Sort keys SQL orders exactly as Dataview would: numbers, and text under the `dataview` collation.
    static func sortColumn(_ expression: DataviewExpression) -> String? {
        guard let column = fileColumn(expression) else {
            if case .member(.variable("file"), "mtime") = expression { return "f.mtime_ns / 1000000" }  // Dataview compares milliseconds
            return nil
        }
        return column.type == "text" ? "\(column.sql) COLLATE dataview" : column.sql
    }

    private static func isLiteral(_ expression: DataviewExpression) -> Bool {
        if case .literal = expression { return true }
        return false
    }

    private static func mirrored(_ op: DataviewBinaryOperator) -> DataviewBinaryOperator {
        switch op {
        case .less: return .greater
        case .lessOrEqual: return .greaterOrEqual
        case .greater: return .less
        case .greaterOrEqual: return .lessOrEqual
        default: return op
        }
    }
}

private extension DataviewValue {
    var isBoolean: Bool {
        if case .boolean = self { return true }
        return false
    }
}
