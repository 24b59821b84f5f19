import Foundation

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
