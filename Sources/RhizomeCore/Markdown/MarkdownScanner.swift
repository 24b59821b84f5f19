#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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
        var scanner = Scanner(bytes: bytes)
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
        var scanner = Scanner(bytes: bytes)
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
            var scanner = Scanner(bytes: buffer)
            scanner.columnOffset = column - 1
            scanner.scanInline(0, buffer.count, line: line)
            return scanner.content
        }
    }
}

// ASCII bytes used by the scanner.
private let newline = UInt8(ascii: "\n"), carriageReturn = UInt8(ascii: "\r"), space = UInt8(ascii: " "), tab = UInt8(ascii: "\t")
private let backtick = UInt8(ascii: "`"), tilde = UInt8(ascii: "~"), hash = UInt8(ascii: "#"), backslash = UInt8(ascii: "\\")
private let openBracket = UInt8(ascii: "["), closeBracket = UInt8(ascii: "]"), openParen = UInt8(ascii: "("), closeParen = UInt8(ascii: ")")
private let bang = UInt8(ascii: "!"), lessThan = UInt8(ascii: "<"), greaterThan = UInt8(ascii: ">"), pipe = UInt8(ascii: "|")
private let caret = UInt8(ascii: "^"), dash = UInt8(ascii: "-"), equals = UInt8(ascii: "="), star = UInt8(ascii: "*"), plus = UInt8(ascii: "+")
private let colon = UInt8(ascii: ":"), underscore = UInt8(ascii: "_"), percent = UInt8(ascii: "%")

private struct Scanner {
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
            if let base = bytes.baseAddress, let found = memchr(base + start, Int32(newline), count - start) {
                end = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
            }
            let next = end + 1
            var contentEnd = end
            if contentEnd > start, bytes[contentEnd - 1] == carriageReturn { contentEnd -= 1 }
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

    // MARK: Block structure

    /// Handles one line outside fenced code. Returns whether it is plain paragraph text (for setext headings).
    /// On a line of a `%%` comment section (`inCommentSection`) only links, tags and fields are read; the
    /// line belongs to the list item the section is indented into, if any.
    mutating func scanLine(
        _ start: Int, _ end: Int, line: Int, wasInComment: Bool, inCommentSection: Bool = false,
        previousLineWasParagraph: Bool, previousLine: (start: Int, end: Int)
    ) -> Bool {
        var isParagraph = true
        let prefix = linePrefix(start, end)
        var shape = ListLineShape(quoteDepth: prefix.quoteDepth, indent: prefix.indent, isBlank: prefix.textStart == end)
        // Where the line's own text starts: after quote markers, and after the marker and checkbox of an item.
        var textStart = prefix.textStart
        var symbolEnd = textStart
        if !wasInComment && !inCommentSection {
            let indent = skipSpaces(start, end)
            if indent == end {
                if tracksLists { _ = lists.advance(shape, line: line) }
                return false
            }
            if let (level, textStart, textEnd) = atxHeading(start, end) {
                content.headings.append(Heading(level: level, text: text(textStart, textEnd), line: line))
                isParagraph = false
                shape.isBlockBreak = true
            } else if previousLineWasParagraph, let level = setextUnderline(start, end) {
                let textStart = skipSpaces(previousLine.start, previousLine.end)
                let textEnd = trimTrailingSpaces(textStart, previousLine.end)
                content.headings.append(Heading(level: level, text: text(textStart, textEnd), line: line - 1))
                shape.isBlockBreak = true
                if tracksLists { _ = lists.advance(shape, line: line) }
                return false
            }
            let body = prefix.textStart
            if let itemStart = listMarkerEnd(body, end) {
                textStart = skipSpaces(itemStart, end)
                if let (task, taskTextStart) = task(itemStart, end, line: line) {
                    content.tasks.append(task)
                    shape.isTask = true
                    textStart = taskTextStart
                    tracksLists = true
                }
                if !tracksLists {
                    // No task so far: nothing to tell apart yet (see `tracksLists`).
                } else if isThematicBreak(body, end) {
                    shape.isBlockBreak = true  // `- - -`, `* * *`
                } else {
                    symbolEnd = itemStart - 1
                    shape.itemContentColumn = itemContentColumn(indent: prefix.indent, markerStart: body, markerEnd: symbolEnd, end: end)
                }
            } else if tracksLists, isThematicBreak(body, end) {
                shape.isBlockBreak = true
            }
            if shape.isTask || isListItemOrQuote(start, end) || bytes[indent] == pipe {
                isParagraph = false
            }
            blockID(start, end, line: line)
        }
        let owner = inCommentSection ? fenceOwner : tracksLists ? lists.advance(shape, line: line) : nil
        // As in Dataview, a task's fields are the task's, not the page's.
        let isTaskLine = owner?.isTask ?? false
        if (includesTaskFields || !isTaskLine) && mayHoldInlineField(textStart, end) {
            recordsHiddenRanges = true
            hiddenRanges.removeAll(keepingCapacity: true)
            scanInline(start, end, line: line)
            recordsHiddenRanges = false
            inlineFields(textStart, end, line: line, allowsFullLine: !isTaskLine)
        } else {
            scanInline(start, end, line: line)
        }
        if let owner {
            let status = shape.isTask ? content.tasks.last?.status : nil
            listLine(start, end, line: line, owner: owner, textStart: textStart, symbolEnd: symbolEnd, status: status)
        }
        return isParagraph
    }

