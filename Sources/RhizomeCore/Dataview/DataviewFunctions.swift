import Foundation

/// Dataview's built-in functions (`src/expression/functions.ts`), by name.
///
/// Functions that Dataview vectorises apply element by element when some of their arguments are lists
/// (`lower(file.tags)`, `replace(["a", "b"], ["a", "b"], "d")`): see `vectorized`. A function not in `names`
/// is rejected when the query is parsed, naming it.
public enum DataviewFunctions {
    /// Every supported function name (lower case; function names are case-insensitive).
    public static var names: Set<String> { Set(table.keys) }

    typealias Implementation = @Sendable (_ arguments: [DataviewValue], _ context: CallContext) throws(DataviewError) -> DataviewValue

    struct CallContext {
        let name: String
        let evaluator: DataviewEvaluator
        let scope: DataviewEvaluator.Scope

        func call(_ function: DataviewValue, _ arguments: DataviewValue...) throws(DataviewError) -> DataviewValue {
            try evaluator.call(function, with: arguments, scope: scope)
        }

        func failure(_ arguments: [DataviewValue]) -> DataviewError {
            .evaluation(message: "no implementation of \(name)(\(arguments.map(\.typeName).joined(separator: ", ")))")
        }
    }

    static func call(
        _ name: String, arguments: [DataviewExpression], scope: DataviewEvaluator.Scope, evaluator: DataviewEvaluator
    ) throws(DataviewError) -> DataviewValue {
        guard let function = table[name] else { throw .evaluation(message: "unknown function `\(name)`") }
        var values: [DataviewValue] = []
        values.reserveCapacity(arguments.count)
        for argument in arguments { values.append(try evaluator.evaluate(argument, scope: scope)) }
        return try function.apply(values, CallContext(name: name, evaluator: evaluator, scope: scope))
    }

    /// A function's implementation (called with no list at a vectorised position) and the positions it
    /// maps over, by argument count.
    struct Function {
        /// Indexed by argument count (an array rather than a dictionary: this runs for every call on every row).
        let vectorizedPositions: [[Int]]
        let implementation: Implementation

        init(vectorizing positions: [Int: [Int]], _ implementation: @escaping Implementation) {
            var byCount = [[Int]](repeating: [], count: (positions.keys.max() ?? -1) + 1)
            for (count, list) in positions { byCount[count] = list }
            vectorizedPositions = byCount
            self.implementation = implementation
        }

        /// Dataview's `FunctionBuilder`: when arguments at the vectorised positions for this argument count
        /// are lists, the function is called for each index up to the shortest of those lists, with their
        /// elements there and the other arguments as they are; a list of the results. Elements that are
        /// lists themselves are mapped again.
        func apply(_ arguments: [DataviewValue], _ context: CallContext) throws(DataviewError) -> DataviewValue {
            guard arguments.count < vectorizedPositions.count,
                  case let positions = vectorizedPositions[arguments.count],
                  positions.contains(where: { if case .list = arguments[$0] { true } else { false } }) else {
                return try implementation(arguments, context)
            }
            var lists: [(position: Int, items: [DataviewValue])] = []
            for position in positions { if case .list(let items) = arguments[position] { lists.append((position, items)) } }
            let count = lists.map(\.items.count).min() ?? 0
            var results: [DataviewValue] = []
            results.reserveCapacity(count)
            var elementArguments = arguments
            for index in 0..<count {
                for list in lists { elementArguments[list.position] = list.items[index] }
                results.append(try apply(elementArguments, context))
            }
            return .list(results)
        }
    }

