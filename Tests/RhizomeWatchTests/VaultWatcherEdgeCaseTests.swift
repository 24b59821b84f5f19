import Foundation
import Testing
import RhizomeCore
import RhizomeStore
import RhizomeTestSupport
import RhizomeWatch

/// Less common changes a watched vault sees: hidden names, symlinks inside the vault and retargeted,
/// names that are not NFC or not UTF-8, a stream that never goes quiet, a batch that cannot be applied.
@Suite(.serialized) struct VaultWatcherEdgeCaseTests {
    @Test func `a note renamed to a hidden name leaves the index, and comes back when shown again`() throws {
        let vault = try VaultWatcherTests.makeVault()
        let watched = try WatchedVault.started(vault)
        defer { watched.stopAndJoin() }
        try watched.expectCaughtUp { try vault.move("Beta.md", to: ".Beta.md") }
        try watched.expectCaughtUp { try vault.move(".Beta.md", to: "Beta.md") }
        // A folder, too.
        try watched.expectCaughtUp { try vault.move("Projects", to: ".Projects") }
        try watched.expectCaughtUp { try vault.move(".Projects", to: "Projects") }
        try watched.expectCaughtUp { try vault.write("Projects/Sub/Deep.md", "# Deep, edited after being hidden\n") }
    }

    @Test func `a symlink to a note inside the vault follows edits of that note`() throws {
        let vault = try VaultWatcherTests.makeVault()
        try vault.symlink("Aliases/Alpha alias.md", to: "../Alpha.md")
        let watched = try WatchedVault.started(vault)
        defer { watched.stopAndJoin() }
        try watched.expectCaughtUp { try vault.write("Alpha.md", "# Alpha, edited through its real path\n[[Gamma]]\n") }
        try watched.expectCaughtUp { try vault.write("Aliases/Alpha alias.md", "# Alpha, edited through the symlink\n") }
    }

    @Test func `a symlink pointed at another target follows the new target`() throws {
        let vault = try VaultWatcherTests.makeVault()
        let first = try vault.writeOutside("one/plan.md", "# Plan one\n")
        let second = try vault.writeOutside("two/plan.md", "# Plan two\n[[Alpha]]\n")
        try vault.symlink("plan.md", to: first.path)
        let watched = try WatchedVault.started(vault)
        defer { watched.stopAndJoin() }
        // As `ln -sfn` does: a new symlink under a temporary name, renamed over the old one.
        try watched.expectCaughtUp {
            try FileManager.default.createSymbolicLink(atPath: vault.url(".plan.md.new").path, withDestinationPath: second.path)
            #expect(rename(vault.url(".plan.md.new").path, vault.url("plan.md").path) == 0)
        }
        try watched.expectCaughtUp { try Data("# Plan two, edited at the new target\n".utf8).write(to: second) }
        // A symlinked folder pointed elsewhere.
        try vault.writeOutside("folder one/A.md", "# A in one\n")
        try vault.writeOutside("folder two/B.md", "# B in two\n")
        try watched.expectCaughtUp { try vault.symlink("Linked", to: vault.outside.appendingPathComponent("folder one").path) }
        try watched.expectCaughtUp {
            try vault.remove("Linked")
            try vault.symlink("Linked", to: vault.outside.appendingPathComponent("folder two").path)
        }
        try watched.expectCaughtUp { try vault.writeOutside("folder two/C.md", "# C, added at the new target\n") }
    }

