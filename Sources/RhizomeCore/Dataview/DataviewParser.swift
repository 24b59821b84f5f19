/// Parses Dataview's query language (DQL) into a `DataviewQuery`.
///
/// A recursive-descent parser over the query's Unicode scalars. Keywords are case-insensitive; data
/// commands may come in any order and repeat (`FROM` at most once, before the others); `//` starts a
/// comment that runs to the end of the line. Errors carry the line and column where parsing failed.
public struct DataviewParser {
    /// Parses a whole query (`TABLE status FROM #project WHERE …`).
    public static func parse(_ text: String) throws(DataviewError) -> DataviewQuery {
        var parser = DataviewParser(text)
        return try parser.query()
    }

    /// Parses one expression (`length(file.outlinks) > 3`), the whole text.
    public static func parseExpression(_ text: String) throws(DataviewError) -> DataviewExpression {
        var parser = DataviewParser(text)
        let expression = try parser.expression()
        parser.skipSpace()
        guard parser.isAtEnd else { throw parser.failure("unexpected \(parser.describeNext()) after the expression") }
        return expression
    }

    static let commandKeywords: Set<String> = ["FROM", "WHERE", "SORT", "GROUP", "FLATTEN", "LIMIT"]
    /// Words that cannot name a variable (Dataview's `KEYWORDS`): `sort` can, as in `WHERE sort > 2`.
    static let reservedWords: Set<String> = ["FROM", "WHERE", "GROUP", "FLATTEN", "LIMIT"]

    /// How deep parentheses, calls, lists and `!`/`-` may nest, and how many operators (`and`, `+`, `.`, `[…]`…)
    /// one query may hold. Each makes a level of the tree that parsing, planning and evaluation recurse
    /// through: a query past these (`((((…))))` 1,000 deep, 3,000 terms joined by `OR`) overflowed the
    /// stack and killed the process. Nobody writes such a query by hand; a list says it shorter
    /// (`contains(["a", "b"], file.name)`).
    static let maximumNesting = 64
    static let maximumOperators = 1_000

    let scalars: [Unicode.Scalar]
    var position = 0
    var nesting = 0
    var operators = 0
    /// Where the last expression parsed ends, before any space or comment after it (for column names).
    var expressionEnd = 0
    let text: String

    init(_ text: String) {
        self.text = text
        scalars = Array(text.unicodeScalars)
    }

    // MARK: Query

    mutating func query() throws(DataviewError) -> DataviewQuery {
        skipSpace()
        let start = position
        guard let word = readWord() else { throw failure("expected a query type: LIST, TABLE or TASK") }
        let kind: DataviewQuery.Kind
        switch word.uppercased() {
        case "LIST":
            let withoutID = try withoutIDClause()
            skipSpace()
            kind = .list(expression: isAtCommandOrEnd ? nil : try expression(), withoutID: withoutID)
        case "TABLE":
            let withoutID = try withoutIDClause()
            kind = .table(columns: try tableColumns(), withoutID: withoutID)
        case "TASK":
            kind = .task
        case "CALENDAR":
            position = start
            throw failure("CALENDAR queries draw a calendar in Obsidian and are not supported; use LIST or TABLE")
        default:
            position = start
            throw failure("expected a query type: LIST, TABLE or TASK, not `\(word)`")
        }
        var commands: [DataviewQuery.Command] = []
        while true {
            skipSpace()
            if isAtEnd { break }
            let commandStart = position
            guard let word = peekWord(), Self.commandKeywords.contains(word.uppercased()) else {
                throw failure("expected FROM, WHERE, SORT, GROUP BY, FLATTEN or LIMIT, not \(describeNext())")
            }
            position += word.unicodeScalars.count
            switch word.uppercased() {
            case "FROM":
                if !commands.isEmpty {
                    position = commandStart
                    throw failure(commands.contains { if case .from = $0 { true } else { false } }
                        ? "a query has only one FROM" : "FROM must come before the other data commands")
                }
                skipSpace()
                commands.append(.from(try sourceOr()))
            case "WHERE":
                skipSpace()
                commands.append(.where(try expression(after: "WHERE")))
            case "SORT":
                commands.append(.sort(try sortKeys()))
            case "GROUP":
                skipSpace()
                let byStart = position
                guard let by = readWord(), by.uppercased() == "BY" else {
                    position = byStart
                    throw failure("expected BY after GROUP")
                }
                skipSpace()
                let expressionStart = position
                let expression = try expression(after: "GROUP BY")
                commands.append(.groupBy(expression, name: try asName() ?? expressionText(from: expressionStart)))
            case "FLATTEN":
                skipSpace()
                let expressionStart = position
                let expression = try expression(after: "FLATTEN")
                commands.append(.flatten(expression, name: try asName() ?? expressionText(from: expressionStart)))
            default:  // LIMIT
                skipSpace()
                let countStart = position
                if isAtCommandOrEnd { throw failure("expected a whole number after LIMIT") }
                let count = try expression()
                // A literal is checked now; anything else (`LIMIT this.n`) when the query runs.
                if case .literal(let value) = count, DataviewQuery.limitCount(value) == nil {
                    position = countStart
                    throw failure("expected a whole number after LIMIT")
                }
                commands.append(.limit(count))
            }
        }
        return DataviewQuery(kind: kind, commands: commands, text: text)
    }

