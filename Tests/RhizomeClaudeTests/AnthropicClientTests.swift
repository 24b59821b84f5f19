import Foundation
import RhizomeClaude
import RhizomeTestSupport
import Testing

/// The Messages API client against a fake API on loopback that speaks real HTTP and SSE: what the user gets
/// (text, model, usage, errors), what was sent, retries and timeouts, cancellation — and that the key
/// never comes back out.
@Suite(.ownThread, .serialized, .timeLimit(.minutes(1)))
struct AnthropicClientTests {
    static let key = "sk-ant-test-SECRET-1234"

    static let question = MessagesAPI.Request(
        model: "claude-haiku-4-5", maxTokens: 512,
        messages: [.init(role: .user, content: "Which of my notes talk about composting?")],
        system: "Answer from the numbered notes only, citing them as [n].", temperature: 0.3
    )

    // MARK: The normal stream

    @Test func `a normal stream gives the whole text, piece by piece, with its model, stop reason and usage`() async throws {
        let server = try FakeAnthropicServer(script: [Replies.normal])
        defer { server.stop() }

        let call = await Self.call(server)

        let answer = try #require(call.answer, "\(call.error.map(String.init(describing:)) ?? "")")
        #expect(answer.text == Replies.text)
        #expect(call.pieces == Replies.pieces)
        #expect(answer.model == Replies.model)
        #expect(answer.stopReason == "end_turn")
        #expect(answer.usage.inputTokens == 25, "from message_start")
        #expect(answer.usage.outputTokens == 15, "from message_delta, replacing message_start's 1")
        #expect(answer.attempts == 1)
        #expect(call.retries.isEmpty)
        #expect(server.requests.count == 1)
    }

    @Test func `the request carries the key, the API version, JSON content type and the whole body with stream true`() async throws {
        let server = try FakeAnthropicServer(script: [Replies.normal])
        defer { server.stop() }

        _ = await Self.call(server)

        let request = try #require(server.requests.first)
        #expect(request.method == "POST")
        #expect(request.path == "/v1/messages")
        let carriesKey = request.headers["x-api-key"] == Self.key  // a Bool, so that a failure does not print the key
        #expect(carriesKey, "x-api-key is the key")
        #expect(request.headers["anthropic-version"] == "2023-06-01")
        #expect(request.headers["content-type"] == "application/json")
        let body = try #require(request.json, "the body is JSON")
        #expect(body["model"] == "claude-haiku-4-5")
        #expect(body["max_tokens"] == 512)
        #expect(body["temperature"] == 0.3)
        #expect(body["system"] == "Answer from the numbered notes only, citing them as [n].")
        #expect(body["messages"] == [["role": "user", "content": "Which of my notes talk about composting?"]])
        #expect(body["stream"] == true)
        #expect(body.keys == ["max_tokens", "messages", "model", "stream", "system", "temperature"])
    }

    @Test func `a base URL with a path prefix, as a proxy has, keeps its prefix`() async throws {
        let server = try FakeAnthropicServer(script: [Replies.normal, Replies.normal])
        defer { server.stop() }

        _ = await Self.call(server, Self.settings(server, baseURL: "/anthropic"))
        _ = await Self.call(server, Self.settings(server, baseURL: "/"))

        #expect(server.requests.map(\.path) == ["/anthropic/v1/messages", "/v1/messages"])
    }

