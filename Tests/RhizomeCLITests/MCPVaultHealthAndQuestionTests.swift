/// The MCP tools that reach the operations behind `rhizome status` and `rhizome explore`'s retrieval,
/// through a real client session with the `rhizome mcp` process on a copy of Vault-Example.
import Foundation
import Testing
import RhizomeTestSupport

@Suite(.serialized, .timeLimit(.minutes(2))) struct MCPVaultHealthAndQuestionTests {
    @Test func `an agent asks which notes answer a question, and gets explore's notes without a model call`() throws {
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        let session = try MCPSession(vault: vault, arguments: ["--read-only"])
        defer { session.child.stop() }
        _ = try session.initialize()
        try session.waitUntilIndexed()

        // Not every word occurs in the note (`how`, `do`, `tokenizer`…): search wants them all, this does not.
        let answer = try session.call("relevant_notes", ["question": "how do I make sqlite full text search find parts of words?", "limit": 3])
        #expect(!answer.isError, "\(answer.body)")
        let notes = answer.body["data"].array ?? []
        #expect(notes.count == 3 && answer.body["truncated"] == true, "\(answer.body)")
        #expect(notes.contains { $0["path"] == "Reading/SQLite FTS5 docs.md" }, "\(notes.map { $0["path"] })")
        let search = try session.call("search", ["query": "how do I make sqlite full text search find parts of words?"])
        #expect(search.body["note"].string?.contains("no note has every word") == true, "search wants every word: \(search.body)")
        let scores = notes.compactMap { $0["score"].double }
        #expect(scores.count == 3 && scores == scores.sorted(by: >), "best first: \(scores)")
        #expect(notes.allSatisfy { $0["textScore"].double != nil && $0["graphScore"].double != nil && $0["recencyScore"].double != nil })

        let nothing = try session.call("relevant_notes", ["question": "zzzqqq xylophonic"])
        #expect(!nothing.isError && nothing.body["data"].array?.isEmpty == true, "\(nothing.body)")
        #expect(nothing.body["note"].string?.contains("no note has any word") == true, "\(nothing.body)")
        let empty = try session.call("relevant_notes", ["question": "   "])
        #expect(empty.isError && empty.body["error"]["code"] == "invalid-argument", "\(empty.body)")
        #expect(session.finish() == .exited(0), "stderr: \(session.child.errorText)")
    }

    @Test func `status over MCP says what rhizome status says, field for field`() throws {
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        let session = try MCPSession(vault: vault, arguments: ["--read-only"])
        defer { session.child.stop() }
        _ = try session.initialize()
        try session.waitUntilIndexed()

        let status = try session.call("status", [:])
        #expect(!status.isError, "\(status.body)")
        let data = status.body["data"]
        #expect(data["vault"].string == vault.path, "\(data)")
        #expect(data["watcher"]["watched"] == true && data["watcher"]["processID"].int != nil, "\(data["watcher"])")
        #expect(data["index"]["lastRunAt"].string != nil && data["vaultMissing"] == false, "\(data)")
        #expect((data["schemaFindings"]["errors"].int ?? -1) >= 0, "\(data)")

        // The same report as the command line's, field for field where nothing moves between the two.
        var harness = try CLIHarness()
        defer { harness.cleanUp() }
        harness.environment["HOME"] = vault.outside.path  // as the server's (`MCPSession.environment`)
        let cli = harness.run(["status", "--json", "--vault", vault.path, "--db", vault.databasePath])
        let fromCLI = try JSONDecoder().decode(AnyJSON.self, from: Data(cli.output.utf8))["data"]
        for key in ["vault", "database", "healthy", "vaultMissing", "schemaFindings", "projects", "global", "broken"] {
            #expect(fromCLI[key] == data[key], "\(key): \(fromCLI[key]) vs \(data[key])")
        }
        #expect(session.finish() == .exited(0), "stderr: \(session.child.errorText)")
    }
}
