import RhizomeCore

/// What a `TASK` query's leading `WHERE` says about a task's status alone (`!completed`, `checked`,
/// `status = "-"`), used twice before the query runs: SQL keeps only the notes holding a task that
/// passes (the index's `task` table has every task's status), and only passing tasks become rows.
///
/// Exact, not a guess: the `WHERE` still runs in Swift over the rows that remain. Only a leading chain
/// of such conditions is used (`WHERE !completed AND due < date(today)` uses `!completed`), and a later
/// `WHERE` only when every condition before it was one: those conditions cannot fail, so no row that
/// would have failed (and counted toward "every row failed") is left out.
struct DataviewTaskFilter: Sendable {
    /// One condition on a task's status.
    enum Test: Sendable, Equatable {
        /// `completed`: the status is `x` or `X`.
        case completed
        /// `checked`: the status is not a space (nor empty).
        case checked
        /// `status = "…"`, compared as Dataview compares text.
        case status(String)
    }

    var tests: [(test: Test, holds: Bool)] = []

    var isEmpty: Bool { tests.isEmpty }

    init() {}

    /// The filter a query's leading `WHERE` commands give (empty when they say nothing about status).
    init(query: DataviewQuery) {
        commands: for command in query.commands {
            switch command {
            case .from: continue
            case .where(let expression):
                let conjuncts = DataviewPlanner.conjuncts(expression)
                for conjunct in conjuncts {
                    guard let test = Self.test(conjunct) else { break commands }
                    tests.append(test)
                }
            default: break commands
            }
        }
    }

    /// Whether a task of `status` passes every test.
    func matches(status: String) -> Bool {
        tests.allSatisfy { Self.passes($0.test, status: status) == $0.holds }
    }

    /// Whether `sql` decides every test exactly; when not (a `status` of non-ASCII text, which SQL lets
    /// through), `matches(status:)` must check each task again.
    var isExactInSQL: Bool {
        !tests.contains { if case .status(let text) = $0.test { !Self.isASCII(text) } else { false } }
    }

    /// SQL over the `task` table aliased `t`: true for a task that can pass (exact for `completed` and
    /// `checked`; `status` only for ASCII text, where SQL's comparison is Dataview's).
    var sql: (condition: String, bindings: [SQLiteValue]) {
        var parts: [String] = []
        var bindings: [SQLiteValue] = []
        for (test, holds) in tests {
            switch test {
            case .completed: parts.append("t.status \(holds ? "IN" : "NOT IN") ('x', 'X')")
            case .checked: parts.append("t.status \(holds ? "NOT IN" : "IN") (' ', '')")
            case .status(let text) where Self.isASCII(text):
                parts.append("t.status \(holds ? "=" : "!=") ?")
                bindings.append(.text(text))
            case .status: continue
            }
        }
        return (parts.isEmpty ? "1" : parts.joined(separator: " AND "), bindings)
    }

    /// For `--explain`: the conditions as written in Dataview.
    var description: String {
        tests.map { test, holds in
            switch test {
            case .completed: holds ? "completed" : "!completed"
            case .checked: holds ? "checked" : "!checked"
            case .status(let text): "status \(holds ? "=" : "!=") \"\(text)\""
            }
        }.joined(separator: " AND ")
    }

    // MARK: Reading conditions

    private static func isASCII(_ text: String) -> Bool { text.utf8.allSatisfy { $0 < 0x80 } }

    private static func passes(_ test: Test, status: String) -> Bool {
        switch test {
        case .completed: status == "x" || status == "X"
        case .checked: status != " " && !status.isEmpty
        case .status(let text): DataviewValue.compare(.string(status), .string(text)) == 0
        }
    }

    /// `completed`, `!completed`, `completed = false`, `checked != true`, `status = "x"`, `"-" != status`…
    private static func test(_ expression: DataviewExpression) -> (Test, Bool)? {
        switch expression {
        case .variable("completed"): return (.completed, true)
        case .variable("checked"): return (.checked, true)
        case .not(let inner):
            guard let (test, holds) = Self.test(inner) else { return nil }
            return (test, !holds)
        case .binary(let op, let left, let right) where op == .equal || op == .notEqual:
            let (variable, literal): (DataviewExpression, DataviewExpression) = if case .literal = left { (right, left) } else { (left, right) }
            guard case .variable(let name) = variable, case .literal(let value) = literal else { return nil }
            let equal = op == .equal
            switch (name, value) {
            case ("completed", .boolean(let flag)): return (.completed, flag == equal)
            case ("checked", .boolean(let flag)): return (.checked, flag == equal)
            case ("status", .string(let text)): return (.status(text), equal)
            default: return nil
            }
        default:
            return nil
        }
    }
}
