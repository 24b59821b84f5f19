/// Tests of Dataview's values outside expressions: dates (`DataviewDate`), durations (`DataviewDuration`),
/// date formats (`DataviewDateFormat`), text rendering (`DataviewText`), the order of values, field values
/// read from notes (`DataviewFieldValue`) and dates in file names (`FileDay`). Expected results follow
/// Dataview and Luxon (dataview-spec.md §1.5, §2, §3, §7, §9, §10).
import Foundation
import Testing
@testable import RhizomeCore

private func date(_ text: String) -> DataviewDate? { DataviewDate.parse(text) }

private func duration(_ text: String) -> DataviewDuration? { DataviewDuration.parse(text) }

/// `[[path#subpath|display]]` to a link to `path` as written, subpath and display split off.
private func resolve(_ text: String) -> DataviewLink {
    let (path, subpath, display) = DataviewLink.parts(of: text)
    return DataviewLink(path: path, subpath: subpath, display: display)
}

private func inline(_ text: String) -> String { literalText(DataviewFieldValue.inline(text, resolveLink: resolve)) }

private func frontmatter(_ text: String) -> String { literalText(DataviewFieldValue.frontmatterString(text, resolveLink: resolve)) }

// MARK: Dates

@Suite("Dataview values: dates") struct DataviewDateTests {
    @Test func `a day, a month, and date-times to the millisecond`() throws {
        let day = try #require(date("2024-01-31"))
        #expect([day.year, day.month, day.day] as [Int] == [2024, 1, 31])
        #expect(!day.hasTime)
        #expect(day.offsetMinutes == nil)
        #expect(date("2024-01")?.isoText == "2024-01-01")
        let time = try #require(date("2024-01-31T10:30"))
        #expect([time.hour, time.minute, time.second, time.millisecond] as [Int] == [10, 30, 0, 0])
        #expect(time.hasTime)
        #expect(date("2024-01-31T10:30:15")?.second == 15)
        #expect(date("2024-01-31T10:30:15.250")?.millisecond == 250)
        #expect(date("2024-01-31T23:59:59.999")?.isoText == "2024-01-31T23:59:59.999")
    }

    @Test func `offsets: Z, hours and minutes east or west`() {
        #expect(date("2024-01-31T10:30Z")?.offsetMinutes == 0)
        #expect(date("2024-01-31T10:30+02:00")?.offsetMinutes == 120)
        #expect(date("2024-01-31T10:30:00.500-05:30")?.offsetMinutes == -330)
        #expect(date("2024-01-31T10:30+0200")?.offsetMinutes == 120)
        #expect(date("2024-01-31T10:30+02")?.offsetMinutes == 120)
        #expect(date("2024-01-31T10:30Z")?.hour == 10)
    }

    @Test func `leap days are valid only in leap years`() {
        #expect(date("2024-02-29") != nil)
        #expect(date("2000-02-29") != nil)
        #expect(date("2023-02-29") == nil)
        #expect(date("1900-02-29") == nil)
    }

    @Test func `impossible and malformed dates are rejected`() {
        for text in [
            "2024-02-30", "2024-04-31", "2024-13-01", "2024-00-10", "2024-01-00", "2024-1-5", "24-01-31", "2024/01/31",
            "2024-01-31T25:00", "2024-01-31T10:60", "2024-01-31T10:30:60", "2024-01-31T10:", "2024-01-31T10:30:15.",
            "2024-01-31 extra", "2024-01-31T", "2024", "2024-13", "", "today", " 2024-01-31",
        ] {
            #expect(date(text) == nil, "\(text)")
        }
    }

    @Test func `weekday is 1 for Monday to 7 for Sunday, across the epoch and centuries`() {
        #expect(date("2024-01-29")?.weekday == 1)
        #expect(date("2024-01-31")?.weekday == 3)
        #expect(date("2024-02-04")?.weekday == 7)
        #expect(date("1970-01-01")?.weekday == 4)
        #expect(date("1969-12-31")?.weekday == 3)
        #expect(date("2000-01-01")?.weekday == 6)
        #expect(date("1600-03-01")?.weekday == 3)
    }

