import ArgumentParser
import Foundation
import RhizomeClaude
import RhizomeCore

/// `rhizome usage [--month YYYY-MM]`: what calls to Claude cost, per day, feature and model.
struct UsageCommand: RhizomeSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "usage",
        abstract: "Calls to Claude (explore) per day, feature and model, with tokens, estimated cost and the month's total.",
        discussion: "Every call is recorded in a local ledger (no prompts, answers or keys): $XDG_DATA_HOME/rhizome/usage.jsonl on Linux, ~/Library/Application Support/Rhizome/usage.jsonl on macOS, or $RHIZOME_USAGE_LEDGER.")

    @OptionGroup var global: GlobalOptions

    @Option(name: .long, help: ArgumentHelp("The month, YYYY-MM (default: this month, UTC).", valueName: "month"))
    var month: String?

    func validate() throws {
        if let month, month.range(of: #"^\d{4}-(0[1-9]|1[0-2])$"#, options: .regularExpression) == nil {
            throw ValidationError("--month takes YYYY-MM, like 2026-11")
        }
    }

    func execute(in context: CommandContext) throws -> ExitStatus {
        let month = self.month ?? String(ISO8601DateFormatter().string(from: Date()).prefix(7))
        let ledger = UsageLedger.standard(environment: context.environment)
        let entries = ledger.entries().filter { $0.time.hasPrefix(month) }
        // The budget, when a vault with one is found (usage itself needs no vault).
        let vault = try? VaultLocator.locate(explicit: global.vault, environment: context.environment, currentDirectory: context.currentDirectory)
        let budget = vault.flatMap { try? VaultConfig.load(vaultRoot: $0) }?.claude.budgetUSD

        var rows: [String: Row] = [:]
        for entry in entries {
            let key = [String(entry.time.prefix(10)), entry.feature, entry.model]
            var row = rows[key.joined(separator: "\u{0}")] ?? Row(day: key[0], feature: key[1], model: key[2])
            row.calls += 1
            row.inputTokens += entry.inputTokens
            row.outputTokens += entry.outputTokens
            row.cacheReadInputTokens += entry.cacheReadInputTokens
            row.cacheCreationInputTokens += entry.cacheCreationInputTokens
            if let cost = entry.costUSD { row.costUSD += cost } else { row.unpricedCalls += 1 }
            if entry.isEstimate { row.estimatedCalls += 1 }
            if entry.incomplete == true { row.incompleteCalls += 1 }
            rows[key.joined(separator: "\u{0}")] = row
        }
        let sorted = rows.values.sorted { ($0.day, $0.feature, $0.model) < ($1.day, $1.feature, $1.model) }
        let total = sorted.reduce(0) { $0 + $1.costUSD }
        if global.json {
            printJSON(Report(month: month, ledger: ledger.path, rows: sorted, calls: entries.count, totalUSD: total, budgetUSD: budget), vault: vault, context: context)
            return .success
        }
        guard !sorted.isEmpty else {
            context.print("No calls to Claude in \(month) (ledger: \(ledger.path)).")
            return .success
        }
        var table = TextTable("DAY", "FEATURE", "MODEL", "CALLS", "INPUT", "OUTPUT", "COST")
        for row in sorted {
            table.add(cells: [row.day, row.feature, row.model, row.calls.grouped, row.inputTokens.grouped, row.outputTokens.grouped,
                              String(format: "$%.4f", row.costUSD) + (row.unpricedCalls > 0 ? " (+\(row.unpricedCalls) unpriced)" : "")
                                + (row.estimatedCalls > 0 ? " (\(row.estimatedCalls) estimated)" : "")
                                + (row.incompleteCalls > 0 ? " (\(row.incompleteCalls) without an answer)" : "")])
        }
        context.print(table.render())
        context.print("\n\(month): \(entries.count.grouped) call\(entries.count == 1 ? "" : "s"), " + String(format: "$%.4f", total)
            + (budget.map { String(format: " of a $%.2f budget", $0) } ?? "") + " (estimated from list prices)")
        return .success
    }

    struct Row: Encodable {
        var day: String
        var feature: String
        var model: String
        var calls = 0
        var inputTokens = 0
        var outputTokens = 0
        var cacheReadInputTokens = 0
        var cacheCreationInputTokens = 0
        var costUSD = 0.0
        /// Calls with a model that has no known price (not in `costUSD`): entries from before such calls were estimated.
        var unpricedCalls = 0
        /// Calls whose model had no known price, counted at its family's or the highest known rate.
        var estimatedCalls = 0
        /// Calls that ended without an answer but may have been billed (their tokens so far).
        var incompleteCalls = 0
    }

    struct Report: Encodable {
        var month: String
        var ledger: String
        var rows: [Row]
        var calls: Int
        var totalUSD: Double
        @NullEncoded var budgetUSD: Double?

        enum CodingKeys: String, CodingKey { case month, ledger, rows, calls, totalUSD, budgetUSD }
    }
}
