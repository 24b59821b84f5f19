import Foundation
import RhizomeCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A client of the Anthropic Messages API over HTTPS, streaming with Server-Sent Events. No SDK.
///
/// Streaming: `URLSession.bytes(for:)` does not exist in swift-corelibs-foundation (Linux), so responses are
/// read through a `URLSessionDataDelegate`, which receives each chunk as libcurl (Linux) or the system
/// (macOS) delivers it — one code path on both, no C binding to maintain.
///
/// Retries: 429, 529, 5xx, dropped connections and `overloaded_error`/`api_error` stream events are retried
/// with exponential backoff and full jitter, waiting at least `retry-after` when the API sends it — but only
/// while no text has been shown: after that, a retry would show the answer twice, so the call fails with
/// `.interrupted`. Other 4xx answers fail at once with the API's error type and message.
public final class AnthropicClient: Sendable {
    public struct Settings: Sendable {
        /// `ANTHROPIC_BASE_URL`, default `https://api.anthropic.com`.
        public var baseURL: URL
        public var apiKey: String
        /// No byte of the response within this: the attempt fails (and is retried).
        public var firstByteTimeout: Duration = .seconds(30)
        /// No byte for this long once the answer has begun (a stream that stalls): the attempt fails.
        public var idleTimeout: Duration = .seconds(60)
        /// The whole call, retries included.
        public var totalTimeout: Duration = .seconds(300)
        public var maximumRetries = 4
        public var initialBackoff: Duration = .milliseconds(500)
        public var maximumBackoff: Duration = .seconds(30)

        public init(baseURL: URL, apiKey: String) {
            self.baseURL = baseURL
            self.apiKey = apiKey
        }
    }

    /// A finished streamed answer.
    public struct Answer: Sendable {
        public var text: String
        public var model: String
        public var stopReason: String?
        public var usage: MessagesAPI.Usage
        /// 1 when the first attempt succeeded.
        public var attempts: Int
    }

    /// Said before each retry (for a progress line).
    public struct Retry: Sendable {
        public var attempt: Int
        public var problem: String
        public var wait: Duration
    }

    public let settings: Settings

    public init(settings: Settings) {
        self.settings = settings
    }

    /// Streams an answer; `onText` receives each piece of text as it arrives (on a background thread).
    /// `billing`, when given, follows what may have been billed, for a call that does not end in an answer.
    public func stream(
        _ request: MessagesAPI.Request, billing: BilledUsage? = nil, onText: @escaping @Sendable (String) -> Void,
        onRetry: @escaping @Sendable (Retry) -> Void = { _ in }
    ) async throws(ClaudeError) -> Answer {
        // One choke point: nothing the server sent leaves the client with the key in it.
        let key = settings.apiKey
        do {
            return try await streamWithRetries(request, billing: billing, onText: onText) { retry in
                var retry = retry
                retry.problem = Self.redact(retry.problem, key: key)
                onRetry(retry)
            }
        } catch {
            throw error.redacting(key)
        }
    }

    private func streamWithRetries(
        _ request: MessagesAPI.Request, billing: BilledUsage?, onText: @escaping @Sendable (String) -> Void, onRetry: @escaping @Sendable (Retry) -> Void
    ) async throws(ClaudeError) -> Answer {
        var request = request
        request.stream = true
        let body: Data
        do { body = try JSONEncoder().encode(request) } catch { throw .malformedResponse("the request could not be encoded: \(error)") }
        let clock = ContinuousClock()
        let deadline = clock.now + settings.totalTimeout
        var attempt = 1
        /// Attempts in a row that got no byte at all: a server that answers nothing twice is not retried
        /// again (five silent attempts took 156 s with the defaults).
        var silentInARow = 0
        while true {
            if Task.isCancelled { throw .cancelled }
            let outcome = await self.attempt(body: body, deadline: deadline, billing: billing, onText: onText)
            switch outcome {
            case .answered(var answer):
                answer.attempts = attempt
                return answer
            case .failed(let error):
                throw error
            case .retryable(let problem, let retryAfter, let textShown):
                if textShown { throw .interrupted(problem: problem) }
                silentInARow = problem.hasPrefix(Self.noResponsePrefix) ? silentInARow + 1 : 0
                guard attempt <= settings.maximumRetries, silentInARow < 2 else {
                    if let reason = problem.connectionFailure { throw .cannotConnect(url: settings.baseURL.absoluteString, reason: reason) }
                    throw .gaveUp(attempts: attempt, lastProblem: problem)
                }
                let wait = backoff(attempt: attempt, retryAfter: retryAfter)
                guard clock.now + wait < deadline else {
                    // Said as it is: the API asked for a wait longer than the time left, nothing timed out.
                    let left = ClaudeError.roundedSeconds(max(0, (deadline - clock.now).inSeconds))
                    throw .gaveUp(attempts: attempt, lastProblem: "\(problem); it asked to retry in \(ClaudeError.roundedSeconds(wait.inSeconds)) s, "
                        + "more than the \(left) s left of the \(ClaudeError.roundedSeconds(settings.totalTimeout.inSeconds)) s limit (`claude: timeouts: total:`)")
                }
                onRetry(Retry(attempt: attempt, problem: problem, wait: wait))
                do { try await Task.sleep(for: wait) } catch { throw .cancelled }
                attempt += 1
            }
        }
    }

