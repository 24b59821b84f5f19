import Foundation

/// Any JSON value, for tests that read (and write) JSON whose shape they assert on: MCP messages,
/// `--json` lines. Reading a missing key or index gives `.null` instead of trapping, so one `#expect`
/// can walk a path.
public enum AnyJSON: Codable, Equatable, Sendable, CustomStringConvertible,
    ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([AnyJSON])
    case object([String: AnyJSON])

    /// Parses one JSON document; nil when the text is not JSON.
    public static func parse(_ text: String) -> AnyJSON? {
        try? JSONDecoder().decode(AnyJSON.self, from: Data(text.utf8))
    }

    public subscript(key: String) -> AnyJSON {
        if case .object(let members) = self { return members[key] ?? .null }
        return .null
    }

    public subscript(index: Int) -> AnyJSON {
        if case .array(let items) = self, items.indices.contains(index) { return items[index] }
        return .null
    }

    public var string: String? { if case .string(let value) = self { value } else { nil } }
    public var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
    public var double: Double? { if case .number(let value) = self { value } else { nil } }
    public var int: Int? { double.flatMap { Int(exactly: $0) } }
    public var array: [AnyJSON]? { if case .array(let value) = self { value } else { nil } }
    public var object: [String: AnyJSON]? { if case .object(let value) = self { value } else { nil } }
    public var isNull: Bool { self == .null }
    /// The keys of an object (sorted), empty for anything else.
    public var keys: [String] { object?.keys.sorted() ?? [] }

    /// Compact JSON text with sorted keys.
    public var text: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "<unencodable>"
    }

    public var description: String { text }

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([AnyJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: AnyJSON].self))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value):
            if let whole = Int(exactly: value) { try container.encode(whole) } else { try container.encode(value) }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: AnyJSON...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, AnyJSON)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { $1 }))
    }
    public init(nilLiteral: ()) { self = .null }
}