    /// The positions Dataview maps element-wise, by function and argument count (its `.vectorize(count,
    /// positions)` calls). Functions not here map nothing: the list functions (`sum`, `min`, `sort` …) take
    /// a list whole, and `extract` maps over a list of objects itself.
    static let vectorized: [String: [Int: [Int]]] = [
        // Constructors
        "link": [1: [0], 2: [0, 1]], "embed": [1: [0], 2: [0, 1]], "elink": [1: [0], 2: [0]],
        "date": [1: [0]], "dur": [1: [0]], "number": [1: [0]],
        // Numbers and lists
        "round": [1: [0], 2: [0]], "trunc": [1: [0]], "floor": [1: [0]], "ceil": [1: [0]], "reduce": [2: [1]],
        // Objects, lists and text (`extract` maps over a list of objects itself)
        "contains": [2: [1]], "icontains": [2: [1]], "econtains": [2: [1]], "containsword": [2: [0, 1]], "join": [2: [1]],
        "regextest": [2: [0, 1]], "regexmatch": [2: [0, 1]], "regexreplace": [3: [0, 1, 2]], "replace": [3: [0, 1, 2]],
        "lower": [1: [0]], "upper": [1: [0]], "startswith": [2: [0, 1]], "endswith": [2: [0, 1]],
        "padleft": [2: [0, 1], 3: [0, 1, 2]], "padright": [2: [0, 1], 3: [0, 1, 2]],
        "substring": [2: [0, 1], 3: [0, 1, 2]], "truncate": [2: [0, 1], 3: [0, 1, 2]],
        // Utilities
        "default": [2: [0, 1]], "choice": [3: [0]], "striptime": [1: [0]], "dateformat": [2: [0]],
        "durationformat": [2: [0]], "currencyformat": [2: [0]], "localtime": [1: [0]],
    ]

    private static let table: [String: Function] = {
        var table: [String: Function] = [:]
        for group in [containers, text, numbers, lists, values, formatting] {
            for (name, implementation) in group {
                table[name] = Function(vectorizing: vectorized[name] ?? [:], implementation)
            }
        }
        return table
    }()

    // MARK: Containment and length

    private static let containers: [String: Implementation] = [
        "contains": containment { haystack, needle in contains(haystack, needle, caseSensitive: true) },
        "icontains": containment { haystack, needle in contains(haystack, needle, caseSensitive: false) },
        "econtains": containment { haystack, needle in
            if case .list(let items) = haystack { return items.contains(needle) }
            return contains(haystack, needle, caseSensitive: true)
        },
        "containsword": binary { text, word, context throws(DataviewError) in
            guard case .string(let haystack) = text, case .string(let needle) = word else {
                if text.isNull || word.isNull { return .null }
                throw context.failure([text, word])
            }
            let regex = try context.evaluator.regexes.regex(
                "\\b" + NSRegularExpression.escapedPattern(for: needle) + "\\b", options: [.caseInsensitive])
            return .boolean(regex.firstMatch(in: haystack, range: NSRange(haystack.startIndex..., in: haystack)) != nil)
        },
        "length": { arguments, context throws(DataviewError) in
            switch try one(arguments, context) {
            case .null: return .number(0)
            case .list(let items): return .number(Double(items.count))
            case .object(let object): return .number(Double(object.count))
            case .string(let text): return .number(Double(text.utf16.count))
            default: throw context.failure(arguments)
            }
        },
    ]

    /// `contains`: a substring of a string, a key of an object, for lists any element that contains the
    /// value (recursively, so string elements match substrings: `contains(file.tags, "#a")` matches `#a/b`);
    /// other values by equality.
    static func contains(_ haystack: DataviewValue, _ needle: DataviewValue, caseSensitive: Bool) -> Bool {
        switch (haystack, needle) {
        case (.list(let items), _):
            return items.contains { contains($0, needle, caseSensitive: caseSensitive) }
        case (.string(let text), .string(let part)):
            return caseSensitive ? includes(text, part) : includes(text.lowercased(), part.lowercased())
        case (.object(let object), .string(let key)):
            return object[key] != nil
        default:
            return haystack == needle
        }
    }

