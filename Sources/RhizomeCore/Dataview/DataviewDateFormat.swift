import Foundation

/// Formats dates with Luxon's format tokens, as Dataview's `dateformat()` and its default formats do.
///
/// Supported tokens (English names): `yyyy` `yy` `y`, `MMMM` `MMM` `MM` `M`, `dd` `d`, `EEEE` `EEE` `E`
/// (`cccc` `ccc` `c` likewise), `HH` `H`, `hh` `h`, `mm` `m`, `ss` `s`, `SSS`, `a`, `WW` `W` (ISO week),
/// `kkkk` `kk` (ISO week year), `ooo` `o` (day of year), `q` (quarter), `Z` `ZZ` (offset), `z` (zone name); text in
/// single quotes is literal; other letters are printed as they are.
public enum DataviewDateFormat {
    static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                             "October", "November", "December"]
    static let weekdayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

    public static func format(_ date: DataviewDate, _ pattern: String) -> String {
        var output = ""
        for part in parts(of: pattern) {
            switch part {
            case .literal(let text): output += text
            case .token(let letter, let count): output += token(letter, count: count, date)
            }
        }
        return output
    }

    /// A format's pieces: runs of one ASCII letter are tokens (`yyyy`), quoted text (`'T'`, `''` for a
    /// quote) and every other character are literal.
    enum Part {
        case literal(String)
        case token(Character, count: Int)
    }

    static func parts(of pattern: String) -> [Part] {
        let characters = Array(pattern)
        var parts: [Part] = []
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "'" {
                var end = index + 1
                while end < characters.count, characters[end] != "'" { end += 1 }
                parts.append(.literal(end == index + 1 ? "'" : String(characters[(index + 1)..<min(end, characters.count)])))
                index = end + 1
            } else if character.isLetter, character.isASCII {
                var runEnd = index
                while runEnd < characters.count, characters[runEnd] == character { runEnd += 1 }
                parts.append(.token(character, count: runEnd - index))
                index = runEnd
            } else {
                parts.append(.literal(String(character)))
                index += 1
            }
        }
        return parts
    }

    private static func token(_ letter: Character, count: Int, _ date: DataviewDate) -> String {
        let hour12 = date.hour % 12 == 0 ? 12 : date.hour % 12
        switch (letter, count) {
        case ("y", 2): return zeroPadded(date.year % 100, 2)
        case ("y", 4...): return zeroPadded(date.year, count)
        case ("y", _): return String(date.year)
        case ("M", 1): return String(date.month)
        case ("M", 2): return zeroPadded(date.month, 2)
        case ("M", 3), ("L", 3): return String(monthNames[date.month - 1].prefix(3))
        case ("M", _), ("L", _): return monthNames[date.month - 1]
        case ("d", 1): return String(date.day)
        case ("d", _): return zeroPadded(date.day, 2)
        case ("E", 1), ("c", 1): return String(date.weekday)
        case ("E", 3), ("c", 3): return String(weekdayNames[date.weekday - 1].prefix(3))
        case ("E", _), ("c", _): return weekdayNames[date.weekday - 1]
        case ("H", 1): return String(date.hour)
        case ("H", _): return zeroPadded(date.hour, 2)
        case ("h", 1): return String(hour12)
        case ("h", _): return zeroPadded(hour12, 2)
        case ("m", 1): return String(date.minute)
        case ("m", _): return zeroPadded(date.minute, 2)
        case ("s", 1): return String(date.second)
        case ("s", _): return zeroPadded(date.second, 2)
        case ("S", 3): return zeroPadded(date.millisecond, 3)
        case ("S", _): return String(date.millisecond)
        case ("a", _): return date.hour < 12 ? "AM" : "PM"
        case ("W", 1): return String(date.weekNumber)
        case ("W", _): return zeroPadded(date.weekNumber, 2)
        case ("k", _): return weekYear(date, width: count)
        case ("o", 1): return String(date.dayOfYear)
        case ("o", _): return zeroPadded(date.dayOfYear, 3)
        case ("q", _): return String((date.month - 1) / 3 + 1)
        case ("Z", _):
            let offset = date.offsetMinutes ?? 0
            let sign = offset < 0 ? "-" : "+"
            // `Z` is Luxon's narrow offset (`+2`, `+5:30`), `ZZ` the full one (`+02:00`).
            if count == 1 { return "\(sign)\(abs(offset) / 60)" + (offset % 60 == 0 ? "" : ":\(zeroPadded(abs(offset) % 60, 2))") }
            return "\(sign)\(zeroPadded(abs(offset) / 60, 2)):\(zeroPadded(abs(offset) % 60, 2))"
        case ("z", 1): return zoneName(of: date)
        default: return String(repeating: letter, count: count)
        }
    }

    /// Luxon's `zoneName`: the IANA name of a date written in a named zone (`Europe/Paris`), `UTC` or
    /// `UTC+9`, `UTC-6:30` for a fixed offset, the local zone's name for a local time.
    static func zoneName(of date: DataviewDate) -> String {
        if let name = date.zoneName { return name }
        guard let offset = date.offsetMinutes else { return TimeZone.current.identifier }
        if offset == 0 { return "UTC" }
        return "UTC" + (offset < 0 ? "-" : "+") + String(abs(offset) / 60) + (abs(offset) % 60 == 0 ? "" : ":" + String(abs(offset) % 60))
    }

    // MARK: Parsing

    /// Reads `text` with a Luxon format, as `date(text, format)` (Luxon's `fromFormat`) does: the whole text
    /// must match. Tokens: `yyyy` `yy` `y`, `MMMM` `MMM` `MM` `M` (`LLLL` … likewise), `dd` `d`, `HH` `H`,
    /// `hh` `h` with `a`, `mm` `m`, `ss` `s`, `SSS` `S`, `EEEE` `EEE` (a weekday name, checked against the
    /// date), `ooo` (day of year), `ZZ` `Z` (offset); `x` and `X` alone read milliseconds or seconds since
    /// 1970. Quoted text and other characters must appear as written. A number that may have several
    /// widths takes as many digits as the rest of the format lets it, as Luxon's regular expression does:
    /// `yyMMdd` reads `210313` as 2021-03-13. As in Luxon, the units above the largest one the format gives
    /// are `now`'s (`HH:mm` is today), the ones below it start at their first value. Nil when the text does
    /// not match or names no real date.
    public static func parse(_ text: String, format pattern: String, now: DataviewDate) -> DataviewDate? {
        if pattern == "x" || pattern == "X" { return epoch(text, unitMilliseconds: pattern == "x" ? 1 : 1000) }
        let reader = FormatReader(text: Array(text.unicodeScalars))
        return match(parts(of: pattern)[...], reader, ParsedFields())?.date(now: now)
    }

    /// The fields read when `parts` match the rest of the text, trying each number token's widest reading
    /// first, then narrower ones (backtracking).
    private static func match(_ parts: ArraySlice<Part>, _ reader: FormatReader, _ fields: ParsedFields) -> ParsedFields? {
        guard let part = parts.first else { return reader.isAtEnd ? fields : nil }
        switch part {
        case .literal(let literal):
            var next = reader
            guard next.consume(literal) else { return nil }
            return match(parts.dropFirst(), next, fields)
        case .token(let letter, let count):
            var maximumDigits = Int.max
            while true {
                var next = reader, read = fields
                guard self.read(letter, count: count, into: &read, from: &next, maximumDigits: maximumDigits) else { return nil }
                if let matched = match(parts.dropFirst(), next, read) { return matched }
                let taken = next.position - reader.position
                guard next.lastWasNumber, taken > 1 else { return nil }
                maximumDigits = taken - 1
            }
        }
    }

    private static func read(
        _ letter: Character, count: Int, into fields: inout ParsedFields, from reader: inout FormatReader, maximumDigits: Int
    ) -> Bool {
        reader.lastWasNumber = false
        /// A number of `digits` digits (at most `maximumDigits`) into `field`, if it is `within` the range.
        func number(_ digits: ClosedRange<Int>, _ field: WritableKeyPath<ParsedFields, Int?>, within range: ClosedRange<Int>? = nil) -> Bool {
            guard let value = reader.number(digits, maximum: maximumDigits), range?.contains(value) ?? true else { return false }
            fields[keyPath: field] = value
            return true
        }
        switch (letter, count) {
        case ("y", 2):
            guard let year = reader.number(2...4, maximum: maximumDigits) else { return false }
            // Luxon's `untruncateYear`: two-digit years up to 60 are this century's, later ones the last's.
            fields.year = year > 99 ? year : year > 60 ? 1900 + year : 2000 + year
        case ("y", 4):
            guard let year = reader.digits(4...4) else { return false }
            fields.year = year
        case ("y", 5...):
            guard let year = reader.number(4...6, maximum: maximumDigits) else { return false }
            fields.year = year
        case ("y", _): return number(1...6, \.year)
        case ("M", 1...2), ("L", 1...2): return number(count...2, \.month)
        case ("M", _), ("L", _):
            guard let month = reader.name(in: monthNames, abbreviated: count == 3) else { return false }
            fields.month = month + 1
        case ("d", _): return number(min(count, 2)...2, \.day)
        case ("o", _): return number(min(count, 3)...3, \.dayOfYear)
        case ("E", 3...), ("c", 3...):
            guard let weekday = reader.name(in: weekdayNames, abbreviated: count == 3) else { return false }
            fields.weekday = weekday + 1
        case ("E", _), ("c", _): return number(1...1, \.weekday, within: 1...7)
        case ("H", _): return number(min(count, 2)...2, \.hour)
        case ("h", _): return number(min(count, 2)...2, \.hour12, within: 1...12)
        case ("a", _):
            if reader.consume("AM", ignoringCase: true) { fields.isPM = false } else if reader.consume("PM", ignoringCase: true) {
                fields.isPM = true
            } else {
                return false
            }
        case ("m", _): return number(min(count, 2)...2, \.minute)
        case ("s", _): return number(min(count, 2)...2, \.second)
        case ("S", _): return number(count == 3 ? 3...3 : 1...3, \.millisecond)
        case ("Z", _):
            guard let offset = reader.offset() else { return false }
            fields.offsetMinutes = offset
        default:
            return reader.consume(String(repeating: letter, count: count))
        }
        return true
    }

    private static func epoch(_ text: String, unitMilliseconds: Int64) -> DataviewDate? {
        let digits = text.unicodeScalars.drop { !($0.isASCII && $0.properties.numericType != nil) && $0 != "-" }
            .prefix { ($0.isASCII && $0.properties.numericType != nil) || $0 == "-" }
        guard let number = Int64(String(String.UnicodeScalarView(digits))) else { return nil }
        let (milliseconds, overflow) = number.multipliedReportingOverflow(by: unitMilliseconds)
        return overflow ? nil : DataviewDate(unixMilliseconds: milliseconds)
    }

    /// What a format read; unset parts default as Luxon's do (January, the 1st, midnight).
    private struct ParsedFields {
        var year: Int?
        var month: Int?
        var day: Int?
        var dayOfYear: Int?
        var weekday: Int?
        var hour: Int?
        var hour12: Int?
        var isPM: Bool?
        var minute: Int?
        var second: Int?
        var millisecond: Int?
        var offsetMinutes: Int?

        func date(now: DataviewDate) -> DataviewDate? {
            var hour = self.hour
            if let hour12 { hour = hour12 % 12 + (isPM == true ? 12 : 0) } else if let isPM, let given = hour { hour = given % 12 + (isPM ? 12 : 0) }
            // Luxon: units above the largest given one are now's, the ones below it their first value.
            let given: [Int?] = [year, month ?? (dayOfYear != nil ? 1 : nil), day ?? (dayOfYear != nil ? 1 : nil), hour, minute, second, millisecond]
            let largest = given.firstIndex { $0 != nil } ?? given.count
            let current = [now.year, now.month, now.day, now.hour, now.minute, now.second, now.millisecond]
            let minimum = [0, 1, 1, 0, 0, 0, 0]
            let units = given.indices.map { index in given[index] ?? (index < largest ? current[index] : minimum[index]) }
            let year = units[0]
            var month = units[1], day = units[2]
            hour = units[3]
            if let dayOfYear {
                guard self.month == nil, self.day == nil, (1...(DataviewDate.daysInMonth(year, 2) == 29 ? 366 : 365)).contains(dayOfYear) else {
                    return nil
                }
                (_, month, day) = DataviewDate.civilFromDays(DataviewDate.daysFromCivil(year, 1, 1) + Int64(dayOfYear - 1))
            }
            let (minute, second, millisecond) = (units[4], units[5], units[6])
            guard (1...12).contains(month), (1...DataviewDate.daysInMonth(year, month)).contains(day), let hour, hour < 24,
                  minute < 60, second < 60 else { return nil }
            let hasTime = largest >= 3 || self.hour != nil || hour12 != nil || self.minute != nil || self.second != nil
                || self.millisecond != nil || offsetMinutes != nil
            let result = DataviewDate(
                year: year, month: month, day: day, hour: hour, minute: minute, second: second, millisecond: millisecond,
                offsetMinutes: offsetMinutes, hasTime: hasTime)
            if let weekday, weekday != result.weekday { return nil }  // Luxon: a weekday that does not fit is invalid
            return result
        }
    }

    private struct FormatReader {
        let text: [Unicode.Scalar]
        var position = 0

        var isAtEnd: Bool { position == text.count }

        mutating func consume(_ literal: String, ignoringCase: Bool = false) -> Bool {
            let scalars = Array(literal.unicodeScalars)
            guard position + scalars.count <= text.count else { return false }
            for (offset, scalar) in scalars.enumerated() {
                let found = text[position + offset]
                let matches = ignoringCase ? String(found).lowercased() == String(scalar).lowercased() : found == scalar
                guard matches else { return false }
            }
            position += scalars.count
            return true
        }

        /// Whether the last token read was a number (which may be read again with fewer digits).
        var lastWasNumber = false

        /// `digits`, at most `maximum` of them, noting that a number was read.
        mutating func number(_ lengths: ClosedRange<Int>, maximum: Int) -> Int? {
            guard maximum >= lengths.lowerBound else { return nil }
            let value = digits(lengths.lowerBound...min(lengths.upperBound, maximum))
            lastWasNumber = value != nil
            return value
        }

        /// A run of ASCII digits whose length is in `lengths` (the longest that fits).
        mutating func digits(_ lengths: ClosedRange<Int>) -> Int? {
            var end = position
            while end < text.count, end - position < lengths.upperBound, text[end].isASCII, text[end].properties.numericType != nil {
                end += 1
            }
            guard lengths.contains(end - position) else { return nil }
            let value = Int(String(String.UnicodeScalarView(text[position..<end])))
            position = end
            return value
        }

        /// The index of the name (or its first three letters) at the reader, in any case.
        mutating func name(in names: [String], abbreviated: Bool) -> Int? {
            for (index, name) in names.enumerated() {
                let written = abbreviated ? String(name.prefix(3)) : name
                if consume(written, ignoringCase: true) { return index }
            }
            return nil
        }

        /// `Z`, `+02:00`, `+0200`, `+2`, `-05:30`: minutes east of UTC.
        mutating func offset() -> Int? {
            if consume("Z") { return 0 }
            let start = position
            guard position < text.count, text[position] == "+" || text[position] == "-" else { return nil }
            let sign = text[position] == "-" ? -1 : 1
            position += 1
            guard let hours = digits(1...2) else {
                position = start
                return nil
            }
            var minutes = 0
            if consume(":") {
                guard let given = digits(2...2) else { return nil }
                minutes = given
            } else if let given = digits(2...2) {
                minutes = given
            }
            return sign * (hours * 60 + minutes)
        }
    }

    private static func weekYear(_ date: DataviewDate, width: Int) -> String {
        let thursday = DataviewDate.daysFromCivil(date.year, date.month, date.day) - Int64(date.weekday) + 4
        let year = DataviewDate.civilFromDays(thursday).0
        return width == 2 ? zeroPadded(year % 100, 2) : zeroPadded(year, width)
    }
}
