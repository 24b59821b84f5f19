import Foundation

/// One execution of a query's data commands over rows, as Dataview's engine runs them (`src/query/engine.ts`):
/// WHERE, SORT, FLATTEN, GROUP BY and LIMIT in order, then the columns of the result. Rows on which an
/// expression fails are dropped (counted, with the first errors kept); a command fails only when it fails
/// on every row. Pure: the rows come from the caller (the index's pages, `IndexStore.runDataview`).
///
///     var run = DataviewRun(evaluator: evaluator)
///     for command in query.commands { rows = try run.apply(command, to: rows) }  // FROM passes rows through
///     let table = try run.table(of: query, rows: rows)
public struct DataviewRun {
    public struct Row: Sendable {
        /// The page link, the task link, or the group key.
        public var id: DataviewValue
        public var data: DataviewObject

        public init(id: DataviewValue, data: DataviewObject) {
            self.id = id
            self.data = data
        }
    }

    let evaluator: DataviewEvaluator
    /// Called before each row of each command: FLATTEN multiplies rows, and a query that would run for
    /// minutes ends at the caller's time limit instead. What it throws ends the run (never dropped as a
    /// row error).
    public var checkDeadline: (() throws -> Void)?
    /// The group key's name once a GROUP BY ran.
    public private(set) var groupName: String? = nil
    /// Rows dropped because an expression failed on them, and the first three distinct errors.
    public private(set) var droppedRows = 0
    public private(set) var droppedRowErrors: [String] = []

    public init(evaluator: DataviewEvaluator) { self.evaluator = evaluator }

    /// Runs one data command. FROM is the caller's (it chose the rows): they pass through.
    public mutating func apply(_ command: DataviewQuery.Command, to rows: [Row]) throws -> [Row] {
        let evaluator = self.evaluator
        switch command {
        case .from:
            return rows
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
                    message: "LIMIT should be a whole number, but `\(expression.queryText)` is \(value.typeName) `\(DataviewText.plain(value))`")
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
    public mutating func table(of query: DataviewQuery, rows: [Row]) throws -> DataviewTable {
        let evaluator = self.evaluator
        let idName = groupName ?? "File"
        var result = DataviewTable(kind: .table, columns: [], rows: [], tasks: [], groupName: groupName, droppedRows: 0, droppedRowErrors: [])
        switch query.kind {
        case .table(let columns, let withoutID):
            result.columns = (withoutID ? [] : [idName]) + columns.map(\.name)
            result.rows = try each(rows, "final data extraction") { row in
                var values: [DataviewValue] = []
                for column in columns { values.append(try evaluator.evaluate(column.expression, row: row.data)) }
                return [DataviewTable.Row(id: withoutID ? nil : row.id, values: values)]
            }
        case .list(let expression, let withoutID):
            result.kind = .list
            result.columns = expression == nil ? [idName] : (withoutID ? ["Value"] : [idName, "Value"])
            result.rows = try each(rows, "final data extraction") { row in
                guard let expression else { return [DataviewTable.Row(id: row.id, values: [])] }
                let value = try evaluator.evaluate(expression, row: row.data)
                return [DataviewTable.Row(id: withoutID ? nil : row.id, values: [value])]
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
    static func tasks(of rows: [Row]) -> [DataviewTable.Task] {
        var inResult: [String: Int] = [:]  // "path:line" → depth
        var tasks: [DataviewTable.Task] = []
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
            try checkDeadline?()
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
