import Foundation

/// A date or date-time as Dataview holds it: a civil (wall-clock) time, either floating in the local time
/// zone, or with an explicit UTC offset (`2024-01-31T10:00+02:00`), or in a named time zone
/// (`2021-08-15T12:40:50[Europe/Paris]`, whose offset follows the date through summer and winter time).
///
/// Civil arithmetic is done here (days from the civil calendar), so adding a month clamps the day as
/// Luxon does (`2024-01-31 + 1 month = 2024-02-29`) and results do not depend on Foundation's calendars.
public struct DataviewDate: Sendable, Hashable {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int
    public var millisecond: Int
    /// Minutes east of UTC when written with an offset (`Z` is 0); nil for local (floating) times.
    public var offsetMinutes: Int?
    /// False for a date without a time of day (`2024-01-31`): it renders without one.
    public var hasTime: Bool
    /// The IANA time zone the date was written in (`Europe/Paris`), or nil. When set, `offsetMinutes` is
    /// that zone's offset at this time.
    public var zoneName: String?

    public init(
        year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, millisecond: Int = 0,
        offsetMinutes: Int? = nil, hasTime: Bool = false, zoneName: String? = nil
    ) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.millisecond = millisecond
        self.offsetMinutes = offsetMinutes
        self.hasTime = hasTime
        self.zoneName = zoneName
    }

    /// The date `days` after 1970-01-01.
    public init(daysSince1970 days: Int) {
        let (year, month, day) = DataviewDate.civilFromDays(Int64(days))
        self.init(year: year, month: month, day: day)
    }

    /// The local civil time of an instant given in whole milliseconds since 1970 (exact, no rounding).
    public init(unixMilliseconds: Int64, timeZone: TimeZone = .current) {
        let offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(unixMilliseconds) / 1000))
        self = DataviewDate.fromLocalMilliseconds(unixMilliseconds + Int64(offset) * 1000, offsetMinutes: nil, hasTime: true)
    }

    /// The local civil time of an instant.
    /// The wall-clock time of a moment where the clock is `offsetSeconds` ahead of UTC (a caller that
    /// converts many moments can look each zone offset up once, not once per moment).
    public init(unixMilliseconds: Int64, offsetSeconds: Int) {
        self = DataviewDate.fromLocalMilliseconds(unixMilliseconds + Int64(offsetSeconds) * 1000, offsetMinutes: nil, hasTime: true)
    }

    public init(instant: Date, hasTime: Bool = true, timeZone: TimeZone = .current) {
        let offsetSeconds = timeZone.secondsFromGMT(for: instant)
        let localMilliseconds = Int64((instant.timeIntervalSince1970 * 1000).rounded(.down)) + Int64(offsetSeconds) * 1000
        self = DataviewDate.fromLocalMilliseconds(localMilliseconds, offsetMinutes: nil, hasTime: hasTime)
        if !hasTime { self = startOfDay }
    }

    /// Milliseconds since the epoch of this time read as UTC wall-clock time (offsets applied; floating
    /// times use the local zone's offset at that time), for ordering and differences.
    public var comparableMilliseconds: Int64 {
        let local = localMilliseconds
        if let offsetMinutes { return local - Int64(offsetMinutes) * 60_000 }
        let guess = Date(timeIntervalSince1970: Double(local) / 1000)
        return local - Int64(TimeZone.current.secondsFromGMT(for: guess)) * 1000
    }

    public func compare(_ other: DataviewDate) -> Int {
        let a = comparableMilliseconds, b = other.comparableMilliseconds
        return a < b ? -1 : (a > b ? 1 : 0)
    }

    /// The same instant as a local (floating) time, as Luxon's `toLocal()`: a date written with an offset
    /// (`2024-01-31T10:00+09:00`) becomes the local time of that moment; a local date stays as it is.
    public func inLocalTime(_ timeZone: TimeZone = .current) -> DataviewDate {
        guard offsetMinutes != nil else { return self }
        var local = DataviewDate(unixMilliseconds: comparableMilliseconds, timeZone: timeZone)
        local.hasTime = hasTime || local.hour != 0 || local.minute != 0 || local.second != 0 || local.millisecond != 0
        return local
    }

    public var startOfDay: DataviewDate {
        let midnight = DataviewDate(year: year, month: month, day: day, offsetMinutes: offsetMinutes, hasTime: false)
        guard let zoneName, let zone = TimeZone(identifier: zoneName) else { return midnight }
        var placed = midnight.placed(in: zone, named: zoneName, offsetGuess: offsetMinutes)
        placed.hasTime = false
        return placed
    }

    /// ISO 8601: `2024-01-31`, or `2024-01-31T10:00:00.000+02:00` style for date-times (offset only when known).
    public var isoText: String {
        var text = "\(zeroPadded(year, 4))-\(zeroPadded(month, 2))-\(zeroPadded(day, 2))"
        guard hasTime else { return text }
        text += "T\(zeroPadded(hour, 2)):\(zeroPadded(minute, 2)):\(zeroPadded(second, 2))"
        if millisecond != 0 { text += ".\(zeroPadded(millisecond, 3))" }
        if let offsetMinutes {
            if offsetMinutes == 0 { return text + "Z" }
            let sign = offsetMinutes < 0 ? "-" : "+"
            text += "\(sign)\(zeroPadded(abs(offsetMinutes) / 60, 2)):\(zeroPadded(abs(offsetMinutes) % 60, 2))"
        }
        return text
    }

    /// The day of the week, 1 = Monday … 7 = Sunday (ISO, as Luxon's `weekday`).
    public var weekday: Int {
        let days = DataviewDate.daysFromCivil(year, month, day)  // 1970-01-01 was a Thursday
        return Int(((days % 7) + 7 + 3) % 7) + 1
    }

    /// The ISO week number (Luxon's `weekNumber`).
    public var weekNumber: Int {
        let thursday = DataviewDate.daysFromCivil(year, month, day) - Int64(weekday) + 4
        let (thursdayYear, _, _) = DataviewDate.civilFromDays(thursday)
        let firstOfYear = DataviewDate.daysFromCivil(thursdayYear, 1, 1)
        return Int((thursday - firstOfYear) / 7) + 1
    }

    public var dayOfYear: Int {
        Int(DataviewDate.daysFromCivil(year, month, day) - DataviewDate.daysFromCivil(year, 1, 1)) + 1
    }

    // MARK: Arithmetic

    /// This date moved by a duration: years and months on the calendar (clamping the day), then weeks
    /// and days, then the time of day. A duration with a time part makes a date a date-time.
    public func adding(_ duration: DataviewDuration, sign: Double = 1) -> DataviewDate {
        if let zoneName, let zone = TimeZone(identifier: zoneName) { return adding(duration, sign: sign, in: zone, named: zoneName) }
        var result = self
        let totalMonths = Int(clamping: (duration.years * 12 + duration.months) * sign, limit: Self.maximumMonths)
        if totalMonths != 0 {
            let monthIndex = result.year * 12 + (result.month - 1) + totalMonths
            result.year = Int((Double(monthIndex) / 12).rounded(.down))
            result.month = monthIndex - result.year * 12 + 1
            result.day = min(result.day, DataviewDate.daysInMonth(result.year, result.month))
        }
        let dayDelta = (duration.weeks * 7 + duration.days) * sign
        let timeDelta = (duration.hours * 3_600_000 + duration.minutes * 60_000 + duration.seconds * 1000 + duration.milliseconds) * sign
        let milliseconds = dayDelta * 86_400_000 + timeDelta
        if milliseconds != 0 {
            let hasTime = result.hasTime || timeDelta != 0 || dayDelta.rounded() != dayDelta
            result = DataviewDate.fromLocalMilliseconds(
                result.localMilliseconds + Int64(clamping: milliseconds.rounded(), limit: Self.maximumMilliseconds),
                offsetMinutes: result.offsetMinutes, hasTime: hasTime)
        }
        return result
    }

    /// The difference `self - other` as Dataview computes it (Luxon's `diff` in years, months, days, hours,
    /// minutes, seconds and milliseconds): from the earlier date, whole years on the calendar, then whole
    /// months, then whole days, then the time left; negative when `other` is later. So one month after
    /// 2024-02-01 is 2024-03-01 (`1 month`, 30 days to `.days`), not 29 days.
    public func difference(from other: DataviewDate) -> DataviewDuration {
        let laterMilliseconds = comparableMilliseconds
        guard laterMilliseconds >= other.comparableMilliseconds else { return other.difference(from: self).negated }
        let earlier = other
        var steps = DataviewDuration()
        // Each unit's first guess can overshoot by one (a shorter month, an earlier time of day).
        func settle(_ unit: WritableKeyPath<DataviewDuration, Double>, guess: Int) {
            steps[keyPath: unit] = Double(max(0, guess))
            while steps[keyPath: unit] > 0, earlier.adding(steps).comparableMilliseconds > laterMilliseconds {
                steps[keyPath: unit] -= 1
            }
        }
        settle(\.years, guess: year - earlier.year)
        var cursor = earlier.adding(steps)
        settle(\.months, guess: (month - cursor.month) + (year - cursor.year) * 12)
        cursor = earlier.adding(steps)
        settle(\.days, guess: Int(DataviewDate.daysFromCivil(year, month, day) - DataviewDate.daysFromCivil(cursor.year, cursor.month, cursor.day)))
        cursor = earlier.adding(steps)
        let rest = DataviewDuration.fromMilliseconds(Double(laterMilliseconds - cursor.comparableMilliseconds))
        steps.hours = rest.days * 24 + rest.hours
        steps.minutes = rest.minutes
        steps.seconds = rest.seconds
        steps.milliseconds = rest.milliseconds
        return steps
    }

    /// How far arithmetic may move a date (a million years): durations beyond it stop there instead of
    /// overflowing.
    static let maximumMonths = 12_000_000.0
    static let maximumMilliseconds = 31_556_952_000_000_000.0

    /// `adding` in a named zone, as Luxon does it: the calendar part (years, months, whole weeks and days)
    /// moves the civil time, which then takes the zone's offset there; the rest (hours … and fractions of
    /// days) moves the instant, whose civil time follows (so `+ 24 hours` across a change of clocks is
    /// not `+ 1 day`).
    private func adding(_ duration: DataviewDuration, sign: Double, in zone: TimeZone, named name: String) -> DataviewDate {
        var civil = self
        civil.zoneName = nil
        let calendarDays = ((duration.weeks * sign).rounded(.towardZero) * 7 + (duration.days * sign).rounded(.towardZero))
        let calendar = DataviewDuration(years: duration.years * sign, months: duration.months * sign, days: calendarDays)
        civil = civil.adding(calendar)
        var result = civil.placed(in: zone, named: name, offsetGuess: offsetMinutes)
        let rest = (duration.weeks * 7 + duration.days) * sign - calendarDays
        let timeDelta = (rest * 86_400_000 + (duration.hours * 3_600_000 + duration.minutes * 60_000 + duration.seconds * 1000
            + duration.milliseconds) * sign).rounded()
        guard timeDelta != 0 else { return result }
        let instant = result.comparableMilliseconds + Int64(clamping: timeDelta, limit: Self.maximumMilliseconds)
        let offset = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant) / 1000))) * 1000
        result = DataviewDate.fromLocalMilliseconds(instant + offset, offsetMinutes: Int(offset / 60_000), hasTime: true)
        result.zoneName = name
        return result
    }

    /// This civil time in `zone` (Luxon's `setZone(zone, {keepLocalTime: true})`): with the zone's offset
    /// there, found from `offsetGuess` (minutes) as Luxon's `fixOffset` does; a time the clocks skip
    /// (spring forward) moves on by the gap, as in Luxon.
    func placed(in zone: TimeZone, named name: String, offsetGuess: Int? = nil) -> DataviewDate {
        let local = localMilliseconds
        func offset(at instant: Int64) -> Int64 {
            Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant) / 1000))) * 1000
        }
        let guess = offsetGuess.map { Int64($0) * 60_000 } ?? offset(at: local)
        var instant = local - guess
        var found = offset(at: instant)
        if found != guess {
            instant -= found - guess
            let again = offset(at: instant)
            if again != found {
                instant = local - min(found, again)
                found = max(found, again)
            }
        }
        var result = DataviewDate.fromLocalMilliseconds(instant + found, offsetMinutes: Int(found / 60_000), hasTime: hasTime)
        result.zoneName = name
        return result
    }

    // MARK: Civil calendar

    /// This time's wall-clock milliseconds since 1970-01-01T00:00 (no offset applied).
    var localMilliseconds: Int64 {
        let days = DataviewDate.daysFromCivil(year, month, day)
        return days * 86_400_000 + Int64(hour) * 3_600_000 + Int64(minute) * 60_000 + Int64(second) * 1000 + Int64(millisecond)
    }

    static func fromLocalMilliseconds(_ milliseconds: Int64, offsetMinutes: Int?, hasTime: Bool) -> DataviewDate {
        var days = milliseconds / 86_400_000
        var rest = milliseconds % 86_400_000
        if rest < 0 { rest += 86_400_000; days -= 1 }
        let (year, month, day) = civilFromDays(days)
        return DataviewDate(
            year: year, month: month, day: day, hour: Int(rest / 3_600_000), minute: Int(rest / 60_000 % 60),
            second: Int(rest / 1000 % 60), millisecond: Int(rest % 1000), offsetMinutes: offsetMinutes, hasTime: hasTime)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civilFromDays(_ days: Int64) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }

    static func daysInMonth(_ year: Int, _ month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    static func isValid(year: Int, month: Int, day: Int) -> Bool {
        (1...12).contains(month) && day >= 1 && day <= daysInMonth(year, month)
    }
}

