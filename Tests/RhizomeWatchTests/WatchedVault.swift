import Foundation
import Testing
import RhizomeCore
import RhizomeStore
import RhizomeTestSupport
import RhizomeWatch

/// A `VaultWatcher` running on its own thread over a temporary vault, with what it logged, so a test can
/// change real files and wait (never forever) for the watched index to catch up.
final class WatchedVault: @unchecked Sendable {
    let vault: TemporaryVault
    let watcher: VaultWatcher
    /// How long any wait lasts before the test gives up.
    static let deadline: TimeInterval = 10

    private let condition = NSCondition()
    private var logged: [WatchEvent] = []
    private var loggedAt: [Date] = []
    private var runError: (any Error)?
    private var hasStarted = false
    private var hasFinished = false
    private let onLog: (@Sendable (WatchEvent) -> Void)?

    /// Takes the watch lock (throws `WatchError.alreadyWatched` like `VaultWatcher.init`); `start()` runs it.
    init(
        _ vault: TemporaryVault, debounce: Duration = .milliseconds(15), maximumDelay: Duration = .seconds(1),
        index: IndexOptions = IndexOptions(), databasePath: String? = nil, onLog: (@Sendable (WatchEvent) -> Void)? = nil,
        configure: (inout VaultWatcher.Options) -> Void = { _ in }
    ) throws {
        self.vault = vault
        var options = VaultWatcher.Options()
        options.debounce = debounce
        options.maximumDelay = maximumDelay
        options.index = index
        configure(&options)
        watcher = try VaultWatcher(vaultPath: vault.path, databasePath: databasePath ?? vault.databasePath, options: options)
        self.onLog = onLog
    }

    /// Runs `VaultWatcher.run(log:)` on a background thread.
    func start() {
        condition.lock()
        hasStarted = true
        condition.unlock()
        // Weak, so that once `run` returns nothing here keeps the watcher (and its lock) alive.
        let thread = Thread { [weak self] in
            guard let self else { return }
            do {
                try watcher.run { [unowned self] event in
                    onLog?(event)
                    condition.lock()
                    logged.append(event)
                    loggedAt.append(Date())
                    condition.broadcast()
                    condition.unlock()
                }
            } catch {
                condition.lock()
                runError = error
                condition.unlock()
            }
            condition.lock()
            hasFinished = true
            condition.broadcast()
            condition.unlock()
        }
        thread.name = "test watcher"
        thread.start()
    }

    /// Starts the watcher and waits for its first index (`.ready`).
    @discardableResult
    static func started(
        _ vault: TemporaryVault, debounce: Duration = .milliseconds(15), index: IndexOptions = IndexOptions(),
        configure: (inout VaultWatcher.Options) -> Void = { _ in }
    ) throws -> WatchedVault {
        let watched = try WatchedVault(vault, debounce: debounce, index: index, configure: configure)
        watched.start()
        try watched.waitUntilReady()
        return watched
    }

    /// Stops the watcher and waits for `run` to return; false if it did not within the deadline.
    @discardableResult
    func stopAndJoin(timeout: TimeInterval = deadline) -> Bool {
        watcher.stop()
        return waitUntilFinished(timeout: timeout)
    }

