import Foundation
import Testing
import RhizomeCLI
import RhizomeTestSupport

/// `typeKey` in `.rhizome/config.yaml`: a vault that uses `type:` for its own purposes (kepano's vault:
/// `type: ["[[Cities]]"]`) names another key for Rhizome's types, and every typed-note feature follows it.
@Suite struct TypeKeyConfigTests {
    func kindVault() throws -> TemporaryVault {
        let vault = try TemporaryVault()
        try vault.write(".rhizome/config.yaml", "version: 1\ntypeKey: kind\n")
        try vault.write("Cities.md", "---\ntype:\n  - \"[[Categories]]\"\n---\n")
        return vault
    }

    @Test func `notes are typed by the configured key and type is left to the vault`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try kindVault()
        try vault.write("Places/Lisbon.md", "---\ntype:\n  - \"[[Cities]]\"\nkind: project\nid: lisbon\nstatus: active\n---\n# Lisbon\n")
        try vault.write("Places/Kyoto.md", "---\ntype: [\"[[Cities]]\"]\nkind: project\nid: kyoto\n---\n# Kyoto\n")
        let result = cli.run(["validate", "--vault", vault.path, "--json"])
        let findings = try #require((result.json["data"] as? [String: Any])?["findings"] as? [[String: Any]], "\(result.output)\(result.error)")
        // Kyoto is a project without `status`; nothing is said about any `type:` list.
        #expect(findings.map { $0["path"] as? String } == ["Places/Kyoto.md"], "\(findings)")
        #expect(findings.first?["code"] as? String == "missing-required")
        #expect(result.status == 1)
        let types = cli.run(["types", "--vault", vault.path, "--json"])
        #expect(types.output.contains("\"project\""), "\(types.output)")
        #expect(cli.run(["validate", "--vault", vault.path, "--type", "project"]).output.contains("Kyoto"))
    }

    @Test func `a list under the configured key is untyped and the finding names that key`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try kindVault()
        try vault.write("Odd.md", "---\nkind: [a, b]\n---\n")
        let result = cli.run(["validate", "--vault", vault.path, "--json"])
        let findings = try #require((result.json["data"] as? [String: Any])?["findings"] as? [[String: Any]], "\(result.output)\(result.error)")
        #expect(findings.map { $0["code"] as? String } == ["untyped-type-value"])
        #expect((findings.first?["message"] as? String)?.hasPrefix("`kind` is a list") == true, "\(findings)")
    }

    @Test func `new notes and type migrations write the configured key`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try kindVault()
        let made = cli.run(["new", "project", "--title", "Harbor", "--set", "status=active", "--vault", vault.path])
        #expect(made.status == 0, "\(made.output)\(made.error)")
        let text = try vault.read("Projects/Harbor.md")
        #expect(text.hasPrefix("---\nkind: project\nid: harbor\n"), "\(text)")
        #expect(!text.contains("\ntype:"))
        #expect(cli.run(["validate", "--vault", vault.path]).status == 0)
        let migrated = cli.run(["types", "migrate", "--from", "project", "--to", "idea", "--write", "--vault", vault.path])
        #expect(migrated.status == 0, "\(migrated.output)\(migrated.error)")
        #expect(try vault.read("Projects/Harbor.md").hasPrefix("---\nkind: idea\n"))
    }

    @Test func `an empty typeKey is a config error with its place and a fix`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TemporaryVault()
        try vault.write(".rhizome/config.yaml", "version: 1\ntypeKey: \"\"\n")
        let result = cli.run(["validate", "--vault", vault.path])
        #expect(result.status == 2, "\(result.output)\(result.error)")
        #expect(result.error.contains(".rhizome/config.yaml:2:"), "\(result.error)")
        #expect(result.error.contains("typeKey: kind"), "\(result.error)")
    }
}
