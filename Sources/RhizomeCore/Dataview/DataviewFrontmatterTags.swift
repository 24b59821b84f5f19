/// Dataview's own reading of a note's frontmatter tags and aliases, which is not Obsidian's (1.9 reads only
/// `tags` and `aliases`): every key named `tag` or `tags`, and `alias` or `aliases`, in any letter case.
///
/// - Tags: lists are flattened (empty, false, zero and null items skipped), every value is written as text
///   and split at commas and white space, and each piece gets a `#` unless it has one (`tags: "a, b c"` is
///   `#a`, `#b`, `#c`). Nothing else is checked: `tag: 2024` is `#2024`.
/// - Aliases: a list's items as text, trimmed; a text value split at commas.
/// Source: Dataview's `extractTags` and `extractAliases` (src/data-import/markdown-file.ts).
public enum DataviewFrontmatterTags {
    /// The frontmatter's tags as Dataview reads them, in key order then value order, each with its `#`.
    public static func tags(in frontmatter: DataviewObject) -> [String] {
        var tags: [String] = []
        for (key, value) in frontmatter.pairs where isTagKey(key) {
            for piece in split(value, atWhiteSpace: true) { tags.append(piece.hasPrefix("#") ? piece : "#" + piece) }
        }
        return tags
    }

    /// The frontmatter's aliases as Dataview reads them.
    public static func aliases(in frontmatter: DataviewObject) -> [String] {
        var aliases: [String] = []
        for (key, value) in frontmatter.pairs where isAliasKey(key) {
            switch value {
            case .null, .boolean(false), .string(""): continue
            case .number(let number) where number == 0: continue
            case .list(let items): aliases += items.map { text(of: $0).trimmingWhiteSpace }
            default: aliases += split(value, atWhiteSpace: false)
            }
        }
        return aliases
    }

    /// Whether a frontmatter key is one Dataview reads tags from.
    public static func isTagKey(_ key: String) -> Bool { ["tag", "tags"].contains(key.lowercased()) }

    /// Whether a frontmatter key is one Dataview reads aliases from.
    public static func isAliasKey(_ key: String) -> Bool { ["alias", "aliases"].contains(key.lowercased()) }

    private static func split(_ value: DataviewValue, atWhiteSpace: Bool) -> [String] {
        switch value {
        case .null: return []
        case .list(let items):
            return items.filter(isTruthy).flatMap { split($0, atWhiteSpace: atWhiteSpace) }
        default:
            let pieces = text(of: value).split { $0 == "," || (atWhiteSpace && $0.isWhitespace) }
            return pieces.map { String($0).trimmingWhiteSpace }.filter { !$0.isEmpty }
        }
    }

    /// JavaScript's truthiness of a frontmatter value (`!!value`).
    private static func isTruthy(_ value: DataviewValue) -> Bool {
        switch value {
        case .null, .boolean(false), .string(""): return false
        case .number(let number): return number != 0 && !number.isNaN
        default: return true
        }
    }

    /// A frontmatter value as JavaScript's `"" + value` writes it (numbers without a needless fraction).
    private static func text(of value: DataviewValue) -> String {
        switch value {
        case .string(let text): return text
        case .number(let number): return DataviewNumber.text(number)
        case .boolean(let flag): return flag ? "true" : "false"
        case .null: return "null"
        case .list(let items): return items.map { if case .null = $0 { "" } else { text(of: $0) } }.joined(separator: ",")
        case .object: return "[object Object]"
        default: return ""
        }
    }
}

private extension String {
    var trimmingWhiteSpace: String {
        var text = Substring(self)
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return String(text)
    }
}
