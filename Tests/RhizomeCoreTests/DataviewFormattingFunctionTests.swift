/// Dataview's `durationformat`, `currencyformat` and `localtime` (`src/expression/functions.ts`, its
/// functions reference, and Luxon's `Duration.toFormat` examples), over an empty row.
import Foundation
import Testing
@testable import RhizomeCore

private func evaluate(_ expression: String) throws -> DataviewValue {
    let evaluator = DataviewEvaluator(now: DataviewDate(year: 2024, month: 1, day: 31, hour: 10, minute: 30, hasTime: true))
    return try evaluator.evaluate(DataviewParser.parseExpression(expression), row: DataviewObject())
}

private func eval(_ expression: String) throws -> String { literalText(try evaluate(expression)) }

@Suite("Dataview functions: durationformat") struct DataviewDurationFormatTests {
    @Test func `durations spread over the units the format names, padded, as in Dataview's reference`() throws {
        #expect(try eval(#"durationformat(dur("3 days 7 hours 43 seconds"), "ddd'd' hh'h' ss's'")"#) == #""003d 07h 43s""#)
        #expect(try eval(#"durationformat(dur("365 days 5 hours 49 minutes"), "yyyy ddd hh mm ss")"#) == #""0001 000 05 49 00""#)
        #expect(try eval(#"durationformat(dur("2000 years"), "M 'months'")"#) == #""24000 months""#)
        #expect(try eval(#"durationformat(dur("14d"), "s 'seconds'")"#) == #""1209600 seconds""#)
    }

    @Test func `Luxon's own examples of toFormat`() throws {
        #expect(try eval(#"durationformat(dur("1 year 6 days 2 seconds"), "y d s")"#) == #""1 6 2""#)
        #expect(try eval(#"durationformat(dur("1 year 6 days 2 seconds"), "yy dd sss")"#) == #""01 06 002""#)
        #expect(try eval(#"durationformat(dur("1 year 6 days 2 seconds"), "M S")"#) == #""12 518402000""#)
    }

    @Test func `amounts are rounded down, and a year is 52 weeks, a month 4`() throws {
        #expect(try eval(#"durationformat(dur("90 minutes"), "h")"#) == #""1""#)
        #expect(try eval(#"durationformat(dur("90 minutes"), "h:mm")"#) == #""1:30""#)
        #expect(try eval(#"durationformat(dur("1 year"), "w")"#) == #""52""#)
        #expect(try eval(#"durationformat(dur("2 months"), "w 'weeks' d 'days'")"#) == #""8 weeks 0 days""#)
        #expect(try eval(#"durationformat(dur("1 day") - dur("36 hours"), "h")"#) == #""-12""#)
    }

    @Test func `other letters and quoted text are printed as written`() throws {
        #expect(try eval(#"durationformat(dur("2 hours"), "'took' h 'hours' x")"#) == #""took 2 hours x""#)
        // Unquoted, the m, h and s of "months" are tokens, as in Luxon (Dataview's reference, which shows
        // "M months" giving "24000 months", leaves out the quotes).
        #expect(try eval(#"durationformat(dur("2000 years"), "M months")"#) == #""24000 0ont00""#)
    }

    @Test func `durationformat maps over a list of durations; null gives null; other values fail`() throws {
        #expect(try eval(#"durationformat([dur("1 day"), dur("2 days")], "h")"#) == #"["24", "48"]"#)
        #expect(try eval(#"durationformat(null, "h")"#) == "null")
        #expect(throws: DataviewError.self) { try eval(#"durationformat("1 day", "h")"#) }
        #expect(throws: DataviewError.self) { try eval(#"durationformat(dur("1 day"))"#) }
    }
}

@Suite("Dataview functions: currencyformat") struct DataviewCurrencyFormatTests {
    @Test func `numbers as money in US English, dollars by default`() throws {
        #expect(try eval(#"currencyformat(123456.789, "EUR")"#) == #""€123,456.79""#)
        #expect(try eval("currencyformat(123456.789)") == #""$123,456.79""#)
        #expect(try eval(#"currencyformat(123456.789, "JPY")"#) == #""¥123,457""#)
        #expect(try eval(#"currencyformat(-5, "usd")"#) == #""-$5.00""#)
        #expect(try eval(#"currencyformat(0.125, "USD")"#) == #""$0.13""#)  // halves away from zero
        #expect(try eval(#"currencyformat(1.5, "GBP")"#) == #""£1.50""#)
    }

    @Test func `currencyformat maps over a list of numbers; null gives null`() throws {
        #expect(try eval(#"currencyformat([1, 2.5], "EUR")"#) == #"["€1.00", "€2.50"]"#)
        #expect(try eval("currencyformat(null)") == "null")
        #expect(try eval(#"currencyformat(null, "EUR")"#) == "null")
    }

    @Test func `a code that is not three letters, or a value that is not a number, fails the row`() {
        #expect(throws: DataviewError.evaluation(
            message: #"currencyformat(): `EURO` is not a currency code; give three letters from ISO 4217, like "EUR""#)) {
            try eval(#"currencyformat(1, "EURO")"#)
        }
        #expect(throws: DataviewError.self) { try eval(#"currencyformat("1", "EUR")"#) }
        #expect(throws: DataviewError.self) { try eval("currencyformat(1, 2)") }
    }
}

@Suite("Dataview functions: localtime") struct DataviewLocalTimeTests {
    @Test func `a date with an offset becomes the local time of the same moment`() throws {
        let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
        let berlin = DataviewDate(year: 2024, month: 1, day: 31, hour: 10, offsetMinutes: 120, hasTime: true)
        let local = berlin.inLocalTime(tokyo)
        #expect((local.year, local.month, local.day, local.hour, local.minute) == (2024, 1, 31, 17, 0))
        #expect(local.offsetMinutes == nil)
        let late = DataviewDate(year: 2024, month: 1, day: 31, hour: 23, offsetMinutes: 0, hasTime: true).inLocalTime(tokyo)
        #expect(late.isoText == "2024-02-01T08:00:00")
    }

    @Test func `localtime keeps the moment, drops the offset, and leaves local dates alone`() throws {
        #expect(try eval("localtime(date(2024-01-31T10:00:00+02:00)) = date(2024-01-31T10:00:00+02:00)") == "true")
        guard case .date(let local) = try evaluate("localtime(date(2024-01-31T10:00:00+02:00))") else {
            Issue.record("localtime() gave no date")
            return
        }
        #expect(local.offsetMinutes == nil)
        #expect(try eval("localtime(date(2024-01-31T10:00))") == "date(2024-01-31T10:00:00)")
        #expect(try eval("localtime(null)") == "null")
        #expect(try eval("localtime([date(2024-01-31), null])") == "[date(2024-01-31), null]")
        #expect(throws: DataviewError.self) { try eval(#"localtime("2024-01-31")"#) }
    }
}
