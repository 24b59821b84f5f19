import Foundation
import RhizomeCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The Claude Code CLI as a backend, for users with a subscription rather than an API key:
/// `claude -p --output-format stream-json --verbose --include-partial-messages --model M --system-prompt S
/// --max-turns 1 --strict-mcp-config --disallowedTools …`, the prompt on standard input.
///
/// - The environment is inherited without Claude Code's own session variables (`CLAUDECODE`,
///   `CLAUDE_CODE_*`), so a `claude` started from inside a Claude Code session runs as a fresh one, and
///   without `ANTHROPIC_API_KEY` unless `passesAPIKey`: with it `claude` bills that key instead of the
///   subscription this backend is chosen for.
/// - Standard output and standard error are read continuously on their own threads while the process
///   runs (a full pipe would block it forever), and the process is waited for only after both end.
/// - Text arrives two ways: `stream_event` deltas (appended as they come) and `assistant` messages that
///   carry the message's whole text so far (assigned: only what was not shown yet is shown).
/// - The same two time limits as the API (no first line; the whole answer), and cancellation, end the
///   process and everything it started (`SpawnedProcess`: its own process group, SIGTERM, then SIGKILL),
///   and the call returns only once it is reaped: no `claude` outlives Rhizome.
public struct ClaudeCodeCLI: Sendable {
    public var executable: String
    public var firstByteTimeout: Duration = .seconds(30)
    public var totalTimeout: Duration = .seconds(300)
    /// Whether `claude` sees `ANTHROPIC_API_KEY` (`--pass-api-key`); by default it is removed.
    public var passesAPIKey = false

    /// `claude` found on `PATH`, or nil.
    public static func locate(environment: [String: String]) -> ClaudeCodeCLI? {
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = String(folder) + "/claude"
            if access(candidate, X_OK) == 0 { return ClaudeCodeCLI(executable: candidate) }
        }
        return nil
    }

    public init(executable: String) {
        self.executable = executable
    }

    /// The answer, and the cost the CLI reported (`total_cost_usd`), if any.
    /// `billing`, when given, receives the cost and usage `claude` reports, also for a call that fails.
    public func run(
        system: String, prompt: String, model: String, environment: [String: String], billing: BilledUsage? = nil,
        onText: @escaping @Sendable (String) -> Void
    ) async throws(ClaudeError) -> (AnthropicClient.Answer, costUSD: Double?) {
        let run = CLIRun(executable: executable, arguments: [
            "-p", "--output-format", "stream-json", "--verbose", "--include-partial-messages", "--model", model, "--system-prompt", system,
            // One answer, no agent: the excerpts are untrusted text, so no tools, no MCP servers, one turn.
            "--max-turns", "1", "--strict-mcp-config", "--disallowedTools", Self.builtInTools,
        ], environment: Self.cleaned(environment, keepingAPIKey: passesAPIKey))
        do {
            return try await withTaskCancellationHandler {
                try await run.start(input: prompt, firstByteTimeout: firstByteTimeout, totalTimeout: totalTimeout, billing: billing, onText: onText)
            } onCancel: {
                run.terminate()
            }
        } catch let error as ClaudeError {
            throw Task.isCancelled ? .cancelled : error
        } catch {
            throw .cliFailed(message: "\(error)")
        }
    }

    /// Claude Code's built-in tools, all refused.
    static let builtInTools = "Bash Edit MultiEdit Write Read Glob Grep LS WebFetch WebSearch NotebookEdit NotebookRead Task TodoWrite"

    /// The environment without Claude Code's session variables, and without the API key unless kept.
    static func cleaned(_ environment: [String: String], keepingAPIKey: Bool = false) -> [String: String] {
        environment.filter {
            !($0.key == "CLAUDECODE" || $0.key.hasPrefix("CLAUDECODE_") || $0.key.hasPrefix("CLAUDE_CODE_")
                || (!keepingAPIKey && $0.key == "ANTHROPIC_API_KEY"))
        }
    }
}

/// One `claude` process: its output parsed line by line as it arrives.
final class CLIRun: Sendable {
    /// The watchdog's and `terminate()`'s timers: a serial queue of our own gets a thread even when Dispatch's
    /// global queues have none free.
    private static let timers = DispatchQueue(label: "rhizome.claude-cli.timers")
    private let executable: String
    private let arguments: [String]
    private let environment: [String: String]
    /// What the reading threads, the watchdog and `terminate()` share.
    private let state = Locked(RunState())

