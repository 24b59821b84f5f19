import Foundation
import Testing
import RhizomeCore
import RhizomeStore
import RhizomeTestSupport
import RhizomeWatch

/// The vault folder itself deleted, moved away, replaced by a copy or a symlink (sync tools, `git clone`
/// into place, `mv V V.bak && cp -a V.bak V`): the watcher follows the vault path, never takes a folder
/// half-way through being copied for the vault, and says when it has no vault (issue 18).
@Suite(.serialized) struct VaultFolderReplacementTests {
    /// Quicker than the defaults (1 s), so the tests are short; the logic is the same.
    static func quickSettling(_ options: inout VaultWatcher.Options) {
        options.settleInterval = .milliseconds(300)
    }

    @Test func `a vault folder moved away and copied back is followed, and edits to the moved folder are not`() throws {
        let vault = try VaultWatcherTests.makeVault()
        let (watched, states) = try Self.start(vault)
        defer { watched.stopAndJoin() }
        let before = try watched.watchedDump()
        let start = watched.events.count
        let moved = vault.sibling("vault.bak")
        try FileManager.default.moveItem(at: vault.root, to: moved)
        try Self.run("/bin/cp", "-a", moved.path, vault.path)
        try Self.waitForSettledWalk(watched, since: start)
        #expect(try watched.watchedDump() == before)
        #expect(states.states(since: start).contains(.settling), "\(watched.events.dropFirst(start))")
        #expect(watched.watcher.status.snapshot.state == .current)
        #expect(VaultWatcher.activeWatcher(databasePath: vault.databasePath).state == .current)
        #expect(watched.failures(since: start).isEmpty)

        // The folder now at the vault path is watched, subfolders included.
        try watched.expectCaughtUp { try vault.write("Alpha.md", "# Alpha, edited in the copy\n[[Beta]]\n") }
        try watched.expectCaughtUp { try vault.write("Projects/Sub/New.md", "# New in a copied subfolder\n[[Plan]]\n") }
        // The folder moved away is not the vault: nothing it does makes a batch.
        let eventsBefore = watched.events.count
        let dump = try watched.watchedDump()
        try Data("# Beta, edited in the old folder\n".utf8).write(to: moved.appendingPathComponent("Beta.md"))
        try Data("# Only in the old folder\n".utf8).write(to: moved.appendingPathComponent("Projects/Old only.md"))
        Thread.sleep(forTimeInterval: 0.4)
        #expect(watched.events.count == eventsBefore, "\(watched.events.dropFirst(eventsBefore))")
        #expect(try watched.watchedDump() == dump)
    }

    @Test func `a deleted vault folder keeps the index and says vault-missing, and a copy put back is indexed`() throws {
        let vault = try VaultWatcherTests.makeVault()
        let copy = vault.sibling("copy")
        try Self.run("/bin/cp", "-a", vault.path, copy.path)
        try Data("# Beta, as the copy has it\n[[Home]]\n".utf8).write(to: copy.appendingPathComponent("Beta.md"))
        try Data("# Only in the copy\n".utf8).write(to: copy.appendingPathComponent("Projects/Copied.md"))
        let (watched, _) = try Self.start(vault)
        defer { watched.stopAndJoin() }
        let before = try watched.watchedDump()
        let start = watched.events.count

        try FileManager.default.removeItem(at: vault.root)
        #expect(watched.waitForEvents { $0.dropFirst(start).contains { if case .vaultMissing = $0 { true } else { false } } },
                "no vault-missing event: \(watched.events.dropFirst(start))")
        #expect(watched.watcher.status.snapshot.state == .vaultMissing)
        #expect(VaultWatcher.activeWatcher(databasePath: vault.databasePath).state == .vaultMissing)
        #expect(watched.watcher.status.snapshot.reason?.contains("missing") == true)
        // Kept, and no walk keeps failing on the missing folder. The folder goes deepest first, so the
        // watcher may have seen a subfolder's notes removed (truly, for a moment) before the vault itself
        // went: the index then lacks those notes and nothing else; it never empties or gains a file.
        Thread.sleep(forTimeInterval: 0.6)
        let kept = try watched.watchedDump()
        if WatchedVault.fileRows(of: kept) == WatchedVault.fileRows(of: before) {
            #expect(kept == before)
        } else {
            #expect(WatchedVault.keepsSomeFiles(kept, of: before), "kept \(WatchedVault.fileRows(of: kept)) of \(WatchedVault.fileRows(of: before))")
        }
        #expect(watched.failures(since: start).isEmpty, "\(watched.failures(since: start))")
        #expect(watched.watcher.status.snapshot.state == .vaultMissing)

