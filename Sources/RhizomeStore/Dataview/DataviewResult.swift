import RhizomeCore

/// The result of a Dataview query over the index: what it shows (`DataviewTable`, whose members it
/// answers as its own: `result.rows`), with the plan that chose the pages and where the time went.
@dynamicMemberLookup
public struct DataviewResult: Sendable {
    public typealias Kind = DataviewTable.Kind
    public typealias Row = DataviewTable.Row
    public typealias Task = DataviewTable.Task

    public var table: DataviewTable
    public var plan: DataviewPlan
    /// Pages the SQL step selected (before the Swift steps).
    public var candidatePages: Int
    /// Milliseconds per stage (`plan and SQL`, `load pages`, `data commands`, `columns`), for `--explain`.
    public var timings: [(stage: String, milliseconds: Double)] = []

    public subscript<Member>(dynamicMember member: WritableKeyPath<DataviewTable, Member>) -> Member {
        get { table[keyPath: member] }
        set { table[keyPath: member] = newValue }
    }
}

extension DataviewResult {
    /// A value as plain JSON: dates and durations as ISO 8601 text, links as `{path, display, subpath, embed}`,
    /// external links (`elink`) as `{url, display}`.
    public static func json(_ value: DataviewValue) -> JSONValue {
        switch value {
        case .null: return .null
        case .boolean(let flag): return .bool(flag)
        case .number(let number): return number.isFinite ? .number(number) : .string(DataviewNumber.text(number))
        case .string(let text): return .string(text)
        case .date(let date): return .string(date.isoText)
        case .duration(let duration): return .string(duration.isoText)
        case .link(let link):
            return .object([
                "path": .string(link.path), "display": .string(link.shownText),
                "subpath": link.subpath.map(JSONValue.string) ?? .null, "embed": .bool(link.isEmbed),
            ])
        case .list(let items): return .array(items.map(json))
        case .object(let object):
            var result: [String: JSONValue] = [:]
            for (key, item) in object.pairs { result[key] = json(item) }
            return .object(result)
        case .function: return .string("<function>")
        case .externalLink(let link):
            return .object(["url": .string(link.url), "display": .string(link.shownText)])
        }
    }
}

/// The JSON form of a result (`rhizome query --json`, the MCP `dataview` tool): `kind`, `columns`, `rows`
/// (arrays of values, the id first unless WITHOUT ID), `tasks`, and `plan` when asked for.
public struct DataviewJSONPayload: Encodable, Sendable {
    public struct Task: Encodable, Sendable {
        var path: String
        var line: Int
        var status: String
        var text: String
        var depth: Int
        /// The GROUP BY key (absent when the query does not group).
        var group: JSONValue?
    }
    public struct Plan: Encodable, Sendable {
        var sql: String
        var pushedDown: [String]
        var evaluatedInSwift: [String]
        var candidatePages: Int
        var droppedRows: Int
        var droppedRowErrors: [String]
    }
    var kind: String
    var columns: [String]
    public internal(set) var rows: [[JSONValue]]
    var tasks: [Task]
    var plan: Plan?

    public init(_ result: DataviewResult, explain: Bool) {
        kind = result.kind.rawValue
        columns = result.columns
        rows = result.rows.map { row in ((row.id.map { [$0] } ?? []) + row.values).map(DataviewResult.json) }
        tasks = result.tasks.map {
            .init(path: $0.path, line: $0.line, status: $0.status, text: $0.text, depth: $0.depth, group: $0.group.map(DataviewResult.json))
        }
        plan = explain ? .init(
            sql: result.plan.sql, pushedDown: result.plan.pushedDown, evaluatedInSwift: result.plan.evaluatedInSwift,
            candidatePages: result.candidatePages, droppedRows: result.droppedRows, droppedRowErrors: result.droppedRowErrors) : nil
    }

    /// At most `limit` rows and tasks; says whether any were cut.
    public mutating func cap(_ limit: Int) -> Bool {
        let truncated = rows.count > limit || tasks.count > limit
        rows = Array(rows.prefix(limit))
        tasks = Array(tasks.prefix(limit))
        return truncated
    }
}
