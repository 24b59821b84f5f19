import Foundation
import Testing
import RhizomeCore
import RhizomeStore
import RhizomeTestSupport
import RhizomeWatch

/// A reader that asks right after a save must find the save pending or applied, never missing: the
/// file-system watcher's `flush` hands over every event the kernel already holds, whether or not the
/// watcher's thread has run since (CI once answered an MCP call before that thread woke).
///
/// Linux only: inotify queues an event during the system call that made it, so the flush is exact there;
/// FSEvents learns of changes asynchronously and its flush only narrows the window.
@Suite(.serialized) struct FileEventFlushTests {
    #if canImport(Glibc)
    @Test func `every file written before a flush reaches the handler before the flush returns`() throws {
        let vault = try TemporaryVault()
        let seen = SeenPaths()
        let watcher = VaultWatcher.platformWatcher(root: vault.path)
        try watcher.start { changes in seen.add(changes) }
        defer { watcher.stop() }
        for round in 0..<200 {
            try vault.write("Saved \(round).md", "# Saved \(round)\n")
            #expect(watcher.flush(timeout: .seconds(5)))
            #expect(seen.contains("Saved \(round).md"), "round \(round): the write was not handed over by the flush")
        }
    }

    @Test func `a flush on a stopped watcher returns at once, saying it could not`() throws {
        let vault = try TemporaryVault()
        let watcher = VaultWatcher.platformWatcher(root: vault.path)
        try watcher.start { _ in }
        watcher.stop()
        let started = ContinuousClock.now
        #expect(!watcher.flush(timeout: .seconds(5)))
        #expect(ContinuousClock.now - started < .seconds(1))
    }

    @Test func `a note saved just before a reader asks is pending, then applied`() throws {
        let vault = try TemporaryVault()
        try vault.write("Home.md", "# Home\n")
        // A long debounce keeps each save pending for a while after the flush, so the check cannot race the batch.
        let watched = try WatchedVault.started(vault, debounce: .milliseconds(300))
        defer { watched.stopAndJoin() }
        for round in 0..<5 {
            try vault.write("Saved \(round).md", "# Saved \(round)\nSee [[Home]].\n")
            #expect(watched.watcher.flushFileEvents(timeout: .seconds(5)))
            #expect(VaultWatcher.activeWatcher(databasePath: vault.databasePath).isPending, "round \(round): the save is not pending")
            let applied = VaultWatcher.activeWatcherOnceApplied(databasePath: vault.databasePath, timeout: 10)
            #expect(applied.vouches(), "round \(round): \(applied)")
            let store = try IndexStore(readOnlyPath: vault.databasePath)
            #expect(try store.backlinks(toPaths: ["Home.md"]).contains { $0.source == "Saved \(round).md" }, "round \(round)")
        }
    }
    #endif

    @Test func `a vault watcher with no folder watched cannot flush`() throws {
        let vault = try TemporaryVault()
        let watcher = try VaultWatcher(vaultPath: vault.path, databasePath: vault.databasePath)
        #expect(!watcher.flushFileEvents(timeout: .milliseconds(100)))
    }
}

/// The paths a file-system watcher has handed over so far.
private final class SeenPaths: @unchecked Sendable {
    private let lock = NSLock()
    private var paths = Set<String>()

    func add(_ changes: [FileSystemChange]) {
        lock.withLock {
            for case .path(let path, _) in changes { paths.insert(String(decoding: path, as: UTF8.self)) }
        }
    }

    func contains(_ path: String) -> Bool {
        lock.withLock { paths.contains(path) }
    }
}
