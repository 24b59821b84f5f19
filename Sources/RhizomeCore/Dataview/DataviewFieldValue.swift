import Foundation

/// How field text becomes a typed value, as Dataview reads inline fields (`key:: value`) and frontmatter
/// strings (`src/data-import/markdown-file.ts`, `parseInlineValue`).
public enum DataviewFieldValue {
    /// An inline field's value: empty is null; otherwise the whole text must be a date (with a `T` before
    /// the time: `2021-04-17 18:00` stays text, as in Dataview), a duration, a
    /// `"quoted string"`, a `#tag` (kept as text), a `[[link]]`, `true`/`false` or a number — or a
    /// comma-separated list of those (`1, 2, 3`) — else it stays text.
    public static func inline(_ text: String, resolveLink: (String) -> DataviewLink) -> DataviewValue {
        let trimmed = text.trimmingSpaces
        if trimmed.isEmpty { return .null }
        // A duration can hold commas (`1 day, 3 hours`); Dataview reads it whole before trying a list.
        if startsWithDigitOrSign(trimmed), let duration = DataviewDuration.parse(trimmed) { return .duration(duration) }
        let parts = splitOutsideQuotesAndLinks(trimmed)
        if parts.count > 1 {
            var items: [DataviewValue] = []
            for part in parts {
                guard let atom = atom(part.trimmingSpaces, resolveLink: resolveLink) else { return .string(trimmed) }
                items.append(atom)
            }
            return .list(items)
        }
        return atom(trimmed, resolveLink: resolveLink) ?? .string(trimmed)
    }

    /// A frontmatter string: a date, a duration or a `[[link]]` when the whole string is one, else text.
    public static func frontmatterString(_ text: String, resolveLink: (String) -> DataviewLink) -> DataviewValue {
        // Most strings are plain text: dates and durations start with a digit or sign, links with `[` or `!`.
        guard let first = text.utf8.first, (first >= 48 && first <= 57) || first == 45 || first == 43 || first == 91 || first == 33 else {
            return .string(text)
        }
        if let date = DataviewDate.parse(text) { return .date(date) }
        if let duration = DataviewDuration.parse(text), startsWithDigitOrSign(text) { return .duration(duration) }
        if let link = wikilink(text, resolveLink: resolveLink) { return .link(link) }
        return .string(text)
    }

    // MARK: Helpers

    private static func atom(_ text: String, resolveLink: (String) -> DataviewLink) -> DataviewValue? {
        if text.isEmpty { return nil }
        if let date = DataviewDate.parse(text, allowsSpaceBeforeTime: false) { return .date(date) }
        if startsWithDigitOrSign(text), let duration = DataviewDuration.parse(text) { return .duration(duration) }
        if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") {
            var inner = String(text.dropFirst().dropLast())
            guard !inner.contains("\"") || inner.contains("\\\"") else { return nil }
            inner = inner.replacingOccurrences(of: "\\\"", with: "\"").replacingOccurrences(of: "\\\\", with: "\\")
            return .string(inner)
        }
        if text.hasPrefix("#"), text.count > 1, !text.contains(" ") { return .string(text) }
        if let link = wikilink(text, resolveLink: resolveLink) { return .link(link) }
        switch text {
        case "true", "True": return .boolean(true)
        case "false", "False": return .boolean(false)
        default: break
        }
        if isNumber(text), let number = Double(text) { return .number(number) }
        return nil
    }

    /// `[[path#subpath|display]]` or `![[…]]`, the whole text.
    static func wikilink(_ text: String, resolveLink: (String) -> DataviewLink) -> DataviewLink? {
        var body = Substring(text)
        var isEmbed = false
        if body.hasPrefix("!") { body = body.dropFirst(); isEmbed = true }
        guard body.hasPrefix("[["), body.hasSuffix("]]"), body.count >= 4 else { return nil }
        let inner = body.dropFirst(2).dropLast(2)
        guard !inner.contains("[") && !inner.contains("]") else { return nil }
        var link = resolveLink(String(inner))
        link.isEmbed = isEmbed
        return link
    }

    /// `-?[0-9]+(\.[0-9]+)?`, the whole text.
    private static func isNumber(_ text: String) -> Bool {
        var scalars = Substring(text).unicodeScalars[...]
        if scalars.first == "-" { scalars = scalars.dropFirst() }
        let parts = String(String.UnicodeScalarView(scalars)).split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count) else { return false }
        return parts.allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }
    }

    private static func startsWithDigitOrSign(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first else { return false }
        return first == "-" || first == "+" || (first.isASCII && first.properties.numericType != nil)
    }

    /// Splits on commas that are not inside `"…"` or `[[…]]`.
    private static func splitOutsideQuotesAndLinks(_ text: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var inQuote = false
        var linkDepth = 0
        var previous: Character? = nil
        for character in text {
            if character == "\"", previous != "\\" { inQuote.toggle() }
            if !inQuote {
                if character == "[", previous == "[" { linkDepth += 1 }
                if character == "]", previous == "]", linkDepth > 0 { linkDepth -= 1 }
            }
            if character == ",", !inQuote, linkDepth == 0 {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
            previous = character
        }
        parts.append(current)
        return parts
    }
}
