/// Dates as Dataview's parser reads them (`src/expression/parse.ts`, `date`; the cases of
/// `src/test/parse/parse.expression.test.ts`): one-digit offsets and zone names in brackets, kept through
/// arithmetic as Luxon keeps them; and two-digit years in `date(text, format)`.
import Foundation
import Testing
@testable import RhizomeCore

private func date(_ text: String) -> DataviewDate? { DataviewDate.parse(text, allowsSpaceBeforeTime: false) }

private func eval(_ expression: String) throws -> String {
    let evaluator = DataviewEvaluator(now: DataviewDate(year: 2024, month: 1, day: 31, hour: 10, minute: 30, hasTime: true))
    return literalText(try evaluator.evaluate(DataviewParser.parseExpression(expression), row: DataviewObject()))
}

@Suite("Dataview dates: offsets and zone names") struct DataviewDateZoneTests {
    @Test func `offsets of one or two hour digits, as Dataview's own tests have them`() throws {
        let west = try #require(date("1984-08-15T12:40:50-07:00"))
        #expect([west.year, west.month, west.day, west.hour, west.minute, west.second, west.millisecond] as [Int] == [1984, 8, 15, 12, 40, 50, 0])
        #expect(DataviewDateFormat.zoneName(of: west) == "UTC-7")
        #expect(date("1984-08-15T12:40:50+9")?.offsetMinutes == 540)
        #expect(date("1984-08-15T12:40:50+9").map(DataviewDateFormat.zoneName) == "UTC+9")
        #expect(date("1985-12-06T19:40:10+06:30").map(DataviewDateFormat.zoneName) == "UTC+6:30")
        #expect(date("1985-12-06T19:40:10Z").map(DataviewDateFormat.zoneName) == "UTC")
        #expect(date("1985-12-06T19:40:10.123Z").map(DataviewDateFormat.zoneName) == "UTC")
        #expect(date("1985-12-06T19:40:10-6:30")?.offsetMinutes == -390)
        #expect(date("1985-12-06T19:40:10+9:3") == nil)
    }

    @Test func `a zone name in brackets keeps the time and takes the zone's offset on that day`() throws {
        let summer = try #require(date("2021-08-15T12:40:50[Europe/Paris]"))
        #expect([summer.hour, summer.minute, summer.second] as [Int] == [12, 40, 50])
        #expect(summer.isoText == "2021-08-15T12:40:50+02:00")
        #expect(DataviewDateFormat.zoneName(of: summer) == "Europe/Paris")
        #expect(date("2021-11-15T12:40:50[Europe/Paris]")?.isoText == "2021-11-15T12:40:50+01:00")
        #expect(date("2021-11-15T12:40[Asia/Tokyo]")?.isoText == "2021-11-15T12:40:00+09:00")
    }

    @Test func `zone names as Luxon reads them: any case, UTC offsets, the local zone`() {
        #expect(date("2021-08-15T12:40:50[europe/paris]")?.isoText == "2021-08-15T12:40:50+02:00")
        #expect(date("2021-08-15T12:40:50[UTC]")?.isoText == "2021-08-15T12:40:50Z")
        #expect(date("2021-08-15T12:40:50[UTC+3]")?.isoText == "2021-08-15T12:40:50+03:00")
        #expect(date("2021-08-15T12:40:50[utc-2]")?.offsetMinutes == -120)
        #expect(date("2021-08-15T12:40:50[UTC-2:30]") == nil)  // Dataview reads no `:` in brackets
        #expect(date("2021-08-15T12:40:50[local]")?.isoText == "2021-08-15T12:40:50")
        #expect(date("2021-08-15T12:40:50[Etc/GMT+9]")?.offsetMinutes == -540)
    }

    @Test func `a zone that does not exist, or a name with characters Dataview does not read, is no date`() {
        #expect(date("2021-08-15T12:40:50[Mars/Olympus]") == nil)
        #expect(date("2021-08-15T12:40:50[America/New_York]") == nil)  // `_` is not among them
        #expect(date("2021-08-15T12:40:50[GMT+9]") == nil)
        #expect(date("2021-08-15T12:40:50[]") == nil)
        #expect(date("2021-08-15T12:40:50[Europe/Paris") == nil)
        #expect(date("2021-08-15[Europe/Paris]") == nil)
        #expect(date("4237-14-73") == nil)
    }