    mutating func withoutIDClause() throws(DataviewError) -> Bool {
        skipSpace()
        guard let word = peekWord(), word.uppercased() == "WITHOUT" else { return false }
        position += word.unicodeScalars.count
        skipSpace()
        let idStart = position
        guard let id = readWord(), id.uppercased() == "ID" else {
            position = idStart
            throw failure("expected ID after WITHOUT")
        }
        return true
    }

    mutating func tableColumns() throws(DataviewError) -> [DataviewQuery.Column] {
        var columns: [DataviewQuery.Column] = []
        skipSpace()
        if isAtCommandOrEnd { return columns }
        repeat {
            skipSpace()
            let start = position
            let expression = try expression(after: columns.isEmpty ? "TABLE" : "`,`")
            columns.append(.init(expression: expression, name: try asName() ?? expressionText(from: start)))
            skipSpace()
        } while take(",")
        return columns
    }

    /// `AS name` or `AS "name"` after an expression, if present.
    mutating func asName() throws(DataviewError) -> String? {
        skipSpace()
        guard let word = peekWord(), word.uppercased() == "AS" else { return nil }
        position += word.unicodeScalars.count
        skipSpace()
        if peek == "\"" || peek == "'" { return try stringLiteral() }
        guard let name = readIdentifier() else { throw failure("expected a name after AS (an identifier or a \"quoted name\")") }
        return name
    }

    mutating func sortKeys() throws(DataviewError) -> [DataviewQuery.SortKey] {
        var keys: [DataviewQuery.SortKey] = []
        repeat {
            skipSpace()
            let expression = try expression(after: keys.isEmpty ? "SORT" : "`,`")
            skipSpace()
            var ascending = true
            if let word = peekWord() {
                switch word.uppercased() {
                case "ASC", "ASCENDING": ascending = true; position += word.unicodeScalars.count
                case "DESC", "DESCENDING": ascending = false; position += word.unicodeScalars.count
                default: break
                }
            }
            keys.append(.init(expression: expression, isAscending: ascending))
            skipSpace()
        } while take(",")
        return keys
    }

    // MARK: Sources

    /// `and` and `or` share one precedence level and group from the left, as in Dataview:
    /// `#a or #b and #c` is `(#a or #b) and #c`.
    mutating func sourceOr() throws(DataviewError) -> DataviewSource {
        try enter()
        defer { leave() }
        var left = try sourceUnary()
        while true {
            if takeKeyword("or") || take("|") {
                skipSpace()
                try countOperator()
                left = .or(left, try sourceUnary())
            } else if takeKeyword("and") || take("&") {
                skipSpace()
                try countOperator()
                left = .and(left, try sourceUnary())
            } else {
                return left
            }
        }
    }

    mutating func sourceUnary() throws(DataviewError) -> DataviewSource {
        skipSpace()
        defer { skipSpace() }
        if take("-") || take("!") {
            try enter()
            defer { leave() }
            try countOperator()
            return .not(try sourceUnary())
        }
        if take("(") {
            skipSpace()
            let inner = try sourceOr()
            guard take(")") else { throw failure("expected `)` to close the source") }
            return inner
        }
        if peek == "#" {
            let start = position
            position += 1
            let name = readTagName()
            guard !name.isEmpty else {
                position = start
                throw failure("expected a tag name after `#`")
            }
            return .tag(name)
        }
        if peek == "\"" || peek == "'" { return .folder(try stringLiteral()) }
        if peek == "[", peek(at: 1) == "[" { return .linksTo(try linkText()) }
        if let word = peekWord(), word.lowercased() == "outgoing" {
            position += word.unicodeScalars.count
            skipSpace()
            guard take("(") else { throw failure("expected `(` after outgoing") }
            skipSpace()
            guard peek == "[", peek(at: 1) == "[" else { throw failure("expected a link `[[note]]` inside outgoing(…)") }
            let link = try linkText()
            skipSpace()
            guard take(")") else { throw failure("expected `)` to close outgoing(…)") }
            return .linkedFrom(link)
        }
        throw failure("expected a source: #tag, \"folder\", [[note]] or outgoing([[note]]), not \(describeNext())")
    }
}
