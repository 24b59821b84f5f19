import Foundation
import Testing
@testable import RhizomeStore
import RhizomeTestSupport

/// `rhizome index` killed at any moment leaves a consistent index, and the next run completes the work:
/// a real process, killed with SIGKILL part-way through a first (bulk) index, then run again.
@Suite(.serialized) struct IndexInterruptionTests {
    /// 1,500 notes (over the bulk-load threshold) linking to one another, to headings and to notes
    /// that do not exist, with tags and frontmatter.
    static func makeVault() throws -> TemporaryVault {
        let vault = try TemporaryVault()
        for number in 0..<1_500 {
            try vault.write("Notes/\(number / 100)/Note \(number).md", """
                ---
                type: note
                rank: \(number)
                related: "[[Note \((number * 7) % 1_500)]]"
                ---
                # Note \(number)

                Links to [[Note \((number + 1) % 1_500)]], [[Note \((number + 13) % 1_500)#Note \((number + 13) % 1_500)]] and
                [[Missing \(number % 50)]]. #topic/t\(number % 9)

                - [ ] task \(number)
                """)
        }
        return vault
    }

    @Test(arguments: [60, 180, 280, 400])
    func `a first index killed after some milliseconds is completed by the next run`(milliseconds: Int) throws {
        let binary = try #require(RhizomeBinary.url, "the rhizome executable was not built next to the tests")
        let vault = try Self.makeVault()
        let database = vault.scratchDatabasePath()
        let environment = ["HOME": vault.outside.path, "XDG_CACHE_HOME": vault.outside.path + "/.cache", "PATH": "/usr/bin:/bin"]
        let child = try ChildProcess(executable: binary, arguments: ["index", "--vault", vault.path, "--db", database], environment: environment)
        child.closeInput()
        Thread.sleep(forTimeInterval: Double(milliseconds) / 1000)
        child.send(signal: SIGKILL)
        #expect(child.waitForExit(within: .seconds(10)) != nil)

        // What the killed run left opens and passes SQLite's own check.
        let store = try IndexStore(path: database)
        #expect(try store.connection.prepare("PRAGMA integrity_check").rows { $0.text(0) } == ["ok"])
        // A first index writes files batch by batch, marked unfinished until the last is in: a part-way
        // index says so (the next run starts it over); otherwise it holds every file or none.
        let counts = try store.connection.prepare("SELECT count(*), count(content_hash) FROM file").rows { [$0.int(0), $0.int(1)] }
        let unfinished = try store.metaValue(Indexer.unfinishedFirstIndexKey) == "1"
        #expect(unfinished || counts[0][0] == 0 || counts[0] == [1_500, 1_500], "\(counts)")
        // The next run completes it: the same index as a first run that was never interrupted.
        try vault.index(database: database)
        let reference = vault.scratchDatabasePath()
        try vault.index(database: reference)
        let completed = try vault.store(database: database).canonicalDump()
        #expect(completed == (try vault.store(database: reference).canonicalDump()))
        #expect(completed.filter { $0.hasPrefix("file | ") }.count == 1_500)
    }
}
