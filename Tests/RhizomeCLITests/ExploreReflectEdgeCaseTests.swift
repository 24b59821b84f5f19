import Foundation
import Testing
import RhizomeTestSupport

/// explore and reflect at their edges, end to end through the CLI: citations between notes of one name, budgets
/// with unpriced models, a bad base URL, days not written in full.
@Suite(.serialized, .ownThread, .timeLimit(.minutes(1))) struct ExploreReflectEdgeCaseTests {
    @Test func `every citation links to the note it quotes, even where two notes share a name`() async throws {
        // Vault-Example has two `Index.md` and two `Meeting notes.md`: `[[Index]]` names only one of each.
        let citations = (1...20).map { "[\($0)]" }.joined(separator: " ")
        let fixture = try ClaudeVault(script: [Replies.stream(Replies.normalEvents(pieces: ["Everything: ", citations, "."]))])
        defer { fixture.expectKeyNeverShown() }
        let result = await fixture.run(["explore", "Which index and meeting notes list the project notes?", "--json"])
        #expect(result.status == 0, "\(result.error)")
        let sources = try #require(AnyJSON.parse(result.output)?["data"]["sources"].array)
        let paths = sources.compactMap { $0["path"].string }
        #expect(paths.contains("Projects/Rhizome/Index.md") || paths.contains("Meetings/Meeting notes.md"), "\(paths)")
        for source in sources {
            let link = try #require(source["link"].string)
            let target = String(link.dropFirst(2).dropLast(2))
            let note = await fixture.run(["note", target, "--json", "--no-refresh"])
            #expect(AnyJSON.parse(note.output)?["data"]["file"]["path"] == source["path"], "\(link) does not lead to \(source["path"])")
        }
    }

    /// A model without a known price is counted against the budget at its family's dearest rate, said to
    /// be an estimate, and recorded as one; `claude: prices:` gives it its own price.
    @Test func `a model without a price is estimated at its family's rate under a budget, and claude prices gives it one`() async throws {
        // The API answers with the model asked for.
        let opus = Replies.stream(Replies.normalEvents().map { $0.replacingOccurrences(of: Replies.model, with: "claude-opus-4-6") })
        let fixture = try ClaudeVault(script: [opus, opus])
        defer { fixture.expectKeyNeverShown() }
        try fixture.appendConfig("claude:\n  budget: 5\n")
        let estimated = await fixture.run(["explore", "Why SQLite?", "--model", "claude-opus-4-6", "--json"])
        #expect(estimated.status == 0, "\(estimated.error)")
        #expect(estimated.error.contains("has no known price; its cost is estimated at its family's rate") && estimated.error.contains("claude: prices:"),
                "\(estimated.error)")
        #expect(fixture.server.requests.count == 1)
        #expect(fixture.ledgerText.contains("\"priceBasis\":\"family\""), "\(fixture.ledgerText)")
        try fixture.appendConfig("  prices:\n    claude-opus-4-6: { input: 5, output: 25 }\n", afterLines: 11)
        let priced = await fixture.run(["explore", "Why SQLite?", "--model", "claude-opus-4-6", "--json"])
        #expect(priced.status == 0, "\(priced.error)")
        #expect(!priced.error.contains("no known price"), "\(priced.error)")
        #expect(AnyJSON.parse(priced.output)?["data"]["costUSD"].double != nil, "\(priced.output)")
        let usage = await fixture.run(["usage"])
        #expect(usage.output.contains("(1 estimated)"), "\(usage.output)")
    }

    /// Issue 21, item 6: a 400 for a model that does not exist is the user's to fix (exit 2, pointing at
    /// the model setting), not a Rhizome failure (70).
    @Test func `a 400 for an unknown model exits 2 and names the model setting`() async throws {
        let fixture = try ClaudeVault(script: [Replies.status(400, type: "invalid_request_error", message: "model: claude-nope")])
        defer { fixture.expectKeyNeverShown() }
        let refused = await fixture.run(["explore", "Why SQLite?", "--model", "claude-nope", "--json"])
        #expect(refused.status == 2, "\(refused.error)")
        #expect(refused.output.contains("\"code\" : \"api-refused\""), "\(refused.output)")
        #expect(refused.error.contains("HTTP 400 invalid_request_error: model: claude-nope") && refused.error.contains("check the model name"), "\(refused.error)")
    }

    /// Issue 21, item 2: a call that broke off after the API began answering was billed, and never reached
    /// the ledger (so the budget undercounted). It is recorded with the tokens counted so far, incomplete.
    @Test func `an answer that breaks off part way is recorded in the ledger as incomplete`() async throws {
        let dropped = FakeAnthropicServer.Reply(
            steps: Replies.stream([Replies.messageStart(inputTokens: 1_234), Replies.contentBlockStart(), Replies.textDelta("Your notes on ")]).steps
                + [.pause(.milliseconds(100)), .reset])
        let fixture = try ClaudeVault(script: [dropped])
        defer { fixture.expectKeyNeverShown() }
        let result = await fixture.run(["explore", "Why SQLite?"])
        #expect(result.status == 70 && result.error.contains("broke off"), "\(result.error)")
        let entries = fixture.ledgerText.split(separator: "\n").compactMap { AnyJSON.parse(String($0)) }
        try #require(entries.count == 1, "\(fixture.ledgerText)")
        #expect(entries[0]["incomplete"] == true && entries[0]["inputTokens"] == 1_234 && entries[0]["priceBasis"] == "listed", "\(fixture.ledgerText)")
        #expect((entries[0]["costUSD"].double ?? 0) > 0)
        #expect(await fixture.run(["usage"]).output.contains("(1 without an answer)"))
        // A call refused before any answer began was not billed: nothing recorded.
        let refusedFixture = try ClaudeVault(script: [Replies.status(400, type: "invalid_request_error", message: "model: claude-nope")])
        _ = await refusedFixture.run(["explore", "Why SQLite?", "--model", "claude-nope"])
        #expect(refusedFixture.ledgerText.isEmpty, "\(refusedFixture.ledgerText)")
    }

    /// `claude: timeouts:` sets the limits; a wrong key points at the line and lists the right ones.
    @Test func `claude timeouts come from the vault config, and a bad one is a config error`() async throws {
        let fixture = try ClaudeVault(script: Array(repeating: Replies.slowFirstByte(.seconds(5)), count: 6))
        defer { fixture.expectKeyNeverShown() }
        try fixture.appendConfig("claude:\n  timeouts: { firstByte: 0.3, total: 0.8 }\n")
        let started = ContinuousClock.now
        let result = await fixture.run(["explore", "Why SQLite?"])
        #expect(ContinuousClock.now - started < .seconds(4), "the configured limits were not used")
        #expect(result.status == 70 && result.error.contains("0.3 s"), "\(result.error)")
        let bad = try ClaudeVault()
        try bad.appendConfig("claude:\n  timeouts: { idel: 5 }\n")
        let refused = await bad.run(["explore", "Why SQLite?"])
        #expect(refused.status == 2 && refused.error.contains("unknown key `claude.timeouts.idel`") && refused.error.contains("firstByte, idle, total"), "\(refused.error)")
    }

    /// Issue 21, item 7: an answer cut off at the token limit says so, and how to get a longer one.
    @Test func `an answer cut off at its token limit says so`() async throws {
        let events = Replies.normalEvents().map { $0.contains("message_delta") ? Replies.messageDelta(stopReason: "max_tokens") : $0 }
        let fixture = try ClaudeVault(script: [Replies.stream(events)])
        defer { fixture.expectKeyNeverShown() }
        let result = await fixture.run(["explore", "Why SQLite?"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.contains("the answer was cut off at its token limit") && result.error.contains("`claude: explore:`"), "\(result.error)")
        let whole = try ClaudeVault(script: [Replies.normal])
        #expect(await !whole.run(["explore", "Why SQLite?"]).error.contains("cut off"))
    }

    @Test func `an ANTHROPIC_BASE_URL that is not an http URL is an error, not a call elsewhere`() async throws {
        let fixture = try ClaudeVault(script: [Replies.normal])
        defer { fixture.expectKeyNeverShown() }
        let result = await fixture.run(["explore", "Why SQLite?"], extraEnvironment: ["ANTHROPIC_BASE_URL": "127.0.0.1:8080"])
        #expect(result.status == 2)
        #expect(result.error.contains("ANTHROPIC_BASE_URL must be an http(s) URL"), "\(result.error)")
        #expect(fixture.server.requests.isEmpty)
    }

    @Test func `reflect refuses days that are not written in full`() async throws {
        let fixture = try ClaudeVault()
        let result = await fixture.run(["reflect", "--from", "2026-011-5", "--to", "2026-11-22", "--dry-run"])
        #expect(result.status == 2)
        #expect(result.error.contains("write it as YYYY-MM-DD"), "\(result.error)")
    }
}

