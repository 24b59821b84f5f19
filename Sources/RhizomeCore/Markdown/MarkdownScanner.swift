/// A single-pass, byte-level scanner for the parts of a markdown body that Obsidian indexes:
/// links, embeds, tags, headings, block ids and tasks, and the inline fields Dataview reads.
///
/// Hiding rules (docs/OBSIDIAN.md): fenced code (``` and ~~~), inline code, HTML comments and
/// backslash-escaped brackets hide links and tags; `%% … %%` comments do not. Fenced code, inline code
/// and HTML comments hide inline fields too. A `%%` comment section (a line that starts with `%%` and does
/// not close it, through the line that does) is one block, as a fence is: it holds no headings, list
/// items, tasks or block ids, while its links, tags and inline fields count.
public struct MarkdownContent: Sendable, Hashable {
    public var links: [LinkOccurrence] = []
    public var tags: [TagOccurrence] = []
    public var headings: [Heading] = []
    public var blocks: [BlockID] = []
    public var tasks: [TaskItem] = []
    /// The page's Dataview inline fields, in order. As in Dataview, fields in a task (its line and its
    /// continuation lines) belong to the task, not the page, and are not here (`ListItemParser` has them).
    public var inlineFields: [InlineField] = []

    public init() {}
}

public enum MarkdownScanner {
    /// Scans `bytes` (valid UTF-8), numbering lines from `firstLine`.
    public static func scan(_ bytes: UnsafeBufferPointer<UInt8>, firstLine: Int = 1) -> MarkdownContent {
        var scanner = MarkdownByteScanner(bytes: bytes)
        scanner.run(firstLine: firstLine)
        return scanner.content
    }

    public static func scan(_ text: String, firstLine: Int = 1) -> MarkdownContent {
        var copy = text
        return copy.withUTF8 { scan($0, firstLine: firstLine) }
    }

    /// The scan `ListItemParser` builds on: every inline field, tasks' included, and the lines that
    /// belong to list items.
    static func scanListStructure(_ bytes: UnsafeBufferPointer<UInt8>, firstLine: Int) -> (MarkdownContent, [ListLineRecord]) {
        var scanner = MarkdownByteScanner(bytes: bytes)
        scanner.includesTaskFields = true
        scanner.recordsListLines = true
        scanner.tracksLists = true
        scanner.run(firstLine: firstLine)
        return (scanner.content, scanner.listLines)
    }

    /// Scans one inline fragment (a frontmatter value, a canvas text node) for links and tags only.
    static func scanInline(_ text: String, line: Int, column: Int) -> MarkdownContent {
        var copy = text
        return copy.withUTF8 { buffer in
            var scanner = MarkdownByteScanner(bytes: buffer)
            scanner.columnOffset = column - 1
            scanner.scanInline(0, buffer.count, line: line)
            return scanner.content
        }
    }
}
