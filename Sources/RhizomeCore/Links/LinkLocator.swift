/// Where each link of a note or canvas stands in the file's bytes: the span of its path text as written,
/// so that a rewrite replaces that text and nothing else (subpath, display text, `!`, title, angle
/// brackets and everything around the link keep their bytes).
///
/// The parsers give each link's line and column; the locator goes there and reads the link's syntax
/// again, in the container it stands in (markdown, a YAML value, a canvas JSON string). A link whose
/// text there does not read back as the parser's path is not located: a caller must not rewrite it.
public struct LocatedLink: Sendable, Hashable {
    /// How the path text is written where it stands, which decides how new text must be encoded.
    public enum Syntax: Sendable, Hashable {
        /// `[[path#sub|display]]` (also embeds): the path is written as is.
        case wikilink
        /// `[text](path#sub "title")`: percent-encoded where needed.
        case markdown
        /// `[text](<path#sub>)`: as is, without `<`, `>` or line breaks.
        case markdownAngle
        /// A canvas `file` node's string: the file's vault path.
        case canvasFile
    }

    /// The text the link stands in, which may need its own escaping around the new text.
    public enum Container: Sendable, Hashable {
        case markdown
        /// A frontmatter value: in double quotes, single quotes or plain.
        case yamlDoubleQuoted, yamlSingleQuoted, yamlPlain
        /// A JSON string of a canvas (a text node's markdown, a file node's path).
        case jsonString
    }

    public var occurrence: LinkOccurrence
    /// Byte range, in the whole file, of the path text as written (without surrounding spaces).
    public var pathRange: Range<Int>
    /// Byte range of the subpath as written, after the `#` (nil without one, and for canvas file nodes,
    /// whose subpath is a field of its own).
    public var subpathRange: Range<Int>?
    public var syntax: Syntax
    public var container: Container
    /// The markdown destination's path text was percent-encoded beyond spaces (`Caf%C3%A9.md`): new text
    /// is encoded the same way.
    public var encodesNonASCII: Bool
}

public enum LinkLocator {
    /// Locates `links` (as `NoteParser` or `CanvasParser` read them from `bytes`). The result has one
    /// entry per link, in order; nil where a link's text could not be found again exactly.
    public static func locate(_ links: [LinkOccurrence], in bytes: [UInt8], isCanvas: Bool) -> [LocatedLink?] {
        let offset = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let text = Array(bytes[offset...])
        var lines = LineIndex(text)  // links in order: each lookup continues from the last
        let frontmatterEnd: Int
        if !isCanvas, case .found(let location) = text.withUnsafeBufferPointer({ FrontmatterBlock.detect($0) }) {
            frontmatterEnd = location.yamlEnd
        } else {
            frontmatterEnd = 0
        }
        var lastPropertyLink: (start: Int, container: LocatedLink.Container)?
        return links.map { link in
            guard let start = lines.offset(line: link.line, column: link.column) else { return nil }
            let reader = Reader(bytes: text, lines: lines)
            let container: LocatedLink.Container
            if isCanvas {
                container = .jsonString
            } else if link.kind == .property {
                // Only an earlier link on the same line (nothing but the line is looked at) can help.
                let earlier = lastPropertyLink.flatMap { reader.lineEnd(from: $0.start) == reader.lineEnd(from: start) ? $0 : nil }
                container = reader.yamlContainer(at: start, knowing: earlier)
                lastPropertyLink = (start, container)
            } else {
                container = start < frontmatterEnd ? .yamlPlain : .markdown
            }
            let found: LocatedLink?
            if link.kind == .canvasFile {
                found = reader.canvasFile(link, at: start)
            } else if link.kind == .property && link.isMarkdownSyntax {
                // A markdown link in a property is placed from the value's decoded text: look along the line.
                found = reader.markdownLinkOnLine(link, from: start, container: container)
            } else {
                found = link.isMarkdownSyntax
                    ? reader.markdownLink(link, at: start, container: container)
                    : reader.wikilink(link, at: start, container: container)
            }
            guard var located = found else { return nil }
            located.pathRange = (located.pathRange.lowerBound + offset)..<(located.pathRange.upperBound + offset)
            located.subpathRange = located.subpathRange.map { ($0.lowerBound + offset)..<($0.upperBound + offset) }
            return located
        }
    }
}


/// Reads one link's syntax again at a known position.
private struct Reader {
    let bytes: [UInt8]
    /// The text's lines: where a line ends is a lookup, not a walk to its end (links on one long line).
    let lines: LineIndex

    func lineEnd(from index: Int) -> Int { lines.lineEnd(from: index) }

    func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

