/// A fake Anthropic Messages API: a real HTTP/1.1 server on 127.0.0.1 (POSIX sockets, its own threads) that
/// records every request and answers each one with the next scripted `Reply` — an SSE stream cut into
/// chunks, an HTTP error, a slow first byte, a dropped connection. Started and stopped inside each test.
/// Shared by the client tests (RhizomeClaudeTests) and the `explore`/`reflect` CLI tests (RhizomeCLITests).
import Foundation

#if canImport(Glibc)
import Glibc
private let streamSocketType = Int32(SOCK_STREAM.rawValue)
private let sendFlags = Int32(MSG_NOSIGNAL)
#elseif canImport(Darwin)
import Darwin
private let streamSocketType = SOCK_STREAM
private let sendFlags: Int32 = 0
#endif

public final class FakeAnthropicServer: @unchecked Sendable {
    /// One request as it arrived.
    public struct Request: Sendable {
        public var method: String
        public var path: String
        /// Header names lowercased.
        public var headers: [String: String]
        public var body: Data
        public var arrival: ContinuousClock.Instant
        public var json: AnyJSON? { AnyJSON.parse(String(decoding: body, as: UTF8.self)) }
        /// The whole request as text, head and body, to look for a key where it should not be.
        public var rawText: String
    }

    /// What the server does, in order, to answer one request.
    public enum Step: Sendable {
        case send(String)
        case pause(Duration)
        /// Close abruptly (TCP reset, `SO_LINGER` 0) instead of ending the response.
        case reset
    }

    /// The answer to one request.
    public struct Reply: Sendable {
        public var steps: [Step]

        public init(steps: [Step]) { self.steps = steps }
    }

    public let port: UInt16
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    private let listener: Int32
    private let lock = NSLock()
    private var script: [Reply]
    private var recorded: [Request] = []
    private var openConnections: Set<Int32> = []
    private var stopping = false
    private let threads = DispatchGroup()

    /// Binds 127.0.0.1 on a port the system picks and starts accepting.
    public init(script: [Reply]) throws {
        self.script = script
        let descriptor = socket(AF_INET, streamSocketType, 0)
        guard descriptor >= 0 else { throw ServerError("socket", errno) }
        var reuse: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 16) == 0 else {
            let code = errno
            close(descriptor)
            throw ServerError("bind/listen", code)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        listener = descriptor
        port = UInt16(bigEndian: address.sin_port)
        threads.enter()
        Thread { [self] in
            acceptLoop()
            threads.leave()
        }.start()
    }

    deinit { stop() }

    /// The requests received so far, in order of arrival.
    public var requests: [Request] { lock.withLock { recorded } }

    /// Stops accepting, cuts open connections and waits (at most 3 s) for the server's threads to end.
    public func stop() {
        let connections = lock.withLock { () -> Set<Int32> in
            defer { stopping = true }
            return stopping ? [] : openConnections
        }
        for connection in connections { shutdown(connection, Int32(SHUT_RDWR)) }
        _ = threads.wait(timeout: .now() + 3)
    }

    private var isStopping: Bool { lock.withLock { stopping } }

    // MARK: Accepting and answering

