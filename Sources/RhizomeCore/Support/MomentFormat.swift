import Foundation

/// Moment.js date formatting (`moment().format("…")`) in English, as Obsidian uses it for daily-note names,
/// template dates and Bases' `date.format()`. It reads a format as Moment 2.29 does: the longest token at each
/// place, `[text]` and `\X` written as they are, other characters passed through, and the localized forms
/// (`L`, `LL`, `LT`, `l`, …) expanded to the English ones first.
///
/// Tokens: `Y YY YYYY YYYYY YYYYYY`, `y yy yyy yyyy yo`, `N…NNNNN`, `Q Qo`, `M Mo MM MMM MMMM`, `D Do DD`,
/// `DDD DDDo DDDD`, `d do dd ddd dddd`, `e E`, `w wo ww W Wo WW`, `gg gggg ggggg GG GGGG GGGGG`, `H HH h hh k kk`,
/// `m mm s ss`, `S` to `SSSSSSSSS`, `a A`, `Z ZZ`, `z zz` (empty, as for a local moment), `X x`.
/// Weeks (`w`, `gggg`) follow Moment's English locale (weeks start on Sunday, week 1 holds 1 January);
/// `W` and `GGGG` are ISO weeks.
public enum MomentFormat {
    static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    /// `date` formatted with the wall-clock time and offset it has in `timeZone`.
    public static func format(_ date: Date, _ format: String, timeZone: TimeZone = .current) -> String {
        let epochMilliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let offsetMinutes = timeZone.secondsFromGMT(for: date) / 60
        let local = DataviewDate.fromLocalMilliseconds(epochMilliseconds + Int64(offsetMinutes) * 60_000, offsetMinutes: nil, hasTime: true)
        return render(format, MomentFields(local, offsetMinutes: offsetMinutes, epochMilliseconds: epochMilliseconds))
    }

    /// `date` formatted with its own fields (year … millisecond), whatever zone the process runs in. The
    /// offset (`Z`) and the instant (`X`, `x`) are the date's own when it was written with an offset;
    /// for a floating date they are those its wall-clock time has in `floatingTimeZone`.
    public static func format(_ date: DataviewDate, _ format: String, floatingTimeZone: TimeZone) -> String {
        let offsetMinutes = date.offsetMinutes ?? floatingTimeZone.offsetMinutes(atWallClock: date.localMilliseconds)
        let epochMilliseconds = date.localMilliseconds - Int64(offsetMinutes) * 60_000
        return render(format, MomentFields(date, offsetMinutes: offsetMinutes, epochMilliseconds: epochMilliseconds))
    }

    /// The English suffix Moment's `Do`, `Mo`, `wo` … put after a number: `st`, `nd`, `rd` or `th`.
    static func ordinalSuffix(_ number: Int) -> String {
        if (number % 100) / 10 == 1 { return "th" }
        switch number % 10 {
        case 1: return "st"
        case 2: return "nd"
        case 3: return "rd"
        default: return "th"
        }
    }

    // MARK: Reading a format

    /// The tokens Moment's formatter knows, in the order its pattern tries them (longest of a kind first).
    /// `w|` and `W|` are in Moment's pattern by accident (`w[o|w]?`) and print as they are.
    private static let tokens = [
        "Mo", "MMMM", "MMM", "MM", "M", "Do", "DDDo", "DDDD", "DDD", "DD", "D", "dddd", "ddd", "dd", "do", "d",
        "wo", "ww", "w|", "w", "Wo", "WW", "W|", "W", "Qo", "Q", "NNNNN", "NNNN", "NNN", "NN", "N",
        "YYYYYY", "YYYYY", "YYYY", "YY", "yyyy", "yyy", "yy", "yo", "y", "ggggg", "gggg", "gg", "GGGGG", "GGGG", "GG",
        "e", "E", "a", "A", "hh", "h", "HH", "H", "kk", "k", "mm", "m", "ss", "s",
        "SSSSSSSSS", "SSSSSSSS", "SSSSSSS", "SSSSSS", "SSSSS", "SSSS", "SSS", "SS", "S", "x", "X", "zz", "z", "ZZ", "Z",
    ].map(Array.init)

    /// The English locale's long formats, which `L`, `LL`, `LT`, `l` … stand for.
    private static let longFormats: [String: String] = [
        "LTS": "h:mm:ss A", "LT": "h:mm A", "L": "MM/DD/YYYY", "LL": "MMMM D, YYYY", "LLL": "MMMM D, YYYY h:mm A",
        "LLLL": "dddd, MMMM D, YYYY h:mm A", "l": "M/D/YYYY", "ll": "MMM D, YYYY", "lll": "MMM D, YYYY h:mm A",
        "llll": "ddd, MMM D, YYYY h:mm A",
    ]