    /// JavaScript's `includes`: `part` occurs in `text` code unit for code unit (no Unicode equivalence,
    /// unlike Foundation's `contains`). UTF-8 bytes match exactly where UTF-16 code units do.
    /// (A first-byte scan with memcmp: the standard library's generic `firstRange(of:)` made a query
    /// testing `contains(file.tags, …)` on 2,317 pages 25% slower.)
    static func includes(_ text: String, _ part: String) -> Bool {
        var text = text, part = part
        return text.withUTF8 { haystack in
            part.withUTF8 { needle in
                guard let first = needle.first else { return true }
                guard needle.count <= haystack.count else { return false }
                var start = 0
                let last = haystack.count - needle.count
                while start <= last {
                    guard let found = haystack[start...last].firstIndex(of: first) else { return false }
                    if needle.count == 1 || memcmp(haystack.baseAddress! + found + 1, needle.baseAddress! + 1, needle.count - 1) == 0 {
                        return true
                    }
                    start = found + 1
                }
                return false
            }
        }
    }

    /// The contains family: two arguments (a list of needles is mapped over before, see `vectorized`).
    private static func containment(_ test: @escaping @Sendable (DataviewValue, DataviewValue) -> Bool) -> Implementation {
        return { arguments, context throws(DataviewError) in
            let (haystack, needle) = try two(arguments, context)
            return .boolean(test(haystack, needle))
        }
    }

    // MARK: Numbers

    private static let numbers: [String: Implementation] = [
        "round": { arguments, context throws(DataviewError) in
            guard let value = arguments.first else { throw .evaluation(message: "round() needs at least 1 argument") }
            guard arguments.count <= 2 else { throw context.failure(arguments) }
            guard case .number(let number) = value else { return try nullOr(arguments, context) }
            var digits = 0.0
            switch arguments.count == 2 ? arguments[1] : .null {
            case .null: break
            case .number(let given): digits = given.isNaN ? 0 : max(0, given.rounded(.down))
            default: throw context.failure(arguments)
            }
            // JavaScript's Math.round (halves toward +∞) without digits; toFixed with them.
            if digits == 0 { return .number((number + 0.5).rounded(.down)) }
            let scale = pow(10, min(digits, 100))
            return .number((number * scale).rounded(.toNearestOrAwayFromZero) / scale)
        },
        "trunc": unary { value, context throws(DataviewError) in
            guard case .number(let number) = value else { return try nullOr([value], context) }
            return .number(number.rounded(.towardZero))
        },
        "floor": unary { value, context throws(DataviewError) in
            guard case .number(let number) = value else { return try nullOr([value], context) }
            return .number(number.rounded(.down))
        },
        "ceil": unary { value, context throws(DataviewError) in
            guard case .number(let number) = value else { return try nullOr([value], context) }
            return .number(number.rounded(.up))
        },
        "min": { arguments, _ in
            spread(arguments).filter { !$0.isNull }.min { DataviewValue.compare($0, $1) < 0 } ?? .null
        },
        "max": { arguments, _ in
            spread(arguments).filter { !$0.isNull }.max { DataviewValue.compare($0, $1) < 0 } ?? .null
        },
        "sum": { arguments, context throws(DataviewError) in
            guard arguments.count == 1, case .list(let items) = arguments[0] else { return try one(arguments, context) }
            return try fold(items, context, empty: .null, .plus)
        },
        "product": { arguments, context throws(DataviewError) in
            guard arguments.count == 1, case .list(let items) = arguments[0] else { return try one(arguments, context) }
            return try fold(items, context, empty: .null, .times)
        },
        "reduce": { arguments, context throws(DataviewError) in
            // Folds a list from its first element with an operator (`"+"`, `"-"`, `"*"`, `"/"`, `"&"`, `"|"`)
            // or a function of two values, which passes null elements over. Null for an empty list.
            let (list, operation) = try two(arguments, context)
            if list.isNull || operation.isNull { return .null }
            guard case .list(let items) = list else { throw context.failure(arguments) }
            switch operation {
            case .string(let symbol):
                guard !items.isEmpty else { return .null }
                guard let op = reduceOperators[symbol] else {
                    throw .evaluation(message: "reduce(list, operator) takes \"+\", \"-\", \"*\", \"/\", \"&\" or \"|\", not \"\(symbol)\"")
                }
                return try fold(items, context, empty: .null, op)
            case .function:
                guard var result = items.first else { return .null }
                for item in items.dropFirst() where !item.isNull { result = try context.call(operation, result, item) }
                return result
            default:
                throw context.failure(arguments)
            }
        },
        "average": { arguments, context throws(DataviewError) in
            let items = spread(arguments)
            guard !items.isEmpty else { return .null }
            return try DataviewOperators.apply(.divide, try fold(items, context, empty: .number(0), .plus), .number(Double(items.count)))
        },
    ]

