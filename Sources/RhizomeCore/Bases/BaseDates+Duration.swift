import Foundation

/// Durations of the Bases language: the text `date + "1M"` and `duration("…")` read, and the text a
/// duration shows as.
extension BaseDates {
    /// A duration string: amounts with the units of Obsidian's help (`y`/`year`/`years`, `M`/`month`/`months`,
    /// `w`/`week`/`weeks`, `d`/`day`/`days`, `h`/`hour`/`hours`, `m`/`minute`/`minutes`,
    /// `s`/`second`/`seconds`): `1d`, `1 day`, `2 weeks`, `1.5h`, `1d 4h`, `1M4h3m`, `1d, 4h`. `M` is a month
    /// and `m` a minute; unit words may be in any case (`2 Weeks`). One sign may lead and applies to the whole
    /// (`-1d 4h` is minus 28 hours), as in Go's `ParseDuration`. Nil for anything else, other unit
    /// spellings (`hr`, `min`, `ms`) included, as Obsidian does not take them either.
    public static func duration(_ text: String) -> DataviewDuration? {
        let characters = Array(text)
        var index = 0
        var duration = DataviewDuration()
        var sign = 1.0
        func skipSpaces() {
            while index < characters.count, characters[index] == " " || characters[index] == "\t" { index += 1 }
        }
        skipSpaces()
        if index < characters.count, characters[index] == "-" || characters[index] == "+" {
            sign = characters[index] == "-" ? -1 : 1
            index += 1
            skipSpaces()
        }
        var partCount = 0
        while index < characters.count {
            if partCount > 0, characters[index] == "," {
                index += 1
                skipSpaces()
            }
            let numberStart = index
            while index < characters.count, characters[index].isASCII, characters[index].isNumber || characters[index] == "." { index += 1 }
            let number = String(characters[numberStart..<index])
            guard number.contains(where: \.isNumber), number.filter({ $0 == "." }).count <= 1, let amount = Double(number) else { return nil }
            skipSpaces()
            let unitStart = index
            while index < characters.count, characters[index].isASCII, characters[index].isLetter { index += 1 }
            guard let unit = unitKeyPath(String(characters[unitStart..<index])) else { return nil }
            duration[keyPath: unit] += amount
            partCount += 1
            skipSpaces()
        }
        return partCount > 0 ? duration.scaled(by: sign) : nil
    }

    /// The text of a duration in `toString()` and tables: its units as held, largest first, each with its
    /// English name (`1 month 4 hours 3 minutes`, `1.5 hours`, `-2 days`), `0 seconds` when empty. Units are
    /// not carried over (`90m` stays `90 minutes`), so the text reads back as the same duration.
    public static func text(of duration: DataviewDuration) -> String {
        let parts = duration.components.filter { $0.amount != 0 }.map { part in
            "\(DataviewNumber.text(part.amount)) \(abs(part.amount) == 1 ? part.singular : part.plural)"
        }
        return parts.isEmpty ? "0 seconds" : parts.joined(separator: " ")
    }

    private static func unitKeyPath(_ unit: String) -> WritableKeyPath<DataviewDuration, Double>? {
        switch unit {
        case "y": return \.years
        case "M": return \.months
        case "w": return \.weeks
        case "d": return \.days
        case "h": return \.hours
        case "m": return \.minutes
        case "s": return \.seconds
        default: break
        }
        switch unit.lowercased() {
        case "year", "years": return \.years
        case "month", "months": return \.months
        case "week", "weeks": return \.weeks
        case "day", "days": return \.days
        case "hour", "hours": return \.hours
        case "minute", "minutes": return \.minutes
        case "second", "seconds": return \.seconds
        default: return nil
        }
    }
}
