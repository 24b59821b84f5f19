/// Parses the text of a Bases filter statement or formula into a `BaseExpression`.
///
/// The language is a small JavaScript-like expression grammar (Obsidian's help, "Bases syntax"): literals
/// (`"text"`, `'text'`, `1.5`, `true`, `false`, `null`, `[1, 2]`, `{"a": 1}`, `/regex/flags`), names,
/// member access (`file.name`, `note["my key"]`, `list[0]`), calls (`if(…)`, `price.toFixed(2)`), prefix
/// `!`, `-`, `+`, and the binary operators with JavaScript precedence. Offsets in errors and ranges are in
/// characters of the text.
public struct BaseExpressionParser {
    /// Deeper nesting than this is refused rather than risking the stack on hostile input.
    public static let maximumDepth = 200

    private let characters: [Character]
    private var position = 0
    private var depth = 0

    public static func parse(_ text: String) throws(BaseEvaluationError) -> BaseExpression {
        var parser = BaseExpressionParser(characters: Array(text))
        parser.skipSpace()
        guard !parser.atEnd else { throw BaseEvaluationError("the expression is empty", range: 0..<0) }
        let expression = try parser.expression(minimumPrecedence: 0)
        parser.skipSpace()
        guard parser.atEnd else {
            throw BaseEvaluationError("unexpected `\(parser.characters[parser.position])`: expected an operator or the end of the expression", range: parser.position..<parser.position + 1)
        }
        return expression
    }

    private init(characters: [Character]) {
        self.characters = characters
    }

    // MARK: Grammar

    private mutating func expression(minimumPrecedence: Int) throws(BaseEvaluationError) -> BaseExpression {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else {
            throw BaseEvaluationError("the expression nests deeper than \(Self.maximumDepth) levels", range: position..<position + 1, isDepthLimit: true)
        }
        var left = try unary()
        while true {
            skipSpace()
            guard let op = peekBinaryOperator(), op.precedence > minimumPrecedence else { return left }
            position += op.rawValue.count
            let right = try expression(minimumPrecedence: op.precedence)
            left = BaseExpression(.binary(op, left, right), range: left.range.lowerBound..<right.range.upperBound)
        }
    }

    private mutating func unary() throws(BaseEvaluationError) -> BaseExpression {
        skipSpace()
        let start = position
        let op: BaseUnaryOperator?
        switch peek() {
        case "!" where peek(1) != "=": op = .not
        case "-": op = .negate
        case "+": op = .plus
        default: op = nil
        }
        guard let op else { return try postfix() }
        position += 1
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else {
            throw BaseEvaluationError("the expression nests deeper than \(Self.maximumDepth) levels", range: start..<start + 1, isDepthLimit: true)
        }
        let operand = try unary()
        return BaseExpression(.unary(op, operand), range: start..<operand.range.upperBound)
    }

    private mutating func postfix() throws(BaseEvaluationError) -> BaseExpression {
        var result = try primary()
        var steps = 0
        while true {
            skipSpace()
            // `a.b.c…` and `f()[0]…` nest to the left like parentheses do: counted with them.
            if peek() == "." || peek() == "[" {
                steps += 1
                guard depth + steps <= Self.maximumDepth else {
                    throw BaseEvaluationError(
                        "the expression nests deeper than \(Self.maximumDepth) levels", range: position..<position + 1, isDepthLimit: true)
                }
            }
            if peek() == "." {
                position += 1
                skipSpace()
                let nameStart = position
                guard let name = identifier() else {
                    throw BaseEvaluationError("expected a property or function name after `.`", range: nameStart..<nameStart + 1)
                }
                skipSpace()
                if peek() == "(" {
                    let arguments = try argumentList()
                    result = BaseExpression(.method(result, name, arguments), range: result.range.lowerBound..<position)
                } else {
                    result = BaseExpression(.member(result, name), range: result.range.lowerBound..<position)
                }
            } else if peek() == "[" {
                position += 1
                let index = try expression(minimumPrecedence: 0)
                try expect("]", opening: "[")
                result = BaseExpression(.index(result, index), range: result.range.lowerBound..<position)
            } else {
                return result
            }
        }
    }

