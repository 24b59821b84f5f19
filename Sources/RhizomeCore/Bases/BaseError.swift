import Foundation

/// Why a base could not be evaluated: the `.base` file (or `base` block) does not parse, an expression in it
/// is wrong, a formula is circular, the view does not exist, or a filter fails on a note. It says where
/// (file, line and column inside the file, and the column inside the expression), what, and how to fix it.
public struct BaseError: RhizomeError, LocalizedError, Equatable {
    public enum Kind: String, Sendable {
        case invalidYAML = "base-invalid-yaml"
        case notMapping = "base-not-mapping"
        case invalidViews = "base-invalid-views"
        case syntax = "base-syntax"
        case unknownFunction = "base-unknown-function"
        case circularFormula = "base-circular-formula"
        case tooDeep = "base-too-deep"
        case unknownView = "base-unknown-view"
        case evaluation = "base-evaluation"
        case unreadable = "base-unreadable"
        case notFound = "base-not-found"
        /// Ended by its caller's `shouldStop` (the store turns it into its own `timed-out` or `cancelled`).
        case stopped = "base-stopped"
    }

    public var kind: Kind
    public var message: String
    /// The `.base` file or the note holding the `base` block, vault-relative; nil when not known.
    public var path: String?
    public var line: Int?
    public var column: Int?
    /// For an error inside an expression: the expression, and the 1-based column in it.
    public var expression: String?
    public var expressionColumn: Int?
    public var fix: String?

    public init(
        _ kind: Kind, _ message: String, path: String? = nil, line: Int? = nil, column: Int? = nil,
        expression: String? = nil, expressionColumn: Int? = nil, fix: String? = nil
    ) {
        self.kind = kind
        self.message = message
        self.path = path
        self.line = line
        self.column = column
        self.expression = expression
        self.expressionColumn = expressionColumn
        self.fix = fix
    }

    /// An error inside `source`'s expression at `range` (character offsets within the expression).
    init(_ kind: Kind, _ message: String, path: String?, source: BaseSource, range: Range<Int>?, fix: String? = nil) {
        let offset = range?.lowerBound ?? 0
        let location = source.location(ofOffset: offset)
        self.init(
            kind, message, path: path, line: location.line, column: location.column,
            expression: source.text, expressionColumn: offset + 1, fix: fix)
    }

    public var code: String { kind.rawValue }

    /// A base that is wrong is the user's to fix (exit 2).
    public var isUserMistake: Bool { true }

    public var errorDescription: String? {
        var place = path ?? "base"
        if let line {
            place += ":\(line)"
            if let column { place += ":\(column)" }
        }
        var text = "\(place): \(message)"
        if let fix { text += " (\(fix))" }
        return text
    }

    public var description: String { errorDescription ?? message }

    /// The error as a finding of `validate` (for the `.base` file at `path`), when it is about the base's text.
    public func finding(path: String) -> Finding? {
        guard let code = FindingCode(rawValue: kind.rawValue) else { return nil }
        var text = message
        if let expression, let expressionColumn { text += " (in `\(expression)`, column \(expressionColumn))" }
        return Finding(code: code, severity: .error, message: text, path: path, line: line, column: column, fix: fix)
    }

    /// The error followed by the expression and a caret under the failing part, like a compiler diagnostic.
    public var diagnostic: String {
        let description = self.description
        guard let expression, let expressionColumn, !expression.contains("\n") else { return description }
        let caret = String(repeating: " ", count: max(0, expressionColumn - 1)) + "^"
        return "\(description)\n    \(expression)\n    \(caret)"
    }
}
