import Foundation

/// Dates of the Bases language (Obsidian's `.base` formulas): reading `date("…")` and date properties, the
/// globals `date()`, `duration()`, `now()` and `today()`, a date's fields and methods, date arithmetic, and
/// the text a date shows as. Durations and `relative()` are in `BaseDates+Duration.swift` and
/// `BaseDates+Relative.swift`.
///
/// Obsidian runs in one time zone and its dates are JavaScript `Date`s read in it; here a Bases date is a
/// floating (wall-clock) `DataviewDate` in the environment's zone, so `date.hour` is the hour shown.
/// Text written with an offset (`…T10:00:00+09:00`) is turned into that zone's wall-clock time when read.
public enum BaseDates {
    /// `date("…")` and date-typed property text: `2025-01-01` (no time), `2025-01-01 12:00`,
    /// `2025-01-01T12:00:00`, seconds with up to nine fractional digits, then optionally `Z`, `+02`, `+0200` or
    /// `+02:00`, which turn the time into `timeZone`'s wall-clock time. Nil for any other text, and for days
    /// the calendar lacks (`2025-02-30`). These are the shapes Obsidian's `DateValue.parseFromString` takes
    /// (as modelled in mnaoumov/obsidian-test-mocks); the help asks for `YYYY-MM-DD HH:mm:ss`.
    public static func parse(_ text: String, timeZone: TimeZone) -> DataviewDate? {
        var reader = DigitReader(Array(text.utf8))
        guard let year = reader.digits(exactly: 4), reader.take("-"), let month = reader.digits(exactly: 2), reader.take("-"),
              let day = reader.digits(exactly: 2), DataviewDate.isValid(year: year, month: month, day: day) else { return nil }
        var date = DataviewDate(year: year, month: month, day: day)
        if reader.isAtEnd { return date }
        guard reader.take("T") || reader.take(" "), let hour = reader.digits(exactly: 2), hour < 24, reader.take(":"),
              let minute = reader.digits(exactly: 2), minute < 60 else { return nil }
        date.hour = hour
        date.minute = minute
        date.hasTime = true
        if reader.take(":") {
            guard let second = reader.digits(exactly: 2), second < 60 else { return nil }
            date.second = second
            if reader.take(".") {
                guard let (fraction, digitCount) = reader.fraction() else { return nil }
                date.millisecond = digitCount >= 3 ? fraction / Int(pow(10, Double(digitCount - 3))) : fraction * Int(pow(10, Double(3 - digitCount)))
            }
        }
        var offsetMinutes: Int?
        if reader.take("Z") {
            offsetMinutes = 0
        } else if let signByte = reader.peek, signByte == UInt8(ascii: "+") || signByte == UInt8(ascii: "-") {
            reader.index += 1
            guard let hours = reader.digits(exactly: 2) else { return nil }
            var minutes = 0
            if reader.take(":") {
                guard let given = reader.digits(exactly: 2) else { return nil }
                minutes = given
            } else if let given = reader.digits(exactly: 2) {
                minutes = given
            }
            offsetMinutes = (signByte == UInt8(ascii: "-") ? -1 : 1) * (hours * 60 + minutes)
        }
        guard reader.isAtEnd else { return nil }
        guard let offsetMinutes else { return date }
        return DataviewDate(unixMilliseconds: date.localMilliseconds - Int64(offsetMinutes) * 60_000, timeZone: timeZone)
    }