    private mutating func primary() throws(BaseEvaluationError) -> BaseExpression {
        skipSpace()
        let start = position
        guard let character = peek() else {
            throw BaseEvaluationError("the expression ends where a value was expected", range: start..<start)
        }
        switch character {
        case "(":
            position += 1
            let inner = try expression(minimumPrecedence: 0)
            try expect(")", opening: "(")
            return BaseExpression(inner.kind, range: start..<position)
        case "[":
            position += 1
            let items = try sequence(closing: "]", opening: "[") { (parser: inout BaseExpressionParser) throws(BaseEvaluationError) in
                try parser.expression(minimumPrecedence: 0)
            }
            return BaseExpression(.list(items), range: start..<position)
        case "{":
            position += 1
            let entries = try sequence(closing: "}", opening: "{") { (parser: inout BaseExpressionParser) throws(BaseEvaluationError) in
                try parser.objectEntry()
            }
            return BaseExpression(.object(entries), range: start..<position)
        case "\"", "'":
            return BaseExpression(.literal(.string(try string(quote: character))), range: start..<position)
        case "/":
            return BaseExpression(.literal(.regex(try regex())), range: start..<position)
        case _ where character.isASCII && character.isNumber, "." where peek(1)?.isASCII == true && peek(1)?.isNumber == true:
            return BaseExpression(.literal(.number(try number())), range: start..<position)
        default:
            guard let name = identifier() else {
                throw BaseEvaluationError("unexpected `\(character)`: expected a value, a property name or a function", range: start..<start + 1)
            }
            switch name {
            case "true": return BaseExpression(.literal(.boolean(true)), range: start..<position)
            case "false": return BaseExpression(.literal(.boolean(false)), range: start..<position)
            case "null", "undefined": return BaseExpression(.literal(.null), range: start..<position)
            default: break
            }
            skipSpace()
            if peek() == "(" {
                let arguments = try argumentList()
                return BaseExpression(.call(name, arguments), range: start..<position)
            }
            return BaseExpression(.identifier(name), range: start..<position)
        }
    }

    private mutating func objectEntry() throws(BaseEvaluationError) -> (key: String, value: BaseExpression) {
        skipSpace()
        let keyStart = position
        let key: String
        if let quote = peek(), quote == "\"" || quote == "'" {
            key = try string(quote: quote)
        } else if let name = identifier() {
            key = name
        } else {
            throw BaseEvaluationError("expected a key (a name or quoted text) in the object", range: keyStart..<keyStart + 1)
        }
        skipSpace()
        guard peek() == ":" else {
            throw BaseEvaluationError("expected `:` after the key `\(key)`", range: position..<position + 1)
        }
        position += 1
        return (key, try expression(minimumPrecedence: 0))
    }

    private mutating func argumentList() throws(BaseEvaluationError) -> [BaseExpression] {
        position += 1  // (
        return try sequence(closing: ")", opening: "(") { (parser: inout BaseExpressionParser) throws(BaseEvaluationError) in
            try parser.expression(minimumPrecedence: 0)
        }
    }

    /// Comma-separated items up to `closing` (a trailing comma is allowed, as in JavaScript).
    private mutating func sequence<Item>(
        closing: Character, opening: Character, item: (inout BaseExpressionParser) throws(BaseEvaluationError) -> Item
    ) throws(BaseEvaluationError) -> [Item] {
        let openedAt = position - 1
        var items: [Item] = []
        while true {
            skipSpace()
            if peek() == closing {
                position += 1
                return items
            }
            guard !atEnd else {
                throw BaseEvaluationError("`\(opening)` is never closed: add `\(closing)`", range: openedAt..<openedAt + 1)
            }
            items.append(try item(&self))
            skipSpace()
            if peek() == "," {
                position += 1
            } else if peek() != closing {
                guard !atEnd else {
                    throw BaseEvaluationError("`\(opening)` is never closed: add `\(closing)`", range: openedAt..<openedAt + 1)
                }
                throw BaseEvaluationError("expected `,` or `\(closing)`, found `\(characters[position])`", range: position..<position + 1)
            }
        }
    }

    // MARK: Tokens

    private mutating func expect(_ closing: Character, opening: Character) throws(BaseEvaluationError) {
        skipSpace()
        if peek() == closing {
            position += 1
            return
        }
        if atEnd { throw BaseEvaluationError("`\(opening)` is never closed: add `\(closing)`", range: position..<position) }
        throw BaseEvaluationError("expected `\(closing)`, found `\(characters[position])`", range: position..<position + 1)
    }

