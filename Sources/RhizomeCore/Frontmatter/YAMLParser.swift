import CYAML

/// Parses YAML text into `FrontmatterNode`s with libyaml's event API (fast, positions on every node).
///
/// Scalars are typed with the YAML 1.2 core schema (as Obsidian's properties do): plain `true`/`false`,
/// numbers, `null`/`~`/empty, plus ISO dates kept as `.date` strings; quoted scalars are always strings.
public enum YAMLParser {
    /// Parses one YAML document. `lineOffset` is added to every line (frontmatter starts at file line 2).
    /// Returns nil for an empty document.
    public static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, lineOffset: Int = 0
    ) -> Result<FrontmatterNode?, YAMLSyntaxError> {
        parseReportingDuplicates(bytes, lineOffset: lineOffset).0
    }

    public static func parse(_ text: String, lineOffset: Int = 0) -> Result<FrontmatterNode?, YAMLSyntaxError> {
        var copy = text
        return copy.withUTF8 { parse($0, lineOffset: lineOffset) }
    }

    private static func syntaxError(of parser: yaml_parser_t, lineOffset: Int) -> YAMLSyntaxError {
        let problem = parser.problem.map { String(cString: $0) } ?? "invalid YAML"
        var message = problem
        if let context = parser.context.map({ String(cString: $0) }) {
            message = "\(problem) \(context)"
        }
        let mark = parser.problem_mark
        return YAMLSyntaxError(message: message, line: lineOffset + Int(mark.line) + 1, column: Int(mark.column) + 1)
    }
}

/// A YAML syntax error with its position in the file.
public struct YAMLSyntaxError: Error, Sendable, Hashable {
    public var message: String
    public var line: Int
    public var column: Int
    /// True when the document is valid YAML but over Rhizome's depth or size limits.
    public var isLimit = false
}

/// Builds the node tree from a stream of events, refusing documents that are too deep or that expand
/// (through aliases) into too many values: frontmatter is small, and a crafted note must not exhaust memory.
private struct Builder {
    static let maximumDepth = 64
    static let maximumValues = 100_000

    struct Frame {
        var isMap: Bool
        var start: yaml_mark_t
        var anchor: String?
        var items: [FrontmatterNode] = []
        var entries: [FrontmatterEntry] = []
        /// Where each key's entry is, once the mapping has `Frame.keysSearchedInOrder` of them (before, a
        /// search in order is quicker than hashing: frontmatter mappings are small).
        var entryIndexByKey: [String: Int] = [:]
        var pendingKey: (String, yaml_mark_t)? = nil
        /// Values in this subtree, aliases expanded.
        var size = 1

        static let keysSearchedInOrder = 16

        /// The entry with `key` (`==`, as for a dictionary key), if any.
        func entryIndex(of key: String) -> Int? {
            entries.count < Self.keysSearchedInOrder ? entries.firstIndex { $0.key == key } : entryIndexByKey[key]
        }

        mutating func append(_ entry: FrontmatterEntry) {
            entries.append(entry)
            if entries.count == Self.keysSearchedInOrder {
                for (index, earlier) in entries.enumerated() { entryIndexByKey[earlier.key] = index }
            } else if entries.count > Self.keysSearchedInOrder {
                entryIndexByKey[entry.key] = entries.count - 1
            }
        }
    }

    let lineOffset: Int
    var stack: [Frame] = []
    var anchors: [String: (node: FrontmatterNode, size: Int)] = [:]
    var root: FrontmatterNode?
    var documentEnded = false
    var error: YAMLSyntaxError?
    var totalValues = 0
    /// Keys that occurred twice in one mapping (the later value wins, as in most YAML loaders).
    var duplicateKeys: [(String, Int, Int)] = []

    init(lineOffset: Int) { self.lineOffset = lineOffset }