    func waitUntilFinished(timeout: TimeInterval = deadline) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard hasStarted else { return true }
        let limit = Date() + timeout
        while !hasFinished {
            if !condition.wait(until: limit) { return hasFinished }
        }
        return true
    }

    var events: [WatchEvent] {
        condition.lock()
        defer { condition.unlock() }
        return logged
    }

    var error: (any Error)? {
        condition.lock()
        defer { condition.unlock() }
        return runError
    }

    var isFinished: Bool {
        condition.lock()
        defer { condition.unlock() }
        return hasFinished
    }

    /// Batches logged from event number `start` on.
    func batches(since start: Int = 0) -> [WatchBatch] {
        events.dropFirst(start).compactMap { if case .batch(let batch) = $0 { batch } else { nil } }
    }

    func failures(since start: Int = 0) -> [String] {
        events.dropFirst(start).compactMap { if case .failed(let message, _) = $0 { message } else { nil } }
    }

    /// Waits until `predicate` holds for the events logged so far; false at the deadline.
    @discardableResult
    func waitForEvents(timeout: TimeInterval = deadline, _ predicate: ([WatchEvent]) -> Bool) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let limit = Date() + timeout
        while !predicate(logged) {
            if hasFinished { return predicate(logged) }
            if !condition.wait(until: limit) { return predicate(logged) }
        }
        return true
    }

    /// Waits for `.ready`; throws what `run` threw, or a timeout.
    @discardableResult
    func waitUntilReady() throws -> IndexReport {
        let found = waitForEvents { events in events.contains { if case .ready = $0 { true } else { false } } }
        if let error { throw error }
        guard found, let report = events.lazy.compactMap({ if case .ready(let report) = $0 { report } else { nil } }).first else {
            throw WatchTestError.timedOut("the watcher never logged `.ready`")
        }
        return report
    }

    /// Waits until no event has been logged for `quiet`; false if events kept coming until `timeout`.
    @discardableResult
    func waitUntilQuiet(_ quiet: TimeInterval = 0.1, timeout: TimeInterval = 3) -> Bool {
        let limit = Date() + timeout
        while Date() < limit {
            condition.lock()
            let last = loggedAt.last ?? .distantPast
            condition.unlock()
            let silence = Date().timeIntervalSince(last)
            if silence >= quiet { return true }
            Thread.sleep(forTimeInterval: quiet - silence)
        }
        return false
    }

    /// The watched index, read through a second (read-only) connection as any `rhizome` query would.
    func watchedDump() throws -> [String] {
        try IndexStore(readOnlyPath: watcher.databasePath).canonicalDump()
    }

    /// Whether the files of dump `after` are some, not none, of those of `before`: an index that lost notes
    /// in a change the watcher saw only part of, and gained none (the `file` rows of `canonicalDump`).
    static func keepsSomeFiles(_ after: [String], of before: [String]) -> Bool {
        let kept = fileRows(of: after)
        return !kept.isEmpty && Set(kept).isSubset(of: fileRows(of: before))
    }

    /// The `file` rows of a dump, sorted (for messages).
    static func fileRows(of dump: [String]) -> [String] { dump.filter { $0.hasPrefix("file") }.sorted() }

    /// Makes a change to the vault and waits until the watched index equals a full rebuild of the vault
    /// as it is afterwards, then for the watcher to go quiet, and checks again. Returns the batches the
    /// change produced. Records an issue when the change is not visible in the index at all (a
    /// meaningless scenario), when the index does not catch up in time, or when a batch failed.
    ///
    /// `comparedWith: .indexRun` compares with what `rhizome index` (`Indexer.run()` over an index of the
    /// vault as it was before the change) gives instead: for changes where the incremental indexer keeps
    /// what it knew by design (a file it cannot read keeps its entry), which a rebuild cannot know.
    @discardableResult
    func expectCaughtUp(
        after change: () throws -> Void, index: IndexOptions = IndexOptions(), comparedWith reference: Reference = .rebuild,
        timeout: TimeInterval = deadline, allowingFailedBatches: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [WatchBatch] {
        let before = try watchedDump()
        let start = events.count
        var rebuilt: [String]
        switch reference {
        case .rebuild:
            try change()
            rebuilt = try Self.rebuild(vault, options: index)
        case .indexRun:
            let earlier = vault.scratchDatabasePath()
            try vault.index(database: earlier, options: index)
            try change()
            try vault.index(database: earlier, options: index)
            rebuilt = try vault.store(database: earlier).canonicalDump()
        }
        #expect(rebuilt != before, "the change should be visible in the index", sourceLocation: sourceLocation)
        var watched = try pollUntilEqual(rebuilt, timeout: timeout)
        if watched == rebuilt {
            // Caught up. The batch that did it commits before the watcher logs it: wait for that entry,
            // else the wait for quiet below can end in the gap, measured from an older event.
            waitForEvents(timeout: 3) { events in events.dropFirst(start).contains { if case .batch = $0 { true } else { false } } }
            // A later batch must not undo it, and the batches must end.
            let quietened = waitUntilQuiet()
            #expect(quietened, "the watcher never went quiet after the change: \(describe(batches(since: start).suffix(5)))",
                    sourceLocation: sourceLocation)
            watched = try watchedDump()
        }
        if watched != rebuilt {
            Issue.record(Comment(rawValue: Self.difference(watched: watched, rebuilt: rebuilt) + "\nbatches: \(describe(batches(since: start)))"),
                         sourceLocation: sourceLocation)
        }
        if !allowingFailedBatches { #expect(failures(since: start).isEmpty, sourceLocation: sourceLocation) }
        return batches(since: start)
    }

    /// Polls the watched index until it equals `expected` or the deadline passes; returns the last dump.
    func pollUntilEqual(_ expected: [String], timeout: TimeInterval = deadline) throws -> [String] {
        let limit = Date() + timeout
        var watched = try watchedDump()
        while watched != expected && Date() < limit {
            Thread.sleep(forTimeInterval: 0.02)
            watched = try watchedDump()
        }
        return watched
    }

    /// A full rebuild of the vault as it is now: a fresh database, `Indexer.run()`.
    static func rebuild(_ vault: TemporaryVault, options: IndexOptions = IndexOptions()) throws -> [String] {
        let fresh = vault.scratchDatabasePath()
        defer {
            for suffix in ["", "-wal", "-shm", ".lock"] { try? FileManager.default.removeItem(atPath: fresh + suffix) }
        }
        try vault.index(database: fresh, options: options)
        return try vault.store(database: fresh).canonicalDump()
    }

    static func difference(watched: [String], rebuilt: [String]) -> String {
        let onlyWatched = Set(watched).subtracting(rebuilt).sorted().prefix(10)
        let onlyRebuilt = Set(rebuilt).subtracting(watched).sorted().prefix(10)
        return "watched index ≠ full rebuild\nonly in the watched index: \(Array(onlyWatched))\nonly in the rebuild: \(Array(onlyRebuilt))"
    }

    func describe(_ batches: some Collection<WatchBatch>) -> String {
        batches.map { "[\($0.changedPaths) paths, walked: \($0.walkedVault), reason: \($0.reason ?? "-")]" }.joined(separator: " ")
    }
}

/// What a watched index is compared with after a change.
enum Reference {
    /// A fresh database, `Indexer.run()`.
    case rebuild
    /// `Indexer.run()` over an index of the vault as it was before the change.
    case indexRun
}

enum WatchTestError: Error, CustomStringConvertible {
    case timedOut(String)
    var description: String {
        switch self {
        case .timedOut(let what): return "timed out: \(what)"
        }
    }
}

extension TemporaryVault {
    /// Writes `text` to a temporary name beside the file and renames it over the file, as editors save.
    func saveAtomically(_ relativePath: String, _ text: String, temporaryName: String) throws {
        let url = url(relativePath)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(temporaryName)
        try Data(text.utf8).write(to: temporary)
        guard rename(temporary.path, url.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    /// Writes a file outside the vault (a symlink target), creating its folders.
    @discardableResult
    func writeOutside(_ relativePath: String, _ text: String) throws -> URL {
        let url = outside.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url
    }
}
