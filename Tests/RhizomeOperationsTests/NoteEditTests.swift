import Foundation
import Testing
import RhizomeCore
import RhizomeOperations
import RhizomeTestSupport

/// Single-note edits through `VaultEditor`: only the asked-for bytes change, line endings and comments are
/// kept, stale hashes and schema violations are refused, and each edit can be undone.
@Suite struct NoteEditTests {
    func editor(_ vault: TemporaryVault) throws -> VaultEditor {
        _ = try vault.index()
        return try VaultEditor(vaultPath: vault.path, databasePath: vault.databasePath, store: try vault.store())
    }

    @Test func appendingToASectionGoesBeforeItsBlankLinesAndKeepsCRLF() throws {
        let vault = try TemporaryVault()
        try vault.write("Log.md", "# Log\r\n\r\n## Monday\r\n- a\r\n\r\n## Tuesday\r\n- b\r\n")
        let editor = try editor(vault)
        try editor.apply(try editor.planInsert("- a2\n- a3", into: "Log", heading: "Monday"))
        #expect(try vault.read("Log.md") == "# Log\r\n\r\n## Monday\r\n- a\r\n- a2\r\n- a3\r\n\r\n## Tuesday\r\n- b\r\n")
        try editor.apply(try editor.planInsert("first", into: "Log", heading: "tuesday", atStart: true))
        #expect(try vault.read("Log.md").hasSuffix("## Tuesday\r\nfirst\r\n- b\r\n"), "a heading matches ignoring case")
    }

    @Test func prependGoesAfterTheFrontmatterAndAppendAfterALastLineWithoutNewline() throws {
        let vault = try TemporaryVault()
        try vault.write("N.md", "---\na: 1\n---\nbody")
        let editor = try editor(vault)
        try editor.apply(try editor.planInsert("top", into: "N", atStart: true))
        try editor.apply(try editor.planInsert("bottom", into: "N"))
        #expect(try vault.read("N.md") == "---\na: 1\n---\ntop\nbody\nbottom\n")
    }

    @Test func prependingADashLineToANoteWithoutPropertiesIsRefusedRatherThanMakingItsTextProperties() throws {
        let vault = try TemporaryVault()
        try vault.write("N.md", "hello\n---\nmore\n")
        try vault.write("Empty.md", "")
        try vault.write("P.md", "---\na: 1\n---\nbody\n---\n")
        let editor = try editor(vault)
        // `---` on top would close at the rule below: Obsidian would read `hello` as the note's properties.
        for text in ["---", "---\nnote: x"] {
            #expect(throws: EditError.self) { try editor.planInsert(text, into: "N", atStart: true) }
        }
        #expect(throws: EditError.self) { try editor.planInsert("---\na: 1\n---", into: "Empty") }
        #expect(try vault.read("N.md") == "hello\n---\nmore\n")
        // Under a blank line, after existing properties, or at the end, a rule is only a rule.
        try editor.apply(try editor.planInsert("\n---", into: "N", atStart: true))
        try editor.apply(try editor.planInsert("---", into: "N"))
        #expect(try vault.read("N.md") == "\n---\nhello\n---\nmore\n---\n")
        try editor.apply(try editor.planInsert("---", into: "P", atStart: true))
        #expect(try vault.read("P.md") == "---\na: 1\n---\n---\nbody\n---\n")
    }

