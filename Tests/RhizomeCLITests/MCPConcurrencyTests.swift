import Foundation
import Testing
import RhizomeTestSupport

/// Tool calls run side by side, each within a time limit, and can be cancelled: the real `rhizome mcp`
/// process driven over stdio, with short `--timeout`s so each scenario takes a few seconds.
@Suite(.ownThread, .serialized, .timeLimit(.minutes(2))) struct MCPConcurrencyTests {
    /// A query that never ends by itself: SQLite counts forever.
    static let endlessSQL: AnyJSON = ["sql": "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"]

    /// The repro: every page's outlinks flattened four times over. On a vault where 30 notes each
    /// link to all 30, that is 30⁵ (24 million) rows: minutes of work without a limit.
    static let flattenFourTimes: AnyJSON = ["query": .string("TABLE a FROM \"\" " + Array(repeating: "FLATTEN file.outlinks AS a", count: 4).joined(separator: " "))]

    static func denselyLinkedVault() throws -> TemporaryVault {
        let vault = try TemporaryVault()
        let names = (1...30).map { "Note \($0)" }
        for name in names {
            try vault.write("\(name).md", "# \(name)\n\n" + names.map { "[[\($0)]]" }.joined(separator: " ") + "\n#dense\n")
        }
        return vault
    }

    static func seconds(_ duration: Duration) -> Double { Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18 }

    @Test func `a tags call answers at once while a slow query and a slow dataview run`() throws {
        let vault = try Self.denselyLinkedVault()
        let session = try MCPSession(vault: vault, arguments: ["--timeout", "4"])
        defer { session.child.stop() }
        _ = try session.initialize()
        try session.waitUntilIndexed()

        let slowSQL = try session.callTool("query", Self.endlessSQL)
        let slowDataview = try session.callTool("dataview", Self.flattenFourTimes)
        Thread.sleep(forTimeInterval: 0.3)  // both are running now
        let clock = ContinuousClock()
        let sent = clock.now
        let tags = try session.callTool("tags", [:])
        let answer = try #require(session.toolAnswers([tags], within: .seconds(10))[tags])
        let latency = clock.now - sent
        #expect(!answer.isError, "\(answer.body)")
        #expect(answer.body["data"][0]["tag"] == "dense", "\(answer.body)")
        // Served one at a time, it would wait out the 4 s limits; 1.5 s leaves room for a loaded 2-core machine.
        #expect(latency < .milliseconds(1_500), "tags took \(latency) while slow calls ran")
        #expect(!session.hasAnswer(slowSQL) && !session.hasAnswer(slowDataview), "the slow calls must still be running")

        let slow = try session.toolAnswers([slowSQL, slowDataview], within: .seconds(20))
        for (id, answer) in slow {
            #expect(answer.isError, "\(id): \(answer.body)")
            #expect(answer.body["error"]["code"] == "timed-out", "\(answer.body)")
        }
        #expect(session.arrivalOrder.firstIndex(of: tags)! < session.arrivalOrder.firstIndex(of: slowSQL)!, "\(session.arrivalOrder)")
        #expect(session.finish() == .exited(0), "stderr: \(session.child.errorText)")
        #expect(session.strayOutput.isEmpty, "stdout lines never interleave: \(session.strayOutput)")
    }

    @Test func `a dataview query flattening four times is stopped at the time limit with a coded error`() throws {
        let vault = try Self.denselyLinkedVault()
        let session = try MCPSession(vault: vault, arguments: ["--timeout", "1"])
        defer { session.child.stop() }
        _ = try session.initialize()
        try session.waitUntilIndexed()

        let clock = ContinuousClock()
        let started = clock.now
        let answer = try session.call("dataview", Self.flattenFourTimes, within: .seconds(30))
        let elapsed = clock.now - started
        #expect(answer.isError)
        #expect(answer.body["error"]["code"] == "timed-out", "\(answer.body)")
        let message = answer.body["error"]["message"].string ?? ""
        #expect(message.contains("1 s") && message.contains("rhizome mcp --timeout"), "says which limit and how to raise it: \(message)")
        #expect(elapsed < .seconds(8), "stopped near its 1 s limit, not after \(elapsed)")

        let runaway = try session.call("query", Self.endlessSQL, within: .seconds(30))
        #expect(runaway.body["error"]["code"] == "timed-out", "\(runaway.body)")
        let after = try session.call("search", ["query": "Note", "limit": 1])
        #expect(!after.isError, "the server answers after a timeout: \(after.body)")
        #expect(session.finish() == .exited(0), "stderr: \(session.child.errorText)")
    }

    @Test func `a cancelled call gets no response, its work stops, and later calls are answered`() throws {
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        let session = try MCPSession(vault: vault, arguments: ["--timeout", "6"])
        defer { session.child.stop() }
        _ = try session.initialize()
        try session.waitUntilIndexed()

        // More endless queries than the server has connections, then all cancelled: if their SQL kept
        // running, the next call would wait for a connection until their 6 s limit.
        let endless = try (0..<6).map { _ in try session.callTool("query", Self.endlessSQL) }
        Thread.sleep(forTimeInterval: 0.5)
        for id in endless { try session.cancel(id) }
        // A cancellation sent right behind its request, which may overtake it inside the server.
        let overtaken = try session.callTool("dataview", ["query": "LIST FROM \"\""])
        try session.cancel(overtaken)

        let clock = ContinuousClock()
        let sent = clock.now
        let tags = try session.callTool("tags", ["limit": 3])
        let answer = try #require(session.toolAnswers([tags], within: .seconds(15))[tags])
        #expect(!answer.isError, "\(answer.body)")
        #expect(clock.now - sent < .seconds(3), "cancelled queries must free their connections at once")

        // Past the limit the cancelled calls would have had: still no answer to any of them.
        Thread.sleep(forTimeInterval: 6.5)
        let later = try session.call("search", ["query": "project", "limit": 1])
        #expect(!later.isError, "\(later.body)")
        for id in endless + [overtaken] {
            #expect(!session.hasAnswer(id), "request \(id) was cancelled and must get no response")
        }
        #expect(session.finish() == .exited(0), "stderr: \(session.child.errorText)")
    }

    @Test func `arguments outside a tool's input schema are refused, naming the argument`() throws {
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        let session = try MCPSession(vault: vault)
        defer { session.child.stop() }
        _ = try session.initialize()
        try session.waitUntilIndexed()

        let refused: [(tool: String, arguments: AnyJSON, argument: String, saying: String)] = [
            ("tags", ["tag": 5], "tag", "must be text"),
            ("note", ["note": "Home", "offset": 100_000], "offset", "is not an argument of `note`"),
            ("read_note", ["note": "Home", "offset": 100_000], "offset", "past the end"),
            ("neighbors", ["note": "Home", "depth": 9], "depth", "at most 3"),
            ("neighbors", ["note": "Home", "direction": "up"], "direction", "must be one of"),
            ("search", ["query": "project", "limit": "5"], "limit", "must be a whole number"),
            ("search", ["query": "project", "limit": 0], "limit", "at least 1"),
            ("search", ["limit": 5], "query", "is required"),
            ("tasks", ["status": "pending"], "status", "must be one of"),
            ("note", ["note": "Home", "includeBody": "yes"], "includeBody", "true or false"),
            ("dataview", ["query": "LIST", "limit": 2.5], "limit", "whole number"),
            ("set_properties", ["note": "Home", "properties": "status: done"], "properties", "must be an object"),
            ("create_note", ["path": "Inbox/New.md", "content": "x", "overwrite": true], "overwrite", "is not an argument"),
        ]
        let ids = try refused.map { try session.callTool($0.tool, $0.arguments) }
        let answers = try session.toolAnswers(ids)
        for (id, expected) in zip(ids, refused) {
            let answer = try #require(answers[id])
            #expect(answer.isError, "\(expected.tool) \(expected.arguments) was accepted: \(answer.body)")
            #expect(answer.body["error"]["code"] == "invalid-argument", "\(expected.tool): \(answer.body)")
            let message = answer.body["error"]["message"].string ?? ""
            #expect(message.contains("`\(expected.argument)`") && message.contains(expected.saying), "\(expected.tool): \(message)")
        }
        #expect(!FileManager.default.fileExists(atPath: vault.url("Inbox/New.md").path), "a refused write changes nothing")

        // Within the schema (null standing for an optional argument left out), calls still answer.
        let page = try session.call("read_note", ["note": "Home", "offset": 0, "maxCharacters": 100, "heading": nil])
        #expect(!page.isError, "\(page.body)")
        #expect(page.body["data"]["nextOffset"] == 100, "\(page.body)")
        let whole = try session.call("search", ["query": "project", "limit": 2.0])
        #expect(!whole.isError, "2.0 is a whole number: \(whole.body)")
        #expect(session.finish() == .exited(0), "stderr: \(session.child.errorText)")
    }
}
