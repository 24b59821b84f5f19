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
            String(format: delta, "SQLite was chosen for the index [2"), String(format: delta, "]."),
            #"{"type":"assistant","message":{"id":"msg_1","model":"claude-haiku-4-5","content":[{"type":"text","text":"SQLite was chosen for the index [2]."}]}}"#,
            #"{"type":"result","subtype":"success","is_error":false,"result":"SQLite was chosen for the index [2].","total_cost_usd":0.0021,"usage":{"input_tokens":900,"output_tokens":12}}"#,
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

    @Test func `a Japanese question through the CLI backend is translated by a first claude call, both costs recorded`() async throws {
        let fixture = try ClaudeVault()
        defer { fixture.expectKeyNeverShown() }
        let bin = fixture.cli.home.appendingPathComponent("fake-bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let delta = #"{"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"%@"}}}"#
        func reply(_ text: String, cost: String) -> String {
            [String(format: delta, text),
             #"{"type":"result","subtype":"success","is_error":false,"result":"\#(text)","total_cost_usd":\#(cost),"usage":{"input_tokens":100,"output_tokens":8}}"#]
                .map { "  echo '" + $0 + "'" }.joined(separator: "\n")
        }
        // The first call answers with search words, the second with the answer; each call's arguments are kept.
        let script = "#!/bin/sh\nfolder=\"$(dirname \"$0\")\"\n"
            + "if [ ! -e \"$folder/first\" ]; then\n  printf '%s\\n' \"$@\" > \"$folder/first\"\n  cat > /dev/null\n"
            + reply(ExploreTranslationTests.searchWords, cost: "0.0003")
            + "\nelse\n  printf '%s\\n' \"$@\" > \"$folder/second\"\n  cat > \"$folder/second-input\"\n"
            + reply("SQLite was chosen [2].", cost: "0.0021") + "\nfi\n"
        try writeExecutableScript(script, to: bin.appendingPathComponent("claude").path)
        let result = await fixture.run(["explore", ExploreTranslationTests.question, "--backend", "claude-cli"], key: false,
                                       extraEnvironment: ["PATH": bin.path + ":/usr/bin:/bin", "CLAUDECODE": "1"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.hasPrefix("SQLite was chosen [[ADR-001 Use SQLite]]."), "\(result.output)")
        #expect(result.error.contains("(searched also for: \(ExploreTranslationTests.searchWords))"), "\(result.error)")
        let first = (try? String(contentsOf: bin.appendingPathComponent("first"), encoding: .utf8)) ?? ""
        #expect(first.contains("--system-prompt\nRewrite the user's question as English search keywords"), "\(first)")
        // The answer call is given the notes the words found, and the question as written.
        let sent = (try? String(contentsOf: bin.appendingPathComponent("second-input"), encoding: .utf8)) ?? ""
        #expect(sent.contains("[2] ADR-001 Use SQLite: # ADR-001: Use SQLite for the index"), "\(sent.prefix(600))")
        #expect(sent.hasSuffix("Question: \(ExploreTranslationTests.question)") || sent.hasSuffix("Question: \(ExploreTranslationTests.question)\n"), "\(sent.suffix(200))")
        let costs = fixture.ledgerLines.compactMap { $0 }.map(\.["costUSD"])
        #expect(costs == [0.0003, 0.0021], "\(fixture.ledgerText)")
        #expect(fixture.server.requests.isEmpty, "the API was not called")
    }

    /// Whether process `pid` is gone (or a zombie that only its reaper still has to collect).
    static func isGone(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 else { return true }
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        return stat.split(separator: ")").last?.trimmingCharacters(in: .whitespaces).hasPrefix("Z") == true
    }

    /// Ctrl-C while `claude` answers: the real binary (whose threads block SIGINT and SIGTERM, a mask a
    /// spawned child used to inherit, so SIGTERM never reached it) stops `claude` and what it started,
    /// and exits only after: no `claude` is left running with parent 1. Its API key is not passed on.
    @Test func `Ctrl-C stops claude and everything it started before rhizome exits, and claude never sees the API key`() throws {
        let fixture = try ClaudeVault()
        let bin = fixture.cli.home.appendingPathComponent("fake-bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let delta = #"{"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Thinking"}}}"#
        let pids = bin.appendingPathComponent("pids").path
        try writeExecutableScript("""
            #!/bin/sh
            env > "$(dirname "$0")/environment"
            cat > /dev/null
            sleep 30 &
            echo "$$ $!" > "\(pids).tmp" && mv "\(pids).tmp" "\(pids)"
            echo '\(delta)'
            wait
            """, to: bin.appendingPathComponent("claude").path)
        let environment = fixture.environment(key: true).merging(["PATH": bin.path + ":/usr/bin:/bin", "HOME": fixture.cli.home.path]) { $1 }
        let child = try ChildProcess(
            executable: try #require(RhizomeBinary.url),
            arguments: ["explore", Self.question, "--backend", "claude-cli", "--vault", fixture.vault.path, "--db", fixture.vault.databasePath],
            environment: environment)
        defer { child.stop() }
        // `claude` started, and its first text (no line end yet) has been sent.
        let started = ContinuousClock.now
        while !FileManager.default.fileExists(atPath: pids) && ContinuousClock.now - started < .seconds(20) { usleep(20_000) }
        try #require(FileManager.default.fileExists(atPath: pids), "claude never started: \(child.errorText)")
        usleep(300_000)
        let recorded = try String(contentsOfFile: pids, encoding: .utf8).split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        try #require(recorded.count == 2)
        child.send(signal: SIGINT)
        #expect(child.waitForExit(within: .seconds(10)) != nil, "rhizome did not exit after Ctrl-C")
        for pid in recorded {
            #expect(Self.isGone(pid), "process \(pid) (\(pid == recorded[0] ? "claude" : "what it started")) still runs after rhizome exited")
            if !Self.isGone(pid) { kill(pid, SIGKILL) }
        }
        let seen = (try? String(contentsOf: bin.appendingPathComponent("environment"), encoding: .utf8)) ?? ""
        #expect(!seen.contains("ANTHROPIC_API_KEY"), "claude was given the API key")
    }

    /// Issue 21, item 2: a `claude` that fails but reports what it cost is recorded, incomplete.
    @Test func `a CLI call that fails after reporting its cost is recorded as incomplete`() async throws {
        let fixture = try ClaudeVault()
        defer { fixture.expectKeyNeverShown() }
        let bin = fixture.cli.home.appendingPathComponent("fake-bin")
        try Self.fakeClaude(in: bin, lines: [
            #"{"type":"result","subtype":"error_during_execution","is_error":true,"result":"stopped","total_cost_usd":0.0042,"usage":{"input_tokens":800,"output_tokens":3}}"#,
        ])
        let result = await fixture.run(["explore", Self.question, "--backend", "claude-cli"], key: false, extraEnvironment: ["PATH": bin.path + ":/usr/bin:/bin"])
        #expect(result.status == 70, "\(result.error)")
        let entries = fixture.ledgerText.split(separator: "\n").compactMap { AnyJSON.parse(String($0)) }
        try #require(entries.count == 1, "\(fixture.ledgerText)")
        #expect(entries[0]["incomplete"] == true && entries[0]["costUSD"].double == 0.0042 && entries[0]["priceBasis"] == "reported", "\(fixture.ledgerText)")
    }

    @Test func `--pass-api-key lets claude see the API key`() async throws {
        let fixture = try ClaudeVault()
        let bin = fixture.cli.home.appendingPathComponent("fake-bin")
        try Self.fakeClaude(in: bin, lines: [
            #"{"type":"result","subtype":"success","is_error":false,"result":"Answer.","total_cost_usd":0.001,"usage":{"input_tokens":9,"output_tokens":1}}"#,
        ])
        let script = try String(contentsOf: bin.appendingPathComponent("claude"), encoding: .utf8)
        try writeExecutableScript(script.replacingOccurrences(of: "cat > /dev/null\n", with: "cat > /dev/null\nenv > \"$(dirname \"$0\")/environment\"\n"),
                                  to: bin.appendingPathComponent("claude").path)
        let result = await fixture.run(["explore", Self.question, "--backend", "claude-cli", "--pass-api-key"], key: true,
                                       extraEnvironment: ["PATH": bin.path + ":/usr/bin:/bin"])
        #expect(result.status == 0, "\(result.error)")
        let seen = (try? String(contentsOf: bin.appendingPathComponent("environment"), encoding: .utf8)) ?? ""
        #expect(seen.contains("ANTHROPIC_API_KEY="), "claude was not given the API key")
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
