import Foundation
import Testing
import RhizomeCLI
import RhizomeTestSupport

/// `rhizome usage` over the ledger that real `explore` and `reflect` calls (against the fake API) wrote,
/// plus lines an earlier month left: sums per day, feature and model, the month's total, the budget.
@Suite(.ownThread, .timeLimit(.minutes(1)))
struct UsageCommandTests {
    @Test func `usage sums the calls of the month per day, feature and model, with the month's total`() async throws {
        let fixture = try ClaudeVault(script: [
            ClaudeReplies.answer(["SQLite, per [1]."], model: "claude-haiku-4-5-20251001", inputTokens: 1_200, outputTokens: 60),
            ClaudeReplies.answer(["FTS5 [2]."], model: "claude-haiku-4-5-20251001", inputTokens: 1_000, outputTokens: 40),
            ClaudeReplies.answer(["A week of watchers [1]."], model: "claude-sonnet-4-6", inputTokens: 3_000, outputTokens: 200),
        ])
        defer { fixture.expectKeyNeverShown() }
        try fixture.appendConfig("claude:\n  budget: 20\n")
        let month = ClaudeVault.thisMonth
        let firstOfMonth = month + "-01T00:00:00Z"
        // Left by earlier runs: one this month (the 1st), one unpriced, one last year, and a torn last line.
        try fixture.seedLedger([
            #"{"cacheCreationInputTokens":0,"cacheReadInputTokens":500,"costUSD":0.0015,"feature":"explore","inputTokens":1000,"model":"claude-haiku-4-5","outputTokens":100,"time":"\#(firstOfMonth)","vault":"/v"}"#,
            #"{"cacheCreationInputTokens":0,"cacheReadInputTokens":0,"costUSD":null,"feature":"explore","inputTokens":10,"model":"claude-next","outputTokens":1,"time":"\#(firstOfMonth)","vault":"/v"}"#,
            #"{"cacheCreationInputTokens":0,"cacheReadInputTokens":0,"costUSD":9.5,"feature":"reflect","inputTokens":10,"model":"claude-sonnet-4-6","outputTokens":1,"time":"2020-02-03T10:00:00Z","vault":"/v"}"#,
            #"{"cacheCreationInputTokens":0,"cacheRead"#,
        ])
        for arguments in [["explore", "What is the decision on SQLite?"], ["explore", "Which notes cover FTS5?"], ["reflect", "--from", "2026-11-16", "--to", "2026-11-22"]] {
            let call = await fixture.run(arguments)
            #expect(call.status == 0, "\(arguments): \(call.error)")
        }
        let today = String(ISO8601DateFormatter().string(from: Date()).prefix(10))

        let result = await fixture.run(["usage", "--json"])
        #expect(result.status == 0, "\(result.error)")
        let data = try #require(AnyJSON.parse(result.output)?["data"], "\(result.output)")
        #expect(data.keys == ["budgetUSD", "calls", "ledger", "month", "rows", "totalUSD"])
        #expect(data["month"] == .string(month))
        #expect(data["ledger"] == .string(fixture.ledger.path))
        #expect(data["budgetUSD"] == 20)
        #expect(data["calls"] == 5)
        // explore: (1,200 + 1,000) × $1 + (60 + 40) × $5; reflect: 3,000 × $3 + 200 × $15; earlier: $0.0015.
        #expect(data["totalUSD"].double.map { abs($0 - (0.0027 + 0.012 + 0.0015)) < 1e-9 } == true, "\(data["totalUSD"])")
        let rows = try #require(data["rows"].array)
        for row in rows {
            #expect(row.keys == ["cacheCreationInputTokens", "cacheReadInputTokens", "calls", "costUSD", "day", "estimatedCalls", "feature", "incompleteCalls", "inputTokens", "model", "outputTokens",
                                "unpricedCalls"])
        }
        func row(_ day: String, _ feature: String, _ model: String) -> AnyJSON? {
            rows.first { $0["day"] == .string(day) && $0["feature"] == .string(feature) && $0["model"] == .string(model) }
        }
        #expect(rows.count == 4, "\(rows)")
        let explore = try #require(row(today, "explore", "claude-haiku-4-5-20251001"), "\(rows)")
        #expect(explore["calls"] == 2)
        #expect(explore["inputTokens"] == 2_200)
        #expect(explore["outputTokens"] == 100)
        #expect(explore["costUSD"].double.map { abs($0 - 0.0027) < 1e-12 } == true)
        let reflect = try #require(row(today, "reflect", "claude-sonnet-4-6"), "\(rows)")
        #expect(reflect["calls"] == 1)
        #expect(reflect["inputTokens"] == 3_000)
        #expect(reflect["outputTokens"] == 200)
        #expect(reflect["costUSD"].double.map { abs($0 - 0.012) < 1e-12 } == true)
        let earlier = try #require(row(month + "-01", "explore", "claude-haiku-4-5"), "\(rows)")
        #expect(earlier["cacheReadInputTokens"] == 500)
        let unpriced = try #require(row(month + "-01", "explore", "claude-next"), "\(rows)")
        #expect(unpriced["unpricedCalls"] == 1)
        #expect(unpriced["costUSD"] == 0)
        #expect(rows.map { $0["day"].string ?? "" } == rows.map { $0["day"].string ?? "" }.sorted(), "by day")

        // The human table and total line.
        let table = await fixture.run(["usage"])
        #expect(table.status == 0)
        #expect(table.lines.first?.contains(#/^DAY\s+FEATURE\s+MODEL\s+CALLS\s+INPUT\s+OUTPUT\s+COST$/#) == true, "\(table.output)")
        let cells = table.lines.map { $0.split(separator: " ").map(String.init) }
        #expect(cells.contains([today, "reflect", "claude-sonnet-4-6", "1", "3,000", "200", "$0.0120"]), "\(table.output)")
        #expect(cells.contains([today, "explore", "claude-haiku-4-5-20251001", "2", "2,200", "100", "$0.0027"]), "\(table.output)")
        #expect(table.output.contains("$0.0000 (+1 unpriced)"))
        #expect(table.output.contains("\n\(month): 5 calls, $0.0162 of a $20.00 budget (estimated from list prices)\n"), "\(table.output)")

        // Every line the calls appended is JSON, with no prompt, answer or key.
        let appended = fixture.ledgerText.split(separator: "\n").dropFirst(4)
        #expect(appended.count == 3)
        for line in appended {
            let entry = AnyJSON.parse(String(line))
            #expect(entry != nil, "not JSON: \(line)")
            #expect(entry?.keys == ["cacheCreationInputTokens", "cacheReadInputTokens", "costUSD", "feature", "inputTokens", "model", "outputTokens", "priceBasis", "time", "vault"])
            for text in ["SQLite", "FTS5", "Excerpts", "watchers", "reflection"] {
                #expect(!line.contains(text), "the ledger line holds `\(text)`")
            }
        }
    }

    @Test func `another month with no calls is empty, and a malformed month is a usage error`() async throws {
        let fixture = try ClaudeVault()
        defer { fixture.expectKeyNeverShown() }
        try fixture.seedLedger([
            #"{"cacheCreationInputTokens":0,"cacheReadInputTokens":0,"costUSD":0.5,"feature":"explore","inputTokens":1,"model":"claude-haiku-4-5","outputTokens":1,"time":"2020-02-01T00:00:00Z","vault":"/v"}"#,
        ])
        let empty = await fixture.run(["usage", "--month", "2020-01", "--json"])
        #expect(empty.status == 0, "\(empty.error)")
        let data = AnyJSON.parse(empty.output)?["data"]
        #expect(data?["month"] == "2020-01")
        #expect(data?["rows"] == [])
        #expect(data?["calls"] == 0)
        #expect(data?["totalUSD"] == 0)
        #expect(data?["budgetUSD"] == .null)
        let human = await fixture.run(["usage", "--month", "2020-01"])
        #expect(human.output == "No calls to Claude in 2020-01 (ledger: \(fixture.ledger.path)).\n")
        let february = await fixture.run(["usage", "--month", "2020-02", "--json"])
        #expect(AnyJSON.parse(february.output)?["data"]["calls"] == 1)

        for bad in ["2020-13", "2020-1", "January", "2020-01-05"] {
            let result = await fixture.run(["usage", "--month", bad])
            #expect(result.status == 2, "\(bad)")
            #expect(result.error.contains("--month takes YYYY-MM"), "\(bad): \(result.error)")
        }
    }
}
