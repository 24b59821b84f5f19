/// A note's frontmatter block: where it is, and its parsed mapping (Obsidian calls these properties).
public struct Frontmatter: Sendable, Hashable {
    /// The top-level mapping; empty when the block is empty or invalid.
    public var entries: [FrontmatterEntry]
    /// 1-based line of the closing `---`.
    public var closingLine: Int
    /// True when the YAML failed to parse (the note then has no properties, as in Obsidian).
    public var isInvalid: Bool

    public init(entries: [FrontmatterEntry], closingLine: Int, isInvalid: Bool) {
        self.entries = entries
        self.closingLine = closingLine
        self.isInvalid = isInvalid
    }

    public subscript(key: String) -> FrontmatterNode? {
        entries.last(where: { $0.key == key })?.value
    }
}

/// Finds the frontmatter block: a `---` line at the very first line, up to the next `---` line
/// (trailing spaces allowed on both).
enum FrontmatterBlock {
    struct Location {
        /// Byte range of the YAML text between the delimiters.
        var yamlStart: Int
        var yamlEnd: Int
        /// Byte offset where the body starts, and its 1-based line.
        var bodyStart: Int
        var bodyFirstLine: Int
        var closingLine: Int
    }

    enum Detection {
        case none
        case found(Location)
        /// Opened with `---` but never closed: no properties, the whole file is body.
        case unclosed
    }

    static func detect(_ bytes: UnsafeBufferPointer<UInt8>) -> Detection {
        guard let firstEnd = delimiterLineEnd(bytes, at: 0) else { return .none }
        var lineStart = firstEnd
        var line = 2
        while lineStart < bytes.count {
            if let end = delimiterLineEnd(bytes, at: lineStart) {
                return .found(Location(yamlStart: firstEnd, yamlEnd: lineStart, bodyStart: end, bodyFirstLine: line + 1, closingLine: line))
            }
            while lineStart < bytes.count, bytes[lineStart] != UInt8(ascii: "\n") { lineStart += 1 }
            lineStart += 1
            line += 1
        }
        return .unclosed
    }

    /// If the line at `start` is `---` plus optional spaces, the offset after its newline.
    private static func delimiterLineEnd(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Int? {
        let dash = UInt8(ascii: "-")
        guard start + 3 <= bytes.count, bytes[start] == dash, bytes[start + 1] == dash, bytes[start + 2] == dash else { return nil }
        var index = start + 3
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") || bytes[index] == UInt8(ascii: "\r") {
            index += 1
        }
        if index == bytes.count { return index }
        return bytes[index] == UInt8(ascii: "\n") ? index + 1 : nil
    }
}
