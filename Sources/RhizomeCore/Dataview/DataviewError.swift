import Foundation

/// Why a Dataview query could not be parsed or evaluated. Syntax errors point at the line and column of
/// the query (1-based, in characters) and say what was expected there.
public enum DataviewError: RhizomeError, Equatable, LocalizedError {
    /// The query text does not parse. `sourceLine` is the query line, for a caret under the column.
    case syntax(message: String, line: Int, column: Int, sourceLine: String)
    /// A function the engine does not implement (`names` the supported ones in the message).
    case unknownFunction(name: String, line: Int, column: Int, sourceLine: String)
    /// Evaluating an expression failed (wrong argument types, an invalid regular expression …).
    case evaluation(message: String)

    /// The stable code for machine output.
    public var code: String {
        switch self {
        case .syntax: return "query-syntax"
        case .unknownFunction: return "query-unknown-function"
        case .evaluation: return "query-evaluation"
        }
    }

    public var errorDescription: String? {
        switch self {
        case .syntax(let message, let line, let column, _):
            return "query:\(line):\(column): \(message)"
        case .unknownFunction(let name, let line, let column, _):
            return "query:\(line):\(column): unknown function `\(name)`; supported: "
                + DataviewFunctions.names.sorted().joined(separator: ", ")
        case .evaluation(let message):
            return "query: \(message)"
        }
    }

    public var description: String { errorDescription ?? code }

    /// A query is the user's to fix.
    public var isUserMistake: Bool { true }

    /// The error followed by the query line and a caret under the column, like a compiler diagnostic.
    public var diagnostic: String {
        let description = errorDescription ?? "\(self)"
        switch self {
        case .syntax(_, _, let column, let sourceLine), .unknownFunction(_, _, let column, let sourceLine):
            var caretLine = ""
            for character in sourceLine.prefix(column - 1) { caretLine.append(character == "\t" ? "\t" : " ") }
            return "\(description)\n    \(sourceLine)\n    \(caretLine)^"
        case .evaluation:
            return description
        }
    }
}
