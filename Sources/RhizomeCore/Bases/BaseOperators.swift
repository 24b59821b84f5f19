import Foundation

/// The operators of the Bases language over evaluated values (`&&` and `||` are evaluated lazily by
/// `BaseEvaluator`). Arithmetic follows the help's "Operators" and "Date arithmetic" sections:
///
/// - numbers: `+ - * / %` as in JavaScript (division by zero gives ±Infinity, `%` keeps the dividend's sign);
/// - text: `+` with text on either side joins the text of both values (`"$" + price`);
/// - dates: `date ± duration` where the duration is a `duration(…)` value or text such as `"1M"`, `"2h"`,
///   `"1 week"`; `date − date` is the difference in milliseconds, a number, as the help says
///   (`(now() + "1d") - now()` is `86400000`); Obsidian's own skill files read it with `.days`, so a number
///   has `.days`, `.hours` and the other units, read as milliseconds (`BaseEvaluator`);
/// - durations: `±` each other, `* number` and `/ number` (the duration on the left, as the help requires);
/// - lists: `+` joins two lists.
///
/// A missing value (null) in arithmetic gives null, so a note without `price` shows an empty cell rather than
/// an error; joined to text it is empty text (`"Price: " + price`); comparing with null is false. Any other combination is a type error that names both types,
/// where JavaScript would quietly produce `NaN` (`"a" - 1`).
public enum BaseOperators {
    public static func unary(_ op: BaseUnaryOperator, _ operand: BaseValue) throws(BaseEvaluationError) -> BaseValue {
        switch (op, operand) {
        case (.not, _): return .boolean(!operand.isTruthy)
        case (_, .null): return .null
        case (.negate, .number(let number)): return .number(-number)
        case (.plus, .number): return operand
        case (.negate, .duration(let duration)): return .duration(duration.scaled(by: -1))
        case (.plus, .duration): return operand
        case (.negate, .boolean(let flag)): return .number(flag ? -1 : 0)
        case (.plus, .boolean(let flag)): return .number(flag ? 1 : 0)
        default:
            throw BaseEvaluationError("`\(op.rawValue)` needs a number, not \(describe(operand))")
        }
    }

    public static func binary(
        _ op: BaseBinaryOperator, _ left: BaseValue, _ right: BaseValue, environment: BaseEnvironment
    ) throws(BaseEvaluationError) -> BaseValue {
        switch op {
        case .and: return left.isTruthy ? right : left
        case .or: return left.isTruthy ? left : right
        case .equal: return .boolean(equal(left, right, environment: environment))
        case .notEqual: return .boolean(!equal(left, right, environment: environment))
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard let order = compare(left, right, environment: environment) else { return .boolean(false) }
            switch op {
            case .less: return .boolean(order < 0)
            case .lessOrEqual: return .boolean(order <= 0)
            case .greater: return .boolean(order > 0)
            default: return .boolean(order >= 0)
            }
        case .plus, .minus, .times, .divide, .modulo:
            return try arithmetic(op, left, right, environment: environment)
        }
    }

    // MARK: Comparison

    /// `==`: as `BaseComparison.equal`, and a date equals text that parses to the same date (`due == "2025-01-31"`).
    static func equal(_ left: BaseValue, _ right: BaseValue, environment: BaseEnvironment) -> Bool {
        switch (left, right) {
        case (.date, .string(let text)):
            guard let date = BaseDates.parse(text, timeZone: environment.timeZone) else { return false }
            return BaseComparison.equal(left, .date(date), environment: environment)
        case (.string, .date):
            return equal(right, left, environment: environment)
        case (.duration(let duration), .number(let number)), (.number(let number), .duration(let duration)):
            return duration.totalMilliseconds == number
        default:
            return BaseComparison.equal(left, right, environment: environment)
        }
    }

    /// `<` and friends: as `BaseComparison.compare`, with text that parses as a date compared to a date as one.
    static func compare(_ left: BaseValue, _ right: BaseValue, environment: BaseEnvironment) -> Int? {
        switch (left, right) {
        case (.date, .string(let text)):
            guard let date = BaseDates.parse(text, timeZone: environment.timeZone) else { return nil }
            return BaseComparison.compare(left, .date(date), environment: environment)
        case (.string(let text), .date):
            guard let date = BaseDates.parse(text, timeZone: environment.timeZone) else { return nil }
            return BaseComparison.compare(.date(date), right, environment: environment)
        case (.duration(let duration), .number):
            return BaseComparison.compare(.number(duration.totalMilliseconds), right, environment: environment)
        case (.number, .duration(let duration)):
            return BaseComparison.compare(left, .number(duration.totalMilliseconds), environment: environment)
        default:
            return BaseComparison.compare(left, right, environment: environment)
        }
    }

