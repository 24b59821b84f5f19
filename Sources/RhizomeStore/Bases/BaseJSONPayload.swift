import Foundation
import RhizomeCore

/// `rhizome base --json`: the view, its columns, rows with typed values keyed by column, groups,
/// summaries, and the total before `limit`.
public struct BaseJSONPayload: Encodable, Sendable {
    public struct View: Encodable, Sendable {
        var name: String
        var type: String
    }
    public struct Column: Encodable, Sendable {
        var property: String
        var displayName: String
    }
    public struct Row: Encodable, Sendable {
        var path: String
        var values: [String: BaseJSONValue]
    }
    public struct Group: Encodable, Sendable {
        var key: BaseJSONValue
        var rows: [Row]
        var summaries: [Summary]
    }
    public struct Summary: Encodable, Sendable {
        var property: String
        var name: String
        var value: BaseJSONValue
    }

    public var view: View
    public var columns: [Column]
    public var rows: [Row]
    public var groups: [Group]?
    public var summaries: [Summary]
    public var total: Int
    public var truncated: Bool

    public init(_ result: BaseResult) {
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
public struct BaseJSONValue: Encodable, Sendable {
    let cell: BaseResult.Cell

    public init(_ cell: BaseResult.Cell) { self.cell = cell }

    public func encode(to encoder: Encoder) throws {
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

extension BaseJSONPayload {
    /// Keeps the first `limit` rows (and, in groups, only those rows); true when rows were cut.
    public mutating func cap(_ limit: Int) -> Bool {
        guard rows.count > limit else { return false }
        rows = Array(rows.prefix(limit))
        let kept = Set(rows.map(\.path))
        groups = groups?.map { group in
            var group = group
            group.rows = group.rows.filter { kept.contains($0.path) }
            return group
        }.filter { !$0.rows.isEmpty }
        truncated = true
        return true
    }
}
