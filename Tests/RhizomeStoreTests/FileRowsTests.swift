import Foundation
import Testing
import RhizomeCore
@testable import RhizomeStore
import RhizomeTestSupport

/// The per-file tables keyed by file and position (`FileRows`): a note's rows are one key range, found
/// without an index; they leave with their note; and an index from before this layout is started over.
@Suite struct FileRowsTests {
    /// Notes with a row in every per-file table: links, tags, headings, blocks, tasks, aliases, properties,
    /// inline fields, and (through the built-in schemas) reference values and reference edges.
    private func makeVault() throws -> TemporaryVault {
        let vault = try TemporaryVault()
        try vault.write("Projects/Rhizome.md", "---\ntype: project\nid: rhizome\nstatus: active\naliases: [Rh]\n---\n# Rhizome\nSee [[Launch]] #tool\n")
        try vault.write("Plans/Launch.md", """
            ---
            type: plan
            status: draft
            project: rhizome
            aliases: [Go live]
            tags: [launch]
            ---
            # Launch
            A [[Missing note]], [markdown](../Notes.md) and #plan/next.
            owner:: Ana
            - [ ] book the room
            - [x] write the plan ^done-block

            """)
        try vault.write("Notes.md", "Plain notes, linking [[Rhizome]] and [[Launch#Launch]].\n- [ ] one task\n")
        return vault
    }

    private func rowCounts(_ store: IndexStore, file: Int64) throws -> [String: Int64] {
        var counts: [String: Int64] = [:]
        for (table, column) in IndexSchema.fileRowTables {
            let result = try store.readOnlyQuery("SELECT count(*) FROM \(table) WHERE \(column) = \(file)")
            counts[table] = Int64(result.rows.first?.first?.displayText ?? "") ?? -1
        }
        return counts
    }

