/// A duration as Dataview (Luxon) holds one: an amount per unit, kept as written (`dur(1 month 2 days)`).
/// Compared by total length with Luxon's casual conversions (a month is 30 days, a year 365 days).
public struct DataviewDuration: Sendable, Hashable {
    public var years: Double = 0
    public var months: Double = 0
    public var weeks: Double = 0
    public var days: Double = 0
    public var hours: Double = 0
    public var minutes: Double = 0
    public var seconds: Double = 0
    public var milliseconds: Double = 0

    public init(
        years: Double = 0, months: Double = 0, weeks: Double = 0, days: Double = 0, hours: Double = 0,
        minutes: Double = 0, seconds: Double = 0, milliseconds: Double = 0
    ) {
        self.years = years
        self.months = months
        self.weeks = weeks
        self.days = days
        self.hours = hours
        self.minutes = minutes
        self.seconds = seconds
        self.milliseconds = milliseconds
    }

    /// A difference of two times, as days, hours, minutes, seconds and milliseconds.
    public static func fromMilliseconds(_ total: Double) -> DataviewDuration {
        let sign: Double = total < 0 ? -1 : 1
        var rest = abs(total)
        let days = (rest / 86_400_000).rounded(.down); rest -= days * 86_400_000
        let hours = (rest / 3_600_000).rounded(.down); rest -= hours * 3_600_000
        let minutes = (rest / 60_000).rounded(.down); rest -= minutes * 60_000
        let seconds = (rest / 1000).rounded(.down); rest -= seconds * 1000
        return DataviewDuration(
            days: sign * days, hours: sign * hours, minutes: sign * minutes, seconds: sign * seconds, milliseconds: sign * rest)
    }

    /// Every unit with its sign flipped.
    public var negated: DataviewDuration {
        DataviewDuration(
            years: -years, months: -months, weeks: -weeks, days: -days, hours: -hours, minutes: -minutes, seconds: -seconds,
            milliseconds: -milliseconds)
    }

    /// The total length in milliseconds (casual conversions: month = 30 days, year = 365 days).
    public var totalMilliseconds: Double {
        ((years * 365 + months * 30 + weeks * 7 + days) * 24 + hours) * 3_600_000 + minutes * 60_000 + seconds * 1000 + milliseconds
    }

    /// The units in order from years to milliseconds, with Dataview's singular and plural names.
    var components: [(amount: Double, singular: String, plural: String)] {
        [(years, "year", "years"), (months, "month", "months"), (weeks, "week", "weeks"), (days, "day", "days"),
         (hours, "hour", "hours"), (minutes, "minute", "minutes"), (seconds, "second", "seconds"),
         (milliseconds, "millisecond", "milliseconds")]
    }

    public static func + (lhs: DataviewDuration, rhs: DataviewDuration) -> DataviewDuration {
        DataviewDuration(
            years: lhs.years + rhs.years, months: lhs.months + rhs.months, weeks: lhs.weeks + rhs.weeks, days: lhs.days + rhs.days,
            hours: lhs.hours + rhs.hours, minutes: lhs.minutes + rhs.minutes, seconds: lhs.seconds + rhs.seconds,
            milliseconds: lhs.milliseconds + rhs.milliseconds)
    }

    public func scaled(by factor: Double) -> DataviewDuration {
        DataviewDuration(
            years: years * factor, months: months * factor, weeks: weeks * factor, days: days * factor, hours: hours * factor,
            minutes: minutes * factor, seconds: seconds * factor, milliseconds: milliseconds * factor)
    }

    /// `1 hour, 30 minutes`: the duration normalized into years, months, weeks, days … (casual
    /// conversions), non-zero units largest first, as Dataview prints durations; `0 seconds` when empty.
    public var text: String {
        let parts = normalized.components.filter { $0.amount != 0 }.map { part in
            "\(DataviewNumber.text(part.amount)) \(abs(part.amount) == 1 ? part.singular : part.plural)"
        }
        return parts.isEmpty ? "0 seconds" : parts.joined(separator: ", ")
    }

    /// The same length spread over all units from years down (Luxon's `shiftToAll().normalize()`).
    public var normalized: DataviewDuration {
        let total = totalMilliseconds
        let sign: Double = total < 0 ? -1 : 1
        var rest = abs(total)
        var result = DataviewDuration()
        for (keyPath, unit) in Self.unitMilliseconds {
            let amount = keyPath == \.milliseconds ? rest : (rest / unit).rounded(.down)
            result[keyPath: keyPath] = sign * amount
            rest -= amount * unit
        }
        return result
    }

