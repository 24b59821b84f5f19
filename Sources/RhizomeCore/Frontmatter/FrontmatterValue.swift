/// Rhizome's own typed YAML value, with the source position of every node and key.
/// Produced by `YAMLParser` from libyaml events; independent of any YAML library's types.
public indirect enum FrontmatterValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// A number; `text` keeps the source spelling (`007`, `1e3`) for faithful rewriting.
    case number(Double, text: String)
    case string(String)
    /// A plain (unquoted) scalar that looks like an ISO date or date-time (`2024-01-31`).
    case date(String)
    case list([FrontmatterNode])
    case map([FrontmatterEntry])

    /// The scalar as text, or nil for lists and maps.
    public var scalarText: String? {
        switch self {
        case .null: return nil
        case .bool(let value): return value ? "true" : "false"
        case .number(_, let text): return text
        case .string(let text), .date(let text): return text
        case .list, .map: return nil
        }
    }

    /// The type name used in output (`string`, `number`, `bool`, `date`, `null`, `list`, `map`).
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "bool"
        case .number: return "number"
        case .string: return "string"
        case .date: return "date"
        case .list: return "list"
        case .map: return "map"
        }
    }
}

/// A value with where it starts in the file (1-based line and column).
public struct FrontmatterNode: Sendable, Hashable {
    public var value: FrontmatterValue
    public var line: Int
    public var column: Int
    /// True for single- or double-quoted scalars (a quoted `"[[Note]]"` is a link; a plain one is not).
    public var isQuoted: Bool

    public init(value: FrontmatterValue, line: Int, column: Int, isQuoted: Bool = false) {
        self.value = value
        self.line = line
        self.column = column
        self.isQuoted = isQuoted
    }
}

/// One `key: value` pair of a mapping, with the key's position.
public struct FrontmatterEntry: Sendable, Hashable {
    public var key: String
    public var keyLine: Int
    public var keyColumn: Int
    public var value: FrontmatterNode

    public init(key: String, keyLine: Int, keyColumn: Int, value: FrontmatterNode) {
        self.key = key
        self.keyLine = keyLine
        self.keyColumn = keyColumn
        self.value = value
    }
}

extension FrontmatterValue {
    /// Plain-Swift form for JSON output: String, Double/Int, Bool, NSNull-free (`nil` → `Optional.none`).
    public var jsonObject: Any {
        switch self {
        case .null: return Optional<Any>.none as Any
        case .bool(let value): return value
        case .number(let value, _):
            if value.rounded() == value, abs(value) < 9.0e15 { return Int(value) }
            return value
        case .string(let text), .date(let text): return text
        case .list(let nodes): return nodes.map { $0.value.jsonObject }
        case .map(let entries):
            var object: [String: Any] = [:]
            for entry in entries { object[entry.key] = entry.value.value.jsonObject }
            return object
        }
    }
}
