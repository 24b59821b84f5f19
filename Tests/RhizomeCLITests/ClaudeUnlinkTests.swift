import Foundation
import Testing
import RhizomeCLI
import RhizomeTestSupport

/// `rhizome unlink PROJECT`: the confirmation (`--yes`, `y`, `n`, no answer), what it removes (only the
/// project's symlinks, and the folders they leave empty), what it keeps (real files, every target) and
/// unknown projects.
@Suite struct ClaudeUnlinkTests {
    /// Two linked projects, `acme` (two agents, two skills) and `beta` (one agent), and a global skill.
    private func linkedFixture() throws -> (fixture: ClaudeLinkFixture, acme: URL, beta: URL) {
        let fixture = try ClaudeLinkFixture()
        try fixture.vault.write("ClaudeCode/Skills/global/commit-helper/SKILL.md", ClaudeLinkFixture.skill("commit-helper", "Writes commit messages."))
        let acme = try fixture.acme()
        let beta = try fixture.repository("Beta", agents: ["planner.md": ClaudeLinkFixture.agent("planner", "Plans work.")])
        try #require(fixture.link(acme).status == 0)
        try #require(fixture.link(beta).status == 0)
        return (fixture, acme, beta)
    }

    @Test func `unlink --yes removes only the project's symlinks and the folders they leave empty`() throws {
        let (fixture, acme, beta) = try linkedFixture()
        let repositoryBefore = fixture.snapshot(acme.path)
        let vault = fixture.vault.path
        let found = fixture.run(["search", "behaviour", "--json"])
        #expect((found.json["data"] as? [[String: Any]])?.compactMap { $0["path"] as? String } == ["ClaudeCode/Agents/acme/test-writer.md"], "\(found.output)")
        let result = fixture.run(["unlink", "acme", "--yes"])
        #expect(result.status == 0, "\(result.output)\(result.error)")
        #expect(result.outputLines.first == "Unlinking acme: 4 links to remove")
        #expect(result.output.contains("  - ClaudeCode/Agents/acme/code-reviewer.md → \(acme.path)/.claude/agents/code-reviewer.md\n"))
        #expect(result.output.contains("  - ClaudeCode/Skills/acme/pdf-tools → \(acme.path)/.claude/skills/pdf-tools\n"))
        #expect(result.output.contains("removed 4 links\n"))
        #expect(!result.error.contains("[y/N]"), "--yes does not ask")

        #expect(!fixture.exists(vault + "/ClaudeCode/Agents/acme"))
        #expect(!fixture.exists(vault + "/ClaudeCode/Skills/acme"))
        // The targets: every byte of the repository, the skill's extra files included.
        #expect(fixture.snapshot(acme.path) == repositoryBefore)
        #expect(repositoryBefore[".claude/skills/pdf-tools/reference.md"] != nil)
        // The other project, the global folders and ~/.claude's links stay.
        #expect(fixture.symlinkTarget(vault + "/ClaudeCode/Agents/beta/planner.md") == beta.path + "/.claude/agents/planner.md")
        #expect(fixture.isRealFolder(vault + "/ClaudeCode/Skills/beta"), "beta's empty skills folder is not acme's to remove")
        #expect(fixture.isRealFile(vault + "/ClaudeCode/Skills/global/commit-helper/SKILL.md"))
        #expect(fixture.isRealFolder(vault + "/ClaudeCode/Agents/global"))
        #expect(fixture.isRealFolder(vault + "/ClaudeCode/Plans"))
        #expect(fixture.symlinkTarget(fixture.claudeHome + "/agents") == vault + "/ClaudeCode/Agents/global")
        #expect(fixture.symlinkTarget(fixture.claudeHome + "/plans") == vault + "/ClaudeCode/Plans")
        #expect(fixture.symlinkTarget(fixture.claudeHome + "/skills/commit-helper") == vault + "/ClaudeCode/Skills/global/commit-helper")
        // The index note no longer lists acme.
        let readme = try fixture.vault.read("ClaudeCode/README.md")
        #expect(!readme.contains("| acme |") && !readme.contains("acme/"), "\(readme)")
        #expect(readme.contains("| beta |"))
        // Nor does the graph.
        let search = fixture.run(["search", "behaviour", "--json"])
        #expect((search.json["data"] as? [Any])?.isEmpty == true, "\(search.output)")
    }

    @Test func `unlink asks, and removes the links when the answer is y`() throws {
        let (fixture, acme, _) = try linkedFixture()
        let repositoryBefore = fixture.snapshot(acme.path)
        let result = fixture.run(["unlink", "acme"], answering: "y")
        #expect(result.status == 0, "\(result.output)\(result.error)")
        #expect(result.error.contains("Remove these links? [y/N] "))
        #expect(result.output.contains("  - ClaudeCode/Agents/acme/test-writer.md → \(acme.path)/.claude/agents/test-writer.md\n"))
        #expect(result.output.contains("removed 4 links"))
        #expect(!fixture.exists(fixture.vault.path + "/ClaudeCode/Agents/acme"))
        #expect(!fixture.exists(fixture.vault.path + "/ClaudeCode/Skills/acme"))
        #expect(fixture.snapshot(acme.path) == repositoryBefore)
    }

    @Test(arguments: ["Y", "yes", " y "])
    func `other spellings of yes confirm too`(answer: String) throws {
        let (fixture, _, _) = try linkedFixture()
        let result = fixture.run(["unlink", "acme"], answering: answer)
        #expect(result.status == 0, "\(result.output)\(result.error)")
        #expect(!fixture.exists(fixture.vault.path + "/ClaudeCode/Agents/acme"))
    }

