/// Files saved with Windows line endings (CRLF: git's autocrlf, a Windows editor) read as their LF
/// twins would. In a Swift `String`, "\r\n" is one `Character`, which a split at "\n" or `hasSuffix("\n")`
/// does not see; each scenario here failed before it was fixed.
import Foundation
import Testing
import RhizomeCLI
import RhizomeClaude
import RhizomeCore
import RhizomeTestSupport

@Suite struct WindowsLineEndingTests {
    @Test func `search --format csv quotes nothing it need not, and a CRLF note's snippet holds no bare carriage return`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TemporaryVault()
        try vault.write("Windows.md", "alpha line\r\nbeta gamma\r\ndelta\r\n")
        let result = cli.run(["search", "beta", "--format", "csv", "--vault", vault.path, "--db", vault.databasePath])
        #expect(result.status == 0, "\(result.error)")
        #expect(!result.output.contains("\r"), "a bare CR splits the row for CSV readers: \(result.output.debugDescription)")
        let rows = result.output.split(separator: "\n")
        #expect(rows.count == 2 && rows[1].hasPrefix("Windows.md,"), "\(rows)")
        #expect(rows[1].contains("alpha line **beta** gamma"), "\(rows)")
    }

    @Test func `a reflection whose line endings became CRLF still counts as unedited`() {
        let note = Reflect.note(period: .init(fromDay: "2026-11-20", toDay: "2026-11-26"), text: "A calm week [[Home]].", sources: ["Home"],
                                model: "claude-opus-4-5", created: Date(timeIntervalSince1970: 1_800_000_000), usage: .init(inputTokens: 10, outputTokens: 5), costUSD: 0.01)
        #expect(Reflect.isUnedited(note))
        #expect(Reflect.isUnedited(note.replacingOccurrences(of: "\n", with: "\r\n")))
        #expect(!Reflect.isUnedited(note.replacingOccurrences(of: "A calm week", with: "A busy week").replacingOccurrences(of: "\n", with: "\r\n")))
    }

    @Test func `the Plan Files section goes after a CRLF CLAUDE.md with one blank line, in CRLF`() {
        let section = PlanFilesInstructions.section(optionalFields: [])
        for document in ["# Rules\r\n\r\nBe kind.\r\n", "# Rules\r\n\r\nBe kind.\r\n\r\n", "# Rules\r\n\r\nBe kind."] {
            let updated = PlanFilesInstructions.updating(document, with: section)
            #expect(updated.contains("Be kind.\r\n\r\n## Plan Files"), "\(updated.debugDescription)")
            #expect(!updated.contains("\r\n\r\n\r\n"), "no second blank line: \(updated.debugDescription)")
        }
    }

    @Test func `the ClaudeCode index note that a checkout turned into CRLF is still Rhizome's: updated, in CRLF`() throws {
        let fixture = try ClaudeLinkFixture()
        let repository = try fixture.acme()
        try #require(fixture.link(repository).status == 0)
        let path = fixture.vault.path + "/ClaudeCode/README.md"
        let lf = try fixture.vault.read("ClaudeCode/README.md")
        try Data(lf.replacingOccurrences(of: "\n", with: "\r\n").utf8).write(to: URL(fileURLWithPath: path))

        #expect(fixture.link(repository, ["--json"]).data["indexNote"] as? String == "unchanged", "same text, other line endings")
        try fixture.write(repository.appendingPathComponent(".claude/agents/doc-writer.md"), ClaudeLinkFixture.agent("doc-writer", "Writes docs."))
        #expect(fixture.link(repository, ["--json"]).data["indexNote"] as? String == "written")
        let text = try fixture.vault.read("ClaudeCode/README.md")
        #expect(text.contains("[[doc-writer]]"))
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "kept in CRLF: \(text.debugDescription)")
    }
}