    @Test func `every row's id is its file and position, in the order the note holds them`() throws {
        let vault = try makeVault()
        try vault.index()
        let store = try vault.store()
        let plan = try #require(try store.resolveNote("Plans/Launch"))
        let counts = try rowCounts(store, file: plan.id)
        // The plan has a row in every table (the reference value `project: rhizome` included).
        for (table, _) in IndexSchema.fileRowTables {
            #expect((counts[table] ?? 0) > 0, "\(table)")
        }
        for (table, column) in IndexSchema.fileRowTables {
            let stray = try store.readOnlyQuery("SELECT count(*) FROM \(table) WHERE id >> 32 != \(column)")
            #expect(stray.rows.first?.first?.displayText == "0", "\(table)")
        }
        // Positions follow the note: links by id are in the order written, the reference edge last.
        let links = try store.readOnlyQuery("SELECT id & 4294967295, link_path, via_reference FROM link WHERE source_id = \(plan.id) ORDER BY id")
        #expect(links.rows.map { $0.map(\.displayText).joined(separator: " ") } == [
            "0 Missing note 0", "1 ../Notes.md 0", "\(VaultChecks.firstEdgeOrdinal) rhizome 1",
        ])
        #expect(try store.outgoingLinks(of: plan.id).map(\.linkPath) == ["Missing note", "../Notes.md", "rhizome"])
    }

    @Test func `a deleted or renamed note leaves no row behind, and the other notes keep theirs`() throws {
        let vault = try makeVault()
        try vault.index()
        var store = try vault.store()
        let plan = try #require(try store.resolveNote("Plans/Launch"))
        let project = try #require(try store.resolveNote("Projects/Rhizome"))
        let projectRows = try rowCounts(store, file: project.id)

        try vault.remove("Plans/Launch.md")
        try vault.move("Notes.md", to: "Archive/Notes.md")
        try vault.index()
        store = try vault.store()
        #expect(try rowCounts(store, file: plan.id).values.allSatisfy { $0 == 0 })
        #expect(try rowCounts(store, file: project.id).filter { $0.key != "reference_value" } == projectRows.filter { $0.key != "reference_value" })
        // Nothing stray anywhere, and the result is what a fresh index of the vault gives.
        let scratch = vault.scratchDatabasePath()
        try vault.index(database: scratch)
        #expect(try store.canonicalDump() == vault.store(database: scratch).canonicalDump())
        #expect(try store.canonicalDump().filter { $0.hasPrefix("stray") }.allSatisfy { $0.hasSuffix("| 0") })
    }

    @Test(arguments: [
        "SELECT level, text FROM heading WHERE id BETWEEN ? AND ? ORDER BY id",
        "SELECT 1 FROM link l JOIN file f ON f.id = ? WHERE \(FileRows.of("f.id", in: "l"))",
        "SELECT 1 FROM file f WHERE NOT EXISTS (SELECT 1 FROM link l WHERE \(FileRows.of("f.id", in: "l")) AND l.via_reference = 0) AND f.id = ?",
        "SELECT t.name FROM json_each(?) j JOIN tag t ON \(FileRows.of("j.value", in: "t")) ORDER BY t.id",
    ])
    func `a note's rows are searched by key range, never by scanning the table`(sql: String) throws {
        let vault = try makeVault()
        try vault.index()
        let connection = try SQLiteConnection(path: vault.databasePath, mode: .readOnly)
        let plan = try connection.prepare("EXPLAIN QUERY PLAN " + sql)
        var details: [String] = []
        while try plan.step() { details.append(plan.text(3)) }
        let touchingFileRows = details.filter { $0.contains(" l ") || $0.contains(" t ") || $0.contains("heading") }
        #expect(!touchingFileRows.isEmpty, "\(details)")
        for detail in touchingFileRows {
            #expect(detail.contains("INTEGER PRIMARY KEY (rowid>? AND rowid<?)"), "\(detail)")
        }
    }

    @Test func `an index written with schema 3 is started over and then equals a fresh index`() throws {
        let vault = try makeVault()
        // What the previous release left: its schema (migrations 1 to 3), a file and its rows, and a run
        // recorded as complete with the current parser, so that nothing but the migration can cause a re-read.
        let old = try SQLiteConnection(path: vault.databasePath)
        for migration in IndexSchema.migrations.prefix(3) { try old.execute(migration) }
        try old.execute("""
            PRAGMA user_version = 3;
            INSERT INTO meta(key, value) VALUES ('parser_version', '\(IndexSchema.parserVersion)'), ('last_indexed_at', '2026-11-01T00:00:00Z');
            INSERT INTO file(id, path, name, folder, extension, kind, resolve_key, size, mtime_ns, content_hash)
                VALUES (1, 'Notes.md', 'Notes', '', 'md', 'note', 'notes', 1, 1, 'old');
            INSERT INTO link(source_id, ordinal, kind, link_path, link_key, line, col) VALUES (1, 0, 'wikilink', 'Gone', 'gone', 1, 1);
            INSERT INTO tag(file_id, ordinal, name, name_key, from_frontmatter, line, col) VALUES (1, 0, 'old', 'old', 0, 1, 1);
            """)
        let report = try vault.index()
        #expect(report.added == 3)
        #expect(report.modified == 0)
        let store = try vault.store()
        let version = try SQLiteConnection(path: vault.databasePath, mode: .readOnly).prepare("PRAGMA user_version")
        #expect(try version.step() && version.int(0) == Int64(IndexSchema.version))
        #expect(try store.readOnlyQuery("SELECT count(*) FROM links WHERE link_path = 'Gone'").rows.first?.first?.displayText == "0")
        let scratch = vault.scratchDatabasePath()
        try vault.index(database: scratch)
        #expect(try store.canonicalDump() == vault.store(database: scratch).canonicalDump())
    }
}

