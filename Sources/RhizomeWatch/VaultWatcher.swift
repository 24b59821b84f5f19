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
/// Only one watcher per index: the watch lock (`<database>.watch.lock`) is taken in `init` and held until
/// the watcher is released. Readers (any `rhizome` query, the MCP tools) query the index meanwhile.
public final class VaultWatcher: @unchecked Sendable {
    public struct Options: Sendable {
        /// Quiet time that ends a burst of events.
        public var debounce: Duration = .milliseconds(20)
        /// A stream of events that never goes quiet is still applied this often.
        public var maximumDelay: Duration = .seconds(1)
        public var index = IndexOptions()

        public init() {}
    }

    public let vaultPath: String
    public let databasePath: String
    public let options: Options
    /// What the watcher is doing, for readers that report freshness.
    public let status = WatchStatus()

    private let lockDescriptor: Int32
    private let queue = ChangeQueue()
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
        lockDescriptor = try Self.takeLock(databasePath + ".watch.lock", vault: vaultPath)
    }

    deinit {
        close(lockDescriptor)  // releases the lock
    }

    /// The watcher for this platform: inotify on Linux, FSEvents on macOS.
    public static func platformWatcher(root: String) -> any FileSystemWatcher {
        #if canImport(CoreServices)
        return FSEventsWatcher(root: root)
        #else
        return InotifyWatcher(root: root)
        #endif
    }

    /// Whether a watcher (in any process) holds the watch lock of this index, and its process id if known.
    public static func activeWatcher(databasePath: String) -> (isWatched: Bool, processID: Int32?) {
        let path = databasePath + ".watch.lock"
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return (false, nil) }
        defer { close(descriptor) }
        if flock(descriptor, LOCK_SH | LOCK_NB) == 0 {
            flock(descriptor, LOCK_UN)
            return (false, nil)
        }
        let holder = (try? String(contentsOfFile: path, encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        return (true, holder)
    }

    /// Watches until `stop()`. Throws when watching cannot start or the first index fails. A batch that
    /// cannot be applied (a locked or full disk, a vault folder gone) is logged, and a walk of the whole
    /// vault is retried after 0.5 s, 1 s, 2 s … (at most 30 s), so that no change is lost meanwhile.
    public func run(log: @escaping @Sendable (WatchEvent) -> Void) throws {
        let fileSystemWatcher = makeFileSystemWatcher(vaultPath)
        // Watch before the first index, so nothing saved during it is missed.
        let queue = self.queue
        try fileSystemWatcher.start { queue.append($0) }
        defer { fileSystemWatcher.stop() }
        let store = try IndexStore(path: databasePath)
        if try store.indexedVaultPath() != vaultPath { try store.setIndexedVaultPath(vaultPath) }
        let indexer = Indexer(store: store, vaultRoot: vaultPath, options: options.index)
        status.set(.indexing(filesDone: 0, filesTotal: 0))
        let status = self.status
        let report = try indexer.run { progress in status.set(.indexing(filesDone: progress.filesDone, filesTotal: progress.filesTotal)) }
        status.set(.watching, indexedAt: Date())
        log(.ready(report))
        var failure: (message: String, retryAfter: Duration)?
        while var batch = queue.nextBatch(debounce: options.debounce, maximumDelay: options.maximumDelay, orAfter: failure?.retryAfter) {
            // The changes of a failed batch are gone from the queue: only a walk covers them.
            if let failure { batch.changes.append(.rescan(reason: "retrying after an error (\(failure.message))")) }
            guard let event = apply(batch, indexer: indexer) else { continue }
            log(event)
            if case .failed(let message, _) = event {
                failure = (message, min((failure?.retryAfter ?? .milliseconds(250)) * 2, .seconds(30)))
            } else {
                failure = nil
            }
        }
        status.set(.stopped)
        log(.stopped)
    }

    /// Makes `run()` return after the batch it is applying, if any.
    public func stop() {
        queue.close()
    }

    // MARK: Batches

    /// Applies one batch; nil when nothing in it concerns the vault (an index kept in the vault, whose
    /// own writes and lock produce events, must not make batches of its own).
    private func apply(_ batch: ChangeQueue.Batch, indexer: Indexer) -> WatchEvent? {
        let clock = ContinuousClock()
        let started = clock.now
        var paths = Set<[UInt8]>()
        var walkReason: String?
        var folderChanged = false
        for change in batch.changes {
            switch change {
            case .path(let path, let isFolder):
                guard !isExcluded(path) else { continue }
                paths.insert(path)
                folderChanged = folderChanged || isFolder
            case .configuration:
                walkReason = "the vault's configuration or schemas changed"
            case .rescan(let reason):
                walkReason = reason
            }
        }
        if paths.isEmpty && walkReason == nil { return nil }
        do {
            var report: IndexReport
            if walkReason != nil {
                report = try indexer.run()
            } else {
                // A folder that changed makes `update` walk the vault itself (it sees the folder).
                report = try indexer.update(changedPaths: paths)
                if report.walkedVault {
                    walkReason = folderChanged ? "a folder was created, moved or deleted" : "the changes needed a walk of the vault"
                }
            }
            status.set(.watching, indexedAt: Date())
            return .batch(WatchBatch(
                changedPaths: paths.count, walkedVault: report.walkedVault, reason: walkReason,
                report: report, waitedMilliseconds: (started - batch.firstEventAt).inMilliseconds,
                milliseconds: (clock.now - started).inMilliseconds))
        } catch {
            status.set(.watching, error: "\(error)")
            return .failed(message: "\(error)", changedPaths: paths.count)
        }
    }

    /// The index's own files when it is kept inside the vault (`IndexOptions.excludedPaths`).
    private func isExcluded(_ path: [UInt8]) -> Bool {
        guard !options.index.excludedPaths.isEmpty else { return false }
        return options.index.excludedPaths.contains(UnicodeNormalization.nfc(String(decoding: path, as: UTF8.self)))
    }

    private static func takeLock(_ path: String, vault: String) throws(WatchError) -> Int32 {
        // A vault never indexed has no index folder yet.
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            try? FileManager.default.createDirectory(atPath: String(path[..<slash]), withIntermediateDirectories: true)
        }
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .lockUnavailable(path: path, reason: String(cString: strerror(errno))) }
        var attempts = 0
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            // `activeWatcher` probes the lock for an instant (`rhizome status`): try again before giving up.
            attempts += 1
            if attempts < 5 {
                usleep(20_000)
                continue
            }
            let holder = (try? String(contentsOfFile: path, encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            close(descriptor)
            throw .alreadyWatched(vault: vault, lockPath: path, processID: holder)
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        return descriptor
    }
}