    mutating func consume(_ event: yaml_event_t) {
        switch event.type {
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            let text = string(scalar.value, Int(scalar.length))
            let isPlain = scalar.style == YAML_PLAIN_SCALAR_STYLE
            let tag = scalar.tag.map { String(cString: $0) }
            let value = Self.type(text, isPlain: isPlain, tag: tag)
            let node = FrontmatterNode(
                value: value, line: line(event.start_mark), column: column(event.start_mark),
                isQuoted: scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE || scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE)
            if let anchor = scalar.anchor.map({ String(cString: $0) }) { anchors[anchor] = (node, 1) }
            add(node, size: 1, mark: event.start_mark)
        case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
            guard stack.count < Self.maximumDepth else {
                fail("the frontmatter nests deeper than \(Self.maximumDepth) levels", at: event.start_mark)
                return
            }
            let isMap = event.type == YAML_MAPPING_START_EVENT
            let anchor = isMap ? event.data.mapping_start.anchor : event.data.sequence_start.anchor
            stack.append(Frame(isMap: isMap, start: event.start_mark, anchor: anchor.map { String(cString: $0) }))
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            guard let frame = stack.popLast() else { return }
            let value: FrontmatterValue = frame.isMap ? .map(frame.entries) : .list(frame.items)
            let node = FrontmatterNode(value: value, line: line(frame.start), column: column(frame.start))
            if let anchor = frame.anchor { anchors[anchor] = (node, frame.size) }
            add(node, size: frame.size, mark: frame.start)
        case YAML_ALIAS_EVENT:
            let name = event.data.alias.anchor.map { String(cString: $0) } ?? ""
            let anchored = anchors[name] ?? (FrontmatterNode(value: .null, line: 0, column: 0), 1)
            var node = anchored.node
            node.line = line(event.start_mark)
            node.column = column(event.start_mark)
            add(node, size: anchored.size, mark: event.start_mark)
        case YAML_DOCUMENT_END_EVENT:
            documentEnded = true
        default:
            break
        }
    }

    private mutating func fail(_ message: String, at mark: yaml_mark_t) {
        if error == nil { error = YAMLSyntaxError(message: message, line: line(mark), column: column(mark), isLimit: true) }
    }

    private mutating func add(_ node: FrontmatterNode, size: Int, mark: yaml_mark_t) {
        totalValues += size
        guard totalValues <= Self.maximumValues else {
            fail("the frontmatter expands to more than \(Self.maximumValues) values (through YAML aliases)", at: mark)
            return
        }
        guard var top = stack.popLast() else {
            root = node
            return
        }
        top.size += size
        if !top.isMap {
            top.items.append(node)
        } else if let (key, keyMark) = top.pendingKey {
            let entry = FrontmatterEntry(key: key, keyLine: line(keyMark), keyColumn: column(keyMark), value: node)
            if let existing = top.entryIndex(of: key) {
                duplicateKeys.append((key, entry.keyLine, entry.keyColumn))
                top.entries[existing] = entry
            } else {
                top.append(entry)
            }
            top.pendingKey = nil
        } else {
            // A key: scalars keep their text; complex keys are rendered as their scalar text or empty.
            top.pendingKey = (node.value.scalarText ?? "", mark)
        }
        stack.append(top)
    }

    private func line(_ mark: yaml_mark_t) -> Int { lineOffset + Int(mark.line) + 1 }
    private func column(_ mark: yaml_mark_t) -> Int { Int(mark.column) + 1 }