    @Test func `weekNumber is the ISO week, which can belong to the year before or after`() {
        #expect(date("2024-01-01")?.weekNumber == 1)
        #expect(date("2024-01-31")?.weekNumber == 5)
        #expect(date("2023-01-01")?.weekNumber == 52)
        #expect(date("2021-01-03")?.weekNumber == 53)
        #expect(date("2020-12-31")?.weekNumber == 53)
        #expect(date("2024-12-30")?.weekNumber == 1)
        #expect(date("2026-12-31")?.weekNumber == 53)
    }

    @Test func `dayOfYear counts from 1`() {
        #expect(date("2024-01-01")?.dayOfYear == 1)
        #expect(date("2024-12-31")?.dayOfYear == 366)
        #expect(date("2023-12-31")?.dayOfYear == 365)
    }

    @Test func `isoText: the day alone, or the time with milliseconds and offset only when there`() {
        #expect(date("2024-01-31")?.isoText == "2024-01-31")
        #expect(date("2024-01-31T10:30")?.isoText == "2024-01-31T10:30:00")
        #expect(date("2024-01-31T10:30:15.250")?.isoText == "2024-01-31T10:30:15.250")
        #expect(date("2024-01-31T10:30Z")?.isoText == "2024-01-31T10:30:00Z")
        #expect(date("2024-01-31T10:30+02:00")?.isoText == "2024-01-31T10:30:00+02:00")
        #expect(date("2024-01-31T10:30-05:30")?.isoText == "2024-01-31T10:30:00-05:30")
        #expect(DataviewDate(year: 12, month: 3, day: 4).isoText == "0012-03-04")
    }

    @Test func `startOfDay drops the time`() {
        #expect(date("2024-01-31T10:30")?.startOfDay.isoText == "2024-01-31")
        #expect(date("2024-01-31T10:30")?.startOfDay.hasTime == false)
    }

    @Test func `times with offsets compare by the instant`() throws {
        let berlin = try #require(date("2024-01-31T10:00+02:00"))
        let utc = try #require(date("2024-01-31T08:00Z"))
        let newYork = try #require(date("2024-01-31T04:00-05:00"))
        #expect(berlin.compare(utc) == 0)
        #expect(berlin.compare(newYork) < 0)
        #expect(DataviewValue.date(berlin) == .date(utc))
        #expect(try #require(date("2024-01-31")).compare(try #require(date("2024-01-31T00:00:01"))) < 0)
    }

    @Test func `adding months clamps the day; days, weeks and time roll over months and years`() throws {
        let end = try #require(date("2024-01-31"))
        #expect(end.adding(DataviewDuration(months: 1)).isoText == "2024-02-29")
        #expect(end.adding(DataviewDuration(months: 13)).isoText == "2025-02-28")
        #expect(end.adding(DataviewDuration(months: 1), sign: -1).isoText == "2023-12-31")
        #expect(end.adding(DataviewDuration(years: -4, months: 1)).isoText == "2020-02-29")
        #expect(end.adding(DataviewDuration(weeks: 1, days: 1)).isoText == "2024-02-08")
        #expect(end.adding(DataviewDuration(days: 366)).isoText == "2025-01-31")
        #expect(end.adding(DataviewDuration(hours: -1)).isoText == "2024-01-30T23:00:00")
        #expect(end.adding(DataviewDuration(days: 0.5)).isoText == "2024-01-31T12:00:00")
        #expect(end.adding(DataviewDuration()).isoText == "2024-01-31")
        #expect(try #require(date("2024-01-31T10:00+02:00")).adding(DataviewDuration(hours: 20)).isoText == "2024-02-01T06:00:00+02:00")
    }

    @Test func `difference of two dates in days and time`() throws {
        let later = try #require(date("2024-01-31T12:30"))
        let earlier = try #require(date("2024-01-29T10:00"))
        let difference = later.difference(from: earlier)
        #expect([difference.days, difference.hours, difference.minutes] as [Double] == [2, 2, 30])
        #expect(earlier.difference(from: later).totalMilliseconds == -difference.totalMilliseconds)
    }

