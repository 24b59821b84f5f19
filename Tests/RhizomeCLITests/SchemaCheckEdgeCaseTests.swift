import Foundation
import Testing
@testable import RhizomeStore
import RhizomeCore
import RhizomeTestSupport

/// Schema checks at their edges: interrupted vault-wide checks, old indexes, reference circles, shared ids,
/// values YAML would misread, excluded notes, two schemas claiming one type value.
@Suite struct SchemaCheckEdgeCaseTests {
    @Test func `a run killed before the vault-wide checks is completed by the next run`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        #expect(cli.run(["index"], vault: vault).status == 0)
        // What a kill between the note batches and the vault checks leaves: the edge gone, the flag set.
        let database = try SQLiteConnection(path: vault.databasePath)
        try database.execute("DELETE FROM link WHERE via_reference = 1; UPDATE meta SET value = '1' WHERE key = 'vault_checks_pending'")
        let backlinks = cli.run(["backlinks", "Rhizome", "--json"], vault: vault)
        let links = try #require(backlinks.json["data"] as? [[String: Any]])
        #expect(links.contains { $0["reference"] as? Bool == true && $0["source"] as? String == "Plans/Launch.md" })
    }

    @Test func `reading an index from an older Rhizome without refreshing says to run index`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        #expect(cli.run(["index"], vault: vault).status == 0)
        try SQLiteConnection(path: vault.databasePath).execute("PRAGMA user_version = 1")
        let result = cli.run(["validate", "--no-refresh", "--json"], vault: vault)
        #expect(result.status == 2)
        #expect((result.json["error"] as? [String: Any])?["code"] as? String == "index-outdated")
    }

    @Test func `a circle of references is a schema error`() throws {
        let text = """
            type: loop
            description: Loops.
            frontmatter:
              type: object
              $defs:
                a: {$ref: '#/$defs/b'}
                b: {$ref: '#/$defs/a'}
              properties:
                count: {$ref: '#/$defs/a'}
            """
        #expect(throws: SchemaError.self) { try NoteSchema.load(text: text, file: "loop.yaml", isBuiltIn: false) }
    }

    @Test func `new refuses an id another note already has`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        #expect(cli.run(["new", "project", "--title", "Alpha"], vault: vault).status == 0)
        let second = cli.run(["new", "project", "--title", "Alpha", "--folder", "Other"], vault: vault)
        #expect(second.status == 2)
        #expect(second.error.contains("already used by"))
        #expect(!FileManager.default.fileExists(atPath: vault.url("Other/Alpha.md").path))
    }

    @Test func `a --set value that YAML would read as a comment is kept as text`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        #expect(cli.run(["new", "idea", "--title", "Prioritise", "--set", "aliases=[\"#1 priority\"]", "--set", "title=#1 priority"], vault: vault).status == 0)
        let text = try String(contentsOf: try #require(FileManager.default.subpaths(atPath: vault.path)?.first { $0.hasSuffix("Prioritise.md") }).map { vault.url($0) }!, encoding: .utf8)
        #expect(text.contains("title: \"#1 priority\""), "\(text)")
    }

    @Test func `validate leaves excluded notes alone, invalid YAML included`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        try vault.write(".rhizome/config.yaml", "version: 1\nexclude: [\"Templates/**\"]\n")
        try vault.write("Templates/Daily.md", "---\ncreated: {{date:YYYY-MM-DD}}: x\n---\n")
        let result = cli.run(["validate", "--json"], vault: vault)
        #expect(!result.findings.contains { ($0["path"] as? String)?.hasPrefix("Templates/") == true }, "\(result.output)")
    }

    @Test func `two vault schemas claiming one type value are refused`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        try vault.write(".rhizome/schemas/book.yaml", "type: book\ndescription: Books.\nmatch:\n  values: [reading]\nfrontmatter:\n  type: object\n")
        try vault.write(".rhizome/schemas/paper.yaml", "type: paper\ndescription: Papers.\nmatch:\n  values: [reading]\nfrontmatter:\n  type: object\n")
        let result = cli.run(["validate", "--json"], vault: vault)
        #expect(result.status == 2)
        #expect((result.json["error"] as? [String: Any])?["code"] as? String == "schema-duplicate-type")
    }

    @Test func `an id shared by many notes is listed briefly`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        for number in 1...8 { try vault.write("Projects/P\(number).md", "---\ntype: project\nid: todo\nstatus: active\n---\n") }
        let findings = cli.run(["validate", "--json"], vault: vault).findings.filter { $0["code"] as? String == "duplicate-id" }
        #expect(findings.count == 8)
        #expect(findings.allSatisfy { ($0["message"] as? String)?.hasSuffix("and 2 more") == true })
    }
}
