import MCP
import RhizomeCore

/// A tool call's arguments, checked against the tool's input schema before the tool runs
/// (`validated(_:for:)`), then read with typed accessors.
struct ToolArguments {
    let values: [String: Value]

    init(_ values: [String: Value]?) {
        self.values = values ?? [:]
    }

    /// The arguments, if they fit `tool`'s input schema: every required argument given, no argument the
    /// schema does not list (`additionalProperties: false`), each of its declared type (`integer` takes
    /// a whole JSON number, never text), within `enum`, `minimum` and `maximum`. `null` for an optional
    /// argument is the same as leaving it out. Otherwise an `invalid-argument` error that names the
    /// argument, what it must be and what it was.
    static func validated(_ values: [String: Value]?, for tool: Tool) throws(ToolError) -> ToolArguments {
        let values = values ?? [:]
        guard case .object(let schema) = tool.inputSchema else { return ToolArguments(values) }
        let properties = schema["properties"]?.objectValue ?? [:]
        let required = schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? []
        if schema["additionalProperties"] == .bool(false) {
            let unknown = values.keys.filter { properties[$0] == nil }.sorted()
            if let name = unknown.first {
                let known = properties.keys.sorted().map { "`\($0)`" }.joined(separator: ", ")
                throw .invalidArgument("`\(name)` is not an argument of `\(tool.name)`" + (unknown.count > 1 ? " (nor is " + unknown.dropFirst().map { "`\($0)`" }.joined(separator: ", ") + ")" : "")
                    + "; its arguments are " + (known.isEmpty ? "none" : known))
            }
        }
        for name in required where values[name] == nil || values[name] == .null {
            throw .invalidArgument("`\(name)` is required by `\(tool.name)`")
        }
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
            guard value != .null, case .object(let property)? = properties[name] else { continue }
            try check(value, named: name, against: property)
        }
        return ToolArguments(values)
    }

    /// One argument against its property schema.
    private static func check(_ value: Value, named name: String, against property: [String: Value]) throws(ToolError) {
        if let type = property["type"]?.stringValue {
            let fits: Bool
            switch type {
            case "string": fits = value.stringValue != nil
            case "integer": fits = value.intValue != nil || value.doubleValue.map { $0.rounded() == $0 && abs($0) < 9e15 } == true
            case "number": fits = value.intValue != nil || value.doubleValue != nil
            case "boolean": fits = value.boolValue != nil
            case "object": fits = value.objectValue != nil
            case "array": fits = value.arrayValue != nil
            default: fits = true
            }
            guard fits else { throw .invalidArgument("`\(name)` must be \(describeType(type)), not \(describe(value))") }
        }
        if let choices = property["enum"]?.arrayValue, !choices.contains(value) {
            let listed = choices.map { $0.stringValue ?? "\($0)" }.joined(separator: ", ")
            throw .invalidArgument("`\(name)` must be one of: \(listed); not \(describe(value))")
        }
        let number = value.intValue.map(Double.init) ?? value.doubleValue
        if let number, let minimum = property["minimum"].flatMap(numeric), number < minimum {
            throw .invalidArgument("`\(name)` must be at least \(format(minimum)), not \(describe(value))")
        }
        if let number, let maximum = property["maximum"].flatMap(numeric), number > maximum {
            throw .invalidArgument("`\(name)` must be at most \(format(maximum)), not \(describe(value))")
        }
    }

    private static func numeric(_ value: Value) -> Double? { value.intValue.map(Double.init) ?? value.doubleValue }

    private static func format(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 9e15 ? String(Int(number)) : String(number)
    }

    private static func describeType(_ type: String) -> String {
        switch type {
        case "string": return "text (a JSON string)"
        case "integer": return "a whole number"
        case "number": return "a number"
        case "boolean": return "true or false"
        case "object": return "an object"
        case "array": return "a list"
        default: return type
        }
    }

    /// What a value is, for messages: `the number 5`, `the text "5"`.
    private static func describe(_ value: Value) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return "\(flag)"
        case .int(let number): return "the number \(number)"
        case .double(let number): return "the number \(format(number))"
        case .string(let text): return "the text \"\(text.count > 40 ? String(text.prefix(40)) + "…" : text)\""
        case .data: return "binary data"
        case .array: return "a list"
        case .object: return "an object"
        }
    }

    func string(_ name: String) throws(ToolError) -> String {
        guard let value = optionalString(name), !value.isEmpty else { throw .invalidArgument("`\(name)` is required (a non-empty string)") }
        return value
    }

    func optionalString(_ name: String) -> String? {
        values[name]?.stringValue
    }

    func int(_ name: String, default defaultValue: Int, in range: ClosedRange<Int>) throws(ToolError) -> Int {
        guard let value = values[name], value != .null else { return defaultValue }
        let number: Int? = value.intValue ?? value.doubleValue.flatMap { $0.rounded() == $0 ? Int(exactly: $0) : nil }
            ?? value.stringValue.flatMap { Int($0) }
        guard let number, range.contains(number) else {
            throw .invalidArgument("`\(name)` must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    func bool(_ name: String, default defaultValue: Bool) throws(ToolError) -> Bool {
        guard let value = values[name], value != .null else { return defaultValue }
        if let flag = value.boolValue { return flag }
        if let text = value.stringValue, let flag = Bool(text) { return flag }
        throw .invalidArgument("`\(name)` must be true or false")
    }

    func choice(_ name: String, of choices: [String], default defaultValue: String) throws(ToolError) -> String {
        guard let value = values[name], value != .null else { return defaultValue }
        guard let text = value.stringValue, choices.contains(text) else {
            throw .invalidArgument("`\(name)` must be one of: \(choices.joined(separator: ", "))")
        }
        return text
    }
}

/// Why a tool call has no answer; sent to the agent as an error result (`isError: true`), never thrown
/// across the protocol.
enum ToolError: RhizomeError {
    case invalidArgument(String)
    case noteNotFound(String, suggestions: [String])
    case unknownTool(String)
    /// The first index of the vault has not finished yet.
    case notReady(String)
    case failed(code: String, message: String)

    var code: String {
        switch self {
        case .invalidArgument: return "invalid-argument"
        case .noteNotFound: return "note-not-found"
        case .unknownTool: return "unknown-tool"
        case .notReady: return "index-not-ready"
        case .failed(let code, _): return code
        }
    }

    var message: String { explained.text }
    var description: String { explained.text }
    /// How to fix it, when that can be said apart (the failed call's `fix`).
    var fix: String? { explained.fix }
    /// The agent's to fix, except an index still being built or a failure passed on from below.
    var isUserMistake: Bool {
        switch self {
        case .invalidArgument, .noteNotFound, .unknownTool: return true
        case .notReady, .failed: return false
        }
    }

    private var explained: ErrorMessage {
        switch self {
        case .invalidArgument(let text): return ErrorMessage(text)
        case .noteNotFound(let argument, let suggestions):
            return ErrorMessage(
                "no note matches `\(argument)` (resolved as a wikilink would be)", "; ",
                suggestions.isEmpty ? "use the `search` tool to find it" : "did you mean: " + suggestions.joined(separator: ", "))
        case .unknownTool(let name): return ErrorMessage("there is no tool `\(name)`", "; ", "`tools/list` lists them")
        case .notReady(let text): return ErrorMessage(text)
        case .failed(_, let message): return ErrorMessage(message)
        }
    }
}
