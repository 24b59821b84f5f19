import Foundation
import Testing
import RhizomeCLI
import RhizomeTestSupport

/// `explore` with a question in Japanese or Chinese on a vault written in English (Vault-Example): the
/// question is first turned into English search words by one short call, whose words find the notes the
/// question's own words cannot; against the fake Messages API on loopback.
@Suite(.ownThread, .timeLimit(.minutes(1)))
struct ExploreTranslationTests {
    /// "What was the reason for that decision?": none of its words is in an English note or the glossary.
    static let question = "あの決定の理由は？"
    static let searchWords = "SQLite decision FTS5"
    static let adr = "Projects/Rhizome/Decisions/ADR-001 Use SQLite.md"
    static var translation: FakeAnthropicServer.Reply {
        ClaudeReplies.answer([searchWords, "\nnothing else"], model: "claude-haiku-4-5-20251001", inputTokens: 100, outputTokens: 8)
    }
    static var answer: FakeAnthropicServer.Reply {
        ClaudeReplies.answer(["SQLite was chosen [2]."], model: "claude-haiku-4-5-20251001", inputTokens: 1_000, outputTokens: 10)
    }

    @Test func `a Japanese question is turned into English search words first, and those find the notes it is about`() async throws {
        let fixture = try ClaudeVault(script: [Self.translation, Self.answer])
        defer { fixture.expectKeyNeverShown() }
        let result = await fixture.run(["explore", Self.question])

        #expect(result.status == 0, "\(result.error)")
        #expect(fixture.server.requests.count == 2)
        // The translation call: explore's model, temperature 0, a short limit, the question as written.
        let first = try #require(fixture.server.requests.first?.json)
        #expect(first["model"] == "claude-haiku-4-5")
        #expect(first["max_tokens"] == 80)
        #expect(first["temperature"] == 0)
        #expect(first["system"].string?.hasPrefix("Rewrite the user's question as English search keywords") == true)
        #expect(first["messages"].array?.first?["content"] == .string(Self.question))
        // The answer call quotes the notes the words found, and asks the question as written.
        let second = try #require(fixture.server.requests.last?.json)
        let content = try #require(second["messages"].array?.first?["content"].string)
        #expect(content.contains("[2] ADR-001 Use SQLite: # ADR-001: Use SQLite for the index"), "\(content.prefix(400))")
        #expect(content.hasSuffix("\n\nQuestion: \(Self.question)"))
        #expect(result.output.hasPrefix("SQLite was chosen [[ADR-001 Use SQLite]]."), "\(result.output)")
        // Only the reply's first line is used; the person is told what was searched and what it cost.
        #expect(result.error.contains("(searched also for: \(Self.searchWords))\n"), "\(result.error)")
        #expect(result.error.contains(" (+ $0.0001 for the translation)"), "\(result.error)")
        // Both calls are in the ledger, as explore.
        let entries = fixture.ledgerLines.compactMap { $0 }
        #expect(entries.map(\.["feature"]) == ["explore", "explore"])
        #expect(entries.map(\.["inputTokens"]) == [100, 1_000])
    }

    @Test func `--json carries the translation's words and cost; an English question has none and makes one call`() async throws {
        let fixture = try ClaudeVault(script: [Self.translation, Self.answer, Self.answer])
        defer { fixture.expectKeyNeverShown() }
        let translated = await fixture.run(["explore", Self.question, "--json"])
        #expect(translated.status == 0, "\(translated.error)")
        let data = try #require(AnyJSON.parse(translated.output))["data"]
        #expect(data["translation"]["searchWords"] == .string(Self.searchWords))
        #expect(data["translation"]["costUSD"].double.map { abs($0 - 0.00014) < 1e-12 } == true, "100 × $1 + 8 × $5 per million: \(data["translation"])")

        let english = await fixture.run(["explore", "What did we decide about SQLite?", "--json"])
        #expect(english.status == 0, "\(english.error)")
        #expect(try #require(AnyJSON.parse(english.output))["data"]["translation"] == .null)
        #expect(fixture.server.requests.count == 3)
    }

    @Test func `never, by flag or config, sends the question as written, and a dry run says what a real run would do`() async throws {
        let fixture = try ClaudeVault()
        defer { fixture.expectKeyNeverShown() }
        // The question's own words find nothing here: explore stops before any call.
        let never = await fixture.run(["explore", Self.question, "--translate", "never"])
        #expect(never.status == 2, "\(never.output)\(never.error)")
        #expect(never.error.contains("no note matches the words of the question"), "\(never.error)")

        let dryRun = await fixture.run(["explore", Self.question, "--dry-run"], key: false)
        #expect(dryRun.status == 0, "\(dryRun.error)")
        #expect(dryRun.lines.first?.hasPrefix("The question would first be turned into English search words by one call (about ") == true, "\(dryRun.output)")
        let dryJSON = await fixture.run(["explore", Self.question, "--dry-run", "--json"], key: false)
        let data = try #require(AnyJSON.parse(dryJSON.output))["data"]
        #expect(data["translatesFirst"] == true)
        #expect(data["translationEstimatedCostUSD"].double.map { $0 > 0 } == true)

        try fixture.appendConfig("claude:\n  explore:\n    translate: never\n")
        let configured = await fixture.run(["explore", Self.question, "--dry-run", "--json"], key: false)
        #expect(try #require(AnyJSON.parse(configured.output))["data"]["translatesFirst"] == false, "\(configured.output)")
        let overridden = await fixture.run(["explore", Self.question, "--dry-run", "--json", "--translate", "always"], key: false)
        #expect(try #require(AnyJSON.parse(overridden.output))["data"]["translatesFirst"] == true)
        #expect(fixture.server.requests.isEmpty)
    }

