import Foundation
import Testing
import RhizomeCLI
import RhizomeTestSupport

/// `rhizome status`: counts per linked project, broken links with their targets (exit 1), the states of
/// `~/.claude`'s links, index freshness, the schema findings summary, and the `--json` shape.
@Suite struct ClaudeStatusTests {
    @Test func `status counts agents and skills per project and exits 0 when nothing is broken`() throws {
        let fixture = try ClaudeLinkFixture()
        try fixture.vault.write("ClaudeCode/Agents/global/helper.md", ClaudeLinkFixture.agent("helper", "Helps everywhere."))
        try fixture.vault.write("ClaudeCode/Plans/acme-launch.md", "---\ntype: plan\ntitle: Launch\nstatus: draft\n---\n")
        try fixture.vault.write("ClaudeCode/Plans/acme-docs.md", "---\ntype: plan\ntitle: Docs\nstatus: draft\n---\n")
        try #require(fixture.link(try fixture.acme()).status == 0)
        try #require(fixture.link(try fixture.repository("Beta", agents: ["planner.md": ClaudeLinkFixture.agent("planner", "Plans work.")])).status == 0)
        let result = fixture.run(["status"])
        #expect(result.status == 0, "\(result.output)\(result.error)")
        #expect(result.outputLines.first == "Vault \(fixture.vault.path)")
        #expect(result.output.contains("\nProjects\n  acme: 2 agents, 2 skills\n  beta: 1 agent, 0 skills\n"), "\(result.output)")
        #expect(result.output.contains("\nGlobal\n  agents: 1 · ~/.claude/agents: linked\n  skills: 0 · linked into ~/.claude/skills: 0\n  plans: 2 · ~/.claude/plans: linked\n"), "\(result.output)")
        #expect(!result.output.contains("broken"))
    }

    @Test func `with nothing linked status says so and exits 0`() throws {
        let fixture = try ClaudeLinkFixture()
        try fixture.vault.write("Notes/Hello.md", "# Hello\n")
        let result = fixture.run(["status", "--json"])
        #expect(result.status == 0, "\(result.output)\(result.error)")
        #expect((result.data["projects"] as? [Any])?.isEmpty == true)
        #expect(result.data["index"] == nil, "no index has been built")
        #expect(result.data["healthy"] as? Bool == true)
        let global = try #require(result.data["global"] as? [String: Any])
        #expect(global["agentsLink"] as? String == "missing")
        #expect(global["plansLink"] as? String == "missing")
        let human = fixture.run(["status"])
        #expect(human.output.contains("  index: not built yet (run `rhizome index`)\n"), "\(human.output)")
        #expect(human.output.contains("\nProjects\n  none linked (run `rhizome claude link` in a repository)\n"))
        // status reports; it neither builds the index nor links anything.
        #expect(!FileManager.default.fileExists(atPath: fixture.vault.databasePath))
        #expect(!fixture.exists(fixture.vault.path + "/ClaudeCode"))
        #expect(!fixture.exists(fixture.claudeHome))
    }

    @Test func `broken links are listed with their targets and status exits 1`() throws {
        let fixture = try ClaudeLinkFixture()
        let old = try fixture.acme(at: "old/Acme")
        try #require(fixture.link(old).status == 0)
        try fixture.moveOutside("old/Acme", to: "new/Acme")
        let result = fixture.run(["status"])
        #expect(result.status == 1, "\(result.output)\(result.error)")
        #expect(result.output.contains("  acme: 2 agents, 2 skills, 4 broken\n"), "\(result.output)")
        #expect(result.output.contains("4 broken links (left in place; relink, or remove them yourself):\n"))
        for (path, target) in [("ClaudeCode/Agents/acme/code-reviewer.md", "agents/code-reviewer.md"), ("ClaudeCode/Agents/acme/test-writer.md", "agents/test-writer.md"),
                               ("ClaudeCode/Skills/acme/pdf-tools", "skills/pdf-tools"), ("ClaudeCode/Skills/acme/release", "skills/release")] {
            #expect(result.output.contains("  ! \(path) → \(old.path)/.claude/\(target) (missing)\n"), "\(path)")
        }
        let json = fixture.run(["status", "--json"])
        #expect(json.status == 1)
        #expect(json.data["healthy"] as? Bool == false)
        let project = try #require((json.data["projects"] as? [[String: Any]])?.first)
        #expect(project["name"] as? String == "acme")
        let broken = try #require(project["broken"] as? [[String: Any]])
        #expect(broken.count == 4)
        #expect(broken.contains { $0["path"] as? String == "ClaudeCode/Skills/acme/pdf-tools" && $0["target"] as? String == old.path + "/.claude/skills/pdf-tools" })
        #expect((json.data["broken"] as? [Any])?.count == 4)
        // Reporting is all it does: the links are still there.
        #expect(fixture.symlinkTarget(fixture.vault.path + "/ClaudeCode/Agents/acme/code-reviewer.md") == old.path + "/.claude/agents/code-reviewer.md")
        // Relinking from the new place makes it healthy again.
        try #require(fixture.link(fixture.vault.outside.appendingPathComponent("new/Acme")).status == 0)
        #expect(fixture.run(["status"]).status == 0)
    }

