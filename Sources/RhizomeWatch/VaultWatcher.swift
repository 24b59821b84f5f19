import Foundation
import RhizomeCore
import RhizomeStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps a vault's index current as files change: the service behind `rhizome watch` and `rhizome mcp`.
///
/// `run()` starts a platform watcher, brings the index up to date (`Indexer.run()`), then applies changes
/// in batches: a burst of events is collected until the vault has been quiet for `debounce` (or for at most
/// `maximumDelay` while events keep coming), then applied in one go by `Indexer.update(changedPaths:)` —
/// the indexer's own code, so a watched index equals a full rebuild. Configuration changes and lost
/// events walk the whole vault instead (`Indexer.run()`).
///
/// It follows the vault path, not the folder first found there: file-system watches follow a folder
/// wherever it is moved, so before each batch (and every `vaultCheckInterval` when nothing happens) the
/// folder at the path is compared with the one watched. A vault folder that is gone leaves the index as it
/// was (`WatchEvent.vaultMissing`); a folder back at the path, or another in its place (moved or copied into
/// place, a symlink), is watched anew and walked once quiet (`WatchEvent.vaultReplaced`). A walk that would
/// remove more than `removalGuardFraction` of the index waits for the vault to be quiet as well
/// (`WatchEvent.settling`): a folder half-way through being copied into place is not the vault.
///
/// Only one watcher per index: the watch lock (`<database>.watch.lock`) is taken in `init` and held until
/// the watcher is released; it also tells other processes how current the index is (`activeWatcher`).
/// Readers (any `rhizome` query, the MCP tools) query the index meanwhile.
public final class VaultWatcher: Sendable {
    public struct Options: Sendable {
        /// Quiet time that ends a burst of events.
        public var debounce: Duration = .milliseconds(20)
        /// A stream of events that never goes quiet is still applied this often.
        public var maximumDelay: Duration = .seconds(1)
        /// How often the vault path is looked at when no event comes: a vault folder replaced without an
        /// event the watches see (a symlink re-pointed) is found within this, and a missing one looked for.
        public var vaultCheckInterval: Duration = .milliseconds(500)
        /// How long the vault must be quiet before a walk after its folder was replaced, or a walk that
        /// would remove more than `removalGuardFraction` of the index.
        public var settleInterval: Duration = .seconds(1)
        /// A vault that never goes quiet that long is walked anyway after this (the guard still applies).
        public var maximumSettleDelay: Duration = .seconds(30)
        /// The watcher's walks refuse to remove more than this fraction of the index until the vault has been
        /// quiet twice over (`IndexOptions.removalGuardFraction`; the first index at start is not guarded).
        public var removalGuardFraction: Double = 0.25
        public var index = IndexOptions()

        public init() {}
    }

    public let vaultPath: String
    public let databasePath: String
    public let options: Options
    /// What the watcher is doing, for readers that report freshness.
    public let status = WatchStatus()

    private let lock: WatchLock
    private let queue = ChangeQueue()
    /// The file-system watcher on the folder at the vault path, for `flushFileEvents`.
    private let live = Locked<(any FileSystemWatcher)?>(nil)
    private let makeFileSystemWatcher: @Sendable (String) -> any FileSystemWatcher

    /// Takes the watch lock; throws `WatchError.alreadyWatched` when another process holds it.
    public init(
        vaultPath: String, databasePath: String, options: Options = Options(),
        fileSystemWatcher: @escaping @Sendable (String) -> any FileSystemWatcher = VaultWatcher.platformWatcher
    ) throws(WatchError) {
        self.vaultPath = vaultPath
        self.databasePath = databasePath
        self.options = options
        self.makeFileSystemWatcher = fileSystemWatcher
        lock = try WatchLock(databasePath: databasePath, vault: vaultPath)
    }

    /// The watcher for this platform: inotify on Linux, FSEvents on macOS.
    public static func platformWatcher(root: String) -> any FileSystemWatcher {
        #if canImport(CoreServices)
        return FSEventsWatcher(root: root)
        #else
        return InotifyWatcher(root: root)
        #endif
    }

    /// Whether a watcher (in any process) holds the watch lock of this index, its process id if known, and
    /// how current it says it keeps the index.
    public static func activeWatcher(databasePath: String) -> ActiveWatcher {
        WatchLock.holder(databasePath: databasePath)
    }

