/// Tests of dates and durations in the Bases language (`BaseDates`): reading date and duration text, date
/// arithmetic, the globals `date()`, `duration()`, `now()`, `today()`, a date's fields and methods, and
/// `relative()`. Examples come from Obsidian's help ("Bases syntax", "Functions"); where it is silent the
/// expected values are what Moment.js 2.29.4 (Obsidian's) gives with `TZ=Europe/Berlin`.
import Foundation
import Testing
@testable import RhizomeCore

private struct NoVault: BaseVault {
    func facts(ofPath path: String) -> BaseFileFacts? { nil }
    func resolve(_ linkPath: String, from sourcePath: String) -> String? { nil }
    func backlinks(ofPath path: String) -> [String] { [] }
}

private let berlin = TimeZone(identifier: "Europe/Berlin")!
private let utc = TimeZone(identifier: "UTC")!
/// Monday 30 June 2025, 12:00 in Berlin (10:00 UTC).
private let noonInBerlin = Date(timeIntervalSince1970: 1_751_277_600)

private func environment(now: Date = noonInBerlin, timeZone: TimeZone = berlin) -> BaseEnvironment {
    BaseEnvironment(vault: NoVault(), now: now, timeZone: timeZone)
}

private func date(_ text: String, _ timeZone: TimeZone = berlin) -> DataviewDate? { BaseDates.parse(text, timeZone: timeZone) }

private struct NotADate: Error {
    let text: String
}

/// The date `text` reads as; throws when it is none.
private func parsedDate(_ text: String, _ timeZone: TimeZone = berlin) throws -> DataviewDate {
    guard let date = date(text, timeZone) else { throw NotADate(text: text) }
    return date
}

/// The text (`toString()`) of the date `text` reads as, nil when it is no date.
private func shown(_ text: String, _ timeZone: TimeZone = berlin) -> String? {
    date(text, timeZone).map { BaseDates.text(of: $0) }
}

/// `date + "text"`, as the evaluator computes it.
private func plus(_ date: DataviewDate, _ text: String, _ timeZone: TimeZone = berlin) -> DataviewDate? {
    BaseDates.duration(text).map { BaseDates.add($0, to: date, sign: 1, timeZone: timeZone) }
}

/// `date - "text"`, as the evaluator computes it.
private func minus(_ date: DataviewDate, _ text: String, _ timeZone: TimeZone = berlin) -> DataviewDate? {
    BaseDates.duration(text).map { BaseDates.add($0, to: date, sign: -1, timeZone: timeZone) }
}

private func global(_ name: String, _ arguments: [BaseValue], _ environment: BaseEnvironment = environment()) throws(BaseEvaluationError) -> BaseValue? {
    try BaseDates.global(name, arguments: arguments, environment: environment)
}

private func method(_ name: String, on date: DataviewDate, _ arguments: [BaseValue] = [], _ environment: BaseEnvironment = environment())
    throws(BaseEvaluationError) -> BaseValue? {
    try BaseDates.method(name, on: date, arguments: arguments, environment: environment)
}

private func dateIn(_ value: BaseValue?) -> DataviewDate? {
    if case .date(let date)? = value { return date }
    return nil
}

private func durationIn(_ value: BaseValue?) -> DataviewDuration? {
    if case .duration(let duration)? = value { return duration }
    return nil
}

private func textIn(_ value: BaseValue?) -> String? {
    if case .string(let text)? = value { return text }
    return nil
}

private func numberIn(_ value: BaseValue?) -> Double? {
    if case .number(let number)? = value { return number }
    return nil
}

private func booleanIn(_ value: BaseValue?) -> Bool? {
    if case .boolean(let flag)? = value { return flag }
    return nil
}

// MARK: Reading dates