    @Test(arguments: ["n", "", "no", "maybe"])
    func `any answer but yes removes nothing and exits 1`(answer: String) throws {
        let (fixture, _, _) = try linkedFixture()
        let before = fixture.snapshotAll()
        let result = fixture.run(["unlink", "acme"], answering: answer)
        #expect(result.status == 1, "\(result.output)\(result.error)")
        #expect(result.error.contains("Remove these links? [y/N] "))
        #expect(result.error.hasSuffix("Remove these links? [y/N] nothing removed\n"), "\(result.error)")
        #expect(fixture.snapshotAll() == before)
    }

    @Test func `with no answer at all unlink removes nothing, exits 1 and suggests --yes`() throws {
        let (fixture, _, _) = try linkedFixture()
        let before = fixture.snapshotAll()
        let result = fixture.run(["unlink", "acme"], answering: nil)
        #expect(result.status == 1, "\(result.output)\(result.error)")
        #expect(result.error.contains("nothing removed (no answer; use --yes when not at a terminal)"), "\(result.error)")
        #expect(fixture.snapshotAll() == before)
    }

    @Test func `unlink leaves a real file among the project's links and says so`() throws {
        let (fixture, acme, _) = try linkedFixture()
        let mine = "# My notes on acme's agents\n"
        try fixture.vault.write("ClaudeCode/Agents/acme/notes.md", mine)
        let result = fixture.run(["unlink", "acme", "--yes"])
        #expect(result.status == 0, "\(result.output)\(result.error)")
        #expect(result.output.contains("  (kept: ClaudeCode/Agents/acme/notes.md is a real file or folder, not a link)\n"))
        #expect(result.output.contains("removed 4 links; kept 1 real file\n"))
        #expect(try fixture.vault.read("ClaudeCode/Agents/acme/notes.md") == mine)
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.vault.path + "/ClaudeCode/Agents/acme") == ["notes.md"])
        #expect(!fixture.exists(fixture.vault.path + "/ClaudeCode/Skills/acme"), "the skills folder it emptied is removed")
        #expect(fixture.isRealFile(acme.path + "/.claude/agents/code-reviewer.md"))
    }

    @Test func `unlink removes broken links too, without touching anything else`() throws {
        let (fixture, _, _) = try linkedFixture()
        try fixture.moveOutside("Acme", to: "Moved/Acme")
        let moved = fixture.vault.outside.appendingPathComponent("Moved/Acme")
        let repositoryBefore = fixture.snapshot(moved.path)
        let result = fixture.run(["unlink", "acme", "--yes", "--json"])
        #expect(result.status == 0, "\(result.output)\(result.error)")
        let removed = (result.data["removed"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }.sorted()
        #expect(removed == ["ClaudeCode/Agents/acme/code-reviewer.md", "ClaudeCode/Agents/acme/test-writer.md",
                            "ClaudeCode/Skills/acme/pdf-tools", "ClaudeCode/Skills/acme/release"])
        #expect(!fixture.exists(fixture.vault.path + "/ClaudeCode/Agents/acme"))
        #expect(fixture.snapshot(moved.path) == repositoryBefore)
        #expect(fixture.run(["status"]).status == 0, "nothing is broken once the links are gone")
    }

    @Test func `the json report lists what was removed with targets, what was kept, and the index note`() throws {
        let (fixture, _, beta) = try linkedFixture()
        try fixture.vault.write("ClaudeCode/Agents/beta/draft.md", "# Draft\n")
        let result = fixture.run(["unlink", "beta", "--yes", "--json"])
        #expect(result.status == 0, "\(result.output)\(result.error)")
        #expect(result.json["command"] as? String == "unlink")
        #expect(result.json["version"] as? Int == 1)
        let removed = try #require(result.data["removed"] as? [[String: Any]])
        #expect(removed.count == 1)
        #expect(removed.first?["path"] as? String == "ClaudeCode/Agents/beta/planner.md")
        #expect(removed.first?["target"] as? String == beta.path + "/.claude/agents/planner.md")
        #expect(result.data["kept"] as? [String] == ["ClaudeCode/Agents/beta/draft.md"])
        #expect(result.data["indexNote"] as? String == "written")
        #expect(result.output.hasPrefix("{"), "no human lines before the JSON")
    }

    @Test func `unlinking a project that is not linked is a usage error naming the linked ones`() throws {
        let (fixture, _, _) = try linkedFixture()
        let before = fixture.snapshotAll()
        let human = fixture.run(["unlink", "gamma", "--yes"])
        #expect(human.status == 2)
        #expect(human.error.contains("no project `gamma` is linked into the vault (linked: acme, beta)"), "\(human.error)")
        let json = fixture.run(["unlink", "gamma", "--yes", "--json"])
        #expect(json.status == 2)
        #expect(json.errorCode == "project-not-linked")
        #expect(fixture.snapshotAll() == before)
    }

    @Test func `the global folders cannot be unlinked as a project`() throws {
        let (fixture, _, _) = try linkedFixture()
        let before = fixture.snapshotAll()
        let result = fixture.run(["unlink", "global", "--yes", "--json"])
        #expect(result.status == 2)
        #expect(result.errorCode == "project-not-linked")
        #expect(fixture.snapshotAll() == before)
    }
}
