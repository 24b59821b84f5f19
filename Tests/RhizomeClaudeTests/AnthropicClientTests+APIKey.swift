import Foundation
import RhizomeClaude
import RhizomeTestSupport
import Testing

/// The key never comes back out of the client: not in an error, a code, a retry report or an answer, even
/// when the server echoes it. Scenarios of `AnthropicClientTests` (same fake server, same serialized suite).
extension AnthropicClientTests {
    @Test func `the key never appears in an error, a retry report or an answer, even when the server echoes it`() async throws {
        let echo = "Invalid key \(Self.key) for this organization"
        let server = try FakeAnthropicServer(script: [
            // Call 1: retried three times, then refused.
            Replies.status(429, type: "rate_limit_error", message: echo, headers: ["retry-after": "0"]),
            Replies.status(529, type: "overloaded_error", message: echo),
            Replies.stream([Replies.messageStart(), Replies.errorEvent(type: "overloaded_error", message: echo)]),
            Replies.status(401, type: "authentication_error", message: echo),
            // Call 2: an error event after text.
            Replies.stream([Replies.messageStart(), Replies.contentBlockStart(), Replies.textDelta("Your notes "), Replies.errorEvent(type: "api_error", message: echo)]),
            // Call 3: an error event of another type before text.
            Replies.stream([Replies.messageStart(), Replies.errorEvent(type: "permission_error", message: echo)]),
            // Call 4: a 500 whose body is not JSON, then gave up.
            Replies.status(500, type: "", message: "", body: "<html>upstream said: \(echo)</html>"),
            // Call 5: an answer, after a 503 echoing the key.
            Replies.status(503, type: "api_error", message: echo),
            Replies.normal,
        ])
        defer { server.stop() }

        var calls: [Call] = []
        calls.append(await Self.call(server, Self.settings(server) { $0.maximumRetries = 5 }))
        calls.append(await Self.call(server))
        calls.append(await Self.call(server))
        calls.append(await Self.call(server, Self.settings(server) { $0.maximumRetries = 0 }))
        calls.append(await Self.call(server))

        #expect(calls[0].error == .refused(status: 401, type: "authentication_error", message: "Invalid key [redacted] for this organization"))
        #expect(calls[0].retries.count == 3)
        #expect(calls[1].error == .interrupted(problem: "api_error: Invalid key [redacted] for this organization"))
        #expect(calls[2].error == .refused(status: 200, type: "permission_error", message: "Invalid key [redacted] for this organization"))
        if case .gaveUp(attempts: 1, _) = calls[3].error {} else { Issue.record("expected gaveUp after 1 attempt, got \(calls[3].outcome)") }
        #expect(calls[4].answer?.text == Replies.text)
        #expect(calls[4].retries.count == 1)
        #expect(server.requests.count == 9)

        for call in calls { Self.expectNoKey(in: call) }
        for request in server.requests {
            let sentOnce = request.rawText.components(separatedBy: Self.key).count == 2 && request.headers["x-api-key"] == Self.key
            #expect(sentOnce, "the key is sent once, in x-api-key, and nowhere else")
        }
    }

    // Known bugs: each of the next four shows a way the key still gets out, if a server (or a proxy in front
    // of it) echoes it somewhere other than an error message.

    @Test func `the key never appears when the server echoes it in the error type of an HTTP error`() async throws {
        let server = try FakeAnthropicServer(script: [Replies.status(400, type: "invalid_\(Self.key)", message: "bad")])
        defer { server.stop() }

        let call = await Self.call(server)

        #expect(call.error?.code == "api-refused")
        Self.expectNoKey(in: call)
    }

    @Test func `the key never appears when the server echoes it in the error type of an error event`() async throws {
        let server = try FakeAnthropicServer(script: [Replies.stream([Replies.messageStart(), Replies.errorEvent(type: "odd_\(Self.key)", message: "bad")])])
        defer { server.stop() }

        let call = await Self.call(server)

        #expect(call.error?.code == "api-refused")
        Self.expectNoKey(in: call)
    }

    @Test func `the key never appears when the server echoes it as the name of an unreadable event`() async throws {
        let server = try FakeAnthropicServer(script: [Replies.stream([Replies.messageStart(), Replies.event("evt_\(Self.key)", "{not json")])])
        defer { server.stop() }

        let call = await Self.call(server)

        #expect(call.error?.code == "api-malformed-response")
        Self.expectNoKey(in: call)
    }

    @Test func `no piece of the key appears when a non-JSON error body is cut in the middle of it`() async throws {
        // The client keeps the first 300 characters of a body that is not the API's JSON: here they end
        // inside the key, so redacting the whole key afterwards finds nothing to replace.
        let body = String(repeating: "x", count: 300 - 19) + Self.key + " (echoed by a proxy's error page)"
        let server = try FakeAnthropicServer(script: [Replies.status(400, type: "", message: "", body: body)])
        defer { server.stop() }

        let call = await Self.call(server)

        #expect(call.error?.code == "api-refused")
        Self.expectNoKey(in: call)
    }
}
