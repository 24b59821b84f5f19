/// Dataview's list and lambda functions: `filter`, `map`, `any`, `all`, `flat`, `sort`, `minby`, `unique`, `object` …
extension DataviewFunctions {
    static let lists: [String: Implementation] = [
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
}
