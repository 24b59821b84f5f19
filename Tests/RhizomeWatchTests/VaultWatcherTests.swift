import Foundation
import Testing
import RhizomeCore
import RhizomeStore
import RhizomeTestSupport
import RhizomeWatch

/// Real file-system events in temporary vaults, through inotify (FSEvents on macOS): after each change the
/// watched index must equal a full rebuild of the same vault (a fresh database, `Indexer.run()`).
///
/// Serialized: each test runs its own watcher, and the burst test counts batches, which depends on the
/// machine not being busy with other watchers at the same time.
@Suite(.serialized) struct VaultWatcherTests {
    /// A small vault with links between notes, so that creating, renaming and deleting files re-resolves links.
    static func makeVault() throws -> TemporaryVault {
        let vault = try TemporaryVault()
        try vault.write("Home.md", "# Home\nSee [[Alpha]], [[Beta]] and [[Projects/Plan]].\n#start\n")
        try vault.write("Alpha.md", "---\ntags: [a]\n---\n# Alpha\nLinks to [[Beta]] and [[Gamma]].\n- [ ] a task\n")
        try vault.write("Beta.md", "# Beta\nBack to [[Alpha]].\n")
        try vault.write("Projects/Plan.md", "# Plan\nUses [[Alpha]] and [[Notes/Deep]].\n")
        try vault.write("Projects/Sub/Deep.md", "# Deep\nSee [[Plan]].\n")
        try vault.write("image.png", bytes: [0x89, 0x50, 0x4E, 0x47])
        return vault
    }

    @Test func `a note created while watching is indexed without a walk`() throws {
        let vault = try Self.makeVault()
        let watched = try WatchedVault.started(vault)
        defer { watched.stopAndJoin() }
        let batches = try watched.expectCaughtUp {
            try vault.write("Gamma.md", "# Gamma\nNow [[Alpha]] resolves its link to me. #new\n")
        }
        #expect(!batches.isEmpty)
        #expect(batches.allSatisfy { !$0.walkedVault }, "a new file in a known folder needs no walk: \(watched.describe(batches))")
    }

    @Test func `an edited note is re-indexed without a walk`() throws {
        let vault = try Self.makeVault()
        let watched = try WatchedVault.started(vault)
        defer { watched.stopAndJoin() }
        let batches = try watched.expectCaughtUp {
            try vault.write("Beta.md", "# Beta, edited\nNo longer links back. [[Missing]]\n- [x] done\n")
        }
        #expect(batches.allSatisfy { !$0.walkedVault }, "\(watched.describe(batches))")
        // Editing it again in the same second (same size) is still seen.
        try watched.expectCaughtUp {
            try vault.write("Beta.md", "# Beta, edited\nNo longer links back. [[Mizzing]]\n- [x] done\n")
        }
    }

    @Test(arguments: ["Alpha.md.tmp", ".Alpha.md.tmp-1234", "Alpha.md~"])
    func `an atomic save (a temporary file renamed over the note) is re-indexed`(temporaryName: String) throws {
        let vault = try Self.makeVault()
        let watched = try WatchedVault.started(vault)
        defer { watched.stopAndJoin() }
        let batches = try watched.expectCaughtUp {
            try vault.saveAtomically("Alpha.md", "# Alpha saved atomically\n[[Home]] [[Nowhere]] #saved\n", temporaryName: temporaryName)
        }
        #expect(batches.allSatisfy { !$0.walkedVault }, "\(watched.describe(batches))")
    }

    @Test func `a renamed note moves in the index and links to it are re-resolved`() throws {
        let vault = try Self.makeVault()
        let watched = try WatchedVault.started(vault)
        defer { watched.stopAndJoin() }
        let batches = try watched.expectCaughtUp { try vault.move("Beta.md", to: "Gamma.md") }
        #expect(batches.allSatisfy { !$0.walkedVault }, "\(watched.describe(batches))")
        // Into another existing folder, too.
        try watched.expectCaughtUp { try vault.move("Gamma.md", to: "Projects/Beta.md") }
    }

    @Test func `a deleted note leaves the index`() throws {
        let vault = try Self.makeVault()
        let watched = try WatchedVault.started(vault)
        defer { watched.stopAndJoin() }
        let batches = try watched.expectCaughtUp { try vault.remove("Alpha.md") }
        #expect(batches.allSatisfy { !$0.walkedVault }, "\(watched.describe(batches))")
    }

