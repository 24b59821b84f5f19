import Foundation
import RhizomeCore
import RhizomeOperations
import RhizomeStore
import RhizomeWatch

/// An opened vault and its index, brought up to date unless the user said `--no-refresh`: by a walk of the
/// vault, or, when a live watcher (`rhizome watch`, `rhizome mcp`) vouches that the index holds every
/// change, without one (`vouchedStore`).
struct VaultSession {
    let vaultPath: String
    let databasePath: String
    let store: IndexStore
    /// The report of the refresh run, if one ran.
    let refreshReport: IndexReport?

    /// `writes`: the command changes the vault or the index (`index`, the editing commands), so an index it
    /// cannot write is an error, and it is brought up to date even with --no-refresh; a query answers from
    /// an index it cannot write as it is, with a warning.
    static func open(_ options: GlobalOptions, context: CommandContext, refresh: Bool = true, rebuild: Bool = false, writes: Bool = false) throws -> VaultSession {
        let (vaultPath, databasePath) = try locate(options, context: context)
        recoverInterruptedChange(vaultPath: vaultPath, databasePath: databasePath, context: context)
        let writeProblem = IndexStore.writeProblem(ofIndexAt: databasePath)
        if let writeProblem, writes || rebuild { throw writeProblem }
        // A command that changes the vault plans from every link and re-indexes what it changed: it needs a
        // current, writable index whatever --no-refresh says (as `index` ignores it).
        if options.noRefresh && !rebuild && !writes {
            return try openAsItIs(vaultPath: vaultPath, databasePath: databasePath)
        }
        if let writeProblem, FileManager.default.fileExists(atPath: databasePath) {
            let session = try openAsItIs(vaultPath: vaultPath, databasePath: databasePath)
            context.printError("warning: this answer comes from the index as it is, which may be stale: \(writeProblem) (--no-refresh reads it without this warning)")
            return session
        }
        if refresh, !rebuild, let store = vouchedStore(vaultPath: vaultPath, databasePath: databasePath, writes: writes) {
            return VaultSession(vaultPath: vaultPath, databasePath: databasePath, store: store, refreshReport: nil)
        }
        let store = try IndexStore(path: databasePath)
        let previousVault = try store.indexedVaultPath()
        if let previousVault, previousVault != vaultPath {
            context.printError("warning: the index \(databasePath) was built for the vault \(previousVault); it is now re-indexed for \(vaultPath)")
        }
        guard refresh else { return VaultSession(vaultPath: vaultPath, databasePath: databasePath, store: store, refreshReport: nil) }
        if rebuild { try store.requestFullReparse() }
        var indexOptions = IndexOptions()
        indexOptions.excludedPaths = IndexLocation.excludedPaths(databasePath: databasePath, vaultPath: vaultPath)
        let indexer = Indexer(store: store, vaultRoot: vaultPath, options: indexOptions)
        let progress = ProgressLine(context: context, enabled: context.isTerminal && !options.json)
        let report = try indexer.run(progress: progress.update)
        progress.finish()  // the indexer records the vault's path itself
        return VaultSession(vaultPath: vaultPath, databasePath: databasePath, store: store, refreshReport: report)
    }

    /// The index, opened without a walk, when a watcher of this vault vouches for it: it is `current`, its
    /// heartbeat is recent (its watches are live on the folder at the vault path) and it has applied every
    /// change it saw. Changes it is applying are waited for (a batch takes milliseconds), up to
    /// `pendingWait`; then, or without such a watcher, nil: the caller walks the vault as usual.
    /// `RHIZOME_WALK=1` always walks. A query gets a read-only connection, as with --no-refresh (a writable
    /// open checks and migrates the schema: 28 ms more at 100k notes).
    static func vouchedStore(vaultPath: String, databasePath: String, writes: Bool, pendingWait: TimeInterval = 2) -> IndexStore? {
        guard ProcessInfo.processInfo.environment["RHIZOME_WALK"] != "1" else { return nil }
        guard VaultWatcher.activeWatcherOnceApplied(databasePath: databasePath, timeout: pendingWait).vouches() else { return nil }
        // The watcher's index must be this vault's (a `--db` shared by two vaults is walked, which warns).
        let opened = writes ? try? IndexStore(path: databasePath) : try? IndexStore(readOnlyPath: databasePath)
        guard let store = opened, store.hasIndexedOnce, (try? store.indexedVaultPath()) == vaultPath else { return nil }
        return store
    }