    @Test func `ping, unknown event types and unknown delta types are skipped without ending the stream`() async throws {
        let pieces = Replies.pieces
        let events = [
            Replies.messageStart(),
            ": a comment, as keep-alives are\n\n",
            // Extended thinking: a block and deltas Rhizome does not show.
            Replies.contentBlockStart(0, type: "thinking"),
            Replies.event("content_block_delta", #"{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"The user asks about compost."}}"#),
            Replies.event("content_block_delta", #"{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds"}}"#),
            Replies.contentBlockStop(0),
            Replies.ping,
            Replies.contentBlockStart(1),
            Replies.textDelta(pieces[0], index: 1),
            Replies.event("content_block_annotation", #"{"type":"content_block_annotation","index":1,"annotation":{"kind":"from-the-future"}}"#),
            Replies.textDelta(pieces[1], index: 1),
            Replies.event("content_block_delta", #"{"type":"content_block_delta","index":1,"delta":{"type":"citations_delta","citation":{"type":"char_location","cited_text":"compost","document_index":0,"start_char_index":0,"end_char_index":7}}}"#),
            Replies.ping,
            Replies.event("content_block_delta", #"{"type":"content_block_delta","index":1,"delta":{"type":"brand_new_delta","payload":[1,2,3]}}"#),
            Replies.textDelta(pieces[2], index: 1),
            Replies.event("unheard_of", #"{"type":"unheard_of"}"#),
            Replies.textDelta(pieces[3], index: 1),
            Replies.contentBlockStop(1),
            Replies.messageDelta(),
            Replies.ping,
            Replies.messageStop,
        ]
        let server = try FakeAnthropicServer(script: [Replies.stream(events, chunkSize: 17)])
        defer { server.stop() }

        let call = await Self.call(server)

        let answer = try #require(call.answer, "\(call.error.map(String.init(describing:)) ?? "")")
        #expect(answer.text == Replies.text)
        #expect(call.pieces == Replies.pieces)
        #expect(answer.stopReason == "end_turn")
        #expect(answer.usage.outputTokens == 15)
        #expect(answer.attempts == 1)
    }

    // MARK: Retries

    @Test func `429 with retry-after is retried no sooner than the server asked, then succeeds`() async throws {
        let server = try FakeAnthropicServer(script: [Replies.rateLimited(retryAfter: "1"), Replies.normal])
        defer { server.stop() }

        let call = await Self.call(server)

        let answer = try #require(call.answer, "\(call.error.map(String.init(describing:)) ?? "")")
        #expect(answer.text == Replies.text)
        #expect(answer.attempts == 2)
        #expect(call.pieces == Replies.pieces, "no text from the refused attempt")
        let retry = try #require(call.retries.first)
        #expect(call.retries.count == 1)
        #expect(retry.attempt == 1)
        #expect(retry.wait >= .seconds(1))
        #expect(retry.problem.contains("429") && retry.problem.contains("rate_limit_error"), "\(retry.problem)")
        let requests = server.requests
        try #require(requests.count == 2)
        #expect(requests[1].arrival - requests[0].arrival >= .seconds(1))
    }

    @Test func `529 and 500 are retried with a short backoff`() async throws {
        let server = try FakeAnthropicServer(script: [Replies.overloaded, Replies.internalError, Replies.normal])
        defer { server.stop() }

        let call = await Self.call(server)

        let answer = try #require(call.answer, "\(call.error.map(String.init(describing:)) ?? "")")
        #expect(answer.text == Replies.text)
        #expect(answer.attempts == 3)
        #expect(call.retries.map(\.attempt) == [1, 2])
        #expect(call.retries.count == 2)
        if call.retries.count == 2 {
            #expect(call.retries[0].problem.contains("529") && call.retries[0].problem.contains("overloaded_error"), "\(call.retries[0].problem)")
            #expect(call.retries[1].problem.contains("500") && call.retries[1].problem.contains("api_error"), "\(call.retries[1].problem)")
        }
        #expect(call.retries.allSatisfy { $0.wait <= .milliseconds(50) }, "within maximumBackoff")
        #expect(server.requests.count == 3)
    }

    @Test func `after maximumRetries the call gives up, saying how many attempts and the last problem`() async throws {
        let server = try FakeAnthropicServer(script: [Replies.overloaded, Replies.internalError, Replies.overloaded, Replies.normal])
        defer { server.stop() }

        let call = await Self.call(server, Self.settings(server) { $0.maximumRetries = 2 })

        guard case .gaveUp(let attempts, let lastProblem) = call.error else {
            Issue.record("expected gaveUp, got \(call.outcome)")
            return
        }
        #expect(attempts == 3)
        #expect(lastProblem.contains("529"), "\(lastProblem)")
        #expect(call.error?.code == "api-unavailable")
        #expect(call.retries.count == 2)
        #expect(server.requests.count == 3, "the fourth, good reply is never asked for")
    }

    @Test func `401 fails at once with the API's error type and message, without a retry`() async throws {
        let server = try FakeAnthropicServer(script: [Replies.status(401, type: "authentication_error", message: "invalid x-api-key"), Replies.normal])
        defer { server.stop() }

        let call = await Self.call(server)

        #expect(call.error == .refused(status: 401, type: "authentication_error", message: "invalid x-api-key"))
        #expect(call.error?.description.contains("check ANTHROPIC_API_KEY") == true)
        #expect(call.error?.code == "api-refused")
        #expect(call.retries.isEmpty)
        #expect(server.requests.count == 1)
    }

    @Test func `malformed JSON in a data line is a malformed response, not retried`() async throws {
        let events = [
            Replies.messageStart(), Replies.contentBlockStart(), Replies.textDelta("Half an "),
            Replies.event("content_block_delta", #"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"ans"#),
            Replies.textDelta("wer"), Replies.contentBlockStop(), Replies.messageDelta(), Replies.messageStop,
        ]
        let server = try FakeAnthropicServer(script: [Replies.stream(events), Replies.normal])
        defer { server.stop() }

        let call = await Self.call(server)

        guard case .malformedResponse(let detail) = call.error else {
            Issue.record("expected malformedResponse, got \(call.outcome)")
            return
        }
        #expect(detail.contains("content_block_delta"), "\(detail)")
        #expect(call.error?.code == "api-malformed-response")
        #expect(call.pieces == ["Half an "], "nothing after the broken event")
        #expect(server.requests.count == 1)
    }

    @Test func `a slow first byte is given up on after firstByteTimeout and retried`() async throws {
        let server = try FakeAnthropicServer(script: [Replies.slowFirstByte(.seconds(3)), Replies.normal])
        defer { server.stop() }

        let started = ContinuousClock.now
        let call = await Self.call(server, Self.settings(server) { $0.firstByteTimeout = .milliseconds(300) })

        let answer = try #require(call.answer, "\(call.error.map(String.init(describing:)) ?? "")")
        #expect(answer.text == Replies.text)
        #expect(answer.attempts == 2)
        #expect(call.retries.first?.problem.contains("no response within 0.3 s") == true, "\(call.retries.map(\.problem))")
        #expect(ContinuousClock.now - started < .seconds(2), "the slow attempt was abandoned, not waited out")
    }

    /// Issue 21, item 4: a server that never sends its headers took 5 × 30 s to fail. Two silent attempts
    /// in a row end the call, whatever retries are left.
    @Test func `two attempts in a row that get no byte end the call`() async throws {
        let server = try FakeAnthropicServer(script: Array(repeating: Replies.slowFirstByte(.seconds(3)), count: 5))
        defer { server.stop() }
        let call = await Self.call(server, Self.settings(server) {
            $0.firstByteTimeout = .milliseconds(200)
            $0.maximumRetries = 4
        })
        guard case .gaveUp(let attempts, let lastProblem) = call.error else {
            Issue.record("expected gaveUp, got \(call.outcome)")
            return
        }
        #expect(attempts == 2 && server.requests.count == 2)
        #expect(lastProblem == "no response within 0.2 s", "\(lastProblem)")
        // A silent attempt between others that answered something still leaves the retries.
        let mixed = try FakeAnthropicServer(script: [Replies.slowFirstByte(.seconds(3)), Replies.overloaded, Replies.slowFirstByte(.seconds(3)), Replies.normal])
        defer { mixed.stop() }
        let recovered = await Self.call(mixed, Self.settings(mixed) { $0.firstByteTimeout = .milliseconds(200) })
        #expect(recovered.answer?.text == Replies.text && mixed.requests.count == 4, "\(recovered.outcome)")
    }

    @Test func `when every attempt is slow to start the call gives up after the retries`() async throws {
        let server = try FakeAnthropicServer(script: [Replies.slowFirstByte(.seconds(3)), Replies.slowFirstByte(.seconds(3))])
        defer { server.stop() }

        let started = ContinuousClock.now
        let call = await Self.call(server, Self.settings(server) {
            $0.firstByteTimeout = .milliseconds(200)
            $0.maximumRetries = 1
        })

        guard case .gaveUp(let attempts, let lastProblem) = call.error else {
            Issue.record("expected gaveUp, got \(call.outcome)")
            return
        }
        #expect(attempts == 2)
        #expect(lastProblem.contains("no response within 0.2 s"), "\(lastProblem)")
        #expect(server.requests.count == 2)
        #expect(ContinuousClock.now - started < .seconds(2))
    }

    @Test func `a connection reset before any text is retried`() async throws {
        let dropped = FakeAnthropicServer.Reply(steps: Replies.stream([Replies.messageStart(), Replies.contentBlockStart()]).steps + [.pause(.milliseconds(50)), .reset])
        let server = try FakeAnthropicServer(script: [dropped, Replies.normal])
        defer { server.stop() }

        let call = await Self.call(server)

        let answer = try #require(call.answer, "\(call.error.map(String.init(describing:)) ?? "")")
        #expect(answer.text == Replies.text)
        #expect(answer.attempts == 2)
        #expect(call.retries.count == 1)
        #expect(call.pieces == Replies.pieces)
    }

    @Test func `a stream that ends before message_stop and before any text is retried`() async throws {
        let cut = Replies.stream([Replies.messageStart(), Replies.contentBlockStart(), Replies.ping])
        let server = try FakeAnthropicServer(script: [cut, Replies.normal])
        defer { server.stop() }

        let call = await Self.call(server)

        let answer = try #require(call.answer, "\(call.error.map(String.init(describing:)) ?? "")")
        #expect(answer.text == Replies.text)
        #expect(answer.attempts == 2)
        #expect(call.retries.first?.problem.contains("message_stop") == true, "\(call.retries.map(\.problem))")
    }

    @Test func `a connection reset after some text is interrupted, and the text is not shown twice`() async throws {
        let dropped = FakeAnthropicServer.Reply(
            steps: Replies.stream([Replies.messageStart(), Replies.contentBlockStart(), Replies.textDelta("Your notes on "), Replies.textDelta("compost")]).steps
                + [.pause(.milliseconds(100)), .reset]
        )
        let server = try FakeAnthropicServer(script: [dropped, Replies.normal])
        defer { server.stop() }

        let call = await Self.call(server)

        guard case .interrupted = call.error else {
            Issue.record("expected interrupted, got \(call.outcome)")
            return
        }
        #expect(call.error?.code == "api-interrupted")
        #expect(call.pieces == ["Your notes on ", "compost"])
        #expect(call.retries.isEmpty)
        #expect(server.requests.count == 1)
    }

    @Test func `a stream that ends before message_stop after some text is interrupted`() async throws {
        let cut = Replies.stream([Replies.messageStart(), Replies.contentBlockStart(), Replies.textDelta("Your notes on ")])
        let server = try FakeAnthropicServer(script: [cut, Replies.normal])
        defer { server.stop() }

        let call = await Self.call(server)

        #expect(call.error == .interrupted(problem: "the stream ended before `message_stop`"))
        #expect(call.pieces == ["Your notes on "])
        #expect(server.requests.count == 1)
    }

    @Test func `an overloaded_error event after some text is interrupted, not retried`() async throws {
        let events = [Replies.messageStart(), Replies.contentBlockStart(), Replies.textDelta("Your notes on "), Replies.errorEvent()]
        let server = try FakeAnthropicServer(script: [Replies.stream(events), Replies.normal])
        defer { server.stop() }

        let call = await Self.call(server)

        #expect(call.error == .interrupted(problem: "overloaded_error: Overloaded"))
        #expect(call.pieces == ["Your notes on "])
        #expect(call.retries.isEmpty)
        #expect(server.requests.count == 1)
    }

    @Test func `an overloaded_error event before any text is retried`() async throws {
        let events = [Replies.messageStart(), Replies.ping, Replies.errorEvent()]
        let server = try FakeAnthropicServer(script: [Replies.stream(events), Replies.normal])
        defer { server.stop() }

        let call = await Self.call(server)

        let answer = try #require(call.answer, "\(call.error.map(String.init(describing:)) ?? "")")
        #expect(answer.text == Replies.text)
        #expect(answer.attempts == 2)
        #expect(call.retries.map(\.problem) == ["overloaded_error: Overloaded"])
        #expect(call.pieces == Replies.pieces)
    }

    @Test func `an error event of another type before any text is refused with its type`() async throws {
        let events = [Replies.messageStart(), Replies.errorEvent(type: "invalid_request_error", message: "prompt is too long")]
        let server = try FakeAnthropicServer(script: [Replies.stream(events), Replies.normal])
        defer { server.stop() }

        let call = await Self.call(server)

        #expect(call.error == .refused(status: 200, type: "invalid_request_error", message: "prompt is too long"))
        #expect(server.requests.count == 1)
    }

    // MARK: Timeouts and cancellation

    @Test func `the total timeout ends a stream that stalls part way`() async throws {
        let server = try FakeAnthropicServer(script: [Self.stalledAfterFirstText])
        defer { server.stop() }

        let started = ContinuousClock.now
        let call = await Self.call(server, Self.settings(server) { $0.totalTimeout = .seconds(1) })
        let elapsed = ContinuousClock.now - started

        guard case .timedOut(let what, let seconds) = call.error else {
            Issue.record("expected timedOut, got \(call.outcome)")
            return
        }
        #expect(what == "the whole answer")
        #expect(seconds >= 0.9 && seconds < 2, "\(seconds)")
        #expect(call.error?.code == "api-timeout")
        #expect(elapsed >= .milliseconds(950) && elapsed < .seconds(2), "\(elapsed)")
        #expect(call.pieces == ["Your notes on "])
    }

    /// Issue 21, item 6: a 200 answer in JSON (a proxy that does not stream) was retried five times, each
    /// possibly billed, and reported `api-unavailable`. It is the answer, read once.
    @Test func `a whole answer in JSON instead of a stream is taken as the answer, not retried`() async throws {
        let message = #"{"id":"msg_1","type":"message","role":"assistant","model":"claude-haiku-4-5","content":[{"type":"text","text":"Whole answer."}],"stop_reason":"end_turn","usage":{"input_tokens":12,"output_tokens":3}}"#
        let server = try FakeAnthropicServer(script: [Replies.status(200, type: "", message: "", body: message), Replies.normal])
        defer { server.stop() }
        let call = await Self.call(server)
        #expect(call.answer?.text == "Whole answer." && call.answer?.usage.inputTokens == 12, "\(call.outcome)")
        #expect(call.pieces == ["Whole answer."])
        #expect(server.requests.count == 1 && call.retries.isEmpty)
        // JSON that is not a message is malformed, not retried either.
        let odd = try FakeAnthropicServer(script: [Replies.status(200, type: "", message: "", body: #"{"hello":"world"}"#), Replies.normal])
        defer { odd.stop() }
        let oddCall = await Self.call(odd)
        #expect(oddCall.error?.code == "api-malformed-response" && odd.requests.count == 1, "\(oddCall.outcome)")
    }

    /// Issue 21, item 6: a `message_start` without `usage`, `role` or `content` still starts the answer.
    @Test func `a message_start without usage, role or content still starts the answer`() async throws {
        let bare = Replies.event("message_start", #"{"type":"message_start","message":{"model":"claude-haiku-4-5"}}"#)
        let server = try FakeAnthropicServer(script: [Replies.stream([bare] + Array(Replies.normalEvents().dropFirst()))])
        defer { server.stop() }
        let call = await Self.call(server)
        #expect(call.answer?.text == Replies.text, "\(call.outcome)")
        #expect(call.answer?.model == "claude-haiku-4-5")
    }

    /// Issue 21, item 4: a stream that stalls after its first text held the terminal for the whole 300 s.
    /// The idle limit ends it (the text shown cannot be retried without showing it twice: interrupted).
    @Test func `the idle timeout ends a stream that stalls after its first text`() async throws {
        let server = try FakeAnthropicServer(script: [Self.stalledAfterFirstText])
        defer { server.stop() }
        let started = ContinuousClock.now
        let call = await Self.call(server, Self.settings(server) { $0.idleTimeout = .milliseconds(400) })
        let elapsed = ContinuousClock.now - started
        guard case .interrupted(let problem) = call.error else {
            Issue.record("expected interrupted, got \(call.outcome)")
            return
        }
        #expect(problem == "the answer stalled: nothing for 0.4 s", "\(problem)")
        #expect(elapsed >= .milliseconds(350) && elapsed < .seconds(3), "\(elapsed)")
        #expect(call.pieces == ["Your notes on "])
    }

    @Test func `a total timeout under a second still lets a quick answer through`() async throws {
        let server = try FakeAnthropicServer(script: [Replies.normal, Replies.normal])
        defer { server.stop() }

        let call = await Self.call(server, Self.settings(server) {
            $0.totalTimeout = .milliseconds(900)
            $0.maximumRetries = 1
        })

        // On Linux, URLSession keeps whole seconds of `timeoutInterval` (0.9 s would be 0): the client gives it a
        // limit that never fires first and enforces its own with the watchdog.
        #expect(call.answer?.text == Replies.text, "\(call.outcome)")
    }

    @Test func `a retry-after beyond the total timeout fails at once instead of waiting`() async throws {
        let server = try FakeAnthropicServer(script: [Replies.rateLimited(retryAfter: "30"), Replies.normal])
        defer { server.stop() }

        let started = ContinuousClock.now
        let call = await Self.call(server, Self.settings(server) { $0.totalTimeout = .seconds(5) })

        guard case .gaveUp(1, let problem)? = call.error else { Issue.record("\(String(describing: call.error))"); return }
        #expect(problem.contains("asked to retry in 30 s, more than the 5 s left of the 5 s limit"), "\(problem)")
        #expect(ContinuousClock.now - started < .seconds(1))
        #expect(call.retries.isEmpty)
        #expect(server.requests.count == 1)
    }

    @Test func `cancelling the task stops a streaming answer promptly`() async throws {
        let stalled = FakeAnthropicServer.Reply(
            steps: Replies.stream([Replies.messageStart(), Replies.contentBlockStart(), Replies.textDelta("Your notes on ")]).steps + [.pause(.seconds(20))]
        )
        let server = try FakeAnthropicServer(script: [stalled])
        defer { server.stop() }
        let recorder = Recorder()

        let task = Task(executorPreference: OwnThreadTrait.executor) { await Self.call(server, recorder: recorder) }
        try await Self.waitUntil { !recorder.pieces.isEmpty }
        let cancelledAt = ContinuousClock.now
        task.cancel()
        let call = await task.value

        #expect(call.error == .cancelled)
        #expect(ContinuousClock.now - cancelledAt < .milliseconds(500))
        #expect(call.pieces == ["Your notes on "])
    }

    @Test func `cancelling the task before the first byte stops it promptly`() async throws {
        let server = try FakeAnthropicServer(script: [Replies.slowFirstByte(.seconds(20))])
        defer { server.stop() }

        let task = Task(executorPreference: OwnThreadTrait.executor) { await Self.call(server) }
        try await Self.waitUntil { server.requests.count == 1 }
        let cancelledAt = ContinuousClock.now
        task.cancel()
        let call = await task.value

        #expect(call.error == .cancelled)
        #expect(ContinuousClock.now - cancelledAt < .milliseconds(500))
    }

    @Test func `cancelling the task during a retry wait stops it at once`() async throws {
        let server = try FakeAnthropicServer(script: [Replies.rateLimited(retryAfter: "20"), Replies.normal])
        defer { server.stop() }
        let recorder = Recorder()

        let task = Task(executorPreference: OwnThreadTrait.executor) { await Self.call(server, Self.settings(server) { $0.totalTimeout = .seconds(40) }, recorder: recorder) }
        try await Self.waitUntil { !recorder.retries.isEmpty }
        let cancelledAt = ContinuousClock.now
        task.cancel()
        let call = await task.value

        #expect(call.error == .cancelled)
        #expect(ContinuousClock.now - cancelledAt < .milliseconds(500))
        #expect(server.requests.count == 1)
    }

    @Test func `a server that is not listening is retried, then the call says it cannot connect`() async throws {
        let server = try FakeAnthropicServer(script: [])
        server.stop()

        let call = await Self.call(server, Self.settings(server) { $0.maximumRetries = 1 })

        guard case .cannotConnect(let url, let reason) = call.error else {
            Issue.record("expected cannotConnect, got \(call.outcome)")
            return
        }
        #expect(url.hasPrefix("http://127.0.0.1:"))
        #expect(reason == "connection refused", "\(reason)")
    }
}