    @Test func `a moved folder takes its notes along, and they stay watched at the new path`() throws {
        let vault = try Self.makeVault()
        let watched = try WatchedVault.started(vault)
        defer { watched.stopAndJoin() }
        let batches = try watched.expectCaughtUp { try vault.move("Projects", to: "Archive/Projects 2024") }
        #expect(batches.contains { $0.walkedVault }, "a moved folder needs a walk: \(watched.describe(batches))")
        // The moved folder's notes are still watched, at their new paths.
        try watched.expectCaughtUp { try vault.write("Archive/Projects 2024/Sub/Deep.md", "# Deep, moved and edited\n[[Home]]\n") }
        try watched.expectCaughtUp { try vault.write("Archive/Projects 2024/Sub/New.md", "# New in the moved folder\n") }
        // And moving it back works as well.
        try watched.expectCaughtUp { try vault.move("Archive/Projects 2024", to: "Projects") }
        try watched.expectCaughtUp { try vault.write("Projects/Sub/Deep.md", "# Deep, back home\n") }
    }

    @Test func `a folder moved out of the vault and back in is followed`() throws {
        let vault = try Self.makeVault()
        let watched = try WatchedVault.started(vault)
        defer { watched.stopAndJoin() }
        try FileManager.default.createDirectory(at: vault.outside, withIntermediateDirectories: true)
        let away = vault.outside.appendingPathComponent("Projects")
        try watched.expectCaughtUp { try FileManager.default.moveItem(at: vault.url("Projects"), to: away) }
        // Edited while outside: not part of the vault, so nothing to see; then moved back in.
        try Data("# Plan, edited outside\n".utf8).write(to: away.appendingPathComponent("Plan.md"))
        try watched.expectCaughtUp { try FileManager.default.moveItem(at: away, to: vault.url("Returned")) }
        try watched.expectCaughtUp { try vault.write("Returned/Sub/Deep.md", "# Deep, edited after coming back\n") }
    }

    @Test func `a deleted folder removes every note under it`() throws {
        let vault = try Self.makeVault()
        let watched = try WatchedVault.started(vault)
        defer { watched.stopAndJoin() }
        try watched.expectCaughtUp { try vault.remove("Projects") }
        // A folder of the same name created again is watched afresh.
        try watched.expectCaughtUp { try vault.write("Projects/Plan.md", "# Plan, reborn\n") }
        try watched.expectCaughtUp { try vault.write("Projects/Plan.md", "# Plan, reborn and edited\n") }
    }

    @Test func `files created at once inside a new folder are all indexed`() throws {
        let vault = try Self.makeVault()
        let watched = try WatchedVault.started(vault)
        defer { watched.stopAndJoin() }
        let batches = try watched.expectCaughtUp {
            // Faster than the watcher can add a watch on the new folder: only a walk finds the first files.
            let folder = vault.url("Inbox/Today/Deeper")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for index in 0..<20 {
                try Data("# Inbox \(index)\n[[Alpha]] [[Inbox \(index + 1)]]\n".utf8).write(to: folder.appendingPathComponent("Inbox \(index).md"))
            }
            try vault.write("Inbox/Top.md", "# Top\n")
            try vault.write("Inbox/Today/Mid.md", "# Mid\n")
        }
        #expect(batches.contains { $0.walkedVault }, "a new folder needs a walk: \(watched.describe(batches))")
        // Its files are watched from now on.
        try watched.expectCaughtUp { try vault.write("Inbox/Today/Deeper/Inbox 3.md", "# Inbox 3, edited\n") }
    }

    @Test func `a symlinked note is re-indexed when its target outside the vault is edited`() throws {
        let vault = try Self.makeVault()
        let target = try vault.writeOutside("claude/agents/reviewer.md", "---\ntype: agent\n---\n# Reviewer\n[[Alpha]]\n")
        try vault.symlink("ClaudeCode/agents/reviewer.md", to: target.path)
        let watched = try WatchedVault.started(vault)
        defer { watched.stopAndJoin() }
        let batches = try watched.expectCaughtUp {
            try Data("---\ntype: agent\n---\n# Reviewer, edited at its target\n[[Beta]] #reviewed\n".utf8).write(to: target)
        }
        #expect(batches.allSatisfy { !$0.walkedVault }, "\(watched.describe(batches))")
        // Saved atomically at the target (a new inode under the same name).
        try watched.expectCaughtUp {
            let temporary = target.deletingLastPathComponent().appendingPathComponent("reviewer.md.tmp")
            try Data("# Reviewer, saved atomically\n[[Home]]\n".utf8).write(to: temporary)
            #expect(rename(temporary.path, target.path) == 0)
        }
        // The target removed: the symlink is broken; as in a rebuild, its note leaves the index and the
        // broken link is a finding.
        try watched.expectCaughtUp { try FileManager.default.removeItem(at: target) }
        try watched.expectCaughtUp { try Data("# Reviewer, restored\n".utf8).write(to: target) }
    }