    /// The globals that make dates and durations: `date(text)`, `duration(text)`, `now()`, `today()`; nil when
    /// `name` is none of them. `now()` is `environment.now` in `environment.timeZone`; `today()` is that day
    /// with no time (midnight). `date()` of a date is that date; `duration()` of a duration is that duration.
    public static func global(_ name: String, arguments: [BaseValue], environment: BaseEnvironment) throws(BaseEvaluationError) -> BaseValue? {
        switch name {
        case "date":
            let expected = #"text like "2025-01-31" or "2025-01-31 14:00:00""#
            switch try onlyArgument(of: "date()", arguments, expected: expected) {
            case .date(let date):
                return .date(date)
            case .string(let text):
                guard let date = parse(text, timeZone: environment.timeZone) else {
                    throw BaseEvaluationError(#"date() cannot read "\#(text)" as a date: write it like "2025-01-31" or "2025-01-31 14:00:00""#)
                }
                return .date(date)
            case let other:
                throw BaseEvaluationError("date() expects \(expected), got \(describe(other))")
            }
        case "duration":
            let expected = #"text like "1d", "2 weeks" or "1M 4h""#
            switch try onlyArgument(of: "duration()", arguments, expected: expected) {
            case .duration(let duration):
                return .duration(duration)
            case .string(let text):
                guard let duration = duration(text) else {
                    throw BaseEvaluationError(#"duration() cannot read "\#(text)" as a duration: write a number and a unit (y, M, w, d, h, m, s), like "1d" or "2 hours""#)
                }
                return .duration(duration)
            case let other:
                throw BaseEvaluationError("duration() expects \(expected), got \(describe(other))")
            }
        case "now":
            try expectNoArguments("now()", arguments)
            return .date(DataviewDate(instant: environment.now, hasTime: true, timeZone: environment.timeZone))
        case "today":
            try expectNoArguments("today()", arguments)
            return .date(DataviewDate(instant: environment.now, hasTime: false, timeZone: environment.timeZone))
        default:
            return nil
        }
    }

    /// `date.year`, `month` (1–12), `day`, `hour`, `minute`, `second`, `millisecond`, read from the date's own
    /// fields; nil for other names.
    public static func field(_ name: String, of date: DataviewDate) -> BaseValue? {
        // Dataview reads the same fields (and more: `week`, `weekday`, which Bases does not have).
        guard fieldNames.contains(name), case .number(let value) = DataviewOperators.datePart(name, of: date) else { return nil }
        return .number(value)
    }

    private static let fieldNames: Set<String> = ["year", "month", "day", "hour", "minute", "second", "millisecond"]

    /// The methods of a date: `date()` (the day, without its time), `format(pattern)` (Moment.js; with no
    /// pattern Moment's default `YYYY-MM-DDTHH:mm:ssZ`), `time()` (`HH:mm:ss`), `relative()` (Moment's
    /// `fromNow()` against `environment.now`), `isEmpty()` (false). Nil when `name` is no date method.
    public static func method(
        _ name: String, on date: DataviewDate, arguments: [BaseValue], environment: BaseEnvironment
    ) throws(BaseEvaluationError) -> BaseValue? {
        switch name {
        case "date":
            try expectNoArguments("date()", arguments)
            return .date(date.startOfDay)
        case "format":
            guard arguments.count <= 1 else {
                throw BaseEvaluationError("format() takes one format, like \"YYYY-MM-DD\", got \(arguments.count) arguments")
            }
            // No format, or an empty one, is Moment's default.
            guard let argument = arguments.first, argument.isTruthy else {
                return .string(MomentFormat.format(date, "YYYY-MM-DDTHH:mm:ssZ", floatingTimeZone: environment.timeZone))
            }
            guard case .string(let pattern) = argument else {
                throw BaseEvaluationError("format() expects a Moment.js format like \"YYYY-MM-DD\", got \(describe(argument))")
            }
            return .string(MomentFormat.format(date, pattern, floatingTimeZone: environment.timeZone))
        case "time":
            try expectNoArguments("time()", arguments)
            return .string(MomentFormat.format(date, "HH:mm:ss", floatingTimeZone: environment.timeZone))
        case "relative":
            try expectNoArguments("relative()", arguments)
            return .string(relativeText(of: date, now: environment.now, timeZone: environment.timeZone))
        case "isEmpty":
            try expectNoArguments("isEmpty()", arguments)
            return .boolean(false)
        default:
            return nil
        }
    }

    /// The text of a date in `toString()`, string concatenation and tables: `2025-01-31` without a time,
    /// `2025-01-31T14:05:00` with one, as Obsidian's `DateValue.toString()` gives it (the value a date input
    /// shows; mnaoumov/obsidian-test-mocks `src/obsidian/DateValue.ts` models it so).
    public static func text(of date: DataviewDate) -> String {
        let day = "\(zeroPadded(date.year, 4))-\(zeroPadded(date.month, 2))-\(zeroPadded(date.day, 2))"
        guard date.hasTime else { return day }
        return day + "T\(zeroPadded(date.hour, 2)):\(zeroPadded(date.minute, 2)):\(zeroPadded(date.second, 2))"
    }

    /// ISO 8601 for machine output (JSON): `2025-01-31`, or `2025-01-31T14:05:00`, with `.250` when there
    /// are milliseconds and the offset when the date has one.
    public static func isoText(of date: DataviewDate) -> String {
        date.isoText
    }

    /// Milliseconds since the Unix epoch (`number(date)`, `date - date`, sorting): the date's own offset when
    /// it has one, else its wall-clock time in `timeZone`. A date without a time counts from midnight.
    public static func epochMilliseconds(of date: DataviewDate, timeZone: TimeZone) -> Double {
        let day = date.hasTime ? date : DataviewDate(year: date.year, month: date.month, day: date.day, offsetMinutes: date.offsetMinutes)
        let offsetMinutes = day.offsetMinutes ?? timeZone.offsetMinutes(atWallClock: day.localMilliseconds)
        return Double(day.localMilliseconds - Int64(offsetMinutes) * 60_000)
    }

    /// `date + duration` (`sign` 1) and `date - duration` (`sign` -1), as Moment.js adds: years, months, whole
    /// weeks and whole days move the calendar and keep the wall-clock time (the day clamped to the month's
    /// last: 2025-01-31 + 1M = 2025-02-28); hours, minutes, seconds, milliseconds and fractions of a day move
    /// the instant in `timeZone`, so they give a bare date a time (2024-12-01 + 1M + 4h + 3m =
    /// 2025-01-01T04:03:00) and count real hours across a change of clocks.
    public static func add(_ duration: DataviewDuration, to date: DataviewDate, sign: Double, timeZone: TimeZone) -> DataviewDate {
        let wholeWeeks = (duration.weeks * sign).rounded(.towardZero)
        let wholeDays = (duration.days * sign).rounded(.towardZero)
        let calendarPart = DataviewDuration(years: duration.years * sign, months: duration.months * sign, weeks: wholeWeeks, days: wholeDays)
        let moved = date.adding(calendarPart)
        let dayFraction = (duration.weeks * sign - wholeWeeks) * 7 + (duration.days * sign - wholeDays)
        let clockMilliseconds = duration.hours * 3_600_000 + duration.minutes * 60_000 + duration.seconds * 1000 + duration.milliseconds
        let timeMilliseconds = (dayFraction * 86_400_000 + clockMilliseconds * sign).rounded()
        guard timeMilliseconds != 0, !timeMilliseconds.isNaN else { return moved }
        // A date with its own offset or zone already moves its instant for a time part.
        if moved.offsetMinutes != nil || moved.zoneName != nil { return moved.adding(DataviewDuration(milliseconds: timeMilliseconds)) }
        let instant = Int64(epochMilliseconds(of: moved, timeZone: timeZone))
            + Int64(clamping: timeMilliseconds, limit: DataviewDate.maximumMilliseconds)
        return DataviewDate(unixMilliseconds: instant, timeZone: timeZone)
    }

    // MARK: Arguments

    private static func onlyArgument(of function: String, _ arguments: [BaseValue], expected: String) throws(BaseEvaluationError) -> BaseValue {
        guard arguments.count == 1 else {
            throw BaseEvaluationError("\(function) takes one argument, \(expected), got \(arguments.count)")
        }
        return arguments[0]
    }

    private static func expectNoArguments(_ function: String, _ arguments: [BaseValue]) throws(BaseEvaluationError) {
        guard arguments.isEmpty else {
            throw BaseEvaluationError("\(function) takes no arguments, got \(arguments.count)")
        }
    }

    /// A value as an error names it: `number 5`, `text "abc"`, `null`, `list`.
    static func describe(_ value: BaseValue) -> String {
        switch value {
        case .null: return "null"
        case .boolean(let flag): return "boolean \(flag)"
        case .number(let number): return "number \(DataviewNumber.text(number))"
        case .string(let text): return "text \"\(text)\""
        case .date(let date): return "date \(text(of: date))"
        case .duration(let duration): return "duration \(text(of: duration))"
        default: return value.typeName
        }
    }
}
