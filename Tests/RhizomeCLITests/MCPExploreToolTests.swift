/// The MCP `explore` tool: a real client session with the `rhizome mcp` process on a copy of Vault-Example,
/// the server talking real HTTP and SSE to a fake Messages API on loopback, as `rhizome explore` does.
import Foundation
import Testing
import RhizomeTestSupport

@Suite(.serialized, .timeLimit(.minutes(2))) struct MCPExploreToolTests {
    @Test func `an agent asks explore over MCP and gets the cited answer the command line shows, its cost in the ledger`() throws {
        let fixture = try ClaudeVault(script: [ClaudeReplies.overloaded, ExploreCommandTests.answer])
        let session = try MCPSession(vault: fixture.vault, arguments: ["--read-only"], environment: fixture.environment(key: true))
        defer { session.child.stop() }
        _ = try session.initialize()
        try session.waitUntilIndexed()

        let listed = try session.result(of: session.request("tools/list"))
        let explore = listed["tools"].array?.first { $0["name"] == "explore" }
        #expect(explore?["annotations"]["readOnlyHint"] == true && explore?["annotations"]["openWorldHint"] == true, "\(String(describing: explore))")

        let answer = try session.call("explore", ["question": AnyJSON.string(ExploreCommandTests.question)], within: .seconds(30))
        #expect(!answer.isError, "\(answer.body)")
        let data = answer.body["data"]
        #expect(data["answer"].string == ExploreCommandTests.shownAnswer, "\(data)")
        #expect(data["model"].string == ExploreCommandTests.streamModel && data["attempts"].int == 2, "\(data)")
        let cited = (data["sources"].array ?? []).filter { $0["cited"] == true }.compactMap { $0["path"].string }
        #expect(Set(cited) == [ExploreCommandTests.adr, ExploreCommandTests.fts], "\(data["sources"])")
        #expect(data["usage"]["inputTokens"].int == 1_200 && data["usage"]["outputTokens"].int == 60, "\(data["usage"])")
        #expect((data["costUSD"].double ?? 0) > 0, "\(data)")
        // The retry after the 529 is said beside the answer, as the command line says it on stderr.
        #expect(answer.body["note"].string?.lowercased().contains("retr") == true, "\(answer.body)")

        // What was sent: the question and the numbered excerpts, with the key in its header only.
        let requests = fixture.server.requests
        #expect(requests.count == 2 && requests.allSatisfy { $0.headers["x-api-key"] == ClaudeVault.key })
        let sent = String(decoding: requests.last?.body ?? Data(), as: UTF8.self)
        #expect(sent.contains("What is the decision on SQLite and FTS5?") && sent.contains("[1] SQLite FTS5 docs:"))
        // Billed once, in the same ledger `rhizome usage` reads.
        let entries = fixture.ledgerLines.compactMap { $0 }.filter { $0["feature"] == "explore" }
        #expect(!entries.isEmpty, "ledger: \(fixture.ledgerText)")
        #expect(session.finish() == .exited(0), "stderr: \(session.child.errorText)")
        fixture.expectKeyNeverShown(also: [answer.body.text, session.child.errorText])
    }

    @Test func `explore over MCP without a key says how to give one, and a dry run needs none and sends nothing`() throws {
        let fixture = try ClaudeVault()
        let session = try MCPSession(vault: fixture.vault, arguments: ["--read-only"], environment: fixture.environment(key: false))
        defer { session.child.stop() }
        _ = try session.initialize()
        try session.waitUntilIndexed()

        let refused = try session.call("explore", ["question": AnyJSON.string(ExploreCommandTests.question)])
        #expect(refused.isError && refused.body["error"]["code"] == "missing-api-key", "\(refused.body)")
        #expect(refused.body["error"]["fix"].string?.contains("ANTHROPIC_API_KEY") == true, "\(refused.body)")

        let dry = try session.call("explore", ["question": AnyJSON.string(ExploreCommandTests.question), "dryRun": true])
        #expect(!dry.isError, "\(dry.body)")
        let call = dry.body["data"]["call"]
        let notes = call["notes"].array?.compactMap { $0["path"].string } ?? []
        #expect(notes.prefix(2) == [ExploreCommandTests.fts, ExploreCommandTests.adr], "\(notes)")
        #expect(call["prompt"].string?.hasSuffix(ExploreCommandTests.question) == true, "\(call)")
        #expect(call["estimatedInputTokens"].int.map { $0 > 0 } == true && dry.body["data"]["searchWords"] == ["decision", "sqlite", "fts5"], "\(dry.body)")
        #expect(fixture.server.requests.isEmpty, "a dry run sends nothing")

        let empty = try session.call("explore", ["question": "  "])
        #expect(empty.isError && empty.body["error"]["code"] == "invalid-argument", "\(empty.body)")
        #expect(session.finish() == .exited(0), "stderr: \(session.child.errorText)")
    }
}
