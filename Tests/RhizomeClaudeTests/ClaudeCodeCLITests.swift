import Foundation
import Testing
@testable import RhizomeClaude
import RhizomeTestSupport

/// `--backend claude-cli` against a fake `claude` executable: a shell script that records how it was run
/// and prints `stream-json` lines, as the real CLI does.
@Suite(.ownThread, .timeLimit(.minutes(1))) struct ClaudeCodeCLITests {
    /// A temp folder with an executable `claude` whose body is `script` (POSIX sh). It records its arguments,
    /// standard input and environment next to itself.
    final class FakeClaude {
        let folder: URL

        init(_ script: String) throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("fake-claude-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let recorder = """
                #!/bin/sh
                here=$(dirname "$0")
                printf '%s\\n' "$@" > "$here/arguments"
                env > "$here/environment"
                cat > "$here/stdin"

                """
            try writeExecutableScript(recorder + script, to: folder.appendingPathComponent("claude").path)
        }

        deinit { try? FileManager.default.removeItem(at: folder) }

        var cli: ClaudeCodeCLI { ClaudeCodeCLI.locate(environment: ["PATH": folder.path])! }
        func recorded(_ name: String) -> String { (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)) ?? "" }
    }

    final class Pieces: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [String] = []
        func add(_ piece: String) { lock.withLock { items.append(piece) } }
        var all: [String] { lock.withLock { items } }
    }

    static let deltaLine = #"{"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"%@"}}}"#
    static func delta(_ text: String) -> String { "echo '" + String(format: deltaLine, text) + "'" }
    static let start = #"echo '{"type":"system","subtype":"init","model":"claude-haiku-4-5"}'"# + "\n"
        + #"echo '{"type":"stream_event","event":{"type":"message_start","message":{"id":"msg_1","model":"claude-haiku-4-5","usage":{"input_tokens":3}}}}'"#
    static let assistant = #"echo '{"type":"assistant","message":{"id":"msg_1","model":"claude-haiku-4-5","content":[{"type":"text","text":"SQLite was chosen [1]."}]}}'"#
    static let result = #"echo '{"type":"result","subtype":"success","is_error":false,"result":"SQLite was chosen [1].","total_cost_usd":0.0123,"usage":{"input_tokens":1200,"output_tokens":40,"cache_read_input_tokens":7}}'"#

    @Test func `deltas are appended, the accumulated message adds nothing twice, and the result gives usage and cost`() async throws {
        let fake = try FakeClaude([Self.start, Self.delta("SQLite "), "sleep 0.05", Self.delta("was chosen"), Self.assistant, Self.result].joined(separator: "\n"))
        let pieces = Pieces()
        let environment = ["PATH": fake.folder.path + ":/usr/bin:/bin", "CLAUDECODE": "1", "CLAUDE_CODE_ENTRYPOINT": "cli", "HOME": "/tmp", "KEEP_ME": "yes"]
        let (answer, cost) = try await fake.cli.run(system: "Be brief.", prompt: "Why SQLite?\nExcerpts…", model: "claude-haiku-4-5",
                                                   environment: environment, onText: pieces.add)
        #expect(pieces.all == ["SQLite ", "was chosen", " [1]."])
        #expect(answer.text == "SQLite was chosen [1].")
        #expect(answer.model == "claude-haiku-4-5")
        #expect(answer.usage == MessagesAPI.Usage(inputTokens: 1200, outputTokens: 40, cacheReadInputTokens: 7))
        #expect(cost == 0.0123)
        #expect(fake.recorded("arguments").split(separator: "\n") == [
            "-p", "--output-format", "stream-json", "--verbose", "--include-partial-messages", "--model", "claude-haiku-4-5", "--system-prompt", "Be brief.",
            "--max-turns", "1", "--strict-mcp-config", "--disallowedTools", Substring(ClaudeCodeCLI.builtInTools),
        ])
        #expect(fake.recorded("stdin") == "Why SQLite?\nExcerpts…")
        let inherited = fake.recorded("environment")
        #expect(!inherited.contains("CLAUDECODE=") && !inherited.contains("CLAUDE_CODE_ENTRYPOINT="), "\(inherited)")
        #expect(inherited.contains("KEEP_ME=yes"))
    }

    @Test func `without partial messages the accumulated text is shown once`() async throws {
        let partial = #"echo '{"type":"assistant","message":{"id":"msg_1","content":[{"type":"text","text":"SQLite"}]}}'"#
        let fake = try FakeClaude([partial, Self.assistant, Self.result].joined(separator: "\n"))
        let pieces = Pieces()
        let (answer, _) = try await fake.cli.run(system: "s", prompt: "p", model: "m", environment: [:], onText: pieces.add)
        #expect(pieces.all == ["SQLite", " was chosen [1]."])
        #expect(answer.text == "SQLite was chosen [1].")
    }

    @Test func `a CLI that writes a lot to both pipes before it ends does not block`() async throws {
        // 256 KB on each pipe: far more than a pipe holds, so both must be read while the process runs.
        let noise = "i=0; while [ $i -lt 4096 ]; do echo 'noise noise noise noise noise noise noise noise noise noise noise noise' >&2; "
            + #"echo '{"type":"user","message":{"content":"noise noise noise noise noise noise noise noise noise"}}'; i=$((i+1)); done"#
        let fake = try FakeClaude([noise, Self.assistant, Self.result].joined(separator: "\n"))
        let (answer, _) = try await fake.cli.run(system: "s", prompt: "p", model: "m", environment: [:], onText: { _ in })
        #expect(answer.text == "SQLite was chosen [1].")
    }

    @Test func `an error result and an exit without a result are clear errors`() async throws {
        let failing = try FakeClaude(#"echo '{"type":"result","subtype":"error_during_execution","is_error":true,"result":"Invalid API key · Please run /login"}'"#)
        await #expect(throws: ClaudeError.cliFailed(message: "`claude` reported error_during_execution: Invalid API key · Please run /login")) {
            _ = try await failing.cli.run(system: "s", prompt: "p", model: "m", environment: [:], onText: { _ in })
        }
        let crashing = try FakeClaude("echo 'Error: unknown option --include-partial-messages' >&2; exit 1")
        do {
            _ = try await crashing.cli.run(system: "s", prompt: "p", model: "m", environment: [:], onText: { _ in })
            Issue.record("expected an error")
        } catch {
            #expect(error.code == "claude-cli-failed")
            #expect(error.description.contains("exited with status 1 without a result: Error: unknown option --include-partial-messages"), "\(error)")
        }
    }

    @Test func `a CLI that says nothing is stopped at the first-byte limit`() async throws {
        let fake = try FakeClaude("sleep 30")
        var cli = fake.cli
        cli.firstByteTimeout = .milliseconds(300)
        let clock = ContinuousClock()
        let started = clock.now
        await #expect(throws: ClaudeError.timedOut(what: "a first line from `claude`", seconds: 0.3)) {
            _ = try await cli.run(system: "s", prompt: "p", model: "m", environment: [:], onText: { _ in })
        }
        #expect(clock.now - started < .seconds(10), "not the 30 s the script sleeps")
    }

    /// Issue 21, item 5: a `claude` that leaves a child holding its output open (60 s here) answered only
    /// once that child ended; the result line ends the answer, and the child is stopped.
    @Test func `the result line ends the answer even when a child of claude holds its output open`() async throws {
        let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent("lingering-\(UUID().uuidString)").path
        let fake = try FakeClaude([Self.start, Self.delta("SQLite was chosen [1]."), "sleep 60 &", "echo $! > '\(pidFile)'", Self.result].joined(separator: "\n"))
        defer { try? FileManager.default.removeItem(atPath: pidFile) }
        let clock = ContinuousClock()
        let started = clock.now
        let (answer, cost) = try await fake.cli.run(system: "s", prompt: "p", model: "m", environment: [:], onText: { _ in })
        #expect(clock.now - started < .seconds(5), "waited for the lingering child")
        #expect(answer.text == "SQLite was chosen [1]." && cost == 0.0123)
        let pid = Int32((try? String(contentsOfFile: pidFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
        try #require(pid > 0)
        let deadline = clock.now + .seconds(3)
        var stat = ""
        repeat {
            stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            if stat.isEmpty || stat.split(separator: ")").last?.trimmingCharacters(in: .whitespaces).hasPrefix("Z") == true { break }
            try await Task.sleep(for: .milliseconds(50))
        } while clock.now < deadline
        let gone = stat.isEmpty || stat.split(separator: ")").last?.trimmingCharacters(in: .whitespaces).hasPrefix("Z") == true
        #expect(gone, "the child claude left behind still runs")
        if !gone { kill(pid, SIGKILL) }
    }

    /// Issue 21, item 7: a usage limit read "reported success: Claude AI usage limit reached|1795650000".
    @Test func `an error result says what happened, a usage limit with when it resets`() {
        let utc = TimeZone(identifier: "UTC")!
        let limit = StreamJSONParser.failureMessage(subtype: "success", result: "Claude AI usage limit reached|1795650000", timeZone: utc)
        #expect(limit.hasPrefix("`claude` says: Claude AI usage limit reached; it resets at 2026-11-25 23:40 "), "\(limit)")
        #expect(!limit.contains("success") && !limit.contains("1795650000"))
        #expect(StreamJSONParser.failureMessage(subtype: "success", result: "something broke") == "`claude` reported an error: something broke")
        #expect(StreamJSONParser.failureMessage(subtype: "error_max_turns", result: nil) == "`claude` reported error_max_turns")
    }

    @Test func `cancelling stops the CLI promptly`() async throws {
        let fake = try FakeClaude([Self.start, Self.delta("Thinking"), "sleep 30", Self.result].joined(separator: "\n"))
        let cli = fake.cli
        let task = Task(executorPreference: OwnThreadTrait.executor) { try await cli.run(system: "s", prompt: "p", model: "m", environment: [:], onText: { _ in }) }
        try await Task.sleep(for: .milliseconds(300))
        let clock = ContinuousClock()
        let cancelled = clock.now
        task.cancel()
        await #expect(throws: ClaudeError.cancelled) { _ = try await task.value }
        #expect(clock.now - cancelled < .seconds(4))
    }
}