    @Test func `an instant becomes the civil time of a zone`() throws {
        let utc = try #require(TimeZone(identifier: "UTC"))
        let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
        let instant = Date(timeIntervalSince1970: 1_706_697_000.25)  // 2024-01-31T10:30:00.250Z
        #expect(DataviewDate(instant: instant, timeZone: utc).isoText == "2024-01-31T10:30:00.250")
        #expect(DataviewDate(instant: instant, timeZone: tokyo).isoText == "2024-01-31T19:30:00.250")
        #expect(DataviewDate(instant: instant, hasTime: false, timeZone: tokyo).isoText == "2024-01-31")
        #expect(DataviewDate(instant: Date(timeIntervalSince1970: -1), timeZone: utc).isoText == "1969-12-31T23:59:59")
    }
}

// MARK: Durations

@Suite("Dataview values: durations") struct DataviewDurationTests {
    @Test func `long, short and mixed forms, separated by spaces, commas or nothing`() {
        #expect(duration("3 days") == DataviewDuration(days: 3))
        #expect(duration("1d 2h") == DataviewDuration(days: 1, hours: 2))
        #expect(duration("1d2h30m") == DataviewDuration(days: 1, hours: 2, minutes: 30))
        #expect(duration("6hr7min") == DataviewDuration(hours: 6, minutes: 7))
        #expect(duration("1 day, 3 hours") == DataviewDuration(days: 1, hours: 3))
        #expect(duration("1 s, 2 m, 3 h") == DataviewDuration(hours: 3, minutes: 2, seconds: 1))
        #expect(duration("1.5 hours") == DataviewDuration(hours: 1.5))
        #expect(duration("-2 days") == DataviewDuration(days: -2))
        #expect(duration("1 day 1 day") == DataviewDuration(days: 2))
        #expect(duration("5 m") == DataviewDuration(minutes: 5))
    }

    @Test func `every unit spelling Dataview accepts`() {
        let spellings: [(String, DataviewDuration)] = [
            ("year", DataviewDuration(years: 2)), ("years", DataviewDuration(years: 2)), ("yr", DataviewDuration(years: 2)),
            ("yrs", DataviewDuration(years: 2)),
            ("month", DataviewDuration(months: 2)), ("months", DataviewDuration(months: 2)), ("mo", DataviewDuration(months: 2)),
            ("mos", DataviewDuration(months: 2)),
            ("week", DataviewDuration(weeks: 2)), ("weeks", DataviewDuration(weeks: 2)), ("wk", DataviewDuration(weeks: 2)),
            ("wks", DataviewDuration(weeks: 2)), ("w", DataviewDuration(weeks: 2)),
            ("day", DataviewDuration(days: 2)), ("days", DataviewDuration(days: 2)), ("d", DataviewDuration(days: 2)),
            ("hour", DataviewDuration(hours: 2)), ("hours", DataviewDuration(hours: 2)), ("hr", DataviewDuration(hours: 2)),
            ("hrs", DataviewDuration(hours: 2)), ("h", DataviewDuration(hours: 2)),
            ("minute", DataviewDuration(minutes: 2)), ("minutes", DataviewDuration(minutes: 2)), ("min", DataviewDuration(minutes: 2)),
            ("mins", DataviewDuration(minutes: 2)), ("m", DataviewDuration(minutes: 2)),
            ("second", DataviewDuration(seconds: 2)), ("seconds", DataviewDuration(seconds: 2)), ("sec", DataviewDuration(seconds: 2)),
            ("secs", DataviewDuration(seconds: 2)), ("s", DataviewDuration(seconds: 2)),
        ]
        for (unit, expected) in spellings {
            #expect(duration("2 \(unit)") == expected, "2 \(unit)")
            #expect(duration("2\(unit)") == expected, "2\(unit)")
        }
    }

    @Test func `text that is not a duration`() {
        for text in ["", "   ", "3", "days", "3 fortnights", "1 day and 2 hours", "1..5 days", "d3", "3 days ago", "١ day"] {
            #expect(duration(text) == nil, "\(text)")
        }
    }

    @Test func `units are lower case and there is no millisecond unit, as in Dataview`() {
        #expect(duration("5ms") == nil)
        #expect(duration("5 milliseconds") == nil)
        #expect(duration("3 Days") == nil)
        #expect(duration("1 M") == nil)
    }

