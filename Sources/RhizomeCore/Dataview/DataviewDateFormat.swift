/// Formats dates with Luxon's format tokens, as Dataview's `dateformat()` and its default formats do.
///
/// Supported tokens (English names): `yyyy` `yy` `y`, `MMMM` `MMM` `MM` `M`, `dd` `d`, `EEEE` `EEE` `E`
/// (`cccc` `ccc` `c` likewise), `HH` `H`, `hh` `h`, `mm` `m`, `ss` `s`, `SSS`, `a`, `WW` `W` (ISO week),
/// `kkkk` `kk` (ISO week year), `ooo` `o` (day of year), `q` (quarter), `Z` `ZZ` (offset); text in
/// single quotes is literal; other letters are printed as they are.
public enum DataviewDateFormat {
    static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                             "October", "November", "December"]
    static let weekdayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

    public static func format(_ date: DataviewDate, _ pattern: String) -> String {
        let characters = Array(pattern)
        var output = ""
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "'" {
                var end = index + 1
                while end < characters.count, characters[end] != "'" { end += 1 }
                output += end == index + 1 ? "'" : String(characters[(index + 1)..<end])
                index = end + 1
                continue
            }
            guard character.isLetter, character.isASCII else {
                output.append(character)
                index += 1
                continue
            }
            var runEnd = index
            while runEnd < characters.count, characters[runEnd] == character { runEnd += 1 }
            output += token(character, count: runEnd - index, date)
            index = runEnd
        }
        return output
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
        default: return String(repeating: letter, count: count)
        }
    }

    private static func weekYear(_ date: DataviewDate, width: Int) -> String {
        let thursday = DataviewDate.daysFromCivil(date.year, date.month, date.day) - Int64(date.weekday) + 4
        let year = DataviewDate.civilFromDays(thursday).0
        return width == 2 ? zeroPadded(year % 100, 2) : zeroPadded(year, width)
    }
}
