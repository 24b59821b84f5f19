import CSQLite
import Foundation
import RhizomeCore

/// Runs Dataview queries over the index: the planner's SQL selects candidate pages, the pages are loaded
/// in bulk, and the remaining data commands run in order over typed values, as Dataview's engine does
/// (`src/query/engine.ts`): rows whose expressions fail are dropped, and the query fails only when every
/// row fails.
extension IndexStore {
    /// Runs `query`. `origin` is the vault path of the note the query runs in (`this`, `[[]]`, relative
    /// links), if any; `now` fixes what `date(today)` means.
    public func runDataview(_ query: DataviewQuery, origin: String? = nil, now: DataviewDate? = nil) throws -> DataviewResult {
        try registerDataviewCollation()
        let pages = try DataviewPages(store: self)
        let originRecord = try origin.map { path -> FileRecord in
            guard let id = pages.fileID(ofPath: path), let record = try file(id: id) else {
                throw DataviewError.evaluation(message: "the note `\(path)` is not in the index")
            }
            return record
        }
        let sourcePath = originRecord?.path ?? ""
        let planner = DataviewPlanner(store: self, query: query, origin: originRecord) { text in
            let link = pages.link(text, from: sourcePath)
            return (link.path, pages.fileID(ofPath: link.path))
        }
        let clock = ContinuousClock()
        var timings: [(String, Duration)] = []
        var mark = clock.now
        func lap(_ name: String) {
            let now = clock.now
            timings.append((name, now - mark))
            mark = now
        }
        let plan = try planner.plan()
        if let answered = try indexedTasks(plan: plan) {
            lap("task rows")
            var result = DataviewResult(
                kind: .task, columns: ["File", "Line", "Status", "Task"], rows: [], tasks: answered.tasks, groupName: nil, plan: plan,
                droppedRows: 0, droppedRowErrors: [], candidatePages: answered.notes)
            result.timings = timings.map { ($0.0, $0.1.inMilliseconds) }
            return result
        }
        let candidates = try connection.prepare(plan.sql).bind(plan.bindings).rows { $0.int(0) }
        lap("plan and SQL")

        let thisPage: DataviewValue = originRecord.flatMap { pages.page(path: $0.path) }.map(DataviewValue.object) ?? .null
        let evaluator = DataviewEvaluator(
            thisPage: thisPage,
            resolveLink: { pages.link($0, from: sourcePath) },
            linkedPage: { pages.page(path: $0.path) },
            now: now ?? DataviewDate(instant: Date()))
        var run = DataviewRun(evaluator: evaluator)
        run.deadline = deadline

        var rows: [DataviewRun.Row]
        let isTask: Bool
        if case .task = query.kind { isTask = true } else { isTask = false }
        if isTask {
            var needs = DataviewNeeds(query: query)
            // Tasks its leading WHERE rejects never become rows, unless the query reads a page's tasks itself.
            let taskFilter = needs.wants("tasks") || needs.wants("lists") ? DataviewTaskFilter() : plan.taskFilter
            needs.fields = true
            needs.fieldNames = nil  // a task row carries its page's fields
            // Its tasks; `file.lists` only if the query names it (building every item's object doubled the time).
            needs.fileMembers?.insert("tasks")
            rows = try pages.pages(ids: candidates, needs: needs, taskFilter: taskFilter).flatMap { page -> [DataviewRun.Row] in
                try deadline?.check()
                guard case .object(let file)? = page["file"], case .list(let tasks)? = file["tasks"] else { return [] }
                return tasks.compactMap { task in
                    guard case .object(var data) = task else { return nil }
                    for (key, value) in page.pairs where data[key] == nil { data[key] = value }
                    return DataviewRun.Row(id: data["link"] ?? .null, data: data)
                }
            }
        } else {
            rows = try pages.pages(ids: candidates, needs: DataviewNeeds(query: query)).map { page in
                guard case .object(let file)? = page["file"] else { return DataviewRun.Row(id: .null, data: page) }
                return DataviewRun.Row(id: file["link"] ?? .null, data: page)
            }
        }
        lap("load pages")
        for command in query.commands.dropFirst(plan.commandsAnswered) {
            rows = try run.apply(command, to: rows)
        }
        lap("data commands")
        var result = try run.result(of: query, rows: rows, plan: plan, candidatePages: candidates.count)
        lap("columns")
        result.timings = timings.map { ($0.0, $0.1.inMilliseconds) }
        return result
    }

    /// Link resolution over every file, reused across queries until the index changes (building a
    /// resolver for a 10,000-note vault costs a few milliseconds; queries resolve field links with it).
    func cachedLinkTable() -> DataviewLinkTable {
        let stamp = (try? connection.prepare("SELECT (SELECT count(*) FROM file), (SELECT max(id) FROM file), (SELECT data_version FROM pragma_data_version)")
            .rows { "\(databasePath)/\($0.int(0))/\($0.int(1))/\($0.int(2))/\(sqlite3_total_changes64(connection.handle))" }.first) ?? nil
        if let stamp, let cached = dataviewLinkTable.withLock({ $0 }), cached.stamp == stamp { return cached.table }
        // Built outside the lock: it takes a while.
        let table = DataviewLinkTable(resolver: (try? resolver(forFilesIn: "SELECT id, path FROM file")) ?? LinkResolver(files: []))
        if let stamp { dataviewLinkTable.withLock { $0 = (stamp, table) } }
        return table
    }