@Suite("Bases dates: reading date text")
struct BaseDateParsingTests {
    @Test("a bare date has no time; date-times take a space or a T, seconds and fractions")
    func shapes() throws {
        let day = try parsedDate("2025-01-01")
        #expect([day.year, day.month, day.day, day.hour, day.minute] == [2025, 1, 1, 0, 0] as [Int])
        #expect(!day.hasTime)
        #expect(day.offsetMinutes == nil)
        let minutes = try parsedDate("2025-01-01 12:00")
        #expect(minutes.hasTime)
        #expect([minutes.hour, minutes.minute, minutes.second] == [12, 0, 0] as [Int])
        #expect(date("2025-01-01 12:00:00") == date("2025-01-01T12:00:00"))
        #expect(date("2025-01-01T12:34:56")?.second == 56)
        #expect(date("2025-01-01T12:34:56.5")?.millisecond == 500)
        #expect(date("2025-01-01T12:34:56.07")?.millisecond == 70)
        #expect(date("2025-01-01T12:34:56.123456789")?.millisecond == 123)
        #expect(date("2024-02-29") != nil, "a leap day")
    }

    @Test("Z and offsets turn into the wall-clock time of the environment's zone")
    func offsets() {
        #expect(shown("2025-01-01T12:00:00Z", berlin) == "2025-01-01T13:00:00")
        #expect(shown("2025-01-01T12:00:00Z", utc) == "2025-01-01T12:00:00")
        #expect(shown("2025-07-01 12:00+02:00", berlin) == "2025-07-01T12:00:00")
        #expect(shown("2025-07-01T12:00:00+02:00", utc) == "2025-07-01T10:00:00")
        #expect(shown("2025-01-01T00:30:00+0200", utc) == "2024-12-31T22:30:00")
        #expect(shown("2025-01-01T12:00:00-05", utc) == "2025-01-01T17:00:00")
        #expect(date("2025-01-01T12:00:00.250Z")?.millisecond == 250)
        #expect(date("2025-01-01T12:00:00Z")?.offsetMinutes == nil, "the result is a wall-clock time of the zone")
        #expect(date("2025-01-01T12:00:00Z")?.hasTime == true)
    }

    @Test("text that is no date, and days the calendar lacks, are nil")
    func rejects() {
        let texts = [
            "", "today", "2025", "2025-01", "2025-1-01", "2025-01-1", "2025/01/01", "2025-02-30", "2025-02-29", "2025-13-01",
            "2025-00-10", "2025-01-00", "2025-01-01T", "2025-01-01T12", "2025-01-01 24:00", "2025-01-01T12:60", "2025-01-01T12:00:60",
            "2025-01-01T12:00:00.", "2025-01-01T12:00:00.1234567890", "2025-01-01Z", "2025-01-01T12:00:00+2", "2025-01-01T12:00:00+02:0",
            " 2025-01-01", "2025-01-01 ", "2025-01-01  12:00", "2025-01-01t12:00", "2025-01-01T12:00:00 Z",
        ]
        for text in texts {
            #expect(date(text) == nil, "\(text)")
        }
    }
}

// MARK: Durations

@Suite("Bases dates: duration text")
struct BaseDurationTests {
    @Test("every unit spelling of the help's table, with or without a space")
    func unitSpellings() {
        let table: [(units: [String], one: DataviewDuration)] = [
            (["y", "year", "years"], DataviewDuration(years: 1)), (["M", "month", "months"], DataviewDuration(months: 1)),
            (["d", "day", "days"], DataviewDuration(days: 1)), (["w", "week", "weeks"], DataviewDuration(weeks: 1)),
            (["h", "hour", "hours"], DataviewDuration(hours: 1)), (["m", "minute", "minutes"], DataviewDuration(minutes: 1)),
            (["s", "second", "seconds"], DataviewDuration(seconds: 1)),
        ]
        for (units, one) in table {
            for unit in units {
                #expect(BaseDates.duration("1" + unit) == one, "1\(unit)")
                #expect(BaseDates.duration("1 " + unit) == one, "1 \(unit)")
            }
        }
    }