    // MARK: Lists and lambdas

    private static let lists: [String: Implementation] = [
        "filter": { arguments, context throws(DataviewError) in
            guard arguments.count == 2 else { throw context.failure(arguments) }
            if arguments[0].isNull { return .null }
            var kept: [DataviewValue] = []
            for item in arguments[0].asList where try context.call(arguments[1], item).isTruthy { kept.append(item) }
            return .list(kept)
        },
        "map": { arguments, context throws(DataviewError) in
            guard arguments.count == 2 else { throw context.failure(arguments) }
            if arguments[0].isNull { return .null }
            var mapped: [DataviewValue] = []
            for item in arguments[0].asList { mapped.append(try context.call(arguments[1], item)) }
            return .list(mapped)
        },
        "any": { arguments, context throws(DataviewError) in
            try quantifier(arguments, context) { results in results.contains(true) }
        },
        "all": { arguments, context throws(DataviewError) in
            try quantifier(arguments, context) { results in !results.contains(false) }
        },
        "none": { arguments, context throws(DataviewError) in
            try quantifier(arguments, context) { results in !results.contains(true) }
        },
        "flat": { arguments, context throws(DataviewError) in
            guard let first = arguments.first else { throw context.failure(arguments) }
            var depth = 1
            if arguments.count > 1, case .number(let given) = arguments[1] { depth = max(0, Int(clamping: given, limit: 1_000_000)) }
            func flatten(_ items: [DataviewValue], _ depth: Int) -> [DataviewValue] {
                items.flatMap { item -> [DataviewValue] in
                    if depth > 0, case .list(let inner) = item { return flatten(inner, depth - 1) }
                    return [item]
                }
            }
            return first.isNull ? .null : .list(flatten(first.asList, depth))
        },
        "sort": { arguments, context throws(DataviewError) in
            guard let first = arguments.first else { throw context.failure(arguments) }
            if first.isNull { return .null }
            var keyed: [(key: DataviewValue, value: DataviewValue)] = []
            for item in first.asList {
                keyed.append((arguments.count > 1 ? try context.call(arguments[1], item) : item, item))
            }
            return .list(stableSorted(keyed) { DataviewValue.compare($0.key, $1.key) < 0 }.map(\.value))
        },
        "slice": { arguments, context throws(DataviewError) in
            // JavaScript's `slice`: negative positions count from the end; bounds are clamped.
            guard (1...3).contains(arguments.count) else { throw context.failure(arguments) }
            if arguments[0].isNull { return .null }
            guard case .list(let items) = arguments[0] else { throw context.failure(arguments) }
            func position(_ index: Int, default fallback: Int) throws(DataviewError) -> Int {
                guard index < arguments.count else { return fallback }
                guard case .number(let value) = arguments[index] else { throw context.failure(arguments) }
                let whole = value.isNaN ? 0 : value.rounded(.towardZero)
                let resolved = whole < 0 ? Double(items.count) + whole : whole
                return Int(min(max(resolved, 0), Double(items.count)))
            }
            let start = try position(1, default: 0), end = try position(2, default: items.count)
            return .list(start < end ? Array(items[start..<end]) : [])
        },
        // As Dataview: `minby` keeps the first of equal keys, `maxby` the last.
        "minby": { arguments, context throws(DataviewError) in try extreme(arguments, context, keeps: { $0 < 0 }) },
        "maxby": { arguments, context throws(DataviewError) in try extreme(arguments, context, keeps: { $0 >= 0 }) },
        "reverse": { arguments, context throws(DataviewError) in
            guard let first = arguments.first else { throw context.failure(arguments) }
            // As Dataview: lists and strings are reversed, other values are returned as they are.
            switch first {
            case .list(let items): return .list(items.reversed())
            case .string(let text): return .string(String(text.reversed()))
            default: return first
            }
        },
        "unique": { arguments, context throws(DataviewError) in
            guard let first = arguments.first else { throw context.failure(arguments) }
            // As Dataview: sorted, then de-duplicated.
            var unique: [DataviewValue] = []
            for item in stableSorted(first.asList, by: { DataviewValue.compare($0, $1) < 0 }) where unique.last != item {
                unique.append(item)
            }
            return .list(unique)
        },
        "nonnull": { arguments, _ in
            .list(spread(arguments).filter { !$0.isNull })
        },
        "firstvalue": { arguments, _ in
            spread(arguments).first { !$0.isNull } ?? .null
        },
        "list": { arguments, _ in .list(arguments) },
        "array": { arguments, _ in .list(arguments) },
        "object": { arguments, context throws(DataviewError) in
            guard arguments.count % 2 == 0 else { throw .evaluation(message: "object() takes key, value pairs; got \(arguments.count) arguments") }
            var object = DataviewObject()
            for pair in stride(from: 0, to: arguments.count, by: 2) {
                guard case .string(let key) = arguments[pair] else { throw context.failure(arguments) }
                object[key] = arguments[pair + 1]
            }
            return .object(object)
        },
    ]

