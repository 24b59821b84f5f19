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

    // MARK: Helpers

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
    static func nullOr(_ arguments: [DataviewValue], _ context: CallContext) throws(DataviewError) -> DataviewValue {
        if arguments.first?.isNull ?? false { return .null }
        throw context.failure(arguments)
    }

    /// The arguments, or the elements of a single list argument (`min(1, 2)` and `min([1, 2])`).
    static func spread(_ arguments: [DataviewValue]) -> [DataviewValue] {
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


}
