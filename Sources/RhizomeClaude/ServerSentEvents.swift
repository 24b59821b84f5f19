/// An incremental parser of a `text/event-stream` body (the WHATWG Server-Sent Events format): feed it
/// bytes as they arrive, in chunks cut anywhere, and it returns each event once its blank line arrives.
struct ServerSentEventParser {
    struct Event: Equatable, Sendable {
        /// The `event:` field; "message" when absent.
        var name: String
        /// The `data:` lines joined with newlines.
        var data: String
    }

    private var pending: [UInt8] = []
    private var name = ""
    private var dataLines: [String] = []
    private var sawCarriageReturn = false

    /// The events completed by `bytes`.
    mutating func feed(_ bytes: some Sequence<UInt8>) -> [Event] {
        var events: [Event] = []
        for byte in bytes {
            // A line ends at CR, LF or CR LF.
            if byte == UInt8(ascii: "\n") && sawCarriageReturn {
                sawCarriageReturn = false
                continue
            }
            sawCarriageReturn = byte == UInt8(ascii: "\r")
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                if let event = endLine() { events.append(event) }
            } else {
                pending.append(byte)
            }
        }
        return events
    }

    /// What is left when the stream ends: an event without its final blank line is dropped, as the format says.
    mutating func finish() -> [Event] {
        pending = []
        name = ""
        dataLines = []
        return []
    }

    private mutating func endLine() -> Event? {
        let line = String(decoding: pending, as: UTF8.self)
        pending.removeAll(keepingCapacity: true)
        if line.isEmpty {
            defer {
                name = ""
                dataLines = []
            }
            guard !dataLines.isEmpty else { return nil }
            return Event(name: name.isEmpty ? "message" : name, data: dataLines.joined(separator: "\n"))
        }
        if line.hasPrefix(":") { return nil }  // a comment (keep-alive)
        let field: Substring
        var value: Substring
        if let colon = line.firstIndex(of: ":") {
            field = line[..<colon]
            value = line[line.index(after: colon)...]
            if value.hasPrefix(" ") { value = value.dropFirst() }
        } else {
            field = Substring(line)
            value = ""
        }
        switch field {
        case "event": name = String(value)
        case "data": dataLines.append(String(value))
        default: break  // id, retry, unknown fields
        }
        return nil
    }
}
