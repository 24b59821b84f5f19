import Foundation
import Testing
import RhizomeCore
import RhizomeStore
import RhizomeTestSupport
import RhizomeWatch

/// The watcher with folder symlinks, schemas kept in the vault, NFD names and a never-indexed vault: each
/// scenario ends equal to a full rebuild.
@Suite(.serialized) struct VaultWatcherSymlinkAndNameTests {
    @Test func `a symlink to a folder inside the vault does not take the real folder's place`() throws {
        let vault = try VaultWatcherTests.makeVault()
        // `Link` → `Projects`: the walk keeps `Projects/…` and reports the symlink as a loop, whatever order
        // the folder lists them in. Several names make both orders likely.
        for name in ["A-link", "Zz-link", "m-link"] { try vault.symlink(name, to: "Projects") }
        let watched = try WatchedVault.started(vault)
        defer { watched.stopAndJoin() }
        try watched.expectCaughtUp { try vault.write("Projects/Plan.md", "# Plan, edited at its real path\n[[Beta]]\n") }
        try watched.expectCaughtUp { try vault.write("Projects/New.md", "# New in the real folder\n") }
        // Made while watching, too.
        try watched.expectCaughtUp { try vault.symlink("Later-link", to: "Projects/Sub") }
        try watched.expectCaughtUp { try vault.write("Projects/Sub/Deep.md", "# Deep, edited after a symlink to its folder appeared\n") }
    }

    @Test func `a symlinked folder whose target is replaced by a new folder is watched again`() throws {
        let vault = try VaultWatcherTests.makeVault()
        try vault.writeOutside("skills/one/SKILL.md", "# One\n")
        let target = vault.outside.appendingPathComponent("skills/one")
        try vault.symlink("Skills/one", to: target.path)
        let watched = try WatchedVault.started(vault)
        defer { watched.stopAndJoin() }
        // A tool that regenerates the folder: moves the old one away, makes a new one.
        try watched.expectCaughtUp {
            try FileManager.default.moveItem(at: target, to: vault.outside.appendingPathComponent("skills/one.old"))
            try vault.writeOutside("skills/one/SKILL.md", "# One, regenerated\n")
        }
        // Once intermittent under heavy load: when the watcher looked at the link before the new folder existed, it
        // watched the folder above for it, and a folder made between that look and that watch made no event, so it
        // was never watched. The target is now looked at again once the watch above it is set.
        try watched.expectCaughtUp { try vault.writeOutside("skills/one/extra.md", "# Written into the new folder later\n[[Alpha]]\n") }
    }

    /// The same, many times over, each target in a folder not watched yet: the regenerated folder must be
    /// watched whichever way its creation and the watcher's look at the link interleave. Before the fix, 4
    /// of 240 rounds lost the watch (the file written into the new folder later was never seen).
    @Test func `a symlinked folder regenerated in a folder not watched yet is watched, round after round`() throws {
        let vault = try VaultWatcherTests.makeVault()
        let watched = try WatchedVault.started(vault)
        defer { watched.stopAndJoin() }
        let reader = try IndexStore(readOnlyPath: vault.databasePath)
        func isIndexed(_ path: String, within seconds: TimeInterval) throws -> Bool {
            let limit = Date() + seconds
            repeat {
                if try reader.readOnlyQuery("SELECT 1 FROM files WHERE path = '\(path)'").rows.count == 1 { return true }
                Thread.sleep(forTimeInterval: 0.003)
            } while Date() < limit
            return false
        }
        var missed: [Int] = []
        for round in 0..<40 {
            try vault.writeOutside("skills \(round)/one/SKILL.md", "# One\n")
            let target = vault.outside.appendingPathComponent("skills \(round)/one")
            try vault.symlink("Skills/\(round)", to: target.path)
            try #require(try isIndexed("Skills/\(round)/SKILL.md", within: WatchedVault.deadline))
            try FileManager.default.moveItem(at: target, to: vault.outside.appendingPathComponent("skills \(round)/one.old"))
            try vault.writeOutside("skills \(round)/one/Regenerated.md", "# Regenerated\n")
            try #require(try isIndexed("Skills/\(round)/Regenerated.md", within: WatchedVault.deadline))
            try vault.writeOutside("skills \(round)/one/Later.md", "# Written into the new folder later\n")
            if try !isIndexed("Skills/\(round)/Later.md", within: 3) { missed.append(round) }
        }
        #expect(missed.isEmpty, "the regenerated folder was not watched in rounds \(missed)")
    }