    @Test func `a date and an hour is a date-time, as in Dataview`() throws {
        let hour = try #require(date("2024-01-31T10"))
        #expect(hour.isoText == "2024-01-31T10:00:00")
        #expect(date("2024-01-31T10+9") == nil)
        #expect(DataviewDate.parse("2024-01-31 10", allowsSpaceBeforeTime: true) == nil)  // YAML's form wants minutes
    }

    @Test func `days move the clock time, hours move the instant, across a change of clocks`() throws {
        // Paris moved its clocks from 02:00 to 03:00 on 28 March 2021.
        #expect(try eval("date(2021-03-27T12:00:00[Europe/Paris]) + dur(1 day)") == "date(2021-03-28T12:00:00+02:00)")
        #expect(try eval("date(2021-03-27T12:00:00[Europe/Paris]) + dur(24 hours)") == "date(2021-03-28T13:00:00+02:00)")
        #expect(try eval("date(2021-03-28T12:00:00[Europe/Paris]) - dur(1 month)") == "date(2021-02-28T12:00:00+01:00)")
        #expect(try eval("date(2021-03-28T12:00:00[Europe/Paris]) - date(2021-03-27T12:00:00[Europe/Paris])") == "dur(P1D)")  // a calendar day, 23 hours long
        // A time the clocks skip moves on by the gap, as Luxon moves it.
        #expect(date("2021-03-28T02:30:00[Europe/Paris]")?.isoText == "2021-03-28T03:30:00+02:00")
        let day = try #require(date("2021-08-15T12:40:50[Europe/Paris]")).startOfDay
        #expect((day.isoText, day.zoneName) == ("2021-08-15", "Europe/Paris"))
    }

    @Test func `zones in date literals, date() of text, fields and dateformat`() throws {
        #expect(try eval("date(2021-08-15T12:40:50[Europe/Paris]) = date(2021-08-15T10:40:50Z)") == "true")
        #expect(try eval(#"date("2021-08-15T12:40:50[Europe/Paris]")"#) == "date(2021-08-15T12:40:50+02:00)")
        #expect(try eval(#"date("1984-08-15T12:40:50+9").hour"#) == "12")
        #expect(try eval(#"dateformat(date("2021-08-15T12:40:50[Europe/Paris]"), "HH:mm z")"#) == #""12:40 Europe/Paris""#)
        #expect(try eval(#"dateformat(date("1984-08-15T12:40:50+9"), "z")"#) == #""UTC+9""#)
        #expect(literalText(DataviewFieldValue.inline("2021-08-15T12:40:50[Europe/Paris]", resolveLink: { DataviewLink(path: $0) }))
            == "date(2021-08-15T12:40:50+02:00)")
    }
}

@Suite("Dataview dates: two-digit years in formats") struct DataviewTwoDigitYearTests {
    @Test func `yy takes two digits when the rest of the format needs the others, as in Dataview's test`() throws {
        #expect(try eval(#"date("210313", "yyMMdd")"#) == "date(2021-03-13)")
        #expect(try eval(#"date("12/31/2022", "MM/dd/yyyy")"#) == "date(2022-12-31)")
        #expect(try eval(#"date("31032021", "dMMyyyy")"#) == "date(2021-03-31)")
        #expect(try eval(#"date("1032021", "dMMyyyy")"#) == "date(2021-03-01)")
    }

    @Test func `two-digit years up to 60 are this century's, later ones the last's; more digits are the year`() throws {
        #expect(try eval(#"date("60-01-01", "yy-MM-dd")"#) == "date(2060-01-01)")
        #expect(try eval(#"date("61-01-01", "yy-MM-dd")"#) == "date(1961-01-01)")
        #expect(try eval(#"date("2021-01-01", "yy-MM-dd")"#) == "date(2021-01-01)")
        #expect(try eval(#"date("099-01-01", "yy-MM-dd")"#) == "date(1999-01-01)")
        #expect(try eval(#"date("150-01-01", "yy-MM-dd")"#) == "date(0150-01-01)")
    }

    @Test func `dateformat writes the last two digits of the year`() throws {
        #expect(try eval(#"dateformat(date(2021-03-13), "yyMMdd")"#) == #""210313""#)
        #expect(try eval(#"dateformat(date(1999-12-31), "dd.MM.yy")"#) == #""31.12.99""#)
    }
}
