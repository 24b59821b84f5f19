/// Functions applied element by element over list arguments, at the positions Dataview vectorises
/// (`FunctionBuilder.vectorize` in `src/expression/functions.ts`; `src/test/function/vectorization.test.ts`).
import Testing
@testable import RhizomeCore

private func eval(_ expression: String) throws -> String {
    let evaluator = DataviewEvaluator(
        resolveLink: { DataviewLink(path: $0 + ".md") }, now: DataviewDate(year: 2024, month: 1, day: 31))
    return literalText(try evaluator.evaluate(DataviewParser.parseExpression(expression), row: DataviewObject([("nothing", .null)])))
}

@Suite("Dataview: functions over several list arguments") struct DataviewVectorizationTests {
    @Test func `Dataview's own cases: one list argument, and several`() throws {
        #expect(try eval(#"replace(list("yes", "re"), "e", "a")"#) == #"["yas", "ra"]"#)
        #expect(try eval(#"lower(["YES", "nO"])"#) == #"["yes", "no"]"#)
        #expect(try eval(#"upper(["okay", "yep", "1"])"#) == #"["OKAY", "YEP", "1"]"#)
        #expect(try eval(#"replace(["a", "b", "c"], ["a", "b", "c"], "d")"#) == #"["d", "d", "d"]"#)
        #expect(try eval(#"replace(["a", "b", "c"], "a", ["d", "e", "f"])"#) == #"["d", "b", "c"]"#)
        #expect(try eval(#"replace(["a", "b", "c"], ["a", "b", "c"], ["x", "y", "z"])"#) == #"["x", "y", "z"]"#)
    }

    @Test func `lists of different lengths stop at the shortest; an empty list gives an empty list`() throws {
        #expect(try eval(#"replace(["a", "b", "c"], ["a", "b"], "d")"#) == #"["d", "d"]"#)
        #expect(try eval(#"startswith(["ab", "cd", "ef"], ["a", "x"])"#) == "[true, false]")
        #expect(try eval("lower([])") == "[]")
        #expect(try eval(#"replace([], "a", "b")"#) == "[]")
    }

    @Test func `elements that are lists are mapped over again`() throws {
        #expect(try eval(#"lower(list(["A", "B"], "C"))"#) == #"[["a", "b"], "c"]"#)
    }

    @Test func `every position of the text functions that take several`() throws {
        #expect(try eval(#"padleft(["a", "bb"], [3, 4], ["-", "*"])"#) == #"["--a", "**bb"]"#)
        #expect(try eval(#"padright("x", [2, 3])"#) == #"["x ", "x  "]"#)
        #expect(try eval(#"substring(["hello", "world"], [1, 2])"#) == #"["ello", "rld"]"#)
        #expect(try eval(#"substring("hello", 0, [1, 2])"#) == #"["h", "he"]"#)
        #expect(try eval(#"truncate(["Hello there!", "Hi"], 8)"#) == #"["Hello...", "Hi"]"#)
        #expect(try eval(#"truncate("Hello there!", [8, 10], ["/", "!"])"#) == #"["Hello t/", "Hello the!"]"#)
        #expect(try eval(##"regexreplace("a1b2", ["\d", "[a-z]"], ["#", ""])"##) == ##"["a#b#", "12"]"##)
        #expect(try eval(#"containsword(["a word", "words"], "word")"#) == "[true, false]")
        #expect(try eval(#"regexmatch(["a+", "b"], "aa")"#) == "[true, false]")
    }

    @Test func `some functions map only over some of their arguments`() throws {
        // contains and its kin: the value looked for, not the container.
        #expect(try eval(#"contains("abc", ["a", "x"])"#) == "[true, false]")
        #expect(try eval(#"contains(["a", "b"], "a")"#) == "true")
        // join: the separator, not the list.
        #expect(try eval(#"join(["a", "b"], [", ", "-"])"#) == #"["a, b", "a-b"]"#)
        // choice: the condition; reduce: the operator.
        #expect(try eval(#"choice([true, false], "y", "n")"#) == #"["y", "n"]"#)
        #expect(try eval(#"reduce([2, 3], ["+", "*"])"#) == "[5, 6]")
        // The first argument only.
        #expect(try eval(#"round([1.26, 2.5], 1)"#) == "[1.3, 2.5]")
        #expect(try eval(#"dateformat([date(2024-01-05), null], "MM")"#) == #"["01", null]"#)
        #expect(try eval(#"date(["2024-01-31", "nope"])"#) == "[date(2024-01-31), null]")
        #expect(try eval(#"dur(["1 day"])"#) == "[dur(P1D)]")
    }

    @Test func `both arguments of default and link`() throws {
        #expect(try eval("default([1, null], [5, 6])") == "[1, 6]")
        #expect(try eval("default(nothing, [1, 2])") == "[1, 2]")
        #expect(try eval("default(5, [1, 2])") == "[5, 5]")  // Dataview's quirk: the value, once per fallback
        #expect(try eval(#"link(["A", "B"], ["x", "y"])"#) == "[[[A.md|x]], [[B.md|y]]]")
    }

    @Test func `a list where a function does not map fails the row`() {
        #expect(throws: DataviewError.evaluation(message: "no implementation of round(number, array)")) { try eval("round(1.5, [0, 1])") }
        #expect(throws: DataviewError.self) { try eval(#"dateformat(date(2024-01-05), ["yyyy", "MM"])"#) }
        #expect(throws: DataviewError.self) { try eval(#"split(["a,b"], ",")"#) }
    }

    @Test func `null arguments give null wherever Dataview has a null variant`() throws {
        #expect(try eval(#"startswith("a", nothing)"#) == "null")
        #expect(try eval(#"replace("a", nothing, "b")"#) == "null")
        #expect(try eval(#"padleft("a", nothing)"#) == "null")
        #expect(try eval(#"split("a,b", nothing)"#) == "null")
        #expect(try eval(#"link("A", nothing)"#) == "[[A.md]]")
        #expect(throws: DataviewError.self) { try eval("lower(5)") }
    }
}
