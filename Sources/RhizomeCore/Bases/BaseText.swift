import Foundation

/// The text of Bases values, as `toString()`, `+` with text, `join()` and error messages write them, and
/// the reverse: reading text as a number the way JavaScript's `Number("…")` does.
///
/// Numbers print exactly as JavaScript's `Number.prototype.toString` (`0.30000000000000004`, `1e+21`,
/// `1e-7`, `-0` as `0`). Where JavaScript's text is useless or surprising, this follows what a table shows:
/// - `null` is the empty text, not JavaScript's `"null"`, so `"Price: " + price` on a note without a price
///   reads `Price: ` (a missing property shows as an empty cell in Obsidian);
/// - lists are their elements' texts joined with `,` (JavaScript's `String([1, [2, 3], null])` is `1,2,3,`);
/// - objects are compact JSON (`{"a":1,"b":"x"}`) instead of `[object Object]`;
/// - links are their shown text (display text, else target), files their vault path, regular expressions
///   `/pattern/flags`, `html()`/`icon()`/`image()` values their text.
public enum BaseText {
    /// The text of a value (see the type's comment for the choices where JavaScript is unhelpful).
    public static func string(_ value: BaseValue) -> String {
        switch value {
        case .null: return ""
        case .boolean(let flag): return flag ? "true" : "false"
        case .number(let number): return BaseText.number(number)
        case .string(let text): return text
        case .date(let date): return BaseDates.text(of: date)
        case .duration(let duration): return BaseDates.text(of: duration)
        case .list(let items): return items.map(string).joined(separator: ",")
        case .object: return json(value)
        case .link(let link): return link.shownText
        case .file(let file): return file.path
        case .regex(let regex): return "/\(regex.pattern)/\(regex.flags)"
        case .html(let text), .icon(let text), .image(let text): return text
        }
    }

    /// A number as JavaScript's `Number.prototype.toString()` writes it: the shortest digits that read back
    /// as the same double, plain for exponents −7 < e < 21 and in exponent form (`1e+21`, `1.5e-7`) outside.
    public static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        if value == 0 { return "0" }
        let (digits, exponent) = shortestDigits(abs(value))
        let sign = value < 0 ? "-" : ""
        let count = digits.count
        // `exponent` is JavaScript's n: the value is 0.d1d2…dk × 10^n.
        if count <= exponent && exponent <= 21 {
            return sign + digits + String(repeating: "0", count: exponent - count)
        }
        if 0 < exponent && exponent <= 21 {
            let split = digits.index(digits.startIndex, offsetBy: exponent)
            return sign + digits[..<split] + "." + digits[split...]
        }
        if -6 < exponent && exponent <= 0 {
            return sign + "0." + String(repeating: "0", count: -exponent) + digits
        }
        let power = exponent - 1
        let powerText = (power < 0 ? "-" : "+") + String(abs(power))
        if count == 1 { return sign + digits + "e" + powerText }
        return sign + digits.prefix(1) + "." + digits.dropFirst() + "e" + powerText
    }

    /// Text read as a number as JavaScript's `Number(text)` reads it: surrounding white space ignored, empty
    /// text is 0, decimal with optional sign and exponent, `Infinity`, and `0x`/`0o`/`0b` integers. Nil where
    /// JavaScript gives `NaN` (including for the text `"NaN"`, which is not a number literal).
    public static func number(fromText text: String) -> Double? {
        let trimmed = trimmedLikeJavaScript(text)
        if trimmed.isEmpty { return 0 }
        switch trimmed {
        case "Infinity", "+Infinity": return .infinity
        case "-Infinity": return -.infinity
        default: break
        }
        let lower = trimmed.lowercased()
        for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] where lower.hasPrefix(prefix) {
            let body = lower.dropFirst(2)
            guard !body.isEmpty else { return nil }
            var result = 0.0
            for character in body {
                guard let digit = character.hexDigitValue, digit < radix else { return nil }
                result = result * Double(radix) + Double(digit)
            }
            return result
        }
        guard isDecimalLiteral(trimmed) else { return nil }
        return Double(trimmed)
    }

    /// JavaScript's `String.prototype.trim`: white space and line terminators, including the byte-order mark.
    static func trimmedLikeJavaScript(_ text: String) -> String {
        var set = CharacterSet.whitespacesAndNewlines
        set.insert(charactersIn: "\u{FEFF}")
        return text.trimmingCharacters(in: set)
    }

    /// A value as errors name it: `text "a"`, `number 3`, `a list`, `null`.
    static func described(_ value: BaseValue) -> String {
        switch value {
        case .null: return "null"
        case .boolean(let flag): return "boolean \(flag)"
        case .number(let number): return "number \(BaseText.number(number))"
        case .string(let text):
            let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
            return "text \"\(shown)\""
        case .list: return "a list"
        case .object: return "an object"
        case .link(let link): return "link \(link.shownText)"
        case .file(let file): return "file \(file.path)"
        case .regex: return "a regular expression"
        default: return "a \(value.typeName)"
        }
    }

    /// Compact JSON text of a value (objects and lists inside objects); dates, links and files as their text.
    static func json(_ value: BaseValue) -> String {
        switch value {
        case .null: return "null"
        case .boolean, .number: return string(value)
        case .list(let items): return "[" + items.map(json).joined(separator: ",") + "]"
        case .object(let object):
            return "{" + object.entries.map { quoted($0.key) + ":" + json($0.value) }.joined(separator: ",") + "}"
        default: return quoted(string(value))
        }
    }

    private static func quoted(_ text: String) -> String {
        JSONString.quoted(text)
    }

    /// The shortest round-trip decimal digits of a positive finite double (no leading or trailing zeros) and
    /// the exponent n with value = 0.digits × 10^n. Swift's `description` already finds the shortest digits;
    /// only its layout differs from JavaScript's.
    private static func shortestDigits(_ value: Double) -> (digits: String, exponent: Int) {
        let text = value.description
        var mantissa = Substring(text)
        var power = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = text[..<e]
            power = Int(text[text.index(after: e)...]) ?? 0
        }
        let integerPart: Substring
        let fractionPart: Substring
        if let dot = mantissa.firstIndex(of: ".") {
            integerPart = mantissa[..<dot]
            fractionPart = mantissa[mantissa.index(after: dot)...]
        } else {
            integerPart = mantissa
            fractionPart = ""
        }
        var digits = String(integerPart) + String(fractionPart)
        var exponent = integerPart.count + power
        while digits.hasPrefix("0") {
            digits.removeFirst()
            exponent -= 1
        }
        while digits.hasSuffix("0") { digits.removeLast() }
        return (digits, exponent)
    }

    /// `[+-]digits[.digits][e[+-]digits]` or `[+-].digits…`, as JavaScript's StrDecimalLiteral (no `_`).
    private static func isDecimalLiteral(_ text: String) -> Bool {
        var bytes = Substring(text).utf8[...]
        if let first = bytes.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        let isDigit: (UInt8) -> Bool = { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        let integerDigits = bytes.prefix(while: isDigit).count
        bytes = bytes.dropFirst(integerDigits)
        var fractionDigits = 0
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            fractionDigits = bytes.prefix(while: isDigit).count
            bytes = bytes.dropFirst(fractionDigits)
        }
        guard integerDigits + fractionDigits > 0 else { return false }
        if let first = bytes.first, first == UInt8(ascii: "e") || first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            let exponentDigits = bytes.prefix(while: isDigit).count
            guard exponentDigits > 0 else { return false }
            bytes = bytes.dropFirst(exponentDigits)
        }
        return bytes.isEmpty
    }
}
