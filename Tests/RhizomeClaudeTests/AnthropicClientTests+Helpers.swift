import Foundation
import RhizomeClaude
import RhizomeTestSupport
import Testing

/// How `AnthropicClientTests` make a call and look at what it gave: the settings, the recorder of pieces and
/// retries, the check that the key is not shown.
extension AnthropicClientTests {
    /// What one call gave the user.
    struct Call: Sendable {
        var result: Result<AnthropicClient.Answer, ClaudeError>
        var pieces: [String]
        var retries: [AnthropicClient.Retry]

        var answer: AnthropicClient.Answer? { try? result.get() }
        var error: ClaudeError? {
            if case .failure(let error) = result { error } else { nil }
        }
        var outcome: String {
            switch result {
            case .success(let answer): "an answer: \(answer.text)"
            case .failure(let error): "\(error.code): \(error)"
            }
        }

        /// Every string the client hands out: the error as text and code, the retry reports, the answer.
        var everythingShown: [String] {
            var shown = pieces + retries.map(\.problem) + retries.map { String(reflecting: $0) }
            switch result {
            case .success(let answer): shown += [answer.text, answer.model, answer.stopReason ?? "", String(reflecting: answer)]
            case .failure(let error): shown += [error.description, error.code, "\(error)", String(reflecting: error), error.localizedDescription]
            }
            return shown
        }
    }

    /// Collects what the client reports while it runs (on its own threads).
    final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var recordedPieces: [String] = []
        private var recordedRetries: [AnthropicClient.Retry] = []

        var pieces: [String] { lock.withLock { recordedPieces } }
        var retries: [AnthropicClient.Retry] { lock.withLock { recordedRetries } }
        func piece(_ text: String) { lock.withLock { recordedPieces.append(text) } }
        func retry(_ retry: AnthropicClient.Retry) { lock.withLock { recordedRetries.append(retry) } }
    }

    /// Short waits so the suite runs in seconds; a total limit so no call can hang.
    static func settings(
        _ server: FakeAnthropicServer, baseURL path: String = "", _ adjust: (inout AnthropicClient.Settings) -> Void = { _ in }
    ) -> AnthropicClient.Settings {
        var settings = AnthropicClient.Settings(baseURL: URL(string: server.baseURL.absoluteString + path)!, apiKey: key)
        settings.firstByteTimeout = .seconds(8)  // generous: CI runs every suite at once on 2 cores
        settings.totalTimeout = .seconds(20)
        settings.maximumRetries = 3
        settings.initialBackoff = .milliseconds(10)
        settings.maximumBackoff = .milliseconds(50)
        adjust(&settings)
        return settings
    }

    /// An answer whose stream stops for 20 s after its first piece of text, then goes on.
    static var stalledAfterFirstText: FakeAnthropicServer.Reply {
        FakeAnthropicServer.Reply(
            steps: Replies.stream([Replies.messageStart(), Replies.contentBlockStart(), Replies.textDelta("Your notes on ")]).steps
                + [.pause(.seconds(20))] + Replies.stream(Array(Replies.normalEvents().dropFirst(2))).steps.dropFirst())
    }

    static func call(
        _ server: FakeAnthropicServer, _ settings: AnthropicClient.Settings? = nil, request: MessagesAPI.Request = question,
        recorder: Recorder = Recorder()
    ) async -> Call {
        let client = AnthropicClient(settings: settings ?? Self.settings(server))
        let result: Result<AnthropicClient.Answer, ClaudeError>
        do throws(ClaudeError) {
            result = .success(try await client.stream(request, onText: { recorder.piece($0) }, onRetry: { recorder.retry($0) }))
        } catch {
            result = .failure(error)
        }
        return Call(result: result, pieces: recorder.pieces, retries: recorder.retries)
    }

    /// Neither the key nor a telling piece of it (`SECRET`) in anything the call showed.
    static func expectNoKey(in call: Call, sourceLocation: SourceLocation = #_sourceLocation) {
        for shown in call.everythingShown {
            // Not `#expect(!shown.contains(…))`, which would print the string, key and all, in the test output.
            let showsKey = shown.contains("SECRET")
            let masked = shown.replacingOccurrences(of: key, with: "<KEY>").replacingOccurrences(of: "SECRET", with: "<PART OF KEY>")
            #expect(!showsKey, "the key, or part of it, is shown: \(masked)", sourceLocation: sourceLocation)
        }
    }

    /// Polls `condition` every 10 ms, failing the test after `limit`.
    static func waitUntil(_ limit: Duration = .seconds(5), _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + limit
        while !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("the condition did not come true within \(limit)")
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}