    /// The watcher of this index, once it has applied the changes it had seen (`ActiveWatcher.isPending`),
    /// or after `timeout` (a batch takes milliseconds; a walk of a large vault longer): readers call it
    /// before they answer, so that a note saved just before a question is in its answer.
    public static func activeWatcherOnceApplied(databasePath: String, timeout: TimeInterval) -> ActiveWatcher {
        var watcher = activeWatcher(databasePath: databasePath)
        let deadline = Date() + timeout
        while watcher.isWatched, watcher.state == .current, watcher.isPending, Date() < deadline {
            usleep(2_000)
            watcher = activeWatcher(databasePath: databasePath)
        }
        return watcher
    }

    /// Returns once every change made to the vault before the call is in the change queue, where
    /// `activeWatcherOnceApplied` sees it as pending until it is applied: without it, a reader asking just
    /// after a save can find the watcher's thread not yet woken, nothing pending, and answer without it.
    /// False when it could not tell (no folder watched, the timeout passed).
    @discardableResult
    public func flushFileEvents(timeout: Duration = .seconds(1)) -> Bool {
        guard let watcher = live.withLock({ $0 }) else { return false }
        return watcher.flush(timeout: timeout)
    }

    /// Watches until `stop()`. Throws when watching cannot start or the first index fails. A batch that
    /// cannot be applied (a locked or full disk) is logged, and a walk of the whole vault is retried after
    /// 0.5 s, 1 s, 2 s … (at most 30 s), so that no change is lost meanwhile.
    public func run(log: @escaping @Sendable (WatchEvent) -> Void) throws {
        guard let identity = Self.folderIdentity(vaultPath) else { throw VaultError.missingFolder(path: vaultPath) }
        // Watch before the first index, so nothing saved during it is missed.
        var folder = Folder(identity: identity, watcher: try watch())
        defer {
            folder.watcher?.stop()
            live.withLock { $0 = nil }
        }
        let store = try IndexStore(path: databasePath)
        if try store.indexedVaultPath() != vaultPath { try store.setIndexedVaultPath(vaultPath) }
        let indexer = Indexer(store: store, vaultRoot: vaultPath, options: options.index)
        setStatus(.indexing(filesDone: 0, filesTotal: 0))
        let report = try indexer.run { [self] progress in setStatus(.indexing(filesDone: progress.filesDone, filesTotal: progress.filesTotal)) }
        indexer.options.removalGuardFraction = options.removalGuardFraction
        setStatus(.watching, indexedAt: Date())
        lock.beat { [queue] in queue.hasPending }
        log(.ready(report))
        var loop = LoopState()
        while let batch = queue.nextBatch(debounce: options.debounce, maximumDelay: options.maximumDelay, orAfter: loop.idleWait(options)) {
            if let event = follow(&folder, loop: &loop) {
                log(event)
                continue
            }
            guard folder.watcher != nil else { continue }
            let changes = relevantChanges(in: batch)
            if loop.settling != nil {
                if changes != nil { loop.noteChange() }
                if let event = walkIfSettled(indexer, loop: &loop) { log(event) }
            } else if changes != nil || loop.isRetryDue {
                if let event = apply(changes ?? Changes(), firstEventAt: batch.firstEventAt, indexer: indexer, loop: &loop) { log(event) }
            }
            // The folder at the vault path is the one watched, and every change taken so far is applied.
            let queue = self.queue
            lock.beat { queue.hasPending }
        }
        setStatus(.stopped)
        log(.stopped)
    }

    /// Makes `run()` return after the batch it is applying, if any.
    public func stop() {
        queue.close()
    }

    // MARK: The vault folder

    /// The folder at the vault path, and the file-system watcher on it (nil while none could be started).
    private struct Folder {
        var identity: FolderIdentity?
        var watcher: (any FileSystemWatcher)?
    }

    /// Compares the folder at the vault path with the one watched. When it is gone, stops watching (its
    /// watches followed it: edits to it, wherever it went, are not the vault's) and says so; when another is
    /// there, watches that one and holds the changes until it is quiet (it may be being copied into place).
    private func follow(_ folder: inout Folder, loop: inout LoopState) -> WatchEvent? {
        let identity = Self.folderIdentity(vaultPath)
        // The same folder (or still none): nothing to do, unless its watcher could not be started and a retry is due.
        if identity == folder.identity {
            guard identity != nil, folder.watcher == nil, loop.isRetryDue else { return nil }
        }
        let reappeared = folder.identity == nil
        live.withLock { $0 = nil }
        folder.watcher?.stop()
        folder = Folder(identity: identity, watcher: nil)
        // Whatever the old watches reported is about the folder that left.
        queue.discardPending()
        guard identity != nil else {
            loop = LoopState()
            setStatus(.vaultMissing)
            return .vaultMissing
        }
        do {
            folder.watcher = try watch()
        } catch {
            // Out of inotify watches, say: tried again after the usual delays.
            loop.fail("\(error)")
            setStatus(.watching, error: "\(error)")
            return .failed(message: "\(error)", changedPaths: 0)
        }
        loop.settle(reason: reappeared ? "the vault folder is back" : "the vault folder was replaced")
        loop.failure = nil
        setSettlingStatus(loop)
        return .vaultReplaced(reappeared: reappeared)
    }