extension Int {
    /// A whole number within ±`limit` (NaN is 0), where `Int(_:)` would trap.
    init(clamping value: Double, limit: Double) {
        self = value.isNaN ? 0 : Int(Swift.max(-limit, Swift.min(limit, value)))
    }
}

extension Int64 {
    /// A whole number within ±`limit` (NaN is 0), where `Int64(_:)` would trap.
    init(clamping value: Double, limit: Double) {
        self = value.isNaN ? 0 : Int64(Swift.max(-limit, Swift.min(limit, value)))
    }
}

func zeroPadded(_ value: Int, _ width: Int) -> String {
    let digits = String(abs(value))
    return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
}

// MARK: Parsing

extension DataviewDate {
    /// An ISO date as Dataview reads one in fields and `date(…)`: `2024-01-31`, `2024-01`, `2024-01-31T10`,
    /// `2024-01-31T10:00`, with optional seconds and milliseconds, then a zone: `Z`, an offset (`+02:00`,
    /// `+9`, `-07`), or a zone name in brackets as Luxon reads it (`[Europe/Paris]`, `[UTC+3]`, `[local]`).
    /// The whole text must match. `allowsSpaceBeforeTime` also takes `2024-01-31 10:00` (YAML's form, for
    /// frontmatter); Dataview's inline fields and `date("…")` want the `T`.
    public static func parse<S: StringProtocol>(_ text: S, allowsSpaceBeforeTime: Bool = true) -> DataviewDate? {
        var reader = DigitReader(Array(text.utf8))
        guard let year = reader.digits(exactly: 4), reader.take("-"), let month = reader.digits(exactly: 2) else { return nil }
        guard reader.take("-") else {
            return reader.isAtEnd && (1...12).contains(month) ? DataviewDate(year: year, month: month, day: 1) : nil
        }
        guard let day = reader.digits(exactly: 2), isValid(year: year, month: month, day: day) else { return nil }
        var date = DataviewDate(year: year, month: month, day: day)
        if reader.isAtEnd { return date }
        let separatedByT = reader.take("T")
        guard separatedByT || (allowsSpaceBeforeTime && reader.take(" ")), let hour = reader.digits(exactly: 2), hour < 24 else { return nil }
        date.hasTime = true
        date.hour = hour
        if reader.isAtEnd, separatedByT { return date }
        guard reader.take(":"), let minute = reader.digits(exactly: 2), minute < 60 else { return nil }
        date.minute = minute
        date.hasTime = true
        if reader.take(":") {
            guard let second = reader.digits(exactly: 2), second < 60 else { return nil }
            date.second = second
            if reader.take(".") {
                guard let (fraction, count) = reader.fraction() else { return nil }
                date.millisecond = Int((Double(fraction) / pow(10, Double(count)) * 1000).rounded(.down))
            }
        }
        if reader.take("Z") {
            date.offsetMinutes = 0
        } else if reader.peek == UInt8(ascii: "+") || reader.peek == UInt8(ascii: "-") {
            let sign = reader.peek == UInt8(ascii: "-") ? -1 : 1
            reader.index += 1
            guard let hours = reader.digits(exactly: 2) ?? reader.digits(exactly: 1) else { return nil }
            // `+02:00`, `+9`, `+6:30`; and, beyond Dataview, `+0200`.
            let minutes = reader.take(":") ? reader.digits(exactly: 2) : reader.digits(exactly: 2) ?? 0
            guard let minutes else { return nil }
            date.offsetMinutes = sign * (hours * 60 + minutes)
        } else if reader.take("[") {
            let start = reader.index
            while let byte = reader.peek, isZoneNameByte(byte) { reader.index += 1 }
            let name = String(decoding: reader.bytes[start..<reader.index], as: UTF8.self)
            guard !name.isEmpty, reader.take("]"), let zone = DataviewZone(name) else { return nil }
            switch zone {
            case .local: break
            case .fixed(let minutes): date.offsetMinutes = minutes
            case .named(let timeZone): date = date.placed(in: timeZone, named: timeZone.identifier)
            }
        }
        return reader.isAtEnd ? date : nil
    }

