import Foundation

/// The methods of lists (except `filter`, `map` and `reduce`, which the evaluator runs per element).
///
/// `contains` and `unique` use `BaseComparison.equal`, so `authors.contains(this)` finds a link to the
/// current file. `sort()` uses `BaseComparison.sortOrder` (numbers numerically, text naturally, empty values
/// last), not JavaScript's default sort by text, as the help's `[3, 1, 2].sort()` example shows. `flat()`
/// flattens one level, as JavaScript's does; `flat(depth)` more. `mean`, `sum`, `median`, `stddev`, `min`
/// and `max` are not on the Functions page but the help's custom summary `values.mean().round(3)` uses
/// `mean()`; they ignore values that are not numbers (`min`/`max` of dates give the earliest/latest date).
extension BaseMethods {
    static func listMethod(
        _ name: String, on items: [BaseValue], _ arguments: BaseArguments, environment: BaseEnvironment
    ) throws(BaseEvaluationError) -> BaseValue? {
        func contains(_ value: BaseValue) -> Bool {
            items.contains { BaseComparison.equal($0, value, environment: environment) }
        }
        switch name {
        case "contains":
            try arguments.expectCount(1)
            return .boolean(contains(arguments.values[0]))
        case "containsAll":
            try arguments.expectCount(1, .max)
            return .boolean(arguments.values.allSatisfy(contains))
        case "containsAny":
            try arguments.expectCount(1, .max)
            return .boolean(arguments.values.contains(where: contains))
        case "flat":
            try arguments.expectCount(0, 1)
            let depth = try arguments.optionalNumber(at: 0) ?? 1
            return .list(flattened(items, depth: depth))
        case "join":
            try arguments.expectCount(0, 1)
            let separator = try arguments.count == 0 || arguments.values[0].isNull ? "," : arguments.text(at: 0)
            return .string(items.map(BaseText.string).joined(separator: separator))
        case "reverse":
            try arguments.expectCount(0)
            return .list(items.reversed())
        case "slice":
            try arguments.expectCount(1, 2)
            return .list(Array(items[try sliceRange(arguments, count: items.count)]))
        case "sort":
            try arguments.expectCount(0)
            return .list(sorted(items, environment: environment))
        case "unique":
            try arguments.expectCount(0)
            return .list(BaseComparison.unique(items, environment: environment))
        case "mean", "sum", "median", "stddev":
            try arguments.expectCount(0)
            let numbers = BaseSummaries.numbers(in: items)
            switch name {
            case "mean": return BaseSummaries.mean(numbers).map(BaseValue.number) ?? .null
            case "sum": return .number(numbers.reduce(0, +))
            case "median": return BaseSummaries.median(numbers).map(BaseValue.number) ?? .null
            default: return BaseSummaries.standardDeviation(numbers).map(BaseValue.number) ?? .null
            }
        case "min", "max":
            try arguments.expectCount(0)
            let numbers = BaseSummaries.numbers(in: items)
            if numbers.isEmpty {
                return BaseSummaries.extremeDate(in: items, latest: name == "max", environment: environment).map(BaseValue.date) ?? .null
            }
            return .number(name == "max" ? numbers.max()! : numbers.min()!)
        default:
            return nil
        }
    }

    /// A stable sort by `BaseComparison.sortOrder`.
    static func sorted(_ items: [BaseValue], environment: BaseEnvironment) -> [BaseValue] {
        items.enumerated().sorted { left, right in
            let order = BaseComparison.sortOrder(left.element, right.element, environment: environment)
            return order != 0 ? order < 0 : left.offset < right.offset
        }.map(\.element)
    }

    private static func flattened(_ items: [BaseValue], depth: Double) -> [BaseValue] {
        guard depth >= 1 else { return items }
        var result: [BaseValue] = []
        for item in items {
            if case .list(let inner) = item {
                result += flattened(inner, depth: depth - 1)
            } else {
                result.append(item)
            }
        }
        return result
    }
}
