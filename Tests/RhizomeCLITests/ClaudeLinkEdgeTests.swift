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