    private func acceptLoop() {
        defer { close(listener) }
        while !isStopping {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 20) > 0 else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            let accepted = lock.withLock { () -> Bool in
                guard !stopping else { return false }
                openConnections.insert(connection)
                return true
            }
            guard accepted else {
                close(connection)
                return
            }
            threads.enter()
            Thread { [self] in
                serve(connection)
                lock.withLock { _ = openConnections.remove(connection) }
                close(connection)
                threads.leave()
            }.start()
        }
    }

    private func serve(_ connection: Int32) {
        var noDelay: Int32 = 1
        setsockopt(connection, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        var readTimeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &readTimeout, socklen_t(MemoryLayout<timeval>.size))
        #if canImport(Darwin)
        var noSignal: Int32 = 1
        setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &noSignal, socklen_t(MemoryLayout<Int32>.size))
        #endif

        guard let request = readRequest(connection) else { return }
        let reply = lock.withLock { () -> Reply? in
            recorded.append(request)
            return script.isEmpty ? nil : script.removeFirst()
        }
        let steps = reply?.steps ?? Replies.status(
            400, type: "invalid_request_error", message: "the fake server has no scripted reply left for request \(requests.count)"
        ).steps
        for step in steps {
            if isStopping { return }
            switch step {
            case .send(let text):
                guard transmit(text, to: connection) else { return }
            case .pause(let duration):
                sleepInSteps(duration)
            case .reset:
                var lingerOption = linger(l_onoff: 1, l_linger: 0)
                setsockopt(connection, SOL_SOCKET, SO_LINGER, &lingerOption, socklen_t(MemoryLayout<linger>.size))
                return
            }
        }
        shutdown(connection, Int32(SHUT_WR))
        // Let the client read to the end before the socket goes (closing with unread input would reset it).
        var poller = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
        _ = poll(&poller, 1, 200)
    }

    /// Head up to the blank line, then `Content-Length` bytes of body.
    private func readRequest(_ connection: Int32) -> Request? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        var expectedBodyLength = 0
        var sentContinue = false
        while true {
            if headEnd == nil, let end = bytes.firstRange(of: separator)?.upperBound {
                headEnd = end
                let head = String(decoding: bytes[..<end], as: UTF8.self)
                expectedBodyLength = Int(Self.headers(of: head)["content-length"] ?? "0") ?? 0
                if Self.headers(of: head)["expect"]?.lowercased() == "100-continue" && !sentContinue {
                    sentContinue = true
                    guard transmit("HTTP/1.1 100 Continue\r\n\r\n", to: connection) else { return nil }
                }
            }
            if let headEnd, bytes.count - headEnd >= expectedBodyLength { break }
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            bytes += buffer[..<count]
        }
        guard let headEnd else { return nil }
        let head = String(decoding: bytes[..<headEnd], as: UTF8.self)
        let requestLine = head.prefix { $0 != "\r" }.split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        return Request(
            method: String(requestLine[0]), path: String(requestLine[1]), headers: Self.headers(of: head),
            body: Data(bytes[headEnd..<(headEnd + expectedBodyLength)]), arrival: .now,
            rawText: String(decoding: bytes, as: UTF8.self)
        )
    }

    private static func headers(of head: String) -> [String: String] {
        var headers: [String: String] = [:]
        for line in head.split(separator: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return headers
    }

    private func transmit(_ text: String, to connection: Int32) -> Bool {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, sendFlags) }
            guard count > 0 else { return false }
            offset += count
        }
        return true
    }

    /// Sleeps in small steps so that `stop()` is never kept waiting.
    private func sleepInSteps(_ duration: Duration) {
        let end = ContinuousClock.now + duration
        while ContinuousClock.now < end && !isStopping {
            usleep(5_000)
        }
    }

    public struct ServerError: Error, CustomStringConvertible {
        public var description: String
        init(_ call: String, _ code: Int32) { description = "\(call) failed: \(String(cString: strerror(code)))" }
    }
}

/// Scripted replies built from the event shapes of https://docs.anthropic.com/en/docs/build-with-claude/streaming.
public enum Replies {
    public static let model = "claude-haiku-4-5-20251001"

    // MARK: Events

    public static func event(_ name: String, _ json: String) -> String { "event: \(name)\ndata: \(json)\n\n" }