    private struct RunState: Sendable {
        /// The process, once started, and whether it was stopped before it could be.
        var child: SpawnedProcess?
        var isTerminated = false
        /// The last 4 KiB of standard error.
        var stderrTail = Data()
        var sawOutput = false
        /// What did not come in time, once the watchdog stopped the process.
        var expiry: String?
        var lineContinuation: AsyncThrowingStream<String, Error>.Continuation?
    }

    init(executable: String, arguments: [String], environment: [String: String]) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
    }

    /// Stops the process and its group (SIGTERM, then SIGKILL), without waiting (it is called from a
    /// cancellation handler and the watchdog), and stops reading half a second later even if something
    /// holds its output open.
    func terminate() {
        let (lines, child) = state.withLock { state -> (AsyncThrowingStream<String, Error>.Continuation?, SpawnedProcess?) in
            state.isTerminated = true
            return (state.lineContinuation, state.child)
        }
        Self.timers.asyncAfter(deadline: .now() + 0.5) { lines?.finish() }
        guard let child, child.isRunning else { return }
        Thread.detachNewThread { child.terminate() }
    }

    /// Waits (blocking, a bounded moment) until the process is reaped, stopping it first if it runs: every
    /// way out of `start` after the process started goes through here.
    private func reap(_ child: SpawnedProcess) {
        if child.isRunning { child.terminate() } else { child.signalGroup(SIGKILL) }
    }

    func start(
        input: String, firstByteTimeout: Duration, totalTimeout: Duration, billing: BilledUsage? = nil, onText: @escaping @Sendable (String) -> Void
    ) async throws -> (AnthropicClient.Answer, costUSD: Double?) {
        // Pipes closed on exec from the start (Foundation's `Pipe` is not, and on Linux it closes other
        // descriptors in a child from a list made before the spawn): a process another thread starts meanwhile
        // must not keep our end of `claude`'s input open, or `claude` would wait for the end of its prompt
        // until that process exits. The child gets its ends as 0, 1 and 2 (dup2 clears the flag); the parent
        // closes them once it has started.
        let stdin = try ClosedOnExecPipe(), stdout = try ClosedOnExecPipe(), stderr = try ClosedOnExecPipe()
        let process = try SpawnedProcess(
            executable: executable, arguments: arguments, environment: environment,
            standardInput: stdin.reading.fileDescriptor, standardOutput: stdout.writing.fileDescriptor, standardError: stderr.writing.fileDescriptor)
        for childEnd in [stdin.reading, stdout.writing, stderr.writing] { try? childEnd.close() }
        // Stopped before it started (cancelled meanwhile): stop it now.
        if state.withLock({ $0.child = process; return $0.isTerminated }) { terminate() }
        // However this returns or throws, the process is not left running.
        defer { reap(process) }
        // The prompt, then end of input; a CLI that exits early must not kill us with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        // Blocking reads and writes on threads of their own: never on Dispatch's global queues, whose few
        // threads (one per core) the timers below need.
        let writer = stdin.writing
        Thread.detachNewThread {
            try? writer.write(contentsOf: Data(input.utf8))
            try? writer.close()
        }
        let errors = stderr.reading
        let errorsDone = DispatchSemaphore(value: 0)
        Thread.detachNewThread { [state] in
            while true {
                let data = errors.availableData
                if data.isEmpty { break }
                state.withLock {
                    $0.stderrTail.append(data)
                    if $0.stderrTail.count > 4_096 { $0.stderrTail = $0.stderrTail.suffix(4_096) }
                }
            }
            errorsDone.signal()
        }
        // A dispatch timer, not a task: it must fire even when every thread of the concurrency pool is busy.
        let watchdog = DispatchSource.makeTimerSource(queue: Self.timers)
        let started = ContinuousClock.now
        watchdog.schedule(deadline: .now() + .milliseconds(50), repeating: .milliseconds(50))
        watchdog.setEventHandler { [self] in
            let elapsed = ContinuousClock.now - started
            let seen = state.withLock { $0.sawOutput }
            guard elapsed >= totalTimeout || (!seen && elapsed >= firstByteTimeout) else { return }
            state.withLock { $0.expiry = seen ? "the whole answer" : "a first line from `claude`" }
            watchdog.cancel()
            terminate()
        }
        watchdog.resume()
        defer { watchdog.cancel() }

        var parser = StreamJSONParser(onText: onText)
        parser.billing = billing
        let (lines, continuation) = AsyncThrowingStream.makeStream(of: String.self)
        state.withLock { $0.lineContinuation = continuation }
        Self.readLines(of: stdout.reading, into: continuation)
        if process.isRunning == false && state.withLock({ $0.expiry }) != nil { continuation.finish() }
        for try await line in lines {
            state.withLock { $0.sawOutput = true }
            parser.consume(line)
            // The result line ends the answer: what `claude` left running may hold its output open for
            // long after (it is stopped on the way out), so nothing more is read.
            if parser.answer != nil || parser.failure != nil { break }
        }
        // Stopped by us: the reason is known, there is nothing to wait for.
        if Task.isCancelled { throw ClaudeError.cancelled }
        if let expiry = state.withLock({ $0.expiry }) {
            throw ClaudeError.timedOut(what: expiry, seconds: (expiry == "the whole answer" ? totalTimeout : firstByteTimeout).inSeconds)
        }
        if let answer = parser.answer, parser.failure == nil {
            // The result line came: `claude` ends by itself in a moment (what it leaves in its group is stopped).
            let exitDeadline = ContinuousClock.now + .seconds(1)
            while process.isRunning && ContinuousClock.now < exitDeadline { try? await Task.sleep(for: .milliseconds(5)) }
            return (answer, parser.costUSD)
        }
        // A child of `claude` that outlives it may hold standard error open, and Foundation may reap the
        // process only once its pipes close: wait for neither longer than a moment (without blocking a thread).
        let errorsDeadline = ContinuousClock.now + .seconds(1)
        while errorsDone.wait(timeout: .now()) == .timedOut && ContinuousClock.now < errorsDeadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        let exitDeadline = ContinuousClock.now + .seconds(2)
        while process.isRunning && ContinuousClock.now < exitDeadline { try? await Task.sleep(for: .milliseconds(20)) }
        if let failure = parser.failure { throw ClaudeError.cliFailed(message: failure) }
        guard let answer = parser.answer else {
            let detail = String(decoding: state.withLock { $0.stderrTail }, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            let status = process.isRunning ? "still running" : "exited with status \(process.terminationStatus)"
            throw ClaudeError.cliFailed(message: "`claude` \(status) without a result" + (detail.isEmpty ? "" : ": " + String(detail.suffix(500))))
        }
        return (answer, parser.costUSD)
    }

    /// Lines of a file handle as they arrive, read on a thread of their own, until the end of the output.
    private static func readLines(of handle: FileHandle, into continuation: AsyncThrowingStream<String, Error>.Continuation) {
        Thread.detachNewThread {
            var pending = Data()
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                pending.append(data)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    continuation.yield(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                    pending = Data(pending[pending.index(after: newline)...])
                }
            }
            if !pending.isEmpty { continuation.yield(String(decoding: pending, as: UTF8.self)) }
            continuation.finish()
        }
    }
}