    @Test func `a translation cut off at its token limit still searches its words, without telling the person to raise a limit`() async throws {
        let cutOff = Replies.stream(
            [ClaudeReplies.messageStart(model: "claude-haiku-4-5-20251001", inputTokens: 100), Replies.contentBlockStart(), Replies.textDelta(Self.searchWords + " decisions"),
             Replies.contentBlockStop(), Replies.messageDelta(stopReason: "max_tokens", outputTokens: 80), Replies.messageStop])
        let fixture = try ClaudeVault(script: [cutOff, Self.answer])
        defer { fixture.expectKeyNeverShown() }
        let result = await fixture.run(["explore", Self.question])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.contains("(searched also for: \(Self.searchWords) decisions)"), "\(result.error)")
        #expect(!result.error.contains("cut off"), "explore's own maxTokens does not limit the translation: \(result.error)")
        #expect(result.output.hasPrefix("SQLite was chosen [[ADR-001 Use SQLite]]."), "\(result.output)")
    }

    @Test func `auto makes no translation call for a vault without notes`() async throws {
        let fixture = try ClaudeVault()
        defer { fixture.expectKeyNeverShown() }
        for entry in try FileManager.default.contentsOfDirectory(atPath: fixture.vault.path) where !entry.hasPrefix(".") {
            try fixture.vault.remove(entry)
        }
        let result = await fixture.run(["explore", Self.question])
        #expect(result.status == 2, "\(result.output)\(result.error)")
        #expect(fixture.server.requests.isEmpty, "nothing to find: no call is worth paying for")
        let dryRun = await fixture.run(["explore", Self.question, "--dry-run", "--json"], key: false)
        #expect(try #require(AnyJSON.parse(dryRun.output))["data"]["translatesFirst"] == false, "\(dryRun.output)")
    }

    @Test func `a budget that cannot pay for the answer refuses before the translation is paid for`() async throws {
        let fixture = try ClaudeVault(script: [Self.translation, Self.answer])
        defer { fixture.expectKeyNeverShown() }
        try fixture.appendConfig("claude:\n  budget: 0.002\n")
        let result = await fixture.run(["explore", Self.question, "--json"])
        #expect(result.status == 2, "\(result.output)\(result.error)")
        #expect(try #require(AnyJSON.parse(result.output))["error"]["code"] == "over-budget", "\(result.output)")
        #expect(fixture.server.requests.isEmpty, "nothing is paid for when the answer would be refused")
        #expect(fixture.ledgerLines.isEmpty, "\(fixture.ledgerText)")
    }

    @Test func `auto leaves out date-named daily notes when it judges the vault's language`() async throws {
        let fixture = try ClaudeVault()
        defer { fixture.expectKeyNeverShown() }
        for entry in try FileManager.default.contentsOfDirectory(atPath: fixture.vault.path) where !entry.hasPrefix(".") {
            try fixture.vault.remove(entry)
        }
        for index in 1...5 { try fixture.vault.write("決定 \(index).md", "# 決定 \(index)\nSQLite を選んだ理由。\n") }
        for day in 1...28 { try fixture.vault.write(String(format: "Daily/2026-11-%02d.md", day), "- 作業\n") }
        let japanese = await fixture.run(["explore", Self.question, "--dry-run", "--json"], key: false)
        #expect(try #require(AnyJSON.parse(japanese.output))["data"]["translatesFirst"] == false, "5 of 5 named notes are Japanese: \(japanese.output)")

        for index in 1...30 { try fixture.vault.write("Decision \(index).md", "# Decision \(index)\n") }
        let english = await fixture.run(["explore", Self.question, "--dry-run", "--json"], key: false)
        #expect(try #require(AnyJSON.parse(english.output))["data"]["translatesFirst"] == true, "5 of 35 named notes: \(english.output)")
    }

    @Test func `a translate value other than auto, always or never is a config error at its value`() async throws {
        let fixture = try ClaudeVault()
        try fixture.appendConfig("claude:\n  explore:\n    translate: sometimes\n")
        let result = await fixture.run(["explore", Self.question, "--dry-run"], key: false)
        #expect(result.status == 2)
        #expect(result.error.contains(".rhizome/config.yaml:11:16"), "\(result.error)")
        #expect(result.error.contains("`translate` must be auto, always or never"), "\(result.error)")
    }
}
