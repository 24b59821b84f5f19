import Foundation
import Testing
import RhizomeCLI
import RhizomeCore
import RhizomeTestSupport

/// `rhizome init`: the `## Plan Files` section in `~/.claude/CLAUDE.md`.
@Suite struct InitCommandTests {
    private func claudeFile(_ cli: CLIHarness) -> URL { cli.home.appendingPathComponent(".claude/CLAUDE.md") }

    private func write(_ text: String, _ cli: CLIHarness) throws {
        try FileManager.default.createDirectory(at: cli.home.appendingPathComponent(".claude"), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: claudeFile(cli))
    }

    private func read(_ cli: CLIHarness) throws -> String { try String(contentsOf: claudeFile(cli), encoding: .utf8) }

    private func backups(_ cli: CLIHarness) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: cli.home.appendingPathComponent(".claude").path).filter { $0.contains("rhizome-backup") }
    }

    @Test func `init creates CLAUDE.md when there is none`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let result = cli.run(["init", "--yes"])
        #expect(result.status == 0, "\(result.error)")
        #expect(try read(cli) == PlanFilesInstructions.section(optionalFields: []))
    }

    @Test func `init adds the section after the others and changes no other byte`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let original = "# My rules\n\nBe kind.\n\n## Style\n\nShort lines.\n"
        try write(original, cli)
        #expect(cli.run(["init", "--yes"]).status == 0)
        let text = try read(cli)
        #expect(text.hasPrefix(original + "\n## Plan Files\n"))
        #expect(try backups(cli).count == 1)
    }

    @Test func `init replaces its section in place, keeping the sections after it, and is idempotent`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        try write("# Rules\n\n## Plan Files\n\nOld advice.\n\n```\n## Plan Files inside a fence\n```\n\n## After\n\nKeep me.\n", cli)
        #expect(cli.run(["init", "--yes", "--with", "id,priority"]).status == 0)
        let text = try read(cli)
        #expect(text.hasPrefix("# Rules\n\n## Plan Files\n\nEvery plan file"))
        #expect(!text.contains("Old advice"))
        #expect(text.hasSuffix("\n\n## After\n\nKeep me.\n"), "\(text)")
        #expect(text.contains("priority: medium"))
        #expect(text.components(separatedBy: "## Plan Files").count == 2)
        let again = cli.run(["init", "--yes", "--with", "id,priority"])
        #expect(again.output.contains("nothing changed"))
        #expect(try read(cli) == text)
        #expect(try backups(cli).count == 1, "an unchanged file gets no new backup")
    }

    @Test func `init asks first, and writes nothing without a yes`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        try write("# Rules\n", cli)
        for answer in ["n", nil] as [String?] {
            let output = OutputSink.capturing(), error = OutputSink.capturing()
            let context = CommandContext(
                environment: cli.environment, currentDirectory: cli.home.path, standardOutput: output, standardError: error,
                isTerminal: false, readAnswer: { answer })
            #expect(CLI.run(["init"], context: context) == 1)
            #expect(output.text.contains("## Plan Files"), "the exact section is shown before asking")
            #expect(try read(cli) == "# Rules\n")
        }
        let output = OutputSink.capturing()
        let context = CommandContext(
            environment: cli.environment, currentDirectory: cli.home.path, standardOutput: output, standardError: .capturing(),
            isTerminal: false, readAnswer: { "y" })
        #expect(CLI.run(["init"], context: context) == 0)
        #expect(try read(cli).contains("## Plan Files"))
    }

    @Test func `an unknown optional field is a usage error`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        #expect(cli.run(["init", "--yes", "--with", "colour"]).status == 2)
        #expect(!FileManager.default.fileExists(atPath: claudeFile(cli).path))
    }

    @Test(arguments: [[String](), ["id"], ["id", "projects", "priority", "related", "updated"]])
    func `the frontmatter the section asks for validates against the plan schema`(fields: [String]) throws {
        let section = PlanFilesInstructions.section(optionalFields: fields)
        let yaml = try #require(section.components(separatedBy: "```yaml\n---\n").last?.components(separatedBy: "---\n```").first)
        let filled = yaml
            .replacingOccurrences(of: "<what the plan achieves, in one line>", with: "Ship the indexer")
            .replacingOccurrences(of: "<YYYY-MM-DD>", with: "2026-11-22")
            .replacingOccurrences(of: "<project>-<kebab-slug>", with: "rhizome-ship-the-indexer")
            .replacingOccurrences(of: "<Project note>", with: "Rhizome")
            .replacingOccurrences(of: "<Related note>", with: "Design")
        let note = NoteParser.parse(Array(("---\n" + filled + "---\n").utf8), path: "ClaudeCode/Plans/rhizome-ship-the-indexer.md")
        #expect(note.findings.isEmpty, "\(note.findings)")
        let check = NoteChecker(catalog: try SchemaCatalog.builtIn()).check(note.frontmatter, path: "ClaudeCode/Plans/rhizome-ship-the-indexer.md")
        #expect(check.schemaType == "plan")
        #expect(check.findings.isEmpty, "\(check.findings.map(\.message))")
    }
}