/// Questions and notes in Chinese, Japanese or Korean, which have no spaces between words.
@Suite(.serialized, .ownThread, .timeLimit(.minutes(1))) struct ClaudeCJKTests {
    @Test func `a question written without spaces finds the note that uses its words, and the budget counts its characters`() async throws {
        let fixture = try ClaudeVault()
        let body = String(repeating: "我们选择了SQLite作为索引，因为它只是一个文件。", count: 200)
        try fixture.vault.write("中文/索引决定.md", "# 索引决定\n\n\(body)\n")
        let result = await fixture.run(["explore", "为什么选择SQLite作为索引", "--dry-run", "--json"], key: false)
        #expect(result.status == 0, "\(result.error)")
        let plan = try #require(AnyJSON.parse(result.output)?["data"])
        #expect(plan["notes"][0]["path"] == "中文/索引决定.md", "\(plan["notes"])")
        // 200 sentences of 25 characters are about 3,400 tokens (one per CJK character), more than the note's
        // share of a 6,000-token budget spread over several notes: its excerpt is cut.
        let excerpt = try #require(plan["notes"][0]["excerpt"].string)
        #expect(excerpt.hasSuffix(" …") && excerpt.count < body.count, "\(excerpt.count) characters")
        let estimated = try #require(plan["estimatedInputTokens"].int)
        #expect(estimated <= 6_000 + 400, "the prompt stays within the budget: \(estimated)")
    }
}