    @Test("M is a month and m a minute; signs, decimals and several parts")
    func forms() {
        #expect(BaseDates.duration("1M") == DataviewDuration(months: 1))
        #expect(BaseDates.duration("1m") == DataviewDuration(minutes: 1))
        #expect(BaseDates.duration("2 weeks") == DataviewDuration(weeks: 2))
        #expect(BaseDates.duration("3h") == DataviewDuration(hours: 3))
        #expect(BaseDates.duration("10s") == DataviewDuration(seconds: 10))
        #expect(BaseDates.duration("1y") == DataviewDuration(years: 1))
        #expect(BaseDates.duration("1.5h") == DataviewDuration(hours: 1.5))
        #expect(BaseDates.duration("1d 4h") == DataviewDuration(days: 1, hours: 4))
        #expect(BaseDates.duration("1M4h3m") == DataviewDuration(months: 1, hours: 4, minutes: 3))
        #expect(BaseDates.duration("1d, 4h") == DataviewDuration(days: 1, hours: 4))
        #expect(BaseDates.duration("-1d 4h") == DataviewDuration(days: -1, hours: -4), "one leading sign applies to the whole")
        #expect(BaseDates.duration("+2h") == DataviewDuration(hours: 2))
        #expect(BaseDates.duration(" 3 Days ") == DataviewDuration(days: 3), "unit words in any case, spaces around")
    }

    @Test("text that is no duration is nil, other unit spellings included")
    func rejects() {
        let texts = [
            "", " ", "5", "d", "-", "1x", "1 hr", "1 min", "1 sec", "1 mo", "1ms", "1D", "1Y", "1H", "1 d d", "1.2.3h", "1d,", ",1d",
            "--1d", "1d -4h", "1e3s", "one day", "1 day ago",
        ]
        for text in texts {
            #expect(BaseDates.duration(text) == nil, "\(text)")
        }
    }

    @Test("a duration's text names its units as held, largest first, and reads back")
    func durationText() {
        #expect(BaseDates.text(of: DataviewDuration(months: 1, hours: 4, minutes: 3)) == "1 month 4 hours 3 minutes")
        #expect(BaseDates.text(of: DataviewDuration(days: 1)) == "1 day")
        #expect(BaseDates.text(of: DataviewDuration(hours: 1.5)) == "1.5 hours")
        #expect(BaseDates.text(of: DataviewDuration(days: -2)) == "-2 days")
        #expect(BaseDates.text(of: DataviewDuration()) == "0 seconds")
        #expect(BaseDates.duration("90m").map { BaseDates.text(of: $0) } == "90 minutes", "not carried into hours")
        for text in ["1 year 2 months 3 weeks 4 days 5 hours 6 minutes 7 seconds", "2.5 days"] {
            #expect(BaseDates.duration(text).map { BaseDates.text(of: $0) } == text)
        }
    }
}

// MARK: Arithmetic

@Suite("Bases dates: date arithmetic")
struct BaseDateArithmeticTests {
    @Test("the help's example: date(\"2024-12-01\") + \"1M\" + \"4h\" + \"3m\" is 2025-01-01 04:03:00")
    func helpExample() throws {
        let start = try #require(dateIn(try global("date", [.string("2024-12-01")])))
        let month = try #require(plus(start, "1M"))
        #expect(BaseDates.text(of: month) == "2025-01-01")
        #expect(!month.hasTime, "a calendar unit keeps a bare date bare")
        let result = try #require(plus(month, "4h").flatMap { plus($0, "3m") })
        #expect(BaseDates.text(of: result) == "2025-01-01T04:03:00")
        #expect(result.hasTime, "hours give a bare date a time")
    }

