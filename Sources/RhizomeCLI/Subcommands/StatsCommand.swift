import ArgumentParser
import RhizomeStore

/// `rhizome stats`: counts of what the index holds.
struct StatsCommand: RhizomeSubcommand {
    static let configuration = CommandConfiguration(commandName: "stats", abstract: "Show counts of notes, links, tags, tasks and findings.")

    @OptionGroup var global: GlobalOptions

    func execute(in context: CommandContext) throws -> ExitStatus {
        let session = try VaultSession.open(global, context: context)
        let stats = try session.store.stats()
        if global.json {
            printJSON(stats, vault: session.vaultPath, context: context)
            return .success
        }
        var table = TextTable("", "")
        table.add("notes", stats.notes.grouped)
        table.add("canvases", stats.canvases.grouped)
        table.add("attachments", stats.attachments.grouped)
        table.add("links", "\(stats.links.grouped) (\(stats.resolvedLinks.grouped) resolved, \(stats.unresolvedLinks.grouped) unresolved)")
        table.add("tags", stats.tags.grouped)
        table.add("tasks", "\(stats.openTasks.grouped) open, \(stats.doneTasks.grouped) done, \(stats.otherTasks.grouped) other status")
        table.add("findings", stats.findings.grouped)
        context.print("Vault \(session.vaultPath)")
        context.print(table.render(indent: "  ").split(separator: "\n").dropFirst().joined(separator: "\n"))
        return .success
    }
}