    // MARK: Types, dates and links

    private static let values: [String: Implementation] = [
        "default": { arguments, context throws(DataviewError) in
            let (value, fallback) = try two(arguments, context)
            return value.isNull ? fallback : value
        },
        "display": { arguments, context throws(DataviewError) in
            .string(DataviewDisplay.text(try one(arguments, context)))
        },
        "ldefault": { arguments, context throws(DataviewError) in
            // `default` without the element-wise step: a list is a value like any other.
            guard arguments.count == 2 else { throw context.failure(arguments) }
            return arguments[0].isNull ? arguments[1] : arguments[0]
        },
        "extract": { arguments, context throws(DataviewError) in
            // A new object of the named keys in the order named, a missing one null (as Dataview's index
            // operator gives it); a list of objects, each.
            guard let first = arguments.first else { throw context.failure(arguments) }
            var keys: [String] = []
            for argument in arguments.dropFirst() {
                guard case .string(let key) = argument else {
                    throw .evaluation(message: "extract(object, key1, ...) must be called with string keys")
                }
                keys.append(key)
            }
            func extract(_ value: DataviewValue) -> DataviewValue {
                if case .list(let items) = value { return .list(items.map(extract)) }
                let object: DataviewObject? = if case .object(let object) = value { object } else { nil }
                return .object(DataviewObject(keys.map { ($0, object?[$0] ?? .null) }))
            }
            return extract(first)
        },
        "hash": { arguments, context throws(DataviewError) in
            // cyrb53 of the seed and text (joined), with the variant as its seed: a whole number below 2^53.
            guard (2...3).contains(arguments.count), case .string(let seed) = arguments[0] else { throw context.failure(arguments) }
            var text = seed, variant = 0.0
            switch (arguments.count, arguments[1], arguments.count == 3 ? arguments[2] : .null) {
            case (2, .number(let number), _): variant = number
            case (2, .string(let more), _): text += more
            case (3, .string(let more), .number(let number)): text += more; variant = number
            default: throw context.failure(arguments)
            }
            return .number(Double(DataviewHash.cyrb53(text, seed: variant)))
        },
        "choice": { arguments, context throws(DataviewError) in
            guard arguments.count == 3 else { throw context.failure(arguments) }
            return arguments[0].isTruthy ? arguments[1] : arguments[2]
        },
        "typeof": { arguments, context throws(DataviewError) in
            .string(try one(arguments, context).typeName)
        },
        "number": unary { value, context throws(DataviewError) in
            switch value {
            case .number: return value
            case .string(let text):
                guard let range = text.range(of: "-?[0-9]+(\\.[0-9]+)?", options: .regularExpression) else { return .null }
                return Double(text[range]).map(DataviewValue.number) ?? .null
            default: return .null
            }
        },
        "string": { arguments, context throws(DataviewError) in
            .string(DataviewText.plain(try one(arguments, context)))
        },
        "date": { arguments, context throws(DataviewError) in
            if arguments.count == 2 { return try dateFromFormat(arguments[0], arguments[1], context) }
            let value = try one(arguments, context)
            switch value {
            case .date: return value
            case .string(let text):
                if let relative = DataviewRelativeDate(word: text) {
                    return .date(relativeDate(relative, now: context.evaluator.now))
                }
                return DataviewDate.parse(text.trimmingSpaces, allowsSpaceBeforeTime: false).map(DataviewValue.date) ?? .null
            case .link(let link):
                if let display = link.display, let date = DataviewDate.parse(display, allowsSpaceBeforeTime: false) { return .date(date) }
                if let date = DataviewDate.parse(link.fileName, allowsSpaceBeforeTime: false) { return .date(date) }
                guard case .object(let file)? = context.evaluator.linkedPage(link)?["file"], case .date(let day)? = file["day"] else {
                    return .null
                }
                return .date(day)
            default:
                return .null
            }
        },
        "dur": { arguments, context throws(DataviewError) in
            let value = try one(arguments, context)
            switch value {
            case .duration: return value
            case .string(let text): return DataviewDuration.parse(text).map(DataviewValue.duration) ?? .null
            default: return .null
            }
        },
        "dateformat": { arguments, context throws(DataviewError) in
            switch try two(arguments, context) {
            case (.date(let date), .string(let format)): return .string(DataviewDateFormat.format(date, format))
            case (.null, .string): return .null
            default: throw context.failure(arguments)
            }
        },
        "striptime": unary { value, context throws(DataviewError) in
            guard case .date(let date) = value else { return try nullOr([value], context) }
            return .date(date.startOfDay)
        },
        "link": { arguments, context throws(DataviewError) in
            // `link(path)`, `link(path or link, display)`, `link(path, display, embed)`; null in, null out,
            // except that a null display leaves the link as it is.
            guard (1...3).contains(arguments.count) else { throw context.failure(arguments) }
            var link: DataviewLink
            switch arguments[0] {
            case .string(let path): link = context.evaluator.resolveLink(path)
            case .link(let existing) where arguments.count < 3: link = existing
            case .null where arguments.count < 3: return .null
            default: throw context.failure(arguments)
            }
            switch (arguments.count > 1 ? arguments[1] : .null, arguments.count > 2 ? arguments[2] : .boolean(link.isEmbed)) {
            case (.null, _) where arguments.count < 3: return .link(link)
            case (.string(let display), .boolean(let embeds)):
                link.display = display
                link.isEmbed = embeds
                return .link(link)
            default: throw context.failure(arguments)
            }
        },
        "embed": { arguments, context throws(DataviewError) in
            // `embed(link)` embeds it; `embed(link, false)` makes it a plain link again.
            guard (1...2).contains(arguments.count) else { throw context.failure(arguments) }
            if arguments.contains(where: \.isNull) { return .null }
            guard case .link(var link) = arguments[0] else { throw context.failure(arguments) }
            if arguments.count == 2 {
                guard case .boolean(let embeds) = arguments[1] else { throw context.failure(arguments) }
                link.isEmbed = embeds
            } else {
                link.isEmbed = true
            }
            return .link(link)
        },
        "elink": { arguments, context throws(DataviewError) in
            // A link to a web address, shown as the display text (the address when there is none).
            guard (1...2).contains(arguments.count) else { throw context.failure(arguments) }
            if arguments[0].isNull { return .null }
            guard case .string(let url) = arguments[0] else { throw context.failure(arguments) }
            switch arguments.count == 2 ? arguments[1] : .null {
            case .null: return .externalLink(DataviewExternalLink(url: url, display: url))
            case .string(let display): return .externalLink(DataviewExternalLink(url: url, display: display))
            default: throw context.failure(arguments)
            }
        },
        "meta": { arguments, context throws(DataviewError) in
            guard case .link(let link) = try one(arguments, context) else { return .null }
            // As Dataview's link objects: a block's subpath is its id, without the `^`.
            let isBlock = link.subpath?.hasPrefix("^") ?? false
            let subpath = link.subpath.map { isBlock ? String($0.dropFirst()) : $0 }
            return .object(DataviewObject([
                ("display", link.display.map(DataviewValue.string) ?? .null), ("embed", .boolean(link.isEmbed)),
                ("path", .string(link.path)), ("subpath", subpath.map(DataviewValue.string) ?? .null),
                ("type", .string(link.subpath == nil ? "file" : (isBlock ? "block" : "header"))),
            ]))
        },
    ]

