import ArgumentParser
import RhizomeCore
import RhizomeStore

/// `rhizome findings`: problems found while indexing (exit 1 when any is an error).
struct FindingsCommand: RhizomeSubcommand {
    static let pagesOutput = true  // a list a terminal may page

    static let configuration = CommandConfiguration(
        commandName: "findings",
        abstract: "List problems found while indexing: invalid YAML, unreadable files, broken symlinks, … (exit status 1 if any is an error).")

    @OptionGroup var global: GlobalOptions

    @OptionGroup var shaping: ListShaping

    func execute(in context: CommandContext) throws -> ExitStatus {
        let session = try VaultSession.open(global, context: context)
        // A finding about the vault itself (no file) is left out by --folder, --tag and --type.
        let findings = try shaping.sorted(
            try shaping.narrow(try session.store.findings(), path: { $0.path ?? "" }, store: session.store), by: SortField.findingFields)
        let shown = shaping.page(findings)
        shaping.print(shown, total: findings.count, columns: ListColumns.findings, path: { $0.path ?? "" }, command: self, session: session, context: context) {
            context.print("\(findings.count.grouped) finding\(findings.count == 1 ? "" : "s")")
            for finding in shown { context.print(finding.diagnosticDescription) }
        }
        return findings.contains { $0.severity == .error } ? .problemsFound : .success
    }
}
