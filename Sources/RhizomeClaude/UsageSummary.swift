import Foundation
import RhizomeCore

/// A month of the usage ledger summed per day, feature and model: what `rhizome usage` shows and prints as
/// `--json` (its field names are that contract).
public struct UsageSummary: Encodable, Sendable {
    /// One day's calls of one feature to one model.
    public struct Row: Encodable, Sendable, Equatable {
        public var day: String
        public var feature: String
        public var model: String
        public var calls = 0
        public var inputTokens = 0
        public var outputTokens = 0
        public var cacheReadInputTokens = 0
        public var cacheCreationInputTokens = 0
        public var costUSD = 0.0
        /// Calls with a model that has no known price (not in `costUSD`): entries from before such calls were estimated.
        public var unpricedCalls = 0
        /// Calls whose model had no known price, counted at its family's or the highest known rate.
        public var estimatedCalls = 0
        /// Calls that ended without an answer but may have been billed (their tokens so far).
        public var incompleteCalls = 0
    }

    /// `YYYY-MM`.
    public var month: String
    /// The ledger file read.
    public var ledger: String
    /// By day, then feature, then model.
    public var rows: [Row]
    public var calls: Int
    public var totalUSD: Double
    /// The vault's monthly budget, when it sets one.
    @NullEncoded public var budgetUSD: Double?

    /// Sums the entries of `ledger` whose time falls in `month` (`YYYY-MM`, UTC as the ledger records it).
    public init(month: String, of ledger: UsageLedger, budgetUSD: Double?) {
        let entries = ledger.entries().filter { $0.time.hasPrefix(month) }
        var rows: [String: Row] = [:]
        for entry in entries {
            let key = String(entry.time.prefix(10)) + "\u{0}" + entry.feature + "\u{0}" + entry.model
            var row = rows[key] ?? Row(day: String(entry.time.prefix(10)), feature: entry.feature, model: entry.model)
            row.calls += 1
            row.inputTokens += entry.inputTokens
            row.outputTokens += entry.outputTokens
            row.cacheReadInputTokens += entry.cacheReadInputTokens
            row.cacheCreationInputTokens += entry.cacheCreationInputTokens
            if let cost = entry.costUSD { row.costUSD += cost } else { row.unpricedCalls += 1 }
            if entry.isEstimate { row.estimatedCalls += 1 }
            if entry.incomplete == true { row.incompleteCalls += 1 }
            rows[key] = row
        }
        self.month = month
        self.ledger = ledger.path
        self.rows = rows.values.sorted { ($0.day, $0.feature, $0.model) < ($1.day, $1.feature, $1.model) }
        calls = entries.count
        totalUSD = self.rows.reduce(0) { $0 + $1.costUSD }
        self.budgetUSD = budgetUSD
    }

    private enum CodingKeys: String, CodingKey { case month, ledger, rows, calls, totalUSD, budgetUSD }
}
