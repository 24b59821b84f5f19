import RhizomeCore

/// Result types of index queries. Field names are part of the `--json` contract: add, never rename.

public struct FileRecord: Sendable, Codable, Hashable {
    public var id: Int64
    public var path: String
    public var name: String
    public var folder: String
    public var kind: String
    public var size: Int64?
    /// Modification time, seconds since 1970.
    public var modified: Int64?
    public var realPath: String?
}

public struct LinkRecord: Sendable, Codable, Hashable {
    public var source: String
    /// The resolved target's path, or nil when unresolved.
    @NullEncoded public var target: String?
    public var linkPath: String
    @NullEncoded public var subpath: String?
    @NullEncoded public var display: String?
    public var kind: String
    @NullEncoded public var propertyKey: String?
    public var line: Int
    public var column: Int
    /// An edge from a reference field's id value (`project: PRJ-ALPHA`): Rhizome's, not a link Obsidian draws.
    public var isReference: Bool = false

    private enum CodingKeys: String, CodingKey {
        case source, target, linkPath, subpath, display, kind, propertyKey, line, column, isReference = "reference"
    }
}

public struct NoteDetail: Sendable, Codable {
    public var file: FileRecord
    public var frontmatter: JSONValue?
    public var aliases: [String]
    public var tags: [TagOccurrence]
    public var headings: [Heading]
    public var blocks: [BlockID]
    public var tasks: [TaskItem]
    public var links: [LinkRecord]
    public var backlinks: [LinkRecord]
    public var findings: [Finding]
}

public struct TagCount: Sendable, Codable, Hashable {
    public var tag: String
    /// Occurrences of the tag and its nested children.
    public var count: Int
    /// Notes carrying the tag or a nested child.
    public var notes: Int
}

public struct TaskRecord: Sendable, Codable, Hashable {
    public var path: String
    public var line: Int
    public var status: String
    public var text: String
    public var done: Bool
}

public struct PropertySummary: Sendable, Codable, Hashable {
    public var key: String
    public var notes: Int
    public var types: [String]
}

public struct PropertyValueRecord: Sendable, Codable {
    public var path: String
    public var type: String
    public var value: JSONValue
    public var line: Int
    public var column: Int
}

public struct SearchHit: Sendable, Codable, Hashable {
    public var path: String
    public var snippet: String
    /// BM25 rank (lower is better), title weighted ×10.
    public var score: Double
}

public struct NeighborRecord: Sendable, Codable, Hashable {
    public var path: String
    public var distance: Int
}

public struct GraphExport: Sendable, Codable {
    public struct Node: Sendable, Codable, Hashable {
        public var path: String
        public var kind: String
    }

    public struct Edge: Sendable, Codable, Hashable {
        public var source: String
        public var target: String
        public var count: Int
    }

    public var nodes: [Node]
    public var edges: [Edge]
}

public struct VaultStats: Sendable, Codable, Hashable {
    public var notes: Int
    public var canvases: Int
    public var attachments: Int
    public var links: Int
    public var resolvedLinks: Int
    public var unresolvedLinks: Int
    public var tags: Int
    public var openTasks: Int
    public var doneTasks: Int
    /// Tasks with a custom status character (`[>]`, `[-]`, `[?]` …).
    public var otherTasks: Int
    public var findings: Int
    public var lastIndexedAt: String?
}

public struct SQLResult: Sendable, Codable {
    public var columns: [String]
    public var rows: [[JSONValue]]
}

/// A JSON value, for frontmatter and `rhizome sql` output.
public enum JSONValue: Sendable, Hashable, Codable {
    case null
    case bool(Bool)
    /// A whole number, kept exact (64-bit values such as nanosecond times do not fit a Double).
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Int64.self) { self = .integer(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value):
            if value.rounded() == value, abs(value) < 9.0e15 { try container.encode(Int64(value)) } else { try container.encode(value) }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// Compact text for tables.
    public var displayText: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .integer(let value): return String(value)
        case .number(let value):
            return value.rounded() == value && abs(value) < 9.0e15 ? String(Int64(value)) : String(value)
        case .string(let value): return value
        case .array(let values): return "[" + values.map(\.displayText).joined(separator: ", ") + "]"
        case .object(let values): return "{" + values.keys.sorted().map { "\($0): \(values[$0]!.displayText)" }.joined(separator: ", ") + "}"
        }
    }
}