    @Test func `text is normalized into the largest units, as Dataview prints durations`() {
        #expect(DataviewDuration(days: 14).text == "2 weeks")
        #expect(DataviewDuration(minutes: 90).text == "1 hour, 30 minutes")
        #expect(DataviewDuration(days: 1).text == "1 day")
        #expect(DataviewDuration(hours: 1.5).text == "1 hour, 30 minutes")
        #expect(DataviewDuration(days: 45).text == "1 month, 2 weeks, 1 day")
        #expect(DataviewDuration(years: 1, months: 6, weeks: 1).text == "1 year, 6 months, 1 week")
        #expect(DataviewDuration(seconds: 61, milliseconds: 500).text == "1 minute, 1 second, 500 milliseconds")
        #expect(DataviewDuration(days: -1).text == "-1 day")
        #expect(DataviewDuration(hours: -36).text == "-1 day, -12 hours")
        #expect(DataviewDuration().text == "0 seconds")
    }

    @Test func `length with casual months and years, and in one unit`() {
        #expect(DataviewDuration(months: 1).totalMilliseconds == 30 * 86_400_000)
        #expect(DataviewDuration(years: 1).totalMilliseconds == 365 * 86_400_000)
        #expect(DataviewDuration(days: 1, hours: 12).total(in: \.days) == 1.5)
        #expect(DataviewDuration(weeks: 1).total(in: \.hours) == 168)
        #expect(DataviewDuration(days: 400).normalized == DataviewDuration(years: 1, months: 1, days: 5))
        #expect(DataviewDuration(days: 400).normalized.months == 1)
        #expect(DataviewDuration(days: 400).normalized.weeks == 0)
    }

    @Test func `arithmetic keeps the units apart`() {
        let sum = DataviewDuration(days: 1) + DataviewDuration(days: 2, hours: 3)
        #expect([sum.days, sum.hours] as [Double] == [3, 3])
        let scaled = DataviewDuration(months: 1, minutes: 10).scaled(by: 3)
        #expect([scaled.months, scaled.minutes] as [Double] == [3, 30])
    }

    @Test func `from milliseconds into days, hours, minutes, seconds and milliseconds`() {
        let positive = DataviewDuration.fromMilliseconds(90_061_001)
        #expect([positive.days, positive.hours, positive.minutes, positive.seconds, positive.milliseconds] as [Double] == [1, 1, 1, 1, 1])
        let negative = DataviewDuration.fromMilliseconds(-3_600_000)
        #expect(negative.hours == -1)
    }

    @Test func `isoText for machine output`() {
        #expect(DataviewDuration(months: 1, days: 2, hours: 3).isoText == "P1M2DT3H")
        #expect(DataviewDuration(years: 1, weeks: 2).isoText == "P1Y2W")
        #expect(DataviewDuration(minutes: 5, seconds: 1, milliseconds: 500).isoText == "PT5M1.5S")
        #expect(DataviewDuration().isoText == "PT0S")
    }

    @Test func `durations order by length`() {
        #expect(DataviewValue.compare(.duration(DataviewDuration(days: 1)), .duration(DataviewDuration(hours: 23))) > 0)
        #expect(DataviewValue.compare(.duration(DataviewDuration(months: 1)), .duration(DataviewDuration(days: 31))) < 0)
        #expect(DataviewValue.duration(DataviewDuration(hours: 1)) == .duration(DataviewDuration(minutes: 60)))
    }
}

// MARK: Numbers, order and truthiness

@Suite("Dataview values: order, truthiness, numbers") struct DataviewValueOrderTests {
    @Test func `numbers print as JavaScript prints them`() {
        #expect(DataviewNumber.text(3) == "3")
        #expect(DataviewNumber.text(-0.5) == "-0.5")
        #expect(DataviewNumber.text(1.25) == "1.25")
        #expect(DataviewNumber.text(.nan) == "NaN")
        #expect(DataviewNumber.text(.infinity) == "Infinity")
        #expect(DataviewNumber.text(-.infinity) == "-Infinity")
        #expect(DataviewNumber.text(1e14) == "100000000000000")
    }

