import Foundation
import RhizomeCore
import RhizomeStore

/// How a Dataview result prints: an aligned table for people, markdown to paste into a note (and for
/// `--render`), CSV, and the versioned JSON payload.
enum DataviewOutput {
    // MARK: Terminal

    static func text(_ result: DataviewResult) -> String {
        switch result.kind {
        case .task:
            if result.tasks.isEmpty { return "(no tasks)" }
            let lines = grouped(result.tasks, heading: { key, size in "\(DataviewText.terminal(key)) (\(size))" }) { task in
                String(repeating: "    ", count: task.depth) + "- [\(task.status)] \(task.text)  (\(task.path):\(task.line))"
            }
            return lines.joined(separator: "\n") + "\n(\(count(result.tasks.count, "task")))"
        case .list, .table:
            var table = TextTable(headers: result.columns)
            for row in result.rows { table.add(cells: cells(row).map(DataviewText.terminal)) }
            return table.render() + "\n(\(count(result.rows.count, result.kind == .list ? "result" : "row")))"
        }
    }

    // MARK: Markdown

    /// A markdown table (TABLE), list (LIST) or task list (TASK), as Dataview would show the result.
    static func markdown(_ result: DataviewResult) -> String {
        switch result.kind {
        case .task:
            if result.tasks.isEmpty { return "Dataview: no results to show for task query." }
            // A grouped result has a heading per key with its count, as Dataview's export has.
            return grouped(result.tasks, heading: { key, size in "## \(DataviewText.markdown(key, inTable: false)) (\(size))" }) { task in
                String(repeating: "    ", count: task.depth) + "- [\(task.status)] " + task.text.replacingOccurrences(of: "\n", with: " ")
            }.joined(separator: "\n")
        case .list:
            if result.rows.isEmpty { return "Dataview: no results to show for list query." }
            return result.rows.map { row in
                var parts: [String] = []
                if let id = row.id { parts.append(DataviewText.markdown(id, inTable: false)) }
                if let value = row.values.first { parts.append(DataviewText.markdown(value, inTable: false)) }
                return "- " + parts.joined(separator: ": ")
            }.joined(separator: "\n")
        case .table:
            if result.rows.isEmpty { return "Dataview: no results to show for table query." }
            let header = "| " + result.columns.map { DataviewText.escapingPipes($0) }.joined(separator: " | ") + " |"
            let rule = "| " + result.columns.map { _ in "---" }.joined(separator: " | ") + " |"
            let lines = result.rows.map { row in "| " + cells(row).map { DataviewText.markdown($0) }.joined(separator: " | ") + " |" }
            return ([header, rule] + lines).joined(separator: "\n")
        }
    }

    /// Lines for `tasks`, with a heading line before each group's first task when the query grouped.
    private static func grouped(
        _ tasks: [DataviewResult.Task], heading: (DataviewValue, Int) -> String, line: (DataviewResult.Task) -> String
    ) -> [String] {
        var lines: [String] = []
        var index = 0
        while index < tasks.count {
            guard let key = tasks[index].group else {
                lines.append(line(tasks[index]))
                index += 1
                continue
            }
            var end = index
            while end < tasks.count, let next = tasks[end].group, DataviewValue.compare(next, key) == 0 { end += 1 }
            if !lines.isEmpty { lines.append("") }
            lines.append(heading(key, end - index))
            lines += tasks[index..<end].map(line)
            index = end
        }
        return lines
    }

    // MARK: CSV

    /// RFC 4180 CSV: links as their vault paths (external links as their addresses), dates in ISO form, lists joined by `, `.
    static func csv(_ result: DataviewResult) -> String {
        var lines: [[String]] = [result.columns]
        switch result.kind {
        case .task:
            lines += result.tasks.map { [$0.path, String($0.line), $0.status, $0.text] }
        case .list, .table:
            lines += result.rows.map { cells($0).map(csvText) }
        }
        return lines.map { $0.map(CSVField.escaped).joined(separator: ",") }.joined(separator: "\r\n") + "\r\n"
    }

    private static func csvText(_ value: DataviewValue) -> String {
        switch value {
        case .null: return ""
        case .link(let link): return link.path + (link.subpath.map { "#" + $0 } ?? "")
        case .externalLink(let link): return link.url
        case .date(let date): return date.isoText
        case .list(let items): return items.map(csvText).joined(separator: ", ")
        default: return DataviewText.plain(value)
        }
    }

    // MARK: Plan

    static func explanation(_ result: DataviewResult) -> String {
        var lines = ["plan:", "  SQL: " + result.plan.sql]
        lines += result.plan.pushedDown.map { "  pushed down: " + $0 }
        lines += result.plan.evaluatedInSwift.map { "  in Swift: " + $0 }
        lines.append("  candidate pages from SQL: \(result.candidatePages)")
        lines.append("  time: " + result.timings.map { String(format: "%@ %.1f ms", $0.stage, $0.milliseconds) }.joined(separator: " · "))
        if result.droppedRows > 0 {
            lines.append("  rows dropped because an expression failed on them: \(result.droppedRows)")
            lines += result.droppedRowErrors.map { "    " + $0 }
        }
        return lines.joined(separator: "\n")
    }

    // MARK: Helpers

    private static func cells(_ row: DataviewResult.Row) -> [DataviewValue] {
        (row.id.map { [$0] } ?? []) + row.values
    }

    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