/// Reads `stream-json` lines: `stream_event` text deltas are appended, `assistant` messages (their whole
/// text so far) are assigned, `result` ends the answer with usage and cost. Unknown lines are skipped.
struct StreamJSONParser {
    let onText: @Sendable (String) -> Void
    /// The text shown, across messages.
    private(set) var shown = ""
    /// The current message's id and how much of `shown` it owns.
    private var messageID: String?
    private var messageStart = "".startIndex
    private var model = ""
    private(set) var answer: AnthropicClient.Answer?
    private(set) var costUSD: Double?
    private(set) var failure: String?
    /// Told what the result line reports, whether the call succeeded or not.
    var billing: BilledUsage?

    init(onText: @escaping @Sendable (String) -> Void) {
        self.onText = onText
    }

    /// What an error result says, in words: not "reported success" for an error whose subtype is
    /// `success`, and a usage limit (`Claude AI usage limit reached|1795650000`) with when it resets.
    static func failureMessage(subtype: String?, result: String?, timeZone: TimeZone = .current) -> String {
        let text = result.map { String($0.prefix(500)) } ?? ""
        if let bar = text.lastIndex(of: "|"), let seconds = TimeInterval(text[text.index(after: bar)...]), text.lowercased().contains("limit") {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = timeZone
            formatter.dateFormat = "yyyy-MM-dd HH:mm zzz"
            return "`claude` says: \(text[..<bar]); it resets at \(formatter.string(from: Date(timeIntervalSince1970: seconds)))"
        }
        let kind = subtype.flatMap { $0 == "success" ? nil : $0 } ?? "an error"
        return "`claude` reported \(kind)" + (text.isEmpty ? "" : ": " + text)
    }

