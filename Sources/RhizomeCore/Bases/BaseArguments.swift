import Foundation

/// The evaluated arguments of one function or method call, with checks that throw an error naming the
/// function and what it expected: "`slice` expects a number as its first argument, got text \"a\"".
struct BaseArguments {
    /// The name errors use: `slice`, `file.hasTag`.
    let name: String
    let values: [BaseValue]

    init(_ name: String, _ values: [BaseValue]) {
        self.name = name
        self.values = values
    }

    var count: Int { values.count }

    /// Throws unless there are between `minimum` and `maximum` arguments.
    func expectCount(_ minimum: Int, _ maximum: Int? = nil) throws(BaseEvaluationError) {
        let maximum = maximum ?? minimum
        guard values.count < minimum || values.count > maximum else { return }
        let expected: String
        if minimum == maximum {
            expected = minimum == 0 ? "no arguments" : minimum == 1 ? "1 argument" : "\(minimum) arguments"
        } else if maximum == Int.max {
            expected = "at least \(minimum) argument\(minimum == 1 ? "" : "s")"
        } else {
            expected = "\(minimum) to \(maximum) arguments"
        }
        throw BaseEvaluationError("`\(name)` expects \(expected), got \(values.count)")
    }

    func number(at index: Int) throws(BaseEvaluationError) -> Double {
        if case .number(let number) = values[index] { return number }
        throw mismatch(at: index, expected: "a number")
    }

    /// The number at `index`, or nil when the argument is missing or null.
    func optionalNumber(at index: Int) throws(BaseEvaluationError) -> Double? {
        guard index < values.count, !values[index].isNull else { return nil }
        return try number(at: index)
    }

    /// Text, or a number or boolean as its text (as JavaScript converts them for `includes`, `startsWith`…).
    func text(at index: Int) throws(BaseEvaluationError) -> String {
        switch values[index] {
        case .string(let text): return text
        case .number, .boolean: return BaseText.string(values[index])
        default: throw mismatch(at: index, expected: "text")
        }
    }

    /// All arguments as text (`containsAll("a", "b")`, `hasTag("x", "y")`).
    func texts() throws(BaseEvaluationError) -> [String] {
        var result: [String] = []
        for index in values.indices { result.append(try text(at: index)) }
        return result
    }

    /// JavaScript's ToIntegerOrInfinity of a number argument: NaN is 0, fractions truncate toward zero.
    func integer(at index: Int) throws(BaseEvaluationError) -> Double {
        let value = try number(at: index)
        if value.isNaN { return 0 }
        return value.rounded(.towardZero)
    }

    func mismatch(at index: Int, expected: String) -> BaseEvaluationError {
        BaseEvaluationError("`\(name)` expects \(expected) as its \(BaseArguments.ordinal(index)) argument, got \(BaseText.described(values[index]))")
    }

    static func ordinal(_ index: Int) -> String {
        switch index {
        case 0: return "first"
        case 1: return "second"
        case 2: return "third"
        default: return "\(index + 1)th"
        }
    }
}
