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

    private let scalars: [Unicode.Scalar]
    private var position = 0
    private var nesting = 0
    private var operators = 0
    /// Where the last expression parsed ends, before any space or comment after it (for column names).
    private var expressionEnd = 0
    private let text: String

    private init(_ text: String) {
        self.text = text
        scalars = Array(text.unicodeScalars)
    }

    // MARK: Query

    private mutating func query() throws(DataviewError) -> DataviewQuery {
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

    private mutating func withoutIDClause() throws(DataviewError) -> Bool {
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

    private mutating func tableColumns() throws(DataviewError) -> [DataviewQuery.Column] {
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
    private mutating func asName() throws(DataviewError) -> String? {
        skipSpace()
        guard let word = peekWord(), word.uppercased() == "AS" else { return nil }
        position += word.unicodeScalars.count
        skipSpace()
        if peek == "\"" || peek == "'" { return try stringLiteral() }
        guard let name = readIdentifier() else { throw failure("expected a name after AS (an identifier or a \"quoted name\")") }
        return name
    }

    private mutating func sortKeys() throws(DataviewError) -> [DataviewQuery.SortKey] {
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
    private mutating func sourceOr() throws(DataviewError) -> DataviewSource {
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

    private mutating func sourceUnary() throws(DataviewError) -> DataviewSource {
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

    // MARK: Expressions

    private mutating func expression(after context: String) throws(DataviewError) -> DataviewExpression {
        if isAtCommandOrEnd { throw failure("expected an expression after \(context)") }
        return try expression()
    }

    /// `and` and `or` (`&`, `|`) share one precedence level and group from the left, as in Dataview:
    /// `a or b and c` is `(a or b) and c`.
    mutating func expression() throws(DataviewError) -> DataviewExpression {
        try enter()
        defer { leave() }
        skipSpace()
        var left = try comparison()
        while true {
            skipSpace()
            let op: DataviewBinaryOperator
            if takeKeyword("or") || takeOperator("|") { op = .or }
            else if takeKeyword("and") || takeOperator("&") { op = .and }
            else { return left }
            try countOperator()
            left = .binary(op, left, try comparison())
        }
    }

    private mutating func comparison() throws(DataviewError) -> DataviewExpression {
        var left = try additive()
        while true {
            skipSpace()
            let op: DataviewBinaryOperator
            if take("!=") { op = .notEqual }
            else if take("<=") { op = .lessOrEqual }
            else if take(">=") { op = .greaterOrEqual }
            else if peek == "=", peek(at: 1) != ">" { position += 1; op = .equal }
            else if take("<") { op = .less }
            else if take(">") { op = .greater }
            else { return left }
            try countOperator()
            left = .binary(op, left, try additive())
        }
    }

    private mutating func additive() throws(DataviewError) -> DataviewExpression {
        var left = try multiplicative()
        while true {
            skipSpace()
            let op: DataviewBinaryOperator
            if take("+") { op = .plus } else if take("-") { op = .minus } else { return left }
            try countOperator()
            left = .binary(op, left, try multiplicative())
        }
    }

    private mutating func multiplicative() throws(DataviewError) -> DataviewExpression {
        var left = try unary()
        while true {
            skipSpace()
            let op: DataviewBinaryOperator
            if take("*") { op = .times }
            else if peek == "/", peek(at: 1) != "/" { position += 1; op = .divide }
            else if take("%") { op = .modulo }
            else { return left }
            try countOperator()
            left = .binary(op, left, try unary())
        }
    }

    private mutating func unary() throws(DataviewError) -> DataviewExpression {
        skipSpace()
        // `![[note]]` is an embed (a literal), not `!` applied to a link.
        if peek == "!", peek(at: 1) != "=", !isAtLinkLiteral(offset: 1) {
            position += 1
            try enter()
            defer { leave() }
            try countOperator()
            return .not(try unary())
        }
        if take("-") {
            try enter()
            defer { leave() }
            try countOperator()
            let operand = try unary()
            if case .literal(.number(let number)) = operand { return .literal(.number(-number)) }
            return .negate(operand)
        }
        return try postfix()
    }

    private mutating func postfix() throws(DataviewError) -> DataviewExpression {
        skipSpace()
        // A lambda or parenthesised expression may be called where it stands: `((a, b) => a + b)(1, 2)`.
        let callable = peek == "("
        var base = try primary()
        while true {
            if peek == ".", let next = peek(at: 1), Self.isIdentifierStart(next) {
                position += 1
                try countOperator()
                base = .member(base, readIdentifier()!)
            } else if peek == "[", peek(at: 1) != "[" {
                position += 1
                try countOperator()
                let index = try expression()
                skipSpace()
                guard take("]") else { throw failure("expected `]` to close the index") }
                base = .index(base, index)
            } else if callable, peek == "(" {
                position += 1
                base = .apply(base, arguments: try expressionList(closing: ")", what: "argument list"))
            } else {
                expressionEnd = position
                return base
            }
        }
    }

    mutating func primary() throws(DataviewError) -> DataviewExpression {
        skipSpace()
        guard let scalar = peek else { throw failure("expected an expression, but the query ends here") }
        if scalar.properties.numericType != nil, scalar.isASCII { return .literal(.number(try numberLiteral())) }
        if scalar == "\"" || scalar == "'" { return .literal(.string(try stringLiteral())) }
        if scalar == "!", isAtLinkLiteral(offset: 1) {
            position += 1
            return .link(text: try linkText(), isEmbed: true)
        }
        if scalar == "[" {
            if isAtLinkLiteral() { return .link(text: try linkText(), isEmbed: false) }
            position += 1
            return .list(try expressionList(closing: "]", what: "list"))
        }
        if scalar == "{" { return try objectLiteral() }
        if scalar == "(" {
            if let lambda = try lambdaIfPresent() { return lambda }
            position += 1
            let inner = try expression()
            skipSpace()
            guard take(")") else { throw failure("expected `)` to close the parenthesis") }
            return inner
        }
        if Self.isIdentifierStart(scalar) {
            let start = position
            let name = readIdentifier()!
            if peek == "(" { return try call(name, start: start) }
            switch name {
            case "true", "True": return .literal(.boolean(true))
            case "false", "False": return .literal(.boolean(false))
            case "null": return .literal(.null)
            default: break
            }
            if Self.reservedWords.contains(name.uppercased()) {
                position = start
                throw failure("expected an expression, not the keyword \(name.uppercased())")
            }
            return .variable(name)
        }
        throw failure("expected an expression, not \(describeNext())")
    }

    private mutating func call(_ name: String, start: Int) throws(DataviewError) -> DataviewExpression {
        let (line, column) = lineAndColumn(of: start)
        guard DataviewFunctions.names.contains(name.lowercased()) else {
            throw .unknownFunction(name: name, line: line, column: column, sourceLine: sourceLine(line))
        }
        position += 1  // (
        if let literal = rawLiteralArgument(of: name.lowercased()) { return literal }
        let arguments = try expressionList(closing: ")", what: "argument list of \(name)(…)")
        return .call(name: name.lowercased(), arguments: arguments, line: line, column: column)
    }

    /// `date(2024-01-31)`, `date(today)`, `dur(3 days)`: the raw text up to `)` as a literal, if it is one.
    private mutating func rawLiteralArgument(of function: String) -> DataviewExpression? {
        guard function == "date" || function == "dur" else { return nil }
        var end = position
        while end < scalars.count, scalars[end] != ")", scalars[end] != "(", scalars[end] != "\n" { end += 1 }
        guard end < scalars.count, scalars[end] == ")" else { return nil }
        let raw = String(String.UnicodeScalarView(scalars[position..<end])).trimmingSpaces
        let literal: DataviewExpression?
        if function == "dur" {
            literal = DataviewDuration.parse(raw).map { .literal(.duration($0)) }
        } else if let date = DataviewDate.parse(raw) {
            literal = .literal(.date(date))
        } else if let relative = DataviewRelativeDate(word: raw) {
            let (line, column) = lineAndColumn(of: position)
            literal = .call(name: "date", arguments: [.literal(.string(relative.rawValue))], line: line, column: column)
        } else {
            literal = nil
        }
        if literal != nil { position = end + 1 }
        return literal
    }

    private mutating func lambdaIfPresent() throws(DataviewError) -> DataviewExpression? {
        let start = position
        position += 1
        var parameters: [String] = []
        skipSpace()
        while let name = readIdentifier() {
            parameters.append(name)
            skipSpace()
            if !take(",") { break }
            skipSpace()
        }
        skipSpace()
        guard take(")") else { position = start; return nil }
        skipSpace()
        guard take("=>") else { position = start; return nil }
        return .lambda(parameters: parameters, body: try expression())
    }

    private mutating func objectLiteral() throws(DataviewError) -> DataviewExpression {
        position += 1
        var pairs: [(key: String, value: DataviewExpression)] = []
        skipSpace()
        if take("}") { return .object(pairs) }
        repeat {
            skipSpace()
            let key: String
            if peek == "\"" || peek == "'" {
                key = try stringLiteral()
            } else if let name = readIdentifier() {
                key = name
            } else {
                throw failure("expected a key (a name or a \"string\") in the object")
            }
            skipSpace()
            guard take(":") else { throw failure("expected `:` after the object key `\(key)`") }
            pairs.append((key, try expression()))
            skipSpace()
        } while take(",")
        guard take("}") else { throw failure("expected `}` or `,` in the object") }
        return .object(pairs)
    }

    private mutating func expressionList(closing: Unicode.Scalar, what: String) throws(DataviewError) -> [DataviewExpression] {
        var items: [DataviewExpression] = []
        skipSpace()
        if take(closing) { return items }
        repeat {
            items.append(try expression())
            skipSpace()
        } while take(",")
        guard take(closing) else { throw failure("expected `\(closing)` or `,` in the \(what)") }
        return items
    }

    // MARK: Tokens

    private mutating func numberLiteral() throws(DataviewError) -> Double {
        let start = position
        while let scalar = peek, scalar.isASCII, scalar.properties.numericType != nil { position += 1 }
        if peek == ".", let next = peek(at: 1), next.isASCII, next.properties.numericType != nil {
            position += 1
            while let scalar = peek, scalar.isASCII, scalar.properties.numericType != nil { position += 1 }
        }
        guard let number = Double(sourceText(from: start)) else {
            position = start
            throw failure("expected a number")
        }
        return number
    }

    private mutating func stringLiteral() throws(DataviewError) -> String {
        let start = position
        let quote = scalars[position]
        position += 1
        var result = String.UnicodeScalarView()
        while let scalar = peek {
            position += 1
            if scalar == quote { return String(result) }
            if scalar == "\\", let escaped = peek, escaped == quote || escaped == "\\" {
                // Only `\"` and `\\` are escapes; any other backslash stays (regular expressions need it).
                position += 1
                result.append(escaped)
            } else {
                result.append(scalar)
            }
        }
        position = start
        throw failure("the string is never closed (expected a closing \(quote))")
    }

    /// Whether a link literal starts `offset` scalars ahead: `[[`, then text without brackets or a line
    /// break, then `]]`, as Dataview's pattern `\[\[([^\[\]]*?)\]\]` has it. Anything else starting with `[[`
    /// is a list in a list (`[[1, 2], [3]]`, `[[[Alpha]], [[Beta]]]`), except a link that is never closed
    /// (no bracket before the line ends), taken as a link so the error says so.
    private func isAtLinkLiteral(offset: Int = 0) -> Bool {
        guard peek(at: offset) == "[", peek(at: offset + 1) == "[" else { return false }
        var index = position + offset + 2
        while index < scalars.count {
            switch scalars[index] {
            case "]": return index + 1 < scalars.count && scalars[index + 1] == "]"
            case "[": return false
            case "\n": return true
            default: index += 1
            }
        }
        return true
    }

    /// `[[…]]`: the text inside the brackets.
    private mutating func linkText() throws(DataviewError) -> String {
        let start = position
        position += 2
        while position + 1 < scalars.count, !(scalars[position] == "]" && scalars[position + 1] == "]") {
            if scalars[position] == "\n" { break }
            position += 1
        }
        guard position + 1 < scalars.count, scalars[position] == "]" else {
            position = start
            throw failure("the link is never closed (expected `]]`)")
        }
        let inner = String(String.UnicodeScalarView(scalars[(start + 2)..<position]))
        position += 2
        return inner
    }

    private mutating func readTagName() -> String {
        let start = position
        while let scalar = peek, TagSyntax.continuesTag(scalar) {
            position += 1
        }
        return sourceText(from: start)
    }

    static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar.properties.isAlphabetic || scalar.properties.isEmojiPresentation
    }

    static func isIdentifierContinuation(_ scalar: Unicode.Scalar) -> Bool {
        isIdentifierStart(scalar) || scalar == "-" || (scalar.isASCII && scalar.properties.numericType != nil)
            || scalar.properties.generalCategory == .nonspacingMark
    }

    /// A field name: letters (any script), emoji, digits, `_` and `-` (`book-rating` is one name).
    private mutating func readIdentifier() -> String? {
        guard let first = peek, Self.isIdentifierStart(first) else { return nil }
        let start = position
        position += 1
        while let scalar = peek, Self.isIdentifierContinuation(scalar) { position += 1 }
        // A trailing `-` belongs to an operator (`a- 1`), not the name.
        while position > start + 1, scalars[position - 1] == "-" { position -= 1 }
        return sourceText(from: start)
    }

    /// A keyword-like word (ASCII letters) at the current position, without consuming it.
    private func peekWord() -> String? {
        var end = position
        while end < scalars.count, scalars[end].isASCII, scalars[end].properties.isAlphabetic { end += 1 }
        guard end > position else { return nil }
        if end < scalars.count, Self.isIdentifierContinuation(scalars[end]) { return nil }
        return String(String.UnicodeScalarView(scalars[position..<end]))
    }

    private mutating func readWord() -> String? {
        guard let word = peekWord() else { return nil }
        position += word.unicodeScalars.count
        return word
    }

    private mutating func takeKeyword(_ keyword: String) -> Bool {
        guard let word = peekWord(), word.lowercased() == keyword else { return false }
        position += word.unicodeScalars.count
        return true
    }

    /// A single-character operator that is not the start of a longer one (`&` but not `&&` handling).
    private mutating func takeOperator(_ scalar: Unicode.Scalar) -> Bool {
        guard peek == scalar else { return false }
        position += 1
        return true
    }

    private mutating func take(_ literal: String) -> Bool {
        let literalScalars = Array(literal.unicodeScalars)
        guard position + literalScalars.count <= scalars.count,
              Array(scalars[position..<(position + literalScalars.count)]) == literalScalars else { return false }
        position += literalScalars.count
        return true
    }

    private mutating func take(_ scalar: Unicode.Scalar) -> Bool {
        guard peek == scalar else { return false }
        position += 1
        return true
    }

    var isAtEnd: Bool { position >= scalars.count }
    private var peek: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }
    private func peek(at offset: Int) -> Unicode.Scalar? {
        position + offset < scalars.count ? scalars[position + offset] : nil
    }

    /// At the end, or at a word that starts a data command. `sort` is also a field name: it starts a
    /// command when what follows it can start an expression (`SORT file.name`), and is a field when an
    /// operator, comma or nothing follows (`WHERE sort > 2`, `TABLE sort, x`).
    private var isAtCommandOrEnd: Bool {
        if isAtEnd { return true }
        guard let word = peekWord() else { return false }
        let upper = word.uppercased()
        guard upper == "SORT" else { return Self.commandKeywords.contains(upper) }
        let wordEnd = position + word.unicodeScalars.count
        if wordEnd < scalars.count, scalars[wordEnd] == "(" { return false }  // the function `sort(…)`
        var next = wordEnd
        while next < scalars.count, scalars[next] == " " || scalars[next] == "\t" || scalars[next] == "\n" || scalars[next] == "\r" {
            next += 1
        }
        guard next < scalars.count else { return false }
        let scalar = scalars[next]
        return Self.isIdentifierStart(scalar) || (scalar.isASCII && scalar.properties.numericType != nil)
            || scalar == "\"" || scalar == "'" || scalar == "("
    }

    /// Skips whitespace and `//` comments.
    mutating func skipSpace() {
        while let scalar = peek {
            if scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" || scalar == "\u{A0}" {
                position += 1
            } else if scalar == "/", peek(at: 1) == "/" {
                while let next = peek, next != "\n" { position += 1 }
            } else {
                return
            }
        }
    }

    /// The text of the expression that starts at `start`, as written (a column's name without `AS`).
    private func expressionText(from start: Int) -> String {
        String(String.UnicodeScalarView(scalars[start..<max(start, expressionEnd)]))
    }

    private func sourceText(from start: Int) -> String {
        String(String.UnicodeScalarView(scalars[start..<position])).trimmingSpaces
    }

    private func describeNext() -> String {
        guard !isAtEnd else { return "the end of the query" }
        var end = position
        while end < scalars.count, end - position < 20, !(scalars[end] == " " || scalars[end] == "\n") { end += 1 }
        if end == position { end += 1 }
        return "`" + String(String.UnicodeScalarView(scalars[position..<end])) + "`"
    }

    // MARK: Errors

    private func lineAndColumn(of offset: Int) -> (Int, Int) {
        var line = 1, lineStart = 0
        for index in 0..<min(offset, scalars.count) where scalars[index] == "\n" {
            line += 1
            lineStart = index + 1
        }
        return (line, offset - lineStart + 1)
    }

    /// The text of a 1-based line, without its line end. Lines are split at `\n` scalars, as
    /// `lineAndColumn` counts them: a String split on the Character `\n` would not split at `\r\n`.
    private func sourceLine(_ line: Int) -> String {
        var number = 1, start = 0, end = scalars.count
        for index in scalars.indices where scalars[index] == "\n" {
            if number == line {
                end = index
                break
            }
            number += 1
            start = index + 1
        }
        guard number == line else { return "" }
        if end > start, scalars[end - 1] == "\r" { end -= 1 }
        return String(String.UnicodeScalarView(scalars[start..<end]))
    }

    /// Enters a nested level (`leave()` when done); fails past `maximumNesting`.
    private mutating func enter() throws(DataviewError) {
        nesting += 1
        if nesting > Self.maximumNesting {
            throw failure("the query nests deeper than \(Self.maximumNesting) levels of parentheses, calls, lists or `!`/`-`; simplify it")
        }
    }

    private mutating func leave() { nesting -= 1 }

    /// Counts one operator; fails past `maximumOperators`.
    private mutating func countOperator() throws(DataviewError) {
        operators += 1
        if operators > Self.maximumOperators {
            throw failure("the query holds more than \(Self.maximumOperators) operators; split it, or match against a list (`contains([\"a\", \"b\"], file.name)`)")
        }
    }

    func failure(_ message: String) -> DataviewError {
        let (line, column) = lineAndColumn(of: position)
        return .syntax(message: message, line: line, column: column, sourceLine: sourceLine(line))
    }
}

/// The words `date(…)` accepts besides dates: `today`, `now`, start and end of week, month and year.
public enum DataviewRelativeDate: String, Sendable, CaseIterable {
    case today, now, tomorrow, yesterday, sow, eow, som, eom, soy, eoy

    /// The word in any case, short (`sow`) or long as Dataview also spells it (`start-of-week`).
    public init?(word: String) {
        let word = word.lowercased()
        if let relative = DataviewRelativeDate(rawValue: word) {
            self = relative
            return
        }
        switch word {
        case "start-of-week": self = .sow
        case "end-of-week": self = .eow
        case "start-of-month": self = .som
        case "end-of-month": self = .eom
        case "start-of-year": self = .soy
        case "end-of-year": self = .eoy
        default: return nil
        }
    }
}
