import Foundation

/// Dataview's functions on text: case, prefixes and suffixes, replacing, regular expressions, splitting and
/// joining, cutting and padding. Text is counted in UTF-16 units, as JavaScript counts it.
extension DataviewFunctions {
    static let text: [String: Implementation] = [
        "lower": unary { value, context throws(DataviewError) in
            guard case .string(let text) = value else { return try nullOr([value], context) }
            return .string(text.lowercased())
        },
        "upper": unary { value, context throws(DataviewError) in
            guard case .string(let text) = value else { return try nullOr([value], context) }
            return .string(text.uppercased())
        },
        "startswith": binary { text, prefix, context throws(DataviewError) in
            guard case .string(let whole) = text, case .string(let start) = prefix else { return try nullIfAnyNull([text, prefix], context) }
            return .boolean(whole.utf8.starts(with: start.utf8))  // code units, as JavaScript's startsWith
        },
        "endswith": binary { text, suffix, context throws(DataviewError) in
            guard case .string(let whole) = text, case .string(let end) = suffix else { return try nullIfAnyNull([text, suffix], context) }
            return .boolean(whole.utf8.count >= end.utf8.count && whole.utf8.suffix(end.utf8.count).elementsEqual(end.utf8))
        },
        "replace": { arguments, context throws(DataviewError) in
            guard arguments.count == 3, case .string(let text) = arguments[0], case .string(let pattern) = arguments[1],
                  case .string(let replacement) = arguments[2] else { return try nullIfAnyNull(arguments, count: 3, context) }
            // As JavaScript's split(find).join(replacement): an empty `find` puts the replacement between characters.
            if pattern.isEmpty { return .string(text.map(String.init).joined(separator: replacement)) }
            return .string(text.replacingOccurrences(of: pattern, with: replacement, options: .literal))
        },
        "regexmatch": binary { pattern, text, context throws(DataviewError) in
            guard case .string(let pattern) = pattern, case .string(let text) = text else {
                if pattern.isNull || text.isNull { return .boolean(false) }
                throw context.failure([pattern, text])
            }
            // As Dataview: anchored at both ends unless the pattern already starts with `^` or ends with `$`.
            let anchored = pattern.hasPrefix("^") || pattern.hasSuffix("$") ? pattern : "^" + pattern + "$"
            return .boolean(try context.evaluator.regexes.regex(anchored).firstMatch(
                in: text, range: NSRange(text.startIndex..., in: text)) != nil)
        },
        "regextest": binary { pattern, text, context throws(DataviewError) in
            guard case .string(let pattern) = pattern, case .string(let text) = text else {
                if pattern.isNull || text.isNull { return .boolean(false) }
                throw context.failure([pattern, text])
            }
            return .boolean(try context.evaluator.regexes.regex(pattern).firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil)
        },
        "regexreplace": { arguments, context throws(DataviewError) in
            guard arguments.count == 3, case .string(let text) = arguments[0], case .string(let pattern) = arguments[1],
                  case .string(let replacement) = arguments[2] else { return try nullIfAnyNull(arguments, count: 3, context) }
            let regex = try context.evaluator.regexes.regex(pattern)
            return .string(regex.stringByReplacingMatches(
                in: text, range: NSRange(text.startIndex..., in: text), withTemplate: replacement))
        },
        "split": { arguments, context throws(DataviewError) in
            guard (2...3).contains(arguments.count), case .string(let text) = arguments[0], case .string(let pattern) = arguments[1] else {
                return try nullIfAnyNull(arguments, count: 2...3, context)
            }
            var limit = Int.max
            if arguments.count == 3 {
                guard case .number(let number) = arguments[2] else { return try nullIfAnyNull(arguments, count: 3, context) }
                limit = Int(uint32(number))
            }
            let regex = try context.evaluator.regexes.regex(pattern)
            var parts: [DataviewValue] = []
            var start = text.startIndex
            for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let range = Range(match.range, in: text), !range.isEmpty else { continue }
                parts.append(.string(String(text[start..<range.lowerBound])))
                // As JavaScript's split: captured groups are spliced in (an unmatched group as "").
                for group in stride(from: 1, to: match.numberOfRanges, by: 1) {
                    parts.append(.string(Range(match.range(at: group), in: text).map { String(text[$0]) } ?? ""))
                }
                start = range.upperBound
            }
            parts.append(.string(String(text[start...])))
            return .list(Array(parts.prefix(limit)))
        },
        "join": { arguments, context throws(DataviewError) in
            // A list's elements as text joined by the separator (`, ` without one, or when it is null); any
            // other value is its text, whatever the separator.
            guard (1...2).contains(arguments.count) else { throw context.failure(arguments) }
            var separator = ", "
            switch arguments.count == 2 ? arguments[1] : .null {
            case .string(let given): separator = given
            case .null where arguments.count == 1: break
            case .null: guard case .list = arguments[0] else { throw context.failure(arguments) }
            default: throw context.failure(arguments)
            }
            guard case .list(let items) = arguments[0] else { return .string(DataviewText.plain(arguments[0])) }
            return .string(items.map(DataviewText.plain).joined(separator: separator))
        },
        "substring": { arguments, context throws(DataviewError) in
            // JavaScript's `substring`: bounds clamped to the text, swapped when the start is past the end.
            guard (2...3).contains(arguments.count) else { throw context.failure(arguments) }
            if arguments.contains(where: \.isNull) { return .null }
            guard case .string(let text) = arguments[0], case .number(let start) = arguments[1] else { throw context.failure(arguments) }
            let units = Array(text.utf16)
            var end = Double(units.count)
            if arguments.count == 3 {
                guard case .number(let given) = arguments[2] else { throw context.failure(arguments) }
                end = given
            }
            func clamped(_ value: Double) -> Int { value.isNaN ? 0 : Int(min(max(value.rounded(.towardZero), 0), Double(units.count))) }
            let (from, to) = (min(clamped(start), clamped(end)), max(clamped(start), clamped(end)))
            return .string(utf16Text(units[from..<to]))
        },
        "truncate": { arguments, context throws(DataviewError) in
            // Cut to `length` units including the suffix (`...` unless given), when longer than `length`
            // minus the suffix.
            guard (2...3).contains(arguments.count), case .string(let text) = arguments[0], case .number(let length) = arguments[1] else {
                return try nullIfAnyNull(arguments, count: 2...3, context)
            }
            var suffix = "..."
            if arguments.count == 3 {
                guard case .string(let given) = arguments[2] else { return try nullIfAnyNull(arguments, count: 3, context) }
                suffix = given
            }
            let units = Array(text.utf16)
            let keep = length - Double(suffix.utf16.count)
            guard Double(units.count) > keep else { return .string(text) }
            return .string(utf16Text(units.prefix(Int(max(0, min(keep, Double(units.count)))))) + suffix)
        },
        "padleft": { arguments, context throws(DataviewError) in
            try pad(arguments, context) { text, padding in padding + text }
        },
        "padright": { arguments, context throws(DataviewError) in
            try pad(arguments, context) { text, padding in text + padding }
        },
    ]

    /// The longest a text may be padded or repeated to: JavaScript gives up near 2^29 units; this is far
    /// below that and far above any table cell.
    static let maximumPaddedLength = 1_000_000

    /// `padleft`/`padright(text, length[, padding])`: JavaScript's `padStart`/`padEnd`, the padding (a space
    /// unless given; nothing when empty) repeated and cut to fill up to `length` units.
    private static func pad(
        _ arguments: [DataviewValue], _ context: CallContext, _ join: (String, String) -> String
    ) throws(DataviewError) -> DataviewValue {
        guard (2...3).contains(arguments.count), case .string(let text) = arguments[0], case .number(let length) = arguments[1] else {
            return try nullIfAnyNull(arguments, count: 2...3, context)
        }
        var padding = " "
        if arguments.count == 3 {
            guard case .string(let given) = arguments[2] else { return try nullIfAnyNull(arguments, count: 3, context) }
            padding = given
        }
        let current = text.utf16.count
        guard !length.isNaN, length > Double(current), !padding.isEmpty else { return .string(text) }
        guard length <= Double(maximumPaddedLength) else {
            throw .evaluation(message: "\(context.name)(): cannot pad text to \(DataviewNumber.text(length)) characters (at most \(maximumPaddedLength))")
        }
        let missing = Int(length) - current
        let paddingUnits = Array(padding.utf16)
        var filler: [UInt16] = []
        filler.reserveCapacity(missing)
        while filler.count < missing { filler.append(contentsOf: paddingUnits.prefix(missing - filler.count)) }
        return .string(join(text, utf16Text(filler[...])))
    }

    /// UTF-16 units as text; half an emoji (a lone surrogate) cannot be text here: it becomes U+FFFD.
    static func utf16Text(_ units: ArraySlice<UInt16>) -> String {
        String(decoding: units, as: UTF16.self)
    }

    /// JavaScript's ToUint32 (`split`'s limit): NaN and infinities are 0, others wrap modulo 2^32.
    static func uint32(_ number: Double) -> UInt32 {
        guard number.isFinite else { return 0 }
        let whole = number.rounded(.towardZero).truncatingRemainder(dividingBy: 4_294_967_296)
        return UInt32(whole < 0 ? whole + 4_294_967_296 : whole)
    }

    /// Null when an argument is null (Dataview's variants `(null, *)`, `(*, null)` …) and the argument count
    /// is one the function takes; otherwise the function has no implementation for these arguments.
    static func nullIfAnyNull(
        _ arguments: [DataviewValue], count: ClosedRange<Int> = 2...2, _ context: CallContext
    ) throws(DataviewError) -> DataviewValue {
        if count.contains(arguments.count), arguments.contains(where: \.isNull) { return .null }
        throw context.failure(arguments)
    }

    static func nullIfAnyNull(_ arguments: [DataviewValue], count: Int, _ context: CallContext) throws(DataviewError) -> DataviewValue {
        try nullIfAnyNull(arguments, count: count...count, context)
    }
}