    // MARK: One attempt

    private enum Outcome {
        case answered(Answer)
        case retryable(problem: String, retryAfter: Duration?, textShown: Bool)
        case failed(ClaudeError)
    }

    private func attempt(body: Data, deadline: ContinuousClock.Instant, billing: BilledUsage?, onText: @escaping @Sendable (String) -> Void) async -> Outcome {
        var request = URLRequest(url: settings.baseURL.appendingPathComponent("v1/messages"))
        request.httpMethod = "POST"
        request.setValue(settings.apiKey, forHTTPHeaderField: "x-api-key")
        request.setValue(MessagesAPI.version, forHTTPHeaderField: "anthropic-version")
        request.setValue("application/json", forHTTPHeaderField: "content-type")
        request.setValue("text/event-stream", forHTTPHeaderField: "accept")
        request.httpBody = body
        // The watchdog enforces both limits; URLSession's own (whole seconds on Linux) must never fire first.
        request.timeoutInterval = settings.totalTimeout.inSeconds.rounded(.up) + 5

        let transfer = StreamingTransfer()
        let watchdog = Watchdog(transfer: transfer, firstByteTimeout: settings.firstByteTimeout, idleTimeout: settings.idleTimeout, deadline: deadline)
        return await withTaskCancellationHandler {
            transfer.start(request)
            watchdog.start()
            defer { watchdog.stop() }
            var parser = ServerSentEventParser()
            var text = ""
            var model = ""
            var stopReason: String?
            var usage = MessagesAPI.Usage()
            var status = 0
            var headers: [String: String] = [:]
            /// An error's body, or a whole answer sent as JSON: what is not a stream, read to its end.
            var unstreamed = Data()
            do {
                for try await chunk in transfer.chunks {
                    switch chunk {
                    case .response(let response):
                        status = response.statusCode
                        for (key, value) in response.allHeaderFields {
                            if let key = key as? String, let value = value as? String { headers[key.lowercased()] = value }
                        }
                    case .data(let data):
                        watchdog.sawBytes()
                        // An error, or a whole answer as JSON (a proxy that does not stream): read to the end.
                        guard status == 200, !headers["content-type", default: ""].contains("application/json") else {
                            if unstreamed.count < 1 << 20 { unstreamed.append(data) }
                            continue
                        }
                        for event in parser.feed(data) {
                            let decoded: MessagesAPI.StreamEvent
                            do { decoded = try MessagesAPI.StreamEvent.decode(event.data) } catch {
                                transfer.cancel()
                                return .failed(.malformedResponse("a `\(event.name)` event whose data is not the documented JSON"))
                            }
                            switch decoded {
                            case .messageStart(let message):
                                model = message.model
                                usage.merge(message.usage)
                                billing?.beginAttempt(model: model, usage: message.usage)
                            case .contentBlockDelta(_, .text(let piece)):
                                text += piece
                                onText(piece)
                            case .messageDelta(let reason, let delta):
                                stopReason = reason ?? stopReason
                                if let delta {
                                    usage.merge(delta)
                                    billing?.update(delta)
                                }
                            case .messageStop:
                                transfer.cancel()
                                return .answered(Answer(text: text, model: model, stopReason: stopReason, usage: usage, attempts: 1))
                            case .error(let type, let message):
                                transfer.cancel()
                                let problem = "\(type): \(redacted(message))"
                                if type == "overloaded_error" || type == "api_error" || type == "rate_limit_error" {
                                    return .retryable(problem: problem, retryAfter: nil, textShown: !text.isEmpty)
                                }
                                return .failed(text.isEmpty ? .refused(status: 200, type: type, message: redacted(message)) : .interrupted(problem: problem))
                            case .contentBlockStart, .contentBlockStop, .contentBlockDelta, .ping, .unknown:
                                continue  // other deltas (tool input, thinking) and new event types are not Rhizome's
                            }
                        }
                    }
                }
            } catch {
                if Task.isCancelled { return .failed(.cancelled) }
                if let timeout = watchdog.expired { return expired(timeout, textShown: !text.isEmpty) }
                let reason = Self.describe(error)
                if status == 0 && text.isEmpty, let code = (error as? URLError)?.code,
                   [.cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet].contains(code) {
                    return .retryable(problem: Self.cannotConnectPrefix + reason + ")", retryAfter: nil, textShown: false)
                }
                return .retryable(problem: "the connection dropped (\(reason))", retryAfter: nil, textShown: !text.isEmpty)
            }
            if Task.isCancelled { return .failed(.cancelled) }
            if let timeout = watchdog.expired { return expired(timeout, textShown: !text.isEmpty) }
            if status != 200 {
                return httpFailure(status: status, body: unstreamed, headers: headers)
            }
            if headers["content-type", default: ""].contains("application/json") {
                // Not retried: the request was answered (and billed); an answer that cannot be read is malformed.
                guard let message = try? JSONDecoder().decode(MessagesAPI.Response.self, from: unstreamed), message.type == "message" else {
                    return .failed(.malformedResponse("an HTTP 200 answer in JSON that is not a message"))
                }
                billing?.beginAttempt(model: message.model, usage: message.usage)
                if !message.text.isEmpty { onText(message.text) }
                return .answered(Answer(text: message.text, model: message.model, stopReason: message.stopReason, usage: message.usage, attempts: 1))
            }
            return .retryable(problem: "the stream ended before `message_stop`", retryAfter: nil, textShown: !text.isEmpty)
        } onCancel: {
            transfer.cancel()
        }
    }