    /// The index read-only, without bringing it up to date (`--no-refresh`, or an index the user may only read).
    private static func openAsItIs(vaultPath: String, databasePath: String) throws -> VaultSession {
        let store = try IndexStore(readOnlyPath: databasePath)
        // A first index that never finished (killed) is not an answer.
        guard store.hasIndexedOnce else { throw StoreError.notIndexed(path: databasePath) }
        return VaultSession(vaultPath: vaultPath, databasePath: databasePath, store: store, refreshReport: nil)
    }

    /// The vault (`--vault`, the environment, the current folder) and its index file (`--db` or the default).
    static func locate(_ options: GlobalOptions, context: CommandContext) throws -> (vault: String, database: String) {
        let vaultPath = try VaultLocator.locate(explicit: options.vault, environment: context.environment, currentDirectory: context.currentDirectory)
        let databasePath = options.db.map { absolutePath($0, context: context) }
            ?? IndexLocation.defaultDatabasePath(forVault: vaultPath, environment: context.environment)
        return (vaultPath, databasePath)
    }

    /// Completes (or, when a file changed meanwhile, reverses) a change to the vault that a killed run left
    /// half done, before anything reads the vault. A failure is reported, not thrown: the next command
    /// tries again.
    static func recoverInterruptedChange(vaultPath: String, databasePath: String, context: CommandContext) {
        do {
            guard let report = try OperationJournal(vaultPath: vaultPath, databasePath: databasePath).recover() else { return }
            if report.completed {
                context.printError("note: completed an interrupted change: \(report.operation.summary)")
            } else {
                context.printError("note: reversed an interrupted change (\(report.conflict ?? "a file changed")): \(report.operation.summary)")
            }
        } catch {
            context.printError("warning: an interrupted change to the vault could not be completed yet: \(error)")
        }
    }

    /// The editor for changes to this vault (its index must be current: open the session with a refresh).
    func editor() throws -> VaultEditor {
        var options = IndexOptions()
        options.excludedPaths = IndexLocation.excludedPaths(databasePath: databasePath, vaultPath: vaultPath)
        return try VaultEditor(vaultPath: vaultPath, databasePath: databasePath, store: store, indexOptions: options)
    }

    /// Resolves a NOTE argument or throws a helpful error.
    func note(_ argument: String) throws -> FileRecord {
        if let record = try store.resolveNote(argument) { return record }
        throw CLIError.noteNotFound(argument: argument, suggestions: try store.suggestions(for: argument))
    }

    private static func absolutePath(_ path: String, context: CommandContext) -> String {
        if path.hasPrefix("/") { return path }
        if path.hasPrefix("~/"), let home = context.environment["HOME"] { return home + path.dropFirst() }
        return URL(fileURLWithPath: context.currentDirectory).appendingPathComponent(path).standardizedFileURL.path
    }
}

/// A one-line progress display on a terminal: files done, rate, time left. Silent when piped or `--json`.
final class ProgressLine: Sendable {
    private let context: CommandContext
    private let enabled: Bool
    private let shown = Locked(false)

    init(context: CommandContext, enabled: Bool) {
        self.context = context
        self.enabled = enabled
    }

    func update(_ progress: IndexProgress) {
        let seconds = progress.elapsed.inSeconds
        guard enabled, progress.filesTotal >= 500, seconds >= 0.3 || shown.withLock({ $0 }) else { return }
        let rate = seconds > 0 ? Double(progress.filesDone) / seconds : 0
        let remaining = rate > 0 ? Double(progress.filesTotal - progress.filesDone) / rate : 0
        context.standardError.write(String(
            format: "\r\u{1B}[2KIndexing %@/%@ files · %@ files/s · %.0fs left", progress.filesDone.grouped, progress.filesTotal.grouped,
            Int(rate).grouped, remaining.rounded(.up)))
        shown.withLock { $0 = true }
    }

    func finish() {
        if shown.withLock({ $0 }) { context.standardError.write("\r\u{1B}[2K") }
    }
}
