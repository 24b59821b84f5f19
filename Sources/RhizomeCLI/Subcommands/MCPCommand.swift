import ArgumentParser
import Dispatch
import Foundation
import RhizomeCore
import RhizomeMCP
import RhizomeStore
import RhizomeWatch

/// `rhizome mcp`: serve the vault's graph to agents over MCP (stdio), keeping the index current meanwhile.
struct MCPCommand: RhizomeSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "Serve the vault to AI agents as an MCP server over stdio (register it with `claude mcp add`).",
        discussion: """
            Speaks the Model Context Protocol on standard input and output, and watches the vault in the same process \
            so that answers are current (unless `rhizome watch` already watches it). Read tools: search, note, read_note, \
            recent_changes, backlinks, links, neighbors, path, unresolved, orphans, tags, tasks, properties, query \
            (read-only SQL), dataview (a Dataview query), base (a view of an Obsidian .base file), validate, schema. Write tools (not with --read-only): create_note, append_to_note, \
            set_properties, move_note, delete_note (to .trash/), undo; each journaled and undoable, refused when the \
            note changed since `expectedHash`, and kept inside the vault. Calls run in parallel; each is stopped after \
            --timeout seconds (SQL inside SQLite, Dataview between rows) and can be cancelled (`notifications/cancelled`). \
            Logs go to standard error. Register with Claude Code:
              claude mcp add rhizome -- rhizome mcp --vault /path/to/vault
            """)

    @OptionGroup var global: GlobalOptions

    @OptionGroup var watching: WatchOptions

    @Flag(help: "Offer only the read tools: agents cannot change the vault.")
    var readOnly = false

    @Option(help: ArgumentHelp("How long one tool call may run before it is stopped with a `timed-out` error.", valueName: "seconds"))
    var timeout: Double = VaultMCPServer.defaultTimeLimit.inSeconds

    func validate() throws {
        if global.json { throw ValidationError("--json makes no sense for mcp: it always speaks JSON-RPC") }
        if !(timeout > 0 && timeout <= 86_400) { throw ValidationError("--timeout must be a number of seconds above 0 and at most 86400 (got \(timeout))") }
    }

    func execute(in context: CommandContext) throws -> ExitStatus {
        let (vaultPath, databasePath) = try VaultSession.locate(global, context: context)
        let options = watching.watcherOptions(vault: vaultPath, database: databasePath)
        let server = VaultMCPServer(vaultPath: vaultPath, databasePath: databasePath, watcherOptions: options, readOnly: readOnly,
                                     timeLimit: .milliseconds(Int((timeout * 1_000).rounded()))) { line in
            context.printError("rhizome mcp: " + line)
        }
        // Ended by the end of standard input; Ctrl-C and SIGTERM end the process as usual (the index stays consistent).
        try AsyncWork.wait(cancelledByInterrupt: false) { try await server.run() }
        return .success
    }
}