    private func httpFailure(status: Int, body: Data, headers: [String: String]) -> Outcome {
        let detail = try? JSONDecoder().decode(MessagesAPI.ErrorBody.self, from: body)
        let type = redacted(detail?.error.type ?? "http_error")
        // Redacted before it is cut, so that a key across the cut cannot leave half of itself.
        let message = String(redacted(detail?.error.message ?? String(decoding: body, as: UTF8.self)).prefix(300))
        if status == 429 || status == 529 || status >= 500 {
            let retryAfter = headers["retry-after"].flatMap(Self.retryAfter)
            return .retryable(problem: "HTTP \(status) \(type): \(message)", retryAfter: retryAfter, textShown: false)
        }
        return .failed(.refused(status: status, type: type, message: message))
    }

    /// Full jitter over an exponential ceiling, but never sooner than the server asked.
    private func backoff(attempt: Int, retryAfter: Duration?) -> Duration {
        let ceiling = min(settings.initialBackoff * (1 << min(attempt - 1, 16)), settings.maximumBackoff)
        let jittered = Duration.nanoseconds(Int64.random(in: 0...max(1, Int64(ceiling.inSeconds * 1e9))))
        guard let retryAfter else { return jittered }
        return max(retryAfter, jittered)  // a wait past the call's deadline fails at once (the caller checks)
    }

    /// `retry-after`: seconds (finite, not negative) or an HTTP date; nil for anything else.
    static func retryAfter(_ value: String) -> Duration? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(text) {
            guard seconds.isFinite, seconds >= 0 else { return nil }
            return .milliseconds(Int64(min(seconds, 86_400) * 1000))
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: text) else { return nil }
        return .milliseconds(Int64(max(0, min(date.timeIntervalSinceNow, 86_400)) * 1000))
    }

    /// The key never leaves Rhizome in a message, even if a server echoed it.
    private func redacted(_ text: String) -> String {
        Self.redact(text, key: settings.apiKey)
    }

    static func redact(_ text: String, key: String) -> String {
        key.isEmpty ? text : text.replacingOccurrences(of: key, with: "[redacted]")
    }

    static let cannotConnectPrefix = "cannot connect ("
    /// How an attempt that got no byte within `firstByteTimeout` is described.
    static let noResponsePrefix = "no response within "

    /// What an attempt the watchdog stopped comes to: the call's end (its whole time is up), or a retry
    /// (which `stream` turns into `.interrupted` once text was shown).
    private func expired(_ timeout: Watchdog.Expiry, textShown: Bool) -> Outcome {
        switch timeout {
        case .total: return .failed(.timedOut(what: "the whole answer", seconds: settings.totalTimeout.inSeconds))
        case .firstByte:
            return .retryable(problem: Self.noResponsePrefix + "\(ClaudeError.roundedSeconds(settings.firstByteTimeout.inSeconds)) s", retryAfter: nil, textShown: textShown)
        case .idle:
            return .retryable(problem: "the answer stalled: nothing for \(ClaudeError.roundedSeconds(settings.idleTimeout.inSeconds)) s", retryAfter: nil, textShown: textShown)
        }
    }

    /// What went wrong in the network layer, in words (not `NSURLErrorDomain error -1001`).
    static func describe(_ error: Error) -> String {
        guard let code = (error as? URLError)?.code else { return (error as NSError).localizedDescription }
        switch code {
        case .timedOut: return "timed out"
        case .cannotConnectToHost: return "connection refused"
        case .cannotFindHost, .dnsLookupFailed: return "unknown host"
        case .networkConnectionLost: return "connection lost"
        case .notConnectedToInternet: return "no network"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid:
            return "the TLS connection failed"
        case .badServerResponse: return "a response that is not HTTP"
        default: return "network error \(code.rawValue): \((error as NSError).localizedDescription)"
        }
    }

}

