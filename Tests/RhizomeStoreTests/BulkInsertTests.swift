import Foundation
import Testing
@testable import RhizomeStore
import RhizomeTestSupport

/// `BulkInsert` inserts collected rows many per statement, binding text from its own buffer without
/// copying: every row is inserted once, in order, with its values intact, whether it went in with a full
/// statement or with the smaller ones `flush()` uses; a failing row fails with the table's error; and its
/// statements open no savepoint, which would make FTS5 write its pending terms out at each one.
@Suite struct BulkInsertTests {
    @Test func `rows collected across full statements and partial flushes are each inserted once, in order, values intact`() throws {
        let folder = try TemporaryVault()
        let connection = try SQLiteConnection(path: folder.scratchDatabasePath())
        try connection.execute("CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT, weight INTEGER, flag INTEGER)")
        let insert = try BulkInsert(connection, table: "item", columns: ["id", "name", "weight", "flag"], rowsPerStatement: 8)
        var expected: [String] = []
        var next: Int64 = 1
        // 19 rows (two full statements, then 3 rows: 2 + 1), a flush; 15 rows (8 + 4 + 2 + 1); 1; none.
        for count in [19, 15, 1, 0] {
            for _ in 0..<count {
                let name: String? = switch next % 4 {
                case 0: nil
                case 1: ""
                case 2: "Zürich 東京 \(next)"
                default: String(repeating: "long text ", count: Int(next))
                }
                insert.add(next)
                insert.add(name)
                insert.add(next % 5 == 0 ? nil : next * 10)
                insert.add(next % 2 == 0)
                try insert.endRow()
                expected.append("\(next)|\(name.map { "'\($0)'" } ?? "NULL")|\(next % 5 == 0 ? "NULL" : String(next * 10))|\(next % 2 == 0 ? 1 : 0)")
                next += 1
            }
            try insert.flush()
            #expect(insert.pendingRows == 0)
        }
        let rows = try connection.prepare("SELECT id, name, typeof(name), weight, flag FROM item ORDER BY id")
        var found: [String] = []
        while try rows.step() {
            let name = rows.isNull(1) ? "NULL" : "'\(rows.text(1))'"
            #expect(rows.isNull(1) || rows.text(2) == "text")
            found.append("\(rows.int(0))|\(name)|\(rows.optionalInt(3).map(String.init) ?? "NULL")|\(rows.int(4))")
        }
        #expect(found == expected)
    }

    @Test func `a row that breaks a constraint fails its statement with the table's error, and is not inserted again`() throws {
        let folder = try TemporaryVault()
        let connection = try SQLiteConnection(path: folder.scratchDatabasePath())
        try connection.execute("CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        let insert = try BulkInsert(connection, table: "item", columns: ["id", "name"], rowsPerStatement: 4)
        for (id, name) in [(1, "one"), (1, "again")] as [(Int64, String)] {
            insert.add(id)
            insert.add(name)
            try insert.endRow()
        }
        #expect {
            try insert.flush()
        } throws: { error in
            guard case .sqlite(_, let message, _) = error as? StoreError else { return false }
            return message.contains("UNIQUE")
        }
        #expect(insert.pendingRows == 0)
        insert.add(2 as Int64)
        insert.add("two")
        try insert.endRow()
        try insert.flush()
        let names = try connection.prepare("SELECT name FROM item WHERE id = 2").rows { $0.text(0) }
        #expect(names == ["two"])
    }

    @Test func `full statements between full-text inserts open no savepoint, so FTS5 keeps its terms pending until the commit`() throws {
        // FTS5 writes its pending terms out as a segment (a row of `_data`) at every savepoint. Interleave
        // documents with 32-row statements in one transaction: the segments written must be those of the
        // documents alone.
        func segmentsWritten(rowsBetweenDocuments: Int) throws -> Int64 {
            let folder = try TemporaryVault()
            let connection = try SQLiteConnection(path: folder.scratchDatabasePath())
            try connection.execute("""
                CREATE TABLE item (id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, name TEXT NOT NULL);
                CREATE VIRTUAL TABLE body USING fts5(text);
                INSERT INTO body(body, rank) VALUES ('automerge', 0);
                """)
            let insert = try BulkInsert(connection, table: "item", columns: ["id", "file_id", "name"], rowsPerStatement: 32)
            let document = try connection.prepare("INSERT INTO body(rowid, text) VALUES (?, ?)")
            var id: Int64 = 0
            try connection.transaction {
                for file in 1...20 {
                    try document.bind(.integer(Int64(file)), .text("words of document \(file) and more words")).run()
                    for _ in 0..<rowsBetweenDocuments {
                        id += 1
                        insert.add(id)
                        insert.add(Int64(file))
                        insert.add("row \(id)")
                        try insert.endRow()
                    }
                }
                try insert.flush()
            }
            #expect(try connection.prepare("SELECT count(*) FROM item").rows { $0.int(0) } == [id])
            return try connection.prepare("SELECT count(*) FROM body_data").rows { $0.int(0) }[0]
        }
        #expect(try segmentsWritten(rowsBetweenDocuments: 40) == segmentsWritten(rowsBetweenDocuments: 0))
    }
}