/// Links are found by index, never by a scan of every link: by target (backlinks, and re-resolution of
/// resolved links, whose target shares their key) and, among the unresolved links alone, by key.
@Suite struct LinkIndexPlanTests {
    @Test(arguments: [
        ("SELECT source_id FROM link WHERE target_id = 7", ["link_target (target_id=?)"]),
        ("SELECT source_id FROM link WHERE target_id IS NULL AND link_key = 'x'", ["link_unresolved_key (link_key=?)"]),
        ("SELECT id FROM link WHERE target_id IS NULL ORDER BY link_key", ["link_unresolved_key"]),
        ("""
         SELECT l.id FROM link l WHERE (l.target_id IS NULL AND l.link_key IN (SELECT link_key FROM pending_resolve))
            OR (l.target_id IN (SELECT t.id FROM file t JOIN pending_resolve p ON t.resolve_key = p.link_key) AND l.via_reference = 0)
         """, ["link_unresolved_key (link_key=?)", "link_target (target_id=?)"]),
        ("DELETE FROM link WHERE via_reference = 1", ["link_reference"]),
    ])
    func `link lookups search an index, never scan the links`(sql: String, expected: [String]) throws {
        let vault = try TemporaryVault()
        try vault.write("A.md", "[[B]] [[Missing]]\n")
        try vault.write("B.md", "[[A]]\n")
        try vault.index()
        let connection = try SQLiteConnection(path: vault.databasePath, mode: .readOnly)
        let plan = try connection.prepare("EXPLAIN QUERY PLAN " + sql)
        var details: [String] = []
        while try plan.step() { details.append(plan.text(3)) }
        let onLinks = details.filter { $0.contains("link") && !$0.contains("LIST SUBQUERY") }
        #expect(!onLinks.isEmpty, "\(details)")
        #expect(onLinks.allSatisfy { !$0.hasPrefix("SCAN") || $0.contains("USING INDEX link_unresolved_key") }, "\(details)")
        for part in expected { #expect(details.contains { $0.contains(part) }, "\(part): \(details)") }
    }

    @Test func `an index written with schema 4 loses its index by target and key, gains the two, and keeps what it holds`() throws {
        let vault = try TemporaryVault()
        try vault.write("A.md", "[[B]] [[Missing]]\n")
        try vault.write("B.md", "[[A]]\n")
        try vault.index()
        let before = try vault.store().canonicalDump()
        // Back to what schema 4 left: its index by (target, key) instead of the two, no `dataview_tags` (6),
        // no task parents and continued text (7).
        let old = try SQLiteConnection(path: vault.databasePath)
        try old.execute("""
            DROP INDEX link_target; DROP INDEX link_unresolved_key;
            CREATE INDEX link_target_key ON link(target_id, link_key);
            DROP INDEX file_dataview_tags; ALTER TABLE file DROP COLUMN dataview_tags;
            ALTER TABLE task DROP COLUMN parent_line; ALTER TABLE task DROP COLUMN continued_text;
            PRAGMA user_version = 4;
            """)
        let report = try vault.index()
        #expect(report.added == 0 && report.modified == 0 && report.removed == 0)
        let names = try SQLiteConnection(path: vault.databasePath, mode: .readOnly).prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'link' ORDER BY name")
        var indexes: [String] = []
        while try names.step() { indexes.append(names.text(0)) }
        #expect(indexes == ["link_property", "link_reference", "link_target", "link_unresolved_key"])
        #expect(try vault.store().canonicalDump() == before)
    }

    @Test func `an index written with schema 6 gains its tasks' parents and continued text on the next run`() throws {
        let vault = try TemporaryVault()
        try vault.write("Plan.md", "- [ ] ship\n  with notes\n  - [x] tests\n- [ ] later\n")
        try vault.index()
        let current = try vault.store().canonicalDump()
        let old = try SQLiteConnection(path: vault.databasePath)
        try old.execute("""
            ALTER TABLE task DROP COLUMN parent_line; ALTER TABLE task DROP COLUMN continued_text;
            UPDATE meta SET value = '7' WHERE key = 'parser_version';
            PRAGMA user_version = 6;
            """)
        let report = try vault.index()
        #expect(report.modified == 1, "parser version 8 re-reads every file")
        #expect(try vault.store().canonicalDump() == current)
        let task = try SQLiteConnection(path: vault.databasePath, mode: .readOnly)
            .prepare("SELECT line, coalesce(parent_line, 0), coalesce(continued_text, '') FROM task ORDER BY id")
            .rows { "\($0.int(0)) \($0.int(1)) \($0.text(2))" }
        #expect(task == ["1 0 ship\nwith notes", "3 1 ", "4 0 "])
    }
}

#if os(Linux)
/// A file that cannot be read (here a link to `/proc/self/mem`, whose first read fails with EIO whoever
/// reads it) is reported, is a node of the graph, and is read again by the next run.
@Suite struct UnreadableFileTests {
    private func makeVault() throws -> TemporaryVault {
        let vault = try TemporaryVault()
        for number in 0..<12 { try vault.write("Note \(number).md", "[[Note \((number + 1) % 12)]] [[Mem]]\n") }
        return vault
    }

