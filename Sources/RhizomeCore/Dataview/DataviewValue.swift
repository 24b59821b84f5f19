import Foundation

/// A value of Dataview's query language: what fields hold and what expressions evaluate to.
///
/// Types, their order when values of different types are compared, and truthiness follow Dataview
/// (`src/data-model/value.ts`): `null` sorts first, values of different types order by type name, strings
/// collate as `localeCompare` does in the root locale (`a < A < b`), lists compare element-wise.
public enum DataviewValue: Sendable {
    case null
    case boolean(Bool)
    case number(Double)
    case string(String)
    indirect case date(DataviewDate)
    indirect case duration(DataviewDuration)
    indirect case link(DataviewLink)
    case list([DataviewValue])
    /// Keys in insertion order (as written in frontmatter), looked up by exact key.
    case object(DataviewObject)
    /// A lambda `(x) => …` (only as an argument to `map`, `filter`, `any`, `all`, `sort`).
    indirect case function(DataviewLambda)
    /// A link to a web address, from `elink(url, display)`: Dataview's external-link widget (type `widget`).
    indirect case externalLink(DataviewExternalLink)

    /// Dataview's type names (`typeof`).
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .boolean: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .date: return "date"
        case .duration: return "duration"
        case .link: return "link"
        case .list: return "array"
        case .object: return "object"
        case .function: return "function"
        case .externalLink: return "widget"
        }
    }

    /// Dataview's truthiness: `null`, `false`, `0`, `""`, an empty list or object are false (`NaN` is
    /// true: Dataview tests `number != 0`).
    public var isTruthy: Bool {
        switch self {
        case .null: return false
        case .boolean(let flag): return flag
        case .number(let number): return number != 0
        case .string(let text): return !text.isEmpty
        case .date: return true
        case .duration(let duration): return duration.totalMilliseconds != 0
        case .link(let link): return !link.path.isEmpty
        case .list(let items): return !items.isEmpty
        case .object(let object): return !object.isEmpty
        case .function, .externalLink: return true
        }
    }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The elements of a list; any other value as a one-element list; `null` as an empty list.
    public var asList: [DataviewValue] {
        switch self {
        case .list(let items): return items
        case .null: return []
        default: return [self]
        }
    }
}

/// An ordered map: the keys of a frontmatter object or `{a: 1}` literal, in order.
public struct DataviewObject: Sendable {
    /// Entries in insertion order. Pages and rows have a few dozen keys at most, so a lookup scans them
    /// (no hashing, one allocation per object); past `indexThreshold` keys a dictionary index is kept too.
    private var entries: [(key: String, value: DataviewValue)] = []
    private var index: [String: Int]? = nil
    private static let indexThreshold = 24

    public init() {}

    public init(capacity: Int) {
        entries.reserveCapacity(capacity)
    }

    public init(_ pairs: [(String, DataviewValue)]) {
        for (key, value) in pairs { self[key] = value }
    }

    public subscript(key: String) -> DataviewValue? {
        get { position(of: key).map { entries[$0].value } }
        set {
            if let newValue {
                if let position = position(of: key) {
                    entries[position].value = newValue
                } else {
                    entries.append((key, newValue))
                    if index != nil {
                        index![key] = entries.count - 1
                    } else if entries.count > Self.indexThreshold {
                        index = Dictionary(entries.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { first, _ in first })
                    }
                }
            } else if let position = position(of: key) {
                entries.remove(at: position)
                if index != nil {
                    index = Dictionary(entries.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { first, _ in first })
                }
            }
        }
    }

    public var isEmpty: Bool { entries.isEmpty }
    public var count: Int { entries.count }
    public var keys: [String] { entries.map(\.key) }
    public var pairs: [(key: String, value: DataviewValue)] { entries }
    public var values: [DataviewValue] { entries.map(\.value) }

    private func position(of key: String) -> Int? {
        if let index { return index[key] }
        return entries.firstIndex { $0.key == key }
    }
}

/// A lambda value: parameter names and a body evaluated with them bound.
public struct DataviewLambda: Sendable {
    public var parameters: [String]
    public var body: DataviewExpression
    /// Lambda parameters in scope where this lambda was written (nested lambdas see their outer ones).
    public var captured: [String: DataviewValue] = [:]

    public init(parameters: [String], body: DataviewExpression) {
        self.parameters = parameters
        self.body = body
    }
}

// MARK: Equality and order

extension DataviewValue: Equatable {
    public static func == (lhs: DataviewValue, rhs: DataviewValue) -> Bool {
        compare(lhs, rhs) == 0
    }
}

extension DataviewValue {
    /// The rank of each type when values of different types are compared: `null` first, then by type
    /// name (`array < boolean < date < duration < function < link < number < object < string < widget`), as
    /// Dataview's `compareValue` does.
    private var typeRank: Int {
        switch self {
        case .null: return 0
        case .list: return 1
        case .boolean: return 2
        case .date: return 3
        case .duration: return 4
        case .function: return 5
        case .link: return 6
        case .number: return 7
        case .object: return 8
        case .string: return 9
        case .externalLink: return 10
        }
    }