    @Test func `values sort with null first, then by type name, then within the type`() {
        let values: [DataviewValue] = [
            .string("b"), .number(2), .null, .boolean(true), .string("a"), .list([]), .number(-1), .boolean(false),
            .date(DataviewDate(year: 2024, month: 1, day: 1)), .duration(DataviewDuration(days: 1)),
            .link(DataviewLink(path: "A.md")), .object(DataviewObject([("k", .number(1))])), .string("A"),
        ]
        let sorted = values.sorted { DataviewValue.compare($0, $1) < 0 }
        #expect(sorted.map(literalText) == [
            "null", "[]", "false", "true", "date(2024-01-01)", "dur(P1D)", "[[A.md]]", "-1", "2", "{k: 1}", #""a""#, #""A""#,
            #""b""#,
        ])
    }

    @Test func `truthiness of each type: NaN and [false] are true, empty text, lists, objects and durations false`() {
        #expect(!DataviewValue.null.isTruthy)
        #expect(!DataviewValue.number(0).isTruthy)
        #expect(DataviewValue.number(-1).isTruthy)
        #expect(DataviewValue.number(.nan).isTruthy)
        #expect(!DataviewValue.string("").isTruthy)
        #expect(DataviewValue.string("0").isTruthy)
        #expect(!DataviewValue.list([]).isTruthy)
        #expect(DataviewValue.list([.boolean(false)]).isTruthy)
        #expect(!DataviewValue.object(DataviewObject()).isTruthy)
        #expect(!DataviewValue.link(DataviewLink(path: "")).isTruthy)
        #expect(DataviewValue.link(DataviewLink(path: "A.md")).isTruthy)
        #expect(!DataviewValue.duration(DataviewDuration()).isTruthy)
        #expect(DataviewValue.date(DataviewDate(year: 2024, month: 1, day: 1)).isTruthy)
    }

    @Test func `equal values hash alike, so GROUP BY puts them together`() {
        let pairs: [(DataviewValue, DataviewValue)] = [
            (.number(0), .number(-0.0)),
            (.link(DataviewLink(path: "A.md", display: "x")), .link(DataviewLink(path: "A.md", isEmbed: true))),
            (.duration(DataviewDuration(hours: 1)), .duration(DataviewDuration(minutes: 60))),
            (.date(DataviewDate(year: 2024, month: 1, day: 31, hour: 10, offsetMinutes: 120, hasTime: true)),
             .date(DataviewDate(year: 2024, month: 1, day: 31, hour: 8, offsetMinutes: 0, hasTime: true))),
            (.list([.number(1), .string("a")]), .list([.number(1), .string("a")])),
            (.object(DataviewObject([("a", .number(1)), ("b", .number(2))])), .object(DataviewObject([("b", .number(2)), ("a", .number(1))]))),
        ]
        for (a, b) in pairs {
            #expect(a == b)
            #expect(a.hashValue == b.hashValue)
        }
        #expect(Set([DataviewValue.string("a"), .string("A"), .string("a")]).count == 2)
    }

    @Test func `an object keeps its keys in insertion order; removing a key removes it from the order`() {
        var object = DataviewObject([("b", .number(1)), ("a", .number(2))])
        object["c"] = .number(3)
        object["b"] = .number(4)
        #expect(object.keys == ["b", "a", "c"])
        object["a"] = nil
        #expect(object.keys == ["b", "c"])
        #expect(object.values.map(literalText) == ["4", "3"])
        #expect(object.count == 2)
    }

    @Test func `asList: a list's elements, null as nothing, anything else alone`() {
        #expect(DataviewValue.list([.number(1)]).asList.count == 1)
        #expect(DataviewValue.null.asList.isEmpty)
        #expect(DataviewValue.string("x").asList.map(literalText) == [#""x""#])
    }
}

// MARK: Date formats

@Suite("Dataview values: date formats") struct DataviewDateFormatTests {
    /// Friday 5 January 2024, 09:07:03.042.
    private let morning = DataviewDate(year: 2024, month: 1, day: 5, hour: 9, minute: 7, second: 3, millisecond: 42, hasTime: true)

    private func format(_ pattern: String, _ date: DataviewDate? = nil) -> String {
        DataviewDateFormat.format(date ?? morning, pattern)
    }

    @Test func `years, months and days`() {
        #expect(format("yyyy-MM-dd") == "2024-01-05")
        #expect(format("yy") == "24")
        #expect(format("y") == "2024")
        #expect(format("M/d") == "1/5")
        #expect(format("MMM") == "Jan")
        #expect(format("MMMM") == "January")
        #expect(format("LLL LLLL") == "Jan January")
        #expect(format("yyyyy") == "02024")
    }

