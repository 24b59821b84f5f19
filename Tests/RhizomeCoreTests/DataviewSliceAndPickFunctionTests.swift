/// Dataview functions that cut, pick and hash: `substring`, `slice`, `minby`, `maxby`, `ldefault`, `extract`,
/// `hash` (Dataview's `src/expression/functions.ts`, its unit tests and functions reference), over a row
/// built by hand.
import Testing
@testable import RhizomeCore

@Suite("Dataview functions: cutting and picking") struct DataviewSliceAndPickFunctionTests {
    private static let row = DataviewObject([
        ("books", .list([
            .object(DataviewObject([("title", .string("SICP")), ("pages", .number(657))])),
            .object(DataviewObject([("title", .string("K&R")), ("pages", .number(272))])),
            .object(DataviewObject([("title", .string("TAOCP")), ("pages", .number(672))])),
            .object(DataviewObject([("title", .string("Short")), ("pages", .number(272))])),
        ])),
        ("meta", .object(DataviewObject([("author", .string("Ada")), ("year", .number(1843)), ("topic", .string("engines"))]))),
        ("nothing", .null),
    ])

    private func eval(_ expression: String) throws -> String {
        let evaluator = DataviewEvaluator(
            thisPage: .object(DataviewObject()), resolveLink: { DataviewLink(path: $0 + ".md") }, linkedPage: { _ in nil },
            now: DataviewDate(year: 2024, month: 1, day: 31))
        return literalText(try evaluator.evaluate(DataviewParser.parseExpression(expression), row: Self.row))
    }

    @Test func `substring counts from zero, clamps its bounds and swaps them as JavaScript does`() throws {
        #expect(try eval(#"substring("hello", 1)"#) == #""ello""#)
        #expect(try eval(#"substring("hello", 0, 2)"#) == #""he""#)
        #expect(try eval(#"substring("hello", 3, 1)"#) == #""el""#)
        #expect(try eval(#"substring("hello", -4, 99)"#) == #""hello""#)
        #expect(try eval(#"substring("😀ab", 2)"#) == #""ab""#)  // an emoji is two UTF-16 units
        #expect(try eval("substring(nothing, 1)") == "null")
        #expect(try eval(#"substring("hello", nothing)"#) == "null")
        #expect(try eval(#"substring(list("hello", "world"), 1)"#) == #"["ello", "orld"]"#)
    }

    @Test func `slice takes a part of a list, negative positions from the end`() throws {
        #expect(try eval("slice([1, 2, 3, 4, 5], 1, 3)") == "[2, 3]")
        #expect(try eval("slice([1, 2, 3, 4, 5], -2)") == "[4, 5]")
        #expect(try eval("slice([1, 2, 3, 4, 5])") == "[1, 2, 3, 4, 5]")
        #expect(try eval("slice([1, 2, 3], 2, 1)") == "[]")
        #expect(try eval("slice([1, 2, 3], 0, -1)") == "[1, 2]")
        #expect(try eval("slice(nothing, 1)") == "null")
    }

    @Test func `minby and maxby return the element with the least or greatest key, the first of equals`() throws {
        #expect(try eval("minby(books, (b) => b.pages).title") == #""K&R""#)
        #expect(try eval("maxby(books, (b) => b.pages).title") == #""TAOCP""#)
        #expect(try eval("maxby([3, -7, 5], (x) => x * x)") == "-7")
        #expect(try eval("minby([], (x) => x)") == "null")
        #expect(try eval("minby(nothing, (x) => x)") == "null")
        // Equal keys: minby keeps the first, maxby the last (as Dataview, asymmetric).
        #expect(try eval("minby(books, (b) => b.pages).title") == #""K&R""#)
        #expect(try eval("maxby(slice(books, 1, 2) + slice(books, 3), (b) => b.pages).title") == #""Short""#)
        // Null keys are passed over; when every key is null, the first element.
        #expect(try eval("minby([5, 6, 7], (x) => choice(x = 6, x, null))") == "6")
        #expect(try eval("minby([5, 6], (x) => null)") == "5")
    }

    @Test func `ldefault replaces a null value but not the nulls inside a list`() throws {
        #expect(try eval("ldefault(nothing, 5)") == "5")
        #expect(try eval("ldefault(3, 5)") == "3")
        #expect(try eval("ldefault([1, null], 5)") == "[1, null]")
        #expect(try eval("default([1, null], 5)") == "[1, 5]")  // the element-wise one, for contrast
    }