    @Test func `names in NFD and names that are not UTF-8 are watched like any other`() throws {
        let vault = try VaultWatcherTests.makeVault()
        let watched = try WatchedVault.started(vault)
        defer { watched.stopAndJoin() }
        let decomposed = "Cafe\u{301}.md"  // NFD on disk, indexed as NFC `Café.md`
        try watched.expectCaughtUp { try vault.write(decomposed, "# Café\n[[Alpha]]\n") }
        try watched.expectCaughtUp { try vault.write(decomposed, "# Café, edited\n[[Beta]]\n") }
        try watched.expectCaughtUp { try vault.move(decomposed, to: "Projects/" + decomposed) }
        let invalid: [UInt8] = Array("Bad ".utf8) + [0xFF] + Array(".md".utf8)
        let invalidPath = Array(vault.path.utf8) + [UInt8(ascii: "/")] + invalid
        func writeInvalid(_ text: String) throws {
            let descriptor = (invalidPath + [0]).withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
            }
            #expect(descriptor >= 0)
            _ = Array(text.utf8).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            close(descriptor)
        }
        try watched.expectCaughtUp { try writeInvalid("# Bad name\n[[Alpha]]\n") }
        try watched.expectCaughtUp { try writeInvalid("# Bad name, edited\n") }
        // The deleted file takes its invalid-UTF-8 finding along.
        try watched.expectCaughtUp(after: {
            _ = (invalidPath + [0]).withUnsafeBufferPointer { buffer in buffer.withMemoryRebound(to: CChar.self) { unlink($0.baseAddress!) } }
        }, timeout: 1)
    }

    @Test func `a stream of changes that never goes quiet is still applied every maximum delay`() throws {
        let vault = try VaultWatcherTests.makeVault()
        let watched = try WatchedVault(vault, debounce: .milliseconds(100), maximumDelay: .milliseconds(250))
        watched.start()
        defer { watched.stopAndJoin() }
        try watched.waitUntilReady()
        let start = watched.events.count
        let began = Date()
        var index = 0
        // A save every 20 ms for a second: never quiet for the 100 ms debounce.
        while Date().timeIntervalSince(began) < 1 {
            try vault.write("Stream.md", "# Stream \(index)\n")
            index += 1
            Thread.sleep(forTimeInterval: 0.02)
        }
        let appliedWhileStreaming = watched.batches(since: start).count
        #expect(appliedWhileStreaming >= 2, "a never-quiet stream must still be applied every maximumDelay (250 ms): \(appliedWhileStreaming) batches in 1 s")
        #expect(appliedWhileStreaming <= 10, "a stream must be coalesced: \(appliedWhileStreaming) batches in 1 s")
        let expected = try WatchedVault.rebuild(vault)
        let dump = try watched.pollUntilEqual(expected)
        if dump != expected { Issue.record(Comment(rawValue: WatchedVault.difference(watched: dump, rebuilt: expected))) }
    }

    /// `rhizome index` refuses to empty an index when the vault lists no files (an unmounted drive, a sync
    /// client mid-way). The watcher sees the deletions as they happen: a batch that would remove the last
    /// files walks, and the walk refuses; but deletions spread over batches shrink the index first, below
    /// the guard's minimum, or leave it just above (one removal in a batch of its own, then the rest
    /// refused). Which one happens depends on how the events fall into batches, so this checks what must
    /// hold either way: the index is emptied, or the removal was refused with a reason and the index keeps
    /// only notes it held before; the watcher goes on (retrying the failed batch as a walk), and it catches
    /// up when the notes come back.
    @Test func `emptying the vault at once leaves the index whole or empty, and the watcher goes on`() throws {
        let vault = try TemporaryVault()
        for index in 0..<12 { try vault.write("All/Note \(index).md", "# \(index)\n[[Note \(index + 1)]]\n") }
        let watched = try WatchedVault.started(vault)
        defer { watched.stopAndJoin() }
        let before = try watched.watchedDump()
        let start = watched.events.count
        try vault.remove("All")
        let emptied = try WatchedVault.rebuild(vault)
        #expect(watched.waitForEvents { $0.count > start }, "no batch after the vault was emptied")
        watched.waitUntilQuiet(0.2)
        let after = try watched.watchedDump()
        let refused = after != emptied
        if refused {
            #expect(watched.failures(since: start).contains { $0.contains("lists no files") }, "kept without saying why: \(watched.events.dropFirst(start))")
            #expect(WatchedVault.keepsSomeFiles(after, of: before), "the index is neither kept nor emptied: \(WatchedVault.fileRows(of: after))")
        }
        #expect(!watched.isFinished)
        // While the index still holds the notes, a walk that runs before the first one is back fails again.
        let restored = try watched.expectCaughtUp(after: {
            for index in 0..<12 { try vault.write("All/Note \(index).md", "# \(index), restored\n") }
        }, allowingFailedBatches: refused)
        if refused {
            // The refused batch's changes were not dropped: a later batch walked the vault to cover them (the timed
            // retry, the batch of the restored notes, or the walk once a held-back removal settled).
            let since = watched.batches(since: start)
            let walkedToRecover = since.contains {
                $0.walkedVault && ($0.reason?.hasPrefix("retrying after an error") == true || $0.reason?.hasSuffix("walked once the vault was quiet") == true)
            }
            #expect(walkedToRecover, "\(watched.describe(since)) then \(watched.describe(restored))")
        }
    }
}
