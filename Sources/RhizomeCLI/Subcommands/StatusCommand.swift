import Foundation
import ArgumentParser
import RhizomeCore
import RhizomeStore
import RhizomeOperations

/// `rhizome status`: the health check of the vault, its index and its links to Claude Code.
struct StatusCommand: RhizomeSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Check the vault: index freshness, linked projects (agents, skills, broken links), ~/.claude links, schema findings.",
        discussion: "Exit status 1 when a link is broken, or when the vault folder is missing (the index is then reported as it is).")

    @OptionGroup var global: GlobalOptions

    func execute(in context: CommandContext) throws -> ExitStatus {
        let vault: String
        do {
            vault = try VaultLocator.locate(explicit: global.vault, environment: context.environment, currentDirectory: context.currentDirectory)
        } catch {
            guard case .missingFolder(let path) = error else { throw error }
            return reportMissingVault(path, context: context)
        }
        let linker = try ClaudeLinking.linker(vault: vault, context: context)
        let databasePath = try VaultSession.locate(global, context: context).database
        let report = try VaultStatusCheck(vault: vault, databasePath: databasePath, linker: linker).run()

        if global.json {
            printJSON(report, vault: vault, context: context)
        } else {
            context.print("Vault \(vault)")
            if let index = report.index {
                context.print("  index: \(index.isFresh ? "up to date" : "\(index.staleFiles) file\(index.staleFiles == 1 ? "" : "s") changed since") (\(Self.runTimes(lastRun: index.lastRunAt, lastChange: index.lastChangeAt)))")
                if let line = report.watcher.line { context.print("  " + line) }
            } else if let problem = report.indexProblem {
                context.print("  index: \(problem.message)")
            } else {
                context.print("  index: not built yet (run `rhizome index`)")
            }
            if let schema = report.schemaFindings {
                context.print("  schema findings: \(schema.errors) error\(schema.errors == 1 ? "" : "s"), \(schema.warnings) warning\(schema.warnings == 1 ? "" : "s") (\(schema.claudeCodeErrors) in \(linker.layout.folderName)/) — `rhizome validate` lists them")
            }
            ClaudeLinking.print(report.links, context: context)
        }
        return report.healthy ? .success : .problemsFound
    }

    /// The vault path leads nowhere: say so, with what the index and its watcher say (a watcher keeps the
    /// index as it was until the folder is back). Nothing else can be checked.
    private func reportMissingVault(_ vault: String, context: CommandContext) -> ExitStatus {
        // As `VaultSession.locate` finds it, which needs the folder.
        let databasePath = global.db.map { path -> String in
            if path.hasPrefix("/") { return path }
            if path.hasPrefix("~/"), let home = context.environment["HOME"] { return home + path.dropFirst() }
            return URL(fileURLWithPath: context.currentDirectory).appendingPathComponent(path).standardizedFileURL.path
        } ?? IndexLocation.defaultDatabasePath(forVault: vault, environment: context.environment)
        let report = VaultStatusCheck.missingVault(vault, databasePath: databasePath)
        if global.json {
            printJSON(report, vault: vault, context: context)
            return .problemsFound
        }
        context.print("Vault \(vault)")
        context.print("  missing: there is no folder at this path (deleted, moved away or unmounted)")
        if let kept = report.keptIndex {
            context.print("  index: kept as it was (\(Self.runTimes(lastRun: kept.lastRunAt, lastChange: kept.lastChangeAt)))")
        } else {
            context.print("  index: not built yet")
        }
        if let line = report.watcher.line { context.print("  " + line) }
        return .problemsFound
    }

    /// "last run …, last change …": when Rhizome last compared the vault with the index, and when that last
    /// changed the index.
    private static func runTimes(lastRun: String?, lastChange: String?) -> String {
        "last run \(lastRun ?? "unknown"), last change \(lastChange ?? "unknown")"
    }
}