        // Put back from the copy (found by looking at the path: nothing watches the parent folder).
        try Self.run("/bin/cp", "-a", copy.path, vault.path)
        let expected = try WatchedVault.rebuild(vault)
        #expect(expected != before)
        let caughtUp = try watched.pollUntilEqual(expected)
        if caughtUp != expected { Issue.record(Comment(rawValue: WatchedVault.difference(watched: caughtUp, rebuilt: expected))) }
        try Self.waitForSettledWalk(watched, since: start)
        #expect(watched.events.dropFirst(start).contains { if case .vaultReplaced(reappeared: true) = $0 { true } else { false } })
        #expect(VaultWatcher.activeWatcher(databasePath: vault.databasePath).state == .current)
        try watched.expectCaughtUp { try vault.write("Projects/Copied.md", "# Edited once back\n[[Alpha]]\n") }
    }

    @Test func `a vault folder replaced by a symlink to a copy is followed, and so is the symlink pointed elsewhere`() throws {
        let vault = try VaultWatcherTests.makeVault()
        let first = vault.sibling("first")
        try Self.run("/bin/cp", "-a", vault.path, first.path)
        try Data("# Alpha in the first copy\n[[Beta]]\n".utf8).write(to: first.appendingPathComponent("Alpha.md"))
        let (watched, _) = try Self.start(vault)
        defer { watched.stopAndJoin() }

        try watched.expectCaughtUp {
            try FileManager.default.removeItem(at: vault.root)
            try FileManager.default.createSymbolicLink(atPath: vault.path, withDestinationPath: first.path)
        }
        try watched.expectCaughtUp { try vault.write("Beta.md", "# Beta, edited through the symlink\n") }
        try watched.expectCaughtUp { try vault.write("Projects/Sub/Deeper.md", "# Deeper, through the symlink\n") }

        // Pointed at a second copy, at once (rename over the link): no event in the watched folders, so it
        // is found by looking at the vault path.
        let second = vault.sibling("second")
        try Self.run("/bin/cp", "-a", first.path, second.path)
        try Data("# Home in the second copy\n[[Alpha]]\n".utf8).write(to: second.appendingPathComponent("Home.md"))
        try watched.expectCaughtUp {
            let link = vault.sibling("link.tmp")
            try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: second.path)
            guard rename(link.path, vault.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
        }
        try watched.expectCaughtUp { try vault.write("Alpha.md", "# Alpha, edited in the second copy\n") }
        // The first copy is not the vault any more.
        let eventsBefore = watched.events.count
        try Data("# Beta, edited in the first copy\n".utf8).write(to: first.appendingPathComponent("Beta.md"))
        Thread.sleep(forTimeInterval: 0.4)
        #expect(watched.events.count == eventsBefore, "\(watched.events.dropFirst(eventsBefore))")
    }

    @Test func `a vault copied into place file by file, slowly, is never taken for the vault half-way`() throws {
        let vault = try TemporaryVault()
        for index in 0..<40 { try vault.write("Folder \(index % 4)/Note \(index).md", "# \(index)\n[[Note \((index + 1) % 40)]]\n") }
        let (watched, _) = try Self.start(vault)
        defer { watched.stopAndJoin() }
        let indexed = try Self.fileCount(vault)
        let start = watched.events.count
        let moved = vault.sibling("vault.bak")
        try FileManager.default.moveItem(at: vault.root, to: moved)
        try Data("# 7, edited before the copy back\n[[Note 1]]\n".utf8).write(to: moved.appendingPathComponent("Folder 3/Note 7.md"))
        try Data("# Added before the copy back\n".utf8).write(to: moved.appendingPathComponent("Folder 0/Added.md"))

        // What the index holds while the copy runs, read as any reader would.
        let lowest = LowestCount(indexed)
        let monitor = Thread {
            while !lowest.isDone {
                if let count = try? Self.fileCount(vault) { lowest.record(count) }
                Thread.sleep(forTimeInterval: 0.005)
            }
        }
        monitor.start()
        let files = (FileManager.default.enumerator(atPath: moved.path)?.allObjects as? [String] ?? []).sorted()
        try FileManager.default.createDirectory(at: vault.root, withIntermediateDirectories: false)
        for relative in files {
            let source = moved.appendingPathComponent(relative)
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: source.path, isDirectory: &isFolder)
            if isFolder.boolValue {
                try FileManager.default.createDirectory(at: vault.url(relative), withIntermediateDirectories: true)
            } else {
                try FileManager.default.copyItem(at: source, to: vault.url(relative))
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
        let expected = try WatchedVault.rebuild(vault)
        let caughtUp = try watched.pollUntilEqual(expected)
        lowest.finish()
        if caughtUp != expected { Issue.record(Comment(rawValue: WatchedVault.difference(watched: caughtUp, rebuilt: expected))) }
        // A walk may run if the copy stalls longer than the settle interval, but never one that removes
        // more than the guard allows (a quarter); normally none removes anything.
        #expect(lowest.value >= indexed - indexed / 4, "the index fell to \(lowest.value) of \(indexed) files during the copy")
        #expect(try Self.fileCount(vault) == indexed + 1)
        #expect(watched.failures(since: start).isEmpty, "\(watched.failures(since: start))")
        print("slow copy: lowest file count during the copy \(lowest.value) of \(indexed); \(watched.describe(watched.batches(since: start)))")
    }

    @Test func `deleting most of the vault waits until it is quiet, then is applied`() throws {
        let vault = try TemporaryVault()
        for index in 0..<4 { try vault.write("Kept \(index).md", "# Kept \(index)\n[[Archived 0]]\n") }
        for index in 0..<16 { try vault.write("Archive/Archived \(index).md", "# Archived \(index)\n[[Kept 0]]\n") }
        let (watched, states) = try Self.start(vault)
        defer { watched.stopAndJoin() }
        let start = watched.events.count
        let batches = try watched.expectCaughtUp { try vault.remove("Archive") }
        // The walk that removed the folder's notes came after the wait, whichever batch saw them go first.
        #expect(watched.events.dropFirst(start).contains { if case .settling = $0 { true } else { false } }, "\(watched.events.dropFirst(start))")
        #expect(batches.last?.reason?.hasSuffix("walked once the vault was quiet") == true, "\(watched.describe(batches))")
        #expect(states.states(since: start).contains(.settling))
        #expect(watched.watcher.status.snapshot.state == .current)
    }

    // MARK: Helpers

    /// Starts a watcher with quick settling, recording the state it published (in the watch lock, as
    /// another process reads it) at each event.
    static func start(_ vault: TemporaryVault) throws -> (WatchedVault, PublishedStates) {
        let states = PublishedStates()
        let database = vault.databasePath
        let watched = try WatchedVault(vault, onLog: { _ in states.record(VaultWatcher.activeWatcher(databasePath: database).state) },
                                       configure: quickSettling)
        watched.start()
        try watched.waitUntilReady()
        return (watched, states)
    }

    /// Waits for the walk that ends a wait for the vault to settle.
    static func waitForSettledWalk(_ watched: WatchedVault, since start: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let walked = watched.waitForEvents { events in
            events.dropFirst(start).contains { event in
                if case .batch(let batch) = event { batch.reason?.hasSuffix("walked once the vault was quiet") == true } else { false }
            }
        }
        #expect(walked, "no walk after the vault settled: \(watched.events.dropFirst(start))", sourceLocation: sourceLocation)
    }

    static func fileCount(_ vault: TemporaryVault) throws -> Int {
        let rows = try IndexStore(readOnlyPath: vault.databasePath).readOnlyQuery("SELECT count(*) FROM files").rows
        return Int(rows.first?.first?.displayText ?? "") ?? -1
    }

    /// Runs a command to its end (a real `cp -a`, as a user or a sync tool copies).
    static func run(_ executable: String, _ arguments: String...) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "\(executable) \(arguments) exited with \(process.terminationStatus)")
    }
}

/// The states a watcher published in its watch lock, one per logged event.
final class PublishedStates: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [WatchStatus.State?] = []

    func record(_ state: WatchStatus.State?) {
        lock.withLock { recorded.append(state) }
    }

    /// From event number `start` on.
    func states(since start: Int) -> [WatchStatus.State?] {
        lock.withLock { Array(recorded.dropFirst(start)) }
    }
}

/// The lowest file count seen by a thread that reads the index while a test changes the vault.
final class LowestCount: @unchecked Sendable {
    private let lock = NSLock()
    private var lowest: Int
    private var done = false

    init(_ start: Int) { lowest = start }

    func record(_ count: Int) { lock.withLock { lowest = min(lowest, count) } }
    func finish() { lock.withLock { done = true } }
    var isDone: Bool { lock.withLock { done } }
    var value: Int { lock.withLock { lowest } }
}

extension TemporaryVault {
    /// A path beside the vault folder, in the same temporary parent (removed with it).
    func sibling(_ name: String) -> URL {
        root.deletingLastPathComponent().appendingPathComponent(name)
    }
}