    @Test func `weekdays as numbers, short and long names`() {
        #expect(format("E") == "5")
        #expect(format("EEE") == "Fri")
        #expect(format("EEEE") == "Friday")
        #expect(format("c ccc cccc") == "5 Fri Friday")
    }

    @Test func `hours, minutes, seconds, milliseconds and the half of the day`() {
        #expect(format("H:m:s") == "9:7:3")
        #expect(format("HH:mm:ss.SSS") == "09:07:03.042")
        #expect(format("h:mm a") == "9:07 AM")
        #expect(format("hh a", DataviewDate(year: 2024, month: 1, day: 5, hour: 15, hasTime: true)) == "03 PM")
        #expect(format("h a", DataviewDate(year: 2024, month: 1, day: 5, hour: 0, hasTime: true)) == "12 AM")
        #expect(format("h a", DataviewDate(year: 2024, month: 1, day: 5, hour: 12, hasTime: true)) == "12 PM")
        #expect(format("S") == "42")
    }

    @Test func `ISO weeks and week years, day of the year, quarter`() {
        #expect(format("W") == "1")
        #expect(format("WW") == "01")
        #expect(format("kkkk-'W'WW", DataviewDate(year: 2024, month: 12, day: 30)) == "2025-W01")
        #expect(format("kk", DataviewDate(year: 2021, month: 1, day: 3)) == "20")
        #expect(format("o") == "5")
        #expect(format("ooo") == "005")
        #expect(format("q") == "1")
        #expect(format("q", DataviewDate(year: 2024, month: 12, day: 1)) == "4")
    }

    @Test func `offsets: Z narrow, ZZ with minutes`() {
        let berlin = DataviewDate(year: 2024, month: 1, day: 5, hour: 9, offsetMinutes: 120, hasTime: true)
        let india = DataviewDate(year: 2024, month: 1, day: 5, hour: 9, offsetMinutes: 330, hasTime: true)
        #expect(format("Z", berlin) == "+2")
        #expect(format("ZZ", berlin) == "+02:00")
        #expect(format("Z", india) == "+5:30")
        #expect(format("ZZ", DataviewDate(year: 2024, month: 1, day: 5, offsetMinutes: -300)) == "-05:00")
    }

    @Test func `quoted text is literal; other characters are copied`() {
        #expect(format("'Week' W 'of' yyyy") == "Week 1 of 2024")
        #expect(format("dd.MM.yyyy, HH'h'") == "05.01.2024, 09h")
        #expect(format("''") == "'")
        #expect(format("yyyy/MM/dd — ✓") == "2024/01/05 — ✓")
    }

    @Test func `Dataview's default formats`() {
        #expect(format(DataviewText.defaultDateFormat) == "January 05, 2024")
        #expect(format(DataviewText.defaultDateTimeFormat) == "9:07 AM - January 05, 2024")
    }
}

// MARK: Text

@Suite("Dataview values: text") struct DataviewTextTests {
    private let alpha = DataviewLink(path: "Projects/Alpha.md")