    func trimmed(_ start: Int, _ end: Int) -> Range<Int> {
        var low = start, high = end
        while low < high, bytes[low] == ASCII.space || bytes[low] == ASCII.tab { low += 1 }
        while high > low, bytes[high - 1] == ASCII.space || bytes[high - 1] == ASCII.tab { high -= 1 }
        return low..<high
    }

    /// The quoting of the YAML scalar a property link at `start` stands in: the nearest quote before it on
    /// its line that opens a value (after `:`, `-`, `[`, `,` or at the line's start).
    /// `earlier`: the answer for an earlier link on the same line, to stop where that look began (many
    /// links in one value: each look goes back to the previous link, not to the value's opening quote).
    func yamlContainer(at start: Int, knowing earlier: (start: Int, container: LocatedLink.Container)? = nil) -> LocatedLink.Container {
        var index = start - 1
        let stop = earlier.flatMap { $0.start <= start ? $0.start : nil } ?? -1
        while index >= 0, bytes[index] != ASCII.newline {
            if index < stop, let earlier { return earlier.container }
            let byte = bytes[index]
            if byte == ASCII.quote || byte == ASCII.apostrophe {
                var before = index - 1
                while before >= 0, bytes[before] == ASCII.space || bytes[before] == ASCII.tab { before -= 1 }
                if before < 0 || [ASCII.newline, UInt8(ascii: ":"), UInt8(ascii: "-"), ASCII.openBracket, UInt8(ascii: ","), UInt8(ascii: "{")].contains(bytes[before]) {
                    return byte == ASCII.quote ? .yamlDoubleQuoted : .yamlSingleQuoted
                }
            }
            index -= 1
        }
        return .yamlPlain
    }

    /// `[[path#sub|display]]` (or `![[…]]`) starting at `start`.
    func wikilink(_ link: LinkOccurrence, at start: Int, container: LocatedLink.Container) -> LocatedLink? {
        var open = start
        if open < bytes.count, bytes[open] == ASCII.bang { open += 1 }
        guard open + 1 < bytes.count, bytes[open] == ASCII.openBracket, bytes[open + 1] == ASCII.openBracket else { return nil }
        let innerStart = open + 2
        let end = lineEnd(from: innerStart)
        var close: Int? = nil
        var index = innerStart
        while index + 1 < end {
            if bytes[index] == ASCII.closeBracket, bytes[index + 1] == ASCII.closeBracket { close = index; break }
            index += 1
        }
        guard let close else { return nil }
        var pathEnd = close
        // A leading `|` belongs to the path (as in the scanner).
        var position = innerStart + 1
        while position < close {
            if bytes[position] == ASCII.pipe {
                pathEnd = bytes[position - 1] == ASCII.backslash ? position - 1 : position
                break
            }
            position += 1
        }
        var subpathRange: Range<Int>? = nil
        if let hashAt = bytes[innerStart..<pathEnd].firstIndex(of: ASCII.hash) {
            subpathRange = trimmed(hashAt + 1, pathEnd)
            pathEnd = hashAt
        }
        let range = trimmed(innerStart, pathEnd)
        guard matches(range, link.path, container: container, percentDecoded: false) else { return nil }
        return LocatedLink(occurrence: link, pathRange: range, subpathRange: subpathRange, syntax: .wikilink, container: container, encodesNonASCII: false)
    }

    /// `[text](destination "title")` (or `![…](…)`) starting at `start`.
    func markdownLink(_ link: LinkOccurrence, at start: Int, container: LocatedLink.Container) -> LocatedLink? {
        var open = start
        if open < bytes.count, bytes[open] == ASCII.bang { open += 1 }
        guard open < bytes.count, bytes[open] == ASCII.openBracket else { return nil }
        let end = lineEnd(from: open)
        guard let textClose = MarkdownLinkSyntax.textClose(bytes, open: open, limit: end), textClose + 1 < end, bytes[textClose + 1] == ASCII.openParen else { return nil }
        var destinationStart = textClose + 2
        while destinationStart < end, bytes[destinationStart] == ASCII.space || bytes[destinationStart] == ASCII.tab { destinationStart += 1 }
        var destinationEnd = destinationStart
        var syntax = LocatedLink.Syntax.markdown
        if destinationStart < end, bytes[destinationStart] == ASCII.lessThan {
            syntax = .markdownAngle
            destinationStart += 1
            guard let close = bytes[destinationStart..<end].firstIndex(of: ASCII.greaterThan) else { return nil }
            destinationEnd = close
        } else {
            destinationEnd = MarkdownLinkSyntax.bareDestinationEnd(bytes, from: destinationEnd, limit: end)
        }
        // The path is the destination before its first `#` (an encoded `%23` would split after decoding:
        // such a link is not located, so it is never rewritten).
        var pathEnd = destinationEnd
        var subpathRange: Range<Int>? = nil
        if let hashAt = bytes[destinationStart..<destinationEnd].firstIndex(of: ASCII.hash) {
            pathEnd = hashAt
            subpathRange = (hashAt + 1)..<destinationEnd
        }
        let range = trimmed(destinationStart, pathEnd)
        let raw = text(range)
        guard !raw.lowercased().contains("%23"), matches(range, link.path, container: container, percentDecoded: true) else { return nil }
        let encodesNonASCII = raw.contains("%") && raw.utf8.allSatisfy { $0 < 0x80 } && raw.removingPercentEncodingIfValid.utf8.contains { $0 >= 0x80 }
        return LocatedLink(occurrence: link, pathRange: range, subpathRange: subpathRange, syntax: syntax, container: container, encodesNonASCII: encodesNonASCII)
    }