    @Test("the help's example: (now() + \"1d\") - now() is 86,400,000 milliseconds")
    func aDayLater() throws {
        let now = try #require(dateIn(try global("now", [])))
        let tomorrow = try #require(plus(now, "1d"))
        #expect(BaseDates.epochMilliseconds(of: tomorrow, timeZone: berlin) - BaseDates.epochMilliseconds(of: now, timeZone: berlin) == 86_400_000)
        let inAnHour = try #require(plus(now, "1 hour"))
        #expect(BaseDates.epochMilliseconds(of: inAnHour, timeZone: berlin) - BaseDates.epochMilliseconds(of: now, timeZone: berlin) == 3_600_000)
        let today = try #require(dateIn(try global("today", [])))
        #expect(plus(today, "7d").map { BaseDates.text(of: $0) } == "2025-07-07")
    }

    @Test("the help's example: file.mtime > now() - \"1 week\"")
    func withinTheLastWeek() throws {
        let now = try #require(dateIn(try global("now", [])))
        let weekAgo = try #require(minus(now, "1 week"))
        #expect(BaseDates.text(of: weekAgo) == "2025-06-23T12:00:00")
        let modified = try parsedDate("2025-06-25 09:00")
        #expect(BaseDates.epochMilliseconds(of: modified, timeZone: berlin) > BaseDates.epochMilliseconds(of: weekAgo, timeZone: berlin))
        let older = try parsedDate("2025-06-23 11:59")
        #expect(BaseDates.epochMilliseconds(of: older, timeZone: berlin) < BaseDates.epochMilliseconds(of: weekAgo, timeZone: berlin))
    }

    @Test("months and years clamp the day to the month's last, as Moment does")
    func monthEnds() throws {
        #expect(plus(try parsedDate("2025-01-31"), "1M").map { BaseDates.text(of: $0) } == "2025-02-28")
        #expect(plus(try parsedDate("2024-01-31"), "1M").map { BaseDates.text(of: $0) } == "2024-02-29")
        #expect(minus(try parsedDate("2025-03-31"), "1M").map { BaseDates.text(of: $0) } == "2025-02-28")
        #expect(plus(try parsedDate("2024-02-29"), "1y").map { BaseDates.text(of: $0) } == "2025-02-28")
        #expect(plus(try parsedDate("2025-01-31 18:30"), "1M").map { BaseDates.text(of: $0) } == "2025-02-28T18:30:00")
    }

    @Test("subtracting hours crosses midnight; fractions of a day move the clock")
    func timeParts() throws {
        #expect(minus(try parsedDate("2025-01-01 01:00"), "2h").map { BaseDates.text(of: $0) } == "2024-12-31T23:00:00")
        #expect(plus(try parsedDate("2025-01-01"), "1.5d").map { BaseDates.text(of: $0) } == "2025-01-02T12:00:00")
        #expect(plus(try parsedDate("2025-01-01"), "0.5w").map { BaseDates.text(of: $0) } == "2025-01-04T12:00:00")
        let back = BaseDates.add(DataviewDuration(days: 1, hours: 2), to: try parsedDate("2025-01-02 03:00"), sign: -1, timeZone: berlin)
        #expect(BaseDates.text(of: back) == "2025-01-01T01:00:00")
    }

    @Test("across a change of clocks, hours count real time and days keep the wall clock")
    func changeOfClocks() throws {
        let beforeSpring = try parsedDate("2025-03-30 00:00")
        #expect(plus(beforeSpring, "24h").map { BaseDates.text(of: $0) } == "2025-03-31T01:00:00")
        let nextDay = try #require(plus(beforeSpring, "1d"))
        #expect(BaseDates.text(of: nextDay) == "2025-03-31T00:00:00")
        #expect(BaseDates.epochMilliseconds(of: nextDay, timeZone: berlin) - BaseDates.epochMilliseconds(of: beforeSpring, timeZone: berlin) == 82_800_000)
        let inUTC = try parsedDate("2025-03-30 00:00", utc)
        #expect(plus(inUTC, "24h", utc).map { BaseDates.text(of: $0) } == "2025-03-31T00:00:00")
    }
}

// MARK: Globals, fields and methods