    // MARK: Helpers

    /// `date(text, format)`: Luxon's `fromFormat`; text that does not match fails the row, as in Dataview.
    /// (Dataview maps `date(value)` over a list, but not `date(text, format)`.)
    private static func dateFromFormat(_ text: DataviewValue, _ format: DataviewValue, _ context: CallContext) throws(DataviewError) -> DataviewValue {
        switch (text, format) {
        case (.null, .string):
            return .null
        case (.string(let given), .string(let pattern)):
            guard let date = DataviewDateFormat.parse(given, format: pattern, now: context.evaluator.now) else {
                throw .evaluation(message: "date(\"\(given)\", \"\(pattern)\"): the text does not match the format, or names no real date")
            }
            return .date(date)
        default:
            throw context.failure([text, format])
        }
    }

    static func one(_ arguments: [DataviewValue], _ context: CallContext) throws(DataviewError) -> DataviewValue {
        guard arguments.count == 1 else {
            throw .evaluation(message: "\(context.name)() takes 1 argument, got \(arguments.count)")
        }
        return arguments[0]
    }

    static func two(_ arguments: [DataviewValue], _ context: CallContext) throws(DataviewError) -> (DataviewValue, DataviewValue) {
        guard arguments.count == 2 else {
            throw .evaluation(message: "\(context.name)() takes 2 arguments, got \(arguments.count)")
        }
        return (arguments[0], arguments[1])
    }

