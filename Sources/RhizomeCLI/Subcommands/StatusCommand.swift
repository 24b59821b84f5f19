import Foundation
import ArgumentParser
import RhizomeCore
import RhizomeStore
import RhizomeWatch

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
        let layout = linker.layout
        let databasePath = try VaultSession.locate(global, context: context).database

        var report = Report(vault: vault, database: databasePath)
        report.watcher = WatcherStatus(VaultWatcher.activeWatcher(databasePath: databasePath))
        // The index as it is (status never refreshes it: it reports).
        let (opened, problem) = Self.openIndex(databasePath)
        report.indexProblem = problem.map { ErrorDetail(code: $0.code, message: $0.description) }
        if let store = opened, store.hasIndexedOnce {
            report.index = try store.freshness(vaultRoot: vault)
            let findings = try store.validationFindings()
            let prefix = layout.folderName + "/"
            report.schemaFindings = SchemaSummary(
                errors: findings.count { $0.finding.severity == .error },
                warnings: findings.count { $0.finding.severity == .warning },
                claudeCodeErrors: findings.count { $0.finding.severity == .error && ($0.finding.path?.hasPrefix(prefix) ?? false) })
        }
        let links = linker.status()
        (report.projects, report.global, report.broken) = (links.projects, links.global, links.broken)
        report.healthy = links.broken.isEmpty
        let broken = links.broken

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
                context.print("  schema findings: \(schema.errors) error\(schema.errors == 1 ? "" : "s"), \(schema.warnings) warning\(schema.warnings == 1 ? "" : "s") (\(schema.claudeCodeErrors) in \(layout.folderName)/) — `rhizome validate` lists them")
            }
            ClaudeLinking.print(links, context: context)
        }
        return broken.isEmpty ? .success : .problemsFound
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
        var report = Report(vault: vault, database: databasePath)
        report.vaultMissing = true
        report.healthy = false
        report.watcher = WatcherStatus(VaultWatcher.activeWatcher(databasePath: databasePath))
        if global.json {
            printJSON(report, vault: vault, context: context)
            return .problemsFound
        }
        context.print("Vault \(vault)")
        context.print("  missing: there is no folder at this path (deleted, moved away or unmounted)")
        if let store = try? IndexStore(readOnlyPath: databasePath), store.hasIndexedOnce {
            context.print("  index: kept as it was (\(Self.runTimes(lastRun: store.lastRunAt, lastChange: store.lastIndexedAt)))")
        } else {
            context.print("  index: not built yet")
        }
        if let line = report.watcher.line { context.print("  " + line) }
        return .problemsFound
    }

    /// The index read-only, or why it cannot be read (nil when there is none yet: that is not a problem).
    private static func openIndex(_ path: String) -> (store: IndexStore?, problem: StoreError?) {
        do {
            return (try IndexStore(readOnlyPath: path), nil)
        } catch {
            return (nil, error.code == StoreError.notIndexed(path: path).code ? nil : error)
        }
    }

    /// "last run …, last change …": when Rhizome last compared the vault with the index, and when that last
    /// changed the index.
    private static func runTimes(lastRun: String?, lastChange: String?) -> String {
        "last run \(lastRun ?? "unknown"), last change \(lastChange ?? "unknown")"
    }

    /// `processID` is null when no watcher runs (or it did not leave its process id); `state` is how current
    /// it keeps the index (`current`, `behind`, `settling`, `vault-missing`, `indexing`, `starting`, `stopped`),
    /// null when none runs (or it does not say).
    struct WatcherStatus: Encodable {
        var watched: Bool
        @NullEncoded var processID: Int32?
        /// What the watcher says, except that a watcher saying `current` whose heartbeat stopped is
        /// `unresponsive` (as MCP `freshness` says it): it vouches for nothing, and queries walk the vault.
        @NullEncoded var state: String?
        /// When the watcher last found its watches live on the folder at the vault path (ISO 8601).
        @NullEncoded var heartbeatAt: String?
        /// Whether queries trust the index without walking the vault (`ActiveWatcher.vouches`).
        var vouches: Bool
        private var reason: String?

        init(_ watcher: ActiveWatcher, now: Date = Date()) {
            (watched, processID, vouches) = (watcher.isWatched, watcher.processID, watcher.vouches(now: now))
            heartbeatAt = watcher.heartbeat.map { ISO8601DateFormatter().string(from: $0) }
            state = watcher.state?.rawValue
            reason = watcher.state?.reason
            // Applying a batch is being current; a heartbeat that stopped is not.
            if watcher.isWatched, watcher.state == .current, !watcher.isBeating(now: now) {
                state = "unresponsive"
                let silence = watcher.heartbeat.map { "no heartbeat for \(Int(now.timeIntervalSince($0))) s" } ?? "no heartbeat"
                reason = "the watching process is not responding (\(silence): stopped, or busy); queries walk the vault meanwhile"
            }
        }

        /// The line `rhizome status` prints, when a watcher runs.
        var line: String? {
            guard watched else { return nil }
            let who = "watched by \(processID.map { "process \($0)" } ?? "another process") (`rhizome watch` or `rhizome mcp`)"
            switch state {
            case "current"?, nil: return who + ": kept current as files change"
            case "starting"?, "indexing"?: return who + ": bringing the index up to date"
            case "stopped"?: return who + ": stopping"
            case let state?: return who + ", but not current: " + (reason ?? state)
            }
        }

        /// `reason` is for the text line only.
        private enum CodingKeys: String, CodingKey { case watched, processID, state, heartbeatAt, vouches }
    }

    struct SchemaSummary: Encodable {
        var errors: Int
        var warnings: Int
        var claudeCodeErrors: Int
    }

    struct ErrorDetail: Encodable {
        var code: String
        var message: String
    }

    struct Report: Encodable {
        var vault: String
        var database: String
        var index: IndexStore.Freshness?
        /// Why the index file cannot be read (not a database, another application's, permissions); null when
        /// it can, or when there is none yet.
        var indexProblem: ErrorDetail?
        var schemaFindings: SchemaSummary?
        var projects: [AgentLinkStatus.Project] = []
        var global = AgentLinkStatus.Global()
        var broken: [LinkedItem] = []
        var healthy = true
        /// Whether `rhizome watch` or `rhizome mcp` keeps this index current.
        var watcher = WatcherStatus(ActiveWatcher(isWatched: false))
        /// The vault path leads to no folder (deleted, moved away, unmounted); `index` and `schemaFindings` are then left out.
        var vaultMissing = false

        init(vault: String, database: String) {
            self.vault = vault
            self.database = database
        }
    }
}
