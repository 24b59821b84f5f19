import Foundation
import Testing
import RhizomeTestSupport

/// `explore --backend claude-cli`: the Claude Code CLI instead of an API key, here a fake `claude` on PATH
/// that prints `stream-json` as the real one does.
@Suite(.ownThread, .serialized, .timeLimit(.minutes(1))) struct ClaudeCLIBackendTests {
    static let question = "What is the decision on SQLite and FTS5?"

    /// A folder holding an executable `claude` (POSIX sh) that records its arguments and prints `lines`.
    static func fakeClaude(in folder: URL, lines: [String]) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let script = "#!/bin/sh\nprintf '%s\\n' \"$@\" > \"$(dirname \"$0\")/arguments\"\ncat > /dev/null\n"
            + lines.map { "echo '" + $0 + "'" }.joined(separator: "\n") + "\n"
        try writeExecutableScript(script, to: folder.appendingPathComponent("claude").path)
    }

    @Test func `explore streams the CLI's answer with wikilinks and records the cost it reported, without an API key`() async throws {
        let fixture = try ClaudeVault()
        defer { fixture.expectKeyNeverShown() }
        let bin = fixture.cli.home.appendingPathComponent("fake-bin")
        let delta = #"{"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"%@"}}}"#
        try Self.fakeClaude(in: bin, lines: [
            #"{"type":"system","subtype":"init"}"#,
            String(format: delta, "SQLite was chosen for the index [1"), String(format: delta, "]."),
            #"{"type":"assistant","message":{"id":"msg_1","model":"claude-haiku-4-5","content":[{"type":"text","text":"SQLite was chosen for the index [1]."}]}}"#,
            #"{"type":"result","subtype":"success","is_error":false,"result":"SQLite was chosen for the index [1].","total_cost_usd":0.0021,"usage":{"input_tokens":900,"output_tokens":12}}"#,
        ])
        let result = await fixture.run(["explore", Self.question, "--backend", "claude-cli"], key: false,
                                       extraEnvironment: ["PATH": bin.path + ":/usr/bin:/bin", "CLAUDECODE": "1"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.hasPrefix("SQLite was chosen for the index [[ADR-001 Use SQLite]]."), "\(result.output)")
        #expect(result.output.contains("Sources:\n  [[ADR-001 Use SQLite]] — Projects/Rhizome/Decisions/ADR-001 Use SQLite.md"))
        #expect(fixture.server.requests.isEmpty, "the API was not called")
        let arguments = (try? String(contentsOf: bin.appendingPathComponent("arguments"), encoding: .utf8)) ?? ""
        #expect(arguments.hasPrefix("-p\n--output-format\nstream-json\n--verbose\n--include-partial-messages\n--model\nclaude-haiku-4-5\n--system-prompt\n"))
        let ledger = fixture.ledgerText
        #expect(ledger.contains("\"costUSD\":0.0021") && ledger.contains("\"inputTokens\":900") && ledger.contains("\"feature\":\"explore\""), "\(ledger)")
    }

    @Test func `without claude on PATH the backend says how to get it`() async throws {
        let fixture = try ClaudeVault()
        defer { fixture.expectKeyNeverShown() }
        let empty = fixture.cli.home.appendingPathComponent("empty-bin")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let result = await fixture.run(["explore", Self.question, "--backend", "claude-cli", "--json"], key: false, extraEnvironment: ["PATH": empty.path])
        #expect(result.status == 2)
        #expect(result.output.contains("\"code\" : \"claude-cli-unavailable\""), "\(result.output)")
        #expect(result.error.contains("no `claude` executable on PATH") && result.error.contains("Install Claude Code"), "\(result.error)")
    }

    @Test func `the missing-key message points at the CLI backend and at --dry-run`() async throws {
        let fixture = try ClaudeVault()
        let result = await fixture.run(["explore", Self.question], key: false)
        #expect(result.status == 2)
        #expect(result.error.contains("--backend claude-cli") && result.error.contains("--dry-run"), "\(result.error)")
    }
}
