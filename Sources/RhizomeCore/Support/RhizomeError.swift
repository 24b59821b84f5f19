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
}

extension RhizomeError {
    public var diagnostic: String { description }
}