    /// The first markdown link from `start` to the end of its line whose path reads as `link.path`.
    func markdownLinkOnLine(_ link: LinkOccurrence, from start: Int, container: LocatedLink.Container) -> LocatedLink? {
        if let exact = markdownLink(link, at: start, container: container) { return exact }
        var lineStart = start
        while lineStart > 0, bytes[lineStart - 1] != ASCII.newline { lineStart -= 1 }
        let end = lineEnd(from: start)
        var index = lineStart
        while index < end {
            if bytes[index] == ASCII.openBracket, let found = markdownLink(link, at: index, container: container) { return found }
            index += 1
        }
        return nil
    }

    /// A canvas `file` node's value: the JSON string whose content starts at `start`.
    func canvasFile(_ link: LinkOccurrence, at start: Int) -> LocatedLink? {
        var end = start
        while end < bytes.count, bytes[end] != ASCII.quote {
            if bytes[end] == ASCII.backslash { return nil }  // an escaped path: not rewritten
            if bytes[end] == ASCII.newline { return nil }
            end += 1
        }
        guard end < bytes.count, UnicodeNormalization.nfc(text(start..<end)) == link.path else { return nil }
        return LocatedLink(
            occurrence: link, pathRange: start..<end, subpathRange: link.subpath == nil ? nil : canvasSubpath(link, around: start),
            syntax: .canvasFile, container: .jsonString, encodesNonASCII: false)
    }

    /// The value of the `"subpath"` key in the node whose `"file"` value starts at `fileStart` (its `#`
    /// included), when it reads as the parser's subpath and has no escapes; nil otherwise. A file node is a
    /// flat object: its braces are the nearest ones around the file value.
    func canvasSubpath(_ link: LinkOccurrence, around fileStart: Int) -> Range<Int>? {
        guard let open = bytes[..<fileStart].lastIndex(of: UInt8(ascii: "{")),
              let close = bytes[fileStart...].firstIndex(of: UInt8(ascii: "}")) else { return nil }
        let key = Array(#""subpath""#.utf8)
        var index = open
        while index + key.count <= close {
            guard Array(bytes[index..<index + key.count]) == key else { index += 1; continue }
            var cursor = index + key.count
            while cursor < close, [ASCII.space, ASCII.tab, ASCII.newline, ASCII.carriageReturn, ASCII.colon].contains(bytes[cursor]) { cursor += 1 }
            guard cursor < close, bytes[cursor] == ASCII.quote else { return nil }
            let start = cursor + 1
            var end = start
            while end < close, bytes[end] != ASCII.quote {
                if bytes[end] == ASCII.backslash || bytes[end] == ASCII.newline { return nil }
                end += 1
            }
            guard end < close else { return nil }
            let value = text(start..<end)
            return (value.hasPrefix("#") ? String(value.dropFirst()) : value) == link.subpath ? start..<end : nil
        }
        return nil
    }

    /// Whether the raw text reads as the parser's `path`. Raw text with escapes of its container (a
    /// backslash in JSON or double-quoted YAML, `''` in single-quoted YAML) is not compared: not located.
    func matches(_ range: Range<Int>, _ path: String, container: LocatedLink.Container, percentDecoded: Bool) -> Bool {
        var raw = text(range)
        switch container {
        case .jsonString, .yamlDoubleQuoted:
            if raw.utf8.contains(ASCII.backslash) { return false }
        case .yamlSingleQuoted:
            if raw.utf8.contains(ASCII.apostrophe) { return false }
        case .markdown, .yamlPlain:
            break
        }
        if percentDecoded { raw = raw.removingPercentEncodingIfValid.trimmingSpaces }
        return UnicodeNormalization.nfc(raw) == path
    }
}