    @Test func aNoteOpeningWithAnUnclosedDashLineIsNotToldThatABlankLineHelps() throws {
        let vault = try TemporaryVault()
        try vault.write("U.md", "---\ntitle: draft\nsome text\n")
        let editor = try editor(vault)
        // Appended anywhere, `---` closes the first line's block; the advice must name what does work.
        for text in ["---", "\n---"] {
            #expect { try editor.planInsert(text, into: "U") } throws: { error in
                guard case EditError.refused(_, let reason) = error else { return false }
                return reason.contains("nothing closes it") && reason.contains("`***`") && !reason.contains("blank line")
            }
        }
        try editor.apply(try editor.planInsert("***", into: "U"))
        #expect(try vault.read("U.md") == "---\ntitle: draft\nsome text\n***\n")
    }

    @Test func aMissingHeadingIsAnErrorNamingTheHeadingsThereAre() throws {
        let vault = try TemporaryVault()
        try vault.write("N.md", "# One\n## Two\n")
        let editor = try editor(vault)
        #expect(throws: EditError.headingNotFound(path: "N.md", heading: "Three", headings: ["One", "Two"])) {
            try editor.planInsert("x", into: "N", heading: "Three")
        }
    }

    @Test func settingPropertiesKeepsCommentsOrderAndBody() throws {
        let vault = try TemporaryVault()
        let body = "# Body\n\nText with [[Link]] and `code`.\n"
        try vault.write("N.md", "---\n# a comment\nstatus: draft  # why\ntags: [x]\n---\n" + body)
        let editor = try editor(vault)
        try editor.apply(try editor.planProperties([("status", .string("active")), ("done", .bool(true)), ("tags", nil)], of: "N"))
        let text = try vault.read("N.md")
        #expect(text.hasPrefix("---\n# a comment\nstatus: active"), "\(text)")
        #expect(text.contains("done: true\n"))
        #expect(!text.contains("tags:"))
        #expect(text.hasSuffix("---\n" + body), "the body keeps every byte")
    }

    @Test func aStaleHashIsRefused() throws {
        let vault = try TemporaryVault()
        try vault.write("N.md", "one\n")
        let editor = try editor(vault)
        let hash = VaultEditor.hash(of: Array("one\n".utf8))
        try vault.write("N.md", "one, edited elsewhere\n")
        #expect(throws: EditError.hashMismatch(path: "N.md", expected: hash, actual: VaultEditor.hash(of: Array("one, edited elsewhere\n".utf8)))) {
            try editor.planInsert("two", into: "N", expectedHash: hash)
        }
        #expect(try vault.read("N.md") == "one, edited elsewhere\n")
    }

    @Test func aPropertyTheSchemaForbidsIsRefusedUnlessForced() throws {
        let vault = try TemporaryVault()
        try vault.write(".rhizome/schemas/task.yaml", """
            version: 1
            type: task
            description: Something to do.
            frontmatter:
              type: object
              required: [type, status]
              properties:
                type:
                  type: string
                status:
                  type: string
                  enum: [open, done]
            """)
        try vault.write("T.md", "---\ntype: task\nstatus: open\n---\n")
        let editor = try editor(vault)
        #expect {
            try editor.planProperties([("status", .string("someday"))], of: "T")
        } throws: { error in
            guard case EditError.invalidResult(let path, let findings) = error else { return false }
            return path == "T.md" && !findings.isEmpty
        }
        try editor.apply(try editor.planProperties([("status", .string("someday"))], of: "T", force: true))
        #expect(try vault.read("T.md").contains("status: someday"))
    }

    @Test func aCreatedNoteIsUndoneToTheTrashNeverDeleted() throws {
        let vault = try TemporaryVault()
        try vault.write("Existing.md", "x\n")
        let editor = try editor(vault)
        #expect(throws: EditError.destinationExists(path: "Existing.md")) { try editor.planCreate(at: "existing", text: "y") }
        try editor.apply(try editor.planCreate(at: "Inbox/New idea", text: "# New idea\n"))
        #expect(try vault.read("Inbox/New idea.md") == "# New idea\n")
        try editor.apply(try editor.planUndo())
        #expect(!FileManager.default.fileExists(atPath: vault.url("Inbox/New idea.md").path))
        #expect(try vault.read(".trash/New idea.md") == "# New idea\n")
    }

    @Test func aTaskStatusChangesOnlyItsCharacter() throws {
        let vault = try TemporaryVault()
        try vault.write("T.md", "# T\n- [ ] plain [link](x.md)\n> - [ ] quoted\n```\n- [ ] in code\n```\n")
        let editor = try editor(vault)
        try editor.apply(try editor.planTaskStatus("x", note: "T", line: 2))
        try editor.apply(try editor.planTaskStatus("/", note: "T", line: 3))
        #expect(try vault.read("T.md") == "# T\n- [x] plain [link](x.md)\n> - [/] quoted\n```\n- [ ] in code\n```\n")
        #expect(throws: (any Error).self, "a task in fenced code is no task") { try editor.planTaskStatus("x", note: "T", line: 5) }
        // The error names the nearest tasks in line order.
        #expect(throws: EditError.refused(path: "T.md", reason: "line 1 holds no task; the nearest tasks are on lines 2, 3")) {
            try editor.planTaskStatus("x", note: "T", line: 1)
        }
    }

    @Test func theDailyNoteIsCreatedFromItsTemplateOnceAndThenFound() throws {
        let vault = try TemporaryVault()
        try vault.write(".obsidian/daily-notes.json", #"{"folder": "Daily", "format": "YYYY-MM-DD", "template": "Templates/Daily.md"}"#)
        try vault.write("Templates/Daily.md", "# {{title}}\n\n## Tasks\n")
        let editor = try editor(vault)
        let day = try #require(VaultEditor.day("2026-11-25"))
        let first = try editor.planDaily(for: day)
        #expect(first.path == "Daily/2026-11-25.md")
        try editor.apply(try #require(first.create))
        #expect(try vault.read("Daily/2026-11-25.md") == "# 2026-11-25\n\n## Tasks\n")
        try editor.apply(try editor.planInsert("- [ ] a", into: first.path, heading: "Tasks"))
        let again = try editor.planDaily(for: day)
        #expect(again.create == nil, "an existing daily note is found, never recreated")
        #expect(try vault.read("Daily/2026-11-25.md") == "# 2026-11-25\n\n## Tasks\n- [ ] a\n")
        #expect(VaultEditor.day("2026-02-30") == nil)
        #expect(VaultEditor.day("tomorrow") != nil)
    }
}