    /// The `dataview` collation: text ordered as Dataview orders strings, for sorts pushed into SQL.
    func registerDataviewCollation() throws(StoreError) {
        let status = sqlite3_create_collation_v2(connection.handle, "dataview", SQLITE_UTF8, nil, { _, leftCount, left, rightCount, right in
            let a = String(decoding: UnsafeRawBufferPointer(start: left, count: Int(leftCount)), as: UTF8.self)
            let b = String(decoding: UnsafeRawBufferPointer(start: right, count: Int(rightCount)), as: UTF8.self)
            return Int32(DataviewValue.compare(.string(a), .string(b)))
        }, nil)
        guard status == SQLITE_OK else { throw connection.error(status, sql: "create collation dataview") }
    }
}

/// Resolves link text as Obsidian would over the index as it was when built, remembering each answer.
final class DataviewLinkTable: Sendable {
    private struct Key: Hashable {
        var link: String
        var source: String
    }

    private let resolver: LinkResolver<Int64>
    private let answers = Locked<[Key: String?]>([:])

    init(resolver: LinkResolver<Int64>) { self.resolver = resolver }

    /// The vault path `linkPath` resolves to from the note at `sourcePath`, or nil when unresolved.
    func resolvedPath(of linkPath: String, from sourcePath: String) -> String? {
        let key = Key(link: linkPath, source: sourcePath)
        return answers.withLock { answers in
            if let known = answers[key] { return known }
            let path = resolver.resolve(linkPath: UnicodeNormalization.nfc(linkPath), from: sourcePath)?.path
            if answers.count > 200_000 { answers.removeAll(keepingCapacity: true) }
            answers[key] = path
            return path
        }
    }
}

/// One execution of the data commands over rows.
struct DataviewRun {
    struct Row {
        /// The page link, the task link, or the group key.
        var id: DataviewValue
        var data: DataviewObject
    }

    let evaluator: DataviewEvaluator
    /// Checked before each row of each command: FLATTEN multiplies rows, and a query that would run
    /// for minutes ends at the time limit instead (`StoreError.timedOut`, never dropped as a row error).
    var deadline: QueryDeadline?
    var groupName: String? = nil
    var droppedRows = 0
    var droppedRowErrors: [String] = []

    init(evaluator: DataviewEvaluator) { self.evaluator = evaluator }

    mutating func apply(_ command: DataviewQuery.Command, to rows: [Row]) throws -> [Row] {
        let evaluator = self.evaluator
        switch command {
        case .from:
            return rows  // always answered by the planner's SQL (the parser allows it only first)
        case .where(let expression):
            return try each(rows, "WHERE") { row in try evaluator.evaluate(expression, row: row.data).isTruthy ? [row] : [] }
        case .sort(let keys):
            let keyed = try each(rows, "SORT") { row -> [(keys: [DataviewValue], row: Row)] in
                var values: [DataviewValue] = []
                for key in keys { values.append(try evaluator.evaluate(key.expression, row: row.data)) }
                return [(values, row)]
            }
            return stableOrder(count: keyed.count) { a, b in
                for (index, key) in keys.enumerated() {
                    let order = DataviewValue.compare(keyed[a].keys[index], keyed[b].keys[index])
                    if order != 0 { return key.isAscending ? order : -order }
                }
                return 0
            }.map { keyed[$0].row }
        case .limit(let expression):
            // Evaluated once, with no row in scope (only `this`), as Dataview does.
            let value = try evaluator.evaluate(expression, row: DataviewObject())
            guard let count = DataviewQuery.limitCount(value) else {
                throw DataviewError.evaluation(
                    message: "LIMIT should be a whole number, but `\(DataviewPlanner.describe(expression))` is \(value.typeName) `\(DataviewText.plain(value))`")
            }
            return Array(rows.prefix(count))
        case .flatten(let expression, let name):
            return try each(rows, "FLATTEN") { row in
                let value = try evaluator.evaluate(expression, row: row.data)
                let elements: [DataviewValue]
                if case .list(let items) = value { elements = items } else { elements = [value] }
                return elements.map { element in
                    var copy = row
                    copy.data[name] = element
                    return copy
                }
            }
        case .groupBy(let expression, let name):
            let keyed = try each(rows, "GROUP BY") { row in [(key: try evaluator.evaluate(expression, row: row.data), row: row)] }
            // Rows with equal keys, in their order, then the groups in key order: what sorting the rows
            // by key and cutting runs of equal keys gives, with a hash lookup per row instead of a sort.
            var groupOf: [DataviewValue: Int] = [:]
            var buckets: [(key: DataviewValue, members: [Int])] = []
            for (position, entry) in keyed.enumerated() {
                if let bucket = groupOf[entry.key] {
                    buckets[bucket].members.append(position)
                } else {
                    groupOf[entry.key] = buckets.count
                    buckets.append((entry.key, [position]))
                }
            }
            let order = stableOrder(count: buckets.count) { DataviewValue.compare(buckets[$0].key, buckets[$1].key) }
            var groups: [Row] = []
            var index = 0
            while index < order.count {
                let key = buckets[order[index]].key
                var members = buckets[order[index]].members
                index += 1
                // Keys that compare equal but hash apart (a NaN number) still make one group.
                var merged = false
                while index < order.count, DataviewValue.compare(key, buckets[order[index]].key) == 0 {
                    members += buckets[order[index]].members
                    merged = true
                    index += 1
                }
                if merged { members.sort() }
                var data = DataviewObject(capacity: 3)
                data["key"] = key
                data["rows"] = .list(members.map { .object(keyed[$0].row.data) })
                if name != "key" && name != "rows" { data[name] = key }
                groups.append(Row(id: key, data: data))
            }
            groupName = name
            return groups
        }
    }

