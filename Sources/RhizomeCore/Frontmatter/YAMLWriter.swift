/// Renders `FrontmatterValue`s as YAML text the way Obsidian writes properties: block style, two-space
/// indents, strings plain unless plain text would read back as something else.
///
/// Round trip: for every string `s`, `YAMLParser.parse("k: " + scalar(.string(s)))` gives `.string(s)`.
public enum YAMLWriter {
    /// The lines (without newlines) of one top-level `key: value` entry.
    ///
    ///     entryLines(key: "tags", value: .list([…"a", "b"…]))  // ["tags:", "  - a", "  - b"]
    public static func entryLines(key: String, value: FrontmatterValue) -> [String] {
        entryLines(key: key, value: value, indent: "")
    }

    /// A scalar's text: plain when that reads back as the same value, else double-quoted. `.null` is
    /// the empty string (`key:`); lists and maps, which are not scalars, are written in flow style.
    public static func scalar(_ value: FrontmatterValue) -> String {
        switch value {
        case .null: return ""
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number, let text): return text.isEmpty ? numberText(number) : text
        case .string(let text): return isPlainSafe(text) && readsBackAsString(text) ? text : quoted(text)
        // A date is meant to read back as a date, so only the syntax rules apply.
        case .date(let text): return !text.isEmpty && isPlainSafeSyntax(text) ? text : quoted(text)
        case .list(let items): return "[" + items.map { flowItem($0.value) }.joined(separator: ", ") + "]"
        case .map(let entries):
            return "{" + entries.map { key($0.key) + ": " + flowItem($0.value.value) }.joined(separator: ", ") + "}"
        }
    }

    /// A mapping key's text: plain when safe, else double-quoted (the same rule as string values).
    public static func key(_ text: String) -> String {
        scalar(.string(text))
    }

    /// `text` in double quotes, with `"`, `\`, line breaks, tabs and other invisible characters escaped.
    public static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default:
                if needsEscape(scalar) {
                    let digits = String(scalar.value, radix: 16, uppercase: true)
                    result += "\\u" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    // MARK: - Block style

    private static func entryLines(key: String, value: FrontmatterValue, indent: String) -> [String] {
        let head = indent + Self.key(key) + ":"
        switch value {
        case .null:
            return [head]
        case .list(let items) where !items.isEmpty:
            return [head] + listLines(items, indent: indent + "  ")
        case .map(let entries) where !entries.isEmpty:
            return [head] + entries.flatMap { entryLines(key: $0.key, value: $0.value.value, indent: indent + "  ") }
        default:
            return [head + " " + scalar(value)]
        }
    }

    /// `- item` lines; a nested list or map starts on the dash's line (`- - a`, `- key: value`).
    private static func listLines(_ items: [FrontmatterNode], indent: String) -> [String] {
        items.flatMap { item -> [String] in
            let nested: [String]
            switch item.value {
            case .null: return [indent + "-"]
            case .list(let inner) where !inner.isEmpty: nested = listLines(inner, indent: indent + "  ")
            case .map(let entries) where !entries.isEmpty:
                nested = entries.flatMap { entryLines(key: $0.key, value: $0.value.value, indent: indent + "  ") }
            default: return [indent + "- " + scalar(item.value)]
            }
            // The first nested line is indented by `indent + "  "`: put the dash in those two columns.
            return [indent + "- " + nested[0].dropFirst(indent.count + 2)] + nested.dropFirst()
        }
    }

    // MARK: - Flow style (only for `scalar` of a list or map)

    private static func flowItem(_ value: FrontmatterValue) -> String {
        switch value {
        case .null: return "null"
        case .string(let text) where text.unicodeScalars.contains(where: { ",[]{}".unicodeScalars.contains($0) }):
            return quoted(text)
        case .date(let text) where text.unicodeScalars.contains(where: { ",[]{}".unicodeScalars.contains($0) }):
            return quoted(text)
        default: return scalar(value)
        }
    }

    // MARK: - When a string may be plain

    /// Syntax: nothing in the text would be read as YAML structure, a comment, or an escape.
    private static func isPlainSafeSyntax(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last else { return false }
        if first == " " || last == " " || last == ":" { return false }
        if "-?:,[]{}#&*!|>'\"%@`".unicodeScalars.contains(first) { return false }
        if text.hasPrefix("...") { return false }
        if text.containsUTF8(": ") || text.containsUTF8(" #") { return false }
        return !text.unicodeScalars.contains { $0 == "\t" || $0 == "\n" || $0 == "\r" || needsEscape($0) }
    }

    /// Syntax and type: also not a word or number that YAML (1.2 core, or 1.1 as older tools read it)
    /// would turn into a boolean, null, number or date.
    private static func isPlainSafe(_ text: String) -> Bool {
        guard isPlainSafeSyntax(text) else { return false }
        let lowercased = text.lowercased()
        let reserved: Set<String> = ["~", "null", "true", "false", "yes", "no", "on", "off", "<<", "="]
        if reserved.contains(lowercased) { return false }
        if [".inf", "+.inf", "-.inf", ".nan"].contains(lowercased) { return false }
        return !looksNumeric(Array(text.utf8)) && !startsWithDate(Array(text.utf8))
    }

    /// Numbers in any YAML spelling: `1`, `-1.5`, `.5`, `1e3`, `1_000`, `0x1F`, `0o17`, `0b101`, `1:30`.
    private static func looksNumeric(_ utf8: [UInt8]) -> Bool {
        var index = 0
        if index < utf8.count, utf8[index] == UInt8(ascii: "-") || utf8[index] == UInt8(ascii: "+") { index += 1 }
        let body = utf8[index...]
        guard let first = body.first, isDigit(first) || (first == UInt8(ascii: ".") && body.count > 1 && isDigit(body[index + 1])) else {
            return false
        }
        if body.count > 2, first == UInt8(ascii: "0"), "xXoObB".utf8.contains(body[index + 1]) {
            return body.dropFirst(2).allSatisfy { isDigit($0) || "abcdefABCDEF_".utf8.contains($0) }
        }
        var sawExponent = false
        var previous: UInt8 = 0
        for byte in body {
            let isExponent = byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
            let isSign = byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
            if isExponent, !sawExponent {
                sawExponent = true
            } else if isSign, previous == UInt8(ascii: "e") || previous == UInt8(ascii: "E") {
                // the exponent's sign
            } else if !isDigit(byte), !"._:".utf8.contains(byte) {
                return false
            }
            previous = byte
        }
        return true
    }

    /// `YYYY-MM-DD` at the start: a date or date-time to YAML readers and to Obsidian.
    private static func startsWithDate(_ utf8: [UInt8]) -> Bool {
        guard utf8.count >= 10 else { return false }
        let dashes = utf8[4] == UInt8(ascii: "-") && utf8[7] == UInt8(ascii: "-")
        return dashes && [0, 1, 2, 3, 5, 6, 8, 9].allSatisfy { isDigit(utf8[$0]) }
    }

    /// The last word: whatever the rules above say, plain text must parse back as this very string.
    private static func readsBackAsString(_ text: String) -> Bool {
        guard case .success(let root?) = YAMLParser.parse("k: " + text + "\n"), case .map(let entries) = root.value,
              entries.count == 1, entries[0].key == "k" else { return false }
        return entries[0].value.value == .string(text)
    }

    /// Characters YAML cannot hold raw (controls, C1, line and paragraph separators, BOM, non-characters).
    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0xFEFF, 0xFFFE, 0xFFFF: return true
        default: return false
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func numberText(_ number: Double) -> String {
        if number.isNaN { return ".nan" }
        if number.isInfinite { return number < 0 ? "-.inf" : ".inf" }
        if number.rounded() == number, abs(number) < 9.0e15 { return String(Int(number)) }
        return String(number)
    }
}
