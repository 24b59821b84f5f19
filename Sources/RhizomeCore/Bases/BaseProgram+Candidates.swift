/// Which files can pass a view's filters, in terms the index can answer before any note is loaded: the
/// conjuncts of the base's and the view's filters that are `file.hasTag(…)`, `file.inFolder(…)` or
/// `file.ext == "…"`. The filters still run on every candidate, so a condition only has to keep every file
/// that could pass (a superset is always right).
extension BaseProgram {
    public enum CandidateCondition: Sendable, Equatable {
        /// Files with one of these tags or a tag nested under one (without `#`, as written).
        case tags([String])
        /// Files in this folder or below it (vault-relative, without leading or trailing `/`).
        case folder(String)
        /// Files with this extension (without the dot).
        case fileExtension(String)
    }

    /// The conditions for view `viewIndex` (nil: the default view), or nil when the index cannot narrow the
    /// files: no such conjunct, or the base reads other files than the row's own (`this`, a link's
    /// properties, `asFile()`, `file(…)`, `hasLink`, `linksTo`), which must then all be loaded.
    public func candidateConditions(viewIndex: Int?) -> [CandidateCondition]? {
        var expressions = formulas.values.map { $0 }
        expressions += customSummaries.values.map(\.expression)
        var conjuncts: [BaseExpression] = []
        func addConjuncts(_ filter: Filter?) {
            switch filter {
            case .statement(let expression, _)?:
                conjuncts += Self.conjuncts(of: expression)
            case .and(let items)?:
                items.forEach { addConjuncts($0) }
            default:
                break
            }
        }
        func addAll(_ filter: Filter?) {
            switch filter {
            case .statement(let expression, _)?: expressions.append(expression)
            case .and(let items)?, .or(let items)?, .not(let items)?: items.forEach { addAll($0) }
            case nil: break
            }
        }
        addAll(filter)
        viewFilters.forEach { addAll($0) }
        guard !expressions.contains(where: Self.readsOtherFiles) else { return nil }
        addConjuncts(filter)
        if let viewIndex { addConjuncts(viewFilters[viewIndex]) }
        let conditions = conjuncts.compactMap(Self.condition)
        return conditions.isEmpty ? nil : conditions
    }

    /// `a && b && c` as `[a, b, c]`.
    private static func conjuncts(of expression: BaseExpression) -> [BaseExpression] {
        var conjuncts: [BaseExpression] = []
        var pending = [expression]
        while let node = pending.popLast() {
            if case .binary(.and, let left, let right) = node.kind {
                pending += [right, left]
            } else {
                conjuncts.append(node)
            }
        }
        return conjuncts
    }

    private static func condition(_ expression: BaseExpression) -> CandidateCondition? {
        switch expression.kind {
        case .method(let receiver, "hasTag", let arguments) where isFile(receiver) && !arguments.isEmpty:
            let tags = arguments.compactMap { argument -> String? in
                guard case .literal(.string(let tag)) = argument.kind else { return nil }
                return tag.hasPrefix("#") ? String(tag.dropFirst()) : tag
            }
            return tags.count == arguments.count && !tags.contains(where: \.isEmpty) ? .tags(tags) : nil
        case .method(let receiver, "inFolder", let arguments) where isFile(receiver) && arguments.count == 1:
            guard case .literal(.string(let folder)) = arguments[0].kind else { return nil }
            let trimmed = folder.split(separator: "/", omittingEmptySubsequences: true).joined(separator: "/")
            return trimmed.isEmpty ? nil : .folder(trimmed)
        case .binary(.equal, let left, let right):
            if case .member(let receiver, "ext") = left.kind, isFile(receiver), case .literal(.string(let ext)) = right.kind {
                return .fileExtension(ext)
            }
            if case .member(let receiver, "ext") = right.kind, isFile(receiver), case .literal(.string(let ext)) = left.kind {
                return .fileExtension(ext)
            }
            return nil
        default:
            return nil
        }
    }

    private static func isFile(_ expression: BaseExpression) -> Bool {
        if case .identifier("file") = expression.kind { return true }
        return false
    }

    /// Whether evaluating `expression` can read the facts of a file other than the row's.
    private static func readsOtherFiles(_ expression: BaseExpression) -> Bool {
        var reads = false
        expression.visit { node in
            switch node.kind {
            case .identifier("this"): reads = true
            case .call("file", _): reads = true
            case .method(_, let name, _) where otherFileMethods.contains(name): reads = true
            case .member(let receiver, let name):
                if case .identifier(let namespace) = receiver.kind, namespace == "file" || namespace == "formula" || namespace == "note" {
                    return
                }
                // A member of anything else may be a linked note's property (`author.born`).
                if !safeMembers.contains(name) { reads = true }
            case .index(let receiver, _):
                if case .identifier(let namespace) = receiver.kind, namespace == "note" || namespace == "formula" { return }
                reads = true
            default: break
            }
        }
        return reads
    }

    private static let otherFileMethods: Set<String> = ["asFile", "hasLink", "linksTo"]
    /// Members that never reach another file: text and list lengths, date and duration fields.
    private static let safeMembers: Set<String> = [
        "length", "year", "month", "day", "hour", "minute", "second", "millisecond", "milliseconds", "seconds", "minutes",
        "hours", "days", "weeks", "months", "years", "week",
    ]
}
