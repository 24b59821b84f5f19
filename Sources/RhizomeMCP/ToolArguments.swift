import MCP

/// A tool call's arguments, read with the checks the tool's input schema promises.
struct ToolArguments {
    let values: [String: Value]

    init(_ values: [String: Value]?) {
        self.values = values ?? [:]
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
enum ToolError: Error, Sendable {
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

    var message: String {
        switch self {
        case .invalidArgument(let text): return text
        case .noteNotFound(let argument, let suggestions):
            return "no note matches `\(argument)` (resolved as a wikilink would be)"
                + (suggestions.isEmpty ? "; use the `search` tool to find it" : "; did you mean: " + suggestions.joined(separator: ", "))
        case .unknownTool(let name): return "there is no tool `\(name)`; `tools/list` lists them"
        case .notReady(let text): return text
        case .failed(_, let message): return message
        }
    }
}
