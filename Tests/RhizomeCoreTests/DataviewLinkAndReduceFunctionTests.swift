/// Dataview's `elink`, `embed` and `reduce` (`src/expression/functions.ts`, its functions reference and
/// unit tests), over a row built by hand.
import Foundation
import Testing
@testable import RhizomeCore

private func evaluate(_ expression: String, row: DataviewObject = DataviewObject()) throws -> DataviewValue {
    let evaluator = DataviewEvaluator(
        thisPage: .object(DataviewObject([("operand", .string("*"))])),
        resolveLink: { text in
            let (path, subpath, display) = DataviewLink.parts(of: text)
            return DataviewLink(path: path.contains(".") ? path : path + ".md", subpath: subpath, display: display)
        },
        linkedPage: { _ in nil }, now: DataviewDate(year: 2024, month: 1, day: 31))
    return try evaluator.evaluate(DataviewParser.parseExpression(expression), row: row)
}

private func eval(_ expression: String) throws -> String {
    literalText(try evaluate(expression, row: DataviewObject([("values", .list([.number(2), .number(3), .number(4)])), ("nothing", .null)])))
}

@Suite("Dataview functions: elink and embed") struct DataviewLinkFunctionTests {
    @Test func `elink makes an external link shown as its display text, or as its address`() throws {
        #expect(try eval(#"elink("www.google.com", "Google")"#) == #"elink("www.google.com", "Google")"#)
        #expect(try eval(#"elink("www.google.com")"#) == #"elink("www.google.com", "www.google.com")"#)
        #expect(try eval(#"elink("https://x.org", null)"#) == #"elink("https://x.org", "https://x.org")"#)
        #expect(try eval("elink(null)") == "null")
        #expect(try eval(#"elink(null, "x")"#) == "null")
    }

    @Test func `an external link is a widget that reads as a markdown link`() throws {
        #expect(try eval(#"typeof(elink("www.google.com"))"#) == #""widget""#)
        #expect(try eval(#"string(elink("https://x.org", "X"))"#) == #""[X](https://x.org)""#)
        #expect(try eval(#""see " + elink("https://x.org", "X")"#) == #""see [X](https://x.org)""#)
        #expect(try eval(#"display(elink("https://x.org"))"#) == #""[https://x.org](https://x.org)""#)
        #expect(DataviewText.terminal(try evaluate(#"elink("https://x.org", "X")"#)) == "X")
        #expect(try evaluate(#"elink("https://x.org")"#).isTruthy)
        // As in Dataview, widgets compare equal to one another, and sort after every other type.
        #expect(try eval(#"elink("https://a.org") = elink("https://b.org")"#) == "true")
        #expect(try eval(#"elink("https://a.org") > "text""#) == "true")
    }

    @Test func `elink maps over a list of addresses, not of display texts`() throws {
        #expect(try eval(#"elink(["https://a.org", "https://b.org"], "site")"#)
            == #"[elink("https://a.org", "site"), elink("https://b.org", "site")]"#)
        #expect(try eval(#"elink(["https://a.org"])"#) == #"[elink("https://a.org", "https://a.org")]"#)
        #expect(throws: DataviewError.self) { try eval(#"elink("https://a.org", ["x", "y"])"#) }
        #expect(throws: DataviewError.self) { try eval("elink(5)") }
    }

    @Test func `embed makes a link an embed, or with false a plain link again`() throws {
        #expect(try eval("embed([[Alpha]])") == "![[Alpha.md]]")
        #expect(try eval("embed(![[diagram.png]], false)") == "[[diagram.png]]")
        #expect(try eval("embed([[Alpha]], true)") == "![[Alpha.md]]")
        #expect(try eval(#"meta(embed(link("Hello.png"))).embed"#) == "true")
        #expect(try eval("embed(null)") == "null")
        #expect(try eval("embed([[Alpha]], null)") == "null")
        #expect(try eval("embed(list([[Alpha]], [[Beta]]), [true, false])") == "[![[Alpha.md]], [[Beta.md]]]")
        #expect(throws: DataviewError.self) { try eval(#"embed("Alpha")"#) }
        #expect(throws: DataviewError.self) { try eval(#"embed([[Alpha]], "yes")"#) }
    }
}

@Suite("Dataview functions: reduce") struct DataviewReduceFunctionTests {
    @Test func `reduce folds a list with an operator from its first element`() throws {
        // The examples of Dataview's functions reference.
        #expect(try eval(#"reduce([100, 20, 3], "-")"#) == "77")
        #expect(try eval(#"reduce([200, 10, 2], "/")"#) == "10")
        #expect(try eval(#"reduce(["⭐", 3], "*")"#) == #""⭐⭐⭐""#)
        #expect(try eval(#"reduce([1], "+")"#) == "1")
        #expect(try eval(#"reduce(values, "*") = product(values)"#) == "true")
        #expect(try eval(#"reduce(values, this.operand)"#) == "24")
        #expect(try eval(#"reduce([true, 1, "x"], "&")"#) == "true")
        #expect(try eval(#"reduce([0, null], "|")"#) == "false")
    }

    @Test func `reduce with a function passes null elements over`() throws {
        #expect(try eval("reduce([1, null, 2, 3], (a, b) => a + b)") == "6")
        #expect(try eval("reduce([3, 9, 4], (a, b) => max(a, b))") == "9")
        #expect(try eval("reduce([], (a, b) => a + b)") == "null")
    }

    @Test func `reduce of an empty list or of null is null, and it maps over a list of operators`() throws {
        #expect(try eval(#"reduce([], "+")"#) == "null")
        #expect(try eval(#"reduce([], "?")"#) == "null")
        #expect(try eval(#"reduce(nothing, "+")"#) == "null")
        #expect(try eval("reduce(values, null)") == "null")
        #expect(try eval(#"reduce(values, ["+", "*"])"#) == "[9, 24]")
    }

    @Test func `reduce with another operator, or of something not a list, fails the row`() {
        #expect(throws: DataviewError.evaluation(
            message: #"reduce(list, operator) takes "+", "-", "*", "/", "&" or "|", not "^""#)) { try eval(#"reduce([1, 2], "^")"#) }
        #expect(throws: DataviewError.self) { try eval(#"reduce("abc", "+")"#) }
        #expect(throws: DataviewError.self) { try eval("reduce([1, 2], 3)") }
        #expect(throws: DataviewError.self) { try eval(#"reduce([1, null], "+")"#) }  // number + null, as sum()
    }
}
