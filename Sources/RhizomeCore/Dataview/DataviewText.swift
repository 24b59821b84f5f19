import Foundation

/// How Dataview values read as text: in string concatenation and `string()`, in markdown (tables you
/// paste into a note, `--render`), and in a terminal table.
public enum DataviewText {
    /// Dataview's default formats for dates and date-times (its settings `defaultDateFormat`, `defaultDateTimeFormat`).
    public static let defaultDateFormat = "MMMM dd, yyyy"
    public static let defaultDateTimeFormat = "h:mm a - MMMM dd, yyyy"

    /// The text of a value as `string(value)` and `"…" + value` produce it (null reads `-`, as Dataview shows it).
    public static func plain(_ value: DataviewValue) -> String {
        switch value {
        case .null: return "-"
        case .boolean(let flag): return flag ? "true" : "false"
        case .number(let number): return DataviewNumber.text(number)
        case .string(let text): return text
        case .date(let date): return defaultText(of: date)
        case .duration(let duration): return duration.text
        case .link(let link): return link.markdown
        case .list(let items): return items.map(nestedPlain).joined(separator: ", ")
        case .object(let object):
            return "{ " + object.pairs.map { "\($0.key): \(nestedPlain($0.value))" }.joined(separator: ", ") + " }"
        case .function: return "<function>"
        case .externalLink(let link): return link.markdown
        }
    }

    /// A list inside a list or an object reads `[a, b]`.
    private static func nestedPlain(_ value: DataviewValue) -> String {
        if case .list(let items) = value { return "[" + items.map(nestedPlain).joined(separator: ", ") + "]" }
        return plain(value)
    }

    /// A table cell or list entry in markdown: links as wikilinks, lists joined by `, `, `-` for null,
    /// with `|` and line breaks escaped so the cell stays one table cell.
    /// `inTable: false` (a list item) keeps `|` as it is: only a table cell needs it escaped.
    public static func markdown(_ value: DataviewValue, inTable: Bool = true) -> String {
        let text: String
        switch value {
        case .null: text = "-"
        case .list(let items): text = items.map { markdown($0, inTable: false) }.joined(separator: ", ")
        case .string(let string): text = string
        default: text = plain(value)
        }
        let oneLine = text.replacingOccurrences(of: "\r\n", with: "<br>").replacingOccurrences(of: "\n", with: "<br>")
        return inTable ? escapingPipes(oneLine) : oneLine
    }

    /// `|` becomes `\|` unless already escaped (a link's display text is).
    public static func escapingPipes(_ text: String) -> String {
        guard text.contains("|") else { return text }
        var result = ""
        var previous: Character? = nil
        for character in text {
            if character == "|", previous != "\\" { result.append("\\") }
            result.append(character)
            previous = character
        }
        return result
    }

    /// A cell in a terminal table: links by their shown name, dates in ISO form, `-` for null.
    public static func terminal(_ value: DataviewValue) -> String {
        switch value {
        case .null: return "-"
        case .link(let link): return link.shownText
        case .externalLink(let link): return link.shownText
        case .date(let date): return date.hasTime ? DataviewDateFormat.format(date, "yyyy-MM-dd HH:mm") : date.isoText
        case .list(let items): return items.map(terminal).joined(separator: ", ")
        case .string(let text): return text.replacingOccurrences(of: "\n", with: " ")
        default: return plain(value)
        }
    }

    static func defaultText(of date: DataviewDate) -> String {
        DataviewDateFormat.format(date, date.hasTime ? defaultDateTimeFormat : defaultDateFormat)
    }
}
