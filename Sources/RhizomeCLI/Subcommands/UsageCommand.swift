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
        // The budget, when a vault with one is found (usage itself needs no vault).
        let vault = try? VaultLocator.locate(explicit: global.vault, environment: context.environment, currentDirectory: context.currentDirectory)
        let budget = vault.flatMap { try? VaultConfig.load(vaultRoot: $0) }?.claude.budgetUSD
        let summary = UsageSummary(month: month, of: ledger, budgetUSD: budget)
        if global.json {
            printJSON(summary, vault: vault, context: context)
            return .success
        }
        guard !summary.rows.isEmpty else {
            context.print("No calls to Claude in \(month) (ledger: \(ledger.path)).")
            return .success
        }
        var table = TextTable("DAY", "FEATURE", "MODEL", "CALLS", "INPUT", "OUTPUT", "COST")
        for row in summary.rows {
            table.add(cells: [row.day, row.feature, row.model, row.calls.grouped, row.inputTokens.grouped, row.outputTokens.grouped,
                              String(format: "$%.4f", row.costUSD) + (row.unpricedCalls > 0 ? " (+\(row.unpricedCalls) unpriced)" : "")
                                + (row.estimatedCalls > 0 ? " (\(row.estimatedCalls) estimated)" : "")
                                + (row.incompleteCalls > 0 ? " (\(row.incompleteCalls) without an answer)" : "")])
        }
        context.print(table.render())
        context.print("\n\(month): \(summary.calls.grouped) call\(summary.calls == 1 ? "" : "s"), " + String(format: "$%.4f", summary.totalUSD)
            + (budget.map { String(format: " of a $%.2f budget", $0) } ?? "") + " (estimated from list prices)")
        return .success
    }
}
