import Foundation
import Testing
import RhizomeCore
import RhizomeStore
import RhizomeTestSupport
import RhizomeWatch

/// Starting and stopping a watcher: one per index, the first index before `.ready`, nothing missed
/// around the start, and `stop()` ending `run(log:)`.
@Suite(.serialized) struct VaultWatcherLifecycleTests {
    @Test func `a second watcher on the same index is refused while the first holds it, and allowed after`() throws {
        let vault = try VaultWatcherTests.makeVault()
        var first: WatchedVault? = try WatchedVault.started(vault)
        do {
            _ = try VaultWatcher(vaultPath: vault.path, databasePath: vault.databasePath)
            Issue.record("a second watcher was created on an index already watched")
        } catch {
            guard case .alreadyWatched(let vaultPath, let lockPath, let processID) = error else {
                Issue.record("expected alreadyWatched, got \(error)")
                return
            }
            #expect(vaultPath == vault.path)
            #expect(lockPath == vault.databasePath + ".watch.lock")
            #expect(processID == getpid())
            #expect(error.code == "already-watched")
        }
        // Another database for the same vault is another index: allowed.
        let other = vault.scratchDatabasePath()
        #expect(throws: Never.self) { _ = try VaultWatcher(vaultPath: vault.path, databasePath: other) }
        // Once the first watcher stops and is released, the lock is free again.
        #expect(first?.stopAndJoin() == true)
        first = nil
        // The last references go as the watcher's thread ends: allow it a moment.
        var second: WatchedVault?
        let limit = Date() + 2
        while second == nil {
            do {
                second = try WatchedVault(vault)
            } catch WatchError.alreadyWatched where Date() < limit {
                Thread.sleep(forTimeInterval: 0.01)
            }
        }
        let secondWatcher = try #require(second)
        secondWatcher.start()
        defer { secondWatcher.stopAndJoin() }
        try secondWatcher.waitUntilReady()
        try secondWatcher.expectCaughtUp { try vault.write("Gamma.md", "# Gamma\n") }
    }


    @Test func `stop makes run return, after logging stopped`() throws {
        let vault = try VaultWatcherTests.makeVault()
        let watched = try WatchedVault.started(vault)
        #expect(watched.stopAndJoin(timeout: 5), "run(log:) did not return after stop()")
        #expect(watched.error == nil)
        guard case .stopped? = watched.events.last else {
            Issue.record("the last event is not .stopped: \(watched.events)")
            return
        }
        #expect(watched.watcher.status.snapshot.phase == .stopped)
        // Stopping twice is harmless.
        watched.watcher.stop()
    }

    @Test func `stop while changes keep coming still makes run return`() throws {
        let vault = try VaultWatcherTests.makeVault()
        let watched = try WatchedVault.started(vault)
        for index in 0..<200 { try vault.write("Stream/Note \(index).md", "# \(index)\n") }
        #expect(watched.stopAndJoin(timeout: 5), "run(log:) did not return after stop()")
        // After stop, nothing is applied any more: the index stays as it was.
        let stoppedAt = try watched.watchedDump()
        try vault.write("After.md", "# After stop\n")
        Thread.sleep(forTimeInterval: 0.2)
        #expect(try watched.watchedDump() == stoppedAt)
    }

    @Test func `stop before run makes run return after the first index`() throws {
        let vault = try VaultWatcherTests.makeVault()
        let watched = try WatchedVault(vault)
        watched.watcher.stop()
        watched.start()
        #expect(watched.waitUntilFinished(timeout: 5), "run(log:) did not return although stop() came first")
        #expect(watched.error == nil)
    }

