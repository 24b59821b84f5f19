import Foundation
import Testing
import RhizomeCLI
import RhizomeTestSupport

/// Tasks parked in a `%%` comment section, end to end: `tasks`, `stats`, a Dataview `TASK` query and
/// `backlinks` see the vault as Obsidian does: no tasks inside the section, its links and tags still count.
@Suite struct CommentSectionCommandTests {
    static let note = """
        # Weekly review
        - [ ] send the report
        %%
        Parked until the next quarter, see [[Roadmap]]:
        - [ ] migrate the wiki
        - [ ] archive 2024 #someday
        %%
        - [x] book the room
        """

    @Test func `parked tasks are not listed, counted or queried, and their links and tags still count`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TemporaryVault()
        try vault.write("Review.md", Self.note)
        try vault.write("Roadmap.md", "# Roadmap\n")
        let tasks = try #require(AnyJSON.parse(cli.run(["tasks", "--vault", vault.path, "--json"]).output))
        #expect(tasks["data"].array?.compactMap { $0["text"].string } == ["send the report", "book the room"])
        let stats = cli.run(["stats", "--vault", vault.path, "--json"]).json["data"] as? [String: Any]
        #expect(stats?["openTasks"] as? Int == 1)
        #expect(stats?["doneTasks"] as? Int == 1)
        let query = try #require(AnyJSON.parse(cli.run(["query", "TASK", "--vault", vault.path, "--json"]).output))
        #expect(query["data"]["tasks"].array?.compactMap { $0["text"].string } == ["send the report", "book the room"])
        let backlinks = cli.run(["backlinks", "Roadmap", "--vault", vault.path])
        #expect(backlinks.output.contains("Review"), "\(backlinks.output)")
        let tags = cli.run(["tags", "--vault", vault.path])
        #expect(tags.output.contains("someday"), "\(tags.output)")
    }
}
