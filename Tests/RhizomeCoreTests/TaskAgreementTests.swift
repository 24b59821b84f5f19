/// The tasks the index stores (`NoteParser`) are exactly the tasks `ListItemParser` finds, line for line,
/// status for status, with the same text and the same parent task: a Dataview `TASK` query reads only the
/// notes the index says hold a task, and answers the simplest ones from the index alone.
import Foundation
import Testing
import RhizomeCore
import RhizomeTestSupport

@Suite struct TaskAgreementTests {
    /// Generated notes per run; `RHIZOME_TASK_NOTES` runs more.
    static let notes = ProcessInfo.processInfo.environment["RHIZOME_TASK_NOTES"].flatMap(Int.init) ?? 400

    @Test func `generated notes with tasks in every kind of block have the same tasks in both parsers`() {
        var random = SeededGenerator(state: 0x7A5C_0001)
        var withTasks = 0, continued = 0, nested = 0
        for number in 0..<Self.notes {
            let text = TaskNotes.note(&random)
            let disagreement = Self.disagreement(Array(text.utf8))
            #expect(disagreement == nil, "note \(number): \(disagreement ?? "")\n\(text)")
            if disagreement != nil { return }
            let tasks = NoteParser.parse(Array(text.utf8), path: "Note.md").tasks
            if !tasks.isEmpty { withTasks += 1 }
            continued += tasks.filter { $0.continuedText != nil }.count
            nested += tasks.filter { $0.parentTaskLine != nil }.count
        }
        // The generator must reach every case for the test to mean anything.
        #expect(withTasks > Self.notes / 4 && withTasks < Self.notes)
        #expect(continued > Self.notes / 10 && nested > Self.notes / 10, "\(continued) continued, \(nested) nested tasks")
    }

    @Test(.enabled(if: Fixtures.corpus("obsidian-hub") != nil, "../shared/corpora is absent (only CI and developers have it)"))
    func `every note of the real vaults has the same tasks in both parsers`() throws {
        var checked = 0
        for name in ["obsidian-help-en", "obsidian-hub", "claude-skills"] {
            guard let root = Fixtures.corpus(name), let walk = FileManager.default.enumerator(atPath: root.path) else { continue }
            for case let path as String in walk where path.hasSuffix(".md") {
                let bytes = try [UInt8](Data(contentsOf: root.appendingPathComponent(path)))
                let disagreement = Self.disagreement(bytes)
                #expect(disagreement == nil, "\(name)/\(path): \(disagreement ?? "")")
                checked += 1
            }
        }
        #expect(checked > 6_000)
    }

    @Test func `the shapes that treat tasks specially agree`() {
        let shapes = [
            "%%\n- [ ] hidden in a comment section\n%%\n- [ ] after it",
            "- [ ] a %% comment starts\n- [ ] still inside %%\n- [x] out",
            "```\n- [ ] in code\n```\n- [ ] out",
            "> [!todo] Callout\n> - [ ] in a callout\n>   - [x] nested",
            "---\ntags: [a]\n---\n- [ ] after frontmatter",
            "1. [x] numbered\n2) [ ] other\n   - [-] child",
            "- [ ]no space is no task\n- [] empty brackets\n-  [ ] two spaces\n\t- [/] tab",
            "<!-- - [ ] html comment -->\n- [ ] real",
            "    - [ ] indented code\n\n- [ ] real",
            "- [ ] a\n  continued\n\n  after blank\n  - [x] child\n    lazy\n- [ ] b",
            "- plain\n  - [ ] under plain\n    - [ ] under task\n  text of plain? no, of the task",
            "> - [ ] quoted\n> more\nlazy out of the quote",
        ]
        for shape in shapes {
            let disagreement = Self.disagreement(Array(shape.utf8))
            #expect(disagreement == nil, "\(disagreement ?? "")\n\(shape)")
        }
    }

    // MARK: Helpers

    /// Where the parsers differ, or nil.
    static func disagreement(_ bytes: [UInt8]) -> String? {
        let indexed = NoteParser.parse(bytes, path: "Note.md").tasks.map {
            "\($0.line) [\($0.status)] under \($0.parentTaskLine ?? 0): \($0.continuedText ?? $0.text)"
        }
        let items = ListItemParser.parse(bytes, path: "Note.md")
        let taskLines = Set(items.filter(\.isTask).map(\.line))
        let listed = items.compactMap { item in
            item.status.map { "\(item.line) [\($0)] under \(item.parentLine.flatMap { taskLines.contains($0) ? $0 : nil } ?? 0): \(item.text)" }
        }
        return indexed == listed ? nil : "index: \(indexed), list items: \(listed)"
    }
}
