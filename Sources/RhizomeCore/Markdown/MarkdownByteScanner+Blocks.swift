/// Block structure: a line's quote and indent prefix, fences, comment sections, ATX and setext headings,
/// list items and tasks (with the lines that belong to them), block ids.
extension MarkdownByteScanner {
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
            if shape.isTask || isListItemOrQuote(start, end) || bytes[indent] == ASCII.pipe {
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
            while position < end, bytes[position] == ASCII.space || bytes[position] == ASCII.tab {
                column = bytes[position] == ASCII.tab ? (column / 4 + 1) * 4 : column + 1
                position += 1
            }
            guard position < end, bytes[position] == ASCII.greaterThan else { return (quoteDepth, column, position) }
            quoteDepth += 1
            index = position + 1
            if index < end, bytes[index] == ASCII.space { index += 1 }
        }
    }

    /// The column where a list item's content starts (CommonMark): after the marker and the spaces
    /// following it, or one column after the marker when more than four spaces follow or nothing does.
    func itemContentColumn(indent: Int, markerStart: Int, markerEnd: Int, end: Int) -> Int {
        let markerEndColumn = indent + markerEnd - markerStart
        var column = markerEndColumn
        var index = markerEnd
        while index < end, bytes[index] == ASCII.space || bytes[index] == ASCII.tab {
            column = bytes[index] == ASCII.tab ? (column / 4 + 1) * 4 : column + 1
            index += 1
        }
        return index == end || column - markerEndColumn > 4 ? markerEndColumn + 1 : column
    }

    /// `---`, `***`, `___` (three or more, spaces allowed between): not a list item, and it ends a list.
    @inline(__always)
    func isThematicBreak(_ index: Int, _ end: Int) -> Bool {
        guard index < end, bytes[index] == ASCII.dash || bytes[index] == ASCII.star || bytes[index] == ASCII.underscore else { return false }
        let marker = bytes[index]
        var count = 0
        for position in index..<end {
            if bytes[position] == marker {
                count += 1
            } else if bytes[position] != ASCII.space && bytes[position] != ASCII.tab {
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
        while index < end, bytes[index] == ASCII.space || bytes[index] == ASCII.tab { index += 1 }
        return index
    }

    func trimTrailingSpaces(_ start: Int, _ end: Int) -> Int {
        var index = end
        while index > start, bytes[index - 1] == ASCII.space || bytes[index - 1] == ASCII.tab { index -= 1 }
        return index
    }

    /// Skips `>` blockquote/callout markers so tasks in quotes are found.
    func skipQuoteMarkers(_ start: Int, _ end: Int) -> Int {
        var index = skipSpaces(start, end)
        while index < end, bytes[index] == ASCII.greaterThan {
            index = skipSpaces(index + 1, end)
        }
        return index
    }

    /// ``` or ~~~ (three or more), after any indentation or callout/quote markers (`> ```md`).
    /// Backtick fences may not have a backtick in the info string.
    func openingFence(_ start: Int, _ end: Int) -> (marker: UInt8, length: Int)? {
        let index = skipQuoteMarkers(start, end)
        guard index < end, bytes[index] == ASCII.backtick || bytes[index] == ASCII.tilde else { return nil }
        let marker = bytes[index]
        var runEnd = index
        while runEnd < end, bytes[runEnd] == marker { runEnd += 1 }
        let length = runEnd - index
        guard length >= 3 else { return nil }
        if marker == ASCII.backtick {
            for position in runEnd..<end where bytes[position] == ASCII.backtick { return nil }
        }
        return (marker, length)
    }

    /// A line whose text (after indentation and quote markers) starts with `%%` that the line does not
    /// close: `%%` alone, `%% a note that goes on`; not `%% hidden %%`.
    func opensCommentSection(_ start: Int, _ end: Int) -> Bool {
        let index = skipSpaces(skipQuoteMarkers(start, end), end)
        guard index + 1 < end, bytes[index] == ASCII.percent, bytes[index + 1] == ASCII.percent else { return false }
        return !containsCommentMarker(index + 2, end)
    }

    /// Whether `%%` occurs in `[start, end)`.
    func containsCommentMarker(_ start: Int, _ end: Int) -> Bool {
        var index = start
        while index + 1 < end {
            if bytes[index] == ASCII.percent, bytes[index + 1] == ASCII.percent { return true }
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
        while index + level < end, bytes[index + level] == ASCII.hash { level += 1 }
        guard (1...6).contains(level) else { return nil }
        let afterHashes = index + level
        guard afterHashes == end || bytes[afterHashes] == ASCII.space || bytes[afterHashes] == ASCII.tab else { return nil }
        let textStart = skipSpaces(afterHashes, end)
        var textEnd = trimTrailingSpaces(textStart, end)
        // An optional closing sequence of #s, preceded by a space.
        var closing = textEnd
        while closing > textStart, bytes[closing - 1] == ASCII.hash { closing -= 1 }
        if closing < textEnd, closing == textStart || bytes[closing - 1] == ASCII.space || bytes[closing - 1] == ASCII.tab {
            textEnd = trimTrailingSpaces(textStart, closing)
        }
        return (level, textStart, textEnd)
    }

    func setextUnderline(_ start: Int, _ end: Int) -> Int? {
        let index = skipSpaces(start, end)
        guard index - start <= 3, index < end, bytes[index] == ASCII.equals || bytes[index] == ASCII.dash else { return nil }
        let marker = bytes[index]
        var runEnd = index
        while runEnd < end, bytes[runEnd] == marker { runEnd += 1 }
        guard skipSpaces(runEnd, end) == end else { return nil }
        if marker == ASCII.dash, runEnd - index < 2 { return nil }
        return marker == ASCII.equals ? 1 : 2
    }

    /// `- `, `* `, `+ `, `1. `, `1) ` — returns the index after the marker and its space.
    func listMarkerEnd(_ index: Int, _ end: Int) -> Int? {
        guard index < end else { return nil }
        let first = bytes[index]
        var afterMarker: Int
        if first == ASCII.dash || first == ASCII.star || first == ASCII.plus {
            afterMarker = index + 1
        } else {
            var digitEnd = index
            while digitEnd < end, digitEnd - index < 9, bytes[digitEnd] >= 48, bytes[digitEnd] <= 57 { digitEnd += 1 }
            guard digitEnd > index, digitEnd < end, bytes[digitEnd] == UInt8(ascii: ".") || bytes[digitEnd] == ASCII.closeParen else { return nil }
            afterMarker = digitEnd + 1
        }
        guard afterMarker < end, bytes[afterMarker] == ASCII.space || bytes[afterMarker] == ASCII.tab else { return nil }
        afterMarker += 1
        return afterMarker
    }

    func isListItemOrQuote(_ start: Int, _ end: Int) -> Bool {
        let index = skipSpaces(start, end)
        guard index < end else { return false }
        return bytes[index] == ASCII.greaterThan || listMarkerEnd(index, end) != nil
    }

    /// A list item whose content (from `itemStart`, after the marker) starts with `[c]` followed by
    /// whitespace or the end of the line; with where the task's text starts.
    func task(_ itemStart: Int, _ end: Int, line: Int) -> (TaskItem, Int)? {
        let boxStart = skipSpaces(itemStart, end)
        guard boxStart < end, bytes[boxStart] == ASCII.openBracket else { return nil }
        let statusStart = boxStart + 1
        guard statusStart < end else { return nil }
        let statusLength = utf8Length(bytes[statusStart])
        let closing = statusStart + statusLength
        guard closing < end, bytes[closing] == ASCII.closeBracket, bytes[statusStart] != ASCII.closeBracket, bytes[statusStart] != ASCII.tab else { return nil }
        let afterBox = closing + 1
        guard afterBox == end || bytes[afterBox] == ASCII.space || bytes[afterBox] == ASCII.tab else { return nil }
        let textStart = skipSpaces(afterBox, end)
        return (TaskItem(status: text(statusStart, closing), text: text(textStart, trimTrailingSpaces(textStart, end)), line: line), textStart)
    }

    /// `text ^block-id` at the end of a line, or `^block-id` alone on a line.
    mutating func blockID(_ start: Int, _ end: Int, line: Int) {
        let trimmedEnd = trimTrailingSpaces(start, end)
        var idStart = trimmedEnd
        while idStart > start, isBlockIDByte(bytes[idStart - 1]) { idStart -= 1 }
        guard idStart < trimmedEnd, idStart > start, bytes[idStart - 1] == ASCII.caret else { return }
        let caretIndex = idStart - 1
        let isAlone = skipSpaces(start, end) == caretIndex
        guard isAlone || (caretIndex > start && (bytes[caretIndex - 1] == ASCII.space || bytes[caretIndex - 1] == ASCII.tab)) else { return }
        content.blocks.append(BlockID(id: text(idStart, trimmedEnd), line: line))
    }

    func isBlockIDByte(_ byte: UInt8) -> Bool {
        (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || byte == ASCII.dash
    }
}
