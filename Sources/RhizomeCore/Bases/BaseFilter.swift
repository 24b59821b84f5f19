/// A filter of a base or of one of its views, as the `.base` file writes it: a single statement, or an
/// object with one of `and`, `or`, `not` holding a list of statements and nested objects.
///
/// ```yaml
/// filters:
///   or:
///     - file.hasTag("tag")
///     - not:
///         - file.inFolder("Archive")
/// ```
///
/// A view's filters and the base's global filters are joined with AND when the view is evaluated
/// (Obsidian's help, "Bases syntax", Filters).
public indirect enum BaseFilter: Sendable, Hashable {
    /// An expression that is true or false for a file; the lead parses `source.text`.
    case statement(BaseSource)
    /// True when every one is true (true for an empty list).
    case and([BaseFilter])
    /// True when any one is true (false for an empty list).
    case or([BaseFilter])
    /// True when none is true: "None of the following are true" (Obsidian's help, "Views", Conjunctions).
    /// Not the negation of `and`: `not: [a, b]` is `!a && !b`.
    case not([BaseFilter])

    /// Every statement, depth first, in file order.
    public var statements: [BaseSource] {
        switch self {
        case .statement(let source): return [source]
        case .and(let filters), .or(let filters), .not(let filters): return filters.flatMap(\.statements)
        }
    }
}