    /// Quote markers (`>`, each with one optional space) and the indentation after them, in columns.
    func linePrefix(_ start: Int, _ end: Int) -> (quoteDepth: Int, indent: Int, textStart: Int) {
        var quoteDepth = 0
        var index = start
        while true {
            var column = 0
            var position = index
            while position < end, bytes[position] == space || bytes[position] == tab {
                column = bytes[position] == tab ? (column / 4 + 1) * 4 : column + 1
                position += 1
            }
            guard position < end, bytes[position] == greaterThan else { return (quoteDepth, column, position) }
            quoteDepth += 1
            index = position + 1
            if index < end, bytes[index] == space { index += 1 }
        }
    }

    /// The column where a list item's content starts (CommonMark): after the marker and the spaces
    /// following it, or one column after the marker when more than four spaces follow or nothing does.
    func itemContentColumn(indent: Int, markerStart: Int, markerEnd: Int, end: Int) -> Int {
        let markerEndColumn = indent + markerEnd - markerStart
        var column = markerEndColumn
        var index = markerEnd
        while index < end, bytes[index] == space || bytes[index] == tab {
            column = bytes[index] == tab ? (column / 4 + 1) * 4 : column + 1
            index += 1
        }
        return index == end || column - markerEndColumn > 4 ? markerEndColumn + 1 : column
    }

    /// `---`, `***`, `___` (three or more, spaces allowed between): not a list item, and it ends a list.
    @inline(__always)
    func isThematicBreak(_ index: Int, _ end: Int) -> Bool {
        guard index < end, bytes[index] == dash || bytes[index] == star || bytes[index] == underscore else { return false }
        let marker = bytes[index]
        var count = 0
        for position in index..<end {
            if bytes[position] == marker {
                count += 1
            } else if bytes[position] != space && bytes[position] != tab {
                return false
            }
        }
        return count >= 3
    }

    /// A line that belongs to a list item: kept for `ListItemParser` when it asks, and read for the task
    /// it starts or continues (`TaskItem.parentTaskLine`, `TaskItem.continuedText`), as `ListItemParser`
    /// assembles items: only the item started last grows, a gap of blank lines becomes empty lines.
    mutating func listLine(
        _ start: Int, _ end: Int, line: Int, owner: ListLineOwner, textStart: Int? = nil, symbolEnd: Int? = nil, status: String? = nil
    ) {
        if recordsListLines { recordListLine(start, end, line: line, owner: owner, textStart: textStart, symbolEnd: symbolEnd, status: status) }
        if owner.startsItem {
            lastItem = (line, 1, owner.isTask)
            if owner.isTask, let parent = owner.parentLine, let task = content.tasks.indices.last, content.tasks[task].line == line,
               taskLines.contains(parent) {
                content.tasks[task].parentTaskLine = parent
            }
            if owner.isTask { taskLines.insert(line) }
        } else if let item = lastItem, item.isTask, item.line == owner.itemLine, let task = content.tasks.indices.last,
                  content.tasks[task].line == item.line {
            let from = textStart ?? linePrefix(start, end).textStart
            let gap = line - (item.line + item.lineCount)
            let continued = content.tasks[task].continuedText ?? content.tasks[task].text
            content.tasks[task].continuedText = continued + String(repeating: "\n", count: gap + 1) + text(from, trimTrailingSpaces(from, end))
            lastItem = (item.line, line - item.line + 1, true)
        }
    }

    /// Keeps a line of a list item for `ListItemParser`.
    mutating func recordListLine(
        _ start: Int, _ end: Int, line: Int, owner: ListLineOwner, textStart: Int? = nil, symbolEnd: Int? = nil, status: String? = nil
    ) {
        let from = textStart ?? linePrefix(start, end).textStart
        let symbol = owner.startsItem ? text(linePrefix(start, end).textStart, symbolEnd ?? from) : ""
        listLines.append(ListLineRecord(line: line, owner: owner, text: text(from, trimTrailingSpaces(from, end)), symbol: symbol, status: status))
    }

