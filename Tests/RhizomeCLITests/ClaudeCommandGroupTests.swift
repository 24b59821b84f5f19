import Foundation
import Testing
import RhizomeCLI
import RhizomeTestSupport

/// `rhizome claude link|unlink|status|init`: the agent-link commands under one name, the old top-level
/// spellings still working, and global options given before the group.
@Suite struct ClaudeCommandGroupTests {
    @Test func `claude link, claude status and claude unlink do what the top-level commands do`() throws {
        let fixture = try ClaudeLinkFixture()
        let linked = fixture.run(["claude", "link", try fixture.acme().path, "--json"])
        #expect(linked.status == 0, "\(linked.output)\(linked.error)")
        #expect(linked.output.contains("\"command\" : \"link\"") || linked.output.contains("\"command\":\"link\""), "\(linked.output)")
        #expect(fixture.symlinkTarget(fixture.vault.path + "/ClaudeCode/Agents/acme/code-reviewer.md") != nil)

        let status = fixture.run(["claude", "status"])
        #expect(status.status == 0, "\(status.error)")
        #expect(status.outputLines.first == "Vault \(fixture.vault.path)")
        #expect(status.output.contains("\nProjects\n  acme: 2 agents, 2 skills\n"), "\(status.output)")
        #expect(!status.output.contains("index:"), "claude status shows the links only")

        // Its JSON has the link keys `status --json` has, with the same values.
        let mine = fixture.run(["claude", "status", "--json"])
        let full = fixture.run(["status", "--json"])
        #expect(Set(mine.data.keys) == ["projects", "global", "broken", "healthy"])
        func canonical(_ value: Any?) throws -> Data {
            try JSONSerialization.data(withJSONObject: ["value": value ?? NSNull()], options: [.sortedKeys])
        }
        for key in ["projects", "global", "broken", "healthy"] {
            #expect(try canonical(mine.data[key]) == canonical(full.data[key]), "\(key)")
        }

        let unlinked = fixture.run(["claude", "unlink", "acme", "--yes"])
        #expect(unlinked.status == 0, "\(unlinked.output)\(unlinked.error)")
        #expect(fixture.run(["status"]).output.contains("\nProjects\n  none linked (run `rhizome claude link` in a repository)\n"))
    }

    @Test func `a broken link makes claude status exit 1, and options may come before the group`() throws {
        let fixture = try ClaudeLinkFixture()
        try #require(fixture.link(try fixture.acme(at: "old/Acme")).status == 0)
        try fixture.moveOutside("old/Acme", to: "new/Acme")
        let result = fixture.cli.run(["--vault", fixture.vault.path, "--db", fixture.vault.databasePath, "--json", "claude", "status"])
        #expect(result.status == 1, "\(result.output)\(result.error)")
        #expect(result.data["healthy"] as? Bool == false)
        #expect((result.data["broken"] as? [Any])?.count == 4)

        #expect(result.json["command"] as? String == "claude status", "its envelope is not top-level status's")
        // Options between the group and its subcommand, too.
        let between = fixture.cli.run(["claude", "--vault", fixture.vault.path, "--json", "status", "--db", fixture.vault.databasePath])
        #expect(between.status == 1 && between.data["healthy"] as? Bool == false, "\(between.output)\(between.error)")

        let help = fixture.run(["claude", "--help"])
        for name in ["link", "unlink", "status", "init"] { #expect(help.output.contains("  \(name)"), "\(help.output)") }
        // The group alone, even after a global option, shows its help rather than an unknown-option error.
        let bare = fixture.cli.run(["--json", "claude"])
        #expect(bare.status == 0 && bare.output.contains("USAGE: rhizome claude <subcommand>"), "\(bare.output)\(bare.error)")
    }
}