/// One HTTP request whose response arrives as chunks (`URLSessionDataDelegate`).
final class StreamingTransfer: NSObject, URLSessionDataDelegate, Sendable {
    enum Chunk: Sendable {
        case response(HTTPURLResponse)
        case data(Data)
    }

    let chunks: AsyncThrowingStream<Chunk, Error>
    private let continuation: AsyncThrowingStream<Chunk, Error>.Continuation
    /// The task, once started, and whether `cancel()` came first.
    private let state = Locked<(task: URLSessionDataTask?, isCancelled: Bool)>((nil, false))

    override init() {
        (chunks, continuation) = AsyncThrowingStream.makeStream(of: Chunk.self)
        super.init()
    }

    func start(_ request: URLRequest) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = request.timeoutInterval
        // The session keeps its delegate until it is invalidated, which happens when the task completes.
        let session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
        let task = session.dataTask(with: request)
        let cancelled = state.withLock { state -> Bool in
            state.task = task
            return state.isCancelled
        }
        task.resume()
        if cancelled { task.cancel() }
    }

    func cancel() {
        let task = state.withLock { state -> URLSessionDataTask? in
            state.isCancelled = true
            return state.task
        }
        task?.cancel()
        continuation.finish()
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        if let response = response as? HTTPURLResponse { continuation.yield(.response(response)) }
        completionHandler(.allow)
    }

    /// Redirects are not followed: the request carries the API key, which must go to no other host.
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        continuation.yield(.data(data))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        if let error { continuation.finish(throwing: error) } else { continuation.finish() }
        session.finishTasksAndInvalidate()
    }
}

/// Cancels a transfer that gets no first byte in time, or that runs past the call's deadline.
final class Watchdog: @unchecked Sendable {  // the dispatch timer is not marked Sendable; Dispatch allows it on any thread
    enum Expiry: Sendable { case firstByte, idle, total }

    private let transfer: StreamingTransfer
    private let firstByteTimeout: Duration
    private let idleTimeout: Duration
    private let deadline: ContinuousClock.Instant
    /// When the last bytes came (nil before the first), and why the transfer was cancelled.
    private let state = Locked<(lastBytesAt: ContinuousClock.Instant?, expiry: Expiry?)>((nil, nil))
    /// A dispatch timer on a queue of our own, not a task: it must fire even when every thread of the
    /// concurrency pool is busy.
    private let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "rhizome.anthropic.watchdog"))

    init(transfer: StreamingTransfer, firstByteTimeout: Duration, idleTimeout: Duration, deadline: ContinuousClock.Instant) {
        self.transfer = transfer
        self.firstByteTimeout = firstByteTimeout
        self.idleTimeout = idleTimeout
        self.deadline = deadline
    }

    var expired: Expiry? { state.withLock { $0.expiry } }

    func sawBytes() { state.withLock { $0.lastBytesAt = ContinuousClock.now } }

    func start() {
        let firstByteDeadline = ContinuousClock.now + firstByteTimeout
        timer.schedule(deadline: .now(), repeating: .milliseconds(50))
        timer.setEventHandler { [self] in
            let now = ContinuousClock.now
            let last = state.withLock { $0.lastBytesAt }
            let reason: Expiry?
            if now >= deadline {
                reason = .total
            } else if let last {
                reason = now - last >= idleTimeout ? .idle : nil
            } else {
                reason = now >= firstByteDeadline ? .firstByte : nil
            }
            guard let reason else { return }
            state.withLock { $0.expiry = reason }
            timer.cancel()
            transfer.cancel()
        }
        timer.resume()
    }

    func stop() { timer.cancel() }
}

extension String {
    /// The reason inside a "cannot connect (…)" problem; nil for other problems.
    var connectionFailure: String? {
        guard hasPrefix(AnthropicClient.cannotConnectPrefix), hasSuffix(")") else { return nil }
        return String(dropFirst(AnthropicClient.cannotConnectPrefix.count).dropLast())
    }
}
