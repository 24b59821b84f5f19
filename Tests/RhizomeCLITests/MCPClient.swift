import Foundation
import Testing
import RhizomeTestSupport

// MARK: - The client

/// One tool call's answer: `isError` and the JSON document in its text content.
struct ToolAnswer {
    var isError: Bool
    var body: AnyJSON
}

/// An MCP client of the real `rhizome mcp` process.
final class MCPSession {
    static let protocolVersion = "2025-06-18"
    static let initializeParameters: AnyJSON = [
        "protocolVersion": .string(protocolVersion), "capabilities": [:], "clientInfo": ["name": "rhizome-tests", "version": "1"],
    ]

    static func environment(_ vault: TemporaryVault) -> [String: String] {
        ["HOME": vault.outside.path, "XDG_CACHE_HOME": vault.outside.path + "/.cache", "PATH": "/usr/bin:/bin"]
    }

    let child: ChildProcess
    private var nextID = 1
    private var messages: [Int: AnyJSON] = [:]
    private var linesRead = 0
    /// The ids of the answers read so far, in the order they arrived.
    private(set) var arrivalOrder: [Int] = []
    /// Lines on standard output that are not JSON-RPC messages.
    private(set) var strayOutput: [String] = []

    /// `defaultIndex`: no `--db`, so the index goes where a user's would (under the test's `XDG_CACHE_HOME`).
    /// `arguments`: more of `rhizome mcp`'s options (`--read-only`).
    /// `environment`: added to the server's (the fake Messages API's address and a key, for `explore`).
    init(vault: TemporaryVault, defaultIndex: Bool = false, arguments: [String] = [], environment: [String: String] = [:]) throws {
        let binary = try #require(RhizomeBinary.url, "the rhizome executable was not built next to the tests")
        let database = defaultIndex ? [] : ["--db", vault.databasePath]
        child = try ChildProcess(
            executable: binary, arguments: ["mcp", "--vault", vault.path] + database + arguments,
            environment: Self.environment(vault).merging(environment) { $1 })
    }

    // MARK: Sending

    func send(_ message: AnyJSON) throws {
        try child.writeLine(message.text)
    }

    /// Sends a request and returns its id without waiting for the answer.
    func request(_ method: String, params: AnyJSON = [:]) throws -> Int {
        let id = nextID
        nextID += 1
        try send(["jsonrpc": "2.0", "id": .number(Double(id)), "method": .string(method), "params": params])
        return id
    }

    func notify(_ method: String) throws {
        try send(["jsonrpc": "2.0", "method": .string(method)])
    }

    func callTool(_ name: String, _ arguments: AnyJSON) throws -> Int {
        try request("tools/call", params: ["name": .string(name), "arguments": arguments])
    }

    /// `initialize` then `notifications/initialized`; returns the initialize result.
    func initialize() throws -> AnyJSON {
        let result = try result(of: request("initialize", params: Self.initializeParameters), within: .seconds(10))
        try notify("notifications/initialized")
        return result
    }

    // MARK: Receiving

    /// The messages answering `ids`, waiting for all of them until the deadline.
    func messages(_ ids: [Int], within timeout: Duration = .seconds(15)) throws -> [Int: AnyJSON] {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            absorb(child.outputLines)
            let missing = ids.filter { messages[$0] == nil }
            if missing.isEmpty { return messages.filter { ids.contains($0.key) } }
            if clock.now >= deadline || child.outputEnded {
                throw SessionError.noAnswer(missing, waited: timeout, outputEnded: child.outputEnded, strayLines: strayOutput.count, errorText: child.errorText)
            }
            let seen = linesRead
            child.waitForOutput(within: deadline - clock.now) { $0.count > seen }
        }
    }

    /// Whether an answer to `id` has arrived by now (without waiting).
    func hasAnswer(_ id: Int) -> Bool {
        absorb(child.outputLines)
        return messages[id] != nil
    }

    /// Sends `notifications/cancelled` for the request `id`.
    func cancel(_ id: Int, reason: String = "the test changed its mind") throws {
        try send(["jsonrpc": "2.0", "method": "notifications/cancelled", "params": ["requestId": .number(Double(id)), "reason": .string(reason)]])
    }

    func message(_ id: Int, within timeout: Duration = .seconds(15)) throws -> AnyJSON {
        try messages([id], within: timeout)[id]!
    }

    func result(of id: Int, within timeout: Duration = .seconds(15)) throws -> AnyJSON {
        let message = try message(id, within: timeout)
        try #require(message["error"].isNull, "request \(id) failed: \(message)")
        return message["result"]
    }

    /// The answers to tool calls: each a result (not a JSON-RPC error) with one text content holding JSON.
    func toolAnswers(_ ids: [Int], within timeout: Duration = .seconds(15)) throws -> [Int: ToolAnswer] {
        try messages(ids, within: timeout).mapValues { message in
            let result = message["result"]
            let text = try #require(result["content"][0]["text"].string, "not a tool result: \(message)")
            #expect(result["content"][0]["type"] == "text")
            let body = try #require(AnyJSON.parse(text), "tool text is not JSON: \(text)")
            return ToolAnswer(isError: result["isError"] == true, body: body)
        }
    }

    /// Calls one tool and waits for its answer.
    func call(_ name: String, _ arguments: AnyJSON, within timeout: Duration = .seconds(15)) throws -> ToolAnswer {
        let id = try callTool(name, arguments)
        return try toolAnswers([id], within: timeout)[id]!
    }

    /// Asks until `condition` holds (true) or the deadline passes (false).
    func poll(within timeout: Duration, every interval: Duration = .milliseconds(50), _ condition: () throws -> Bool) throws -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while clock.now < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18)
        }
        return try condition()
    }

    /// Waits until tools answer from a complete first index (no `index-not-ready`).
    func waitUntilIndexed(within timeout: Duration = .seconds(30)) throws {
        let ready = try poll(within: timeout) {
            let answer = try call("query", ["sql": "SELECT 1"])
            if answer.isError {
                #expect(answer.body["error"]["code"] == "index-not-ready", "\(answer.body)")
                return false
            }
            // Once the index's schema exists, queries read what the first index has committed so far, and
            // say so ("indexing"): ready means that index has finished.
            return answer.body["freshness"]["state"] != "indexing" && answer.body["freshness"]["state"] != "starting"
        }
        try #require(ready, "the first index was not ready within \(timeout); stderr: \(child.errorText)")
    }

    /// Closes standard input (the client is done) and waits for the server to exit.
    func finish(within timeout: Duration = .seconds(10)) -> ChildProcess.Termination? {
        child.closeInput()
        return child.waitForExit(within: timeout)
    }

    private func absorb(_ lines: [String]) {
        for line in lines.dropFirst(linesRead) {
            linesRead += 1
            guard let message = AnyJSON.parse(line), message["jsonrpc"] == "2.0" else {
                strayOutput.append(line)
                continue
            }
            if let id = message["id"].int {
                messages[id] = message
                arrivalOrder.append(id)
            }
        }
    }

    enum SessionError: Error, CustomStringConvertible {
        case noAnswer([Int], waited: Duration, outputEnded: Bool, strayLines: Int, errorText: String)

        var description: String {
            switch self {
            case .noAnswer(let ids, let waited, let outputEnded, let strayLines, let errorText):
                "no answer to request(s) \(ids) within \(waited)\(outputEnded ? " (the server closed its output)" : "")"
                    + (strayLines > 0 ? "; \(strayLines) line(s) on stdout were not JSON-RPC" : "") + "; stderr: \(errorText)"
            }
        }
    }
}