    mutating func consume(_ line: String) {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any], let type = object["type"] as? String else { return }
        switch type {
        case "stream_event":
            guard let event = object["event"] as? [String: Any] else { return }
            if event["type"] as? String == "message_start", let message = event["message"] as? [String: Any] {
                startMessage(message["id"] as? String)
                model = (message["model"] as? String) ?? model
            }
            if event["type"] as? String == "content_block_delta", let delta = event["delta"] as? [String: Any],
               delta["type"] as? String == "text_delta", let piece = delta["text"] as? String {
                show(piece)
            }
        case "assistant":
            guard let message = object["message"] as? [String: Any] else { return }
            if let id = message["id"] as? String, id != messageID { startMessage(id) }
            model = (message["model"] as? String) ?? model
            let blocks = message["content"] as? [[String: Any]] ?? []
            let text = blocks.filter { $0["type"] as? String == "text" }.compactMap { $0["text"] as? String }.joined()
            assign(text)
        case "result":
            let counts = object["usage"] as? [String: Any] ?? [:]
            let usage = MessagesAPI.Usage(
                inputTokens: counts["input_tokens"] as? Int, outputTokens: counts["output_tokens"] as? Int,
                cacheCreationInputTokens: counts["cache_creation_input_tokens"] as? Int, cacheReadInputTokens: counts["cache_read_input_tokens"] as? Int)
            costUSD = object["total_cost_usd"] as? Double
            // Billed or not, said first: a failed call may have cost something too.
            billing?.report(model: model, usage: usage, costUSD: costUSD)
            let isError = object["is_error"] as? Bool ?? false
            if isError || (object["subtype"] as? String).map({ $0 != "success" }) == true {
                failure = Self.failureMessage(subtype: object["subtype"] as? String, result: object["result"] as? String)
                return
            }
            if shown.isEmpty, let result = object["result"] as? String { show(result) }
            answer = AnthropicClient.Answer(text: shown, model: model, stopReason: object["stop_reason"] as? String, usage: usage, attempts: 1)
        default:
            return  // system, user, rate-limit and newer event types
        }
    }

    private mutating func startMessage(_ id: String?) {
        guard id != messageID || id == nil else { return }
        messageID = id
        messageStart = shown.endIndex
    }

    private mutating func show(_ piece: String) {
        guard !piece.isEmpty else { return }
        shown += piece
        onText(piece)
    }

    /// The message's whole text so far: show only what is new. (If it differs from what deltas showed, the
    /// message's own text wins in the answer; the terminal cannot take back what it printed.)
    private mutating func assign(_ text: String) {
        let current = String(shown[messageStart...])
        if text.hasPrefix(current) {
            show(String(text.dropFirst(current.count)))
        } else {
            shown = String(shown[..<messageStart]) + text
            messageStart = shown.index(shown.endIndex, offsetBy: -text.count)
        }
    }
}

/// A pipe whose two ends are closed on exec (`pipe2(O_CLOEXEC)` where there is one: no moment when a
/// process started by another thread could inherit them).
struct ClosedOnExecPipe {
    let reading: FileHandle
    let writing: FileHandle

    init() throws(ClaudeError) {
        var ends: [Int32] = [-1, -1]
        #if os(Linux)
        let status = linuxPipe2(&ends, O_CLOEXEC)
        #else
        let status = pipe(&ends)
        if status == 0 { for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) } }
        #endif
        guard status == 0 else { throw .cliUnavailable(reason: "cannot make a pipe for `claude` (\(String(cString: strerror(errno))))") }
        reading = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true)
        writing = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
    }
}

#if os(Linux)
// pipe2 is a GNU extension the Glibc module does not export; glibc has it since 2.9.
@_silgen_name("pipe2") private func linuxPipe2(_ ends: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32
#endif
