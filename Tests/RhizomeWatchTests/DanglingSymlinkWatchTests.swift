import Foundation
import Testing
import RhizomeCore
import RhizomeStore
import RhizomeTestSupport
import RhizomeWatch

/// A watched vault whose symlinks lose their targets: with real file-system events, the watched index
/// equals a rebuild after every change. A symlink whose target vanished is a `broken-symlink` finding and
/// its note leaves the index (before, it kept its old content and links, and a false `duplicate-id` once
/// the target was moved into the vault); the note is back when the target is.
@Suite(.serialized) struct DanglingSymlinkWatchTests {
    static let project = "---\ntype: project\nid: shared\nstatus: active\n---\n# Shared\n[[Home]] #shared\n"

    @Test func `a symlinked note whose target moves away, into the vault, back, and is deleted and recreated`() throws {
        let vault = try VaultWatcherTests.makeVault()
        try vault.write("Home.md", "# Home\n[[Shared]] [[Alpha]]\n")
        let target = try vault.writeOutside("projects/shared.md", Self.project)
        let away = vault.outside.appendingPathComponent("projects/elsewhere.md")
        try vault.symlink("Shared.md", to: target.path)
        let watched = try WatchedVault.started(vault)
        defer { watched.stopAndJoin() }
        let fileManager = FileManager.default
        try watched.expectCaughtUp { try fileManager.moveItem(at: target, to: away) }
        try Self.expectGone(vault)
        // Into the vault: one note with the id, not two.
        try watched.expectCaughtUp {
            try fileManager.createDirectory(at: vault.url("Moved"), withIntermediateDirectories: true)
            try fileManager.moveItem(at: away, to: vault.url("Moved/shared.md"))
        }
        let duplicates = try IndexStore(readOnlyPath: vault.databasePath).readOnlyQuery("SELECT path FROM findings WHERE code = 'duplicate-id'").rows
        #expect(duplicates.isEmpty, "a false duplicate-id: \(duplicates)")
        // Out of the vault, back to where the link leads: the symlinked note is back.
        try watched.expectCaughtUp { try fileManager.moveItem(at: vault.url("Moved/shared.md"), to: target) }
        #expect(try IndexStore(readOnlyPath: vault.databasePath).resolveNote("Shared")?.path == "Shared.md")
        try watched.expectCaughtUp { try fileManager.removeItem(at: target) }
        try Self.expectGone(vault)
        try watched.expectCaughtUp { try Data((Self.project + "recreated\n").utf8).write(to: target) }
        try watched.expectCaughtUp { try Data((Self.project + "edited\n").utf8).write(to: target) }
    }

    @Test func `a symlinked folder whose target moves away and back`() throws {
        let vault = try VaultWatcherTests.makeVault()
        try vault.writeOutside("shelf/Book.md", "# Book\n[[Alpha]]\n")
        try vault.writeOutside("shelf/Deep/Chapter.md", "# Chapter\n[[Book]]\n")
        let shelf = vault.outside.appendingPathComponent("shelf")
        let away = vault.outside.appendingPathComponent("shelf-away")
        try vault.symlink("Shelf", to: shelf.path)
        let watched = try WatchedVault.started(vault)
        defer { watched.stopAndJoin() }
        try watched.expectCaughtUp { try FileManager.default.moveItem(at: shelf, to: away) }
        let under = try IndexStore(readOnlyPath: vault.databasePath).readOnlyQuery("SELECT path FROM files WHERE path LIKE 'Shelf/%'").rows
        #expect(under.isEmpty, "notes under the dangling folder symlink were kept: \(under)")
        try watched.expectCaughtUp { try FileManager.default.moveItem(at: away, to: shelf) }
        try watched.expectCaughtUp { try vault.writeOutside("shelf/Deep/Chapter.md", "# Chapter, edited once back\n[[Beta]]\n") }
    }

    /// `Shared.md` is not indexed, and is a broken-symlink finding.
    static func expectGone(_ vault: TemporaryVault, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let store = try IndexStore(readOnlyPath: vault.databasePath)
        #expect(try store.readOnlyQuery("SELECT 1 FROM files WHERE path = 'Shared.md'").rows.isEmpty, sourceLocation: sourceLocation)
        #expect(try store.readOnlyQuery("SELECT 1 FROM findings WHERE path = 'Shared.md' AND code = 'broken-symlink'").rows.count == 1,
                sourceLocation: sourceLocation)
    }
}
