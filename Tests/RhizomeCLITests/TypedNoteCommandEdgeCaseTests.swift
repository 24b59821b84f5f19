import Foundation
import Testing
import RhizomeCore
import RhizomeTestSupport

/// The typed-note commands (`new`, `validate`, `fix`) at their edges: defaults, empty required keys, path typing,
/// links given with --set, names differing in case, dry runs.
@Suite struct TypedNoteCommandEdgeCaseTests {
    @Test func `new writes type for a schema that does not list it, so the note is checked`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        try vault.write(".rhizome/schemas/thing.yaml", "type: thing\ndescription: d\nfrontmatter:\n  type: object\n  required: [status]\n  properties:\n    status: {enum: [a, b], default: a}\n")
        #expect(cli.run(["new", "thing", "--title", "T"], vault: vault).status == 0)
        #expect(try vault.read("T.md").hasPrefix("---\ntype: thing\nstatus: a\n---\n"))
    }

    @Test func `a default that breaks its own property is a schema error`() throws {
        let text = "type: t\ndescription: d\nfrontmatter:\n  type: object\n  properties:\n    prio: {type: integer, default: high}\n"
        #expect(throws: SchemaError.self) { try NoteSchema.load(text: text, file: "t.yaml", isBuiltIn: false) }
    }

    @Test(arguments: [
        ("version: 1\nschemas: .rhizome/schema\n", "config-invalid"),
        ("version: 1\nschemas: /etc/schemas\n", "config-invalid"),
        ("version: 1\ntypes:\n  meeting: nosuchtype\n", "config-invalid"),
        ("version: 1\nexclude: []\nexclude: [\"A/**\"]\n", "config-invalid"),
    ])
    func `config mistakes are errors, not silence`(config: String, code: String) throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        try vault.write(".rhizome/config.yaml", config)
        let result = cli.run(["validate", "--json"], vault: vault)
        #expect(result.status == 2, "\(result.output)")
        #expect((result.json["error"] as? [String: Any])?["code"] as? String == code)
    }

    @Test func `populate fills a required key left empty`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        try vault.write("Ideas/Empty.md", "---\ntype: idea\nstatus:\n---\nBody\n")
        #expect(cli.run(["fix", "--write", "--populate", "Ideas"], vault: vault).status == 0)
        #expect(try vault.read("Ideas/Empty.md").contains("status: seed"))
    }

    @Test func `only top-level folders type notes by path`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        try vault.write("Travel/Plans/Japan.md", "---\ncountry: Japan\n---\n")
        let result = cli.run(["validate", "--json"], vault: vault)
        #expect(!result.findings.contains { $0["path"] as? String == "Travel/Plans/Japan.md" }, "\(result.output)")
    }

    @Test func `an unquoted link given with --set is written as a link`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        let result = cli.run(["new", "idea", "--title", "Linked", "--set", "related=[[Home]]", "--json"], vault: vault)
        #expect(result.status == 0)
        let text = try String(contentsOf: vault.url(try #require(result.data["path"] as? String)), encoding: .utf8)
        #expect(text.contains("related: \"[[Home]]\""), "\(text)")
    }

    @Test func `new refuses a name that differs from an existing note only in letter case`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        try vault.write("Decisions/Use X.md", "---\ntype: decision\nid: other\nstatus: proposed\ndate: 2026-01-01\n---\n")
        let result = cli.run(["new", "decision", "--title", "use x", "--folder", "Decisions", "--json"], vault: vault)
        #expect(result.status == 2)
        #expect(!FileManager.default.fileExists(atPath: vault.url("Decisions/use x.md").path))
    }

    @Test func `the dry run says which notes --write would refuse`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        let note = try vault.write("Ideas/Locked.md", "---\ntype: idea\nstatus: seed\ntag: x\n---\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: note.path)
        let dryRun = cli.run(["fix", "Ideas/Locked.md"], vault: vault)
        #expect(dryRun.error.contains("read-only"), "\(dryRun.error)")
        #expect(!dryRun.output.contains("would change"))
    }

    @Test func `validate takes a note by name, as other commands do`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        try vault.write("Projects/Kettle.md", "---\ntype: project\nid: kettle\nstatus: someday\n---\n")
        let result = cli.run(["validate", "Kettle", "--json"], vault: vault)
        #expect(result.status == 1)
        #expect(Set(result.findings.compactMap { $0["path"] as? String }) == ["Projects/Kettle.md"])
    }
}
