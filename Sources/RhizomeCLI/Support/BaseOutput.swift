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

    /// A markdown table as the table view shows it (a heading and a table per group when the view groups);
    /// links as wikilinks, so the table works pasted in a note.
    static func markdown(_ result: BaseResult) -> String {
        let header = "| " + result.columns.map { escapePipes($0.displayName) }.joined(separator: " | ") + " |"
        let rule = "| " + result.columns.map { _ in "---" }.joined(separator: " | ") + " |"
        func table(_ rows: [BaseResult.Row]) -> String {
            let lines = rows.map { row in "| " + row.cells.map { escapePipes(cellText($0, inTable: true, markdown: true)) }.joined(separator: " | ") + " |" }
            return ([header, rule] + lines).joined(separator: "\n")
        }
        guard let groups = result.groups else { return table(result.rows) }
        return groups.map { group in
            "### " + (group.key.isEmpty ? "(none)" : markdownText(group.key)) + "\n\n" + table(group.rows)
        }.joined(separator: "\n\n")
    }

    /// CSV of the table; a grouped view starts each row with its group's key, in group order.
    static func csv(_ result: BaseResult) -> String {
        let groupColumn = result.groups == nil ? [] : ["group"]
        var lines = [(groupColumn + result.columns.map(\.displayName)).map(CSVField.escaped).joined(separator: ",")]
        let sections = result.groups.map { $0.map { (key: Optional($0.key), rows: $0.rows) } } ?? [(key: nil, rows: result.rows)]
        for section in sections {
            let prefix = section.key.map { [CSVField.escaped(plain($0))] } ?? []
            for row in section.rows {
                lines.append((prefix + row.cells.map { CSVField.escaped(cellText($0, inTable: false)) }).joined(separator: ","))
            }
        }
        return lines.joined(separator: "\r\n")
    }

    // MARK: Values as text

    static func cellText(_ cell: BaseResult.Cell, inTable: Bool, markdown: Bool = false) -> String {
        switch cell {
        case .value(let value):
            // A line break inside a value would break the table's rows.
            return markdown ? markdownText(value) : plain(value).replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\n", with: " ")
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
}
