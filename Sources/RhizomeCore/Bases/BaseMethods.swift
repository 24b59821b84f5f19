import Foundation

/// The methods (`receiver.name(…)`) and fields (`receiver.name`) of Bases values, by the receiver's type, as
/// Obsidian's Functions page lists them; texts, lists and files have their own files (`BaseMethods+Text`,
/// `+List`, `+File`). Dates are not here: the evaluator sends date receivers to `BaseDates` first.
///
/// Every value has `isTruthy()`, `isType(name)`, `toString()` and `isEmpty()`. Any other method called on
/// `null` gives `null` rather than an error, so `price.toFixed(2)` on a note without a price is an empty cell
/// instead of a failed row, as in Obsidian. `filter`, `map` and `reduce` are evaluated by the evaluator.
public enum BaseMethods {
    /// The result of `receiver.name(arguments…)`, or nil when the receiver's type has no method `name`.
    /// Throws when the method exists but the arguments do not fit it.
    public static func call(
        _ name: String, on receiver: BaseValue, arguments: [BaseValue], environment: BaseEnvironment
    ) throws(BaseEvaluationError) -> BaseValue? {
        let arguments = BaseArguments(name, arguments)
        if let result = try anyTypeMethod(name, on: receiver, arguments) { return result }
        switch receiver {
        case .null: return methodNamesOfEveryType.contains(name) ? .null : nil
        case .string(let text): return try textMethod(name, on: text, arguments)
        case .number(let number): return try numberMethod(name, on: number, arguments)
        case .list(let items): return try listMethod(name, on: items, arguments, environment: environment)
        case .link(let link): return try linkMethod(name, on: link, arguments, environment: environment)
        case .file(let file): return try fileMethod(name, on: file, arguments, environment: environment)
        case .object(let object):
            switch name {
            case "keys":
                try arguments.expectCount(0)
                return .list(object.keys.map(BaseValue.string))
            case "values":
                try arguments.expectCount(0)
                return .list(object.values)
            default: return nil
            }
        case .regex(let regex):
            guard name == "matches" else { return nil }
            try arguments.expectCount(1)
            let text = try arguments.text(at: 0)
            return .boolean(regex.compiled.firstMatch(in: text, range: NSRange(location: 0, length: text.utf16.count)) != nil)
        default: return nil
        }
    }

    /// The value of `receiver.name`: `length` of text (UTF-16 code units, as JavaScript counts) and lists,
    /// the `file.*` fields of a file, an object's entry (null when missing); nil for anything else.
    public static func field(_ name: String, of receiver: BaseValue, environment: BaseEnvironment) -> BaseValue? {
        switch receiver {
        case .string(let text): return name == "length" ? .number(Double(text.utf16.count)) : nil
        case .list(let items): return name == "length" ? .number(Double(items.count)) : nil
        case .object(let object): return object[name] ?? .null
        case .file(let file): return fileField(name, of: file, environment: environment)
        default: return nil
        }
    }

    /// Method names of every type (dates' included), for the rule that methods on `null` give `null`.
    static let methodNamesOfEveryType: Set<String> = [
        "contains", "containsAll", "containsAny", "endsWith", "lower", "replace", "repeat", "reverse", "slice",
        "split", "startsWith", "title", "trim", "abs", "ceil", "floor", "round", "toFixed", "flat", "join", "sort",
        "unique", "mean", "sum", "median", "stddev", "min", "max", "asFile", "linksTo", "asLink", "hasLink",
        "hasProperty", "hasTag", "inFolder", "keys", "values", "matches", "format", "time", "relative", "date",
        "filter", "map", "reduce",
    ]

    private static func anyTypeMethod(_ name: String, on receiver: BaseValue, _ arguments: BaseArguments) throws(BaseEvaluationError) -> BaseValue? {
        switch name {
        case "isTruthy":
            try arguments.expectCount(0)
            return .boolean(receiver.isTruthy)
        case "isType":
            try arguments.expectCount(1)
            let typeName = try arguments.text(at: 0)
            return .boolean(receiver.typeName == typeName)
        case "toString":
            try arguments.expectCount(0)
            return .string(BaseText.string(receiver))
        case "isEmpty":
            try arguments.expectCount(0)
            return .boolean(receiver.isEmpty)
        default:
            return nil
        }
    }

