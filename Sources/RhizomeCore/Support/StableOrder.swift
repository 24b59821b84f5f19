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