    private func peekBinaryOperator() -> BaseBinaryOperator? {
        guard let first = peek() else { return nil }
        let second = peek(1)
        switch first {
        case "|": return second == "|" ? .or : nil
        case "&": return second == "&" ? .and : nil
        case "=": return second == "=" ? .equal : nil
        case "!": return second == "=" ? .notEqual : nil
        case "<": return second == "=" ? .lessOrEqual : .less
        case ">": return second == "=" ? .greaterOrEqual : .greater
        case "+": return .plus
        case "-": return .minus
        case "*": return .times
        case "/": return .divide
        case "%": return .modulo
        default: return nil
        }
    }

    /// A name: letters (any script), digits after the first character, `_` and `$`.
    private mutating func identifier() -> String? {
        guard let first = peek(), first.isLetter || first == "_" || first == "$" else { return nil }
        let start = position
        while let character = peek(), character.isLetter || character.isNumber || character == "_" || character == "$" {
            position += 1
        }
        return String(characters[start..<position])
    }

    /// Digits with an optional fraction and exponent; a `.` followed by a letter is a method call (`5.isEmpty()`).
    private mutating func number() throws(BaseEvaluationError) -> Double {
        let start = position
        while let character = peek(), character.isASCII, character.isNumber { position += 1 }
        if peek() == ".", let next = peek(1), next.isASCII, next.isNumber {
            position += 1
            while let character = peek(), character.isASCII, character.isNumber { position += 1 }
        }
        if let e = peek(), e == "e" || e == "E" {
            var lookahead = 1
            if let sign = peek(1), sign == "+" || sign == "-" { lookahead = 2 }
            if let digit = peek(lookahead), digit.isASCII, digit.isNumber {
                position += lookahead
                while let character = peek(), character.isASCII, character.isNumber { position += 1 }
            }
        }
        let text = String(characters[start..<position])
        guard let value = Double(text) else {
            throw BaseEvaluationError("`\(text)` is not a number", range: start..<position)
        }
        return value
    }

    /// Quoted text with JavaScript escapes (`\n`, `\t`, `\\`, `\"`, `\'`, `\uXXXX`).
    private mutating func string(quote: Character) throws(BaseEvaluationError) -> String {
        let start = position
        position += 1
        var text = ""
        while let character = peek() {
            position += 1
            if character == quote { return text }
            guard character == "\\" else {
                text.append(character)
                continue
            }
            guard let escaped = peek() else { break }
            position += 1
            switch escaped {
            case "n": text.append("\n")
            case "t": text.append("\t")
            case "r": text.append("\r")
            case "0": text.append("\0")
            case "u":
                let digits = String(characters[position..<min(position + 4, characters.count)])
                guard digits.count == 4, let code = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(code) else {
                    throw BaseEvaluationError("`\\u` must be followed by four hexadecimal digits", range: position - 2..<position)
                }
                text.unicodeScalars.append(scalar)
                position += 4
            default: text.append(escaped)
            }
        }
        throw BaseEvaluationError("the text starting here is never closed: add \(quote)", range: start..<start + 1)
    }

    /// `/pattern/flags`: a regular expression literal; `\/` escapes a slash, `[/]` needs no escape.
    private mutating func regex() throws(BaseEvaluationError) -> BaseRegex {
        let start = position
        position += 1
        var pattern = ""
        var inClass = false
        while let character = peek() {
            position += 1
            if character == "\\", let next = peek() {
                position += 1
                pattern.append(character)
                pattern.append(next)
                continue
            }
            if character == "\n" { break }
            if character == "[" { inClass = true } else if character == "]" { inClass = false }
            if character == "/" && !inClass {
                var flags = ""
                while let flag = peek(), flag.isLetter {
                    flags.append(flag)
                    position += 1
                }
                do {
                    return try BaseRegex(pattern: pattern, flags: flags)
                } catch {
                    throw BaseEvaluationError(error.message, range: start..<position)
                }
            }
            pattern.append(character)
        }
        throw BaseEvaluationError("the regular expression starting here is never closed: add `/`", range: start..<start + 1)
    }

    private mutating func skipSpace() {
        while let character = peek(), character.isWhitespace { position += 1 }
    }

    private func peek(_ offset: Int = 0) -> Character? {
        let index = position + offset
        return index < characters.count ? characters[index] : nil
    }

    private var atEnd: Bool { position >= characters.count }
}