/// What a watcher reports, one per line of `rhizome watch`'s log.
public enum WatchEvent: Sendable {
    /// The first index is done; changes are applied from now on.
    case ready(IndexReport)
    case batch(WatchBatch)
    /// A batch could not be applied; the next one tries again.
    case failed(message: String, changedPaths: Int)
    case stopped
}

/// One applied batch of changes.
public struct WatchBatch: Sendable, Encodable {
    /// Distinct paths the file-system events named.
    public var changedPaths: Int
    /// Whether the batch needed a walk of the whole vault, and why.
    public var walkedVault: Bool
    public var reason: String?
    public var report: IndexReport
    /// From the first event of the batch to the start of applying it (the debounce).
    public var waitedMilliseconds: Double
    /// Applying it, in one `Indexer` run.
    public var milliseconds: Double
}

/// What a watcher is doing, readable from any thread.
public final class WatchStatus: @unchecked Sendable {
    public enum Phase: Sendable, Equatable {
        case starting
        case indexing(filesDone: Int, filesTotal: Int)
        case watching
        case stopped
    }

    public struct Snapshot: Sendable {
        public var phase: Phase
        /// When the index last caught up with the vault.
        public var indexedAt: Date?
        public var lastError: String?
    }

    private let lock = NSLock()
    private var current = Snapshot(phase: .starting, indexedAt: nil, lastError: nil)

    public init() {}

    public var snapshot: Snapshot {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    /// Records why the watcher stopped working (its `run()` threw).
    public func fail(_ error: String) {
        set(.stopped, error: error)
    }

    func set(_ phase: Phase, indexedAt: Date? = nil, error: String? = nil) {
        lock.lock()
        defer { lock.unlock() }
        current.phase = phase
        if let indexedAt {
            current.indexedAt = indexedAt
            current.lastError = nil
        }
        if let error { current.lastError = error }
    }
}

/// File-system changes waiting to be applied, grouped into bursts.
final class ChangeQueue: @unchecked Sendable {
    struct Batch {
        var changes: [FileSystemChange]
        var firstEventAt: ContinuousClock.Instant
    }

    private let condition = NSCondition()
    private var pending: [FileSystemChange] = []
    private var firstEventAt: ContinuousClock.Instant?
    private var lastEventAt: ContinuousClock.Instant?
    private var isClosed = false
    private let clock = ContinuousClock()

    func append(_ changes: [FileSystemChange]) {
        condition.lock()
        defer { condition.unlock() }
        let now = clock.now
        pending += changes
        if firstEventAt == nil { firstEventAt = now }
        lastEventAt = now
        condition.broadcast()
    }

    func close() {
        condition.lock()
        defer { condition.unlock() }
        isClosed = true
        condition.broadcast()
    }

    /// Waits for a burst to end (quiet for `debounce`, or `maximumDelay` after its first event); nil once
    /// closed. With `idleLimit`, an empty batch when nothing happened for that long.
    func nextBatch(debounce: Duration, maximumDelay: Duration, orAfter idleLimit: Duration? = nil) -> Batch? {
        condition.lock()
        defer { condition.unlock() }
        let idleDeadline = idleLimit.map { clock.now + $0 }
        while true {
            if isClosed { return nil }
            if let first = firstEventAt, let last = lastEventAt {
                let now = clock.now
                let quietUntil = last + debounce
                let deadline = first + maximumDelay
                if now >= quietUntil || now >= deadline {
                    let batch = Batch(changes: pending, firstEventAt: first)
                    pending = []
                    firstEventAt = nil
                    lastEventAt = nil
                    return batch
                }
                _ = condition.wait(until: Date() + (min(quietUntil, deadline) - now).inSeconds)
            } else if let idleDeadline {
                let now = clock.now
                if now >= idleDeadline { return Batch(changes: [], firstEventAt: now) }
                _ = condition.wait(until: Date() + (idleDeadline - now).inSeconds)
            } else {
                condition.wait()
            }
        }
    }

}
