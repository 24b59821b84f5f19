import Foundation

/// Dataview's `display(value)`: a value as plain text, markdown formatting stripped. Null reads as nothing,
/// a list as its items' display text joined by `, `, a link as its display text or else its file's name
/// (with ` > heading` for a link into a section); other values read as `string()` gives them.
enum DataviewDisplay {
    static func text(_ value: DataviewValue) -> String {
        switch value {
        case .null: return ""
        case .list(let items): return items.map(text).joined(separator: ", ")
        case .string(let string): return strippingMarkdown(string)
        case .link(let link):
            if let display = link.display, !display.isEmpty { return strippingMarkdown(display) }
            var name = Substring(VaultPath.fileName(of: link.path))
            if name.lowercased().hasSuffix(".md") { name = name.dropLast(3) }
            let title = String(name) + (link.subpath.map { " > " + ($0.hasPrefix("^") ? String($0.dropFirst()) : $0) } ?? "")
            return (link.isEmbed ? "!" : "") + title
        default: return DataviewText.plain(value)
        }
    }

    /// Wikilinks as their text (as Dataview: each `[[X]]`, and only the first `[[X|Y]]`, a quirk kept),
    /// then the formatting Dataview's markdown stripper removes: list markers, headings, quote markers,
    /// images and links (their text stays), HTML tags, `~~`, emphasis and code spans.
    static func strippingMarkdown(_ text: String) -> String {
        var result = replacing(#"\[\[([^\]|]+?)\]\]"#, in: text, with: "$1")
        result = replacing(#"\[\[[^\]|]*\|([^\]]*?)\]\]"#, in: result, with: "$1", onlyFirst: true)
        for (pattern, template) in rules { result = replacing(pattern, in: result, with: template) }
        return result
    }

    private static let rules: [(String, String)] = [
        (#"(?m)^([ \t]*)([*\-+]|\d+\.)[ \t]+"#, "$1"),  // list markers
        (#"(?m)^[ \t]{0,3}>[ \t]?"#, ""),  // quote markers
        (#"(?m)^#{1,6}[ \t]+"#, ""),  // headings
        (#"!\[(.*?)\][\[(].*?[\])]"#, "$1"),  // images: their alt text
        (#"\[(.*?)\][\[(].*?[\])]"#, "$1"),  // links: their text
        (#"<[^>]*>"#, ""),  // HTML tags
        (#"~~"#, ""),
        (#"(\*+)(\S)(.*?\S)??\1"#, "$2$3"),  // *emphasis*, **strong**
        (#"(^|\W)(_+)(\S)(.*?\S)??\2($|\W)"#, "$1$3$4$5"),  // _emphasis_ at word boundaries
        (#"`(.+?)`"#, "$1"),  // code spans
    ]

    private static func replacing(_ pattern: String, in text: String, with template: String, onlyFirst: Bool = false) -> String {
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return text }
        let whole = NSRange(text.startIndex..., in: text)
        guard onlyFirst else { return expression.stringByReplacingMatches(in: text, range: whole, withTemplate: template) }
        guard let match = expression.firstMatch(in: text, range: whole), let range = Range(match.range, in: text) else { return text }
        let replacement = expression.replacementString(for: match, in: text, offset: 0, template: template)
        return text.replacingCharacters(in: range, with: replacement)
    }
}