    func skipSpaces(_ start: Int, _ end: Int) -> Int {
        var index = start
        while index < end, bytes[index] == space || bytes[index] == tab { index += 1 }
        return index
    }

    func trimTrailingSpaces(_ start: Int, _ end: Int) -> Int {
        var index = end
        while index > start, bytes[index - 1] == space || bytes[index - 1] == tab { index -= 1 }
        return index
    }

    /// Skips `>` blockquote/callout markers so tasks in quotes are found.
    func skipQuoteMarkers(_ start: Int, _ end: Int) -> Int {
        var index = skipSpaces(start, end)
        while index < end, bytes[index] == greaterThan {
            index = skipSpaces(index + 1, end)
        }
        return index
    }

    /// ``` or ~~~ (three or more), after any indentation or callout/quote markers (`> ```md`).
    /// Backtick fences may not have a backtick in the info string.
    func openingFence(_ start: Int, _ end: Int) -> (marker: UInt8, length: Int)? {
        let index = skipQuoteMarkers(start, end)
        guard index < end, bytes[index] == backtick || bytes[index] == tilde else { return nil }
        let marker = bytes[index]
        var runEnd = index
        while runEnd < end, bytes[runEnd] == marker { runEnd += 1 }
        let length = runEnd - index
        guard length >= 3 else { return nil }
        if marker == backtick {
            for position in runEnd..<end where bytes[position] == backtick { return nil }
        }
        return (marker, length)
    }

    /// A line whose text (after indentation and quote markers) starts with `%%` that the line does not
    /// close: `%%` alone, `%% a note that goes on`; not `%% hidden %%`.
    func opensCommentSection(_ start: Int, _ end: Int) -> Bool {
        let index = skipSpaces(skipQuoteMarkers(start, end), end)
        guard index + 1 < end, bytes[index] == percent, bytes[index + 1] == percent else { return false }
        return !containsCommentMarker(index + 2, end)
    }

    /// Whether `%%` occurs in `[start, end)`.
    func containsCommentMarker(_ start: Int, _ end: Int) -> Bool {
        var index = start
        while index + 1 < end {
            if bytes[index] == percent, bytes[index + 1] == percent { return true }
            index += 1
        }
        return false
    }

    func isClosingFence(_ start: Int, _ end: Int, _ fence: (marker: UInt8, length: Int)) -> Bool {
        let index = skipQuoteMarkers(start, end)
        var runEnd = index
        while runEnd < end, bytes[runEnd] == fence.marker { runEnd += 1 }
        return runEnd - index >= fence.length && skipSpaces(runEnd, end) == end
    }

    func atxHeading(_ start: Int, _ end: Int) -> (Int, Int, Int)? {
        let index = skipSpaces(start, end)
        guard index - start <= 3 else { return nil }
        var level = 0
        while index + level < end, bytes[index + level] == hash { level += 1 }
        guard (1...6).contains(level) else { return nil }
        let afterHashes = index + level
        guard afterHashes == end || bytes[afterHashes] == space || bytes[afterHashes] == tab else { return nil }
        let textStart = skipSpaces(afterHashes, end)
        var textEnd = trimTrailingSpaces(textStart, end)
        // An optional closing sequence of #s, preceded by a space.
        var closing = textEnd
        while closing > textStart, bytes[closing - 1] == hash { closing -= 1 }
        if closing < textEnd, closing == textStart || bytes[closing - 1] == space || bytes[closing - 1] == tab {
            textEnd = trimTrailingSpaces(textStart, closing)
        }
        return (level, textStart, textEnd)
    }

    func setextUnderline(_ start: Int, _ end: Int) -> Int? {
        let index = skipSpaces(start, end)
        guard index - start <= 3, index < end, bytes[index] == equals || bytes[index] == dash else { return nil }
        let marker = bytes[index]
        var runEnd = index
        while runEnd < end, bytes[runEnd] == marker { runEnd += 1 }
        guard skipSpaces(runEnd, end) == end else { return nil }
        if marker == dash, runEnd - index < 2 { return nil }
        return marker == equals ? 1 : 2
    }

    /// `- `, `* `, `+ `, `1. `, `1) ` — returns the index after the marker and its space.
    func listMarkerEnd(_ index: Int, _ end: Int) -> Int? {
        guard index < end else { return nil }
        let first = bytes[index]
        var afterMarker: Int
        if first == dash || first == star || first == plus {
            afterMarker = index + 1
        } else {
            var digitEnd = index
            while digitEnd < end, digitEnd - index < 9, bytes[digitEnd] >= 48, bytes[digitEnd] <= 57 { digitEnd += 1 }
            guard digitEnd > index, digitEnd < end, bytes[digitEnd] == UInt8(ascii: ".") || bytes[digitEnd] == closeParen else { return nil }
            afterMarker = digitEnd + 1
        }
        guard afterMarker < end, bytes[afterMarker] == space || bytes[afterMarker] == tab else { return nil }
        afterMarker += 1
        return afterMarker
    }

