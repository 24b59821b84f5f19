import Foundation
import Testing
@testable import RhizomeStore
import RhizomeTestSupport

/// `BatchedInsert` inserts rows many per statement: every row bound is inserted once, in order, after a
/// full statement and after `flush()` alike, and slots left from an earlier, fuller statement insert nothing.
@Suite struct BatchedInsertTests {
    @Test func `rows bound across full statements and partial flushes are each inserted once, in order`() throws {
        let folder = try TemporaryVault()
        let connection = try SQLiteConnection(path: folder.scratchDatabasePath())
        try connection.execute("CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT, weight INTEGER)")
        let insert = try BatchedInsert(connection, table: "item", columns: ["id", "name", "weight"], rowsPerStatement: 8)
        var expected: [String] = []
        var next: Int64 = 1
        // 19 rows (two full statements and three in the next), a flush; 2 rows, a flush; a flush with none.
        for count in [19, 2, 0] {
            for _ in 0..<count {
                insert.bind(1, next)
                insert.bind(2, next % 3 == 0 ? nil : "item \(next)")
                insert.bind(3, next * 10)
                try insert.endRow()
                expected.append("\(next) \(next % 3 == 0 ? "NULL" : "item \(next)") \(next * 10)")
                next += 1
            }
            try insert.flush()
        }
        let rows = try connection.prepare("SELECT id, coalesce(name, 'NULL'), weight FROM item ORDER BY id")
        var found: [String] = []
        while try rows.step() { found.append("\(rows.int(0)) \(rows.text(1)) \(rows.int(2))") }
        #expect(found == expected)
    }

    @Test func `a row that breaks a constraint fails its statement with the table's error`() throws {
        let folder = try TemporaryVault()
        let connection = try SQLiteConnection(path: folder.scratchDatabasePath())
        try connection.execute("CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        let insert = try BatchedInsert(connection, table: "item", columns: ["id", "name"], rowsPerStatement: 4)
        insert.bind(1, 1 as Int64)
        insert.bind(2, "one")
        try insert.endRow()
        insert.bind(1, 1 as Int64)
        insert.bind(2, "again")
        try insert.endRow()
        #expect(throws: StoreError.self) { try insert.flush() }
    }
}
