import ArgumentParser
import RhizomeStore

/// `rhizome findings`: problems found while indexing (exit 1 when any is an error).
struct FindingsCommand: RhizomeSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "findings",
        abstract: "List problems found while indexing: invalid YAML, unreadable files, broken symlinks, … (exit status 1 if any is an error).")

    @OptionGroup var global: GlobalOptions

    func execute(in context: CommandContext) throws -> ExitStatus {
        let session = try VaultSession.open(global, context: context)
        let findings = try session.store.findings()
        if global.json {
            printJSON(findings, vault: session.vaultPath, context: context)
        } else {
            context.print("\(findings.count) finding\(findings.count == 1 ? "" : "s")")
            for finding in findings { context.print(finding.diagnosticDescription) }
        }
        return findings.contains { $0.severity == .error } ? .problemsFound : .success
    }
}
