/// `UsageSummary`, what `rhizome usage` shows, over a real ledger file: a month's calls summed per day,
/// feature and model, with unpriced, estimated and unanswered calls counted apart.
import Foundation
import Testing
@testable import RhizomeClaude

@Suite struct UsageSummaryTests {
    @Test func `a month of the ledger is summed per day, feature and model, and other months are left out`() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rhizome-usage-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let ledger = UsageLedger(path: folder.appendingPathComponent("usage.jsonl").path)
        func day(_ text: String) -> Date { ISO8601DateFormatter().date(from: text + "T12:00:00Z")! }
        func record(_ date: String, _ feature: String, _ model: String, input: Int, cost: Double?, basis: String? = "listed", incomplete: Bool? = nil) throws {
            try ledger.record(.init(time: day(date), feature: feature, model: model, vault: "/v",
                                    usage: .init(inputTokens: input, outputTokens: 10, cacheCreationInputTokens: 5, cacheReadInputTokens: 7),
                                    costUSD: cost, priceBasis: basis, incomplete: incomplete))
        }
        try record("2026-10-31", "explore", "claude-haiku-4-5", input: 1_000, cost: 9)
        try record("2026-11-02", "explore", "claude-haiku-4-5", input: 100, cost: 0.25)
        try record("2026-11-02", "explore", "claude-haiku-4-5", input: 200, cost: 0.5, incomplete: true)
        try record("2026-11-02", "reflect", "claude-opus-4-5", input: 300, cost: 1.0)
        try record("2026-11-01", "explore", "claude-next-9", input: 400, cost: 2.0, basis: "family")
        try record("2026-11-01", "explore", "old-model", input: 50, cost: nil, basis: nil)

        let summary = UsageSummary(month: "2026-11", of: ledger, budgetUSD: 20)
        #expect(summary.calls == 5 && summary.totalUSD == 3.75 && summary.budgetUSD == 20)
        #expect(summary.rows.map { "\($0.day) \($0.feature) \($0.model)" } == [
            "2026-11-01 explore claude-next-9", "2026-11-01 explore old-model",
            "2026-11-02 explore claude-haiku-4-5", "2026-11-02 reflect claude-opus-4-5",
        ])
        let haiku = summary.rows[2]
        #expect(haiku.calls == 2 && haiku.inputTokens == 300 && haiku.outputTokens == 20 && haiku.cacheReadInputTokens == 14
                && haiku.cacheCreationInputTokens == 10 && haiku.costUSD == 0.75 && haiku.incompleteCalls == 1)
        #expect(summary.rows[0].estimatedCalls == 1 && summary.rows[1].unpricedCalls == 1 && summary.rows[1].costUSD == 0)
        #expect(UsageSummary(month: "2026-12", of: ledger, budgetUSD: nil).rows.isEmpty)
        #expect(ledger.spent(inMonth: "2026-11") == summary.totalUSD, "the budget counts what usage shows")
    }
}
