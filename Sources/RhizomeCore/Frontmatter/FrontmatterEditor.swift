import CYAML

/// Edits a note's frontmatter while keeping every byte it need not touch: the BOM and opening `---`
/// line, the closing `---` line, the whole body, and the exact text of untouched entries.
///
///     var editor = try FrontmatterEditor(fileBytes: bytes)
///     editor.renameKey("tag", to: "tags")
///     if editor.hasChanges {
///         try AtomicFileWriter.replace(path, expecting: bytes, with: editor.renderedBytes())
///     }
///
/// The YAML is held as lines. A top-level entry owns its key line, its value's lines, and the blank and
/// comment lines after them up to the next key (its trailer, kept when the value is replaced); lines
/// before the first key are a preamble that stays first. Every edit is checked by parsing the result,
/// and an edit that would leave invalid YAML (an alias whose anchor was removed, say) is not applied.
public struct FrontmatterEditor: Sendable {
    /// Top-level keys in file order (a duplicated key is listed at each occurrence).
    public var keys: [String] { entries.map(\.key) }

    /// A key's current value, positioned in the edited text (the last one when the key is duplicated).
    public func value(forKey key: String) -> FrontmatterNode? {
        values.last { $0.key == key }?.value
    }

    /// Whether `renderedBytes()` differs from the input.
    public var hasChanges: Bool { renderedBytes() != original }

    public init(fileBytes: [UInt8]) throws(FrontmatterEditError) {
        original = fileBytes
        let bomLength = fileBytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let detection = fileBytes.withUnsafeBufferPointer { FrontmatterBlock.detect(UnsafeBufferPointer(rebasing: $0[bomLength...])) }
        switch detection {
        case .unclosed:
            throw .unclosedBlock
        case .none:
            let firstLineEnd = fileBytes.firstIndex(of: UInt8(ascii: "\n"))
            newline = firstLineEnd.map { $0 > 0 && fileBytes[$0 - 1] == UInt8(ascii: "\r") } == true ? Self.crlf : Self.lf
            opening = Array(fileBytes[..<bomLength]) + Array("---".utf8) + newline
            closing = Array("---".utf8) + newline + fileBytes[bomLength...]
            createsBlock = true
            (preamble, entries, values) = ([], [], [])
        case .found(let location):
            opening = Array(fileBytes[..<(bomLength + location.yamlStart)])
            closing = Array(fileBytes[(bomLength + location.yamlEnd)...])
            newline = opening.count >= 2 && opening[opening.count - 2] == UInt8(ascii: "\r") ? Self.crlf : Self.lf
            createsBlock = false
            (preamble, entries, values) = try Self.parse(Array(fileBytes[(bomLength + location.yamlStart)..<(bomLength + location.yamlEnd)]))
        }
    }

    /// The whole file with the edits. Exactly the input bytes when nothing changed.
    public func renderedBytes() -> [UInt8] {
        if createsBlock, preamble.isEmpty, entries.isEmpty { return original }
        return opening + yamlBytes() + closing
    }

    // MARK: - Edits (each returns false when it was refused; true when the text now says what was asked)

    /// Sets a key's value: replaces the value's lines (keeping the trailer), or inserts a new entry after
    /// `insertAfter` (or at the end). Re-setting an identical rendering changes nothing.
    @discardableResult
    public mutating func setValue(_ value: FrontmatterValue, forKey key: String, insertAfter: String? = nil) -> Bool {
        var lines = YAMLWriter.entryLines(key: key, value: value).map { Array($0.utf8) + newline }
        let tokenLength = YAMLWriter.key(key).utf8.count
        if let index = entries.lastIndex(where: { $0.key == key }) {
            // `type: note   # renamed later`: a comment after a one-line value stays after the new one.
            if entries[index].content.count == 1, lines.count == 1,
               let comment = Self.trailingComment(Array(Self.withoutLineBreak(entries[index].content[0]))) {
                lines[0] = Self.withoutLineBreak(lines[0]) + comment + newline
            }
            guard entries[index].content.map(Self.withoutLineBreak) != lines.map(Self.withoutLineBreak) else { return true }
            // Comments inside or after a value that is rewritten over several lines cannot stay where they
            // were: they are kept as comment lines right above the key (where `reorder` keeps them with it).
            let keptComments = (lines.count == 1 && entries[index].content.count == 1 ? [] : Self.comments(in: entries[index]))
                .map { $0 + newline }
            return edit {
                $0.entries[index].content = lines
                $0.entries[index].keyTokenLength = tokenLength
                if index == 0 { $0.preamble += keptComments } else { $0.entries[index - 1].trailer += keptComments }
            }
        }
        var entry = Entry(key: key, content: lines, trailer: [], keyTokenLength: tokenLength)
        let anchor = insertAfter.flatMap { name in entries.lastIndex { $0.key == name } } ?? entries.indices.last
        return edit { editor in
            guard let anchor else { return editor.entries.append(entry) }
            // Right after the anchor's value: its trailer (blank lines, a section comment) now follows the new entry.
            swap(&entry.trailer, &editor.entries[anchor].trailer)
            editor.entries.insert(entry, at: anchor + 1)
        }
    }