    /// Starts a file-system watcher on the vault path, feeding the queue.
    /// Changes to the index's own files (kept in the vault) never enter the queue: they would make batches,
    /// and heartbeats, of their own. Other processes learn at once that changes are waiting (`pending`).
    private func watch() throws(WatchError) -> any FileSystemWatcher {
        let watcher = makeFileSystemWatcher(vaultPath)
        let (queue, lock, excluded) = (self.queue, self.lock, options.index.excludedPaths)
        // The lock is held weakly: a file-system watcher may keep its handler after `stop()`, and the lock
        // must be released with this watcher.
        try watcher.start { [weak lock] changes in
            let relevant = excluded.isEmpty ? changes : changes.filter { !Self.isExcluded($0, from: excluded) }
            guard !relevant.isEmpty else { return }
            queue.append(relevant)
            lock?.publish { queue.hasPending }
        }
        live.withLock { $0 = watcher }
        return watcher
    }

    /// The folder at `path` (through symlinks), or nil when there is none.
    static func folderIdentity(_ path: String) -> FolderIdentity? {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { return nil }
        return FolderIdentity(status)
    }

    // MARK: Batches

    /// What a batch says about the vault.
    private struct Changes {
        var paths = Set<[UInt8]>()
        /// Why the whole vault must be walked, if it must.
        var walkReason: String?
        var folderChanged = false
    }

    /// The changes of a batch that concern the vault; nil when none does.
    private func relevantChanges(in batch: ChangeQueue.Batch) -> Changes? {
        var changes = Changes()
        for change in batch.changes {
            switch change {
            case .path(let path, let isFolder):
                changes.paths.insert(path)
                changes.folderChanged = changes.folderChanged || isFolder
            case .configuration:
                changes.walkReason = "the vault's configuration or schemas changed"
            case .rescan(let reason):
                changes.walkReason = reason
            }
        }
        return changes.paths.isEmpty && changes.walkReason == nil ? nil : changes
    }

    /// Applies one batch, or walks the vault to retry a failed one (whose changes are gone from the queue:
    /// only a walk covers them).
    private func apply(_ changes: Changes, firstEventAt: ContinuousClock.Instant, indexer: Indexer, loop: inout LoopState) -> WatchEvent? {
        let clock = ContinuousClock()
        let started = clock.now
        var walkReason = changes.walkReason
        if let failure = loop.failure { walkReason = "retrying after an error (\(failure.message))" }
        do {
            var report: IndexReport
            if walkReason != nil {
                report = try indexer.run()
            } else {
                // A folder that changed makes `update` walk the vault itself (it sees the folder).
                report = try indexer.update(changedPaths: changes.paths)
                if report.walkedVault {
                    walkReason = changes.folderChanged ? "a folder was created, moved or deleted" : "the changes needed a walk of the vault"
                }
            }
            loop.failure = nil
            setStatus(.watching, indexedAt: Date())
            return .batch(WatchBatch(
                changedPaths: changes.paths.count, walkedVault: report.walkedVault, reason: walkReason,
                report: report, waitedMilliseconds: (started - firstEventAt).inMilliseconds,
                milliseconds: (clock.now - started).inMilliseconds))
        } catch VaultError.massRemoval(_, let removing, let indexedFiles) {
            // The batch's changes are covered by the walk that ends the wait.
            loop.failure = nil
            loop.settle(reason: "a change would remove \(removing) of the \(indexedFiles) indexed files")
            setSettlingStatus(loop)
            return .settling(removing: removing, indexedFiles: indexedFiles)
        } catch {
            loop.fail("\(error)")
            setStatus(.watching, error: "\(error)")
            return .failed(message: "\(error)", changedPaths: changes.paths.count)
        }
    }

