import Foundation
import Testing
import RhizomeStore
import RhizomeTestSupport

/// `rhizome status` tells the truth about the index: its own files, kept inside the vault, are not files of
/// the vault, and it tells the last run (which may have found nothing to do) from the last change. The
/// real binary on a real vault.
@Suite(.serialized, .ownThread) struct StatusFreshnessTests {
    @Test func `with the index inside the vault, status counts none of its files as changed, run after run`() throws {
        let vault = try TemporaryVault()
        try vault.write("A.md", "[[B]]\n")
        try vault.write("B.md", "# B\n")
        let database = vault.path + "/index.sqlite"
        let arguments = ["--vault", vault.path, "--db", database, "--json"]
        #expect(try BinaryRun(["index"] + arguments, home: vault.outside.path).status == 0)
        // An edit leaves the journal folder beside the index; a connection held open keeps -wal and -shm.
        #expect(try BinaryRun(["append", "A", "more"] + arguments, home: vault.outside.path).status == 0)
        let held = try IndexStore(path: database)
        _ = try held.resolveNote("A")
        let beside = try FileManager.default.contentsOfDirectory(atPath: vault.path)
        #expect(Set(["index.sqlite", "index.sqlite-wal", "index.sqlite-shm", "index.sqlite.lock", ".index.sqlite.operations"]).isSubset(of: beside), "\(beside)")

        for round in 1...2 {
            let status = try BinaryRun(["status"] + arguments, home: vault.outside.path)
            #expect(status.status == 0, "\(status.error)")
            #expect(status.json["data"]["index"]["staleFiles"] == 0, "round \(round): \(status.output)")
            let text = try BinaryRun(["status", "--vault", vault.path, "--db", database], home: vault.outside.path)
            #expect(text.output.contains("index: up to date"), "round \(round): \(text.output)")
        }
        // A real change still shows.
        try vault.write("B.md", "# B, longer\n")
        let changed = try BinaryRun(["status"] + arguments, home: vault.outside.path)
        #expect(changed.json["data"]["index"]["staleFiles"] == 1, "\(changed.output)")
        // And the walk never took the index for a note or an attachment.
        let files = try BinaryRun(["sql", "SELECT path FROM files ORDER BY path"] + arguments, home: vault.outside.path)
        #expect(files.json["data"]["rows"] == [["A.md"], ["B.md"]], "\(files.output)")
    }

    @Test func `a watcher with the index inside the vault applies only the vault's changes, and status agrees`() throws {
        let vault = try TemporaryVault()
        try vault.write("A.md", "[[B]]\n")
        try vault.write("B.md", "# B\n")
        let database = vault.path + "/index.sqlite"
        let binary = try #require(RhizomeBinary.url, "the rhizome executable was not built next to the tests")
        let watcher = try ChildProcess(
            executable: binary, arguments: ["watch", "--vault", vault.path, "--db", database],
            environment: ["HOME": vault.outside.path, "XDG_CACHE_HOME": vault.outside.path + "/.cache", "PATH": "/usr/bin:/bin"])
        defer { watcher.stop() }
        _ = try #require(watcher.outputLine(within: .seconds(20)) { $0.contains("ready") }, "no ready line; stderr: \(watcher.errorText)")
        try vault.write("C.md", "[[A]]\n")
        _ = try #require(watcher.outputLine(from: 1, within: .seconds(10)) { $0.contains("+1 ~0 -0") }, "\(watcher.outputLines)")
        // The watcher's own writes (index.sqlite, -wal, -shm, the lock) must not start batches of their own.
        Thread.sleep(forTimeInterval: 1.5)
        #expect(watcher.outputLines.count == 2, "\(watcher.outputLines)")
        let status = try BinaryRun(["status", "--vault", vault.path, "--db", database, "--json"], home: vault.outside.path)
        #expect(status.json["data"]["index"]["staleFiles"] == 0, "\(status.output)")
        let files = try BinaryRun(["sql", "SELECT path FROM files ORDER BY path", "--no-refresh", "--vault", vault.path, "--db", database, "--json"], home: vault.outside.path)
        #expect(files.json["data"]["rows"] == [["A.md"], ["B.md"], ["C.md"]], "\(files.output)")
    }

    @Test func `status names an index file it cannot read instead of calling it not built`() throws {
        let vault = try TemporaryVault()
        try vault.write("A.md", "# A\n")
        try FileManager.default.createDirectory(at: vault.outside, withIntermediateDirectories: true)
        let text = vault.outside.appendingPathComponent("notes.txt").path
        try Data("not an index\n".utf8).write(to: URL(fileURLWithPath: text))
        let json = try BinaryRun(["status", "--vault", vault.path, "--db", text, "--json"], home: vault.outside.path)
        #expect(json.json["data"]["indexProblem"]["code"] == "index-not-a-database", "\(json.output)")
        let plain = try BinaryRun(["status", "--vault", vault.path, "--db", text], home: vault.outside.path)
        #expect(plain.output.contains("index: \(text) is not a SQLite database"), "\(plain.output)")
        // No index yet is not a problem.
        let fresh = try BinaryRun(["status", "--vault", vault.path, "--db", vault.databasePath, "--json"], home: vault.outside.path)
        #expect(fresh.json["data"]["indexProblem"] == .null, "\(fresh.output)")
    }

    @Test func `status shows the last run and the last change apart`() throws {
        let vault = try TemporaryVault()
        try vault.write("A.md", "[[B]]\n")
        try vault.write("B.md", "# B\n")
        let arguments = ["--vault", vault.path, "--db", vault.databasePath, "--json"]
        #expect(try BinaryRun(["index"] + arguments, home: vault.outside.path).status == 0)
        let first = try BinaryRun(["status"] + arguments, home: vault.outside.path).json["data"]["index"]
        let indexedAt = try #require(first["lastChangeAt"].string)
        #expect(first["lastRunAt"].string == indexedAt)
        #expect(first["lastIndexedAt"].string == indexedAt, "kept for older readers")

        // A query runs the indexer, which finds nothing to change.
        Thread.sleep(forTimeInterval: 1.1)
        #expect(try BinaryRun(["backlinks", "B"] + arguments, home: vault.outside.path).status == 0)
        let second = try BinaryRun(["status"] + arguments, home: vault.outside.path).json["data"]["index"]
        #expect(second["lastChangeAt"].string == indexedAt, "\(second)")
        let lastRun = try #require(second["lastRunAt"].string)
        #expect(lastRun > indexedAt, "\(second)")
        let text = try BinaryRun(["status", "--vault", vault.path, "--db", vault.databasePath], home: vault.outside.path)
        #expect(text.output.contains("(last run \(lastRun), last change \(indexedAt))"), "\(text.output)")

        // A change moves both.
        Thread.sleep(forTimeInterval: 1.1)
        try vault.write("B.md", "# B, changed\n")
        #expect(try BinaryRun(["backlinks", "B"] + arguments, home: vault.outside.path).status == 0)
        let third = try BinaryRun(["status"] + arguments, home: vault.outside.path).json["data"]["index"]
        let changedAt = try #require(third["lastChangeAt"].string)
        #expect(changedAt > lastRun, "\(third)")
        #expect(third["lastRunAt"].string.map { $0 >= changedAt } == true, "\(third)")
    }
}