    /// The final extraction: columns per row (rows where one fails are dropped).
    mutating func result(of query: DataviewQuery, rows: [Row], plan: DataviewPlan, candidatePages: Int) throws -> DataviewResult {
        let evaluator = self.evaluator
        let idName = groupName ?? "File"
        var result = DataviewResult(
            kind: .table, columns: [], rows: [], tasks: [], groupName: groupName, plan: plan, droppedRows: 0,
            droppedRowErrors: [], candidatePages: candidatePages)
        switch query.kind {
        case .table(let columns, let withoutID):
            result.columns = (withoutID ? [] : [idName]) + columns.map(\.name)
            result.rows = try each(rows, "final data extraction") { row in
                var values: [DataviewValue] = []
                for column in columns { values.append(try evaluator.evaluate(column.expression, row: row.data)) }
                return [DataviewResult.Row(id: withoutID ? nil : row.id, values: values)]
            }
        case .list(let expression, let withoutID):
            result.kind = .list
            result.columns = expression == nil ? [idName] : (withoutID ? ["Value"] : [idName, "Value"])
            result.rows = try each(rows, "final data extraction") { row in
                guard let expression else { return [DataviewResult.Row(id: row.id, values: [])] }
                let value = try evaluator.evaluate(expression, row: row.data)
                return [DataviewResult.Row(id: withoutID ? nil : row.id, values: [value])]
            }
        case .task:
            result.kind = .task
            result.columns = ["File", "Line", "Status", "Task"]
            result.tasks = Self.tasks(of: rows)
        }
        result.droppedRows = droppedRows
        result.droppedRowErrors = droppedRowErrors
        return result
    }

    /// Task rows in result order; a task whose parent task is also in the result is indented under it.
    static func tasks(of rows: [Row]) -> [DataviewResult.Task] {
        var inResult: [String: Int] = [:]  // "path:line" → depth
        var tasks: [DataviewResult.Task] = []
        // After GROUP BY the rows are groups: their tasks, group by group.
        let taskRows = rows.flatMap { row -> [(data: DataviewObject, group: DataviewValue?)] in
            if row.data["path"] == nil, case .list(let members)? = row.data["rows"] {
                return members.compactMap { if case .object(let task) = $0 { (task, row.id) } else { nil } }
            }
            return [(row.data, nil)]
        }
        for (data, group) in taskRows {
            guard case .string(let path)? = data["path"], case .number(let line)? = data["line"] else { continue }
            var depth = 0
            if case .number(let parent)? = data["parent"], let parentDepth = inResult["\(path):\(Int(parent))"] {
                depth = parentDepth + 1
            }
            inResult["\(path):\(Int(line))"] = depth
            let status: String
            if case .string(let given)? = data["status"] { status = given } else { status = " " }
            let text: String
            if case .string(let given)? = data["text"] { text = given } else { text = "" }
            tasks.append(.init(path: path, line: Int(line) + 1, status: status, text: text, depth: depth, group: group))
        }
        return tasks
    }

    /// Applies `body` to each row; rows where it throws are dropped, unless every row fails.
    private mutating func each<Output>(_ rows: [Row], _ operation: String, _ body: (Row) throws -> [Output]) throws -> [Output] {
        var output: [Output] = []
        var errors: [String] = []
        for row in rows {
            try deadline?.check()
            do {
                output += try body(row)
            } catch let error as DataviewError {
                errors.append(error.errorDescription ?? "\(error)")
            }
        }
        if !rows.isEmpty && errors.count == rows.count {
            let first = Array(Set(errors)).sorted().prefix(3).map { "- " + $0 }.joined(separator: "\n")
            throw DataviewError.evaluation(message: "every row failed during \(operation); first errors:\n\(first)")
        }
        droppedRows += errors.count
        for error in errors where droppedRowErrors.count < 3 && !droppedRowErrors.contains(error) { droppedRowErrors.append(error) }
        return output
    }
}
