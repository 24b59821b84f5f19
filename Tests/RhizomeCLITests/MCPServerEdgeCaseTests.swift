import Foundation
import Testing
import RhizomeTestSupport

/// The MCP server at its edges (a vault never indexed, runaway and hostile SQL, NFD names), each scenario
/// against the real `rhizome mcp` process.
@Suite(.serialized, .timeLimit(.minutes(2))) struct MCPServerEdgeCaseTests {
    @Test func `a vault never indexed before is served (its index folder is created)`() throws {
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        let session = try MCPSession(vault: vault, defaultIndex: true)
        defer { session.child.stop() }
        _ = try session.initialize()
        try session.waitUntilIndexed()
        let answer = try session.call("query", ["sql": "SELECT count(*) AS notes FROM notes"])
        #expect(!answer.isError, "\(answer.body)")
        #expect(answer.body["data"]["rows"][0][0] == 60, "Vault-Example has 60 notes")
        #expect(session.finish() == .exited(0), "stderr: \(session.child.errorText)")
    }

    @Test func `a runaway query is stopped and the other tools keep answering`() throws {
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        let session = try MCPSession(vault: vault, arguments: ["--timeout", "2"])
        defer { session.child.stop() }
        _ = try session.initialize()
        try session.waitUntilIndexed()
        let started = Date()
        let runaway = try session.call("query", ["sql": "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT count(*) FROM r"], within: .seconds(30))
        #expect(runaway.isError)
        #expect(runaway.body["error"]["code"] == "timed-out", "\(runaway.body)")
        #expect(Date().timeIntervalSince(started) < 12, "the limit is 2 s")
        let search = try session.call("search", ["query": "sqlite", "limit": 1])
        #expect(!search.isError, "\(search.body)")
        #expect(session.finish() == .exited(0), "stderr: \(session.child.errorText)")
    }

    @Test func `query cannot attach other database files nor change the connection for later calls`() throws {
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        let session = try MCPSession(vault: vault)
        defer { session.child.stop() }
        _ = try session.initialize()
        try session.waitUntilIndexed()
        let attach = try session.call("query", ["sql": .string("ATTACH DATABASE '" + vault.databasePath + "' AS other")])
        #expect(attach.isError, "\(attach.body)")
        let pragma = try session.call("query", ["sql": "PRAGMA case_sensitive_like = 1"])
        _ = pragma  // refused or not, it must not outlive the call:
        let like = try session.call("query", ["sql": "SELECT count(*) FROM notes WHERE path LIKE 'home.md'"])
        #expect(like.body["data"]["rows"][0][0] == 1, "LIKE is case-insensitive again: \(like.body)")
        #expect(session.finish() == .exited(0), "stderr: \(session.child.errorText)")
    }

    @Test func `a note whose name is written in NFD on disk has its body read`() throws {
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        try vault.write("Cafe\u{301} notes.md", "# Café notes\n\nSee [[Home]].\n")
        let session = try MCPSession(vault: vault)
        defer { session.child.stop() }
        _ = try session.initialize()
        try session.waitUntilIndexed()
        let note = try session.call("note", ["note": "Caf\u{E9} notes", "includeBody": true])
        #expect(!note.isError, "\(note.body)")
        #expect(note.body["data"]["body"]["text"] == "# Café notes\n\nSee [[Home]].\n", "\(note.body["data"]["body"])")
        #expect(session.finish() == .exited(0), "stderr: \(session.child.errorText)")
    }
}
