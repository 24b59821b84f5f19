/// The expression grammar, by precedence: `or` and `and`, comparison, `+ -`, `* / %`, unary `! -`, then
/// postfix `.field`, `[index]` and calls, and the primaries (literals, links, lists, objects, lambdas).
extension DataviewParser {
    mutating func expression(after context: String) throws(DataviewError) -> DataviewExpression {
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

    mutating func comparison() throws(DataviewError) -> DataviewExpression {
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

    mutating func additive() throws(DataviewError) -> DataviewExpression {
        var left = try multiplicative()
        while true {
            skipSpace()
            let op: DataviewBinaryOperator
            if take("+") { op = .plus } else if take("-") { op = .minus } else { return left }
            try countOperator()
            left = .binary(op, left, try multiplicative())
        }
    }

    mutating func multiplicative() throws(DataviewError) -> DataviewExpression {
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

    mutating func unary() throws(DataviewError) -> DataviewExpression {
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

    mutating func postfix() throws(DataviewError) -> DataviewExpression {
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

    mutating func call(_ name: String, start: Int) throws(DataviewError) -> DataviewExpression {
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
    mutating func rawLiteralArgument(of function: String) -> DataviewExpression? {
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

    mutating func lambdaIfPresent() throws(DataviewError) -> DataviewExpression? {
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

    mutating func objectLiteral() throws(DataviewError) -> DataviewExpression {
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

    mutating func expressionList(closing: Unicode.Scalar, what: String) throws(DataviewError) -> [DataviewExpression] {
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
}