@Suite("Bases dates: date(), duration(), now(), today(), fields and methods")
struct BaseDateFunctionTests {
    @Test("now() is the environment's moment in its zone; today() is that day without a time")
    func nowAndToday() throws {
        let now = try #require(dateIn(try global("now", [])))
        #expect(BaseDates.text(of: now) == "2025-06-30T12:00:00")
        #expect(now.hasTime)
        #expect(dateIn(try global("now", [], environment(timeZone: utc))).map { BaseDates.text(of: $0) } == "2025-06-30T10:00:00")
        let today = try #require(dateIn(try global("today", [])))
        #expect(BaseDates.text(of: today) == "2025-06-30")
        #expect(!today.hasTime)
        let lateEvening = Date(timeIntervalSince1970: 1_751_322_600)  // 2025-06-30T22:30:00Z
        #expect(dateIn(try global("today", [], environment(now: lateEvening))).map { BaseDates.text(of: $0) } == "2025-07-01")
        #expect(dateIn(try global("today", [], environment(now: lateEvening, timeZone: utc))).map { BaseDates.text(of: $0) } == "2025-06-30")
    }

    @Test("date() reads text and returns a date as it is; duration() reads duration text")
    func dateAndDuration() throws {
        let value = try #require(dateIn(try global("date", [.string("2025-01-01 12:00:00")])))
        #expect(BaseDates.text(of: value) == "2025-01-01T12:00:00")
        #expect(dateIn(try global("date", [.date(value)])) == value)
        #expect(durationIn(try global("duration", [.string("1d")])) == DataviewDuration(days: 1))
        #expect(durationIn(try global("duration", [.duration(DataviewDuration(hours: 5))])) == DataviewDuration(hours: 5))
        #expect(try global("max", [.number(1)]) == nil, "not a date function")
    }

    @Test("wrong arguments throw errors that say what was expected")
    func argumentErrors() {
        #expect(throws: BaseEvaluationError(#"date() expects text like "2025-01-31" or "2025-01-31 14:00:00", got number 5"#)) {
            _ = try global("date", [.number(5)])
        }
        #expect(throws: BaseEvaluationError(#"date() expects text like "2025-01-31" or "2025-01-31 14:00:00", got null"#)) {
            _ = try global("date", [.null])
        }
        #expect(throws: BaseEvaluationError(#"date() cannot read "next week" as a date: write it like "2025-01-31" or "2025-01-31 14:00:00""#)) {
            _ = try global("date", [.string("next week")])
        }
        #expect(throws: BaseEvaluationError(#"date() takes one argument, text like "2025-01-31" or "2025-01-31 14:00:00", got 0"#)) {
            _ = try global("date", [])
        }
        #expect(throws: BaseEvaluationError(#"duration() expects text like "1d", "2 weeks" or "1M 4h", got number 5"#)) {
            _ = try global("duration", [.number(5)])
        }
        #expect(throws: BaseEvaluationError.self) { _ = try global("duration", [.string("soon")]) }
        #expect(throws: BaseEvaluationError.self) { _ = try global("duration", [.string("1d"), .string("2d")]) }
        #expect(throws: BaseEvaluationError("now() takes no arguments, got 1")) { _ = try global("now", [.number(1)]) }
        #expect(throws: BaseEvaluationError("today() takes no arguments, got 1")) { _ = try global("today", [.string("x")]) }
    }

    @Test("fields read the date's parts; other names are no field")
    func fields() throws {
        let value = try parsedDate("2025-01-31T14:05:09.250")
        let names = ["year", "month", "day", "hour", "minute", "second", "millisecond"]
        #expect(names.map { numberIn(BaseDates.field($0, of: value)) } == [2025, 1, 31, 14, 5, 9, 250])
        #expect(BaseDates.field("week", of: value) == nil)
        #expect(BaseDates.field("Year", of: value) == nil)
    }

    @Test("date() drops the time: now().date().format(\"YYYY-MM-DD HH:mm:ss\") ends in 00:00:00")
    func dateOnly() throws {
        let now = try #require(dateIn(try global("now", [])))
        let day = try #require(dateIn(try method("date", on: now)))
        #expect(!day.hasTime)
        #expect(BaseDates.text(of: day) == "2025-06-30")
        #expect(textIn(try method("format", on: day, [.string("YYYY-MM-DD HH:mm:ss")])) == "2025-06-30 00:00:00")
    }

    @Test("format() takes a Moment.js format; time() is HH:mm:ss; isEmpty() is false")
    func formatTimeAndIsEmpty() throws {
        let day = try parsedDate("2025-05-27")
        #expect(textIn(try method("format", on: day, [.string("YYYY-MM-DD")])) == "2025-05-27", "the help's example")
        let moment = try parsedDate("2025-01-31T14:05:09")
        #expect(textIn(try method("format", on: moment, [.string("dddd D MMMM YYYY, h:mm a")])) == "Friday 31 January 2025, 2:05 pm")
        #expect(textIn(try method("format", on: moment)) == "2025-01-31T14:05:09+01:00", "Moment's default format")
        #expect(textIn(try method("time", on: moment)) == "14:05:09")
        #expect(textIn(try method("time", on: day)) == "00:00:00")
        #expect(booleanIn(try method("isEmpty", on: day)) == false)
        #expect(try method("toUpperCase", on: day) == nil, "not a date method")
    }

    @Test("a method given a bad argument throws")
    func methodErrors() throws {
        let day = try parsedDate("2025-05-27")
        #expect(throws: BaseEvaluationError(#"format() expects a Moment.js format like "YYYY-MM-DD", got number 5"#)) {
            _ = try method("format", on: day, [.number(5)])
        }
        #expect(throws: BaseEvaluationError.self) { _ = try method("format", on: day, [.string("YYYY"), .string("MM")]) }
        #expect(throws: BaseEvaluationError("time() takes no arguments, got 1")) { _ = try method("time", on: day, [.string("HH")]) }
        #expect(throws: BaseEvaluationError.self) { _ = try method("relative", on: day, [.number(1)]) }
        #expect(throws: BaseEvaluationError.self) { _ = try method("date", on: day, [.number(1)]) }
    }
}

