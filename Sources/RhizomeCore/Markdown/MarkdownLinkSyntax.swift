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
}
