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
        let candidates = try connection.prepare(plan.sql).bind(plan.bindings).rows { $0.int(0) }
        lap("plan and SQL")

        let thisPage: DataviewValue = originRecord.flatMap { pages.page(path: $0.path) }.map(DataviewValue.object) ?? .null
        let evaluator = DataviewEvaluator(
            thisPage: thisPage,
            resolveLink: { pages.link($0, from: sourcePath) },
            linkedPage: { pages.page(path: $0.path) },
            now: now ?? DataviewDate(instant: Date()))
        var run = DataviewRun(evaluator: evaluator)

        var rows: [DataviewRun.Row]
        let isTask: Bool
        if case .task = query.kind { isTask = true } else { isTask = false }
        if isTask {
            var needs = DataviewRun.needs(of: query)
            needs.fields = true
            needs.fileMembers?.formUnion(["tasks", "lists"])
            rows = try pages.pages(ids: candidates, needs: needs).flatMap { page -> [DataviewRun.Row] in
                guard case .object(let file)? = page["file"], case .list(let tasks)? = file["tasks"] else { return [] }
                return tasks.compactMap { task in
                    guard case .object(var data) = task else { return nil }
                    for (key, value) in page.pairs where data[key] == nil { data[key] = value }
                    return DataviewRun.Row(id: data["link"] ?? .null, data: data)
                }
            }
        } else {
            rows = try pages.pages(ids: candidates, needs: DataviewRun.needs(of: query)).map { page in
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

    /// A resolver over every file, reused across queries until the index changes (building one for a
    /// 10,000-note vault costs a few milliseconds; queries resolve field links with it).
    func cachedResolver() -> LinkResolver<Int64> {
        let stamp = (try? connection.prepare("SELECT (SELECT count(*) FROM file), (SELECT max(id) FROM file), (SELECT data_version FROM pragma_data_version)")
            .rows { "\(databasePath)/\($0.int(0))/\($0.int(1))/\($0.int(2))/\(sqlite3_total_changes64(connection.handle))" }.first) ?? nil
        return DataviewResolverCache.shared.resolver(for: ObjectIdentifier(connection), stamp: stamp) {
            (try? resolver(forFilesIn: "SELECT id, path FROM file")) ?? LinkResolver(files: [])
        }
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

/// The last resolver built per connection, with the state of the index it was built from.
final class DataviewResolverCache: @unchecked Sendable {
    static let shared = DataviewResolverCache()
    private let lock = NSLock()
    private var entries: [ObjectIdentifier: (stamp: String, resolver: LinkResolver<Int64>)] = [:]

    func resolver(for connection: ObjectIdentifier, stamp: String?, build: () -> LinkResolver<Int64>) -> LinkResolver<Int64> {
        lock.lock()
        if let stamp, let entry = entries[connection], entry.stamp == stamp {
            lock.unlock()
            return entry.resolver
        }
        lock.unlock()
        let resolver = build()
        lock.lock()
        if let stamp { entries[connection] = (stamp, resolver) }
        if entries.count > 16 { entries = entries.filter { $0.key == connection } }
        lock.unlock()
        return resolver
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
            return stableSorted(keyed) { a, b in
                for (index, key) in keys.enumerated() {
                    let order = DataviewValue.compare(a.keys[index], b.keys[index])
                    if order != 0 { return key.isAscending ? order < 0 : order > 0 }
                }
                return false
            }.map(\.row)
        case .limit(let count):
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
            let sorted = stableSorted(keyed) { DataviewValue.compare($0.key, $1.key) < 0 }
            var groups: [Row] = []
            var members: [DataviewValue] = []
            var currentKey: DataviewValue? = nil
            func close() {
                guard let key = currentKey else { return }
                var data = DataviewObject()
                data["key"] = key
                data["rows"] = .list(members)
                if name != "key" && name != "rows" { data[name] = key }
                groups.append(Row(id: key, data: data))
            }
            for (key, row) in sorted {
                if let current = currentKey, DataviewValue.compare(current, key) == 0 {
                    members.append(.object(row.data))
                } else {
                    close()
                    currentKey = key
                    members = [.object(row.data)]
                }
            }
            close()
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
        let taskRows = rows.flatMap { row -> [DataviewObject] in
            if row.data["path"] == nil, case .list(let members)? = row.data["rows"] {
                return members.compactMap { if case .object(let task) = $0 { task } else { nil } }
            }
            return [row.data]
        }
        for data in taskRows {
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
            tasks.append(.init(path: path, line: Int(line) + 1, status: status, text: text, depth: depth))
        }
        return tasks
    }

    /// Applies `body` to each row; rows where it throws are dropped, unless every row fails.
    private mutating func each<Output>(_ rows: [Row], _ operation: String, _ body: (Row) throws -> [Output]) throws -> [Output] {
        var output: [Output] = []
        var errors: [String] = []
        for row in rows {
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

    // MARK: What a query needs

    /// Fields are loaded when the query names any variable besides `file` and `this`; of `file.*`, the
    /// members it names (all of them when it uses `file` whole, or indexes it with a computed key).
    static func needs(of query: DataviewQuery) -> DataviewPages.Needs {
        var needsFields = false
        var members: Set<String> = ["link", "name", "path", "folder"]
        var wholeFile = false
        func visit(_ expression: DataviewExpression, isMemberBase: Bool) {
            switch expression {
            case .variable(let name):
                if name == "file" { if !isMemberBase { wholeFile = true } } else if name != "this" { needsFields = true }
            case .member(let base, let name):
                members.insert(name)
                if name == "file" && !isMemberBase { wholeFile = true }  // `rows.file`
                visit(base, isMemberBase: true)
            case .index(let base, let index):
                if case .literal(.string(let key)) = index { members.insert(key) } else { wholeFile = true }
                visit(base, isMemberBase: true)
                visit(index, isMemberBase: false)
            case .call(_, let arguments, _, _):
                arguments.forEach { visit($0, isMemberBase: false) }
            case .binary(_, let left, let right):
                visit(left, isMemberBase: false)
                visit(right, isMemberBase: false)
            case .not(let inner), .negate(let inner):
                visit(inner, isMemberBase: false)
            case .list(let items):
                items.forEach { visit($0, isMemberBase: false) }
            case .object(let pairs):
                pairs.forEach { visit($0.value, isMemberBase: false) }
            case .lambda(_, let body):
                visit(body, isMemberBase: false)
            case .literal, .link:
                break
            }
        }
        for expression in query.expressions { visit(expression, isMemberBase: false) }
        if members.contains("day") { needsFields = true }
        return DataviewPages.Needs(fields: needsFields, fileMembers: wholeFile ? nil : members)
    }
}