// MARK: Text and instants

@Suite("Bases dates: text and instants")
struct BaseDateTextTests {
    @Test("a date shows as YYYY-MM-DD, with a time as YYYY-MM-DDTHH:mm:ss; ISO text adds milliseconds and offsets")
    func text() throws {
        #expect(shown("2025-01-31") == "2025-01-31")
        #expect(shown("2025-01-31 14:05") == "2025-01-31T14:05:00")
        #expect(shown("2025-01-31 14:05:09.250") == "2025-01-31T14:05:09")
        #expect(date("2025-01-31").map { BaseDates.isoText(of: $0) } == "2025-01-31")
        #expect(date("2025-01-31 14:05").map { BaseDates.isoText(of: $0) } == "2025-01-31T14:05:00")
        #expect(date("2025-01-31 14:05:09.250").map { BaseDates.isoText(of: $0) } == "2025-01-31T14:05:09.250")
        let withOffset = DataviewDate(year: 2025, month: 1, day: 31, hour: 14, minute: 5, offsetMinutes: 60, hasTime: true)
        #expect(BaseDates.isoText(of: withOffset) == "2025-01-31T14:05:00+01:00")
    }

    @Test("milliseconds since the epoch: a bare date is midnight in the zone; an own offset wins")
    func epochMilliseconds() throws {
        let newYear = try parsedDate("2025-01-01")
        #expect(BaseDates.epochMilliseconds(of: newYear, timeZone: utc) == 1_735_689_600_000)
        #expect(BaseDates.epochMilliseconds(of: newYear, timeZone: berlin) == 1_735_686_000_000)
        let noonUTC = try parsedDate("2025-01-01T12:00:00Z")
        #expect(BaseDates.epochMilliseconds(of: noonUTC, timeZone: berlin) == 1_735_732_800_000)
        let withOffset = DataviewDate(year: 2025, month: 1, day: 1, hour: 13, offsetMinutes: 60, hasTime: true)
        #expect(BaseDates.epochMilliseconds(of: withOffset, timeZone: utc) == 1_735_732_800_000)
        #expect(BaseDates.epochMilliseconds(of: try parsedDate("2025-03-30 02:30"), timeZone: berlin) == 1_743_298_200_000,
                "a time the clocks skip moves on by the gap, as in JavaScript")
        #expect(BaseDates.epochMilliseconds(of: try parsedDate("2025-10-26 02:30"), timeZone: berlin) == 1_761_438_600_000,
                "a time the clocks repeat is the first of the two")
    }
}