    private static func render(_ format: String, _ fields: MomentFields) -> String {
        let characters = Array(expandingLongFormats(format))
        var output = ""
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "[", let close = characters[(index + 1)...].firstIndex(where: { $0 == "]" || $0 == "[" }), characters[close] == "]" {
                output += String(characters[(index + 1)..<close])
                index = close + 1
                continue
            }
            // JavaScript's `.` in Moment's pattern skips line breaks, so they vanish from the output.
            if isLineBreak(character) {
                index += 1
                continue
            }
            let isEscaped = character == "\\" && index + 1 < characters.count && !isLineBreak(characters[index + 1])
            let start = isEscaped ? index + 1 : index
            let token = tokens.first { characters[start...].starts(with: $0) } ?? [characters[start]]
            index = start + token.count
            let text = String(token)
            if isEscaped || text == "\\" {
                output += text.replacingOccurrences(of: "\\", with: "")
            } else {
                output += fields.text(of: text) ?? text
            }
        }
        return output
    }

    private static func isLineBreak(_ character: Character) -> Bool {
        character == "\n" || character == "\r" || character == "\r\n" || character == "\u{2028}" || character == "\u{2029}"
    }

    /// `LL` → `MMMM D, YYYY` and so on, outside `[…]`; repeated as Moment does, since no long format
    /// holds another.
    private static func expandingLongFormats(_ format: String) -> String {
        guard format.contains("L") || format.contains("l") else { return format }
        let characters = Array(format)
        var output = ""
        var index = 0
        while index < characters.count {
            if characters[index] == "[", let close = characters[(index + 1)...].firstIndex(of: "]") {
                output += String(characters[index...close])
                index = close + 1
                continue
            }
            let candidates = ["LTS", "LT", "LLLL", "LLL", "LL", "L", "llll", "lll", "ll", "l"]
            if let name = candidates.first(where: { characters[index...].starts(with: Array($0)) }) {
                output += longFormats[name]!
                index += name.count
            } else {
                output.append(characters[index])
                index += 1
            }
        }
        return output
    }
}

/// The parts of one moment that format tokens print, worked out once per format.
private struct MomentFields {
    let date: DataviewDate
    let offsetMinutes: Int
    let epochMilliseconds: Int64
    /// 0 = Sunday … 6 = Saturday, as Moment's `day()`.
    let weekday: Int

    init(_ date: DataviewDate, offsetMinutes: Int, epochMilliseconds: Int64) {
        self.date = date
        self.offsetMinutes = offsetMinutes
        self.epochMilliseconds = epochMilliseconds
        weekday = MomentFields.weekday(daysSince1970: DataviewDate.daysFromCivil(date.year, date.month, date.day))
    }

    /// The text of one token, nil when it is no token (it then prints as it is).
    func text(of token: String) -> String? {
        let hour12 = date.hour % 12 == 0 ? 12 : date.hour % 12
        let eraYear = date.year > 0 ? date.year : 1 - date.year
        switch token {
        case "Y": return date.year <= 9999 ? padded(date.year, 4) : "+\(date.year)"
        case "YY": return padded(date.year % 100, 2)
        case "YYYY": return padded(date.year, 4)
        case "YYYYY": return padded(date.year, 5)
        case "YYYYYY": return (date.year >= 0 ? "+" : "") + padded(date.year, 6)
        case "y", "yy", "yyy", "yyyy": return String(eraYear)
        case "yo": return ordinal(eraYear)
        case "N", "NN", "NNN", "NNNNN": return date.year > 0 ? "AD" : "BC"
        case "NNNN": return date.year > 0 ? "Anno Domini" : "Before Christ"
        case "Q": return String((date.month - 1) / 3 + 1)
        case "Qo": return ordinal((date.month - 1) / 3 + 1)
        case "M": return String(date.month)
        case "Mo": return ordinal(date.month)
        case "MM": return padded(date.month, 2)
        case "MMM": return String(MomentFormat.months[date.month - 1].prefix(3))
        case "MMMM": return MomentFormat.months[date.month - 1]
        case "D": return String(date.day)
        case "Do": return ordinal(date.day)
        case "DD": return padded(date.day, 2)
        case "DDD": return String(date.dayOfYear)
        case "DDDo": return ordinal(date.dayOfYear)
        case "DDDD": return padded(date.dayOfYear, 3)
        case "d", "e": return String(weekday)
        case "do": return ordinal(weekday)
        case "dd": return String(MomentFormat.weekdays[weekday].prefix(2))
        case "ddd": return String(MomentFormat.weekdays[weekday].prefix(3))
        case "dddd": return MomentFormat.weekdays[weekday]
        case "E": return String(weekday == 0 ? 7 : weekday)
        case "w": return String(localeWeek.week)
        case "wo": return ordinal(localeWeek.week)
        case "ww": return padded(localeWeek.week, 2)
        case "W": return String(isoWeek.week)
        case "Wo": return ordinal(isoWeek.week)
        case "WW": return padded(isoWeek.week, 2)
        case "gg": return padded(localeWeek.year % 100, 2)
        case "gggg": return padded(localeWeek.year, 4)
        case "ggggg": return padded(localeWeek.year, 5)
        case "GG": return padded(isoWeek.year % 100, 2)
        case "GGGG": return padded(isoWeek.year, 4)
        case "GGGGG": return padded(isoWeek.year, 5)
        case "H": return String(date.hour)
        case "HH": return padded(date.hour, 2)
        case "h": return String(hour12)
        case "hh": return padded(hour12, 2)
        case "k": return String(date.hour == 0 ? 24 : date.hour)
        case "kk": return padded(date.hour == 0 ? 24 : date.hour, 2)
        case "m": return String(date.minute)
        case "mm": return padded(date.minute, 2)
        case "s": return String(date.second)
        case "ss": return padded(date.second, 2)
        case "a": return date.hour < 12 ? "am" : "pm"
        case "A": return date.hour < 12 ? "AM" : "PM"
        case "Z", "ZZ":
            let sign = offsetMinutes < 0 ? "-" : "+"
            let separator = token == "Z" ? ":" : ""
            return sign + padded(abs(offsetMinutes) / 60, 2) + separator + padded(abs(offsetMinutes) % 60, 2)
        case "z", "zz": return ""
        case "X": return String(Int64((Double(epochMilliseconds) / 1000).rounded(.down)))
        case "x": return String(epochMilliseconds)
        default:
            guard token.first == "S" else { return nil }
            // `S` is tenths of a second, `SS` hundredths, `SSS` milliseconds, further `S`s add zeros.
            let digits = token.count
            let scaled = digits <= 3 ? date.millisecond / [100, 10, 1][digits - 1] : date.millisecond * Int(pow(10, Double(digits - 3)))
            return padded(scaled, digits == 1 ? 1 : digits)
        }
    }

