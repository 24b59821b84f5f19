/// The list items of a note with their structure, as Dataview's `file.lists`, `file.tasks` and `TASK`
/// queries see them. Parsed on demand from the note's bytes (not stored in the index).
///
/// Structure follows CommonMark as Obsidian applies it: an item is the child of the nearest open item
/// whose content column its marker reaches (`- a` then `  - b`: b is a's child; tabs count to the next
/// multiple of 4); a line without a marker continues the last item directly after it (a lazy
/// continuation) or, after a blank line, the deepest open item it is indented to; anything else ends the
/// list. Lists in quotes and callouts are read after their `>` markers; a change of quote depth ends a
/// list. Fenced code and frontmatter hold no items (a fence indented into an item belongs to that item).
///
///     let items = ListItemParser.parse(Array("- [ ] ship [due:: Friday]\n    - [x] tests\n".utf8), path: "Plan.md")
///     items[1].parentLine  // 1
///     items[0].inlineFields.first?.key  // "due"
public enum ListItemParser {
    /// Every list item and task of a markdown note (its whole file, frontmatter included), in line order.
    /// `path` is the note's vault path, as for `NoteParser.parse`; nothing in an item depends on it yet.
    public static func parse(_ bytes: [UInt8], path: String) -> [ListItem] {
        NoteParser.withBody(of: bytes) { body, firstLine in
            let (content, records) = MarkdownScanner.scanListStructure(body, firstLine: firstLine)
            return assemble(records, content: content)
        }
    }

    private static func assemble(_ records: [ListLineRecord], content: MarkdownContent) -> [ListItem] {
        var items: [ListItem] = []
        var itemIndex: [Int: Int] = [:]
        for record in records {
            if record.owner.startsItem {
                itemIndex[record.line] = items.count
                if let parent = record.owner.parentLine, let parentIndex = itemIndex[parent] {
                    items[parentIndex].childLines.append(record.line)
                }
                items.append(ListItem(
                    line: record.line, lineCount: 1, symbol: record.symbol, text: record.text, status: record.status,
                    parentLine: record.owner.parentLine))
            } else if let index = itemIndex[record.owner.itemLine], index == items.count - 1 {
                // Only the last item started can grow: an item's lines after its children (`- a`, `  - b`,
                // blank, `  more`) would not be contiguous, and are not part of its text.
                let gap = record.line - (items[index].line + items[index].lineCount)
                items[index].text += String(repeating: "\n", count: gap + 1) + record.text
                items[index].lineCount = record.line - items[index].line + 1
            }
        }
        attach(content, to: &items)
        return items
    }

    /// Sections, block ids, tags, links and fields by line. Items do not overlap and come in line order,
    /// as do the scanner's findings, so one forward walk over each list suffices.
    private static func attach(_ content: MarkdownContent, to items: inout [ListItem]) {
        var heading = 0, link = 0, tag = 0, field = 0, block = 0
        for index in items.indices {
            let first = items[index].line, last = first + items[index].lineCount - 1
            while heading < content.headings.count, content.headings[heading].line < first { heading += 1 }
            items[index].section = heading > 0 ? content.headings[heading - 1] : nil
            while link < content.links.count, content.links[link].line < first { link += 1 }
            while link < content.links.count, content.links[link].line <= last {
                items[index].outlinks.append(content.links[link])
                link += 1
            }
            while tag < content.tags.count, content.tags[tag].line < first { tag += 1 }
            while tag < content.tags.count, content.tags[tag].line <= last {
                items[index].tags.append(content.tags[tag].name)
                tag += 1
            }
            while field < content.inlineFields.count, content.inlineFields[field].line < first { field += 1 }
            while field < content.inlineFields.count, content.inlineFields[field].line <= last {
                items[index].inlineFields.append(content.inlineFields[field])
                field += 1
            }
            while block < content.blocks.count, content.blocks[block].line < last { block += 1 }
            if block < content.blocks.count, content.blocks[block].line == last { items[index].blockID = content.blocks[block].id }
        }
    }
}

/// One list item (a task when `status` is not nil), as Dataview's list item objects describe it.
public struct ListItem: Sendable, Hashable {
    /// 1-based line of the marker, and how many lines the item spans (its continuation lines, not its children).
    public var line: Int
    public var lineCount: Int
    /// The marker as written: `-`, `*`, `+`, `1.`, `1)`.
    public var symbol: String
    /// The text after the marker and checkbox, continuation lines joined by `\n` (each trimmed, quote
    /// markers removed; a blank line inside the item is an empty line).
    public var text: String
    /// The character between the checkbox brackets (`" "`, `"x"`, `"/"`, …); nil for a plain list item.
    public var status: String?
    /// The line of the enclosing item; nil for an item at the top of its list.
    public var parentLine: Int?
    /// The lines of the items directly below this one.
    public var childLines: [Int] = []
    /// The nearest heading above the item; nil when none.
    public var section: Heading?
    /// The `^id` ending the item's last line.
    public var blockID: String?
    /// Tags in the item's text (names without `#`, as in `TagOccurrence`).
    public var tags: [String] = []
    /// Links and embeds in the item's text.
    public var outlinks: [LinkOccurrence] = []
    /// Inline fields in the item's text. Tasks have only `[key:: value]` and `(key:: value)` fields, as in Dataview.
    public var inlineFields: [InlineField] = []

