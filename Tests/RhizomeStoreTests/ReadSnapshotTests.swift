/// `SQLiteConnection.readSnapshot`: the reads of a query made of several statements (`tagCounts`, MCP's
/// `tasks` page and its count) see one state of the index, even when another connection commits between
/// them, as a watcher does while an MCP reader answers.
import Testing
@testable import RhizomeStore
import RhizomeTestSupport

@Suite struct ReadSnapshotTests {
    @Test func `reads inside a snapshot do not see a commit made between them`() throws {
        let vault = try TemporaryVault()
        try vault.write("A.md", "#one #two\n")
        try vault.index()
        let reader = try vault.store(), writer = try vault.store()
        func tagRows() throws -> Int { try reader.connection.prepare("SELECT count(*) FROM tag").rows { Int($0.int(0)) }[0] }
        let (before, during) = try reader.connection.readSnapshot { () throws -> (Int, Int) in
            let before = try tagRows()
            try writer.connection.execute("DELETE FROM tag")
            return (before, try tagRows())
        }
        #expect(before == 2)
        #expect(during == 2, "the second read saw the other connection's commit")
        #expect(try tagRows() == 0, "after the snapshot, the commit is seen")
        // Nested in a transaction already, it runs as part of that one.
        let nested = try reader.connection.transaction { try reader.connection.readSnapshot { try tagRows() } }
        #expect(nested == 0)
    }
}