    /// Renames a key at each occurrence, rewriting only the key token (`"tag": x` → `tags: x`).
    /// Refused when `new` is already a key: merge the two values with `setValue` and `removeKey` instead.
    @discardableResult
    public mutating func renameKey(_ old: String, to new: String) -> Bool {
        guard old != new, entries.contains(where: { $0.key == old }) else { return true }
        guard !entries.contains(where: { $0.key == new }) else { return false }
        let token = Array(YAMLWriter.key(new).utf8)
        return edit { editor in
            for index in editor.entries.indices where editor.entries[index].key == old {
                var entry = editor.entries[index]
                entry.content[0] = token + entry.content[0].dropFirst(entry.keyTokenLength)
                entry.key = new
                entry.keyTokenLength = token.count
                editor.entries[index] = entry
            }
        }
    }

    /// Removes a key at each occurrence. A trailer that holds a column-1 comment (a section heading,
    /// say) is kept, joined to the entry before.
    @discardableResult
    public mutating func removeKey(_ key: String) -> Bool {
        guard entries.contains(where: { $0.key == key }) else { return true }
        return edit { editor in
            var kept: [Entry] = []
            for entry in editor.entries {
                guard entry.key == key else { kept.append(entry); continue }
                let survivors = entry.survivingTrailer
                if kept.isEmpty { editor.preamble += survivors } else { kept[kept.count - 1].trailer += survivors }
            }
            editor.entries = kept
        }
    }

    /// Puts the keys named in `order` first, in that order, then the others as they were. Each entry
    /// moves with all its lines; the preamble stays first.
    @discardableResult
    public mutating func reorder(_ order: [String]) -> Bool {
        var positions: [Int] = []
        for key in order {
            positions += entries.indices.filter { entries[$0].key == key && !positions.contains($0) }
        }
        positions += entries.indices.filter { !positions.contains($0) }
        guard positions != Array(entries.indices) else { return true }
        // A comment block right above a key (no blank line between) describes that key: it moves with it.
        var working = entries
        var head = preamble
        var leading: [[[UInt8]]] = []
        for index in working.indices {
            // Comments before the first key head the whole block: they stay first.
            guard index > 0 else { leading.append([]); continue }
            var source = working[index - 1].trailer
            var moved: [[UInt8]] = []
            while let last = source.last, Self.isCommentLine(last) {
                moved.insert(last, at: 0)
                source.removeLast()
            }
            leading.append(moved)
            working[index - 1].trailer = source
        }
        var reordered = positions.map { working[$0] }
        for (newIndex, oldIndex) in positions.enumerated() {
            if newIndex == 0 { head += leading[oldIndex] } else { reordered[newIndex - 1].trailer += leading[oldIndex] }
        }
        return edit {
            $0.entries = reordered
            $0.preamble = head
        }
    }

    // MARK: - Model