    @Test func `status shows each of ~/.claude's links to the vault`() throws {
        let fixture = try ClaudeLinkFixture()
        // agents: Claude Code's own folder; plans: someone else's symlink.
        try fixture.write(URL(fileURLWithPath: fixture.claudeHome + "/agents/own.md"), ClaudeLinkFixture.agent("own", "Claude Code's own."))
        let elsewhere = fixture.vault.outside.appendingPathComponent("dotfiles/plans").path
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: fixture.claudeHome + "/plans", withDestinationPath: elsewhere)
        try fixture.vault.write("ClaudeCode/Skills/global/commit-helper/SKILL.md", ClaudeLinkFixture.skill("commit-helper", "Writes commit messages."))
        try #require(fixture.link(try fixture.acme()).status == 0)
        // A global skill added after the last link is not linked yet.
        try fixture.vault.write("ClaudeCode/Skills/global/triage/SKILL.md", ClaudeLinkFixture.skill("triage", "Sorts issues."))
        let result = fixture.run(["status", "--json"])
        #expect(result.status == 0, "\(result.output)\(result.error)")
        let global = try #require(result.data["global"] as? [String: Any])
        #expect(global["agentsLink"] as? String == "real-folder")
        #expect(global["plansLink"] as? String == "elsewhere")
        let skills = (global["skills"] as? [[String: Any]] ?? []).map { "\($0["name"] as? String ?? "?"): \($0["link"] as? String ?? "?")" }
        #expect(skills == ["commit-helper: linked", "triage: missing"])
        let human = fixture.run(["status"])
        #expect(human.output.contains("  agents: 0 · ~/.claude/agents: real-folder\n"), "\(human.output)")
        #expect(human.output.contains("  skills: 2 · linked into ~/.claude/skills: 1\n"))
        #expect(human.output.contains("  plans: 0 · ~/.claude/plans: elsewhere\n"))
    }

    @Test func `a broken link from ~/.claude into the vault is reported and exits 1`() throws {
        let fixture = try ClaudeLinkFixture()
        try fixture.vault.write("ClaudeCode/Skills/global/commit-helper/SKILL.md", ClaudeLinkFixture.skill("commit-helper", "Writes commit messages."))
        try #require(fixture.link(try fixture.acme()).status == 0)
        // The vault's global skill was deleted (or renamed) in the vault.
        try fixture.vault.remove("ClaudeCode/Skills/global/commit-helper")
        try fixture.vault.write("ClaudeCode/Skills/global/keep/SKILL.md", ClaudeLinkFixture.skill("keep", "Keeps the folder."))
        let result = fixture.run(["status", "--json"])
        #expect(result.status == 1, "\(result.output)")
        let broken = (result.data["broken"] as? [[String: Any]] ?? []).map { "\($0["path"] as? String ?? "?") → \($0["target"] as? String ?? "?")" }
        #expect(broken == ["\(fixture.claudeHome)/skills/commit-helper → \(fixture.vault.path)/ClaudeCode/Skills/global/commit-helper"])
        #expect(fixture.symlinkTarget(fixture.claudeHome + "/skills/commit-helper") != nil, "never deleted")
    }

    @Test func `the index is up to date after link and stale after a note or a linked agent is edited`() throws {
        let fixture = try ClaudeLinkFixture()
        try fixture.vault.write("Notes/Hello.md", "# Hello\n")
        let repository = try fixture.acme()
        try #require(fixture.link(repository).status == 0)
        let fresh = fixture.run(["status", "--json"])
        let index = try #require(fresh.data["index"] as? [String: Any], "\(fresh.output)")
        #expect(index["staleFiles"] as? Int == 0)
        #expect((index["lastIndexedAt"] as? String)?.isEmpty == false)
        #expect(fixture.run(["status"]).output.contains("  index: up to date (last run "))

        try fixture.vault.edit("Notes/Hello.md", "# Hello again\n")
        let stale = fixture.run(["status"])
        #expect(stale.output.contains("  index: 1 file changed since (last run "), "\(stale.output)")
        #expect(fixture.run(["status", "--json"]).data["index"].flatMap { ($0 as? [String: Any])?["staleFiles"] as? Int } == 1)
        // status never refreshes the index itself.
        #expect(fixture.run(["status"]).output.contains("  index: 1 file changed since"))

        try #require(fixture.run(["index"]).status == 0)
        #expect(fixture.run(["status"]).output.contains("  index: up to date"))
        // An edit in the repository, seen through the link (the target's size and time).
        let agent = repository.appendingPathComponent(".claude/agents/code-reviewer.md")
        try fixture.write(agent, ClaudeLinkFixture.agent("code-reviewer", "Reviews code before a merge, and after."))
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(5)], ofItemAtPath: agent.path)
        #expect(fixture.run(["status"]).output.contains("  index: 1 file changed since"))
    }

    @Test func `status summarises schema findings, counting those in the ClaudeCode folder`() throws {
        let fixture = try ClaudeLinkFixture()
        try fixture.vault.write("Notes/Hello.md", "# Hello\n")
        let repository = try fixture.repository("Acme", agents: [
            "good.md": ClaudeLinkFixture.agent("good", "Fine."),
            "bad.md": "---\nname: bad\ndescription: Reviews code: carefully\n---\n\nBody.\n",
        ])
        try #require(fixture.link(repository).status == 0)
        let result = fixture.run(["status", "--json"])
        let summary = try #require(result.data["schemaFindings"] as? [String: Any], "\(result.output)")
        #expect(summary["errors"] as? Int == 1)
        #expect(summary["claudeCodeErrors"] as? Int == 1)
        #expect(summary["warnings"] as? Int == 0)
        #expect(result.status == 0, "findings are not broken links")
        #expect(fixture.run(["status"]).output.contains("  schema findings: 1 error, 0 warnings (1 in ClaudeCode/) — `rhizome validate` lists them\n"))
    }

    @Test func `the json envelope has every field of the report`() throws {
        let fixture = try ClaudeLinkFixture()
        try #require(fixture.link(try fixture.acme()).status == 0)
        let result = fixture.run(["status", "--json"])
        #expect(result.status == 0, "\(result.output)\(result.error)")
        #expect(Set(result.json.keys) == ["command", "data", "vault", "version"])
        #expect(result.json["command"] as? String == "status")
        #expect(result.json["version"] as? Int == 1)
        #expect(Set(result.data.keys) == ["vault", "database", "index", "schemaFindings", "projects", "global", "broken", "healthy", "watcher", "vaultMissing"])
        #expect(Set((result.data["watcher"] as? [String: Any] ?? [:]).keys) == ["watched", "processID", "state", "heartbeatAt", "vouches"])
        #expect((result.data["watcher"] as? [String: Any])?["watched"] as? Bool == false, "nothing watches the fixture's index")
        #expect(result.data["vault"] as? String == fixture.vault.path)
        #expect(result.data["database"] as? String == fixture.vault.databasePath)
        #expect(Set((result.data["index"] as? [String: Any] ?? [:]).keys) == ["lastIndexedAt", "lastRunAt", "lastChangeAt", "staleFiles"])
        #expect(Set((result.data["schemaFindings"] as? [String: Any] ?? [:]).keys) == ["errors", "warnings", "claudeCodeErrors"])
        let project = try #require((result.data["projects"] as? [[String: Any]])?.first)
        #expect(Set(project.keys) == ["name", "agents", "skills", "broken"])
        #expect(project["name"] as? String == "acme")
        #expect(project["agents"] as? Int == 2)
        #expect(project["skills"] as? Int == 2)
        let global = try #require(result.data["global"] as? [String: Any])
        #expect(Set(global.keys) == ["agents", "agentsLink", "skills", "plans", "plansLink"])
        #expect(global["agentsLink"] as? String == "linked")
        #expect(global["plansLink"] as? String == "linked")
        #expect(result.data["healthy"] as? Bool == true)
    }
}
