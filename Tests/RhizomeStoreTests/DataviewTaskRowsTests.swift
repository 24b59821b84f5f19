/// `TASK` queries whose conditions all test the status are answered from the index's task rows
/// (`IndexStore.indexedTasks`): the same tasks, text, order and indentation as the general path, which
/// builds task objects from the notes' files.
import Foundation
import Testing
import RhizomeCore
import RhizomeStore
import RhizomeTestSupport

@Suite struct DataviewTaskRowsTests {
    /// One query in two forms: answered from the task rows, and (conditions wrapped in `(…) or false`,
    /// which is no status test) by the general path.
    struct Case: CustomStringConvertible {
        var source: String? = nil
        var conditions: [String] = []
        var limit: Int? = nil

        func text(fromTaskRows: Bool) -> String {
            var text = "TASK" + (source.map { " FROM \($0)" } ?? "")
            let conditions = fromTaskRows ? conditions : (conditions.isEmpty ? ["true"] : conditions.map { "(\($0)) or false" })
            text += conditions.map { " WHERE \($0)" }.joined()
            return text + (limit.map { " LIMIT \($0)" } ?? "")
        }

        var description: String { text(fromTaskRows: true) }
    }

    static let cases: [Case] = [
        Case(), Case(conditions: ["completed"]), Case(conditions: ["!completed"]), Case(conditions: ["checked"]),
        Case(conditions: ["!checked"]), Case(conditions: [#"status = "-""#]), Case(conditions: [#"status = "✓""#]),
        Case(conditions: [#"status != " ""#]), Case(conditions: ["completed = false"]), Case(conditions: ["!completed AND checked"]),
        Case(conditions: ["!completed", #"status != ">""#]), Case(source: #""A""#), Case(source: #""A""#, conditions: ["!completed"], limit: 7),
        Case(source: #"-"A""#, conditions: ["checked = true"]), Case(limit: 0), Case(conditions: ["!completed"], limit: 40),
    ]

    @Test func `TASK queries on status alone give from the index exactly what the notes give`() throws {
        var random = SeededGenerator(state: 0x7A5C_0002)
        let vault = try TemporaryVault()
        for number in 0..<80 { try vault.write("\(number % 2 == 0 ? "A" : "B")/Note \(number).md", TaskNotes.note(&random)) }
        let indexed = try DataviewVault(indexing: vault)
        var nested = 0, continued = 0
        for testCase in Self.cases {
            let fromRows = try indexed.run(testCase.text(fromTaskRows: true))
            let fromNotes = try indexed.run(testCase.text(fromTaskRows: false))
            #expect(fromRows.plan.evaluatedInSwift.isEmpty, "\(testCase): \(fromRows.plan.evaluatedInSwift)")
            #expect(fromNotes.plan.evaluatedInSwift.last == "tasks read from the candidate notes' files", "\(testCase)")
            #expect(Self.shown(fromRows) == Self.shown(fromNotes), "\(testCase)")
            #expect(!fromNotes.tasks.isEmpty || testCase.limit == 0, "\(testCase) finds no task: the case proves nothing")
            nested += fromNotes.tasks.filter { $0.depth > 0 }.count
            continued += fromNotes.tasks.filter { $0.text.contains("\n") }.count
        }
        #expect(nested > 20 && continued > 20, "\(nested) indented and \(continued) multi-line tasks")
    }

    @Test func `a TASK query on status alone reads no note, and any other reads the notes`() throws {
        let vault = try TemporaryVault()
        try vault.write("Plan.md", "- [ ] ship\n  - [x] tests\n")
        let indexed = try DataviewVault(indexing: vault)
        // The file goes after indexing: only the index can still answer for it.
        try FileManager.default.removeItem(atPath: vault.path + "/Plan.md")
        let fromRows = try indexed.run("TASK WHERE !completed")
        #expect(fromRows.tasks.map(\.text) == ["ship"])
        #expect(fromRows.plan.pushedDown.last == "every condition tests the status: tasks read from the index's task rows (no note is read)")
        #expect(try indexed.run(#"TASK WHERE !completed AND text != "x""#).tasks.isEmpty)
        #expect(try indexed.run("TASK WHERE !completed SORT line").tasks.isEmpty)
    }

    static func shown(_ result: DataviewResult) -> [String] {
        result.tasks.map { "\($0.path):\($0.line) [\($0.status)] depth \($0.depth): \($0.text)" }
    }
}