    /// While changes are held back: once the vault has been quiet for `settleInterval` (or after
    /// `maximumSettleDelay` in any case), walks it. The first walk after a change keeps the removal guard:
    /// a folder still being copied may have just paused. Refused, it waits for another quiet period, after
    /// which the walk goes without the guard: the vault is what it is.
    private func walkIfSettled(_ indexer: Indexer, loop: inout LoopState) -> WatchEvent? {
        guard let settling = loop.settling else { return nil }
        let now = ContinuousClock.now
        let isQuiet = now - settling.lastChangeAt >= options.settleInterval
        let isOverdue = now - settling.since >= options.maximumSettleDelay
        guard isQuiet || isOverdue, loop.failure.map({ now >= $0.retryAt }) ?? true else { return nil }
        let guarded = settling.isGuarded || !isQuiet
        indexer.options.removalGuardFraction = guarded ? options.removalGuardFraction : nil
        defer { indexer.options.removalGuardFraction = options.removalGuardFraction }
        let clock = ContinuousClock()
        let started = clock.now
        do {
            let report = try indexer.run()
            loop.settling = nil
            loop.failure = nil
            setStatus(.watching, indexedAt: Date())
            return .batch(WatchBatch(
                changedPaths: 0, walkedVault: true, reason: "\(settling.reason); walked once the vault was quiet", report: report,
                waitedMilliseconds: (started - settling.since).inMilliseconds, milliseconds: (clock.now - started).inMilliseconds))
        } catch VaultError.massRemoval(_, let removing, let indexedFiles) {
            loop.settling?.since = now
            loop.settling?.lastChangeAt = now
            loop.settling?.isGuarded = !isQuiet
            return .settling(removing: removing, indexedFiles: indexedFiles)
        } catch {
            loop.fail("\(error)")
            setSettlingStatus(loop, error: "\(error)")
            return .failed(message: "\(error)", changedPaths: 0)
        }
    }

    /// Whether a change is to the index's own files, kept inside the vault (`IndexOptions.excludedPaths`).
    private static func isExcluded(_ change: FileSystemChange, from excluded: Set<String>) -> Bool {
        guard case .path(let path, _) = change else { return false }
        return excluded.contains(UnicodeNormalization.nfc(String(decoding: path, as: UTF8.self)))
    }

    private func setSettlingStatus(_ loop: LoopState, error: String? = nil) {
        setStatus(.settling(reason: (loop.settling?.reason ?? "the vault changed") + "; the index catches up once the vault is quiet"), error: error)
    }

    /// Sets the status, and tells other processes through the watch lock.
    private func setStatus(_ phase: WatchStatus.Phase, indexedAt: Date? = nil, error: String? = nil) {
        status.set(phase, indexedAt: indexedAt, error: error)
        lock.publish(status.snapshot.state)
    }
}

/// What `VaultWatcher.run` waits for between batches: a failed batch's retry, a vault to settle.
private struct LoopState {
    struct Failure {
        var message: String
        var retryAfter: Duration
        var retryAt: ContinuousClock.Instant
    }

    struct Settling {
        var reason: String
        /// When the wait began (for `maximumSettleDelay`).
        var since: ContinuousClock.Instant
        var lastChangeAt: ContinuousClock.Instant
        /// Whether the walk that ends the wait keeps the removal guard.
        var isGuarded = true
    }

    var failure: Failure?
    var settling: Settling?

    var isRetryDue: Bool {
        failure.map { ContinuousClock.now >= $0.retryAt } ?? false
    }

    /// Retries after 0.5 s, then twice as long each time, at most 30 s.
    mutating func fail(_ message: String) {
        let retryAfter = min((failure?.retryAfter ?? .milliseconds(250)) * 2, .seconds(30))
        failure = Failure(message: message, retryAfter: retryAfter, retryAt: .now + retryAfter)
    }

    /// Holds changes back until the vault is quiet.
    mutating func settle(reason: String) {
        let now = ContinuousClock.now
        settling = Settling(reason: reason, since: now, lastChangeAt: now)
    }

    /// A change while settling: the quiet period starts again, and the walk keeps the guard.
    mutating func noteChange() {
        settling?.lastChangeAt = .now
        settling?.isGuarded = true
    }

    /// How long the queue may wait for events before the loop looks again: at the vault path, at a retry
    /// that is due, at a vault that may have settled.
    func idleWait(_ options: VaultWatcher.Options) -> Duration {
        let now = ContinuousClock.now
        var wait = options.vaultCheckInterval
        if let failure { wait = min(wait, failure.retryAt - now) }
        if let settling { wait = min(wait, settling.lastChangeAt + options.settleInterval - now) }
        return max(wait, .milliseconds(1))
    }
}
