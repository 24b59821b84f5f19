/// What every error Rhizome reports can say about itself: a stable code for machine output, a message
/// that names what failed and where, how to fix it, and whether the user can (a mistake in what was
/// asked: exit status 2) or Rhizome failed (exit status 70).
public protocol RhizomeError: Error, CustomStringConvertible, Sendable {
    /// Stable, kebab-case identifier (part of the JSON contract).
    var code: String { get }
    /// Whether the user can fix it by asking differently (exit 2) rather than Rhizome failing (exit 70).
    var isUserMistake: Bool { get }
    /// What the command line shows after `error: `: the description, or more where a type has more to
    /// show (a query's line with a caret under the problem).
    var diagnostic: String { get }
    /// How to fix it, when that can be said apart from the message (the description says it too); the
    /// JSON error's `fix` (CLI and MCP), for agents that act on it.
    var fix: String? { get }
}

extension RhizomeError {
    public var diagnostic: String { description }
    public var fix: String? { nil }

    /// This error with what Rhizome was doing when it happened: `error.inContext("indexing `a.md`")` reads
    /// "while indexing `a.md`: …". The code, the exit status and the fix stay the underlying error's.
    public func inContext(_ context: String) -> ErrorInContext {
        ErrorInContext(context: context, underlying: self)
    }
}

/// An error message in its two parts: what went wrong, then how to fix it, and what joins them
/// ("the vault has not been indexed yet" + ". " + "Run `rhizome index` first."). The whole text is the
/// error's description; the fix alone is its `fix`, for agents that act on it.
public struct ErrorMessage: Sendable, Equatable {
    public var problem: String
    public var separator: String
    public var fix: String?

    public init(_ problem: String, _ separator: String, _ fix: String?) {
        self.problem = problem
        self.separator = separator
        self.fix = fix
    }

    /// A message with no fix to give apart.
    public init(_ problem: String) {
        self.init(problem, "", nil)
    }

    public var text: String { fix.map { problem + separator + $0 } ?? problem }
}

/// An error whose messages are built as `ErrorMessage`s: its description and fix come from there.
public protocol ExplainedError: RhizomeError {
    var message: ErrorMessage { get }
}

extension ExplainedError {
    public var description: String { message.text }
    public var fix: String? { message.fix }
}

/// An error from a lower layer, with what it interrupted: a SQLite failure says which note was being
/// indexed, a failed re-index that the change it followed is done.
public struct ErrorInContext: RhizomeError {
    /// What was being done, as it follows "while" ("indexing `Notes/a.md`").
    public let context: String
    public let underlying: any RhizomeError

    public init(context: String, underlying: any RhizomeError) {
        self.context = context
        self.underlying = underlying
    }

    public var code: String { underlying.code }
    public var isUserMistake: Bool { underlying.isUserMistake }
    public var description: String { "while \(context): \(underlying.description)" }
    public var diagnostic: String { "while \(context): \(underlying.diagnostic)" }
    public var fix: String? { underlying.fix }

    /// The innermost error, under every context.
    public var root: any RhizomeError {
        (underlying as? ErrorInContext)?.root ?? underlying
    }
}
