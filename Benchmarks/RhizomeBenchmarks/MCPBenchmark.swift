import Foundation
import RhizomeCore
import RhizomeStore

/// `--mcp N`: tool-call latency of the real `rhizome mcp` process (next to this benchmark's executable)
/// while a slow call runs: an endless SQL query holds one connection for the whole measurement, and 200
/// mixed read calls go out in waves of 10 sent at once (as an agent sends parallel tool calls). Prints
/// p50, p99 and the maximum of the 200 latencies (send to answer), then cancels the slow query.
struct MCPBenchmark {
    let noteCount: Int
    let workRoot: String
    static let calls = 200
    static let wave = 10

    func run() throws {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("rhizome")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw BenchmarkFailure("build `rhizome` first (swift build -c release): not found at \(binary.path)")
        }
        let (vault, _) = try BenchmarkRun.prepareVault(VaultGenerator(noteCount: noteCount), workRoot: workRoot)
        let database = URL(fileURLWithPath: workRoot).appendingPathComponent("mcp-\(noteCount).sqlite").path
        let store = try IndexStore(path: database)
        _ = try Indexer(store: store, vaultRoot: vault.path).run()
        try store.setIndexedVaultPath(vault.path)

        let server = try ServerProcess(binary: binary, arguments: ["mcp", "--vault", vault.path, "--db", database, "--timeout", "120"])
        defer { server.stop() }
        _ = try server.answer(server.send("initialize", ["protocolVersion": "2025-06-18", "capabilities": [:], "clientInfo": ["name": "benchmark", "version": "1"]]))
        server.notify("notifications/initialized")
        // Names to ask about, from the index the server answers from.
        let names = try server.toolText(server.answer(server.call("query", ["sql": "SELECT name FROM notes ORDER BY id LIMIT 40"])))
            .components(separatedBy: "\"rows\":[[\"").dropFirst().first?.components(separatedBy: "\"],[\"").map { $0.components(separatedBy: "\"]").first ?? $0 } ?? []
        guard names.count >= 10 else { throw BenchmarkFailure("the server listed too few notes: \(names)") }
        let mixed: [(String, [String: Any])] = [
            ("tags", ["limit": 50]), ("search", ["query": "project", "limit": 10]), ("backlinks", ["note": names[0]]),
            ("note", ["note": names[1]]), ("neighbors", ["note": names[2], "depth": 2]), ("properties", [:]),
            ("query", ["sql": "SELECT count(*) FROM links"]), ("dataview", ["query": "LIST FROM #project LIMIT 20"]),
            ("read_note", ["note": names[3], "maxCharacters": 2_000]), ("tasks", ["limit": 50]),
        ]
        for (name, arguments) in mixed { _ = try server.answer(server.call(name, arguments)) }  // warm each lane's caches once

        print("\n== MCP tool calls, \(noteCount) notes (real `rhizome mcp` over stdio; \(Self.calls) mixed read calls in waves of \(Self.wave)) ==")
        try measure(server: server, mixed: mixed, label: "alone")
        let slow = try server.call("query", ["sql": "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"])
        Thread.sleep(forTimeInterval: 0.5)
        try measure(server: server, mixed: mixed, label: "during a slow query")
        let slowStillRunning = !server.hasAnswer(slow)
        try server.cancel(slow)
        Thread.sleep(forTimeInterval: 1)
        print("  the slow query ran throughout: \(slowStillRunning ? "yes" : "no (it ended early)"); answered after its cancellation: \(server.hasAnswer(slow) ? "yes (wrong)" : "no")")
    }

    /// Sends the mixed calls in waves and prints p50 / p99 / max of their latencies, and each tool's median.
    private func measure(server: ServerProcess, mixed: [(String, [String: Any])], label: String) throws {
        var latencies: [Double] = []
        var byTool: [String: [Double]] = [:]
        var errors = 0
        let clock = ContinuousClock()
        let started = clock.now
        var sent = 0
        while sent < Self.calls {
            let wave = try (0..<Self.wave).map { offset -> (Int, String, ContinuousClock.Instant) in
                let (name, arguments) = mixed[(sent + offset) % mixed.count]
                return (try server.call(name, arguments), name, clock.now)
            }
            for (id, name, at) in wave {
                let answer = try server.answer(id)
                let latency = (server.arrival(of: id)! - at).inMilliseconds
                latencies.append(latency)
                byTool[name, default: []].append(latency)
                if answer.contains("\"isError\":true") { errors += 1 }
            }
            sent += Self.wave
        }
        let sorted = latencies.sorted()
        print(String(format: "  %@: p50 %.0f ms, p99 %.0f ms, max %.0f ms (%.1f s in all, %d errors)", label as NSString,
                     Measurements.percentile(sorted, 0.5), Measurements.percentile(sorted, 0.99), sorted.last ?? 0, (clock.now - started).inSeconds, errors))
        print("    median per tool (ms): " + byTool.sorted { $0.key < $1.key }.map { "\($0.key) \(Int(Measurements.median($0.value)))" }.joined(separator: ", "))
    }
}

struct BenchmarkFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A `rhizome mcp` child speaking newline-delimited JSON-RPC; answers are collected by id with their
/// arrival time on a reading thread.
final class ServerProcess: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let condition = NSCondition()
    private var answers: [Int: (text: String, at: ContinuousClock.Instant)] = [:]
    private var ended = false
    private var nextID = 1

    init(binary: URL, arguments: [String]) throws {
        process.executableURL = binary
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        let handle = output.fileHandleForReading
        Thread.detachNewThread { [self] in
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                let now = ContinuousClock.now
                pending.append(chunk)
                while let newline = pending.firstIndex(of: 10) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending = Data(pending[pending.index(after: newline)...])
                    guard let data = line.data(using: .utf8), let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                          let id = object["id"] as? Int else { continue }
                    condition.withLock { answers[id] = (line, now) }
                    condition.broadcast()
                }
            }
            condition.withLock { ended = true }
            condition.broadcast()
        }
    }

    func send(_ method: String, _ params: [String: Any]) throws -> Int {
        let id = nextID
        nextID += 1
        try write(["jsonrpc": "2.0", "id": id, "method": method, "params": params])
        return id
    }

    func call(_ tool: String, _ arguments: [String: Any]) throws -> Int { try send("tools/call", ["name": tool, "arguments": arguments]) }

    func notify(_ method: String) { try? write(["jsonrpc": "2.0", "method": method]) }

    func cancel(_ id: Int) throws { try write(["jsonrpc": "2.0", "method": "notifications/cancelled", "params": ["requestId": id]]) }

    /// Waits (up to 60 s) for the answer to `id`.
    func answer(_ id: Int) throws -> String {
        let deadline = Date().addingTimeInterval(60)
        return try condition.withLock {
            while answers[id] == nil {
                if ended || !condition.wait(until: deadline) { throw BenchmarkFailure("no answer to request \(id)") }
            }
            return answers[id]!.text
        }
    }

    func arrival(of id: Int) -> ContinuousClock.Instant? { condition.withLock { answers[id]?.at } }
    func hasAnswer(_ id: Int) -> Bool { condition.withLock { answers[id] != nil } }

    /// The text content of a tool result.
    func toolText(_ answer: String) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any],
              let result = object["result"] as? [String: Any], let content = result["content"] as? [[String: Any]] else { return "" }
        return content.first?["text"] as? String ?? ""
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { process.terminate() }
    }

    private func write(_ message: [String: Any]) throws {
        var data = try JSONSerialization.data(withJSONObject: message)
        data.append(10)
        try input.fileHandleForWriting.write(contentsOf: data)
    }
}
