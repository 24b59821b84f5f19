/// Tests of `BaseExpressionParser`: the shapes of Bases expressions from Obsidian's help and real `.base`
/// files, JavaScript precedence, and errors that point at the right character.
import Testing
@testable import RhizomeCore

/// The expression written back with every operation parenthesized, to check the tree's shape.
private func shape(_ text: String) throws -> String {
    try render(BaseExpressionParser.parse(text))
}

private func render(_ expression: BaseExpression) -> String {
    switch expression.kind {
    case .literal(let value):
        switch value {
        case .string(let text): return "\"\(text)\""
        case .number(let number): return number == number.rounded() ? String(Int(number)) : String(number)
        case .boolean(let flag): return String(flag)
        case .null: return "null"
        case .regex(let regex): return "/\(regex.pattern)/\(regex.flags)"
        default: return "?"
        }
    case .identifier(let name): return name
    case .member(let receiver, let name): return "\(render(receiver)).\(name)"
    case .index(let receiver, let index): return "\(render(receiver))[\(render(index))]"
    case .call(let name, let arguments): return "\(name)(\(arguments.map(render).joined(separator: ", ")))"
    case .method(let receiver, let name, let arguments):
        return "\(render(receiver)).\(name)(\(arguments.map(render).joined(separator: ", ")))"
    case .unary(let op, let operand): return "(\(op.rawValue)\(render(operand)))"
    case .binary(let op, let left, let right): return "(\(render(left)) \(op.rawValue) \(render(right)))"
    case .list(let items): return "[\(items.map(render).joined(separator: ", "))]"
    case .object(let entries): return "{\(entries.map { "\($0.key): \(render($0.value))" }.joined(separator: ", "))}"
    }
}

private func failure(_ text: String) -> BaseEvaluationError? {
    do {
        _ = try BaseExpressionParser.parse(text)
        return nil
    } catch {
        return error
    }
}

@Suite("Bases expressions: parsing") struct BaseExpressionParserTests {
    @Test("the help's filter and formula examples parse into the expected trees")
    func helpExamples() throws {
        #expect(try shape(#"file.hasTag("tag")"#) == #"file.hasTag("tag")"#)
        #expect(try shape(#"if(price, price.toFixed(2) + " dollars")"#) == #"if(price, (price.toFixed(2) + " dollars"))"#)
        #expect(try shape("(price / age).toFixed(2)") == "(price / age).toFixed(2)")
        #expect(try shape("values.mean().round(3)") == "values.mean().round(3)")
        #expect(try shape(#"status != "done""#) == #"(status != "done")"#)
        #expect(try shape(#"date("2024-12-01") + "1M" + "4h" + "3m""#) == #"(((date("2024-12-01") + "1M") + "4h") + "3m")"#)
        #expect(try shape("file.mtime > now() - \"1 week\"") == "(file.mtime > (now() - \"1 week\"))")
        #expect(try shape("[1,2,3,4].filter(value > 2)") == "[1, 2, 3, 4].filter((value > 2))")
        #expect(try shape("[1,2,3].reduce(acc + value, 0)") == "[1, 2, 3].reduce((acc + value), 0)")
        #expect(try shape(#"note["price"]"#) == #"note["price"]"#)
        #expect(try shape("property[0]") == "property[0]")
    }

    @Test("lines from real .base files parse: negation, nested lambdas, this")
    func realFiles() throws {
        #expect(try shape(#"!file.name.contains("Template")"#) == #"(!file.name.contains("Template"))"#)
        #expect(try shape(#"categories.contains(link("Movies"))"#) == #"categories.contains(link("Movies"))"#)
        #expect(try shape("list(this.file.links).filter(list(file.links).containsAny(value)).unique().length")
            == "list(this.file.links).filter(list(file.links).containsAny(value)).unique().length")
        #expect(try shape("file.links.contains(this.file)") == "file.links.contains(this.file)")
    }

    @Test("numbers take methods directly, and a dot followed by a digit is a fraction")
    func numberMethods() throws {
        #expect(try shape("1.isTruthy()") == "1.isTruthy()")
        #expect(try shape("123.toString()") == "123.toString()")
        #expect(try shape("(2.5).round()") == "2.5.round()")
        #expect(try shape("(-5).abs()") == "(-5).abs()")
        #expect(try shape("1.5e3 + .5") == "(1500 + 0.5)")
    }

    @Test("operators bind as in JavaScript and associate to the left")
    func precedence() throws {
        #expect(try shape("a || b && c") == "(a || (b && c))")
        #expect(try shape("a == b < c") == "(a == (b < c))")
        #expect(try shape("a + b * c % d") == "(a + ((b * c) % d))")
        #expect(try shape("a - b - c") == "((a - b) - c)")
        #expect(try shape("!a && -b <= +c") == "((!a) && ((-b) <= (+c)))")
        #expect(try shape("a != b") == "(a != b)")
    }

    @Test("literals: both quotes with escapes, lists, objects, regular expressions, true, false, null")
    func literals() throws {
        #expect(try shape(#"'it\'s' + "say \"hi\"\n""#) == "(\"it's\" + \"say \"hi\"\n\")")
        #expect(try shape(#"{"a": 1, b: [true, null]}"#) == "{a: 1, b: [true, null]}")
        #expect(try shape(#""a:b".replace(/:/g, "-")"#) == #""a:b".replace(/:/g, "-")"#)
        #expect(try shape(#"/[/]x\/y/i.matches("q")"#) == #"/[/]x\/y/i.matches("q")"#)
        #expect(try shape("a / b / c") == "((a / b) / c)")
        #expect(try shape(#""\u00e9""#) == "\"é\"")
    }

    @Test("property names in any script, with underscores and digits")
    func unicodeNames() throws {
        #expect(try shape("formula.謎 + 予定_2") == "(formula.謎 + 予定_2)")
    }

    @Test("errors say what was expected and point at the character")
    func errors() throws {
        let unclosed = try #require(failure(#"if(price, "a""#))
        #expect(unclosed.message.contains("never closed"))
        #expect(unclosed.range?.lowerBound == 2)

        let stray = try #require(failure("price ) 2"))
        #expect(stray.message.contains("unexpected `)`"))
        #expect(stray.range?.lowerBound == 6)

        let text = try #require(failure(#"name == "open"#))
        #expect(text.message.contains("never closed"))
        #expect(text.range?.lowerBound == 8)

        let dot = try #require(failure("file."))
        #expect(dot.message.contains("after `.`"))

        let empty = try #require(failure("   "))
        #expect(empty.message.contains("empty"))

        let regex = try #require(failure("/(/.matches(x)"))
        #expect(regex.message.contains("regular expression"))

        let flag = try #require(failure(#"/a/q.matches("a")"#))
        #expect(flag.message.contains("flag"))
    }

    @Test("hostile nesting is refused with an error, not a crash")
    func deepNesting() throws {
        let parentheses = String(repeating: "(", count: 10_000) + "1" + String(repeating: ")", count: 10_000)
        #expect(failure(parentheses)?.message.contains("nests deeper") == true)
        let negations = String(repeating: "!", count: 10_000) + "a"
        #expect(failure(negations)?.message.contains("nests deeper") == true)
        let chained = Array(repeating: "a", count: 1_000).joined(separator: " + ")
        #expect(failure(chained) == nil)
    }
}