    // MARK: Arithmetic

    private static func arithmetic(
        _ op: BaseBinaryOperator, _ left: BaseValue, _ right: BaseValue, environment: BaseEnvironment
    ) throws(BaseEvaluationError) -> BaseValue {
        switch (op, left, right) {
        case (.plus, .string(let text), _):
            return .string(text + BaseText.string(right))
        case (.plus, _, .string(let text)) where !isDate(left):
            return .string(BaseText.string(left) + text)
        case (_, .null, _), (_, _, .null):
            return .null
        case (_, .number(let a), .number(let b)):
            return .number(numeric(op, a, b))
        case (.plus, .date(let date), _), (.minus, .date(let date), _):
            if case .date(let other) = right, op == .minus {
                let milliseconds = BaseDates.epochMilliseconds(of: date, timeZone: environment.timeZone)
                    - BaseDates.epochMilliseconds(of: other, timeZone: environment.timeZone)
                return .number(milliseconds)
            }
            let duration = try durationOperand(right, op: op)
            return .date(BaseDates.add(duration, to: date, sign: op == .plus ? 1 : -1, timeZone: environment.timeZone))
        case (.plus, .duration(let duration), .date(let date)):
            return .date(BaseDates.add(duration, to: date, sign: 1, timeZone: environment.timeZone))
        case (.plus, .duration(let a), .duration(let b)): return .duration(a + b)
        case (.minus, .duration(let a), .duration(let b)): return .duration(a + b.scaled(by: -1))
        case (.times, .duration(let duration), .number(let factor)): return .duration(duration.scaled(by: factor))
        case (.divide, .duration(let duration), .number(let divisor)):
            guard divisor != 0 else { throw BaseEvaluationError("a duration cannot be divided by zero") }
            return .duration(duration.scaled(by: 1 / divisor))
        case (.plus, .list(let a), .list(let b)): return .list(a + b)
        case (_, .boolean, .number), (_, .number, .boolean), (_, .boolean, .boolean):
            return .number(numeric(op, numberOf(left), numberOf(right)))
        default:
            var fix = ""
            if case .number = left, case .duration = right, op == .times { fix = ": put the duration on the left, `duration('1d') * 2`" }
            if case .string = left, case .number = right { fix = ": convert the text with number(…) first" }
            if case .number = left, case .string = right { fix = ": convert the text with number(…) first" }
            throw BaseEvaluationError("cannot \(verb(op)) \(describe(left)) and \(describe(right))\(fix)")
        }
    }

    private static func numeric(_ op: BaseBinaryOperator, _ a: Double, _ b: Double) -> Double {
        switch op {
        case .plus: return a + b
        case .minus: return a - b
        case .times: return a * b
        case .divide: return a / b
        default: return a.truncatingRemainder(dividingBy: b)
        }
    }

    /// The duration added to or taken from a date: a duration value, or text such as `"1M"` or `"2 weeks"`.
    private static func durationOperand(_ value: BaseValue, op: BaseBinaryOperator) throws(BaseEvaluationError) -> DataviewDuration {
        switch value {
        case .duration(let duration): return duration
        case .string(let text):
            if let duration = BaseDates.duration(text) { return duration }
            throw BaseEvaluationError("\"\(text)\" is not a duration: write a number and a unit, like \"1d\", \"2 weeks\" or \"1M\" (months)")
        default:
            throw BaseEvaluationError("cannot \(verb(op)) a date and \(describe(value)): use a duration such as \"1d\"")
        }
    }

    private static func isDate(_ value: BaseValue) -> Bool {
        if case .date = value { return true }
        return false
    }

    private static func numberOf(_ value: BaseValue) -> Double {
        switch value {
        case .boolean(let flag): return flag ? 1 : 0
        case .number(let number): return number
        default: return .nan
        }
    }

    private static func verb(_ op: BaseBinaryOperator) -> String {
        switch op {
        case .plus: return "add"
        case .minus: return "subtract"
        case .times: return "multiply"
        case .divide: return "divide"
        default: return "take the remainder of"
        }
    }

    /// `text "a"`, `number 5`, `a list`: a value as an error message names it.
    static func describe(_ value: BaseValue) -> String {
        switch value {
        case .string(let text): return "text \"\(text.count > 40 ? String(text.prefix(40)) + "…" : text)\""
        case .number(let number): return "number \(BaseText.number(number))"
        case .boolean(let flag): return "boolean \(flag)"
        case .null: return "an empty value"
        case .date(let date): return "date \(BaseDates.text(of: date))"
        default: return "a \(value.typeName)"
        }
    }
}
