import Foundation

/// The default summaries a view can put under a column (`summaries: {price: Average}`), computed over the
/// column's values in the rows shown.
///
/// Choices where Obsidian's help is silent:
/// - number summaries read only number values (text such as `"3"` is not a number here) and are null when
///   there are none, except `Sum`, which is 0 as an empty sum is;
/// - `Stddev` is the population standard deviation (divides by n, so one value gives 0): the column is every
///   row, not a sample of rows;
/// - `Range` is `Max − Min` when the column has numbers, else the duration from `Earliest` to `Latest`;
/// - `Checked`/`Unchecked` count `true`/`false` values only; a missing checkbox is neither;
/// - `Unique` counts distinct filled values (`Empty` values are not counted), by `BaseComparison.unique`.
/// Names match case-insensitively (`average` is `Average`).
public enum BaseSummaries {
    public static let defaultNames: [String] = [
        "Average", "Min", "Max", "Sum", "Range", "Median", "Stddev", "Earliest", "Latest", "Checked", "Unchecked",
        "Empty", "Filled", "Unique",
    ]

    /// The summary `name` of `values`, or nil when `name` is not one of `defaultNames`.
    public static func compute(_ name: String, values: [BaseValue], environment: BaseEnvironment) -> BaseValue? {
        guard let canonical = defaultNames.first(where: { $0.caseInsensitiveCompare(name) == .orderedSame }) else { return nil }
        let numbers = numbers(in: values)
        func number(_ value: Double?) -> BaseValue { value.map(BaseValue.number) ?? .null }
        switch canonical {
        case "Average": return number(mean(numbers))
        case "Min": return number(numbers.min())
        case "Max": return number(numbers.max())
        case "Sum": return .number(numbers.reduce(0, +))
        case "Median": return number(median(numbers))
        case "Stddev": return number(standardDeviation(numbers))
        case "Range":
            if let minimum = numbers.min(), let maximum = numbers.max() { return .number(maximum - minimum) }
            guard let earliest = extremeDate(in: values, latest: false, environment: environment),
                  let latest = extremeDate(in: values, latest: true, environment: environment) else { return .null }
            let milliseconds = BaseDates.epochMilliseconds(of: latest, timeZone: environment.timeZone)
                - BaseDates.epochMilliseconds(of: earliest, timeZone: environment.timeZone)
            return .duration(DataviewDuration.fromMilliseconds(milliseconds))
        case "Earliest": return extremeDate(in: values, latest: false, environment: environment).map(BaseValue.date) ?? .null
        case "Latest": return extremeDate(in: values, latest: true, environment: environment).map(BaseValue.date) ?? .null
        case "Checked": return .number(Double(values.filter { if case .boolean(true) = $0 { true } else { false } }.count))
        case "Unchecked": return .number(Double(values.filter { if case .boolean(false) = $0 { true } else { false } }.count))
        case "Empty": return .number(Double(values.filter(\.isEmpty).count))
        case "Filled": return .number(Double(values.filter { !$0.isEmpty }.count))
        case "Unique":
            let filled = values.filter { !$0.isEmpty }
            return .number(Double(BaseComparison.unique(filled, environment: environment).count))
        default: return nil
        }
    }

    /// The number values among `values`, in order.
    static func numbers(in values: [BaseValue]) -> [Double] {
        values.compactMap { if case .number(let number) = $0 { number } else { nil } }
    }

    static func mean(_ numbers: [Double]) -> Double? {
        numbers.isEmpty ? nil : numbers.reduce(0, +) / Double(numbers.count)
    }

    /// The middle value, or the mean of the two middle values of an even count.
    static func median(_ numbers: [Double]) -> Double? {
        guard !numbers.isEmpty else { return nil }
        let sorted = numbers.sorted()
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }

    /// The population standard deviation.
    static func standardDeviation(_ numbers: [Double]) -> Double? {
        guard let mean = mean(numbers) else { return nil }
        let variance = numbers.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(numbers.count)
        return variance.squareRoot()
    }

    /// The earliest or latest date among `values`, nil when there is none.
    static func extremeDate(in values: [BaseValue], latest: Bool, environment: BaseEnvironment) -> DataviewDate? {
        var best: (date: DataviewDate, milliseconds: Double)?
        for value in values {
            guard case .date(let date) = value else { continue }
            let milliseconds = BaseDates.epochMilliseconds(of: date, timeZone: environment.timeZone)
            if best == nil || (latest ? milliseconds > best!.milliseconds : milliseconds < best!.milliseconds) {
                best = (date, milliseconds)
            }
        }
        return best?.date
    }
}
