import Foundation
import Testing
import RhizomeCLI
import RhizomeTestSupport

/// A copy of Vault-Example wired to a fake Messages API on loopback, for the `explore`, `reflect` and
/// `usage` scenarios: the CLI runs in-process with `ANTHROPIC_BASE_URL` pointing at the fake, a fake key,
/// its own usage ledger and temporary HOME/XDG folders (nothing of the real user's leaks in or out).
final class ClaudeVault {
    /// Distinctive, so that any trace of it in an output is found (`SECRET` is a telling part of it).
    static let key = "sk-ant-api03-clitest-SECRET-4b7e19"
    /// Every note's modification time, so that only `date:`/`created:` properties put notes in a period
    /// and recency is the same for every note (rankings do not depend on when the test runs).
    static let modificationDate = ISO8601DateFormatter().date(from: "2026-01-15T12:00:00Z")!

    let cli: CLIHarness
    let vault: TemporaryVault
    let server: FakeAnthropicServer
    let ledger: URL
    private let lock = NSLock()
    private var shown: [String] = []

    init(script: [FakeAnthropicServer.Reply] = []) throws {
        cli = try CLIHarness()
        vault = try TemporaryVault(copying: Fixtures.vaultExample)
        server = try FakeAnthropicServer(script: script)
        ledger = cli.home.appendingPathComponent("ledger/usage.jsonl")
        for case let relative as String in FileManager.default.enumerator(atPath: vault.path) ?? FileManager.DirectoryEnumerator() {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: vault.url(relative).path, isDirectory: &isFolder), !isFolder.boolValue {
                try vault.setModificationDate(relative, Self.modificationDate)
            }
        }
    }

    deinit {
        server.stop()
        cli.cleanUp()
    }

    /// The environment of every run: the fake server, the key (unless `key: false`), the ledger, temp folders.
    func environment(key: Bool) -> [String: String] {
        var environment = [
            "ANTHROPIC_BASE_URL": server.baseURL.absoluteString,
            "RHIZOME_USAGE_LEDGER": ledger.path,
            "XDG_DATA_HOME": cli.home.appendingPathComponent(".local/share").path,
            "XDG_CONFIG_HOME": cli.home.appendingPathComponent(".config").path,
        ]
        if key { environment["ANTHROPIC_API_KEY"] = Self.key }
        return environment
    }

    /// Runs `rhizome ARGUMENTS --vault V --db D` on its own thread (the command blocks on its API call, which
    /// must not hold a thread of the test's cooperative pool), failing the test after `deadline`.
    func run(_ arguments: [String], key: Bool = true, extraEnvironment: [String: String] = [:], deadline: Duration = .seconds(30),
             sourceLocation: SourceLocation = #_sourceLocation) async -> CLIHarness.Result {
        let cli = self.cli
        let full = arguments + ["--vault", vault.path, "--db", vault.databasePath]
        let environment = self.environment(key: key).merging(extraEnvironment) { $1 }
        let once = Once()
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<CLIHarness.Result?, Never>) in
            Thread {
                let result = cli.run(full, environment: environment)
                if once.claim() { continuation.resume(returning: result) }
            }.start()
            DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(Int(deadline.components.seconds))) {
                if once.claim() { continuation.resume(returning: nil) }
            }
        }
        guard let result else {
            Issue.record("`rhizome \(arguments.joined(separator: " "))` did not finish within \(deadline)", sourceLocation: sourceLocation)
            return CLIHarness.Result(status: -1, output: "", error: "")
        }
        lock.withLock { shown += [result.output, result.error] }
        return result
    }

    /// Appends YAML to the vault's `.rhizome/config.yaml` (Vault-Example's has 8 lines, so the first
    /// appended line is line 9).
    func appendConfig(_ yaml: String, afterLines lines: Int = 9) throws {
        let config = try vault.read(".rhizome/config.yaml")
        #expect(config.split(separator: "\n", omittingEmptySubsequences: false).count == lines, "Vault-Example's config changed: line numbers below are off")
        try vault.write(".rhizome/config.yaml", config + yaml)
    }

    var ledgerText: String { (try? String(contentsOf: ledger, encoding: .utf8)) ?? "" }

    /// The ledger's lines, each parsed as JSON (nil for a line that is not JSON).
    var ledgerLines: [AnyJSON?] {
        ledgerText.split(separator: "\n").map { AnyJSON.parse(String($0)) }
    }

    /// Writes ledger lines as an earlier run would have.
    func seedLedger(_ lines: [String]) throws {
        try FileManager.default.createDirectory(at: ledger.deletingLastPathComponent(), withIntermediateDirectories: true)
        try (lines.joined(separator: "\n") + "\n").write(to: ledger, atomically: true, encoding: .utf8)
    }

    /// This month (UTC) as `YYYY-MM`, as the ledger and the budget count it.
    static var thisMonth: String { String(ISO8601DateFormatter().string(from: Date()).prefix(7)) }

    /// Neither the key nor its telling part in anything any run printed, in the ledger, in a reflection note, or in `more`.
    func expectKeyNeverShown(also more: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) {
        let reflections = (try? FileManager.default.contentsOfDirectory(atPath: vault.url("Reflections").path)) ?? []
        let notes = reflections.compactMap { try? vault.read("Reflections/" + $0) }
        let texts = lock.withLock { shown } + [ledgerText] + notes + more
        for text in texts {
            // A Bool, not `#expect(!text.contains(…))`, which would print the key in the test output.
            let showsKey = text.contains(Self.key) || text.contains("SECRET")
            #expect(!showsKey, "the key, or part of it, was shown", sourceLocation: sourceLocation)
        }
    }

    /// Claims a one-time resumption of a continuation.
    private final class Once: @unchecked Sendable {
        private let lock = NSLock()
        private var claimed = false
        func claim() -> Bool { lock.withLock { defer { claimed = true }; return !claimed } }
    }
}

/// Streamed answers as the API sends them, with our own model, token counts and text pieces.
enum ClaudeReplies {
    static func messageStart(model: String, inputTokens: Int) -> String {
        Replies.event("message_start", #"{"type":"message_start","message":{"id":"msg_01CLITest","type":"message","role":"assistant","content":[],"model":"\#(model)","stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":\#(inputTokens),"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":1}}}"#)
    }

    /// A 200 stream of `pieces`, cut into 29-byte writes, so `[n]` citations are split across chunks too.
    static func answer(_ pieces: [String], model: String, inputTokens: Int, outputTokens: Int) -> FakeAnthropicServer.Reply {
        Replies.stream(
            [messageStart(model: model, inputTokens: inputTokens), Replies.contentBlockStart(), Replies.ping]
                + pieces.map { Replies.textDelta($0) }
                + [Replies.contentBlockStop(), Replies.messageDelta(outputTokens: outputTokens), Replies.messageStop],
            chunkSize: 29, delay: .milliseconds(1))
    }

    /// A 529 that says to retry at once (the CLI's own backoff still applies: at most half a second).
    static var overloaded: FakeAnthropicServer.Reply {
        Replies.status(529, type: "overloaded_error", message: "Overloaded", headers: ["retry-after": "0"])
    }
}

extension CLIHarness.Result {
    /// The lines of standard output.
    var lines: [String] { output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
}
