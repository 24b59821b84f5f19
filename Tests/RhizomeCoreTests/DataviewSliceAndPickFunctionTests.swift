/// Dataview functions that cut and pick: `substring`, `slice`, `minby`, `maxby`, `ldefault`, `extract`
/// (Dataview's `src/expression/functions.ts` and its functions reference), over a row built by hand.
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
    }

    @Test func `ldefault replaces a null value but not the nulls inside a list`() throws {
        #expect(try eval("ldefault(nothing, 5)") == "5")
        #expect(try eval("ldefault(3, 5)") == "3")
        #expect(try eval("ldefault([1, null], 5)") == "[1, null]")
        #expect(try eval("default([1, null], 5)") == "[1, 5]")  // the element-wise one, for contrast
    }

    @Test func `extract keeps the named keys an object has, in the order named`() throws {
        #expect(try eval(#"extract(meta, "year", "author")"#) == #"{year: 1843, author: "Ada"}"#)
        #expect(try eval(#"extract(meta, "author", "missing")"#) == #"{author: "Ada"}"#)
        #expect(try eval(#"extract(nothing, "author")"#) == "null")
    }
}
