/// A parsed Dataview query (DQL): its type (`LIST`, `TABLE`, `TASK`) and its data commands in order.
///
/// Produced by `DataviewParser.parse(_:)`; run by the store's query engine.
public struct DataviewQuery: Sendable {
    /// The row count a `LIMIT` value gives: a whole number, zero or more; nil for anything else.
    public static func limitCount(_ value: DataviewValue) -> Int? {
        guard case .number(let number) = value, number >= 0, number.rounded() == number, number <= 1e15 else { return nil }
        return Int(number)
    }

    public enum Kind: Sendable {
        /// `LIST [WITHOUT ID] [expression]`
        case list(expression: DataviewExpression?, withoutID: Bool)
        /// `TABLE [WITHOUT ID] expression [AS name], …`
        case table(columns: [Column], withoutID: Bool)
        /// `TASK`: the tasks of the matching notes, filtered and sorted task by task.
        case task
    }

    public struct Column: Sendable {
        public var expression: DataviewExpression
        /// The `AS` name, or the expression as written.
        public var name: String

        public init(expression: DataviewExpression, name: String) {
            self.expression = expression
            self.name = name
        }
    }

    public struct SortKey: Sendable {
        public var expression: DataviewExpression
        public var isAscending: Bool

        public init(expression: DataviewExpression, isAscending: Bool) {
            self.expression = expression
            self.isAscending = isAscending
        }
    }

    public enum Command: Sendable {
        case from(DataviewSource)
        case `where`(DataviewExpression)
        case sort([SortKey])
        /// `GROUP BY expression [AS name]`: rows become `{key, rows: [...], name: key}`; `name` defaults to
        /// the expression as written and names the first column of a grouped table.
        case groupBy(DataviewExpression, name: String)
        /// `FLATTEN expression [AS name]`: one row per element, with `name` bound to the element.
        case flatten(DataviewExpression, name: String)
        /// `LIMIT expression`: evaluated once, with only `this` in scope; it must give a whole number.
        case limit(DataviewExpression)
    }

    public var kind: Kind
    public var commands: [Command]
    /// The query text as given.
    public var text: String

    public init(kind: Kind, commands: [Command], text: String) {
        self.kind = kind
        self.commands = commands
        self.text = text
    }

    /// The `FROM` source, if any (a query has at most one).
    public var source: DataviewSource? {
        for case .from(let source) in commands { return source }
        return nil
    }
}

/// What `FROM` selects: tags, folders, links to or from a note, combined with `and`, `or` and negation.
public indirect enum DataviewSource: Sendable {
    /// `#tag`: notes with the tag or one nested under it (`#project` matches `#project/alpha`). No `#` here.
    case tag(String)
    /// `"folder"`: notes in the folder or below it; `"folder/note.md"` or `"folder/note"` names one note.
    case folder(String)
    /// `[[note]]`: notes that link to the note (`[[]]` or `[[#]]`: the current note).
    case linksTo(String)
    /// `outgoing([[note]])`: notes the note links to.
    case linkedFrom(String)
    case and(DataviewSource, DataviewSource)
    case or(DataviewSource, DataviewSource)
    case not(DataviewSource)
}

/// An expression of Dataview's language.
public indirect enum DataviewExpression: Sendable {
    case literal(DataviewValue)
    /// A field name: a frontmatter key, an inline field, `file`, `this`, `row`, a lambda parameter.
    case variable(String)
    /// `base.name`
    case member(DataviewExpression, String)
    /// `base[index]`
    case index(DataviewExpression, DataviewExpression)
    /// `name(arguments…)`; `column` is where the name starts (for errors).
    case call(name: String, arguments: [DataviewExpression], line: Int, column: Int)
    case binary(DataviewBinaryOperator, DataviewExpression, DataviewExpression)
    /// `!expression`
    case not(DataviewExpression)
    /// `-expression`
    case negate(DataviewExpression)
    case list([DataviewExpression])
    case object([(key: String, value: DataviewExpression)])
    case lambda(parameters: [String], body: DataviewExpression)
    /// A lambda called where it stands: `((x) => x * 2)(3)`.
    case apply(DataviewExpression, arguments: [DataviewExpression])
    /// `[[Note#Heading|Display]]` as written; resolved from the note the query runs in.
    case link(text: String, isEmbed: Bool)
}

public enum DataviewBinaryOperator: String, Sendable, CaseIterable {
    case or, and
    case equal = "=", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    case plus = "+", minus = "-", times = "*", divide = "/", modulo = "%"
}

extension DataviewExpression {
    /// Calls `visit` on this expression and every sub-expression (depth first).
    public func forEachNode(_ visit: (DataviewExpression) -> Void) {
        visit(self)
        switch self {
        case .literal, .variable, .link: break
        case .member(let base, _): base.forEachNode(visit)
        case .index(let base, let index): base.forEachNode(visit); index.forEachNode(visit)
        case .call(_, let arguments, _, _): for argument in arguments { argument.forEachNode(visit) }
        case .binary(_, let left, let right): left.forEachNode(visit); right.forEachNode(visit)
        case .not(let inner), .negate(let inner): inner.forEachNode(visit)
        case .list(let items): for item in items { item.forEachNode(visit) }
        case .object(let pairs): for pair in pairs { pair.value.forEachNode(visit) }
        case .lambda(_, let body): body.forEachNode(visit)
        case .apply(let function, let arguments): function.forEachNode(visit); for argument in arguments { argument.forEachNode(visit) }
        }
    }
}

extension DataviewQuery {
    /// Every expression of the query (columns, LIST expression, WHERE, SORT, GROUP BY, FLATTEN).
    public var expressions: [DataviewExpression] {
        var result: [DataviewExpression] = []
        switch kind {
        case .list(let expression, _): if let expression { result.append(expression) }
        case .table(let columns, _): result += columns.map(\.expression)
        case .task: break
        }
        for command in commands {
            switch command {
            case .from, .limit: break
            case .where(let expression), .groupBy(let expression, _), .flatten(let expression, _): result.append(expression)
            case .sort(let keys): result += keys.map(\.expression)
            }
        }
        return result
    }
}
