/// Tokens (numbers, strings, link literals, identifiers, keywords), looking ahead, and errors with the
/// line and column where parsing failed.
extension DataviewParser {
    mutating func numberLiteral() throws(DataviewError) -> Double {
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

    mutating func stringLiteral() throws(DataviewError) -> String {
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
    func isAtLinkLiteral(offset: Int = 0) -> Bool {
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
    mutating func linkText() throws(DataviewError) -> String {
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

    mutating func readTagName() -> String {
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
    mutating func readIdentifier() -> String? {
        guard let first = peek, Self.isIdentifierStart(first) else { return nil }
        let start = position
        position += 1
        while let scalar = peek, Self.isIdentifierContinuation(scalar) { position += 1 }
        // A trailing `-` belongs to an operator (`a- 1`), not the name.
        while position > start + 1, scalars[position - 1] == "-" { position -= 1 }
        return sourceText(from: start)
    }

    /// A keyword-like word (ASCII letters) at the current position, without consuming it.
    func peekWord() -> String? {
        var end = position
        while end < scalars.count, scalars[end].isASCII, scalars[end].properties.isAlphabetic { end += 1 }
        guard end > position else { return nil }
        if end < scalars.count, Self.isIdentifierContinuation(scalars[end]) { return nil }
        return String(String.UnicodeScalarView(scalars[position..<end]))
    }

    mutating func readWord() -> String? {
        guard let word = peekWord() else { return nil }
        position += word.unicodeScalars.count
        return word
    }

    mutating func takeKeyword(_ keyword: String) -> Bool {
        guard let word = peekWord(), word.lowercased() == keyword else { return false }
        position += word.unicodeScalars.count
        return true
    }

    /// A single-character operator that is not the start of a longer one (`&` but not `&&` handling).
    mutating func takeOperator(_ scalar: Unicode.Scalar) -> Bool {
        guard peek == scalar else { return false }
        position += 1
        return true
    }

    mutating func take(_ literal: String) -> Bool {
        let literalScalars = Array(literal.unicodeScalars)
        guard position + literalScalars.count <= scalars.count,
              Array(scalars[position..<(position + literalScalars.count)]) == literalScalars else { return false }
        position += literalScalars.count
        return true
    }

    mutating func take(_ scalar: Unicode.Scalar) -> Bool {
        guard peek == scalar else { return false }
        position += 1
        return true
    }

    var isAtEnd: Bool { position >= scalars.count }
    var peek: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }
    func peek(at offset: Int) -> Unicode.Scalar? {
        position + offset < scalars.count ? scalars[position + offset] : nil
    }

    /// At the end, or at a word that starts a data command. `sort` is also a field name: it starts a
    /// command when what follows it can start an expression (`SORT file.name`), and is a field when an
    /// operator, comma or nothing follows (`WHERE sort > 2`, `TABLE sort, x`).
    var isAtCommandOrEnd: Bool {
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
    func expressionText(from start: Int) -> String {
        String(String.UnicodeScalarView(scalars[start..<max(start, expressionEnd)]))
    }

    func sourceText(from start: Int) -> String {
        String(String.UnicodeScalarView(scalars[start..<position])).trimmingSpaces
    }

    func describeNext() -> String {
        guard !isAtEnd else { return "the end of the query" }
        var end = position
        while end < scalars.count, end - position < 20, !(scalars[end] == " " || scalars[end] == "\n") { end += 1 }
        if end == position { end += 1 }
        return "`" + String(String.UnicodeScalarView(scalars[position..<end])) + "`"
    }

    func lineAndColumn(of offset: Int) -> (Int, Int) {
        var line = 1, lineStart = 0
        for index in 0..<min(offset, scalars.count) where scalars[index] == "\n" {
            line += 1
            lineStart = index + 1
        }
        return (line, offset - lineStart + 1)
    }

    /// The text of a 1-based line, without its line end. Lines are split at `\n` scalars, as
    /// `lineAndColumn` counts them: a String split on the Character `\n` would not split at `\r\n`.
    func sourceLine(_ line: Int) -> String {
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
    mutating func enter() throws(DataviewError) {
        nesting += 1
        if nesting > Self.maximumNesting {
            throw failure("the query nests deeper than \(Self.maximumNesting) levels of parentheses, calls, lists or `!`/`-`; simplify it")
        }
    }

    mutating func leave() { nesting -= 1 }

    /// Counts one operator; fails past `maximumOperators`.
    mutating func countOperator() throws(DataviewError) {
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
