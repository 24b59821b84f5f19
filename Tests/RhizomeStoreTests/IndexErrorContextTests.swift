import Foundation
import Testing
import RhizomeCore
@testable import RhizomeStore
import RhizomeTestSupport

/// A failure deep in an indexing run names the note it was writing, keeps the underlying error's code and
/// exit status, and leaves the index as it was for that note (real SQLite, a real trigger refusing a row).
@Suite struct IndexErrorContextTests {
    @Test func `a write that SQLite refuses names the note being indexed`() throws {
        let vault = try TemporaryVault()
        try vault.write("Fine.md", "# Fine\n[[Other]]\n")
        _ = try vault.index()
        // A row SQLite refuses: the link of one note, by its text (a trigger, as a corrupt or foreign index might).
        try SQLiteWriterForTests(path: vault.databasePath).execute("""
            CREATE TRIGGER refuse_boom BEFORE INSERT ON link WHEN NEW.link_path = 'boom'
            BEGIN SELECT RAISE(ABORT, 'refused by the test trigger'); END;
            """)
        try vault.write("Notes/Boom.md", "# Boom\nSee [[boom]].\n")

        let store = try vault.store()
        let thrown = #expect(throws: ErrorInContext.self) {
            _ = try Indexer(store: store, vaultRoot: vault.path).update(changedPaths: [Array("Notes/Boom.md".utf8)])
        }
        let error = try #require(thrown)
        #expect(error.context == "indexing `Notes/Boom.md`", "a batch of one file names it")
        #expect(error.description.hasPrefix("while indexing `Notes/Boom.md`: SQLite error 1811 (refused by the test trigger)"), "\(error.description)")
        #expect(error.code == "index-sqlite-error" && !error.isUserMistake, "the code and exit status stay SQLite's")
        guard case .sqlite? = error.root as? StoreError else {
            Issue.record("the root is not the SQLite error: \(error.root)")
            return
        }
        // The batch was rolled back: the note keeps the row the structure stage gave it, without content
        // (no size), so the next run reads it again.
        let state = try #require(try store.fileStates(paths: ["Notes/Boom.md"])["Notes/Boom.md"])
        #expect(state.size == nil && state.contentHash == nil)
    }

    @Test func `context nests, and the fix and code pass through`() {
        let inner = StoreError.notIndexed(path: "/tmp/i.sqlite").inContext("opening the index")
        let outer = inner.inContext("answering `backlinks`")
        #expect(outer.description == "while answering `backlinks`: while opening the index: " + StoreError.notIndexed(path: "/tmp/i.sqlite").description)
        #expect(outer.code == "index-missing" && outer.isUserMistake)
        #expect(outer.fix == "Run `rhizome index` first, or drop --no-refresh.")
        #expect((outer.root as? StoreError) == .notIndexed(path: "/tmp/i.sqlite"))
    }
}