    private static func numberMethod(_ name: String, on number: Double, _ arguments: BaseArguments) throws(BaseEvaluationError) -> BaseValue? {
        switch name {
        case "abs", "ceil", "floor":
            try arguments.expectCount(0)
            switch name {
            case "abs": return .number(Swift.abs(number))
            case "ceil": return .number(number.rounded(.up))
            default: return .number(number.rounded(.down))
            }
        case "round":
            try arguments.expectCount(0, 1)
            guard let digits = try arguments.optionalNumber(at: 0) else { return .number(roundLikeJavaScript(number)) }
            let factor = pow(10, digits.rounded(.towardZero))
            return .number(roundLikeJavaScript(number * factor) / factor)
        case "toFixed":
            try arguments.expectCount(0, 1)
            let digits = try arguments.count == 0 ? 0 : arguments.integer(at: 0)
            guard (0...100).contains(digits) else {
                throw BaseEvaluationError("`toFixed` expects a number of decimal places from 0 to 100, got \(BaseText.number(digits))")
            }
            return .string(fixed(number, decimalPlaces: Int(digits)))
        default:
            return nil
        }
    }

    private static func linkMethod(_ name: String, on link: BaseLink, _ arguments: BaseArguments, environment: BaseEnvironment) throws(BaseEvaluationError) -> BaseValue? {
        switch name {
        case "asFile":
            try arguments.expectCount(0)
            return BaseFunctions.file(of: link, environment: environment).map(BaseValue.file) ?? .null
        case "linksTo":
            try arguments.expectCount(1)
            guard let file = BaseFunctions.file(of: link, environment: environment) else { return .boolean(false) }
            return .boolean(try fileLinks(file, to: arguments, environment: environment))
        default:
            return nil
        }
    }

    /// JavaScript's `Math.round`: halves round up, toward +∞ (`-2.5` → `-2`).
    static func roundLikeJavaScript(_ number: Double) -> Double {
        guard number.isFinite else { return number }
        let floor = number.rounded(.down)
        return number - floor >= 0.5 ? floor + 1 : floor
    }

    /// JavaScript's `Number.prototype.toFixed`: the exact value of the double rounded half up at the given
    /// place (`(1.005).toFixed(2)` is `"1.00"`: the double is 1.00499999999999989…; `(2.5).toFixed(0)` is `"3"`),
    /// exponent form from 1e21 on, and a `-` kept for negative values that round to zero (`"-0.00"`).
    static func fixed(_ number: Double, decimalPlaces: Int) -> String {
        guard number.isFinite, Swift.abs(number) < 1e21 else { return BaseText.number(number) }
        // 1074 places hold every double's binary fraction exactly, so no rounding happens in formatting.
        let exact = String(format: "%.1080f", Swift.abs(number))
        let parts = exact.split(separator: ".", maxSplits: 1)
        var digits = Array(parts[0].utf8) + Array(parts[1].utf8.prefix(decimalPlaces))
        let next = parts[1].utf8.dropFirst(decimalPlaces).first ?? UInt8(ascii: "0")
        if next >= UInt8(ascii: "5") {
            var index = digits.count - 1
            while index >= 0 {
                if digits[index] == UInt8(ascii: "9") {
                    digits[index] = UInt8(ascii: "0")
                    index -= 1
                } else {
                    digits[index] += 1
                    break
                }
            }
            if index < 0 { digits.insert(UInt8(ascii: "1"), at: 0) }
        }
        var text = String(decoding: digits, as: UTF8.self)
        if decimalPlaces > 0 { text.insert(".", at: text.index(text.endIndex, offsetBy: -decimalPlaces)) }
        return (number < 0 ? "-" : "") + text
    }
}