    /// A total order over values: negative, zero or positive. Used by comparisons, `=`, `SORT`, `GROUP BY`.
    public static func compare(_ lhs: DataviewValue, _ rhs: DataviewValue) -> Int {
        switch (lhs, rhs) {
        case (.null, .null): return 0
        case (.number(let a), .number(let b)): return a < b ? -1 : (a > b ? 1 : 0)
        case (.string(let a), .string(let b)): return compareText(a, b)
        case (.boolean(let a), .boolean(let b)): return a == b ? 0 : (a ? 1 : -1)
        case (.date(let a), .date(let b)): return a.compare(b)
        case (.duration(let a), .duration(let b)):
            let x = a.totalMilliseconds, y = b.totalMilliseconds
            return x < y ? -1 : (x > y ? 1 : 0)
        case (.link(let a), .link(let b)):
            let byPath = compareText(a.path, b.path)
            return byPath != 0 ? byPath : compareText(a.subpath ?? "", b.subpath ?? "")
        case (.list(let a), .list(let b)):
            for (x, y) in zip(a, b) {
                let order = compare(x, y)
                if order != 0 { return order }
            }
            return a.count < b.count ? -1 : (a.count > b.count ? 1 : 0)
        case (.object(let a), .object(let b)):
            let keysA = a.keys.sorted(), keysB = b.keys.sorted()
            let byKeys = compare(.list(keysA.map(DataviewValue.string)), .list(keysB.map(DataviewValue.string)))
            if byKeys != 0 { return byKeys }
            for key in keysA {
                let order = compare(a[key]!, b[key]!)
                if order != 0 { return order }
            }
            return 0
        // As Dataview: functions, and widgets such as external links, are all equal to each other.
        case (.function, .function), (.externalLink, .externalLink): return 0
        default:
            let x = lhs.typeRank, y = rhs.typeRank
            return x < y ? -1 : (x > y ? 1 : 0)
        }
    }

    /// Root-locale collation as `localeCompare` gives it: letters compare without case and accents first,
    /// then accents, then lower case before upper case (`"a" < "A" < "b"`); `"a" = "A"` is false.
    static func compareText(_ a: String, _ b: String) -> Int {
        if a == b { return 0 }
        let primary = compareFolded(a, b, options: [.caseInsensitive, .diacriticInsensitive])
        if primary != 0 { return primary }
        let secondary = compareFolded(a, b, options: [.caseInsensitive])
        if secondary != 0 { return secondary }
        // Same letters: lower case first at the first difference in case.
        for (x, y) in zip(a.unicodeScalars, b.unicodeScalars) where x != y {
            return x.properties.isLowercase ? -1 : (y.properties.isLowercase ? 1 : (x.value < y.value ? -1 : 1))
        }
        return a.unicodeScalars.count < b.unicodeScalars.count ? -1 : 1
    }

    private static func compareFolded(_ a: String, _ b: String, options: String.CompareOptions) -> Int {
        if a.utf8.allSatisfy({ $0 < 0x80 }) && b.utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII fast path (no allocation), by the root collation's primary weights: spaces, then
            // punctuation and symbols in their collation order, then digits, then letters without case.
            var left = a.utf8.makeIterator(), right = b.utf8.makeIterator()
            while true {
                switch (left.next(), right.next()) {
                case (nil, nil): return 0
                case (nil, _): return -1
                case (_, nil): return 1
                case (let x?, let y?):
                    let wx = asciiPrimaryWeight[Int(x)], wy = asciiPrimaryWeight[Int(y)]
                    if wx != wy { return wx < wy ? -1 : 1 }
                }
            }
        }
        let x = a.folding(options: options, locale: nil), y = b.folding(options: options, locale: nil)
        return x == y ? 0 : (x.unicodeScalars.lexicographicallyPrecedes(y.unicodeScalars) ? -1 : 1)
    }
}

/// Primary collation weights of ASCII bytes in the root locale (ICU/CLDR order): whitespace, then
/// `_ - , ; : ! ? . ' " ( ) [ ] { } @ * / \ & # % ` ^ + < = > | ~ $`, then digits, then letters (case ignored).
private let asciiPrimaryWeight: [UInt8] = {
    var weights = [UInt8](repeating: 0, count: 128)
    var next: UInt8 = 1
    let order = "\t\n\u{0B}\u{0C}\r _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789abcdefghijklmnopqrstuvwxyz"
    for byte in order.utf8 {
        weights[Int(byte)] = next
        next += 1
    }
    for byte in UInt8(ascii: "A")...UInt8(ascii: "Z") { weights[Int(byte)] = weights[Int(byte + 32)] }
    return weights
}()

// MARK: Hashing (GROUP BY keys)

extension DataviewValue: Hashable {
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .boolean(let flag): hasher.combine(flag)
        case .number(let number): hasher.combine(number)
        case .string(let text): hasher.combine(text)
        case .date(let date): hasher.combine(date.comparableMilliseconds)
        case .duration(let duration): hasher.combine(duration.totalMilliseconds)
        case .link(let link): hasher.combine(link.path); hasher.combine(link.subpath)
        case .list(let items): hasher.combine(items.count); for item in items { item.hash(into: &hasher) }
        case .object(let object): hasher.combine(object.keys.sorted())
        case .function: hasher.combine(9)
        case .externalLink: hasher.combine(10)
        }
    }
}