    private func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?, _ length: Int) -> String {
        guard let pointer, length > 0 else { return "" }
        return String(decoding: UnsafeBufferPointer(start: pointer, count: length), as: UTF8.self)
    }

    /// YAML 1.2 core schema resolution for plain scalars, plus ISO dates.
    static func type(_ text: String, isPlain: Bool, tag: String?) -> FrontmatterValue {
        if let tag, tag == "tag:yaml.org,2002:str" || tag == "!" { return .string(text) }
        guard isPlain else { return .string(text) }
        guard let first = text.utf8.first else { return .null }
        // Only a scalar starting with one of these bytes can be a keyword (most, like `planned`, cannot:
        // no comparison with each keyword for them).
        switch first {
        case UInt8(ascii: "~"), UInt8(ascii: "n"), UInt8(ascii: "N"), UInt8(ascii: "t"), UInt8(ascii: "T"), UInt8(ascii: "f"),
             UInt8(ascii: "F"), UInt8(ascii: "."), UInt8(ascii: "+"), UInt8(ascii: "-"):
            switch text {
            case "~", "null", "Null", "NULL": return .null
            case "true", "True", "TRUE": return .bool(true)
            case "false", "False", "FALSE": return .bool(false)
            case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .number(.infinity, text: text)
            case "-.inf", "-.Inf", "-.INF": return .number(-.infinity, text: text)
            case ".nan", ".NaN", ".NAN": return .number(.nan, text: text)
            default: break
            }
        default:
            break
        }
        if first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: ".") || (first >= 48 && first <= 57) {
            let utf8 = Array(text.utf8)
            if isDateLike(utf8) { return .date(text) }
            if let number = number(text, utf8) { return .number(number, text: text) }
        }
        return .string(text)
    }

    private static func number(_ text: String, _ utf8: [UInt8]) -> Double? {
        if text.hasPrefix("0x"), let value = Int(text.dropFirst(2), radix: 16) { return Double(value) }
        if text.hasPrefix("0o"), let value = Int(text.dropFirst(2), radix: 8) { return Double(value) }
        // [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
        var index = 0
        if index < utf8.count, utf8[index] == 45 || utf8[index] == 43 { index += 1 }
        var digits = 0
        while index < utf8.count, utf8[index] >= 48, utf8[index] <= 57 { index += 1; digits += 1 }
        if index < utf8.count, utf8[index] == 46 {
            index += 1
            while index < utf8.count, utf8[index] >= 48, utf8[index] <= 57 { index += 1; digits += 1 }
        }
        guard digits > 0 else { return nil }
        if index < utf8.count, utf8[index] == 101 || utf8[index] == 69 {
            index += 1
            if index < utf8.count, utf8[index] == 45 || utf8[index] == 43 { index += 1 }
            var exponentDigits = 0
            while index < utf8.count, utf8[index] >= 48, utf8[index] <= 57 { index += 1; exponentDigits += 1 }
            guard exponentDigits > 0 else { return nil }
        }
        guard index == utf8.count else { return nil }
        return Double(text)
    }

    /// `YYYY-MM-DD`, optionally followed by `T`/space and a time with optional zone.
    private static func isDateLike(_ utf8: [UInt8]) -> Bool {
        func isDigit(_ i: Int) -> Bool { i < utf8.count && utf8[i] >= 48 && utf8[i] <= 57 }
        guard utf8.count >= 10, (0..<4).allSatisfy(isDigit), utf8[4] == 45, isDigit(5), isDigit(6), utf8[7] == 45, isDigit(8), isDigit(9) else {
            return false
        }
        if utf8.count == 10 { return true }
        guard utf8[10] == 84 || utf8[10] == 116 || utf8[10] == 32 else { return false }
        // A time: H:MM or HH:MM, optional :SS(.fff), optional Z or ±HH(:MM).
        var index = 11
        var hourDigits = 0
        while isDigit(index) { index += 1; hourDigits += 1 }
        guard (1...2).contains(hourDigits), index < utf8.count, utf8[index] == 58, isDigit(index + 1), isDigit(index + 2) else { return false }
        index += 3
        if index < utf8.count, utf8[index] == 58 {
            guard isDigit(index + 1), isDigit(index + 2) else { return false }
            index += 3
            if index < utf8.count, utf8[index] == 46 {
                index += 1
                while isDigit(index) { index += 1 }
            }
        }
        while index < utf8.count, utf8[index] == 32 { index += 1 }
        if index == utf8.count { return true }
        if utf8[index] == 90 { return index + 1 == utf8.count }
        guard utf8[index] == 43 || utf8[index] == 45 else { return false }
        index += 1
        var zoneDigits = 0
        while index < utf8.count, isDigit(index) || utf8[index] == 58 { index += 1; zoneDigits += 1 }
        return index == utf8.count && zoneDigits >= 1
    }
}

extension YAMLParser {
    /// Parses and also reports keys that occur twice in one mapping (line, column of the later one).
    public static func parseReportingDuplicates(
        _ bytes: UnsafeBufferPointer<UInt8>, lineOffset: Int
    ) -> (Result<FrontmatterNode?, YAMLSyntaxError>, duplicates: [(key: String, line: Int, column: Int)]) {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            return (.failure(YAMLSyntaxError(message: "could not initialise the YAML parser", line: lineOffset + 1, column: 1)), [])
        }
        defer { yaml_parser_delete(&parser) }
        yaml_parser_set_input_string(&parser, bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!, bytes.count)
        var builder = Builder(lineOffset: lineOffset)
        var event = yaml_event_t()
        while true {
            guard yaml_parser_parse(&parser, &event) == 1 else {
                return (.failure(syntaxError(of: parser, lineOffset: lineOffset)), [])
            }
            let type = event.type
            builder.consume(event)
            yaml_event_delete(&event)
            if let error = builder.error { return (.failure(error), []) }
            if type == YAML_STREAM_END_EVENT || builder.documentEnded { break }
        }
        return (.success(builder.root), builder.duplicateKeys.map { (key: $0.0, line: $0.1, column: $0.2) })
    }
}