    public static func messageStart(inputTokens: Int = 25) -> String {
        event("message_start", #"{"type":"message_start","message":{"id":"msg_01XFDUDYJgAACzvnptvVoYEL","type":"message","role":"assistant","content":[],"model":"\#(model)","stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":\#(inputTokens),"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":1}}}"#)
    }

    public static func contentBlockStart(_ index: Int = 0, type: String = "text") -> String {
        let block = type == "text" ? #"{"type":"text","text":""}"# : #"{"type":"\#(type)","\#(type)":""}"#
        return event("content_block_start", #"{"type":"content_block_start","index":\#(index),"content_block":\#(block)}"#)
    }

    public static func textDelta(_ text: String, index: Int = 0) -> String {
        let encoded = String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
        return event("content_block_delta", #"{"type":"content_block_delta","index":\#(index),"delta":{"type":"text_delta","text":\#(encoded)}}"#)
    }

    public static func contentBlockStop(_ index: Int = 0) -> String {
        event("content_block_stop", #"{"type":"content_block_stop","index":\#(index)}"#)
    }

    public static func messageDelta(stopReason: String = "end_turn", outputTokens: Int = 15) -> String {
        event("message_delta", #"{"type":"message_delta","delta":{"stop_reason":"\#(stopReason)","stop_sequence":null},"usage":{"output_tokens":\#(outputTokens)}}"#)
    }

    public static let messageStop = event("message_stop", #"{"type":"message_stop"}"#)
    public static let ping = event("ping", #"{"type": "ping"}"#)

    public static func errorEvent(type: String = "overloaded_error", message: String = "Overloaded") -> String {
        event("error", #"{"type":"error","error":{"type":"\#(type)","message":"\#(message)"}}"#)
    }

    // MARK: Replies

    public static let okHead = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\nCache-Control: no-cache\r\n"
        + "request-id: req_011CSHoEeqs5C35K2UUqR7Fy\r\nConnection: close\r\n\r\n"

    /// The pieces `normalStream` sends, and what they make.
    public static let pieces = ["Your notes on ", "composting link to ", "[1] and [2], ", "both from March."]
    public static var text: String { pieces.joined() }

    /// The events of a whole answer, as the API sends them.
    public static func normalEvents(pieces: [String] = pieces) -> [String] {
        [messageStart(), contentBlockStart(), ping]
            + pieces.map { textDelta($0) }
            + [contentBlockStop(), messageDelta(), messageStop]
    }

    /// A 200 streamed answer, read until the server closes, its bytes cut into `chunkSize`-byte writes
    /// `delay` apart (cuts fall inside lines and inside UTF-8 sequences).
    public static func stream(_ events: [String], chunkSize: Int = 61, delay: Duration = .milliseconds(2)) -> FakeAnthropicServer.Reply {
        let bytes = Array(events.joined().utf8)
        var steps: [FakeAnthropicServer.Step] = [.send(okHead)]
        var index = 0
        while index < bytes.count {
            // A chunk may cut a UTF-8 sequence; `send` takes text, so cut at scalar boundaries of the bytes.
            var end = min(index + chunkSize, bytes.count)
            while end < bytes.count && (bytes[end] & 0b1100_0000) == 0b1000_0000 { end += 1 }
            steps += [.pause(delay), .send(String(decoding: bytes[index..<end], as: UTF8.self))]
            index = end
        }
        return .init(steps: steps)
    }

    public static var normal: FakeAnthropicServer.Reply { stream(normalEvents()) }

    /// An HTTP error with the API's JSON error body and a `Content-Length`.
    public static func status(_ code: Int, type: String, message: String, headers: [String: String] = [:], body: String? = nil) -> FakeAnthropicServer.Reply {
        let body = body ?? #"{"type":"error","error":{"type":"\#(type)","message":"\#(message)"},"request_id":"req_011CSHoEeqs5C35K2UUqR7Fy"}"#
        let reason = [401: "Unauthorized", 429: "Too Many Requests", 500: "Internal Server Error", 529: "Overloaded"][code] ?? "Error"
        var head = "HTTP/1.1 \(code) \(reason)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        head += "Connection: close\r\n\r\n"
        return .init(steps: [.send(head + body)])
    }

    public static func rateLimited(retryAfter: String, message: String = "Number of request tokens has exceeded your per-minute rate limit") -> FakeAnthropicServer.Reply {
        status(429, type: "rate_limit_error", message: message, headers: ["retry-after": retryAfter])
    }

    public static var overloaded: FakeAnthropicServer.Reply { status(529, type: "overloaded_error", message: "Overloaded") }
    public static var internalError: FakeAnthropicServer.Reply { status(500, type: "api_error", message: "Internal server error") }

    /// Nothing at all, not even the status line, for `delay`; then a whole answer (too late).
    public static func slowFirstByte(_ delay: Duration) -> FakeAnthropicServer.Reply {
        .init(steps: [.pause(delay)] + stream(normalEvents()).steps)
    }
}