    private func ordinal(_ number: Int) -> String { String(number) + MomentFormat.ordinalSuffix(number) }

    /// Moment's `zeroFill`: at least `width` digits after a `-` for negative numbers.
    private func padded(_ number: Int, _ width: Int) -> String {
        let digits = String(abs(number))
        return (number < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// English locale weeks: they start on Sunday (`dow` 0) and week 1 holds 1 January (`doy` 6).
    private var localeWeek: (week: Int, year: Int) { week(firstWeekday: 0, dayOfYearRule: 6) }
    /// ISO weeks: they start on Monday and week 1 holds 4 January.
    private var isoWeek: (week: Int, year: Int) { week(firstWeekday: 1, dayOfYearRule: 4) }

    /// Moment's `weekOfYear(mom, dow, doy)`.
    private func week(firstWeekday: Int, dayOfYearRule: Int) -> (week: Int, year: Int) {
        let offset = Self.firstWeekOffset(date.year, firstWeekday, dayOfYearRule)
        let week = Int(((Double(date.dayOfYear - offset - 1)) / 7).rounded(.down)) + 1
        if week < 1 {
            return (week + Self.weeksInYear(date.year - 1, firstWeekday, dayOfYearRule), date.year - 1)
        }
        let weeksThisYear = Self.weeksInYear(date.year, firstWeekday, dayOfYearRule)
        if week > weeksThisYear { return (week - weeksThisYear, date.year + 1) }
        return (week, date.year)
    }

    /// How many days before 1 January the first week of `year` starts (negated, as Moment counts it).
    private static func firstWeekOffset(_ year: Int, _ firstWeekday: Int, _ dayOfYearRule: Int) -> Int {
        let dayAlwaysInFirstWeek = 7 + firstWeekday - dayOfYearRule
        let weekdayOfThatDay = weekday(daysSince1970: DataviewDate.daysFromCivil(year, 1, dayAlwaysInFirstWeek))
        let localWeekday = (7 + weekdayOfThatDay - firstWeekday) % 7
        return -localWeekday + dayAlwaysInFirstWeek - 1
    }

    private static func weeksInYear(_ year: Int, _ firstWeekday: Int, _ dayOfYearRule: Int) -> Int {
        let daysInYear = DataviewDate.daysInMonth(year, 2) == 29 ? 366 : 365
        return (daysInYear - firstWeekOffset(year, firstWeekday, dayOfYearRule) + firstWeekOffset(year + 1, firstWeekday, dayOfYearRule)) / 7
    }

    /// 0 = Sunday; 1970-01-01 was a Thursday.
    static func weekday(daysSince1970 days: Int64) -> Int {
        Int(((days % 7) + 7 + 4) % 7)
    }
}
