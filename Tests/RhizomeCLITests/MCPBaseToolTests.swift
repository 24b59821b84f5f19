import Foundation
import Testing
import RhizomeTestSupport

/// The MCP `base` tool through a real client session over stdio: a view's rows as `rhizome base --json`
/// gives them, `this`, the row limit, and errors with their codes.
@Suite(.serialized, .timeLimit(.minutes(2))) struct MCPBaseToolTests {
    @Test func aBaseViewComesBackAsTypedRowsWithItsTotalAndErrorsWithTheirCodes() throws {
        let vault = try BaseVaultFixture.make()
        let session = try MCPSession(vault: vault, arguments: ["--read-only"])
        defer { session.child.stop() }
        _ = try session.initialize()
        try session.waitUntilIndexed()

        let calls: [(String, AnyJSON)] = [
            ("base", ["file": "Books"]),
            ("base", ["file": "Books.base", "view": "By status", "limit": 2]),
            ("base", ["file": "Related", "this": "Dune"]),
            ("base", ["file": "Books", "view": "Nope"]),
            ("base", ["file": "Bookz"]),
        ]
        let ids = try calls.map { try session.callTool($0.0, $0.1) }
        let answers = try session.toolAnswers(ids)
        func answer(_ index: Int) -> ToolAnswer { answers[ids[index]]! }

        let shelf = answer(0)
        #expect(!shelf.isError, "\(shelf.body)")
        #expect(shelf.body["tool"] == "base")
        #expect(shelf.body["data"]["view"] == ["name": "Shelf", "type": "table"])
        #expect(shelf.body["data"]["rows"].array?.map { $0["path"] } == [
            "Books/Dune.md", "Books/Neuromancer.md", "Books/Emma.md", "Books/Untitled draft.md",
        ])
        #expect(shelf.body["data"]["rows"][0]["values"]["note.author"]["path"] == "People/Frank Herbert.md")
        #expect(shelf.body["data"]["summaries"][0] == ["property": "note.pages", "name": "Sum", "value": 1157])
        #expect(shelf.body["truncated"] == false)
        #expect(shelf.body["freshness"]["state"] == "current")

        let grouped = answer(1).body
        #expect(grouped["data"]["rows"].array?.count == 2)
        #expect(grouped["truncated"] == true)
        // The first two rows by name (Dune, Emma), in their groups.
        #expect(grouped["data"]["groups"].array?.map { $0["key"] } == ["finished", "to-read"])

        let related = answer(2).body["data"]
        #expect(related["rows"].array?.map { $0["path"] } == [
            "Meetings/2025-05-20 Book club.md", "Daily/2025-05-27.md", "People/Frank Herbert.md",
        ])

        #expect(answer(3).isError)
        #expect(answer(3).body["error"]["code"] == "base-unknown-view")
        #expect(answer(3).body["error"]["fix"].string?.hasPrefix("its views: ") == true, "the base error's fix travels: \(answer(3).body)")
        #expect(answer(4).isError)
        #expect(answer(4).body["error"]["code"] == "base-not-found")
        #expect(answer(4).body["error"]["message"].string?.contains("Bases/Books.base") == true)

        #expect(session.finish() == .exited(0), "stderr: \(session.child.errorText)")
    }
}