    /// Null in, null out (a missing field); any other mismatch is an error naming the argument types.
    /// `minby`/`maxby`: the element whose key (the function applied to it) `keeps` the comparison with the
    /// best so far. Elements whose key is null are passed over (all null: the first element). Null for an
    /// empty or null list.
    private static func extreme(
        _ arguments: [DataviewValue], _ context: CallContext, keeps: (Int) -> Bool
    ) throws(DataviewError) -> DataviewValue {
        guard arguments.count == 2 else { throw context.failure(arguments) }
        if arguments[0].isNull { return .null }
        guard case .list(let items) = arguments[0], case .function = arguments[1] else { throw context.failure(arguments) }
        var best: (item: DataviewValue, key: DataviewValue)? = nil
        for item in items {
            let key = try context.call(arguments[1], item)
            if key.isNull { continue }
            if let current = best, !keeps(DataviewValue.compare(key, current.key)) { continue }
            best = (item, key)
        }
        return best?.item ?? items.first ?? .null
    }

    static func nullOr(_ arguments: [DataviewValue], _ context: CallContext) throws(DataviewError) -> DataviewValue {
        if arguments.first?.isNull ?? false { return .null }
        throw context.failure(arguments)
    }

    /// The arguments, or the elements of a single list argument (`min(1, 2)` and `min([1, 2])`).
    private static func spread(_ arguments: [DataviewValue]) -> [DataviewValue] {
        if arguments.count == 1, case .list(let items) = arguments[0] { return items }
        if arguments.count == 1, arguments[0].isNull { return [] }
        return arguments
    }

    private static func fold(
        _ items: [DataviewValue], _ context: CallContext, empty: DataviewValue, _ op: DataviewBinaryOperator
    ) throws(DataviewError) -> DataviewValue {
        guard var result = items.first else { return empty }
        for item in items.dropFirst() { result = try DataviewOperators.apply(op, result, item) }
        return result
    }

    /// The operators `reduce(list, operator)` folds with.
    private static let reduceOperators: [String: DataviewBinaryOperator] = [
        "+": .plus, "-": .minus, "*": .times, "/": .divide, "&": .and, "|": .or,
    ]