    /// The length in one unit (`duration.days`, fractional), as Luxon's `shiftTo(unit)` gives it.
    public func total(in keyPath: WritableKeyPath<DataviewDuration, Double>) -> Double {
        let unit = Self.unitMilliseconds.first { $0.0 == keyPath }?.1 ?? 1
        return totalMilliseconds / unit
    }

    static let day = 86_400_000.0
    nonisolated(unsafe) static let unitMilliseconds: [(WritableKeyPath<DataviewDuration, Double>, Double)] = [  // immutable; key paths are not marked Sendable
        (\.years, 365 * day), (\.months, 30 * day), (\.weeks, 7 * day), (\.days, day), (\.hours, 3_600_000),
        (\.minutes, 60_000), (\.seconds, 1000), (\.milliseconds, 1),
    ]

    /// ISO 8601 (`P1M2DT3H`), for machine output.
    public var isoText: String {
        var text = "P"
        for (amount, unit) in [(years, "Y"), (months, "M"), (weeks, "W"), (days, "D")] where amount != 0 {
            text += DataviewNumber.text(amount) + unit
        }
        let seconds = self.seconds + milliseconds / 1000
        let timeParts = [(hours, "H"), (minutes, "M"), (seconds, "S")].filter { $0.0 != 0 }
        if !timeParts.isEmpty { text += "T" + timeParts.map { DataviewNumber.text($0.0) + $0.1 }.joined() }
        return text == "P" ? "PT0S" : text
    }
}

// MARK: Parsing

extension DataviewDuration {
    /// `3 days`, `1 day 2 hours`, `1d2h`, `1 hour, 30 minutes`: amounts with Dataview's unit names, in
    /// lower case (`3 Days` is not a duration, and there is no millisecond unit, as in Dataview); the
    /// whole text must match. Nil otherwise.
    public static func parse<S: StringProtocol>(_ text: S) -> DataviewDuration? {
        let scalars = Array(text.unicodeScalars)
        var index = 0
        var duration = DataviewDuration()
        var parts = 0
        func skipSeparators() {
            while index < scalars.count, scalars[index] == " " || scalars[index] == "\t" || scalars[index] == "," { index += 1 }
        }
        skipSeparators()
        while index < scalars.count {
            let numberStart = index
            if scalars[index] == "-" || scalars[index] == "+" { index += 1 }
            while index < scalars.count, scalars[index].properties.numericType != nil || scalars[index] == "." {
                guard scalars[index].isASCII else { return nil }
                index += 1
            }
            guard index > numberStart, let amount = Double(String(String.UnicodeScalarView(scalars[numberStart..<index]))) else {
                return nil
            }
            while index < scalars.count, scalars[index] == " " { index += 1 }
            let unitStart = index
            while index < scalars.count, scalars[index].properties.isAlphabetic { index += 1 }
            let unit = String(String.UnicodeScalarView(scalars[unitStart..<index]))
            guard let keyPath = keyPath(ofUnit: unit) else { return nil }
            duration[keyPath: keyPath] += amount
            parts += 1
            skipSeparators()
        }
        return parts > 0 ? duration : nil
    }

    private static func keyPath(ofUnit unit: String) -> WritableKeyPath<DataviewDuration, Double>? {
        switch unit {
        case "y", "yr", "yrs", "year", "years": return \.years
        case "mo", "mos", "month", "months": return \.months
        case "w", "wk", "wks", "week", "weeks": return \.weeks
        case "d", "day", "days": return \.days
        case "h", "hr", "hrs", "hour", "hours": return \.hours
        case "m", "min", "mins", "minute", "minutes": return \.minutes
        case "s", "sec", "secs", "second", "seconds": return \.seconds
        default: return nil
        }
    }
}

/// How Dataview prints numbers: integers without a fraction, others as JavaScript would (`0.5`, `1.25`).
public enum DataviewNumber {
    public static func text(_ number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
        // Whole numbers in digits, as JavaScript writes them below 1e21 (`hash()` gives numbers up to 2^53).
        if number.rounded() == number, abs(number) < 9e18 { return String(Int64(number)) }
        return String(number)
    }
}