    @Test func `the first index is complete when ready is logged`() throws {
        let vault = try VaultWatcherTests.makeVault()
        for index in 0..<50 { try vault.write("Bulk/Note \(index).md", "# \(index)\n[[Alpha]]\n") }
        let expected = try WatchedVault.rebuild(vault)
        // Read the index the moment `.ready` is logged, on the watcher's thread, before it can apply anything else.
        let atReady = DumpBox()
        let databasePath = vault.databasePath
        let watched = try WatchedVault(vault, onLog: { event in
            if case .ready = event { atReady.set(Result { try IndexStore(readOnlyPath: databasePath).canonicalDump() }) }
        })
        #expect(watched.watcher.status.snapshot.phase == .starting)
        watched.start()
        defer { watched.stopAndJoin() }
        let report = try watched.waitUntilReady()
        #expect(report.files == 56)
        #expect(report.added == 56)
        guard case .ready = watched.events.first else {
            Issue.record("the first event is not .ready: \(watched.events)")
            return
        }
        let dump = try #require(atReady.value).get()
        if dump != expected { Issue.record(Comment(rawValue: WatchedVault.difference(watched: dump, rebuilt: expected))) }
        #expect(watched.watcher.status.snapshot.phase == .watching)
        #expect(watched.watcher.status.snapshot.indexedAt != nil)
    }

    @Test func `a file saved just before the watcher starts is not missed`() throws {
        let vault = try VaultWatcherTests.makeVault()
        try vault.index()  // an index from earlier, which the watcher brings up to date
        try vault.write("Alpha.md", "# Alpha, saved just before the start\n")
        try vault.write("Late.md", "# Late\n[[Alpha]]\n")
        let watched = try WatchedVault(vault)
        watched.start()
        try vault.write("Later.md", "# Later, saved while the watcher starts\n")
        try vault.write("Beta.md", "# Beta, saved while the watcher starts\n")
        defer { watched.stopAndJoin() }
        try watched.waitUntilReady()
        let expected = try WatchedVault.rebuild(vault)
        let watchedDump = try watched.pollUntilEqual(expected)
        if watchedDump != expected { Issue.record(Comment(rawValue: WatchedVault.difference(watched: watchedDump, rebuilt: expected))) }
    }

    @Test func `files saved while the first index runs are applied after it`() throws {
        let vault = try VaultWatcherTests.makeVault()
        for index in 0..<300 { try vault.write("Bulk/Note \(index).md", "# \(index)\n[[Alpha]] [[Note \(index + 1)]]\n") }
        var index = IndexOptions()
        index.parallelism = 1
        index.batchSize = 16  // many small transactions: the first index takes long enough to write during it
        let watched = try WatchedVault(vault, index: index)
        watched.start()
        defer { watched.stopAndJoin() }
        // `.indexing` is set after the file-system watch started, before the first index.
        let limit = Date() + WatchedVault.deadline
        while Date() < limit {
            if case .indexing = watched.watcher.status.snapshot.phase { break }
            if !watched.events.isEmpty { break }
            Thread.sleep(forTimeInterval: 0.001)
        }
        let wroteDuringIndex: Bool
        if case .indexing = watched.watcher.status.snapshot.phase { wroteDuringIndex = true } else { wroteDuringIndex = false }
        try vault.write("Bulk/Note 7.md", "# 7, edited during the first index\n")
        try vault.write("During.md", "# During\n[[Note 7]]\n")
        try vault.remove("Bulk/Note 299.md")
        try watched.waitUntilReady()
        let expected = try WatchedVault.rebuild(vault, options: index)
        let watchedDump = try watched.pollUntilEqual(expected)
        if watchedDump != expected { Issue.record(Comment(rawValue: WatchedVault.difference(watched: watchedDump, rebuilt: expected))) }
        // Not a failure when the machine was too fast to catch the first index in progress, but say so.
        if !wroteDuringIndex { print("note: the first index finished before the test could write during it") }
    }
}

/// A value set on the watcher's thread and read on the test's.
final class DumpBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Result<[String], any Error>?

    func set(_ value: Result<[String], any Error>) {
        lock.lock()
        stored = value
        lock.unlock()
    }

    var value: Result<[String], any Error>? {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}
