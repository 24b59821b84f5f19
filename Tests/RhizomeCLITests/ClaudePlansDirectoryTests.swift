import Foundation
import Testing
import RhizomeTestSupport

/// A project whose `.claude/settings.json` sets `plansDirectory` keeps its plans in its own folder.
@Suite struct ClaudePlansDirectoryTests {
    @Test func `a project's own plans folder is linked as Plans/<project> and unlinked with it`() throws {
        let fixture = try ClaudeLinkFixture()
        let repository = try fixture.acme()
        try fixture.write(repository.appendingPathComponent(".claude/settings.json"), "{\"plansDirectory\": \"docs/plans\"}")
        try fixture.write(repository.appendingPathComponent("docs/plans/acme-ship-it.md"), "---\ntype: plan\nstatus: draft\n---\n# Ship it\n")
        let result = fixture.link(repository)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("plansDirectory"))
        let link = try FileManager.default.destinationOfSymbolicLink(atPath: fixture.vault.url("ClaudeCode/Plans/acme").path)
        #expect(link == repository.appendingPathComponent("docs/plans").path)
        #expect(fixture.run(["unlink", "acme", "--yes"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: repository.appendingPathComponent("docs/plans/acme-ship-it.md").path), "the plans stay")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: fixture.vault.url("ClaudeCode/Plans/acme").path)) == nil)
    }
}
