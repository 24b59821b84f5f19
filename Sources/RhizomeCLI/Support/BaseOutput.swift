import Foundation
import RhizomeCore

/// How a view of a base prints: an aligned table for people (with group headings and a summary line),
/// markdown to paste into a note, CSV, and the versioned JSON payload with typed values.
enum BaseOutput {
    // MARK: Terminal

    static func text(_ result: BaseResult) -> String {
        var table = TextTable(headers: result.columns.map(\.displayName))
        var lines: [String] = []
        if let groups = result.groups {
            for group in groups {
                var groupTable = TextTable(headers: result.columns.map(\.displayName))
                for row in group.rows { groupTable.add(cells: row.cells.map { cellText($0, inTable: false) }) }
                let key = group.key.isEmpty ? "(none)" : plain(group.key)
                lines.append("## \(key) (\(group.rows.count))")
                lines.append(groupTable.render())
                if !group.summaries.isEmpty { lines.append(summaryLine(group.summaries)) }
                lines.append("")
            }
        } else {
            for row in result.rows { table.add(cells: row.cells.map { cellText($0, inTable: false) }) }
            lines.append(table.render())
        }
        if !result.summaries.isEmpty { lines.append(summaryLine(result.summaries)) }
        var footer = "(\(result.rows.count) \(result.rows.count == 1 ? "row" : "rows")"
        if result.truncated { footer += " of \(result.total); the view's limit cuts the rest" }
        lines.append(footer + ")")
        return lines.joined(separator: "\n")
    }

    private static func summaryLine(_ summaries: [BaseResult.Summary]) -> String {
        "summaries: " + summaries.map { "\($0.property) \($0.name) = \(cellText($0.value, inTable: false))" }.joined(separator: "; ")
    }

    // MARK: Markdown and CSV

    /// A markdown table as the table view shows it; links as wikilinks, so the table works pasted in a note.
    static func markdown(_ result: BaseResult) -> String {
        let header = "| " + result.columns.map { escapePipes($0.displayName) }.joined(separator: " | ") + " |"
        let rule = "| " + result.columns.map { _ in "---" }.joined(separator: " | ") + " |"
        let lines = result.rows.map { row in "| " + row.cells.map { escapePipes(cellText($0, inTable: true, markdown: true)) }.joined(separator: " | ") + " |" }
        return ([header, rule] + lines).joined(separator: "\n")
    }

    static func csv(_ result: BaseResult) -> String {
        var lines = [result.columns.map { csvField($0.displayName) }.joined(separator: ",")]
        for row in result.rows { lines.append(row.cells.map { csvField(cellText($0, inTable: false)) }.joined(separator: ",")) }
        return lines.joined(separator: "\r\n")
    }

    // MARK: Values as text

    static func cellText(_ cell: BaseResult.Cell, inTable: Bool, markdown: Bool = false) -> String {
        switch cell {
        case .value(let value): return markdown ? markdownText(value) : plain(value)
        case .error(let message): return "⚠ " + message
        }
    }

    /// What a table cell shows: links by their display text or target, lists joined by ", ", dates as
    /// Obsidian shows them, empty for null.
    static func plain(_ value: BaseValue) -> String {
        switch value {
        case .null: return ""
        case .link(let link): return link.shownText
        case .file(let file): return VaultPath.fileName(of: file.path).description
        case .list(let items): return items.map(plain).joined(separator: ", ")
        case .date(let date): return BaseDates.text(of: date)
        default: return BaseText.string(value)
        }
    }

    private static func markdownText(_ value: BaseValue) -> String {
        switch value {
        case .link(let link) where !link.isExternal:
            let target = link.subpath.map { link.target + "#" + $0 } ?? link.target
            return link.display.map { "[[\(target)|\($0)]]" } ?? "[[\(target)]]"
        case .link(let link): return link.display.map { "[\($0)](\(link.target))" } ?? link.target
        case .file(let file): return "[[\(file.path)]]"
        case .list(let items): return items.map(markdownText).joined(separator: ", ")
        default: return plain(value).replacingOccurrences(of: "\n", with: " ")
        }
    }

    private static func escapePipes(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }

