import ArgumentParser
import RhizomeStore

/// `rhizome sql "SELECT …"`: read-only SQL over the documented views.
struct SQLCommand: RhizomeSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "sql",
        abstract: "Run a read-only SQL query over the index's documented views.",
        discussion: "Views: files, notes, links, tags, headings, blocks, tasks, aliases, properties, inline_fields, findings (and the FTS5 table note_fts). See the README for their columns. Statements that write are refused.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "One SELECT (or WITH …) statement.")
    var query: String

    func execute(in context: CommandContext) throws -> ExitStatus {
        if !global.noRefresh { _ = try VaultSession.open(global, context: context) }
        var readOnly = global
        readOnly.noRefresh = true
        let session = try VaultSession.open(readOnly, context: context)
        let result = try session.store.readOnlyQuery(query)
        if global.json {
            printJSON(result, vault: session.vaultPath, context: context)
            return .success
        }
        var table = TextTable(headers: result.columns)
        for row in result.rows { table.add(cells: row.map(\.displayText)) }
        context.print(table.render())
        context.print("(\(result.rows.count) row\(result.rows.count == 1 ? "" : "s"))")
        return .success
    }
}

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
