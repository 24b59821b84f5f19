/// `ClaudeLinker.status()`, the operation behind `rhizome status`'s projects and global links, driven
/// directly on real folders and symlinks: counts per project, links whose target went away, `~/.claude`.
import Foundation
import Testing
import RhizomeCore
import RhizomeTestSupport

@Suite struct AgentLinkStatusTests {
    @Test func `a linked project's agents and skills are counted, and a link whose file went away is broken`() throws {
        let vault = try TemporaryVault()
        let outside = vault.outside.path
        let home = outside + "/home", repository = outside + "/acme"
        for folder in [home, repository + "/.git", repository + "/.claude/agents", repository + "/.claude/skills/review"] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        for (path, text) in [("agents/writer.md", "---\nname: writer\n---\n"), ("agents/tester.md", "---\nname: tester\n---\n"),
                             ("skills/review/SKILL.md", "---\nname: review\n---\n")] {
            try text.write(toFile: repository + "/.claude/" + path, atomically: true, encoding: .utf8)
        }
        let linker = ClaudeLinker(layout: ClaudeCodeLayout(vaultRoot: vault.path, home: home))
        _ = try linker.link(projectDirectory: repository, project: "acme")

        let linked = linker.status()
        #expect(linked.projects.map(\.name) == ["acme"])
        #expect(linked.projects.first?.agents == 2)
        #expect(linked.projects.first?.skills == 1)
        #expect(linked.broken.isEmpty)
        #expect(linked.global.agents == 0)

        try FileManager.default.removeItem(atPath: repository + "/.claude/agents/tester.md")
        let after = linker.status()
        #expect(after.broken.map(\.path) == ["ClaudeCode/Agents/acme/tester.md"])
        #expect(after.projects.first?.broken.map(\.path) == ["ClaudeCode/Agents/acme/tester.md"])
        #expect(after.projects.first?.agents == 2, "the broken link is still there, and still counted")
    }
}
