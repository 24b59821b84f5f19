/// Numbers no one means (NaN, 1000000000000000000000000000000, a duration of 10^300 years) where Rhizome converts to whole
/// numbers: each gives a value or fails the row with a message; none stops the process.
import Testing
@testable import RhizomeCore

private func eval(_ expression: String) throws -> String {
    let evaluator = DataviewEvaluator(now: DataviewDate(year: 2024, month: 1, day: 31))
    return literalText(try evaluator.evaluate(DataviewParser.parseExpression(expression), row: DataviewObject()))
}

@Suite("Dataview: absurd numbers") struct DataviewAbsurdNumberTests {
    @Test func `indexes, depths, lengths and limits that are NaN or huge`() throws {
        #expect(try eval(#""abc"[0 / 0]"#) == "null")
        #expect(try eval(#""abc"[1000000000000000000000000000000]"#) == "null")
        #expect(try eval("flat([[1, [2]]], 0 / 0)") == "[[1, [2]]]")
        #expect(try eval("flat([[1, [2]]], 1000000000000000000000000000000)") == "[1, 2]")
        #expect(try eval(#"truncate("abc", 0 / 0)"#) == #""abc""#)
        #expect(try eval(#"padleft("abc", 0 / 0)"#) == #""abc""#)
        #expect(try eval(#"substring("abc", 0 / 0, 1000000000000000000000000000000)"#) == #""abc""#)
        #expect(try eval(#"split("a,b,c", ",", 0 / 0)"#) == "[]")
        #expect(try eval(#"split("a,b,c", ",", -1)"#) == #"["a", "b", "c"]"#)  // JavaScript's ToUint32
        #expect(try eval(#""ab" * (0 / 0)"#) == #""""#)
        #expect(try eval("round(1.5, 1000000000000000000000000000000)") == "1.5")
        #expect(try eval(#"durationformat(dur(1 day) * 1000000000000000000000000000000, "d")"#).count > 30)
        #expect(try eval(#""abc"[1 / 0]"#) == "null")
    }

    @Test func `text that would be absurdly long fails the row instead`() {
        #expect(throws: DataviewError.self) { try eval(#""ab" * 1000000000000000000000000000000"#) }
        #expect(throws: DataviewError.self) { try eval(#"padleft("a", 1e12)"#) }
    }

    @Test func `dates moved by absurd durations stop a million years away`() throws {
        let far = try eval("date(2024-01-31) + dur(1 day) * 1000000000000000000000000000000")
        #expect(far.hasPrefix("date("))
        #expect(try eval("(date(2024-01-31) - dur(1 year) * 1000000000000000000000000000000).year < -900000") == "true")
    }
}