    @Test func `a symlink made while watching (as rhizome link does) is followed to its target`() throws {
        let vault = try Self.makeVault()
        let target = try vault.writeOutside("plans/plan-1.md", "# Plan one\n[[Alpha]]\n")
        let watched = try WatchedVault.started(vault)
        defer { watched.stopAndJoin() }
        try watched.expectCaughtUp { try vault.symlink("ClaudeCode/plans/plan-1.md", to: target.path) }
        try watched.expectCaughtUp { try Data("# Plan one, edited at its target\n[[Beta]]\n".utf8).write(to: target) }
        try watched.expectCaughtUp { try vault.remove("ClaudeCode/plans/plan-1.md") }
    }

    @Test func `a symlinked folder follows edits and new files at its target`() throws {
        let vault = try Self.makeVault()
        let first = try vault.writeOutside("shared/First.md", "# First\n[[Alpha]]\n")
        try vault.writeOutside("shared/nested/Second.md", "# Second\n")
        try vault.symlink("Shared", to: vault.outside.appendingPathComponent("shared").path)
        let watched = try WatchedVault.started(vault)
        defer { watched.stopAndJoin() }
        let batches = try watched.expectCaughtUp { try Data("# First, edited at the target\n[[Beta]] #shared\n".utf8).write(to: first) }
        #expect(batches.allSatisfy { !$0.walkedVault }, "\(watched.describe(batches))")
        try watched.expectCaughtUp { try vault.writeOutside("shared/Third.md", "# Third, added at the target\n[[First]]\n") }
        try watched.expectCaughtUp { try vault.writeOutside("shared/nested/Second.md", "# Second, edited in a nested folder\n") }
        try watched.expectCaughtUp { try vault.writeOutside("shared/new folder/Fourth.md", "# Fourth, in a new folder at the target\n") }
        try watched.expectCaughtUp { try FileManager.default.removeItem(at: first) }
        // Through the symlink's own path, too.
        try watched.expectCaughtUp { try vault.write("Shared/Fifth.md", "# Fifth, written through the symlink\n") }
    }

    @Test func `a symlinked folder made while watching is followed`() throws {
        let vault = try Self.makeVault()
        try vault.writeOutside("later/One.md", "# One\n")
        let watched = try WatchedVault.started(vault)
        defer { watched.stopAndJoin() }
        try watched.expectCaughtUp { try vault.symlink("Later", to: vault.outside.appendingPathComponent("later").path) }
        try watched.expectCaughtUp { try vault.writeOutside("later/One.md", "# One, edited at the target\n") }
        try watched.expectCaughtUp { try vault.writeOutside("later/Two.md", "# Two, added at the target\n") }
        try watched.expectCaughtUp { try vault.remove("Later") }
    }

    @Test func `a burst of 1,000 new files is applied in a few batches and all indexed`() throws {
        let vault = try Self.makeVault()
        // The default debounce (20 ms), with room for a busy CI machine that pauses the writing thread.
        let watched = try WatchedVault.started(vault, debounce: .milliseconds(50))
        defer { watched.stopAndJoin() }
        let count = 1_000
        let batches = try watched.expectCaughtUp {
            for index in 0..<count {
                try vault.write("Projects/Note \(index).md", "# Note \(index)\n[[Note \((index + 1) % count)]] [[Alpha]] #burst\n")
            }
        }
        #expect(batches.count <= 10, "1,000 files should be coalesced into a few batches: \(batches.count) (\(watched.describe(batches)))")
        print("burst of \(count) files: \(batches.count) batches: \(watched.describe(batches))")
        #expect(batches.reduce(0) { $0 + $1.report.added } == count, "\(watched.describe(batches))")
        let files = try IndexStore(readOnlyPath: vault.databasePath).readOnlyQuery("SELECT count(*) FROM file WHERE path LIKE 'Projects/Note %'")
        #expect(files.rows.first?.first?.displayText == "\(count)")
    }

    @Test func `editors' swap, backup and probe files are ignored`() throws {
        let vault = try Self.makeVault()
        let watched = try WatchedVault.started(vault)
        defer { watched.stopAndJoin() }
        let start = watched.events.count
        // Each of these, then one real edit: the batches must name the edited note only.
        try vault.write("Alpha.md~", "backup\n")
        try vault.write(".Alpha.md.swp", "swap\n")
        try vault.write("Alpha.md.swp", "swap\n")
        try vault.write("Projects/.Plan.md.swx", "swap\n")
        try vault.write("4913", "")
        try vault.remove("4913")
        try vault.write(".obsidian/workspace.json", "{}\n")
        try watched.expectCaughtUp { try vault.write("Beta.md", "# Beta, the only real change\n") }
        let batches = watched.batches(since: start)
        #expect(batches.reduce(0) { $0 + $1.changedPaths } == 1, "only Beta.md changed: \(watched.describe(batches))")
        #expect(batches.allSatisfy { !$0.walkedVault })
    }