    private static func quantifier(
        _ arguments: [DataviewValue], _ context: CallContext, _ decide: ([Bool]) -> Bool
    ) throws(DataviewError) -> DataviewValue {
        if arguments.count == 2, case .function = arguments[1] {
            var results: [Bool] = []
            for item in arguments[0].asList { results.append(try context.call(arguments[1], item).isTruthy) }
            return .boolean(decide(results))
        }
        return .boolean(decide(spread(arguments).map(\.isTruthy)))
    }

    /// A function of exactly one value.
    static func unary(
        _ body: @escaping @Sendable (DataviewValue, CallContext) throws(DataviewError) -> DataviewValue
    ) -> Implementation {
        return { arguments, context throws(DataviewError) in try body(try one(arguments, context), context) }
    }

    /// A function of exactly two values.
    static func binary(
        _ body: @escaping @Sendable (DataviewValue, DataviewValue, CallContext) throws(DataviewError) -> DataviewValue
    ) -> Implementation {
        return { arguments, context throws(DataviewError) in
            let (a, b) = try two(arguments, context)
            return try body(a, b, context)
        }
    }

    static func relativeDate(_ relative: DataviewRelativeDate, now: DataviewDate) -> DataviewDate {
        let today = now.startOfDay
        switch relative {
        case .now: return now
        case .today: return today
        case .tomorrow: return today.adding(DataviewDuration(days: 1))
        case .yesterday: return today.adding(DataviewDuration(days: -1))
        case .sow: return today.adding(DataviewDuration(days: Double(1 - today.weekday)))
        case .eow: return endOfDay(today.adding(DataviewDuration(days: Double(7 - today.weekday))))
        case .som: return DataviewDate(year: today.year, month: today.month, day: 1)
        case .eom: return endOfDay(DataviewDate(year: today.year, month: today.month, day: DataviewDate.daysInMonth(today.year, today.month)))
        case .soy: return DataviewDate(year: today.year, month: 1, day: 1)
        case .eoy: return endOfDay(DataviewDate(year: today.year, month: 12, day: 31))
        }
    }

    private static func endOfDay(_ date: DataviewDate) -> DataviewDate {
        var end = date
        end.hour = 23
        end.minute = 59
        end.second = 59
        end.millisecond = 999
        end.hasTime = true
        return end
    }
}

/// Sorting that keeps equal elements in their order (Swift's `sorted` does not promise it).
public func stableSorted<T>(_ items: [T], by areInIncreasingOrder: (T, T) -> Bool) -> [T] {
    stableOrder(count: items.count) { a, b in
        areInIncreasingOrder(items[a], items[b]) ? -1 : areInIncreasingOrder(items[b], items[a]) ? 1 : 0
    }.map { items[$0] }
}

/// The positions `0..<count` ordered by `compare` (negative, zero or positive, like `DataviewValue.compare`),
/// equal ones keeping their order. Sorting positions instead of elements moves no values around.
public func stableOrder(count: Int, by compare: (Int, Int) -> Int) -> [Int] {
    Array(0..<count).sorted { a, b in
        let order = compare(a, b)
        return order != 0 ? order < 0 : a < b
    }
}

/// Compiled regular expressions by pattern: a query runs the same pattern once per row. Each
/// `DataviewEvaluator` owns one (so a query's patterns live as long as the query).
final class RegexCache: @unchecked Sendable {  // NSRegularExpression (immutable, thread-safe) is not marked Sendable on every platform
    private let compiled = Locked<[String: NSRegularExpression]>([:])

    func regex(_ pattern: String, options: NSRegularExpression.Options = []) throws(DataviewError) -> NSRegularExpression {
        let key = "\(options.rawValue)/" + pattern
        if let regex = compiled.withLock({ $0[key] }) { return regex }
        guard let regex = try? NSRegularExpression(pattern: pattern, options: options) else {
            throw .evaluation(message: "invalid regular expression `\(pattern)`")
        }
        compiled.withLock { compiled in
            if compiled.count > 256 { compiled.removeAll() }
            compiled[key] = regex
        }
        return regex
    }
}