    /// The characters Dataview's date parser takes in a bracketed zone name: ASCII letters and digits and
    /// `+ , - . /` (so not `_`: `[America/New_York]` is no date in Dataview either).
    private static func isZoneNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "+")...UInt8(ascii: "/"):
            return true
        default:
            return false
        }
    }
}

/// A time zone as Luxon reads a zone name (`normalizeZone`): `local`, `system` or `default` (the local
/// zone), `UTC` or `GMT`, `UTC±h[:mm]` (a fixed offset), or an IANA name in any letter case
/// (`Europe/Paris`, `US/Pacific`, `EST`). Other text is no zone.
enum DataviewZone {
    case local
    case fixed(minutes: Int)
    case named(TimeZone)

    init?(_ name: String) {
        let lowered = name.lowercased()
        switch lowered {
        case "local", "system", "default": self = .local
        case "utc", "gmt": self = .fixed(minutes: 0)
        default:
            if lowered.hasPrefix("utc") {
                guard let minutes = DataviewZone.offsetMinutes(lowered.dropFirst(3)) else { return nil }
                self = .fixed(minutes: minutes)
            } else if let zone = DataviewZone.ianaZone(name) {
                self = .named(zone)
            } else {
                return nil
            }
        }
    }

    /// `+9`, `-07:30`: Luxon's `signedOffset` (the minutes take the hours' sign).
    private static func offsetMinutes(_ text: Substring) -> Int? {
        var reader = DigitReader(Array(text.utf8))
        guard let signByte = reader.peek, signByte == UInt8(ascii: "+") || signByte == UInt8(ascii: "-") else { return nil }
        reader.index += 1
        guard let hours = reader.digits(exactly: 2) ?? reader.digits(exactly: 1) else { return nil }
        var minutes = 0
        if reader.take(":") {
            guard let given = reader.digits(exactly: 2) else { return nil }
            minutes = given
        }
        guard reader.isAtEnd else { return nil }
        return (signByte == UInt8(ascii: "-") ? -1 : 1) * (hours * 60 + minutes)
    }

