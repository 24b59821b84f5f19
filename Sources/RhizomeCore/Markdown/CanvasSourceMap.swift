/// Maps positions inside a canvas node's JSON string values back to line and column in the `.canvas`
/// file, so that canvas links and tags carry file positions like those of notes.
///
/// The links and tags of a text node are placed one after another: each lookup in a string continues
/// from where the previous one ended when it lies further on (see `LineIndex`), so that placing every
/// link of a long node costs the node's length once, not once per link.
struct CanvasSourceMap {
    private let bytes: [UInt8]
    private var lines: LineIndex
    /// The last scalar looked up: the string's start, the scalar's number in it and its byte offset.
    private var last: (start: Int, scalarOffset: Int, index: Int)?
    /// Where the id of the node last looked up was found.
    private var previousNodeAt = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        lines = LineIndex(bytes)
    }

    /// Byte offset just after the opening quote of `key`'s string value in the node with `id`.
    /// Looks from the node's id to the next node's id, then back to the previous one (key order is free).
    /// Nodes are asked for in the order of the file: the id is looked for after the previous node's first
    /// (then from the start), so that a canvas of many nodes is read once, not once per node.
    mutating func valueStart(of key: String, inNodeWithID id: String) -> Int? {
        let idBytes = Array(jsonLiteral(id).utf8)
        guard let idAt = find(idBytes, from: previousNodeAt) ?? find(idBytes, from: 0, before: previousNodeAt + idBytes.count) else { return nil }
        previousNodeAt = idAt
        let keyBytes = Array(jsonLiteral(key).utf8)
        let nextNode = find(Array("\"id\"".utf8), from: idAt + 1) ?? bytes.count
        let previousNode = lastFind(Array("\"id\"".utf8), before: max(0, idAt - 4)) ?? 0
        return valueStart(ofKey: keyBytes, from: idAt, before: nextNode) ?? valueStart(ofKey: keyBytes, from: previousNode, before: idAt)
    }

    /// The first occurrence of `"key"` used as a key (followed by `:`) with a string value, in a range.
    private func valueStart(ofKey keyBytes: [UInt8], from start: Int, before end: Int) -> Int? {
        var searchFrom = start
        while let keyAt = find(keyBytes, from: searchFrom, before: end) {
            if let value = stringValueStart(afterKeyAt: keyAt + keyBytes.count) { return value }
            searchFrom = keyAt + 1
        }
        return nil
    }

    /// File line and column (1-based, Unicode scalars) of the `scalarOffset`-th character of the JSON string
    /// whose content starts at byte `start`, decoding escapes (`\n`, `\"`, `\uXXXX`, surrogate pairs).
    mutating func position(ofScalar scalarOffset: Int, inStringAt start: Int) -> (line: Int, column: Int) {
        var index = start
        var remaining = scalarOffset
        if let last, last.start == start, last.scalarOffset <= scalarOffset {
            (index, remaining) = (last.index, scalarOffset - last.scalarOffset)
        }
        while remaining > 0, index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
            if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count {
                if bytes[index + 1] == UInt8(ascii: "u") {
                    // `\uD83D\uDE00` is one character: a high surrogate takes its low partner along.
                    let isHighSurrogate = hexValue(at: index + 2).map { (0xD800...0xDBFF).contains($0) } ?? false
                    index += 6
                    if isHighSurrogate, index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                        index += 6
                    }
                } else {
                    index += 2
                }
            } else {
                index += 1
                while index < bytes.count, bytes[index] & 0xC0 == 0x80 { index += 1 }
            }
            remaining -= 1
        }
        // Short of the scalar (the string ended first): not a place to continue from.
        last = remaining == 0 ? (start, scalarOffset, index) : nil
        return lineAndColumn(of: min(index, bytes.count))
    }

    mutating func lineAndColumn(of offset: Int) -> (line: Int, column: Int) {
        lines.position(of: offset)
    }

    // MARK: Helpers

    private func hexValue(at start: Int) -> Int? {
        guard start + 4 <= bytes.count else { return nil }
        return Int(String(decoding: bytes[start..<(start + 4)], as: UTF8.self), radix: 16)
    }

    private func jsonLiteral(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// After a key: whitespace, `:`, whitespace, then a string's opening quote.
    private func stringValueStart(afterKeyAt index: Int) -> Int? {
        func skipWhitespace(_ position: inout Int) {
            while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
        }
        var position = index
        skipWhitespace(&position)
        guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { return nil }
        position += 1
        skipWhitespace(&position)
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { return nil }
        return position + 1
    }

    private func find(_ needle: [UInt8], from start: Int, before end: Int? = nil) -> Int? {
        let limit = min(end ?? bytes.count, bytes.count)
        guard !needle.isEmpty, limit - start >= needle.count else { return nil }
        for index in start...(limit - needle.count) where bytes[index] == needle[0] {
            if bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
        }
        return nil
    }

    private func lastFind(_ needle: [UInt8], before end: Int) -> Int? {
        guard end >= needle.count else { return nil }
        var index = end - needle.count
        while index >= 0 {
            if bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index -= 1
        }
        return nil
    }
}