    @Test(arguments: [true, false])
    func `a first index reports a file it cannot read, keeps it as a node, and the next run tries it again`(bulk: Bool) throws {
        let vault = try makeVault()
        try vault.symlink("Mem.md", to: "/proc/self/mem")
        var options = IndexOptions()
        options.bulkLoadMinimumFiles = bulk ? 10 : .max
        let report = try vault.index(options: options)
        #expect(report.findings.contains { $0.code == .unreadableFile && $0.path == "Mem.md" }, "\(report.findings.map(\.diagnosticDescription))")
        let store = try vault.store()
        let mem = try #require(try store.resolveNote("Mem"))
        #expect(try store.backlinks(of: mem.id).count == 12)
        // Its size and time are not recorded: the next run reads it again, and reports it again.
        let again = try vault.index(options: options)
        #expect(again.findings.contains { $0.code == .unreadableFile && $0.path == "Mem.md" })
        let scratch = vault.scratchDatabasePath()
        try vault.index(database: scratch, options: options)
        #expect(try vault.store().canonicalDump() == vault.store(database: scratch).canonicalDump())
    }

    @Test func `a note that becomes unreadable keeps what was indexed about it`() throws {
        let vault = try makeVault()
        try vault.write("Mem.md", "# Memory\nSee [[Note 1]] #kept\n")
        try vault.index()
        let before = try vault.store().readOnlyQuery("SELECT link_path FROM links WHERE source = 'Mem.md'").rows.map { $0.map(\.displayText) }
        #expect(before == [["Note 1"]])
        try vault.remove("Mem.md")
        try vault.symlink("Mem.md", to: "/proc/self/mem")
        let report = try vault.index()
        #expect(report.findings.contains { $0.code == .unreadableFile && $0.path == "Mem.md" })
        let store = try vault.store()
        #expect(try store.readOnlyQuery("SELECT link_path FROM links WHERE source = 'Mem.md'").rows.map { $0.map(\.displayText) } == before)
        #expect(try store.readOnlyQuery("SELECT tag FROM tags WHERE path = 'Mem.md'").rows.map { $0.map(\.displayText) } == [["kept"]])
    }
}
#endif

/// A first index writes its files batch by batch and is marked unfinished until the last batch is in:
/// what a run killed part-way leaves is started over by the next run, whether it walks the vault or is a
/// watcher's update of a few paths.
@Suite struct UnfinishedFirstIndexTests {
    private func makeVault() throws -> TemporaryVault {
        let vault = try TemporaryVault()
        for number in 0..<40 { try vault.write("N/Note \(number).md", "[[Note \((number + 7) % 40)]] #t\(number % 3)\n- [ ] task \(number)\n") }
        return vault
    }

    /// Every row of every per-file table with its id (file and position), for comparing two indexes
    /// row by row: files are matched by path, since ids differ between an index and a rebuild.
    private func rowsByPosition(_ store: IndexStore) throws -> [String] {
        var rows: [String] = []
        for (table, column) in IndexSchema.fileRowTables {
            let result = try store.readOnlyQuery(
                "SELECT f.path, t.id & 4294967295, t.* FROM \(table) t JOIN file f ON f.id = t.\(column) ORDER BY f.path, t.id")
            // Columns after the id and the file id (which differ between indexes) are compared as they are.
            rows += result.rows.map { row in ([table] + row.prefix(2).map(\.displayText) + row.dropFirst(4).map(\.displayText)).joined(separator: " | ") }
        }
        return rows
    }