    /// An IANA zone (JavaScript's `Intl` takes names in any case); not Foundation's own `GMT+9` forms,
    /// which `Intl` does not know.
    private static func ianaZone(_ name: String) -> TimeZone? {
        let upper = name.uppercased()
        if (upper.hasPrefix("GMT") || upper.hasPrefix("UTC")) && upper.count > 3 { return nil }
        if let zone = TimeZone(identifier: name) { return zone }
        let lowered = name.lowercased()
        guard let known = TimeZone.knownTimeZoneIdentifiers.first(where: { $0.lowercased() == lowered }) else { return nil }
        return TimeZone(identifier: known)
    }
}

/// Reads fixed-width digit groups and separators from UTF-8 bytes.
struct DigitReader {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { index == bytes.count }
    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func take(_ character: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    mutating func digits(exactly count: Int) -> Int? {
        guard index + count <= bytes.count else { return nil }
        var value = 0
        for offset in 0..<count {
            let byte = bytes[index + offset]
            guard byte >= 48, byte <= 57 else { return nil }
            value = value * 10 + Int(byte - 48)
        }
        index += count
        return value
    }

    mutating func fraction() -> (Int, Int)? {
        var value = 0, count = 0
        while let byte = peek, byte >= 48, byte <= 57, count < 9 {
            value = value * 10 + Int(byte - 48)
            count += 1
            index += 1
        }
        return count > 0 ? (value, count) : nil
    }
}