    func isListItemOrQuote(_ start: Int, _ end: Int) -> Bool {
        let index = skipSpaces(start, end)
        guard index < end else { return false }
        return bytes[index] == greaterThan || listMarkerEnd(index, end) != nil
    }

    /// A list item whose content (from `itemStart`, after the marker) starts with `[c]` followed by
    /// whitespace or the end of the line; with where the task's text starts.
    func task(_ itemStart: Int, _ end: Int, line: Int) -> (TaskItem, Int)? {
        let boxStart = skipSpaces(itemStart, end)
        guard boxStart < end, bytes[boxStart] == openBracket else { return nil }
        let statusStart = boxStart + 1
        guard statusStart < end else { return nil }
        let statusLength = utf8Length(bytes[statusStart])
        let closing = statusStart + statusLength
        guard closing < end, bytes[closing] == closeBracket, bytes[statusStart] != closeBracket, bytes[statusStart] != tab else { return nil }
        let afterBox = closing + 1
        guard afterBox == end || bytes[afterBox] == space || bytes[afterBox] == tab else { return nil }
        let textStart = skipSpaces(afterBox, end)
        return (TaskItem(status: text(statusStart, closing), text: text(textStart, trimTrailingSpaces(textStart, end)), line: line), textStart)
    }

    /// `text ^block-id` at the end of a line, or `^block-id` alone on a line.
    mutating func blockID(_ start: Int, _ end: Int, line: Int) {
        let trimmedEnd = trimTrailingSpaces(start, end)
        var idStart = trimmedEnd
        while idStart > start, isBlockIDByte(bytes[idStart - 1]) { idStart -= 1 }
        guard idStart < trimmedEnd, idStart > start, bytes[idStart - 1] == caret else { return }
        let caretIndex = idStart - 1
        let isAlone = skipSpaces(start, end) == caretIndex
        guard isAlone || (caretIndex > start && (bytes[caretIndex - 1] == space || bytes[caretIndex - 1] == tab)) else { return }
        content.blocks.append(BlockID(id: text(idStart, trimmedEnd), line: line))
    }

