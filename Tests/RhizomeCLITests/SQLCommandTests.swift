import Foundation
import Testing
import RhizomeTestSupport

/// `rhizome sql` as a user runs it: the real binary on a copy of Vault-Example. A query that runs too
/// long or asks for another database is the user's to fix (exit 2), with a message that says how.
@Suite(.serialized, .timeLimit(.minutes(1))) struct SQLCommandTests {
    /// Runs the real `rhizome` and waits for it to exit.
    static func rhizome(_ arguments: [String], vault: TemporaryVault) throws -> (status: ChildProcess.Termination?, output: String, error: String, seconds: Double) {
        let binary = try #require(RhizomeBinary.url, "the rhizome executable was not built next to the tests")
        let started = Date()
        let child = try ChildProcess(executable: binary, arguments: arguments + ["--vault", vault.path, "--db", vault.databasePath], environment: MCPSession.environment(vault))
        child.closeInput()
        let status = child.waitForExit(within: .seconds(30))
        return (status, child.outputLines.joined(separator: "\n"), child.errorText, Date().timeIntervalSince(started))
    }

    @Test func `an endless recursive query is stopped at --timeout and exits 2 saying how to raise it`() throws {
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        _ = try Self.rhizome(["index"], vault: vault)
        let run = try Self.rhizome(["sql", "--timeout", "1", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"], vault: vault)
        #expect(run.status == .exited(2), "\(run.error)")
        #expect(run.error.contains("time limit of 1 s") && run.error.contains("rhizome sql --timeout"), "\(run.error)")
        #expect(run.seconds < 10, "stopped near its 1 s limit, not after \(run.seconds) s")

        let json = try Self.rhizome(["sql", "--json", "--timeout", "1", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"], vault: vault)
        #expect(json.status == .exited(2))
        #expect(AnyJSON.parse(json.output)?["error"]["code"] == "timed-out", "\(json.output)")
    }

    @Test func `ATTACH and DETACH exit 2 with a clear message and touch no other file`() throws {
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        let other = vault.outside.appendingPathComponent("other.sqlite").path
        try FileManager.default.createDirectory(at: vault.outside, withIntermediateDirectories: true)
        let attach = try Self.rhizome(["sql", "--json", "ATTACH DATABASE '\(other)' AS other"], vault: vault)
        #expect(attach.status == .exited(2), "\(attach.error)")
        #expect(AnyJSON.parse(attach.output)?["error"]["code"] == "sql-attach-refused", "\(attach.output)")
        #expect(attach.error.contains("ATTACH and DETACH are refused"), "\(attach.error)")
        #expect(!FileManager.default.fileExists(atPath: other), "ATTACH must not create the file")

        let detach = try Self.rhizome(["sql", "DETACH DATABASE other"], vault: vault)
        #expect(detach.status == .exited(2), "\(detach.error)")
        let badJSON = try Self.rhizome(["sql", "SELECT json('not json')"], vault: vault)
        #expect(badJSON.status == .exited(2), "an error in the user's query is theirs to fix: \(badJSON.error)")
        let fine = try Self.rhizome(["sql", "--timeout", "5", "SELECT count(*) FROM notes"], vault: vault)
        #expect(fine.status == .exited(0), "\(fine.error)")
        #expect(fine.output.contains("60"), "\(fine.output)")
    }
}
