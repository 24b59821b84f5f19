import Dispatch
import Foundation
import MCP
import RhizomeCore
import RhizomeOperations
import RhizomeStore
import RhizomeWatch

/// `rhizome mcp`: an MCP server over stdio that answers from the vault's index and keeps it current.
///
/// - It answers `initialize` at once; the watcher (`VaultWatcher`) runs on its own thread and does the first
///   index meanwhile. Until that index exists, tools answer with an `index-not-ready` error saying how far it is.
/// - If another process already watches the vault (`rhizome watch`, a second MCP server), this one only reads:
///   that process keeps the index current.
/// - Every result carries `freshness`: whether the index is being watched, when it last caught up, and any
///   first-index progress or watcher error.
/// - Calls run concurrently and are answered in any order: read tools on a small pool of read-only
///   connections (`ReaderPool`; WAL: reads never wait for the watcher's writes), write tools one at a time
///   on the writer queue. Every call has a time limit (`timeLimit`, `rhizome mcp --timeout`) that ends its
///   SQL inside SQLite and its Dataview evaluation, with a `timed-out` error; `notifications/cancelled`
///   ends a call the same way and no response is sent for it.
/// - Arguments are checked against each tool's input schema before it runs (`ToolArguments.validated`).
public final class VaultMCPServer: Sendable {
    public let vaultPath: String
    public let databasePath: String
    private let watcherOptions: VaultWatcher.Options
    private let log: @Sendable (String) -> Void
    private let tools: VaultTools
    private let reader: ReaderPool
    /// How long one tool call may run.
    public let timeLimit: Duration
    /// Who keeps the index current.
    private let state = Locked(Watching())
    /// Held across a takeover (`takeOverWatchingIfAbandoned`): one at a time.
    private let takeover = Locked(())
    private let watcherThreads = DispatchGroup()
    private let inFlight = InFlightCalls()
    /// Without the write tools (`rhizome mcp --read-only`).
    public let readOnly: Bool
    /// Write tools run one at a time, each on a writable connection of its own.
    private let writer = DispatchQueue(label: "rhizome.mcp.writer")

    /// How often a server whose vault another process watches checks that it still does.
    static let takeoverInterval: DispatchTimeInterval = .seconds(1)
    /// How long a call waits for the watcher to catch up (a first index after a takeover or at start, a
    /// batch being applied) before it answers from the index as it is, saying so in `freshness`.
    static let catchUpLimit: TimeInterval = 5

    /// The default of `timeLimit`.
    public static let defaultTimeLimit: Duration = .seconds(10)

    public init(vaultPath: String, databasePath: String, watcherOptions: VaultWatcher.Options, readOnly: Bool = false,
                timeLimit: Duration = VaultMCPServer.defaultTimeLimit, log: @escaping @Sendable (String) -> Void) {
        self.vaultPath = vaultPath
        self.databasePath = databasePath
        self.watcherOptions = watcherOptions
        self.readOnly = readOnly
        self.timeLimit = timeLimit
        self.log = log
        tools = VaultTools(vaultPath: vaultPath)
        reader = ReaderPool(databasePath: databasePath)
    }

