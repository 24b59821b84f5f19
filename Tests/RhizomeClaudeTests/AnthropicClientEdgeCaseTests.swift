import Foundation
import Testing
@testable import RhizomeClaude
import RhizomeTestSupport

/// The Anthropic client and reflect's inputs at their edges: odd retry-after values, redirects, date ranges,
/// a torn ledger line, prices from the vault config.
@Suite(.ownThread, .timeLimit(.minutes(1))) struct AnthropicClientEdgeCaseTests {
    @Test func `retry-after that is not a finite number of seconds is ignored, and an HTTP date is honoured`() {
        #expect(AnthropicClient.retryAfter("2") == .seconds(2))
        #expect(AnthropicClient.retryAfter(" 0.5 ") == .milliseconds(500))
        for nonsense in ["inf", "nan", "-3", "soon", ""] { #expect(AnthropicClient.retryAfter(nonsense) == nil, "\(nonsense)") }
        #expect(AnthropicClient.retryAfter("1e300") == .seconds(86_400), "capped, not a crash")
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let inTenSeconds = AnthropicClient.retryAfter(formatter.string(from: Date().addingTimeInterval(10)))
        #expect(inTenSeconds.map { $0 > .seconds(8) && $0 <= .seconds(10) } == true, "\(String(describing: inTenSeconds))")
        #expect(AnthropicClient.retryAfter(formatter.string(from: Date().addingTimeInterval(-60))) == .zero)
    }

    @Test func `a redirect is not followed, so the key goes to no other host`() async throws {
        let elsewhere = try FakeAnthropicServer(script: [Replies.normal])
        defer { elsewhere.stop() }
        let redirect = FakeAnthropicServer.Reply(steps: [.send(
            "HTTP/1.1 307 Temporary Redirect\r\nLocation: \(elsewhere.baseURL.absoluteString)/v1/messages\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")])
        let server = try FakeAnthropicServer(script: [redirect])
        defer { server.stop() }
        // No retry and generous limits: under load a slow first byte must not turn into a second request.
        let call = await AnthropicClientTests.call(server, AnthropicClientTests.settings(server) {
            $0.maximumRetries = 0
            $0.firstByteTimeout = .seconds(20)
            $0.totalTimeout = .seconds(30)
        })
        #expect(elsewhere.requests.isEmpty, "the redirect target received the request (and the key)")
        guard case .refused(let status, _, _)? = call.error else {
            Issue.record("expected refused, got \(call.outcome)")
            return
        }
        #expect(status == 307)
    }

    @Test func `reflect's days are real dates written in full, in a range that fits`() {
        #expect(Reflect.Period.date("2026-11-05") != nil)
        for bad in ["2026-011-5", "2026-11-5", "1600-01-01", "2300-01-01", "2026-02-30", "２０２６-11-05", "2026/11/05"] {
            #expect(Reflect.Period.date(bad) == nil, "\(bad)")
        }
    }

    @Test func `a line torn by a crash does not swallow the next call in the ledger`() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let ledger = UsageLedger(path: path)
        let usage = MessagesAPI.Usage(inputTokens: 10, outputTokens: 2)
        try ledger.record(.init(time: Date(), feature: "explore", model: "claude-haiku-4-5", vault: "/v", usage: usage, costUSD: 0.001))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"time":"2026-11-22T10:00:00Z","feat"#.utf8))  // a crash mid-write
        try handle.close()
        try ledger.record(.init(time: Date(), feature: "reflect", model: "claude-sonnet-4-6", vault: "/v", usage: usage, costUSD: 0.002))
        #expect(ledger.entries().map(\.feature) == ["explore", "reflect"])
    }

    @Test func `prices from the vault config price a model the built-in table does not know`() {
        #expect(ModelPrices.cost(model: "claude-opus-4-6", inputTokens: 1_000_000, outputTokens: 1_000_000, configured: ["claude-opus-4-6": (5, 25)])
                == .init(usd: 30, basis: .listed))
        #expect(ModelPrices.cost(model: "claude-haiku-4-5", inputTokens: 1_000_000, outputTokens: 0, configured: ["claude-haiku-4-5": (2, 10)]) == .init(usd: 2, basis: .listed),
                "a configured price replaces the built-in one")
        // A dated id is its model; the longest listed id wins (`claude-opus-4-5-…` is not `claude-opus-4`).
        #expect(ModelPrices.cost(model: "claude-opus-4-5-20251101", inputTokens: 1_000_000, outputTokens: 0) == .init(usd: 5, basis: .listed))
        #expect(ModelPrices.cost(model: "claude-opus-4-20250514", inputTokens: 1_000_000, outputTokens: 0) == .init(usd: 15, basis: .listed))
    }

    /// Issue 21, item 7: seconds as people write them, and an error event in a 200 stream without "HTTP 200".
    @Test func `messages round seconds and do not call an error event HTTP 200`() {
        #expect(ClaudeError.timedOut(what: "the whole answer", seconds: 300.030928).description.contains("within 300 s"))
        #expect(ClaudeError.timedOut(what: "a first byte", seconds: 0.3).description.contains("within 0.3 s"))
        #expect(ClaudeError.timedOut(what: "a first byte", seconds: 2.04).description.contains("within 2 s"))
        let event = ClaudeError.refused(status: 200, type: "invalid_request_error", message: "bad").description
        #expect(!event.contains("HTTP 200") && event.contains("an error event, invalid_request_error: bad"), "\(event)")
        #expect(ClaudeError.refused(status: 400, type: "invalid_request_error", message: "x").isRequestProblem)
        #expect(!ClaudeError.refused(status: 429, type: "rate_limit_error", message: "x").isRequestProblem)
        #expect(!ClaudeError.refused(status: 500, type: "api_error", message: "x").isRequestProblem)
    }

    /// Issue 21, item 3: 200k cache-write and 800k cache-read tokens were recorded at $0.00025, and a model
    /// missing from the table at no cost at all, which a budget then never counted.
    @Test func `cache tokens are priced, and an unknown model is estimated at its family's or the highest rate`() {
        // Haiku 4.5: input $1, output $5; cache writes 1.25× input, reads 0.1× input.
        let cached = ModelPrices.cost(model: "claude-haiku-4-5", inputTokens: 50, outputTokens: 40, cacheCreationInputTokens: 200_000, cacheReadInputTokens: 800_000)
        #expect(abs(cached.usd - (50 * 1 + 40 * 5 + 200_000 * 1.25 + 800_000 * 0.1) / 1_000_000) < 1e-12, "\(cached)")
        #expect(cached.usd > 0.3 && !cached.isEstimate)
        // Unknown: its family's dearest member (Opus 4.1, $15/$75), never less.
        let opus = ModelPrices.cost(model: "claude-opus-4-6", inputTokens: 1_000_000, outputTokens: 0)
        #expect(opus == .init(usd: 15, basis: .family) && opus.isEstimate)
        #expect(ModelPrices.cost(model: "claude-sonnet-5", inputTokens: 0, outputTokens: 1_000_000) == .init(usd: 15, basis: .family))
        // Of no known family: the highest price known.
        #expect(ModelPrices.cost(model: "claude-next", inputTokens: 0, outputTokens: 1_000_000) == .init(usd: 75, basis: .highestKnown))
    }
}