// MARK: relative()

@Suite("Bases dates: relative() as Moment's fromNow()")
struct BaseRelativeDateTests {
    /// `relative()` of the moment `seconds` from noon on 30 June 2025 in Berlin (negative: before).
    func relative(_ seconds: Double) throws -> String? {
        let milliseconds = Int64(noonInBerlin.timeIntervalSince1970 * 1000 + seconds * 1000)
        return textIn(try method("relative", on: DataviewDate(unixMilliseconds: milliseconds, timeZone: berlin)))
    }

    @Test("the past at each of Moment's thresholds")
    func past() throws {
        let day = 86_400.0
        let cases: [(seconds: Double, text: String)] = [
            (0, "a few seconds ago"), (44, "a few seconds ago"), (45, "a minute ago"), (89, "a minute ago"), (90, "2 minutes ago"),
            (44 * 60, "44 minutes ago"), (45 * 60, "an hour ago"), (89 * 60, "an hour ago"), (90 * 60, "2 hours ago"),
            (21 * 3600, "21 hours ago"), (22 * 3600, "a day ago"), (35 * 3600, "a day ago"), (36 * 3600, "2 days ago"),
            (3 * day, "3 days ago"), (25 * day, "25 days ago"), (26 * day, "a month ago"), (46 * day, "a month ago"),
            (50 * day, "2 months ago"), (319 * day, "10 months ago"), (320 * day, "a year ago"), (547 * day, "2 years ago"),
            (1000 * day, "3 years ago"),
        ]
        for (seconds, text) in cases {
            #expect(try relative(-seconds) == text, "\(seconds) seconds before")
        }
    }

    @Test("the future at each of Moment's thresholds")
    func future() throws {
        let day = 86_400.0
        let cases: [(seconds: Double, text: String)] = [
            (1, "in a few seconds"), (44, "in a few seconds"), (45, "in a minute"), (90, "in 2 minutes"), (44 * 60, "in 44 minutes"),
            (45 * 60, "in an hour"), (90 * 60, "in 2 hours"), (21 * 3600, "in 21 hours"), (22 * 3600, "in a day"),
            (36 * 3600, "in 2 days"), (25 * day, "in 25 days"), (26 * day, "in a month"), (46 * day, "in 2 months"),
            (319 * day, "in 10 months"), (320 * day, "in a year"), (547 * day, "in a year"), (600 * day, "in 2 years"),
            (1000 * day, "in 3 years"),
        ]
        for (seconds, text) in cases {
            #expect(try relative(seconds) == text, "\(seconds) seconds after")
        }
    }

    @Test("a bare date counts from midnight; the help's file.mtime.relative() example")
    func bareDates() throws {
        let threeDaysAgo = try parsedDate("2025-06-27 12:00")
        #expect(textIn(try method("relative", on: threeDaysAgo)) == "3 days ago")
        let yesterday = try parsedDate("2025-06-29")
        #expect(textIn(try method("relative", on: yesterday)) == "2 days ago", "36 hours since midnight rounds to 2 days")
        let tomorrow = try parsedDate("2025-07-01")
        #expect(textIn(try method("relative", on: tomorrow)) == "in 12 hours")
    }
}
