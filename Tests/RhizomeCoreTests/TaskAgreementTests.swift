/// The tasks the index stores (`NoteParser`) are exactly the tasks `ListItemParser` finds, line for line
/// and status for status: a Dataview `TASK` query reads only the notes the index says hold a task, so a
/// task one of them sees and the other does not would vanish from its answer.
import Foundation
import Testing
import RhizomeCore
import RhizomeTestSupport

@Suite struct TaskAgreementTests {
    /// Generated notes per run; `RHIZOME_TASK_NOTES` runs more.
    static let notes = ProcessInfo.processInfo.environment["RHIZOME_TASK_NOTES"].flatMap(Int.init) ?? 400

    @Test func `generated notes with tasks in every kind of block have the same tasks in both parsers`() {
        var random = SeededGenerator(state: 0x7A5C_0001)
        var withTasks = 0
        for number in 0..<Self.notes {
            let text = Self.note(&random)
            let disagreement = Self.disagreement(Array(text.utf8))
            #expect(disagreement == nil, "note \(number): \(disagreement ?? "")\n\(text)")
            if disagreement != nil { return }
            if !NoteParser.parse(Array(text.utf8), path: "Note.md").tasks.isEmpty { withTasks += 1 }
        }
        // The generator must reach both cases for the test to mean anything.
        #expect(withTasks > Self.notes / 4 && withTasks < Self.notes)
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
        ]
        for shape in shapes {
            let disagreement = Self.disagreement(Array(shape.utf8))
            #expect(disagreement == nil, "\(disagreement ?? "")\n\(shape)")
        }
    }

    // MARK: Helpers

    /// Where the parsers differ, or nil.
    static func disagreement(_ bytes: [UInt8]) -> String? {
        let indexed = NoteParser.parse(bytes, path: "Note.md").tasks.map { "\($0.line) [\($0.status)]" }
        let listed = ListItemParser.parse(bytes, path: "Note.md").compactMap { item in item.status.map { "\(item.line) [\($0)]" } }
        return indexed == listed ? nil : "index: \(indexed), list items: \(listed)"
    }

    /// A note of random blocks: lists of tasks and items at several depths, in quotes and callouts,
    /// fenced code, comment sections, headings, paragraphs, frontmatter.
    static func note(_ random: inout SeededGenerator) -> String {
        var lines: [String] = []
        if Bool.random(using: &random) { lines += ["---", "status: \(["open", "- [ ] not a task", "[x]"].randomElement(using: &random)!)", "---"] }
        for _ in 0..<Int.random(in: 1...8, using: &random) {
            let quote = ["", "", "> ", "> [!note] Title\n> "].randomElement(using: &random)!
            switch Int.random(in: 0..<7, using: &random) {
            case 0: lines.append("## Heading")
            case 1: lines += ["```", "- [ ] code", "```"]
            case 2: lines += ["%%", "- [ ] commented", "%%"]
            case 3: lines.append("Paragraph with %% inline %% comment and [[link]].")
            default:
                if quote.contains("\n") { lines.append(String(quote.prefix { $0 != "\n" })) }  // the callout's title line
                for _ in 0..<Int.random(in: 1...5, using: &random) {
                    let indent = ["", "", "  ", "    ", "\t", "   "].randomElement(using: &random)!
                    let marker = ["- ", "* ", "+ ", "1. ", "2) "].randomElement(using: &random)!
                    let box = ["[ ] ", "[x] ", "[X] ", "[-] ", "[>] ", "", "[ ]", "[] "].randomElement(using: &random)!
                    let tail = ["task", "task [due:: 2024-01-01]", "task %% start", "end %%", "task ^block", "`- [ ] code`"].randomElement(using: &random)!
                    lines.append(quote.components(separatedBy: "\n").last! + indent + marker + box + tail)
                }
            }
            if Bool.random(using: &random) { lines.append("") }
        }
        return lines.joined(separator: Bool.random(using: &random) ? "\n" : "\r\n")
    }
}
