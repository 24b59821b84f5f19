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

    @Test func `unlink asks nothing when there is nothing to remove`() throws {
        let fixture = try ClaudeLinkFixture()
        try FileManager.default.createDirectory(at: fixture.vault.url("ClaudeCode/Agents/old"), withIntermediateDirectories: true)
        let result = fixture.run(["unlink", "old"], answering: nil)
        #expect(result.status == 0, "\(result.error)")
        #expect(!FileManager.default.fileExists(atPath: fixture.vault.url("ClaudeCode/Agents/old").path))
    }
}