    @Test func `a save as vim makes it (probe file, backup by rename, new file) is one re-index of the note`() throws {
        let vault = try Self.makeVault()
        let watched = try WatchedVault.started(vault)
        defer { watched.stopAndJoin() }
        let batches = try watched.expectCaughtUp {
            try vault.write("4913", "")
            try vault.remove("4913")
            try vault.move("Alpha.md", to: "Alpha.md~")
            try vault.write("Alpha.md", "# Alpha, written by vim\n[[Beta]]\n")
            try vault.remove("Alpha.md~")
        }
        #expect(batches.allSatisfy { !$0.walkedVault }, "\(watched.describe(batches))")
        #expect(batches.allSatisfy { $0.changedPaths == 1 }, "only Alpha.md: \(watched.describe(batches))")
    }

    @Test func `a change to .rhizome/config.yaml walks the whole vault and re-checks notes`() throws {
        let vault = try Self.makeVault()
        // A note of a type the schemas do not know: not checked until the config maps `meeting` to `idea`.
        try vault.write("Meeting.md", "---\ntype: meeting\n---\n# Meeting\n")
        let watched = try WatchedVault.started(vault)
        defer { watched.stopAndJoin() }
        // `.rhizome/` does not exist yet: created while watching.
        var batches = try watched.expectCaughtUp { try vault.write(".rhizome/config.yaml", "version: 1\ntypes:\n  meeting: idea\n") }
        #expect(batches.contains { $0.walkedVault && $0.reason?.contains("configuration") == true }, "\(watched.describe(batches))")
        // Changed again, now that `.rhizome/` is watched.
        batches = try watched.expectCaughtUp { try vault.write(".rhizome/config.yaml", "version: 1\n") }
        #expect(batches.contains { $0.walkedVault && $0.reason?.contains("configuration") == true }, "\(watched.describe(batches))")
        // A schema of the vault's own, in a `.rhizome/schemas/` made while watching.
        batches = try watched.expectCaughtUp {
            try vault.write(".rhizome/schemas/meeting.yaml", """
                version: 1
                type: meeting
                description: A meeting.
                frontmatter:
                  type: object
                  required: [type, attendees]
                  properties:
                    type:
                      type: string
                    attendees:
                      type: array

                """)
        }
        #expect(batches.contains { $0.walkedVault }, "\(watched.describe(batches))")
    }

    /// An index in the vault's top folder makes events of its own (closing the write lock is an
    /// `IN_CLOSE_WRITE` on `index.sqlite.lock`): `VaultWatcher` leaves out `options.index.excludedPaths`,
    /// so they start no batch.
    @Test(arguments: ["index.sqlite", ".rhizome/index.sqlite"])
    func `an index kept inside the vault does not index the watcher's own files or make it loop`(databaseInVault: String) throws {
        let vault = try Self.makeVault()
        try vault.write(".rhizome/config.yaml", "version: 1\n")
        let databasePath = vault.path + "/" + databaseInVault
        var index = IndexOptions()
        index.excludedPaths = IndexLocation.excludedPaths(databasePath: databasePath, vaultPath: vault.path)
        let watched = try WatchedVault(vault, index: index, databasePath: databasePath)
        watched.start()
        defer { watched.stopAndJoin() }
        try watched.waitUntilReady()
        try vault.write("Beta.md", "# Beta, edited\n")
        let expected = try WatchedVault.rebuild(vault, options: index)
        #expect(try watched.pollUntilEqual(expected) == expected)
        // Writing the index makes events in the vault; they must die out rather than feed each other.
        #expect(watched.waitUntilQuiet(0.1, timeout: 1), "the watcher keeps re-indexing its own writes")
        let start = watched.events.count
        Thread.sleep(forTimeInterval: 0.3)
        let batches = watched.batches(since: start)
        #expect(batches.isEmpty, "the watcher keeps re-indexing its own writes: \(batches.count) batches in 0.3 s")
        let indexed = try IndexStore(readOnlyPath: databasePath).readOnlyQuery("SELECT path FROM file WHERE path LIKE '%index.sqlite%'")
        #expect(indexed.rows.isEmpty, "the index's own files are indexed as vault files: \(indexed.rows.map { $0.map(\.displayText) })")
    }
}
