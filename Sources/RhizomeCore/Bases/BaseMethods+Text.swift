import Foundation

/// The methods of text values, with JavaScript's semantics: `slice` indexes, `contains`, `startsWith` and
/// `replace` search UTF-16 code units as JavaScript strings do (so `length` and `slice` agree with each other
/// and with JavaScript, an emoji counting 2). Two exceptions are friendlier than JavaScript: `reverse()` and
/// `split("")` work on characters (grapheme clusters), so they never cut an emoji or an accent in half.
///
/// Regular expressions run on NSRegularExpression (ICU), whose syntax is a superset of JavaScript's for the
/// common cases; `\w` and `\d` there also match non-ASCII letters and digits.
extension BaseMethods {
    /// The most UTF-16 code units `repeat` builds, so a formula cannot exhaust memory.
    static let maximumRepeatedLength = 1_000_000

    static func textMethod(_ name: String, on text: String, _ arguments: BaseArguments) throws(BaseEvaluationError) -> BaseValue? {
        let units = Array(text.utf16)
        switch name {
        case "contains", "startsWith", "endsWith":
            try arguments.expectCount(1)
            let query = Array(try arguments.text(at: 0).utf16)
            switch name {
            case "contains": return .boolean(firstIndex(of: query, in: units, from: 0) != nil)
            case "startsWith": return .boolean(units.starts(with: query))
            default: return .boolean(units.reversed().starts(with: query.reversed()))
            }
        case "containsAll", "containsAny":
            try arguments.expectCount(1, .max)
            let found = try arguments.texts().map { firstIndex(of: Array($0.utf16), in: units, from: 0) != nil }
            return .boolean(name == "containsAll" ? !found.contains(false) : found.contains(true))
        case "lower":
            try arguments.expectCount(0)
            return .string(text.lowercased())
        case "title":
            try arguments.expectCount(0)
            return .string(titleCased(text))
        case "trim":
            try arguments.expectCount(0)
            return .string(BaseText.trimmedLikeJavaScript(text))
        case "reverse":
            try arguments.expectCount(0)
            return .string(String(text.reversed()))
        case "repeat":
            try arguments.expectCount(1)
            let count = try arguments.integer(at: 0)
            guard count >= 0, count.isFinite else {
                throw BaseEvaluationError("`repeat` expects a count of 0 or more, got \(BaseText.number(count))")
            }
            guard count * Double(units.count) <= Double(maximumRepeatedLength) else {
                throw BaseEvaluationError("`repeat` would make text longer than \(maximumRepeatedLength) characters")
            }
            return .string(String(repeating: text, count: Int(count)))
        case "slice":
            try arguments.expectCount(1, 2)
            let range = try sliceRange(arguments, count: units.count)
            return .string(String(decoding: units[range], as: UTF16.self))
        case "replace":
            try arguments.expectCount(2)
            let replacement = Array(try arguments.text(at: 1).utf16)
            if case .regex(let regex) = arguments.values[0] {
                return .string(replacing(regex, in: text, with: replacement))
            }
            return .string(replacingAll(Array(try arguments.text(at: 0).utf16), in: units, with: replacement))
        case "split":
            try arguments.expectCount(1, 2)
            var limit = Int.max
            if let number = try arguments.optionalNumber(at: 1), number >= 0 {
                limit = number.isFinite ? Int(number.rounded(.towardZero)) : .max
            }
            let parts: [String]
            if case .regex(let regex) = arguments.values[0] {
                parts = split(text, by: regex)
            } else {
                let separator = try arguments.text(at: 0)
                parts = separator.isEmpty ? text.map { String($0) } : split(units, by: Array(separator.utf16))
            }
            return .list(parts.prefix(limit).map(BaseValue.string))
        default:
            return nil
        }
    }