    @Test func `plain text of every kind of value`() {
        #expect(DataviewText.plain(.null) == "-")
        #expect(DataviewText.plain(.boolean(false)) == "false")
        #expect(DataviewText.plain(.number(3)) == "3")
        #expect(DataviewText.plain(.number(2.5)) == "2.5")
        #expect(DataviewText.plain(.string("a | b")) == "a | b")
        #expect(DataviewText.plain(.date(DataviewDate(year: 2024, month: 1, day: 5))) == "January 05, 2024")
        #expect(DataviewText.plain(.date(DataviewDate(year: 2024, month: 1, day: 5, hour: 18, minute: 30, hasTime: true)))
            == "6:30 PM - January 05, 2024")
        #expect(DataviewText.plain(.duration(DataviewDuration(minutes: 90))) == "1 hour, 30 minutes")
        #expect(DataviewText.plain(.link(alpha)) == "[[Projects/Alpha|Alpha]]")
        #expect(DataviewText.plain(.list([.number(1), .list([.number(2), .number(3)]), .string("x")])) == "1, [2, 3], x")
        #expect(DataviewText.plain(.list([])) == "")
        #expect(DataviewText.plain(.object(DataviewObject([("a", .number(1)), ("b", .list([.string("x"), .string("y")]))])))
            == "{ a: 1, b: [x, y] }")
        #expect(DataviewText.plain(.function(DataviewLambda(parameters: [], body: .literal(.null)))) == "<function>")
    }

    @Test func `links render as wikilinks by full path with the shown text`() {
        #expect(DataviewLink(path: "Projects/Alpha.md", display: "The project").markdown == "[[Projects/Alpha|The project]]")
        #expect(DataviewLink(path: "Projects/Alpha.md", subpath: "Goals").markdown == "[[Projects/Alpha#Goals|Alpha > Goals]]")
        #expect(DataviewLink(path: "diagram.png", isEmbed: true).markdown == "![[diagram.png|diagram.png]]")
        #expect(DataviewLink(path: "A.md", display: "x|y").markdown == #"[[A|x\|y]]"#)
        #expect(DataviewLink(path: "Projects/Alpha.md").fileName == "Alpha")
        #expect(DataviewLink(path: "Projects/Alpha.md", subpath: "Goals").shownText == "Alpha > Goals")
    }

    @Test func `markdown cells escape pipes and line breaks`() {
        #expect(DataviewText.markdown(.string("a | b")) == #"a \| b"#)
        #expect(DataviewText.markdown(.string("one\ntwo\r\nthree")) == "one<br>two<br>three")
        #expect(DataviewText.markdown(.null) == "-")
        #expect(DataviewText.markdown(.list([.link(alpha), .string("x|y")])) == #"[[Projects/Alpha\|Alpha]], x\|y"#)
        #expect(DataviewText.markdown(.link(DataviewLink(path: "A.md", display: "x|y"))) == #"[[A\|x\|y]]"#)
        #expect(DataviewText.markdown(.number(4.5)) == "4.5")
    }

    @Test func `terminal cells show link names, ISO dates, one line`() {
        #expect(DataviewText.terminal(.link(alpha)) == "Alpha")
        #expect(DataviewText.terminal(.link(DataviewLink(path: "A.md", display: "Shown"))) == "Shown")
        #expect(DataviewText.terminal(.date(DataviewDate(year: 2024, month: 1, day: 5))) == "2024-01-05")
        #expect(DataviewText.terminal(.date(DataviewDate(year: 2024, month: 1, day: 5, hour: 9, minute: 7, hasTime: true)))
            == "2024-01-05 09:07")
        #expect(DataviewText.terminal(.list([.link(alpha), .null, .number(1)])) == "Alpha, -, 1")
        #expect(DataviewText.terminal(.string("one\ntwo")) == "one two")
        #expect(DataviewText.terminal(.null) == "-")
        #expect(DataviewText.terminal(.duration(DataviewDuration(days: 14))) == "2 weeks")
    }
}

// MARK: Field values

@Suite("Dataview values: field values") struct DataviewFieldValueTests {
    @Test func `inline dates and date-times`() {
        #expect(inline("2024-01-31") == "date(2024-01-31)")
        #expect(inline("2024-01-31T10:30") == "date(2024-01-31T10:30:00)")
        #expect(inline("2024-01") == "date(2024-01-01)")
        #expect(inline("  2024-01-31  ") == "date(2024-01-31)")
    }

    @Test func `a date and time with a space stays text`() {
        #expect(inline("2021-04-17 18:00") == #""2021-04-17 18:00""#)
    }

    @Test func `inline durations`() {
        #expect(inline("7 hours") == "dur(PT7H)")
        #expect(inline("6hr7min") == "dur(PT6H7M)")
        #expect(inline("5 m") == "dur(PT5M)")
    }

    @Test func `a duration with commas is one duration, not a list`() {
        #expect(inline("1 day, 3 hours") == "dur(P1DT3H)")
    }

    @Test func `quoted strings lose their quotes and keep their commas`() {
        #expect(inline(#""quoted""#) == #""quoted""#)
        #expect(inline(#""a, b""#) == #""a, b""#)
        #expect(inline(#""say \"hi\"""#) == #""say "hi"""#)
        #expect(inline(#""""#) == #""""#)
    }

