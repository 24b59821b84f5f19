import Foundation

/// Formats durations with Luxon's duration tokens, as Dataview's `durationformat()` does (Luxon's
/// `Duration.toFormat`).
///
/// Tokens: `y` years, `M` months, `w` weeks, `d` days, `h` hours, `m` minutes, `s` seconds, `S`
/// milliseconds; repeating a letter pads the number with zeros to that many digits (`hh`). Text in single
/// quotes, other letters and other characters are printed as they are. The duration is first spread over
/// just the units the format names, with Luxon's casual conversions (a year is 365 days or 52 weeks, a
/// month 30 days or 4 weeks), and each number is rounded down:
///
///     format(3 days 7 hours 43 seconds, "ddd'd' hh'h' ss's'")  // "003d 07h 43s"
///     format(2000 years, "M 'months'")                         // "24000 months"
public enum DataviewDurationFormat {
    public static func format(_ duration: DataviewDuration, _ pattern: String) -> String {
        let parts = DataviewDateFormat.parts(of: pattern)
        var units = Set<Unit>()
        for case .token(let letter, _) in parts { if let unit = Unit(token: letter) { units.insert(unit) } }
        let amounts = shifted(duration, to: units)
        var output = ""
        for part in parts {
            switch part {
            case .literal(let text):
                output += text
            case .token(let letter, let count):
                guard let unit = Unit(token: letter) else {
                    output += String(repeating: letter, count: count)
                    continue
                }
                output += digits((amounts[unit.rawValue] ?? 0).rounded(.down), width: count)
            }
        }
        return output
    }

    /// Luxon's duration units, largest first (Dataview's durations have no quarters).
    enum Unit: Int, CaseIterable {
        case years, months, weeks, days, hours, minutes, seconds, milliseconds

        init?(token: Character) {
            switch token {
            case "y": self = .years
            case "M": self = .months
            case "w": self = .weeks
            case "d": self = .days
            case "h": self = .hours
            case "m": self = .minutes
            case "s": self = .seconds
            case "S": self = .milliseconds
            default: return nil
            }
        }

        var keyPath: KeyPath<DataviewDuration, Double> {
            switch self {
            case .years: return \.years
            case .months: return \.months
            case .weeks: return \.weeks
            case .days: return \.days
            case .hours: return \.hours
            case .minutes: return \.minutes
            case .seconds: return \.seconds
            case .milliseconds: return \.milliseconds
            }
        }
    }

    /// How many of `smaller` make one `larger` (Luxon's casual conversion matrix).
    static func conversion(_ larger: Unit, _ smaller: Unit) -> Double {
        let day = 86_400_000.0
        func milliseconds(_ unit: Unit) -> Double {
            switch unit {
            case .years: return 365 * day
            case .months: return 30 * day
            case .weeks: return 7 * day
            case .days: return day
            case .hours: return 3_600_000
            case .minutes: return 60_000
            case .seconds: return 1000
            case .milliseconds: return 1
            }
        }
        // The casual matrix's own week counts: 52 in a year and 4 in a month, not 365/7 and 30/7.
        if smaller == .weeks { return larger == .years ? 52 : 4 }
        if larger == .years && smaller == .months { return 12 }
        return milliseconds(larger) / milliseconds(smaller)
    }

    /// The duration in just `units` (Luxon's `shiftTo`): amounts of units left out are carried down into the
    /// next named unit (what remains below the smallest named unit goes into it as a fraction), then
    /// normalized: whole amounts of a smaller unit roll up into the next larger named one, fractions of a
    /// larger one roll down. Indexed by `Unit.rawValue`; nil for units not named.
    static func shifted(_ duration: DataviewDuration, to units: Set<Unit>) -> [Double?] {
        var built = [Double?](repeating: nil, count: Unit.allCases.count)
        guard !units.isEmpty else { return built }
        var accumulated: [(unit: Unit, amount: Double)] = []
        var lastUnit = Unit.years
        for unit in Unit.allCases {
            let own = duration[keyPath: unit.keyPath]
            guard units.contains(unit) else {
                accumulated.append((unit, own))
                continue
            }
            lastUnit = unit
            var total = 0.0
            for index in accumulated.indices {
                total += conversion(accumulated[index].unit, unit) * accumulated[index].amount
                accumulated[index].amount = 0
            }
            total += own
            let whole = total.rounded(.towardZero)
            built[unit.rawValue] = whole
            accumulated.append((unit, (total * 1000 - whole * 1000) / 1000))
        }
        for (unit, amount) in accumulated where amount != 0 {
            built[lastUnit.rawValue]! += unit == lastUnit ? amount : amount / conversion(lastUnit, unit)
        }
        normalize(&built)
        return built
    }

    /// Luxon's `normalizeValues` over the named units (the non-nil ones).
    private static func normalize(_ amounts: inout [Double?]) {
        var total = 0.0
        for unit in Unit.allCases { if let amount = amounts[unit.rawValue] { total += amount * conversion(unit, .milliseconds) } }
        let sign: Double = total < 0 ? -1 : 1
        var previous: Unit? = nil
        for unit in Unit.allCases.reversed() where amounts[unit.rawValue] != nil {
            if let smaller = previous {
                let factor = conversion(unit, smaller)
                let rollUp = (amounts[smaller.rawValue]! * sign / factor).rounded(.down)
                amounts[unit.rawValue]! += rollUp * sign
                amounts[smaller.rawValue]! -= rollUp * factor * sign
            }
            previous = unit
        }
        previous = nil
        for unit in Unit.allCases where amounts[unit.rawValue] != nil {
            if let larger = previous {
                let fraction = amounts[larger.rawValue]!.truncatingRemainder(dividingBy: 1)
                amounts[larger.rawValue]! -= fraction
                amounts[unit.rawValue]! += fraction * conversion(larger, unit)
            }
            previous = unit
        }
    }

    /// A whole number in decimal digits, zero-padded to `width` after the sign, as JavaScript's
    /// `Intl.NumberFormat` writes it without grouping (`-05`; no exponent for large numbers).
    static func digits(_ number: Double, width: Int) -> String {
        guard number.isFinite else { return number.isNaN ? "NaN" : (number < 0 ? "-∞" : "∞") }
        let magnitude = abs(number) < 9e18 ? String(Int64(abs(number))) : String(format: "%.0f", abs(number))
        let padded = String(repeating: "0", count: max(0, width - magnitude.count)) + magnitude
        return (number < 0 ? "-" : "") + padded
    }
}