    @Test func `a folder symlink whose target disappears loses what was under it, as a rebuild does`() throws {
        let vault = try VaultWatcherTests.makeVault()
        try vault.writeOutside("shared/Kept.md", "# Kept\n[[Alpha]]\n")
        try vault.symlink("Shared", to: vault.outside.appendingPathComponent("shared").path)
        let watched = try WatchedVault.started(vault)
        defer { watched.stopAndJoin() }
        // A dangling folder symlink leads nowhere: the notes under it leave the index, as in a rebuild.
        try watched.expectCaughtUp {
            try FileManager.default.removeItem(at: vault.outside.appendingPathComponent("shared"))
        }
        let paths = try IndexStore(readOnlyPath: vault.databasePath).readOnlyQuery("SELECT path FROM files WHERE path LIKE 'Shared/%'").rows
        #expect(paths.isEmpty, "the note under the broken symlink was kept")
        // The target comes back (the drive is mounted again), with a new note: both are seen.
        try watched.expectCaughtUp {
            try vault.writeOutside("shared/Kept.md", "# Kept, back\n")
            try vault.writeOutside("shared/New.md", "# New beside it\n[[Beta]]\n")
        }
        try watched.expectCaughtUp { try vault.writeOutside("shared/New.md", "# New, edited once watched again\n") }
    }

    @Test func `editing a schema kept in a vault folder re-checks the notes`() throws {
        let vault = try VaultWatcherTests.makeVault()
        try vault.write(".rhizome/config.yaml", "version: 1\nschemas: Meta/schemas\n")
        try vault.write("Meta/schemas/memo.yaml", """
            type: memo
            description: A short memo.
            frontmatter:
              type: object
              properties:
                status: { type: string }
            """)
        try vault.write("Memo.md", "---\ntype: memo\n---\n# Memo\n")
        let watched = try WatchedVault.started(vault)
        defer { watched.stopAndJoin() }
        let batches = try watched.expectCaughtUp {
            try vault.write("Meta/schemas/memo.yaml", """
                type: memo
                description: A short memo.
                frontmatter:
                  type: object
                  required: [status]
                  properties:
                    status: { type: string }
                """)
        }
        #expect(batches.contains { $0.walkedVault }, "a schema change must walk: \(watched.describe(batches))")
        let findings = try IndexStore(readOnlyPath: vault.databasePath).readOnlyQuery("SELECT code FROM findings WHERE path = 'Memo.md'").rows
        #expect(findings.contains { $0.first?.displayText == "missing-required" }, "\(findings)")
    }

    @Test func `a name written in NFD beside its NFC twin is reported as the walk reports it`() throws {
        let vault = try VaultWatcherTests.makeVault()
        try vault.write("Caf\u{E9}.md", "# Café in NFC\n")
        let watched = try WatchedVault.started(vault)
        defer { watched.stopAndJoin() }
        try watched.expectCaughtUp { try vault.write("Cafe\u{301}.md", "# Café in NFD\n[[Alpha]]\n") }
    }

    @Test func `a vault never indexed before can be watched (the index folder is created)`() throws {
        let vault = try VaultWatcherTests.makeVault()
        let database = vault.outside.appendingPathComponent("cache/rhizome/fresh-vault/index.sqlite").path
        #expect(!FileManager.default.fileExists(atPath: (database as NSString).deletingLastPathComponent))
        let watched = try WatchedVault(vault, databasePath: database)
        watched.start()
        defer { watched.stopAndJoin() }
        let report = try watched.waitUntilReady()
        #expect(report.notes == 5)
    }
}
