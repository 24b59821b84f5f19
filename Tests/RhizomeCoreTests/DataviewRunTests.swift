/// Tests of `DataviewRun`, Dataview's data commands over rows made by hand (no index): rows an expression
/// fails on are dropped and counted, a command fails only when it fails on every row, GROUP BY and
/// FLATTEN reshape rows as Dataview's engine does (`src/query/engine.ts`), and the caller's deadline
/// ends a run rather than being taken for a row error.
import Testing
@testable import RhizomeCore

private let now = DataviewDate(year: 2024, month: 1, day: 31, hour: 10, minute: 30, hasTime: true)

/// A page row: its link as id, and its fields.
private func page(_ name: String, _ fields: [(String, DataviewValue)]) -> DataviewRun.Row {
    DataviewRun.Row(id: .link(DataviewLink(path: name + ".md")), data: DataviewObject(fields))
}

/// Runs every data command of `query` over `rows`, then takes its table.
private func table(_ query: String, _ rows: [DataviewRun.Row], deadline: (() throws -> Void)? = nil) throws -> (DataviewTable, DataviewRun) {
    let parsed = try DataviewParser.parse(query)
    var run = DataviewRun(evaluator: DataviewEvaluator(now: now))
    run.checkDeadline = deadline
    var current = rows
    for command in parsed.commands { current = try run.apply(command, to: current) }
    return (try run.table(of: parsed, rows: current), run)
}

private func ids(_ table: DataviewTable) -> [String] {
    table.rows.map { row in
        if case .link(let link)? = row.id { return link.path }
        return row.id.map(DataviewText.plain) ?? "-"
    }
}

private let pages = [
    page("A", [("n", .number(3)), ("kind", .string("x"))]),
    page("B", [("n", .string("three")), ("kind", .string("y"))]),
    page("C", [("n", .number(1)), ("kind", .string("x"))]),
    page("D", [("n", .number(2)), ("kind", .string("y"))]),
]

@Test func rowsAnExpressionFailsOnAreDroppedAndCounted() throws {
    // `"three" - 1` has no meaning in Dataview: that row goes, the others are filtered as asked.
    let (result, run) = try table("TABLE n WHERE n - 1 > 0", pages)
    #expect(ids(result) == ["A.md", "D.md"])
    #expect(result.columns == ["File", "n"])
    #expect(run.droppedRows == 1)
    #expect(result.droppedRows == 1)
    #expect(result.droppedRowErrors.count == 1)
}

@Test func aCommandThatFailsOnEveryRowFailsTheQuery() {
    let strings = [page("B", [("n", .string("three"))]), page("E", [("n", .string("four"))])]
    #expect {
        _ = try table("TABLE n WHERE n - 1 > 0", strings)
    } throws: { error in
        guard case DataviewError.evaluation(let message) = error else { return false }
        return message.hasPrefix("every row failed during WHERE; first errors:")
    }
}

@Test func groupByOrdersGroupsByKeyAndKeepsRowOrderInside() throws {
    let (result, _) = try table("TABLE length(rows) AS count, rows.file GROUP BY kind AS sort", [
        page("A", [("kind", .string("y")), ("file", .string("A"))]),
        page("B", [("kind", .string("x")), ("file", .string("B"))]),
        page("C", [("kind", .string("y")), ("file", .string("C"))]),
    ])
    #expect(result.groupName == "sort")
    #expect(result.columns == ["sort", "count", "rows.file"])
    #expect(ids(result) == ["x", "y"])
    #expect(result.rows.map { $0.values.map(DataviewText.plain) } == [["1", "B"], ["2", "A, C"]])
}

@Test func flattenMakesOneRowPerElementAndSortIsStable() throws {
    let (result, _) = try table("TABLE t FLATTEN tags AS t SORT length(t)", [
        page("A", [("tags", .list([.string("bb"), .string("a")]))]),
        page("B", [("tags", .string("cc"))]),
    ])
    #expect(ids(result) == ["A.md", "A.md", "B.md"])
    #expect(result.rows.map { $0.values.map(DataviewText.plain) } == [["a"], ["bb"], ["cc"]])
}

@Test func limitMustBeAWholeNumberAndSaysWhatItGot() throws {
    #expect(try table("LIST LIMIT 2", pages).0.rows.count == 2)
    #expect {
        _ = try table("LIST LIMIT (3 / 2)", pages)
    } throws: { error in
        guard case DataviewError.evaluation(let message) = error else { return false }
        return message == "LIMIT should be a whole number, but `(3 / 2)` is number `1.5`"
    }
}

@Test func theCallersDeadlineEndsTheRunInsteadOfDroppingRows() {
    struct TimeUp: Error {}
    var calls = 0
    #expect(throws: TimeUp.self) {
        _ = try table("TABLE n WHERE n > 0", pages) {
            calls += 1
            if calls == 3 { throw TimeUp() }
        }
    }
    #expect(calls == 3)
}

@Test func tasksNestUnderAParentTaskInTheResult() throws {
    func task(_ line: Int, parent: Int?, _ text: String) -> DataviewRun.Row {
        var fields: [(String, DataviewValue)] = [("path", .string("T.md")), ("line", .number(Double(line))), ("text", .string(text)), ("status", .string(" "))]
        if let parent { fields.append(("parent", .number(Double(parent)))) }
        return DataviewRun.Row(id: .null, data: DataviewObject(fields))
    }
    let (result, _) = try table("TASK", [task(0, parent: nil, "top"), task(1, parent: 0, "child"), task(5, parent: 3, "orphan")])
    #expect(result.kind == .task)
    #expect(result.tasks.map { "\($0.line):\($0.depth):\($0.text)" } == ["1:0:top", "2:1:child", "6:0:orphan"])
}
