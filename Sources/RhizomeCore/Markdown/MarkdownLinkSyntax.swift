/// Markdown link syntax shared by the scanner (which finds links) and `LinkLocator` (which reads one again
/// to rewrite it), so both agree byte for byte on where a link ends.
enum MarkdownLinkSyntax {
    /// The end of a destination written without `<…>`, starting at `start`: the first space or tab, or the
    /// `)` that closes the link (balanced parentheses inside are part of it; `\` escapes the next byte);
    /// at most `limit`.
    static func bareDestinationEnd<Bytes: RandomAccessCollection>(_ bytes: Bytes, from start: Int, limit: Int) -> Int
    where Bytes.Element == UInt8, Bytes.Index == Int {
        var end = start
        var parenDepth = 0
        while end < limit {
            let byte = bytes[end]
            if byte == ASCII.space || byte == ASCII.tab { break }
            if byte == ASCII.backslash { end += 2; continue }
            if byte == ASCII.openParen { parenDepth += 1 }
            if byte == ASCII.closeParen {
                if parenDepth == 0 { break }
                parenDepth -= 1
            }
            end += 1
        }
        return min(end, limit)
    }

    /// The `]` that closes a link's text opened by the `[` at `open`, before `limit`: brackets inside nest,
    /// `\` escapes the next byte. Nil when it does not close in time.
    static func textClose<Bytes: RandomAccessCollection>(_ bytes: Bytes, open: Int, limit: Int) -> Int?
    where Bytes.Element == UInt8, Bytes.Index == Int {
        var depth = 0
        var index = open
        while index < limit {
            let byte = bytes[index]
            if byte == ASCII.backslash { index += 2; continue }
            if byte == ASCII.openBracket { depth += 1 }
            if byte == ASCII.closeBracket {
                depth -= 1
                if depth == 0 { return index }
            }
            index += 1
        }
        return nil
    }
}