    private static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// `rhizome base --json`: the view, its columns, rows with typed values keyed by column, groups,
/// summaries, and the total before `limit`.
struct BaseJSONPayload: Encodable {
    struct View: Encodable {
        var name: String
        var type: String
    }
    struct Column: Encodable {
        var property: String
        var displayName: String
    }
    struct Row: Encodable {
        var path: String
        var values: [String: BaseJSONValue]
    }
    struct Group: Encodable {
        var key: BaseJSONValue
        var rows: [Row]
        var summaries: [Summary]
    }
    struct Summary: Encodable {
        var property: String
        var name: String
        var value: BaseJSONValue
    }

    var view: View
    var columns: [Column]
    var rows: [Row]
    var groups: [Group]?
    var summaries: [Summary]
    var total: Int
    var truncated: Bool

    init(_ result: BaseResult) {
        view = View(name: result.viewName, type: result.viewType)
        columns = result.columns.map { Column(property: $0.property, displayName: $0.displayName) }
        let properties = result.columns.map(\.property)
        func row(_ row: BaseResult.Row) -> Row {
            var values: [String: BaseJSONValue] = [:]
            for (property, cell) in zip(properties, row.cells) { values[property] = BaseJSONValue(cell) }
            return Row(path: row.path, values: values)
        }
        func summary(_ summary: BaseResult.Summary) -> Summary {
            Summary(property: summary.property, name: summary.name, value: BaseJSONValue(summary.value))
        }
        rows = result.rows.map(row)
        groups = result.groups?.map { Group(key: BaseJSONValue(.value($0.key)), rows: $0.rows.map(row), summaries: $0.summaries.map(summary)) }
        summaries = result.summaries.map(summary)
        total = result.total
        truncated = result.truncated
    }
}

/// A value in JSON: text, number, boolean and null as themselves, dates as ISO 8601 text, durations as
/// `{"duration": text, "milliseconds": n}`, links as `{"path", "display"}` (path: the resolved vault path,
/// else the link text), files as `{"path"}`, lists and objects as such, a cell's error as `{"error": message}`.
struct BaseJSONValue: Encodable {
    let cell: BaseResult.Cell

    init(_ cell: BaseResult.Cell) { self.cell = cell }

    func encode(to encoder: Encoder) throws {
        switch cell {
        case .error(let message):
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(message, forKey: Key("error"))
        case .value(let value):
            try Self.encode(value, to: encoder)
        }
    }

    private static func encode(_ value: BaseValue, to encoder: Encoder) throws {
        switch value {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .boolean(let flag):
            var container = encoder.singleValueContainer()
            try container.encode(flag)
        case .number(let number):
            var container = encoder.singleValueContainer()
            if number.isFinite { try container.encode(number) } else { try container.encode(BaseText.number(number)) }
        case .string(let text), .html(let text), .icon(let text), .image(let text):
            var container = encoder.singleValueContainer()
            try container.encode(text)
        case .date(let date):
            var container = encoder.singleValueContainer()
            try container.encode(BaseDates.isoText(of: date))
        case .duration(let duration):
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(BaseDates.text(of: duration), forKey: Key("duration"))
            try container.encode(duration.totalMilliseconds, forKey: Key("milliseconds"))
        case .link(let link):
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(link.resolvedPath ?? link.target, forKey: Key("path"))
            try container.encode(link.shownText, forKey: Key("display"))
            if let subpath = link.subpath { try container.encode(subpath, forKey: Key("subpath")) }
            try container.encode(link.resolvedPath != nil, forKey: Key("resolved"))
        case .file(let file):
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(file.path, forKey: Key("path"))
        case .regex(let regex):
            var container = encoder.singleValueContainer()
            try container.encode("/\(regex.pattern)/\(regex.flags)")
        case .list(let items):
            var container = encoder.unkeyedContainer()
            for item in items { try container.encode(BaseJSONValue(.value(item))) }
        case .object(let object):
            var container = encoder.container(keyedBy: Key.self)
            for (key, item) in object.entries { try container.encode(BaseJSONValue(.value(item)), forKey: Key(key)) }
        }
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
