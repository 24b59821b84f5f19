/// Parts of a parsed Dataview query written back as query text, for `--explain` and error messages:
/// `WHERE (file.size > 10)`, `"Projects" and #tag`. Close to what the user wrote, not byte for byte
/// (binary operations are parenthesised, strings re-quoted).
extension DataviewSource {
    public var queryText: String {
        switch self {
        case .tag(let name): return "#" + name
        case .folder(let path): return "\"\(path)\""
        case .linksTo(let text): return "[[\(text)]]"
        case .linkedFrom(let text): return "outgoing([[\(text)]])"
        case .and(let a, let b): return "(\(a.queryText) and \(b.queryText))"
        case .or(let a, let b): return "(\(a.queryText) or \(b.queryText))"
        case .not(let inner): return "-" + inner.queryText
        }
    }
}

extension DataviewQuery.Command {
    public var queryText: String {
        switch self {
        case .from: return "FROM"
        case .where(let expression): return "WHERE " + expression.queryText
        case .sort(let keys): return "SORT " + keys.map { $0.expression.queryText + ($0.isAscending ? "" : " DESC") }.joined(separator: ", ")
        case .groupBy(let expression, let name): return "GROUP BY " + expression.queryText + " AS " + name
        case .flatten(let expression, let name): return "FLATTEN " + expression.queryText + " AS " + name
        case .limit(let expression): return "LIMIT " + expression.queryText
        }
    }
}

extension DataviewExpression {
    public var queryText: String {
        switch self {
        case .literal(let value):
            if case .string(let text) = value { return "\"\(text)\"" }
            if case .date(let date) = value { return "date(\(date.isoText))" }
            if case .duration(let duration) = value { return "dur(\(duration.text))" }
            return DataviewText.plain(value)
        case .variable(let name): return name
        case .member(let base, let name): return base.queryText + "." + name
        case .index(let base, let index): return base.queryText + "[" + index.queryText + "]"
        case .call(let name, let arguments, _, _): return name + "(" + arguments.map(\.queryText).joined(separator: ", ") + ")"
        case .binary(let op, let left, let right): return "(\(left.queryText) \(op.rawValue) \(right.queryText))"
        case .not(let inner): return "!" + inner.queryText
        case .negate(let inner): return "-" + inner.queryText
        case .list(let items): return "[" + items.map(\.queryText).joined(separator: ", ") + "]"
        case .object(let pairs): return "{" + pairs.map { "\($0.key): \($0.value.queryText)" }.joined(separator: ", ") + "}"
        case .lambda(let parameters, let body): return "(" + parameters.joined(separator: ", ") + ") => " + body.queryText
        case .apply(let function, let arguments): return "(" + function.queryText + ")(" + arguments.map(\.queryText).joined(separator: ", ") + ")"
        case .link(let text, let isEmbed): return (isEmbed ? "!" : "") + "[[" + text + "]]"
        }
    }
}
