#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One scan of a markdown body, byte by byte (`MarkdownScanner` runs it): the state carried from line to line
/// and the main loop, which sorts lines into fences, comment sections and the rest. Its other parts:
/// `+Blocks` (headings, list items, tasks, block ids), `+InlineFields`, `+Inline` (links, embeds, tags) and
/// `+Bytes` (searching the buffer, columns).
struct MarkdownByteScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var content = MarkdownContent()
    var inHTMLComment = false
    /// Added to every column (for fragments that do not start at column 1).
    var columnOffset = 0
    /// Start of the current line, for column computation.
    var lineStart = 0 {
        didSet {
            columnCache = (lineStart, 0)
            noWikilinkClose = (.max, -1)
            noWikilinkStartBefore = (0, -1)
        }
    }
    /// The last column computed on this line (columns are asked for left to right: counting resumes there).
    var columnCache = (index: 0, scalars: 0)
    /// No `]]` lies between `from` and `end` (a range end on the current line): a later `[[` scanned up to
    /// the same end need not search again.
    var noWikilinkClose = (from: Int.max, end: -1)
    /// A `[[` before `position` cannot start a wikilink (a later `[[` comes before the next `]]`), for
    /// ranges ending at `end`.
    var noWikilinkStartBefore = (position: 0, end: -1)
    /// Nesting of link text being scanned (an image inside a link); deeper text is not scanned.
    var linkTextDepth = 0
    /// Markdown link text and destinations longer than these are not looked for: real ones are far
    /// shorter, and the bounds keep lines full of unclosed `[a](` linear to scan.
    static let maximumLinkTextBytes = 1_024
    static let maximumDestinationBytes = 2_048
    /// Dataview does not look for inline fields in longer lines.
    static let maximumFieldLineBytes = 32_768

    /// Open list items from line to line: which lines belong to a task.
    var lists = ListStructureTracker()
    /// Whether `lists` follows the lines. For the page's fields it only has to from the first task on:
    /// before it no line can be a task's, and ancestors it misses there are not tasks either.
    var tracksLists = false
    /// The item the lines of the open fence belong to, if any.
    var fenceOwner: ListLineOwner? = nil
    /// Also the fields of tasks (for `ListItemParser`); the index keeps the page's only.
    var includesTaskFields = false
    /// The lines that belong to list items, when asked for (`ListItemParser`).
    var recordsListLines = false
    var listLines: [ListLineRecord] = []
    /// The list item started last (its line, how many lines it spans so far, whether a task), and the
    /// lines of the tasks so far: what `listLine` needs for the tasks' parents and continuation lines.
    var lastItem: (line: Int, lineCount: Int, isTask: Bool)? = nil
    var taskLines: Set<Int> = []
    /// Inline code spans and HTML comments of the current line, in order, while a line that may hold
    /// inline fields is scanned.
    var hiddenRanges: [(start: Int, end: Int)] = []
    var recordsHiddenRanges = false
    /// Reused buffers of the field search: candidates of one wrapper, those whose value is still open
    /// (with the bracket depth where it started), and the fields found on the line.
    var wrappedCandidates: [(open: Int, separator: Int, close: Int, syntax: InlineField.Syntax)] = []
    var unclosedCandidates: [(candidate: Int, depth: Int)] = []
    var wrappedFields: [(open: Int, separator: Int, close: Int, syntax: InlineField.Syntax)] = []
    /// Where the HTML comment being skipped started on the current line.
    var commentStart = 0
    /// Where the last link, code span, escape or tag of the current inline scan ended: a `#` there starts a tag.
    var nodeEnd = -1

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func run(firstLine: Int) {
        var line = firstLine
        var start = 0
        let count = bytes.count
        var fence: (marker: UInt8, length: Int)? = nil
        var inCommentSection = false
        var previousLineWasParagraph = false
        var previousLine = (start: 0, end: 0)
        while start < count || (start == count && count == 0) {
            if count == 0 { break }
            var end = count
            if let base = bytes.baseAddress, let found = memchr(base + start, Int32(ASCII.newline), count - start) {
                end = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
            }
            let next = end + 1
            var contentEnd = end
            if contentEnd > start, bytes[contentEnd - 1] == ASCII.carriageReturn { contentEnd -= 1 }
            lineStart = start

            if let open = fence {
                if isClosingFence(start, contentEnd, open) { fence = nil }
                if let owner = fenceOwner { listLine(start, contentEnd, line: line, owner: owner) }
                previousLineWasParagraph = false
            } else if inCommentSection || (!inHTMLComment && opensCommentSection(start, contentEnd)) {
                // Opened here or on a line before; the first `%%` of a later line closes it.
                let opening = !inCommentSection
                if opening, tracksLists {
                    let prefix = linePrefix(start, contentEnd)
                    fenceOwner = lists.openFence(ListLineShape(quoteDepth: prefix.quoteDepth, indent: prefix.indent, isBlank: false))
                }
                inCommentSection = opening || !containsCommentMarker(start, contentEnd)
                _ = scanLine(start, contentEnd, line: line, wasInComment: inHTMLComment, inCommentSection: true,
                             previousLineWasParagraph: false, previousLine: previousLine)
                previousLineWasParagraph = false
            } else if !inHTMLComment, let open = openingFence(start, contentEnd) {
                fence = open
                if tracksLists {
                    let prefix = linePrefix(start, contentEnd)
                    fenceOwner = lists.openFence(ListLineShape(quoteDepth: prefix.quoteDepth, indent: prefix.indent, isBlank: false))
                    if let owner = fenceOwner { listLine(start, contentEnd, line: line, owner: owner) }
                }
                previousLineWasParagraph = false
            } else {
                let wasInComment = inHTMLComment
                let isParagraph = scanLine(start, contentEnd, line: line, wasInComment: wasInComment,
                                           previousLineWasParagraph: previousLineWasParagraph, previousLine: previousLine)
                previousLineWasParagraph = isParagraph && !wasInComment
            }
            previousLine = (start, contentEnd)
            line += 1
            start = next
        }
    }
}
