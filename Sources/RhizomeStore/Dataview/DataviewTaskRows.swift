import RhizomeCore

/// The simplest `TASK` queries answered from the index's task rows alone, without reading a note:
/// `TASK [FROM …] [WHERE <status tests>]… [LIMIT n]`, where every condition is a test of the task's status
/// (`DataviewTaskFilter`), the most common shape (`TASK WHERE !completed`, `TASK FROM "Projects" WHERE
/// !completed LIMIT 20`). A task's row holds all such a result shows: its line, status, text with its
/// continuation lines, and the line of its parent task (for the indentation).
///
/// Exactly what the general path gives (`DataviewTaskRowsTests` compares them query by query): the index's
/// tasks are `ListItemParser`'s, line, status, text and parent alike (`TaskAgreementTests`). Any other
/// query (fields, `SORT`, `GROUP BY`, a `WHERE` on anything else) builds task objects from the notes.
extension IndexStore {
    /// The tasks of a query in result order, and how many notes they came from; nil when the query needs
    /// more than the task rows (the planner gave no `taskRows`).
    func indexedTasks(plan: DataviewPlan) throws -> (tasks: [DataviewResult.Task], notes: Int)? {
        guard let taskRows = plan.taskRows else { return nil }
        let limit = taskRows.limit
        let rows = try connection.prepare(taskRows.sql).bind(taskRows.bindings)
        defer { rows.reset() }
        // SQL compares ASCII statuses exactly; Dataview's text comparison decides the others.
        let checksStatus = !plan.taskFilter.isExactInSQL
        var tasks: [DataviewResult.Task] = []
        var notesWithTasks = 0
        var depths: [(line: Int, depth: Int)] = []  // the note's tasks so far: a parent comes before its children
        var path = ""
        while tasks.count < limit, try rows.step() {
            let status = rows.text(2)
            if checksStatus && !plan.taskFilter.matches(status: status) { continue }
            let taskPath = rows.text(0)
            if taskPath != path {
                path = taskPath
                depths.removeAll(keepingCapacity: true)
                notesWithTasks += 1
            }
            let line = Int(rows.int(1))
            var depth = 0
            if let parent = rows.optionalInt(4).map(Int.init), let known = depths.last(where: { $0.line == parent }) { depth = known.depth + 1 }
            depths.append((line, depth))
            tasks.append(DataviewResult.Task(path: path, line: line, status: status, text: rows.text(3), depth: depth))
        }
        return (tasks, notesWithTasks)
    }

    /// The query's `LIMIT` (`.max` without one) when its task rows answer it, else nil.
    static func taskRowLimit(of query: DataviewQuery, filter: DataviewTaskFilter) -> Int? {
        guard case .task = query.kind else { return nil }
        var conditions = 0
        var limit = Int.max
        for (position, command) in query.commands.enumerated() {
            switch command {
            case .from: continue
            case .where(let expression): conditions += DataviewPlanner.conjuncts(expression).count
            case .limit(.literal(let value)) where position == query.commands.count - 1:
                guard let count = DataviewQuery.limitCount(value) else { return nil }
                limit = count
            default: return nil
            }
        }
        // Every condition is one of the filter's tests (it stops at the first that is not).
        return conditions == filter.tests.count ? limit : nil
    }
}