    @Test func `tags stay text with their #`() {
        #expect(inline("#tag/sub") == ##""#tag/sub""##)
        #expect(inline("#a, #b") == ##"["#a", "#b"]"##)
    }

    @Test func `links and embeds`() {
        #expect(inline("[[Note]]") == "[[Note]]")
        #expect(inline("[[Note#Part|Shown]]") == "[[Note#Part|Shown]]")
        #expect(inline("![[image.png]]") == "![[image.png]]")
        #expect(inline("[[A]], [[B]]") == "[[[A]], [[B]]]")
        #expect(inline("[[A]] and more") == #""[[A]] and more""#)
    }

    @Test func `booleans in the two spellings, numbers with sign and decimals`() {
        #expect(inline("true") == "true")
        #expect(inline("True") == "true")
        #expect(inline("false") == "false")
        #expect(inline("False") == "false")
        #expect(inline("TRUE") == #""TRUE""#)
        #expect(inline("42") == "42")
        #expect(inline("-3") == "-3")
        #expect(inline("2.5") == "2.5")
        #expect(inline("2021") == "2021")
    }

    @Test func `text that only looks like a value stays text`() {
        #expect(inline("12abc") == #""12abc""#)
        #expect(inline("1.2.3") == #""1.2.3""#)
        #expect(inline(".5") == #"".5""#)
        #expect(inline("+5") == #""+5""#)
        #expect(inline("today") == #""today""#)
        #expect(inline("null") == #""null""#)
        #expect(inline("[1, 2]") == #""[1, 2]""#)
        #expect(inline("{a: 1}") == #""{a: 1}""#)
        #expect(inline("some words") == #""some words""#)
    }

    @Test func `comma lists of values, but not of bare words`() {
        #expect(inline("1, 2, 3") == "[1, 2, 3]")
        #expect(inline(#""yes", "no""#) == #"["yes", "no"]"#)
        #expect(inline("2024-01-01, 2024-02-01") == "[date(2024-01-01), date(2024-02-01)]")
        #expect(inline("true, 1, \"x\"") == #"[true, 1, "x"]"#)
        #expect(inline("yes, or, no") == #""yes, or, no""#)
        #expect(inline("1, two") == #""1, two""#)
        #expect(inline("1,") == #""1,""#)
    }

    @Test func `an empty value is null`() {
        #expect(inline("") == "null")
        #expect(inline("   ") == "null")
        #expect(inline("\t") == "null")
    }

    @Test func `frontmatter strings: dates, durations and single links convert, the rest stays text`() {
        #expect(frontmatter("2024-01-31") == "date(2024-01-31)")
        #expect(frontmatter("2024-01-31T10:30") == "date(2024-01-31T10:30:00)")
        #expect(frontmatter("3 days") == "dur(P3D)")
        #expect(frontmatter("[[Note]]") == "[[Note]]")
        #expect(frontmatter("![[Note]]") == "![[Note]]")
        #expect(frontmatter("[[a]], [[b]]") == #""[[a]], [[b]]""#)
        #expect(frontmatter("5") == #""5""#)
        #expect(frontmatter("true") == #""true""#)
        #expect(frontmatter("#tag") == ##""#tag""##)
        #expect(frontmatter("days") == #""days""#)
        #expect(frontmatter("hello") == #""hello""#)
    }
}

// MARK: Dates in file names

@Suite("Dataview values: file.day") struct FileDayTests {
    private func day(_ name: String) -> String? { FileDay.date(inName: name)?.isoText }

    @Test func `a yyyy-MM-dd date anywhere in the name`() {
        #expect(day("2024-01-31") == "2024-01-31")
        #expect(day("2024-01-31 Standup") == "2024-01-31")
        #expect(day("Meeting 2024-01-31") == "2024-01-31")
        #expect(day("Week of 2024-01-29 to 2024-02-04") == "2024-01-29")
    }

    @Test func `a yyyyMMdd date at the start of the name`() {
        #expect(day("20240131") == "2024-01-31")
        #expect(day("20240131 notes") == "2024-01-31")
    }

    @Test func `names without a valid date`() {
        #expect(day("Notes") == nil)
        #expect(day("2024-02-30 Plan") == nil)
        #expect(day("2024-1-5") == nil)
        #expect(day("20241301") == nil)
        #expect(day("") == nil)
    }
}