    /// Whether a whole line is a comment (`# …`, maybe indented).
    static func isCommentLine(_ line: [UInt8]) -> Bool {
        line.first(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }) == UInt8(ascii: "#")
    }

    /// The comments in an entry's lines (whole-line ones and those after a value), without their indentation
    /// or line breaks. Lines of a `|` or `>` block scalar are text, not comments.
    private static func comments(in entry: Entry) -> [[UInt8]] {
        let keyLine = Array(withoutLineBreak(entry.content[0]))
        let afterKey = keyLine.dropFirst(entry.keyTokenLength).drop { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: " ") }
        if let first = afterKey.first, first == UInt8(ascii: "|") || first == UInt8(ascii: ">") {
            return trailingComment(keyLine).map { [Array($0.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") })] } ?? []
        }
        return entry.content.compactMap { raw -> [UInt8]? in
            let line = Array(withoutLineBreak(raw))
            if isCommentLine(line) { return Array(line.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) }
            return trailingComment(line).map { Array($0.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) }
        }
    }

    /// The ` # comment` at the end of a one-line `key: value` (with the spaces before it), if any: a `#`
    /// after a space or tab, outside quotes.
    static func trailingComment(_ line: [UInt8]) -> [UInt8]? {
        var quote: UInt8? = nil
        var index = 0
        while index < line.count {
            let byte = line[index]
            if let open = quote {
                if open == UInt8(ascii: "\""), byte == UInt8(ascii: "\\") { index += 2; continue }
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                // Quotes open a scalar only at its start (after `: ` or a flow indicator), not inside plain text.
                let previous = index > 0 ? line[index - 1] : UInt8(ascii: " ")
                if previous == UInt8(ascii: " ") || previous == UInt8(ascii: "[") || previous == UInt8(ascii: ",") { quote = byte }
            } else if byte == UInt8(ascii: "#"), index > 0, line[index - 1] == UInt8(ascii: " ") || line[index - 1] == UInt8(ascii: "\t") {
                var start = index
                while start > 0, line[start - 1] == UInt8(ascii: " ") || line[start - 1] == UInt8(ascii: "\t") { start -= 1 }
                return Array(line[start...])
            }
            index += 1
        }
        return nil
    }

    private struct Entry: Sendable {
        var key: String
        /// The key line and the value's lines, each with its line break.
        var content: [[UInt8]]
        /// Blank and comment lines after the value, up to the next key.
        var trailer: [[UInt8]]
        /// Bytes of the key token (with its quotes) at the start of the key line.
        var keyTokenLength: Int

        /// The part of the trailer kept when the entry is removed: from the first blank or column-1
        /// line on, if it holds a column-1 comment.
        var survivingTrailer: [[UInt8]] {
            guard let start = trailer.firstIndex(where: { $0.first.map(isLineBreakOrComment) ?? true }),
                  trailer[start...].contains(where: { $0.first == UInt8(ascii: "#") }) else { return [] }
            return Array(trailer[start...])
        }
    }

    private static let lf: [UInt8] = [10]
    private static let crlf: [UInt8] = [13, 10]

    private let original: [UInt8]
    /// BOM and opening delimiter line; closing delimiter line and body. Generated for a new block.
    private let opening: [UInt8]
    private let closing: [UInt8]
    private let createsBlock: Bool
    /// The line break of generated lines: CRLF when the opening delimiter line ends in one.
    private let newline: [UInt8]
    private var preamble: [[UInt8]]
    private var entries: [Entry]
    /// The parsed top-level mapping of the current text.
    private var values: [FrontmatterEntry]

    private func yamlBytes() -> [UInt8] {
        var bytes = preamble.flatMap { $0 }
        for entry in entries {
            bytes += entry.content.flatMap { $0 }
            bytes += entry.trailer.flatMap { $0 }
        }
        return bytes
    }

    /// Applies `change`, then keeps it only if the new text parses to the expected keys.
    private mutating func edit(_ change: (inout FrontmatterEditor) -> Void) -> Bool {
        var edited = self
        change(&edited)
        guard let (_, parsedEntries, parsedValues) = try? Self.parse(edited.yamlBytes()),
              parsedEntries.map(\.key) == edited.entries.map(\.key) else { return false }
        edited.values = parsedValues
        self = edited
        return true
    }

    /// Splits YAML text into preamble and entries, refusing what cannot be edited faithfully.
    private static func parse(_ yaml: [UInt8]) throws(FrontmatterEditError) -> ([[UInt8]], [Entry], [FrontmatterEntry]) {
        let values: [FrontmatterEntry]
        switch yaml.withUnsafeBufferPointer({ YAMLParser.parse($0, lineOffset: 1) }) {
        case .failure(let error):
            throw .invalidYAML(line: error.line, column: error.column, message: error.message)
        case .success(nil):
            values = []
        case .success(let root?):
            guard case .map(let entries) = root.value else { throw .notAMapping }
            values = entries
        }
        let tokens = try TopLevelKeyScanner.scan(yaml).get()
        var lines: [[UInt8]] = []
        var lineIndexByStart: [Int: Int] = [:]
        var start = 0
        while start < yaml.count {
            let end = yaml[start...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? yaml.count
            lineIndexByStart[start] = lines.count
            lines.append(Array(yaml[start..<end]))
            start = end
        }
        var keyLines: [Int] = []
        for token in tokens {
            // A key must start its own line as we split lines (libyaml also breaks lines at CR, NEL, LS, PS).
            guard let line = lineIndexByStart[token.start], token.end - token.start < withoutLineBreak(lines[line]).count,
                  keyLines.last.map({ $0 < line }) ?? true else { throw .notBlockStyle }
            keyLines.append(line)
        }
        let entries = tokens.indices.map { index in
            let owned = lines[keyLines[index]..<(index + 1 < keyLines.count ? keyLines[index + 1] : lines.count)]
            var trailerStart = owned.endIndex
            while trailerStart - 1 > owned.startIndex, isTrailerLine(owned[trailerStart - 1], isBlockScalar: tokens[index].valueIsBlockScalar) {
                trailerStart -= 1
            }
            return Entry(key: tokens[index].key, content: Array(owned[..<trailerStart]), trailer: Array(owned[trailerStart...]),
                         keyTokenLength: tokens[index].end - tokens[index].start)
        }
        return (Array(lines[..<(keyLines.first ?? lines.count)]), entries, values)
    }

    /// A blank line, or a comment line (indented comments only outside block scalars, where they are text).
    private static func isTrailerLine(_ line: [UInt8], isBlockScalar: Bool) -> Bool {
        guard let first = line.firstIndex(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }) else { return true }
        if line[first] == UInt8(ascii: "#") { return first == 0 || !isBlockScalar }
        return line[first...].allSatisfy { $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") }
    }

    private static func withoutLineBreak(_ line: [UInt8]) -> ArraySlice<UInt8> {
        var end = line.endIndex
        if end > 0, line[end - 1] == UInt8(ascii: "\n") { end -= 1 }
        if end > 0, line[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return line[..<end]
    }
}

private func isLineBreakOrComment(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "#")
}

/// Finds the top-level keys of a YAML text with libyaml's events: each key's byte range and whether its
/// value is a block scalar. Fails unless the root is one block mapping of plain or quoted scalar keys
/// that start their line, in a single document without `---`/`...` markers, whose aliases all refer
/// to an earlier anchor (the parser reads an unknown alias as null; Obsidian rejects the whole block).
private enum TopLevelKeyScanner {
    struct Token {
        var key: String
        var start: Int
        var end: Int
        var valueIsBlockScalar = false
    }

    static func scan(_ yaml: [UInt8]) -> Result<[Token], FrontmatterEditError> {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return .failure(.notBlockStyle) }
        defer { yaml_parser_delete(&parser) }
        return yaml.withUnsafeBufferPointer { buffer -> Result<[Token], FrontmatterEditError> in
            yaml_parser_set_input_string(&parser, buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!, buffer.count)
            var offsets = ByteOffsets(bytes: buffer)
            var tokens: [Token] = []
            var depth = 0
            var documents = 0
            var expectingKey = true
            var anchors: Set<String> = []
            var event = yaml_event_t()
            while yaml_parser_parse(&parser, &event) == 1 {
                defer { yaml_event_delete(&event) }
                switch event.type {
                case YAML_STREAM_END_EVENT:
                    return .success(tokens)
                case YAML_DOCUMENT_START_EVENT:
                    documents += 1
                    guard documents == 1, event.data.document_start.implicit != 0 else { return .failure(.notBlockStyle) }
                case YAML_DOCUMENT_END_EVENT:
                    guard event.data.document_end.implicit != 0 else { return .failure(.notBlockStyle) }
                case YAML_MAPPING_START_EVENT, YAML_SEQUENCE_START_EVENT, YAML_SCALAR_EVENT, YAML_ALIAS_EVENT:
                    let anchor = event.type == YAML_SCALAR_EVENT ? event.data.scalar.anchor
                        : event.type == YAML_MAPPING_START_EVENT ? event.data.mapping_start.anchor
                        : event.type == YAML_SEQUENCE_START_EVENT ? event.data.sequence_start.anchor : event.data.alias.anchor
                    let anchorName = anchor.map { String(cString: $0) }
                    if event.type == YAML_ALIAS_EVENT, let anchorName, !anchors.contains(anchorName) {
                        return .failure(.invalidYAML(
                            line: Int(event.start_mark.line) + 2, column: Int(event.start_mark.column) + 1, message: "the alias *\(anchorName) has no anchor &\(anchorName) before it"))
                    } else if let anchorName {
                        anchors.insert(anchorName)
                    }
                    if depth == 0 {
                        guard event.type == YAML_MAPPING_START_EVENT, event.data.mapping_start.style == YAML_BLOCK_MAPPING_STYLE else { return .failure(.notBlockStyle) }
                    } else if depth == 1, expectingKey {
                        let scalar = event.data.scalar
                        guard event.type == YAML_SCALAR_EVENT, event.start_mark.column == 0, scalar.anchor == nil, scalar.tag == nil else { return .failure(.notBlockStyle) }
                        let text = String(decoding: UnsafeBufferPointer(start: scalar.value, count: Int(scalar.length)), as: UTF8.self)
                        tokens.append(Token(
                            key: keyText(text, isPlain: scalar.style == YAML_PLAIN_SCALAR_STYLE),
                            start: offsets.byteOffset(ofCharacter: Int(event.start_mark.index)),
                            end: offsets.byteOffset(ofCharacter: Int(event.end_mark.index))))
                    } else if depth == 1, event.type == YAML_SCALAR_EVENT {
                        let style = event.data.scalar.style
                        tokens[tokens.count - 1].valueIsBlockScalar = style == YAML_LITERAL_SCALAR_STYLE || style == YAML_FOLDED_SCALAR_STYLE
                    }
                    if depth == 1 { expectingKey.toggle() }
                    if event.type == YAML_MAPPING_START_EVENT || event.type == YAML_SEQUENCE_START_EVENT { depth += 1 }
                case YAML_MAPPING_END_EVENT, YAML_SEQUENCE_END_EVENT:
                    depth -= 1
                default:
                    break
                }
            }
            return .failure(.notBlockStyle)
        }
    }

    /// The key as `YAMLParser` reports it: the text of the typed scalar (`True` → `true`, `~` → empty).
    private static func keyText(_ text: String, isPlain: Bool) -> String {
        guard isPlain else { return text }
        switch text {
        case "~", "null", "Null", "NULL": return ""
        case "True", "TRUE": return "true"
        case "False", "FALSE": return "false"
        default: return text
        }
    }

    /// libyaml marks count characters; keys arrive in order, so one forward walk converts them to bytes.
    private struct ByteOffsets {
        let bytes: UnsafeBufferPointer<UInt8>
        var character = 0
        var byte = 0

        mutating func byteOffset(ofCharacter target: Int) -> Int {
            while character < target, byte < bytes.count {
                byte += 1
                while byte < bytes.count, bytes[byte] & 0xC0 == 0x80 { byte += 1 }
                character += 1
            }
            return byte
        }
    }
}

/// Why a note's frontmatter cannot be rewritten. Nothing was changed in any of these cases; the note (or
/// the text given for a new one) is the user's to fix.
public enum FrontmatterEditError: ExplainedError, Equatable {
    case invalidYAML(line: Int, column: Int, message: String)
    case unclosedBlock
    case notAMapping
    case notBlockStyle

    public var code: String { "frontmatter-not-editable" }
    public var isUserMistake: Bool { true }

    public var message: ErrorMessage {
        switch self {
        case .invalidYAML(let line, let column, let message):
            return ErrorMessage("the frontmatter is not valid YAML (line \(line), column \(column): \(message)), so Rhizome will not rewrite it", ". ",
                                "Fix the YAML by hand (quote values that contain `: ` or `#`, or start with `[`, `{`, `*`, `&`, `!`), then run the command again.")
        case .unclosedBlock:
            return ErrorMessage("the file starts with `---` but the frontmatter block is never closed, so Rhizome will not rewrite it", ". ",
                                "Add a line `---` after the last property.")
        case .notAMapping:
            return ErrorMessage("the frontmatter is not a set of `key: value` properties (it is a single value or a list), so Rhizome will not rewrite it", ". ",
                                "Write one `key: value` line per property.")
        case .notBlockStyle:
            return ErrorMessage("the frontmatter is not plain `key: value` lines (it is written in flow or JSON style `{…}`, has keys that do not start "
                                + "their line, or contains `---`/`...` document markers), so Rhizome will not rewrite it", ". ",
                                "Write one `key: value` line per property, each key at the start of its line.")
        }
    }
}