    func isBlockIDByte(_ byte: UInt8) -> Bool {
        (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || byte == dash
    }

    // MARK: Inline fields (Dataview)

    /// The cheap test that keeps field extraction off most lines: a `::` in the line's text.
    func mayHoldInlineField(_ start: Int, _ end: Int) -> Bool {
        guard end - start >= 2, end - start <= Self.maximumFieldLineBytes, let base = bytes.baseAddress else { return false }
        var index = start
        while index < end - 1, let found = memchr(base + index, Int32(colon), end - 1 - index) {
            let position = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
            if bytes[position + 1] == colon { return true }
            index = position + 1
        }
        return false
    }

    /// Dataview's fields on one line, whose text starts at `start` (after quote markers, or after a list
    /// marker and checkbox): `[key:: value]` and `(key:: value)` anywhere; when there are none (and the
    /// line is not a task's), `key:: value` filling the line. Wrappers and `::` inside inline code or an
    /// HTML comment do not count (`hiddenRanges`, filled by the scan of this line).
    mutating func inlineFields(_ start: Int, _ end: Int, line: Int, allowsFullLine: Bool) {
        wrappedFields.removeAll(keepingCapacity: true)
        findWrappedFields(start, end, open: openBracket, close: closeBracket, syntax: .bracket)
        let bracketCount = wrappedFields.count
        findWrappedFields(start, end, open: openParen, close: closeParen, syntax: .parenthesis)
        if wrappedFields.isEmpty {
            if allowsFullLine, let field = fullLineField(start, end, line: line) { content.inlineFields.append(field) }
            return
        }
        // Each wrapper's fields are found in order; columns are counted left to right.
        if bracketCount > 0 && bracketCount < wrappedFields.count { wrappedFields.sort { $0.open < $1.open } }
        for field in wrappedFields {
            let keyStart = skipSpaces(field.open + 1, field.separator)
            let keyEnd = trimTrailingSpaces(keyStart, field.separator)
            guard keyEnd > keyStart else { continue }
            let valueStart = skipSpaces(field.separator + 2, field.close)
            content.inlineFields.append(InlineField(
                key: text(keyStart, keyEnd), value: text(valueStart, trimTrailingSpaces(valueStart, field.close)),
                syntax: field.syntax, line: line, column: column(of: field.open)))
        }
    }

    /// Dataview's wrapped fields of one kind, in one walk over the line, appended to `wrappedFields`: each
    /// visible `open` followed by a key (no brackets or parentheses in it) and `::` is a candidate whose
    /// value ends at the first `close` not matched inside the value (backslash escapes and hidden ranges
    /// skipped). As in Dataview, candidates inside a field found before are not fields of their own.
    mutating func findWrappedFields(_ start: Int, _ end: Int, open: UInt8, close: UInt8, syntax: InlineField.Syntax) {
        wrappedCandidates.removeAll(keepingCapacity: true)
        unclosedCandidates.removeAll(keepingCapacity: true)
        var depth = 0
        var isEscaped = false
        var hidden = 0
        var index = start
        while index < end {
            while hidden < hiddenRanges.count, hiddenRanges[hidden].end <= index { hidden += 1 }
            if hidden < hiddenRanges.count, hiddenRanges[hidden].start <= index {
                index = hiddenRanges[hidden].end
                isEscaped = false
                continue
            }
            let byte = bytes[index]
            if byte == open {
                let keyLimit = hidden < hiddenRanges.count ? min(end, hiddenRanges[hidden].start) : end
                if let separator = fieldSeparator(after: index, limit: keyLimit) {
                    // The key holds no wrapper: its value starts at the depth after `open`.
                    wrappedCandidates.append((index, separator, -1, syntax))
                    unclosedCandidates.append((wrappedCandidates.count - 1, isEscaped ? depth : depth + 1))
                }
            }
            if byte == backslash {
                isEscaped.toggle()
            } else if isEscaped {
                isEscaped = false
            } else if byte == open {
                depth += 1
            } else if byte == close {
                depth -= 1
                // Depths never decrease towards the top: the values this `close` ends are the top ones.
                while let top = unclosedCandidates.last, top.depth > depth {
                    wrappedCandidates[top.candidate].close = index
                    unclosedCandidates.removeLast()
                }
            }
            index += 1
        }
        var resume = start
        for candidate in wrappedCandidates where candidate.open >= resume && candidate.close >= 0 {
            wrappedFields.append(candidate)
            resume = candidate.close + 1
        }
    }

    /// The `::` ending a wrapped field's key that starts after `open`, or nil when a bracket or
    /// parenthesis (or `limit`: hidden text, the end of the line) comes first.
    func fieldSeparator(after open: Int, limit: Int) -> Int? {
        var index = open + 1
        while index < limit {
            switch bytes[index] {
            case openBracket, closeBracket, openParen, closeParen: return nil
            case colon where index + 1 < limit && bytes[index + 1] == colon: return index
            default: index += 1
            }
        }
        return nil
    }

    /// `key:: value` filling the line from `start`; the key must pass Dataview's full-line key grammar.
    mutating func fullLineField(_ start: Int, _ end: Int, line: Int) -> InlineField? {
        guard let separator = find("::", from: start, to: end),
              !hiddenRanges.contains(where: { $0.start < separator + 2 && $0.end > start }),
              let key = DataviewKey.fullLineKeyRange(bytes, start, trimTrailingSpaces(start, separator)) else { return nil }
        let valueStart = skipSpaces(separator + 2, end)
        return InlineField(
            key: text(key.start, key.end), value: text(valueStart, trimTrailingSpaces(valueStart, end)), syntax: .fullLine,
            line: line, column: column(of: start) + key.droppedScalars)
    }

    // MARK: Inline

    /// Links and tags in `[start, end)`, honouring inline code, HTML comments and escapes.
    mutating func scanInline(_ start: Int, _ end: Int, line: Int) {
        var index = start
        if inHTMLComment { commentStart = start }
        while index < end {
            if inHTMLComment {
                if let close = find("-->", from: index, to: end) {
                    inHTMLComment = false
                    index = close + 3
                    if recordsHiddenRanges { hiddenRanges.append((commentStart, index)) }
                } else {
                    if recordsHiddenRanges { hiddenRanges.append((commentStart, end)) }
                    return
                }
                continue
            }
            let byte = bytes[index]
            switch byte {
            case backslash:
                index += 2
                nodeEnd = index
            case backtick:
                var runEnd = index
                while runEnd < end, bytes[runEnd] == backtick { runEnd += 1 }
                if let close = closingBacktickRun(length: runEnd - index, from: runEnd, to: end) {
                    if recordsHiddenRanges { hiddenRanges.append((index, close)) }
                    index = close
                    nodeEnd = index
                } else {
                    index = runEnd
                }
            case lessThan:
                if matches("<!--", at: index, end: end) {
                    inHTMLComment = true
                    commentStart = index
                    index += 4
                } else {
                    index += 1
                }
            case bang:
                if index + 1 < end, bytes[index + 1] == openBracket {
                    if index + 2 < end, bytes[index + 2] == openBracket, let after = wikilink(index + 1, end, line: line, embedStart: index) {
                        index = after
                        nodeEnd = index
                    } else if let after = markdownLink(index + 1, end, line: line, embedStart: index) {
                        index = after
                        nodeEnd = index
                    } else {
                        index += 1
                    }
                } else {
                    index += 1
                }
            case openBracket:
                if index + 1 < end, bytes[index + 1] == openBracket, let after = wikilink(index, end, line: line, embedStart: nil) {
                    index = after
                    nodeEnd = index
                } else if let after = markdownLink(index, end, line: line, embedStart: nil) {
                    index = after
                    nodeEnd = index
                } else {
                    index += 1
                }
            case hash:
                index = tag(index, end, line: line)
            default:
                index += 1
            }
        }
    }

    /// `[[…]]` starting at `open`; returns the index after `]]`, or nil if this is not a link.
    mutating func wikilink(_ open: Int, _ end: Int, line: Int, embedStart: Int?) -> Int? {
        let innerStart = open + 2
        if noWikilinkStartBefore.end == end && open < noWikilinkStartBefore.position { return nil }
        let knownAbsent = noWikilinkClose.end == end && innerStart >= noWikilinkClose.from
        guard !knownAbsent, let close = find("]]", from: innerStart, to: end) else {
            if !knownAbsent { noWikilinkClose = (innerStart, end) }
            return nil
        }
        // A wikilink does not contain `[[`: in `[[a [[b]]` the link is `[[b]]`, and text between may hold
        // a markdown link. Remember the last inner `[[` so a run of brackets is not searched again.
        var inner = close - 1
        while inner > innerStart, !(bytes[inner - 1] == openBracket && bytes[inner] == openBracket) { inner -= 1 }
        if inner > innerStart {
            noWikilinkStartBefore = (inner - 1, end)
            return nil
        }
        guard close > innerStart else { return close + 2 }  // `[[]]` is not a link
        var pathEnd = close
        var displayRange: (Int, Int)? = nil
        // Display text after the first `|` (written `\|` inside tables). A leading `|` is part of the path.
        var position = innerStart + 1
        while position < close {
            if bytes[position] == pipe {
                pathEnd = bytes[position - 1] == backslash ? position - 1 : position
                displayRange = (position + 1, close)
                break
            }
            position += 1
        }
        var linkPathEnd = pathEnd
        var subpath: String? = nil
        if let hashIndex = firstIndex(of: hash, from: innerStart, to: pathEnd) {
            linkPathEnd = hashIndex
            subpath = text(hashIndex + 1, trimTrailingSpaces(hashIndex + 1, pathEnd))
        }
        let pathStart = skipSpaces(innerStart, linkPathEnd)
        let path = text(pathStart, trimTrailingSpaces(pathStart, linkPathEnd))
        let start = embedStart ?? open
        content.links.append(LinkOccurrence(
            kind: embedStart == nil ? .wikilink : .embed, path: UnicodeNormalization.nfc(path), subpath: subpath,
            display: displayRange.map { text($0.0, $0.1) }, line: line, column: column(of: start)))
        return close + 2
    }

    /// `[text](destination "title")` starting at `open`; returns the index after `)`, or nil.
    mutating func markdownLink(_ open: Int, _ end: Int, line: Int, embedStart: Int?) -> Int? {
        // Matching `]`, allowing nested brackets and escapes.
        var depth = 0
        var index = open
        var textClose: Int? = nil
        let searchEnd = min(end, open + Self.maximumLinkTextBytes)
        while index < searchEnd {
            let byte = bytes[index]
            if byte == backslash { index += 2; continue }
            if byte == openBracket { depth += 1 }
            if byte == closeBracket {
                depth -= 1
                if depth == 0 { textClose = index; break }
            }
            index += 1
        }
        guard let textEnd = textClose, textEnd + 1 < end, bytes[textEnd + 1] == openParen else { return nil }
        let limit = min(end, textEnd + 2 + Self.maximumDestinationBytes)
        var destinationStart = skipSpaces(textEnd + 2, limit)
        var destinationEnd: Int
        var after: Int
        if destinationStart < limit, bytes[destinationStart] == lessThan {
            destinationStart += 1
            guard let close = firstIndex(of: greaterThan, from: destinationStart, to: limit) else { return nil }
            destinationEnd = close
            after = close + 1
        } else {
            var parenDepth = 0
            destinationEnd = destinationStart
            while destinationEnd < limit {
                let byte = bytes[destinationEnd]
                if byte == space || byte == tab { break }
                if byte == backslash { destinationEnd += 2; continue }
                if byte == openParen { parenDepth += 1 }
                if byte == closeParen {
                    if parenDepth == 0 { break }
                    parenDepth -= 1
                }
                destinationEnd += 1
            }
            destinationEnd = min(destinationEnd, limit)
            after = destinationEnd
        }
        // Optional title, then `)`.
        after = skipSpaces(after, limit)
        if after < limit, bytes[after] == UInt8(ascii: "\"") || bytes[after] == UInt8(ascii: "'") {
            let quote = bytes[after]
            guard let close = firstIndex(of: quote, from: after + 1, to: limit) else { return nil }
            after = skipSpaces(close + 1, limit)
        }
        guard after < limit, bytes[after] == closeParen else { return nil }
        // Links inside the link text (an image inside a link) still count, one level deep; the
        // destination is not text.
        if linkTextDepth == 0 {
            linkTextDepth += 1
            scanInline(open + 1, textEnd, line: line)
            linkTextDepth -= 1
        }
        let destination = text(destinationStart, destinationEnd)
        if let link = Self.internalLink(destination: destination, display: text(open + 1, textEnd),
                                        isEmbed: embedStart != nil, line: line, column: column(of: embedStart ?? open)) {
            content.links.append(link)
        }
        return after + 1
    }

    /// A markdown destination is internal unless it has a URL scheme (`https:`, `mailto:`, `obsidian:` …).
    static func internalLink(destination: String, display: String, isEmbed: Bool, line: Int, column: Int) -> LinkOccurrence? {
        guard !destination.isEmpty, !hasURLScheme(destination) else { return nil }
        let decoded = destination.removingPercentEncodingIfValid
        var path = decoded
        var subpath: String? = nil
        if let hashIndex = VaultPath.firstIndex(of: "#", in: Substring(decoded)) {
            path = String(decoded[..<hashIndex])
            subpath = String(decoded[decoded.index(after: hashIndex)...])
        }
        return LinkOccurrence(
            kind: isEmbed ? .markdownEmbed : .markdown, path: UnicodeNormalization.nfc(path.trimmingSpaces),
            subpath: subpath, display: display, line: line, column: column)
    }

    static func hasURLScheme(_ text: String) -> Bool {
        var sawLetter = false
        for scalar in text.unicodeScalars {
            if scalar == ":" { return sawLetter }
            let isLetter = (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z")
            if !sawLetter {
                guard isLetter else { return false }
                sawLetter = true
                continue
            }
            let isSchemeCharacter = isLetter || (scalar >= "0" && scalar <= "9") || scalar == "+" || scalar == "." || scalar == "-"
            if !isSchemeCharacter { return false }
        }
        return false
    }

    /// `#tag` (`TagSyntax` says which characters it holds). Returns the index to continue from.
    mutating func tag(_ index: Int, _ end: Int, line: Int) -> Int {
        guard startsTag(at: index) else { return index + 1 }
        var position = index + 1
        while position < end {
            let byte = bytes[position]
            if byte < 0x80 {
                guard TagSyntax.asciiContinuesTag(byte) else { break }
                position += 1
            } else {
                let (scalar, length) = decodeScalar(at: position, end: end)
                guard let scalar, TagSyntax.continuesTag(scalar) else { break }
                position += length
            }
        }
        // Nested parts may not be empty: a tag ends before `//` and does not end with `/`; `#/x` is no tag.
        let scanned = position
        if let doubled = find("//", from: index + 1, to: position) { position = doubled }
        while position > index + 1, bytes[position - 1] == UInt8(ascii: "/") { position -= 1 }
        guard position > index + 1, bytes[index + 1] != UInt8(ascii: "/"),
              bytes[(index + 1)..<position].contains(where: { $0 < 0x30 || $0 > 0x39 }) else { return max(scanned, index + 1) }
        content.tags.append(TagOccurrence(name: UnicodeNormalization.nfc(text(index + 1, position)), isFromFrontmatter: false, line: line, column: column(of: index)))
        nodeEnd = scanned  // `#a#b`: a tag right after a tag is one too
        return scanned
    }

    /// Whether a `#` at `index` may start a tag: at the start of the line's text (after quote markers), after
    /// whitespace (Unicode spaces too), or right after a piece of markup Obsidian's parser ends there: an
    /// escape (`\[\[#Escaped`), a link or code span, another tag, an opening `[` or a table's `|`. After
    /// other text or punctuation (`a#b`, `(#x)`, `.#x`) it is no tag.
    func startsTag(at index: Int) -> Bool {
        if index == lineStart || index == nodeEnd || index == skipQuoteMarkers(lineStart, index) { return true }
        let previous = bytes[index - 1]
        switch previous {
        case space, tab, openBracket, pipe: return true
        case 0xA0: return index >= 2 && bytes[index - 2] == 0xC2  // U+00A0
        case 0x80:  // U+3000, U+2000, U+1680
            return index >= 3 && ((bytes[index - 3] == 0xE3 && bytes[index - 2] == 0x80) || (bytes[index - 3] == 0xE2 && bytes[index - 2] == 0x80)
                || (bytes[index - 3] == 0xE1 && bytes[index - 2] == 0x9A))
        case 0x81...0x8A, 0xA8, 0xA9, 0xAF:  // U+2001–200A, U+2028, U+2029, U+202F
            return index >= 3 && bytes[index - 3] == 0xE2 && bytes[index - 2] == 0x80
        case 0x9F: return index >= 3 && bytes[index - 3] == 0xE2 && bytes[index - 2] == 0x81  // U+205F
        case 0xBF: return index >= 3 && bytes[index - 3] == 0xEF && bytes[index - 2] == 0xBB  // U+FEFF
        default: return false
        }
    }

    // MARK: Byte helpers

    func find(_ needle: StaticString, from start: Int, to end: Int) -> Int? {
        let length = needle.utf8CodeUnitCount
        let pointer = needle.utf8Start
        guard length > 0, end - start >= length else { return nil }
        var index = start
        let first = pointer[0]
        while index + length <= end {
            if bytes[index] == first {
                var matched = true
                for offset in 1..<length where bytes[index + offset] != pointer[offset] {
                    matched = false
                    break
                }
                if matched { return index }
            }
            index += 1
        }
        return nil
    }

    func matches(_ needle: StaticString, at index: Int, end: Int) -> Bool {
        find(needle, from: index, to: min(end, index + needle.utf8CodeUnitCount)) == index
    }

    func firstIndex(of byte: UInt8, from start: Int, to end: Int) -> Int? {
        var index = start
        while index < end {
            if bytes[index] == byte { return index }
            index += 1
        }
        return nil
    }

    /// The end of a backtick run of exactly `length` closing an inline code span, or nil.
    func closingBacktickRun(length: Int, from start: Int, to end: Int) -> Int? {
        var index = start
        while index < end {
            if bytes[index] == backtick {
                var runEnd = index
                while runEnd < end, bytes[runEnd] == backtick { runEnd += 1 }
                if runEnd - index == length { return runEnd }
                index = runEnd
            } else {
                index += 1
            }
        }
        return nil
    }

    func text(_ start: Int, _ end: Int) -> String {
        guard end > start else { return "" }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    /// 1-based column in Unicode scalars (counting resumes from the previous call on the same line).
    mutating func column(of index: Int) -> Int {
        var (position, scalars) = index >= columnCache.index && columnCache.index >= lineStart ? columnCache : (lineStart, 0)
        while position < index {
            if bytes[position] & 0xC0 != 0x80 { scalars += 1 }
            position += 1
        }
        columnCache = (index, scalars)
        return scalars + 1 + columnOffset
    }

    func utf8Length(_ lead: UInt8) -> Int {
        if lead < 0x80 { return 1 }
        if lead >= 0xF0 { return 4 }
        if lead >= 0xE0 { return 3 }
        if lead >= 0xC0 { return 2 }
        return 1
    }

    func decodeScalar(at index: Int, end: Int) -> (Unicode.Scalar?, Int) {
        let length = utf8Length(bytes[index])
        guard index + length <= end else { return (nil, 1) }
        var value = UInt32(bytes[index]) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for offset in 1..<length { value = value << 6 | (UInt32(bytes[index + offset]) & 0x3F) }
        return (Unicode.Scalar(value), length)
    }
}

extension String {
    /// Percent-decoding that keeps the text as written when it is not valid percent-encoding.
    var removingPercentEncodingIfValid: String {
        guard utf8.contains(UInt8(ascii: "%")) else { return self }
        var output: [UInt8] = []
        var iterator = Array(utf8)[...]
        while let byte = iterator.popFirst() {
            if byte == UInt8(ascii: "%"), iterator.count >= 2,
               let high = hexValue(iterator[iterator.startIndex]), let low = hexValue(iterator[iterator.startIndex + 1]) {
                output.append(high << 4 | low)
                iterator = iterator.dropFirst(2)
            } else {
                output.append(byte)
            }
        }
        return UTF8Validation.string(validating: output) ?? self
    }

    public var trimmingSpaces: String {
        // Neither end is a space or a tab when neither end byte is (the usual case): nothing to trim.
        let isBlank = { (byte: UInt8?) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        if !isBlank(utf8.first) && !isBlank(utf8.last) { return self }
        var slice = Substring(self)
        while slice.first == " " || slice.first == "\t" { slice = slice.dropFirst() }
        while slice.last == " " || slice.last == "\t" { slice = slice.dropLast() }
        return String(slice)
    }
}

private func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 48...57: return byte - 48
    case 65...70: return byte - 55
    case 97...102: return byte - 87
    default: return nil
    }
}