    /// Serves until standard input closes, then waits (briefly) for calls still running and stops the watcher.
    public func run() async throws {
        try startWatcher()
        let server = Server(
            name: "rhizome", version: RhizomeServerInfo.version, title: "Rhizome",
            instructions: """
                Rhizome answers questions about the Obsidian vault at \(vaultPath) from its link graph: notes, links, backlinks, \
                tags, tasks, frontmatter, full-text search and note-type schemas. Name notes as in a wikilink (`Note`, `Folder/Note`). \
                \(readOnly ? "Every tool is read-only." : "Write tools (create_note, append_to_note, set_properties, move_note, delete_note, fix_frontmatter, undo) change the vault safely: links are kept, deletions go to .trash/, every change can be undone; pass the `hash` from read_note as `expectedHash`.") \
                Results are compact JSON: `data`, `total` and `truncated` (raise `limit` for more), and `freshness` (how current the index is). \
                Calls may run in parallel; each is stopped after \(timeLimit.inSeconds.formatted()) s (error `timed-out`). Arguments outside a tool's input schema are refused (`invalid-argument`).
                """,
            capabilities: Server.Capabilities(tools: .init(listChanged: false)))
        let definitions = tools.definitions + ClaudeTools.definitions(readOnly: readOnly) + (readOnly ? [] : WriteTools.definitions)
        await server.withMethodHandler(ListTools.self) { _ in ListTools.Result(tools: definitions) }
        await server.withMethodHandler(CallTool.self) { [self] parameters in
            try await call(parameters.name, arguments: parameters.arguments, definitions: definitions)
        }

        // Watching is taken over as soon as the process that watched stops, not when the next call comes.
        let keeper = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "rhizome.mcp.takeover"))
        keeper.schedule(deadline: .now() + Self.takeoverInterval, repeating: Self.takeoverInterval)
        keeper.setEventHandler { [weak self] in self?.takeOverWatchingIfAbandoned(waiting: false) }
        keeper.resume()
        defer { keeper.cancel() }

        try await server.start(transport: StdioLineTransport())
        await server.waitUntilCompleted()
        // Standard input closed: let answers already being computed go out.
        await inFlight.waitUntilIdle(timeout: .seconds(10))
        await server.stop()
        state.withLock { $0.watcher }?.stop()
        _ = watcherThreads.wait(timeout: .now() + 10)
    }

    /// Starts the watcher on its own thread, or notes that another process watches the vault already.
    private func startWatcher() throws(WatchError) {
        let watcher: VaultWatcher
        do {
            watcher = try VaultWatcher(vaultPath: vaultPath, databasePath: databasePath, options: watcherOptions)
        } catch {
            guard case .alreadyWatched(_, _, let processID) = error else { throw error }
            let holder = processID.map { "process \($0)" } ?? "another process"
            let isNew = state.withLock { state -> Bool in
                defer { state.externalWatcher = holder }
                return state.externalWatcher != holder
            }
            if isNew { log("the vault is already watched by \(holder); answering from its index") }
            return
        }
        state.withLock { $0 = Watching(watcher: watcher, lastStartAttempt: $0.lastStartAttempt) }
        let log = self.log
        watcherThreads.enter()
        Thread.detachNewThread { [self, watcherThreads] in
            do {
                try watcher.run { event in
                    switch event {
                    case .ready(let report): log("index ready: \(report.notes) notes, \(report.links) links, \(Int(report.milliseconds)) ms")
                    case .batch(let batch): log("applied \(batch.changedPaths) changed path(s) in \(String(format: "%.1f", batch.milliseconds)) ms")
                    case .failed(let message, _): log("error: \(message)")
                    case .vaultMissing, .vaultReplaced, .settling: log(event.notice ?? "")
                    case .stopped: break
                    }
                }
            } catch {
                // Let go of the watcher (and its lock: another `rhizome watch` may start) and say why.
                state.withLock {
                    if $0.watcher === watcher { $0.watcher = nil }
                    $0.watcherFailure = "\(error)"
                }
                log("error: the index cannot be kept current: \(error)")
            }
            watcherThreads.leave()
        }
    }

    /// When the process that watched the vault has stopped, this server takes over watching; when its own
    /// watcher failed, it tries again (at most every 30 s). Called by a timer every second and before each
    /// call; one at a time (two at once would find this process's own new lock taken). The timer skips its
    /// turn when a call is taking over; a call waits for the timer's takeover to end.
    private func takeOverWatchingIfAbandoned(waiting: Bool = true) {
        if waiting {
            takeover.withLock { _ in takeOver() }
        } else {
            _ = takeover.withLockIfAvailable { _ in takeOver() }
        }
    }

    /// The takeover itself, with `takeover` held.
    private func takeOver() {
        let shouldTry = state.withLock { state -> Bool in
            if state.externalWatcher != nil { return true }
            guard state.watcherFailure != nil, ContinuousClock.now - state.lastStartAttempt > .seconds(30) else { return false }
            state.lastStartAttempt = ContinuousClock.now
            return true
        }
        guard shouldTry, !VaultWatcher.activeWatcher(databasePath: databasePath).isWatched else { return }
        do {
            try startWatcher()
            if state.withLock({ $0.watcher }) != nil { log("the other watcher stopped; this server now keeps the index current") }
        } catch {
            log("error: cannot take over watching the vault: \(error)")
        }
    }

    // MARK: Calls

    /// Answers one tool call, or throws `CancellationError` when the client cancelled it: the SDK cancels
    /// the call's task on `notifications/cancelled`, which ends its SQL and Dataview work (the deadline is
    /// cancelled), and sends no response (nor does the transport, for a call that finished meanwhile).
    private func call(_ name: String, arguments values: [String: Value]?, definitions: [Tool]) async throws -> CallTool.Result {
        let deadline = QueryDeadline(limit: timeLimit, scope: "each MCP tool call", setting: "rhizome mcp --timeout SECONDS")
        try Task.checkCancellation()
        await inFlight.begin()
        takeOverWatchingIfAbandoned()
        await waitForCatchUp(within: min(Self.catchUpLimit, timeLimit.inSeconds / 2))
        let result: CallTool.Result
        do {
            let output = try await withTaskCancellationHandler {
                try await perform(name, values: values, definitions: definitions, deadline: deadline)
            } onCancel: {
                deadline.cancel()
            }
            let freshness = self.freshness()
            result = CallTool.Result(content: [.text(text: Self.encode(ToolResponse(tool: name, output: output, freshness: freshness)), annotations: nil, _meta: nil)])
        } catch {
            let freshness = self.freshness()
            let body = ToolFailure(tool: name, error: describe(error), freshness: freshness)
            result = CallTool.Result(content: [.text(text: Self.encode(body), annotations: nil, _meta: nil)], isError: true)
        }
        await inFlight.end()
        if deadline.isCancelled || Task.isCancelled { throw CancellationError() }
        return result
    }

    /// Waits (up to `limit`) until the index holds what the watcher has seen: this server's watcher done
    /// with an index run over an index built before (at start, or after taking over from another process:
    /// the changes made while nobody watched), and any watcher done applying the changes it has seen. A
    /// first index of a vault is not waited for: calls answer `index-not-ready` with its progress meanwhile.
    private func waitForCatchUp(within limit: TimeInterval) async {
        let deadline = Date() + limit
        while Date() < deadline {
            let phase = state.withLock { $0.watcher }?.status.snapshot.phase
            switch phase {
            case .starting?, .indexing?:
                guard reader.lastIndexedAt != nil else { return }
                try? await Task.sleep(for: .milliseconds(5))
                continue
            default:
                break
            }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return }
            let databasePath = self.databasePath
            let ownWatcher = state.withLock { $0.watcher }
            // Waits on the watcher's thread and polls a file: on a thread of its own, not one of the
            // concurrency pool's or Dispatch's global queues'.
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                Thread.detachNewThread {
                    // This server's own watcher first takes every event the kernel holds, so a note saved
                    // just before the call counts as pending even if that thread has not run since.
                    ownWatcher?.flushFileEvents(timeout: .seconds(min(remaining, 1)))
                    _ = VaultWatcher.activeWatcherOnceApplied(databasePath: databasePath, timeout: max(0, deadline.timeIntervalSinceNow))
                    continuation.resume()
                }
            }
            return
        }
    }

    /// Checks the arguments against the tool's schema, then runs it: a read tool on a pooled read-only
    /// connection, a write tool on the writer queue.
    private func perform(_ name: String, values: [String: Value]?, definitions: [Tool], deadline: QueryDeadline) async throws -> ToolOutput {
        if (WriteTools.handles(name) || ClaudeTools.writes(name)) && readOnly {
            throw ToolError.failed(code: "read-only", message: "`\(name)` changes the vault, and this server runs with --read-only")
        }
        guard let definition = definitions.first(where: { $0.name == name }) else { throw ToolError.unknownTool(name) }
        let arguments = try ToolArguments.validated(values, for: definition)
        if WriteTools.handles(name) {
            return try await write(name, arguments: arguments, deadline: deadline)
        }
        if ClaudeTools.handles(name) {
            return try await ClaudeTools.call(name, arguments: arguments, vaultPath: vaultPath, reader: reader, deadline: deadline)
        }
        return try await reader.perform(deadline) { [tools] store in try tools.call(name, arguments: arguments, store: store) }
    }

    /// Runs a write tool on the writer queue: a writable connection, the index brought up to date first (the
    /// plan must see every link), then the operations layer, which re-indexes what it changed. The time
    /// limit and a cancellation apply while the call waits for the queue; a write that has started runs to
    /// its end (it is journaled, and `undo` reverses it), so the vault and index are never left half-changed.
    private func write(_ name: String, arguments: ToolArguments, deadline: QueryDeadline) async throws -> ToolOutput {
        let (vaultPath, databasePath) = (self.vaultPath, self.databasePath)
        return try await withCheckedThrowingContinuation { continuation in
            writer.async {
                do {
                    try deadline.check()
                    let store = try IndexStore(path: databasePath)
                    var options = IndexOptions()
                    options.excludedPaths = IndexLocation.excludedPaths(databasePath: databasePath, vaultPath: vaultPath)
                    let editor = try VaultEditor(vaultPath: vaultPath, databasePath: databasePath, store: store, indexOptions: options)
                    _ = try Indexer(store: store, vaultRoot: vaultPath, options: options).run()
                    continuation.resume(returning: try WriteTools.call(name, arguments: arguments, editor: editor))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    /// The code, message and fix a failed call answers with.
    private func describe(_ error: Error) -> ToolFailure.Detail {
        switch error {
        case let error as ToolError: return .init(code: error.code, message: error.message, fix: error.fix)
        case let error as StoreError:
            switch error {
            case .notIndexed, .olderSchema:
                let (watcher, externalWatcher) = state.withLock { ($0.watcher, $0.externalWatcher) }
                let phase = watcher?.status.snapshot.phase
                if case .indexing(let done, let total)? = phase, total > 0 {
                    return .init(code: "index-not-ready", message: "the first index of this vault is still being built (\(done) of \(total) files); ask again in a few seconds")
                }
                if externalWatcher == nil && watcher == nil {
                    return .init(code: error.code, message: error.description, fix: error.fix)
                }
                return .init(code: "index-not-ready", message: "the first index of this vault is still being built; ask again in a few seconds")
            default: return .init(code: error.code, message: error.description, fix: error.fix)
            }
        // The diagnostic, as the command line prints it: a Dataview or Bases error shows its line and a caret.
        case let error as any RhizomeError: return .init(code: error.code, message: error.diagnostic, fix: error.fix)
        default: return .init(code: "internal-error", message: "\(error)")
        }
    }

    private func freshness() -> Freshness {
        let (watcher, externalWatcher, failure) = state.withLock { ($0.watcher, $0.externalWatcher, $0.watcherFailure) }
        if let externalWatcher {
            // The other process says through its watch lock whether it lost the vault or is behind, and its
            // heartbeat whether it is alive and watching.
            let other = VaultWatcher.activeWatcher(databasePath: databasePath)
            // Applying a batch (`pending`) is still watching; a heartbeat that stopped is not.
            if other.isUnresponsive() {
                return Freshness(state: "unresponsive", watchedBy: externalWatcher, indexedAt: reader.lastIndexedAt,
                                 reason: "the process that watches the vault is not responding (\(other.silence()): stopped, or busy); answers may miss recent changes")
            }
            if let state = other.state, [.starting, .indexing, .behind, .settling, .vaultMissing].contains(state) {
                return Freshness(state: state.rawValue, watchedBy: externalWatcher, indexedAt: reader.lastIndexedAt, reason: state.reason)
            }
            return Freshness(state: "watched-by-other-process", watchedBy: externalWatcher, indexedAt: reader.lastIndexedAt)
        }
        guard let snapshot = watcher?.status.snapshot else {
            return Freshness(state: "not-watched", indexedAt: reader.lastIndexedAt, lastError: failure)
        }
        let indexedAt = snapshot.indexedAt.map { ISO8601DateFormatter().string(from: $0) } ?? reader.lastIndexedAt
        switch snapshot.phase {
        case .indexing(let done, let total):
            return Freshness(state: "indexing", watchedBy: "this server", indexedAt: indexedAt, filesDone: done, filesTotal: total, lastError: snapshot.lastError)
        case .stopped:
            return Freshness(state: "not-watched", indexedAt: indexedAt, lastError: snapshot.lastError)
        case .starting, .watching, .settling, .vaultMissing:
            // `behind`: a batch failed and is retried; until then the index may be behind the vault.
            return Freshness(state: snapshot.state.rawValue, watchedBy: "this server", indexedAt: indexedAt, lastError: snapshot.lastError, reason: snapshot.reason)
        }
    }

    private static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "{\"error\":{\"code\":\"encoding-failed\"}}" }
        return String(decoding: data, as: UTF8.self)
    }
}

/// Who keeps the index current for a server (`VaultMCPServer.state`).
private struct Watching: Sendable {
    /// The watcher this server runs, or the process that watches the vault instead.
    var watcher: VaultWatcher?
    var externalWatcher: String?
    /// Why this server's watcher stopped, and when it last tried to start one.
    var watcherFailure: String?
    var lastStartAttempt = ContinuousClock.now
}

public enum RhizomeServerInfo {
    /// Kept equal to the CLI's version (`RhizomeVersion.current`) by a test.
    public static let version = "0.1.0"
}

/// How current the answers are.
struct Freshness: Encodable, Sendable {
    /// `current` (watched, caught up), `behind` (a batch failed; retrying), `settling` (the vault folder was
    /// replaced or much of it changed; caught up once it is quiet), `vault-missing` (the vault folder is gone;
    /// the index is kept as it was), `indexing` (first index running), `starting`, `watched-by-other-process`,
    /// `unresponsive` (the other process's heartbeat stopped: SIGSTOP, a debugger, a batch that never ends),
    /// `not-watched`. `starting`, `indexing`, `behind`, `settling` and `vault-missing` also come from a watcher in another process
    /// (`watchedBy` names it), read from its watch lock.
    var state: String
    @NullEncoded var watchedBy: String?
    /// When the index last caught up with the vault (ISO 8601).
    @NullEncoded var indexedAt: String?
    @NullEncoded var filesDone: Int?
    @NullEncoded var filesTotal: Int?
    @NullEncoded var lastError: String?
    /// Why the index is not current (`settling`, `vault-missing`).
    @NullEncoded var reason: String?

    init(state: String, watchedBy: String? = nil, indexedAt: String?, filesDone: Int? = nil, filesTotal: Int? = nil, lastError: String? = nil, reason: String? = nil) {
        (self.state, self.watchedBy, self.indexedAt, self.filesDone, self.filesTotal) = (state, watchedBy, indexedAt, filesDone, filesTotal)
        (self.lastError, self.reason) = (lastError, reason)
    }

    private enum CodingKeys: String, CodingKey { case state, watchedBy, indexedAt, filesDone, filesTotal, lastError, reason }
}

/// A tool's result: `{"data", "freshness", "tool", "total", "truncated", "version"}`.
struct ToolResponse: Encodable {
    var tool: String
    var output: ToolOutput
    var freshness: Freshness

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(tool, forKey: .tool)
        try output.data.encode(to: container.superEncoder(forKey: .data))
        try container.encode(output.total, forKey: .total)
        try container.encode(output.truncated, forKey: .truncated)
        try container.encodeIfPresent(output.note, forKey: .note)
        try container.encode(freshness, forKey: .freshness)
        try container.encode(1, forKey: .version)
    }

    private enum CodingKeys: String, CodingKey { case tool, data, total, truncated, note, freshness, version }
}

/// A failed call: `{"error": {"code", "message", "fix"}, "freshness", "tool", "version"}`.
struct ToolFailure: Encodable {
    struct Detail: Encodable {
        var code: String
        var message: String
        /// How to fix it, when the error says so apart from its message (null otherwise).
        @NullEncoded var fix: String?

        init(code: String, message: String, fix: String? = nil) {
            self.code = code
            self.message = message
            self.fix = fix
        }

        enum CodingKeys: String, CodingKey { case code, message, fix }
    }
    var tool: String
    var error: Detail
    var freshness: Freshness
    var version = 1
}

/// Counts tool calls being answered, so the server can wait for them before it exits.
actor InFlightCalls {
    private var count = 0

    func begin() { count += 1 }
    func end() { count -= 1 }

    func waitUntilIdle(timeout: Duration) async {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        // A request read just before the end of input may not have started yet.
        try? await Task.sleep(for: .milliseconds(100))
        while count > 0 && clock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        // A handler that returned is answered by the SDK a moment later.
        try? await Task.sleep(for: .milliseconds(200))
    }
}