    /// JavaScript's `slice(start, end)` bounds: negative positions count from the end, then clamp.
    static func sliceRange(_ arguments: BaseArguments, count: Int) throws(BaseEvaluationError) -> Range<Int> {
        func position(_ relative: Double) -> Int {
            let clamped = relative < 0 ? Swift.max(Double(count) + relative, 0) : Swift.min(relative, Double(count))
            return Int(clamped)
        }
        let start = position(try arguments.integer(at: 0))
        let end = arguments.count > 1 && !arguments.values[1].isNull ? position(try arguments.integer(at: 1)) : count
        return start < end ? start..<end : start..<start
    }

    private static func titleCased(_ text: String) -> String {
        var result = ""
        var atWordStart = true
        for character in text {
            result += atWordStart ? character.uppercased() : String(character)
            atWordStart = character.isWhitespace
        }
        return result
    }

    private static func firstIndex(of needle: [UInt16], in haystack: [UInt16], from start: Int) -> Int? {
        guard start + needle.count <= haystack.count else { return nil }
        if needle.isEmpty { return start }
        var index = start
        while index + needle.count <= haystack.count {
            if haystack[index] == needle[0], haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    /// `replace` with text: every occurrence (the help's rule), `$&` and `$$` in the replacement as in JavaScript.
    private static func replacingAll(_ pattern: [UInt16], in units: [UInt16], with replacement: [UInt16]) -> String {
        var result: [UInt16] = []
        var position = 0
        var searchFrom = 0
        while let found = firstIndex(of: pattern, in: units, from: searchFrom) {
            result += units[position..<found]
            let match = found..<(found + pattern.count)
            result += substitution(replacement, source: units, match: match, groups: [], groupNamed: nil)
            position = match.upperBound
            searchFrom = pattern.isEmpty ? found + 1 : match.upperBound
            if searchFrom > units.count { break }
        }
        result += units[Swift.min(position, units.count)...]
        return String(decoding: result, as: UTF16.self)
    }

    /// `replace` with a regular expression: the first match, or every match with the `g` flag; `$1`, `$<name>`,
    /// `$&`, `` $` ``, `$'` and `$$` in the replacement as in JavaScript.
    private static func replacing(_ regex: BaseRegex, in text: String, with replacement: [UInt16]) -> String {
        let units = Array(text.utf16)
        let whole = NSRange(location: 0, length: units.count)
        let matches = regex.isGlobal
            ? regex.compiled.matches(in: text, range: whole)
            : regex.compiled.firstMatch(in: text, range: whole).map { [$0] } ?? []
        let names = groupNames(of: regex.pattern)
        var result: [UInt16] = []
        var position = 0
        for match in matches {
            guard let range = Range(match.range) else { continue }
            result += units[position..<range.lowerBound]
            let groups = (0..<match.numberOfRanges).dropFirst().map { Range(match.range(at: $0)) }
            let groupNamed: ((String) -> Range<Int>?)? = names.isEmpty ? nil : { name in
                names.contains(name) ? Range(match.range(withName: name)) : nil
            }
            result += substitution(replacement, source: units, match: range, groups: groups, groupNamed: groupNamed)
            position = range.upperBound
        }
        result += units[position...]
        return String(decoding: result, as: UTF16.self)
    }

    /// JavaScript's GetSubstitution: the replacement text for one match. `groupNamed` is nil when the
    /// expression has no named groups (then `$<` is literal).
    private static func substitution(
        _ template: [UInt16], source: [UInt16], match: Range<Int>, groups: [Range<Int>?],
        groupNamed: ((String) -> Range<Int>?)?
    ) -> [UInt16] {
        let dollar = UInt16(UInt8(ascii: "$"))
        func digit(_ unit: UInt16) -> Int? {
            unit >= 0x30 && unit <= 0x39 ? Int(unit - 0x30) : nil
        }
        func group(_ number: Int) -> ArraySlice<UInt16> {
            guard let range = groups[number - 1] else { return [] }
            return source[range]
        }
        var result: [UInt16] = []
        var index = 0
        while index < template.count {
            let unit = template[index]
            guard unit == dollar, index + 1 < template.count else {
                result.append(unit)
                index += 1
                continue
            }
            let next = template[index + 1]
            switch next {
            case dollar:
                result.append(dollar)
                index += 2
            case UInt16(UInt8(ascii: "&")):
                result += source[match]
                index += 2
            case UInt16(UInt8(ascii: "`")):
                result += source[..<match.lowerBound]
                index += 2
            case UInt16(UInt8(ascii: "'")):
                result += source[match.upperBound...]
                index += 2
            case UInt16(UInt8(ascii: "<")):
                let close = template[(index + 2)...].firstIndex(of: UInt16(UInt8(ascii: ">")))
                guard let groupNamed, let close else {
                    result.append(dollar)
                    index += 1
                    continue
                }
                let name = String(decoding: template[(index + 2)..<close], as: UTF16.self)
                if let range = groupNamed(name) { result += source[range] }
                index = close + 1
            default:
                guard let first = digit(next) else {
                    result.append(dollar)
                    index += 1
                    continue
                }
                if index + 2 < template.count, let second = digit(template[index + 2]),
                   first * 10 + second >= 1, first * 10 + second <= groups.count {
                    result += group(first * 10 + second)
                    index += 3
                } else if first >= 1, first <= groups.count {
                    result += group(first)
                    index += 2
                } else {
                    result.append(dollar)
                    index += 1
                }
            }
        }
        return result
    }

    /// The names of `(?<name>…)` groups in a pattern.
    private static func groupNames(of pattern: String) -> Set<String> {
        var names = Set<String>()
        var rest = Substring(pattern)
        while let open = rest.range(of: "(?<") {
            rest = rest[open.upperBound...]
            guard let first = rest.first, first.isLetter || first == "_" else { continue }
            if let close = rest.firstIndex(of: ">") { names.insert(String(rest[..<close])) }
        }
        return names
    }

    private static func split(_ units: [UInt16], by separator: [UInt16]) -> [String] {
        var parts: [String] = []
        var position = 0
        while let found = firstIndex(of: separator, in: units, from: position) {
            parts.append(String(decoding: units[position..<found], as: UTF16.self))
            position = found + separator.count
        }
        parts.append(String(decoding: units[position...], as: UTF16.self))
        return parts
    }

    /// JavaScript's `split` with a regular expression: empty matches at the current position do not split,
    /// and captured groups are spliced into the result (`"a1b".split(/(\d)/)` is `["a", "1", "b"]`).
    private static func split(_ text: String, by regex: BaseRegex) -> [String] {
        let units = Array(text.utf16)
        let options: NSRegularExpression.MatchingOptions = [.withTransparentBounds, .withoutAnchoringBounds]
        func piece(_ range: Range<Int>) -> String { String(decoding: units[range], as: UTF16.self) }
        if units.isEmpty {
            return regex.compiled.firstMatch(in: text, range: NSRange(location: 0, length: 0)) == nil ? [""] : []
        }
        var parts: [String] = []
        var position = 0
        var searchFrom = 0
        while searchFrom < units.count {
            let remaining = NSRange(location: searchFrom, length: units.count - searchFrom)
            guard let match = regex.compiled.firstMatch(in: text, options: options, range: remaining),
                  let range = Range(match.range), range.lowerBound < units.count else { break }
            if range.upperBound == position || range.isEmpty && range.lowerBound == position {
                searchFrom = range.lowerBound + 1
                continue
            }
            parts.append(piece(position..<range.lowerBound))
            for group in 1..<Swift.max(match.numberOfRanges, 1) {
                parts.append(Range(match.range(at: group)).map(piece) ?? "")
            }
            position = range.upperBound
            searchFrom = Swift.max(position, range.lowerBound + 1)
        }
        parts.append(piece(position..<units.count))
        return parts
    }
}
