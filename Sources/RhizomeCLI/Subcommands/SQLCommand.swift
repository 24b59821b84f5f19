import ArgumentParser
import RhizomeStore

/// `rhizome sql "SELECT …"`: read-only SQL over the documented views.
struct SQLCommand: RhizomeSubcommand {
    static let pagesOutput = true  // a list a terminal may page

    static let configuration = CommandConfiguration(
        commandName: "sql",
        abstract: "Run a read-only SQL query over the index's documented views.",
        discussion: "Views: files, notes, links, tags, headings, blocks, tasks, aliases, properties, inline_fields, findings (and the FTS5 table note_fts). See the README for their columns. Statements that write, ATTACH and DETACH are refused (exit 2), and a query still running after --timeout seconds is stopped (exit 2).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "One SELECT (or WITH …) statement.")
    var query: String

    @Option(help: ArgumentHelp("How long the query may run before it is stopped.", valueName: "seconds"))
    var timeout: Double = 10

    func validate() throws {
        if !(timeout > 0 && timeout <= 86_400) { throw ValidationError("--timeout must be a number of seconds above 0 and at most 86400 (got \(timeout))") }
    }

    func execute(in context: CommandContext) throws -> ExitStatus {
        if !global.noRefresh { _ = try VaultSession.open(global, context: context) }
        var readOnly = global
        readOnly.noRefresh = true
        let session = try VaultSession.open(readOnly, context: context)
        let deadline = QueryDeadline(limit: .milliseconds(Int((timeout * 1_000).rounded())), scope: "`rhizome sql`", setting: "rhizome sql --timeout SECONDS")
        let result = try session.store.withDeadline(deadline) { try session.store.readOnlyQuery(query) }
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