    public init(line: Int, lineCount: Int, symbol: String, text: String, status: String? = nil, parentLine: Int? = nil) {
        self.line = line
        self.lineCount = lineCount
        self.symbol = symbol
        self.text = text
        self.status = status
        self.parentLine = parentLine
    }

    public var isTask: Bool { status != nil }
}

// MARK: - Structure, line by line (driven by MarkdownScanner)

/// What decides list structure about one line outside fenced code.
struct ListLineShape {
    var quoteDepth: Int
    /// Columns of whitespace after the quote markers (a tab reaches the next multiple of 4).
    var indent: Int
    var isBlank: Bool
    /// A heading or a thematic break: ends any list.
    var isBlockBreak = false
    /// For a list item: the column its content starts at (a child's marker must reach it).
    var itemContentColumn: Int? = nil
    var isTask = false
}

/// The list item a line belongs to.
struct ListLineOwner {
    var itemLine: Int
    var isTask: Bool
    /// The line starts the item (else it continues it).
    var startsItem: Bool
    var parentLine: Int?
}

/// One line that belongs to a list item, for `ListItemParser`.
struct ListLineRecord {
    var line: Int
    var owner: ListLineOwner
    /// After the marker and checkbox on an item's first line, else after quote markers; trimmed.
    var text: String
    var symbol: String
    var status: String?
}

/// Follows the open list items from line to line (the scanner also uses it to tell a task's own fields
/// from the page's). Items in fenced code are never seen: the scanner asks only about lines outside it.
struct ListStructureTracker {
    private struct OpenItem {
        let line: Int
        let contentColumn: Int
        let isTask: Bool
    }

    private var open: [OpenItem] = []
    private var quoteDepth = 0
    /// A blank line or the end of a fence came since the last text: no lazy continuation, the next line
    /// continues an item only if indented to its content.
    private var needsIndent = false

    mutating func advance(_ shape: ListLineShape, line: Int) -> ListLineOwner? {
        // Most lines of most notes: no list open, and this line starts none.
        if open.isEmpty && shape.itemContentColumn == nil {
            quoteDepth = shape.quoteDepth
            needsIndent = shape.isBlank
            return nil
        }
        if shape.isBlank {
            if shape.quoteDepth < quoteDepth { open.removeAll() }  // the quote ended
            needsIndent = true
            return nil
        }
        if shape.quoteDepth != quoteDepth {
            // `> - a` then `b`: a lazy continuation of the item in the quote.
            if !needsIndent, shape.quoteDepth < quoteDepth, shape.itemContentColumn == nil, !shape.isBlockBreak, let top = open.last {
                return owner(top)
            }
            open.removeAll()
            quoteDepth = shape.quoteDepth
        }
        if shape.isBlockBreak {
            open.removeAll()
            return nil
        }
        if let contentColumn = shape.itemContentColumn {
            closeItems(notReaching: shape.indent)
            let parent = open.last?.line
            open.append(OpenItem(line: line, contentColumn: contentColumn, isTask: shape.isTask))
            needsIndent = false
            return ListLineOwner(itemLine: line, isTask: shape.isTask, startsItem: true, parentLine: parent)
        }
        if needsIndent { closeItems(notReaching: shape.indent) }
        needsIndent = false
        return open.last.map(owner)
    }

    /// A fence opens: it belongs to the deepest open item it is indented to (with all its lines), or ends the list.
    mutating func openFence(_ shape: ListLineShape) -> ListLineOwner? {
        if shape.quoteDepth != quoteDepth {
            open.removeAll()
            quoteDepth = shape.quoteDepth
        }
        closeItems(notReaching: shape.indent)
        needsIndent = true
        return open.last.map(owner)
    }

    @inline(__always)
    private mutating func closeItems(notReaching indent: Int) {
        while let top = open.last, top.contentColumn > indent { open.removeLast() }
    }

    private func owner(_ item: OpenItem) -> ListLineOwner {
        ListLineOwner(itemLine: item.line, isTask: item.isTask, startsItem: false, parentLine: nil)
    }
}
