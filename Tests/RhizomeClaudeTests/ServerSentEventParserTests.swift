import Testing
@testable import RhizomeClaude

/// The SSE parser reads events however the bytes are cut into chunks.
@Suite struct ServerSentEventParserTests {
    static let stream = "event: message_start\ndata: {\"a\":1}\n\n: keep-alive comment\n\nevent: ping\r\ndata: {}\r\n\r\ndata: line one\ndata: line two\n\nevent: cut\ndata: never finished"

    @Test func `events arrive whole whatever the chunk boundaries`() {
        let bytes = Array(Self.stream.utf8)
        for size in [1, 2, 3, 7, 64, bytes.count] {
            var parser = ServerSentEventParser()
            var events: [ServerSentEventParser.Event] = []
            var index = 0
            while index < bytes.count {
                events += parser.feed(bytes[index..<min(index + size, bytes.count)])
                index += size
            }
            #expect(events == [
                .init(name: "message_start", data: "{\"a\":1}"),
                .init(name: "ping", data: "{}"),
                .init(name: "message", data: "line one\nline two"),
            ], "chunks of \(size) bytes")
        }
    }
}
