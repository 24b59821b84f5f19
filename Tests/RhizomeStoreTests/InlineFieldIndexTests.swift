import Foundation
import Testing
import RhizomeCore
import RhizomeStore
import RhizomeTestSupport

/// Dataview inline fields in the index: the `inline_fields` view, incremental updates, the bulk path's
/// secondary indexes, and an index from before the `inline_field` table.
@Suite struct InlineFieldIndexTests {
    private static let fieldsQuery = """
        SELECT path, key, field_key, value, syntax, line, "column" FROM inline_fields ORDER BY path, line, "column"
        """

    private func rows(_ store: IndexStore) throws -> [String] {
        try store.readOnlyQuery(Self.fieldsQuery).rows.map { $0.map(\.displayText).joined(separator: " | ") }
    }

    private func writeBook(_ vault: TemporaryVault) throws {
        try vault.write("Books/Dune.md", """
            ---
            author: Frank Herbert
            ---
            # Dune
            Book Rating:: 9
            I read it in a week [mood:: gripped] (source:: [[Library]]).
            - [ ] lend it to Ann [due:: Friday]
            - **Shelf**:: fiction
            `code:: hidden`
            """)
    }

    @Test func `the inline_fields view lists the page's fields with canonical keys and positions`() throws {
        let vault = try TemporaryVault()
        try writeBook(vault)
        try vault.write("Plain.md", "no fields here: none\n")
        try vault.index()
        #expect(try rows(vault.store()) == [
            "Books/Dune.md | Book Rating | book-rating | 9 | full-line | 5 | 1",
            "Books/Dune.md | mood | mood | gripped | bracket | 6 | 21",
            "Books/Dune.md | source | source | [[Library]] | parenthesis | 6 | 38",
            "Books/Dune.md | Shelf | shelf | fiction | full-line | 8 | 5",
        ])
    }

    @Test func `an edit replaces a note's fields and removing them or the note removes its rows`() throws {
        let vault = try TemporaryVault()
        try writeBook(vault)
        try vault.write("Other.md", "status:: open\n")
        let indexer = Indexer(store: try vault.store(), vaultRoot: vault.path)
        _ = try indexer.run()

        try vault.write("Books/Dune.md", "Book Rating:: 10\n[Status:: reread]\n")
        var report = try indexer.update(changedPaths: [Array("Books/Dune.md".utf8)])
        #expect(!report.walkedVault)
        #expect(try rows(vault.store()) == [
            "Books/Dune.md | Book Rating | book-rating | 10 | full-line | 1 | 1",
            "Books/Dune.md | Status | status | reread | bracket | 2 | 1",
            "Other.md | status | status | open | full-line | 1 | 1",
        ])

        try vault.write("Books/Dune.md", "No fields any more.\n")
        report = try indexer.update(changedPaths: [Array("Books/Dune.md".utf8)])
        #expect(!report.walkedVault)
        #expect(try rows(vault.store()) == ["Other.md | status | status | open | full-line | 1 | 1"])

        try vault.remove("Other.md")
        _ = try indexer.update(changedPaths: [Array("Other.md".utf8)])
        #expect(try rows(vault.store()).isEmpty)
    }

    @Test func `a bulk first index builds the inline field indexes and a rebuild gives the same rows`() throws {
        let vault = try TemporaryVault()
        for number in 0..<12 { try vault.write("Note \(number).md", "n:: \(number)\n") }
        var options = IndexOptions()
        options.bulkLoadMinimumFiles = 10
        try vault.index(options: options)
        let store = try vault.store()
        let indexes = try store.readOnlyQuery("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'inline_field' ORDER BY name")
        // A note's fields are found by their ids (`FileRows`), without an index on the file.
        #expect(indexes.rows.map { $0.map(\.displayText) } == [["inline_field_key"]])
        #expect(try rows(store).count == 12)
        let scratch = vault.scratchDatabasePath()
        try vault.index(database: scratch)
        #expect(try vault.store(database: scratch).canonicalDump() == store.canonicalDump())
    }

    @Test func `an index from before inline fields is migrated and every note is read again`() throws {
        let vault = try TemporaryVault()
        try writeBook(vault)
        try vault.index()
        // Put the database back in the state the previous release left it in: schema 2, parser version 3.
        let writer = try SQLiteWriterForTests(path: vault.databasePath)
        try writer.execute("""
            DROP VIEW inline_fields; DROP TABLE inline_field;
            DROP INDEX file_dataview_tags; ALTER TABLE file DROP COLUMN dataview_tags; PRAGMA user_version = 2;
            UPDATE meta SET value = '3' WHERE key = 'parser_version';
            """)
        // Schema 4 keys the per-file tables anew and starts the index over: the note is read again.
        let report = try vault.index()
        #expect(report.added == 1)
        #expect(try rows(vault.store()).count == 4)
    }
}
