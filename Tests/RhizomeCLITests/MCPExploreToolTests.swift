/// The MCP `explore` and `reflect` tools: a real client session with the `rhizome mcp` process on a copy of Vault-Example,
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

    @Test func `a Japanese question over MCP is turned into English search words first, as on the command line`() throws {
        let fixture = try ClaudeVault(script: [ExploreTranslationTests.translation, ExploreTranslationTests.answer])
        let session = try MCPSession(vault: fixture.vault, arguments: ["--read-only"], environment: fixture.environment(key: true))
        defer { session.child.stop() }
        _ = try session.initialize()
        try session.waitUntilIndexed()

        let dry = try session.call("explore", ["question": AnyJSON.string(ExploreTranslationTests.question), "dryRun": true])
        #expect(!dry.isError && dry.body["data"]["translatesFirst"] == true, "\(dry.body)")
        #expect(dry.body["data"]["translationEstimatedCostUSD"].double.map { $0 > 0 } == true, "\(dry.body)")
        #expect(fixture.server.requests.isEmpty, "a dry run sends nothing")
        let answer = try session.call("explore", ["question": AnyJSON.string(ExploreTranslationTests.question)], within: .seconds(30))
        #expect(!answer.isError, "\(answer.body)")
        #expect(answer.body["data"]["translation"]["searchWords"] == .string(ExploreTranslationTests.searchWords), "\(answer.body)")
        let cited = (answer.body["data"]["sources"].array ?? []).filter { $0["cited"] == true }.compactMap { $0["path"].string }
        #expect(cited == [ExploreTranslationTests.adr], "\(answer.body)")
        #expect(fixture.server.requests.count == 2)
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

    @Test func `an agent writes the week's reflection over MCP, and undo takes it back`() throws {
        let fixture = try ClaudeVault(script: [ReflectCommandTests.answer])
        let session = try MCPSession(vault: fixture.vault, environment: fixture.environment(key: true))
        defer { session.child.stop() }
        _ = try session.initialize()
        try session.waitUntilIndexed()
        let period: [String: AnyJSON] = ["from": "2026-11-16", "to": "2026-11-22"]

        let bad = try session.call("reflect", ["since": "7d", "from": "2026-11-16", "to": "2026-11-22"])
        #expect(bad.isError && bad.body["error"]["code"] == "invalid-argument", "\(bad.body)")
        let dry = try session.call("reflect", AnyJSON.object(period.merging(["dryRun": true]) { $1 }))
        #expect(!dry.isError && dry.body["data"]["path"].string == ReflectCommandTests.notePath && dry.body["data"]["action"] == "create", "\(dry.body)")
        #expect(fixture.server.requests.isEmpty && !FileManager.default.fileExists(atPath: fixture.vault.url(ReflectCommandTests.notePath).path))

        let written = try session.call("reflect", AnyJSON.object(period), within: .seconds(30))
        #expect(!written.isError, "\(written.body)")
        #expect(written.body["data"]["path"].string == ReflectCommandTests.notePath && written.body["data"]["answer"].string == ReflectCommandTests.shownText, "\(written.body)")
        let text = try fixture.vault.read(ReflectCommandTests.notePath)
        #expect(text.hasPrefix("---\ntype: reflection\n") && text.contains("[[2026-11-18 Watcher debounce]]"))
        // Again: refused (the note exists and `force` was not given), nothing sent.
        let again = try session.call("reflect", AnyJSON.object(period))
        #expect(again.isError && again.body["error"]["message"].string?.contains("force") == true, "\(again.body)")
        #expect(fixture.server.requests.count == 1)

        let undone = try session.call("undo", [:])
        #expect(!undone.isError, "\(undone.body)")
        #expect(!FileManager.default.fileExists(atPath: fixture.vault.url(ReflectCommandTests.notePath).path))
        #expect(session.finish() == .exited(0), "stderr: \(session.child.errorText)")
        fixture.expectKeyNeverShown(also: [written.body.text, session.child.errorText])
    }

    @Test func `a read-only server lists explore but not reflect`() throws {
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        let session = try MCPSession(vault: vault, arguments: ["--read-only"])
        defer { session.child.stop() }
        _ = try session.initialize()
        let names = try session.result(of: session.request("tools/list"))["tools"].array?.compactMap { $0["name"].string } ?? []
        #expect(names.contains("explore") && !names.contains("reflect"), "\(names)")
        let refused = try session.call("reflect", ["since": "7d"])
        #expect(refused.isError && refused.body["error"]["code"] == "read-only", "\(refused.body)")
        #expect(session.finish() == .exited(0), "stderr: \(session.child.errorText)")
    }

    /// The plan's read comes after the translation's model call; a slow call (a retry, a slow first byte)
    /// must not use up that read's time limit and fail the tool after the translation was paid for.
    @Test func `a slow translation over MCP does not use up the time limit of the read that follows it`() throws {
        var slow = ExploreTranslationTests.translation
        slow.steps.insert(.pause(.seconds(3)), at: 0)
        let fixture = try ClaudeVault(script: [slow, ExploreTranslationTests.answer])
        let session = try MCPSession(vault: fixture.vault, arguments: ["--read-only", "--timeout", "2.5"], environment: fixture.environment(key: true))
        defer { session.child.stop() }
        _ = try session.initialize()
        try session.waitUntilIndexed()
        let answer = try session.call("explore", ["question": AnyJSON.string(ExploreTranslationTests.question)], within: .seconds(30))
        #expect(!answer.isError, "\(answer.body)")
        let cited = (answer.body["data"]["sources"].array ?? []).filter { $0["cited"] == true }.compactMap { $0["path"].string }
        #expect(cited == [ExploreTranslationTests.adr], "\(answer.body)")
        #expect(fixture.server.requests.count == 2)
        #expect(session.finish() == .exited(0), "stderr: \(session.child.errorText)")
        fixture.expectKeyNeverShown(also: [answer.body.text, session.child.errorText])
    }
}