    /// A note written again keeps its rows at the positions it fills again and has them overwritten only
    /// where they differ (without full text written in the same run; with it, its rows are replaced):
    /// whatever the new version adds, removes, shifts or invalidates, its rows must be exactly a
    /// rebuild's, position by position.
    @Test(arguments: [false, true])
    func `a note rewritten in every shape has exactly a rebuild's rows, position by position`(fullText: Bool) throws {
        let vault = try makeVault()
        var options = IndexOptions()
        options.fullText = fullText
        try vault.index(options: options)
        let versions = [
            // A link's path rewritten, nothing else (what a move does to a backlink).
            "---\ntype: plan\nstatus: draft\nproject: rhizome\naliases: [Go live]\ntags: [launch]\n---\n# Launch\nA [[Other missing note]], [markdown](../Notes.md) and #plan/next.\nowner:: Ana\n- [ ] book the room\n- [x] write the plan ^done-block\n",
            // More of everything, and a new first link that shifts the others.
            "---\ntype: plan\nstatus: active\nproject: rhizome\nowner: Ana\naliases: [Go live, Launch day]\ntags: [launch, q3]\n---\n# Launch\nFirst [[Rhizome]]. A [[Missing note]], [markdown](../Notes.md) and #plan/next #more.\n## Steps\nowner:: Ana\ndue:: 2026-12-01\n- [ ] book the room\n- [x] write the plan ^done-block\n- [ ] invite [[Notes]] ^invite\n",
            // Fewer of everything.
            "---\ntype: plan\nstatus: draft\n---\n# Launch\nOnly [[Notes]].\n",
            // Frontmatter that is not valid YAML: no properties, aliases or frontmatter tags.
            "---\ntype: [plan\n---\n# Launch\nStill [[Notes]] and [[Rhizome]] #tag\n- [ ] task\n",
            // Empty.
            "",
            // Back to the first version.
            "---\ntype: plan\nstatus: draft\nproject: rhizome\naliases: [Go live]\ntags: [launch]\n---\n# Launch\nA [[Missing note]], [markdown](../Notes.md) and #plan/next.\nowner:: Ana\n- [ ] book the room\n- [x] write the plan ^done-block\n",
        ]
        for (number, text) in versions.enumerated() {
            try vault.write("Plans/Launch.md", text)
            try vault.index(options: options)
            let scratch = vault.scratchDatabasePath()
            try vault.index(database: scratch, options: options)
            let (store, rebuilt) = (try vault.store(), try vault.store(database: scratch))
            #expect(try rowsByPosition(store) == rowsByPosition(rebuilt), "version \(number)")
            #expect(try store.canonicalDump() == rebuilt.canonicalDump(), "version \(number)")
        }
    }

    /// Leaves the index as a first index killed after its first batches: the later files' rows missing,
    /// links to them pointing at ids no row has, the mark set.
    private func interruptedFirstIndex(_ vault: TemporaryVault) throws {
        var options = IndexOptions()
        options.bulkLoadMinimumFiles = 10
        options.batchSize = 8
        try vault.index(options: options)
        let writer = try SQLiteWriterForTests(path: vault.databasePath)
        try writer.execute("""
            DELETE FROM link WHERE source_id > 20; DELETE FROM tag WHERE file_id > 20; DELETE FROM task WHERE file_id > 20;
            DELETE FROM file WHERE id > 20;
            UPDATE meta SET value = '1' WHERE key = '\(Indexer.unfinishedFirstIndexKey)';
            """)
        // Since then a file that sorts first was written and ten notes still to add were removed: the files
        // still to add no longer get the ids the links written so far point at, and some of those ids no file gets.
        try vault.write("A first.md", "[[Note 30]]\n")
        for number in 30..<40 { try vault.remove("N/Note \(number).md") }
    }

    @Test func `a run that finds a first index unfinished starts it over`() throws {
        let vault = try makeVault()
        try interruptedFirstIndex(vault)
        let report = try vault.index()
        #expect(report.added == 31)
        let scratch = vault.scratchDatabasePath()
        try vault.index(database: scratch)
        #expect(try vault.store().canonicalDump() == vault.store(database: scratch).canonicalDump())
    }

    @Test func `a watcher's update that finds a first index unfinished starts it over`() throws {
        let vault = try makeVault()
        try interruptedFirstIndex(vault)
        let indexer = Indexer(store: try vault.store(), vaultRoot: vault.path)
        let report = try indexer.update(changedPaths: [Array("N/Note 1.md".utf8)])
        #expect(report.walkedVault)
        let scratch = vault.scratchDatabasePath()
        try vault.index(database: scratch)
        #expect(try vault.store().canonicalDump() == vault.store(database: scratch).canonicalDump())
    }
}