    @Test func `extract makes an object of the named keys, in the order named, a missing one null`() throws {
        #expect(try eval(#"extract(meta, "year", "author")"#) == #"{year: 1843, author: "Ada"}"#)
        #expect(try eval(#"extract(meta, "author", "missing")"#) == #"{author: "Ada", missing: null}"#)
        #expect(try eval(#"extract(nothing, "author")"#) == "{author: null}")
        #expect(try eval(#"extract(books, "pages")"#) == "[{pages: 657}, {pages: 272}, {pages: 672}, {pages: 272}]")
    }

    @Test func `hash gives Dataview's numbers: cyrb53 of seed and text, the variant as its seed`() throws {
        // The pairs Dataview's own tests pin.
        #expect(try eval(#"hash("2024-03-17", "")"#) == "3259376374957153")
        #expect(try eval(#"hash("2024-03-17", 2)"#) == "271608741894590")
        #expect(try eval(#"hash("2024-03-17", "Home")"#) == "3041844187830523")
        #expect(try eval(#"hash("2024-03-17", "note a1", 21)"#) == "1143088188331616")
        #expect(try eval(#"hash("ab", "c") = hash("a", "bc")"#) == "true")
        #expect(throws: DataviewError.self) { try eval(#"hash("seed")"#) }
    }
}

@Suite("Dataview functions: display") struct DataviewDisplayFunctionTests {
    private func eval(_ expression: String) throws -> String {
        let evaluator = DataviewEvaluator(
            thisPage: .object(DataviewObject()),
            resolveLink: { text in
                let (path, subpath, display) = DataviewLink.parts(of: text)
                return DataviewLink(path: path.contains(".") ? path : path + ".md", subpath: subpath, display: display)
            },
            linkedPage: { _ in nil }, now: DataviewDate(year: 2024, month: 1, day: 31))
        return literalText(try evaluator.evaluate(DataviewParser.parseExpression(expression), row: DataviewObject()))
    }

    @Test func `markdown is stripped from text, and wikilinks read as their text`() throws {
        #expect(try eval(#"display("**Hello** World")"#) == #""Hello World""#)
        #expect(try eval(#"display("[displayname](http://example.com)")"#) == #""displayname""#)
        #expect(try eval(#"display("[[test|displayname]]")"#) == #""displayname""#)
        #expect(try eval(#"display("long [[test]] **with** [[test2|multiple]] [links](http://example.com)")"#) == #""long test with multiple links""#)
        #expect(try eval(#"display("- a _quiet_ `note` ~~gone~~")"#) == #""a quiet note gone""#)
        // Only the first aliased wikilink is replaced, as in Dataview.
        #expect(try eval(#"display("[[a|x]] and [[b|y]]")"#) == #""x and [[b|y]]""#)
    }

    @Test func `values read as Dataview shows them, null as nothing`() throws {
        #expect(try eval("display(1)") == #""1""#)
        #expect(try eval("display(true)") == #""true""#)
        #expect(try eval("display(null)") == #""""#)
        #expect(try eval("display(date(2024-11-18))") == #""November 18, 2024""#)
        #expect(try eval(#"display(dur("7 hours"))"#) == #""7 hours""#)
    }

    @Test func `links read as their display text or their file's name, lists joined`() throws {
        #expect(try eval(#"display(link("path/to/file.md"))"#) == #""file""#)
        #expect(try eval(#"display(link("path/to/file.md", "displayname"))"#) == #""displayname""#)
        #expect(try eval(#"display(list("test", 2, link("file.md")))"#) == #""test, 2, file""#)
        let section = try eval("display([[Note#Setup]])")
        #expect(section == #""Note > Setup""#)
    }
}

@Suite("Dataview: lambdas called where they stand") struct DataviewLambdaApplicationTests {
    private func eval(_ expression: String) throws -> String {
        let evaluator = DataviewEvaluator(
            thisPage: .object(DataviewObject()), resolveLink: { DataviewLink(path: $0 + ".md") }, linkedPage: { _ in nil },
            now: DataviewDate(year: 2024, month: 1, day: 31))
        return literalText(try evaluator.evaluate(DataviewParser.parseExpression(expression), row: DataviewObject([("n", .number(4))])))
    }

    @Test func `a lambda in parentheses is called with the arguments after it`() throws {
        #expect(try eval("((a, b) => a + b)(1, 2)") == "3")
        #expect(try eval("((x) => x * n)(3)") == "12")
        #expect(try eval("((x) => (y) => x - y)(10)(4)") == "6")
        #expect(try eval("(1 + 2) * 3") == "9")  // a parenthesis followed by an operator is no call
    }

    @Test func `calling something that is not a function is an error`() {
        #expect(throws: DataviewError.self) { try eval("(1 + 2)(3)") }
    }
}
