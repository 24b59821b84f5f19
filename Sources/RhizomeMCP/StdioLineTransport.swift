import Foundation
import Logging
import MCP
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// MCP over standard input and output: one JSON-RPC message per line, each written whole.
///
/// The SDK's `StdioTransport` makes standard output non-blocking and, when the pipe is full, suspends in
/// the middle of a message — and the next answer (calls are answered concurrently) is written into the
/// gap, so a client reading answers larger than the pipe (64 KiB) got them interleaved. Here `send` never
/// suspends: the actor writes one message completely (waiting in `poll` when the pipe is full) before it
/// takes the next. Input is read by a thread with blocking reads; end of input ends the stream.
/// A response to a request the client cancelled is never sent (MCP: "receivers … SHOULD NOT send a
/// response for the cancelled request").
actor StdioLineTransport: Transport {
    nonisolated let logger = Logger(label: "rhizome.mcp.stdio", factory: { _ in SwiftLogNoOpLogHandler() })
    private let input: Int32
    private let output: Int32
    private let messages: AsyncThrowingStream<Data, Error>
    private let continuation: AsyncThrowingStream<Data, Error>.Continuation
    private var isConnected = false
    private let cancelled = CancelledRequests()

    init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
        self.input = input
        self.output = output
        (messages, continuation) = AsyncThrowingStream.makeStream(of: Data.self)
    }

    func connect() async throws {
        guard !isConnected else { return }
        isConnected = true
        let (input, continuation, cancelled) = (self.input, self.continuation, self.cancelled)
        let reader = Thread {
            var pending = Data()
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
                if count < 0 {
                    if errno == EINTR { continue }
                    if errno == EAGAIN {  // inherited non-blocking input: wait for data
                        var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
                        _ = poll(&descriptor, 1, -1)
                        continue
                    }
                    break
                }
                if count == 0 { break }
                pending.append(contentsOf: buffer[..<count])
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = pending[pending.startIndex..<newline]
                    pending = Data(pending[pending.index(after: newline)...])
                    if !line.allSatisfy({ $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: " ") }) {
                        cancelled.record(line: Data(line))
                        continuation.yield(Data(line))
                    }
                }
            }
            continuation.finish()
        }
        reader.name = "rhizome.mcp.stdin"
        reader.start()
    }

    func disconnect() async {
        isConnected = false
        continuation.finish()
    }

    func send(_ data: Data) async throws {
        if cancelled.isResponseToCancelled(data) { return }
        var message = data
        message.append(UInt8(ascii: "\n"))
        try message.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) throws in
            var offset = 0
            while offset < bytes.count {
                let written = write(output, bytes.baseAddress! + offset, bytes.count - offset)
                if written >= 0 {
                    offset += written
                    continue
                }
                switch errno {
                case EINTR:
                    continue
                case EAGAIN:  // a non-blocking pipe that is full: wait until the client reads
                    var descriptor = pollfd(fd: output, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&descriptor, 1, -1)
                default:
                    throw MCPError.transportError(POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO))
                }
            }
        }
    }

    func receive() -> AsyncThrowingStream<Data, Error> {
        messages
    }
}
