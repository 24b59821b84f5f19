import Foundation
import Testing
import RhizomeCLI
import RhizomeTestSupport

/// Edge cases of `link` and `unlink` found while testing them.
@Suite struct ClaudeLinkEdgeTests {
    @Test func `link run from a subfolder of a repository links the repository's .claude`() throws {
        let fixture = try ClaudeLinkFixture()
        let repository = try fixture.acme()
        let subfolder = repository.appendingPathComponent("Sources/App")
        try FileManager.default.createDirectory(at: subfolder, withIntermediateDirectories: true)
        let result = fixture.run(["link"], in: subfolder.path)
        #expect(result.status == 0, "\(result.error)")
        #expect(FileManager.default.fileExists(atPath: fixture.vault.url("ClaudeCode/Agents/acme/code-reviewer.md").path))
    }

    @Test func `a repository without agents or skills gets no empty project folders`() throws {
        let fixture = try ClaudeLinkFixture()
        let repository = try fixture.repository("Empty")
        let result = fixture.link(repository)
        #expect(result.status == 0)
        #expect(result.error.contains("no agents"))
        #expect(!FileManager.default.fileExists(atPath: fixture.vault.url("ClaudeCode/Agents/empty").path))
        #expect(!FileManager.default.fileExists(atPath: fixture.vault.url("ClaudeCode/Skills/empty").path))
    }

    @Test func `a project folder holding only Finder metadata is not a linked project`() throws {
        let fixture = try ClaudeLinkFixture()
        let folder = fixture.vault.url("ClaudeCode/Agents/old")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data().write(to: folder.appendingPathComponent(".DS_Store"))
        let status = fixture.run(["status", "--json"])
        let projects = try #require(status.data["projects"] as? [[String: Any]])
        #expect(!projects.contains { $0["name"] as? String == "old" })
        #expect(fixture.run(["unlink", "old", "--yes"]).status == 2)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(".DS_Store").path), "never deleted")
    }

    @Test func `a project folder in the layout that is a symlink is refused, and unlink never looks into it`() throws {
        let fixture = try ClaudeLinkFixture()
        let repository = try fixture.acme()
        let elsewhere = fixture.vault.outside.appendingPathComponent("dotfiles/skills")
        try FileManager.default.createDirectory(at: elsewhere.appendingPathComponent("real"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: elsewhere.appendingPathComponent("linked").path, withDestinationPath: elsewhere.appendingPathComponent("real").path)
        try FileManager.default.createDirectory(at: fixture.vault.url("ClaudeCode/Skills"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: fixture.vault.url("ClaudeCode/Skills/acme").path, withDestinationPath: elsewhere.path)
        let result = fixture.link(repository)
        #expect(result.status == 2)
        #expect((result.json["error"] as? [String: Any])?["code"] as? String == "layout-is-symlink" || result.error.contains("symlink"))
        _ = fixture.run(["unlink", "acme", "--yes"])
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: elsewhere.appendingPathComponent("linked").path)) != nil, "nothing outside the vault is removed")
    }

    @Test func `a second repository claiming a linked project's name is refused`() throws {
        let fixture = try ClaudeLinkFixture()
        let first = try fixture.repository("a/api", agents: ["x.md": ClaudeLinkFixture.agent("x", "X.")])
        let second = try fixture.repository("b/api", agents: ["x.md": ClaudeLinkFixture.agent("x", "Other X.")])
        #expect(fixture.link(first).status == 0)
        let result = fixture.link(second)
        #expect(result.status == 2)
        #expect(result.error.contains("--name"))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: fixture.vault.url("ClaudeCode/Agents/api/x.md").path).hasPrefix(first.path))
    }
}

@Suite struct ClaudeLinkReviewTests {
    @Test func `a ~/.claude/skills that links to the vault's global skills is left as it is`() throws {
        let fixture = try ClaudeLinkFixture()
        let repository = try fixture.acme()
        let global = fixture.vault.url("ClaudeCode/Skills/global")
        try FileManager.default.createDirectory(at: global.appendingPathComponent("mine"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: fixture.claudeHome, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: fixture.claudeHome + "/skills", withDestinationPath: global.path)
        #expect(fixture.link(repository).status == 0)
        #expect(FileManager.default.fileExists(atPath: global.appendingPathComponent("mine").path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: global.path) == ["mine"], "no link was written into the vault's own folder")
    }

    @Test func `the same repository reached through a symlink keeps one name and one target`() throws {
        let fixture = try ClaudeLinkFixture()
        let repository = try fixture.acme()
        let alias = fixture.vault.outside.appendingPathComponent("alias")
        try FileManager.default.createSymbolicLink(atPath: alias.path, withDestinationPath: repository.path)
        #expect(fixture.link(repository).status == 0)
        let again = fixture.run(["link", alias.path, "--json"])
        #expect(again.status == 0)
        #expect(again.outcomeCounts["updated"] == nil, "\(again.output)")
        #expect(!FileManager.default.fileExists(atPath: fixture.vault.url("ClaudeCode/Agents/alias").path))
    }

    @Test func `agents whose names cannot stand in a link are named in the index note, and every link there resolves`() throws {
        let fixture = try ClaudeLinkFixture()
        let repository = try fixture.repository("Odd", agents: [
            "c#-expert.md": ClaudeLinkFixture.agent("c-expert", "C#."), "a|b.md": ClaudeLinkFixture.agent("a-b", "A or B."),
            "plain.md": ClaudeLinkFixture.agent("plain", "Plain."),
        ])
        #expect(fixture.link(repository).status == 0)
        let note = try String(contentsOf: fixture.vault.url("ClaudeCode/README.md"), encoding: .utf8)
        #expect(note.contains("`c#-expert` (a name links cannot hold)"))
        #expect(note.contains("`a\\|b` (a name links cannot hold)"), "the table stays one row")
        let links = fixture.run(["links", "ClaudeCode/README.md", "--json"])
        let items = try #require(links.json["data"] as? [[String: Any]])
        #expect(items.allSatisfy { $0["target"] is String }, "\(items)")
        #expect(items.contains { $0["target"] as? String == "ClaudeCode/Agents/odd/plain.md" })
    }

    @Test func `init replaces its section in a CRLF file instead of adding a second one`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let folder = cli.home.appendingPathComponent(".claude")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("# Rules\r\n\r\n## Plan Files\r\n\r\nOld.\r\n".utf8).write(to: folder.appendingPathComponent("CLAUDE.md"))
        let result = cli.run(["init", "--yes", "--json"])
        #expect(result.status == 0)
        let text = try String(contentsOf: folder.appendingPathComponent("CLAUDE.md"), encoding: .utf8)
        #expect(text.components(separatedBy: "## Plan Files").count == 2, "\(text)")
    }
}
