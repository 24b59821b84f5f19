import Foundation

/// `date.relative()`: Moment.js's `fromNow()` in English ("3 days ago", "in an hour"), which Obsidian's
/// `DateValue.relative()` returns.
extension BaseDates {
    /// How far `date` is from `now`, as Moment 2.29's `moment(date).fromNow()` words it: the gap is measured
    /// as whole calendar months plus the rest (in `timeZone`), rounded per unit, and worded by Moment's
    /// default thresholds: under 45 seconds "a few seconds", under 45 minutes minutes, under 22 hours hours,
    /// under 26 days days, under 11 months months, then years. "in …" when `date` is later than `now`,
    /// "… ago" otherwise (also when they are equal).
    static func relativeText(of date: DataviewDate, now: Date, timeZone: TimeZone) -> String {
        let nowMilliseconds = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
        let dateMilliseconds = Int64(epochMilliseconds(of: date, timeZone: timeZone))
        let isFuture = dateMilliseconds > nowMilliseconds
        let gap = calendarGap(from: min(nowMilliseconds, dateMilliseconds), to: max(nowMilliseconds, dateMilliseconds), timeZone: timeZone)

        // Moment's `duration.as(unit)`: months count as 146097 / 4800 days (rounded) for the small units,
        // and the rest in days counts as 4800 / 146097 months for months and years.
        let monthDays = javaScriptRound(Double(gap.months) * 146_097 / 4800)
        let restMilliseconds = Double(gap.restMilliseconds)
        let seconds = javaScriptRound(monthDays * 86_400 + restMilliseconds / 1000)
        let minutes = javaScriptRound(monthDays * 1440 + restMilliseconds / 60_000)
        let hours = javaScriptRound(monthDays * 24 + restMilliseconds / 3_600_000)
        let days = javaScriptRound(monthDays + restMilliseconds / 86_400_000)
        let exactMonths = Double(gap.months) + restMilliseconds / 86_400_000 * 4800 / 146_097
        let months = javaScriptRound(exactMonths)
        let years = javaScriptRound(exactMonths / 12)

        let phrase: String
        if seconds < 45 {
            phrase = "a few seconds"
        } else if minutes <= 1 {
            phrase = "a minute"
        } else if minutes < 45 {
            phrase = "\(Int(minutes)) minutes"
        } else if hours <= 1 {
            phrase = "an hour"
        } else if hours < 22 {
            phrase = "\(Int(hours)) hours"
        } else if days <= 1 {
            phrase = "a day"
        } else if days < 26 {
            phrase = "\(Int(days)) days"
        } else if months <= 1 {
            phrase = "a month"
        } else if months < 11 {
            phrase = "\(Int(months)) months"
        } else if years <= 1 {
            phrase = "a year"
        } else {
            phrase = "\(Int(years)) years"
        }
        return isFuture ? "in " + phrase : phrase + " ago"
    }

    /// Moment's difference of two instants: whole calendar months from the earlier (its wall-clock day kept,
    /// clamped to the month's last), then the milliseconds left.
    private static func calendarGap(from earlier: Int64, to later: Int64, timeZone: TimeZone) -> (months: Int, restMilliseconds: Int64) {
        let start = DataviewDate(unixMilliseconds: earlier, timeZone: timeZone)
        let end = DataviewDate(unixMilliseconds: later, timeZone: timeZone)
        func instant(afterMonths months: Int) -> Int64 {
            Int64(epochMilliseconds(of: start.adding(DataviewDuration(months: Double(months))), timeZone: timeZone))
        }
        var months = (end.year - start.year) * 12 + end.month - start.month
        if instant(afterMonths: months) > later { months -= 1 }
        return (months, later - instant(afterMonths: months))
    }

    /// JavaScript's `Math.round`: halves round up.
    private static func javaScriptRound(_ value: Double) -> Double {
        (value + 0.5).rounded(.down)
    }
}
