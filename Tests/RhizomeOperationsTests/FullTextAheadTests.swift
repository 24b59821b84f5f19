import Foundation
import Testing
import RhizomeCore
import RhizomeStore
import RhizomeOperations
import RhizomeTestSupport

/// Full text written ahead of a change (`IndexStore.writeFullTextAhead`, which `VaultEditor.apply` runs
/// while the journal writes the files): whatever happens to the change, the index ends as a rebuild of
/// the vault would be, full text included.
@Suite struct FullTextAheadTests {
    /// A hub note and `count` notes linking to it, with text of their own.
    func hubVault(count: Int = 20) throws -> TemporaryVault {
        let vault = try TemporaryVault()
        try vault.write("Hub.md", "# Hub\n")
        for index in 0..<count {
            try vault.write("Notes/Note \(index).md", "---\ntags: [n]\n---\n# Note \(index)\n\nWords zebra\(index) and [[Hub]] here.\n")
        }
        _ = try vault.index()
        return vault
    }

    func expectIndexEqualsRebuild(_ vault: TemporaryVault, _ context: Comment) throws {
        let fresh = vault.scratchDatabasePath()
        _ = try vault.index(database: fresh)
        let incremental = try vault.store().canonicalDump(), rebuilt = try vault.store(database: fresh).canonicalDump()
        #expect(incremental == rebuilt, context)
    }

    @Test func aRenamedHubsBacklinksAreSearchableByTheirNewTextAsARebuildHasThem() throws {
        let vault = try hubVault()
        let store = try vault.store()
        let editor = try VaultEditor(vaultPath: vault.path, databasePath: vault.databasePath, store: store)
        try editor.apply(try editor.planMove("Hub", to: "Archive/Central"))
        #expect(try vault.read("Notes/Note 3.md").contains("[[Central]]"))
        #expect(try store.search("Central", limit: 50).count == 21, "the hub by its title and 20 notes by their rewritten links")
        #expect(try store.search("zebra3").map(\.path) == ["Notes/Note 3.md"])
        try expectIndexEqualsRebuild(vault, "after the move")
    }

    @Test func fullTextWrittenForAChangeThatNeverHappenedIsReplacedByWhatTheFilesHold() throws {
        let vault = try hubVault(count: 3)
        let store = try vault.store()
        let before = try vault.read("Notes/Note 1.md")
        let rewrite = IndexStore.PlannedRewrite(
            path: "Notes/Note 1.md", before: Array(before.utf8), after: Array(before.replacingOccurrences(of: "[[Hub]]", with: "[[Elsewhere]]").utf8))
        #expect(try store.writeFullTextAhead(of: [rewrite], options: IndexOptions()) == 1)
        #expect(try store.search("Elsewhere").map(\.path) == ["Notes/Note 1.md"], "written ahead")
        // The process was killed before the journal wrote the file: the next run reads it again.
        let report = try Indexer(store: store, vaultRoot: vault.path).run()
        #expect(report.modified == 1)
        #expect(try store.search("Elsewhere").isEmpty)
        try expectIndexEqualsRebuild(vault, "after the run that followed")
    }

    @Test func aRunThatIndexesTheOldFileBetweenWriteAheadAndChangeLeavesNothingStale() throws {
        let vault = try hubVault(count: 3)
        let store = try vault.store()
        let before = try vault.read("Notes/Note 2.md")
        let after = before.replacingOccurrences(of: "[[Hub]]", with: "[[Elsewhere]]")
        try store.writeFullTextAhead(of: [IndexStore.PlannedRewrite(path: "Notes/Note 2.md", before: Array(before.utf8), after: Array(after.utf8))], options: IndexOptions())
        // A watcher's run, with the file still as it was: the full text is the old text again.
        _ = try Indexer(store: store, vaultRoot: vault.path).update(changedPaths: [Array("Notes/Note 2.md".utf8)])
        #expect(try store.search("Elsewhere").isEmpty)
        // Then the file changes as planned: its new text is written in full, not taken as written ahead.
        try vault.write("Notes/Note 2.md", after)
        _ = try Indexer(store: store, vaultRoot: vault.path).update(changedPaths: [Array("Notes/Note 2.md".utf8)])
        #expect(try store.search("Elsewhere").map(\.path) == ["Notes/Note 2.md"])
        try expectIndexEqualsRebuild(vault, "after both runs")
    }

    @Test func aMoveThatFailsBecauseAFileChangedLeavesTheIndexAsTheFilesAre() throws {
        let vault = try hubVault(count: 5)
        let store = try vault.store()
        let editor = try VaultEditor(vaultPath: vault.path, databasePath: vault.databasePath, store: store)
        let plan = try editor.planMove("Hub", to: "Central")
        // Someone edits one of the notes the plan rewrites, after the plan was made.
        try vault.write("Notes/Note 4.md", "# Note 4\n\nRewritten by hand, [[Hub]] still.\n")
        #expect(throws: EditError.self) { try editor.apply(plan) }
        #expect(FileManager.default.fileExists(atPath: vault.url("Hub.md").path), "the journal reversed the move")
        #expect(try store.search("Central").isEmpty)
        try expectIndexEqualsRebuild(vault, "after the failed move")
    }

    @Test func notesWhoseFrontmatterChangesAreLeftToTheReindex() throws {
        let vault = try TemporaryVault()
        try vault.write("Hub.md", "# Hub\n")
        try vault.write("Body.md", "See [[Hub]].\n")
        try vault.write("Property.md", "---\naliases: [Prop]\nup: \"[[Hub]]\"\n---\nSee [[Hub]].\n")
        _ = try vault.index()
        let store = try vault.store()
        let rewrites = try ["Body.md", "Property.md"].map { path in
            let text = try vault.read(path)
            return IndexStore.PlannedRewrite(path: path, before: Array(text.utf8), after: Array(text.replacingOccurrences(of: "[[Hub]]", with: "[[Central]]").utf8))
        }
        #expect(try store.writeFullTextAhead(of: rewrites, options: IndexOptions()) == 1, "only the note whose frontmatter stays")
        let editor = try VaultEditor(vaultPath: vault.path, databasePath: vault.databasePath, store: store)
        try editor.apply(try editor.planMove("Hub", to: "Central"))
        #expect(Set(try store.search("Central").map(\.path)) == ["Body.md", "Central.md", "Property.md"])
        try expectIndexEqualsRebuild(vault, "after the move")
    }
}
