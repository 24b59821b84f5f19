import Foundation

/// Runs one view of a compiled base over the vault's files: keeps the files that pass the base's and the
/// view's filters, computes the view's columns, sorts (several keys; empty values last in either
/// direction), cuts at `limit`, groups by `groupBy`, and computes summaries over the shown rows.
///
/// A formula that fails for one row becomes that cell's error. A filter that fails is an error for the
/// whole base, naming the note: a filter that cannot be decided must not silently drop or keep rows.
public struct BaseRunner: Sendable {
    public let program: BaseProgram
    public let evaluator: BaseEvaluator

    public init(program: BaseProgram, environment: BaseEnvironment, thisPath: String? = nil) {
        self.program = program
        evaluator = BaseEvaluator(environment: environment, formulas: program.formulas, thisPath: thisPath)
    }

    /// Runs the view `name` (nil: the first) over `files`. `shouldStop` is asked every few hundred rows (a
    /// time limit, a cancelled call); when it says so, the run ends with `BaseError.Kind.stopped`.
    public func run(viewNamed name: String?, files: [BaseFileFacts], shouldStop: (@Sendable () -> Bool)? = nil) throws(BaseError) -> BaseResult {
        let (view, viewIndex) = try program.view(named: name)
        let filters = [program.filter, viewIndex.flatMap { program.viewFilters[$0] }].compactMap { $0 }
        // Without sort keys Obsidian lists files by name; ties (and equal keys) fall back to the path.
        let sortKeys = view.sort.isEmpty ? [BaseSortKey(property: BasePropertyName("file.name"), descending: false)] : view.sort

        // Filters and sort keys row by row, on several threads for a large vault.
        let workers = ParallelMap.workers(for: files.count, threshold: 2_000)
        let chunkSize = max(256, (files.count + workers * 4 - 1) / (workers * 4))
        let chunks = stride(from: 0, to: files.count, by: chunkSize).map { $0..<min($0 + chunkSize, files.count) }
        let outcomes = ParallelMap.map(chunks, workers: workers) { range -> ([Kept], BaseError?) in
            var kept: [Kept] = []
            for index in range {
                if let shouldStop, index % 128 == 0, shouldStop() {
                    return (kept, BaseError(.stopped, "stopped before the base was evaluated (a time limit or a cancelled call)"))
                }
                let row = BaseRow(facts: files[index])
                do throws(BaseError) {
                    var passes = true
                    for filter in filters where passes { passes = try self.passes(filter, row: row) }
                    guard passes else { continue }
                } catch {
                    return (kept, error)
                }
                kept.append(Kept(index: index, keys: sortKeys.map { key in (try? value(of: key.property, row: row)) ?? .null }))
            }
            return (kept, nil)
        }
        // The error of the first file that failed, as a run on one thread would report it.
        if let failure = outcomes.first(where: { $0.1 != nil })?.1 { throw failure }
        let kept = outcomes.flatMap(\.0)
        let total = kept.count
        var order = sorted(kept, by: sortKeys, files: files)
        if let limit = view.limit, limit >= 0, order.count > limit { order = Array(order.prefix(limit)) }
        let rows = order.map { BaseRow(facts: files[$0]) }

        // The layouts' own properties are data too: a card's image, a map pin's coordinates, icon and color.
        var properties = view.order.isEmpty ? [BasePropertyName("file.name")] : view.order
        for layoutProperty in [view.image, view.coordinates, view.markerIcon, view.markerColor].compactMap({ $0 })
        where !properties.contains(layoutProperty) {
            properties.append(layoutProperty)
        }
        let columns = properties.map { BaseResult.Column(property: $0.canonical, displayName: displayName(of: $0)) }
        let shown = rows.map { row in BaseResult.Row(path: row.facts.path, cells: properties.map { cell($0, row: row) }) }
        var result = BaseResult(
            viewName: view.name, viewType: view.type, columns: columns, rows: shown, groups: nil,
            summaries: summaries(view, rows: rows), total: total)
        if let groupBy = view.groupBy {
            result.groups = groups(rows, shown: shown, by: groupBy, view: view)
        }
        return result
    }

    /// A file that passed the filters, with its values of the sort keys.
    private struct Kept: Sendable {
        var index: Int
        var keys: [BaseValue]
    }

    // MARK: Filters

    private func passes(_ filter: BaseProgram.Filter, row: BaseRow) throws(BaseError) -> Bool {
        switch filter {
        case .statement(let expression, let source):
            do {
                return try evaluator.evaluate(expression, row: row).isTruthy
            } catch {
                throw BaseError(
                    .evaluation, "\(error.message), for \(row.facts.path)", path: program.path, source: source,
                    range: error.range, fix: "correct the filter, or guard it with if(…) for notes where it cannot apply")
            }
        case .and(let items):
            for item in items where !(try passes(item, row: row)) { return false }
            return true
        case .or(let items):
            if items.isEmpty { return true }
            for item in items where try passes(item, row: row) { return true }
            return false
        case .not(let items):
            for item in items where try passes(item, row: row) { return false }
            return true
        }
    }

    // MARK: Values

    /// The value of a view's property for `row`: a note property, a file property or a formula.
    func value(of property: BasePropertyName, row: BaseRow) throws(BaseEvaluationError) -> BaseValue {
        switch property.namespace {
        case .note:
            return row.facts.properties[property.name] ?? .null
        case .file:
            let file = BaseValue.file(BaseFileReference(path: row.facts.path))
            return BaseMethods.field(property.name, of: file, environment: evaluator.environment) ?? .null
        case .formula:
            return try evaluator.formula(property.name, row: row)
        }
    }

    private func cell(_ property: BasePropertyName, row: BaseRow) -> BaseResult.Cell {
        do {
            return .value(try value(of: property, row: row))
        } catch {
            return .error(error.message)
        }
    }

    private func displayName(of property: BasePropertyName) -> String {
        if let configured = program.document.properties.first(where: { $0.name == property })?.displayName {
            return configured
        }
        return property.namespace == .file ? property.canonical : property.name
    }

    // MARK: Sorting and grouping

    /// The files' indexes in view order.
    private func sorted(_ kept: [Kept], by keys: [BaseSortKey], files: [BaseFileFacts]) -> [Int] {
        let environment = evaluator.environment
        let columns = keys.indices.map { position in SortColumn(kept.map { $0.keys[position] }) }
        return kept.indices.sorted { a, b in
            for (position, key) in keys.enumerated() {
                let order = columns[position].order(a, b, descending: key.descending, environment: environment)
                if order != 0 { return order < 0 }
            }
            // Ties as the file explorer lists names ("Note 2" before "Note 10"), then by path.
            let (x, y) = (files[kept[a].index], files[kept[b].index])
            let byName = BaseComparison.naturalOrder(x.name, y.name)
            return byName != 0 ? byName < 0 : x.path < y.path
        }.map { kept[$0].index }
    }

    /// One sort key's values for every row. When they are all numbers, or all dates on the environment's
    /// clock (the usual columns to sort by), they compare as plain numbers, without `BaseComparison`.
    private struct SortColumn {
        let values: [BaseValue]
        /// The values as numbers, nil for an empty value; nil when some value is neither.
        let numbers: [Double?]?

        init(_ values: [BaseValue]) {
            self.values = values
            var numbers: [Double?] = []
            numbers.reserveCapacity(values.count)
            var kind: Int? = nil  // 1 numbers, 2 dates: one kind only
            for value in values {
                switch value {
                case .number(let number) where !number.isNaN && (kind ?? 1) == 1:
                    kind = 1
                    numbers.append(number)
                case .date(let date) where date.offsetMinutes == nil && (kind ?? 2) == 2:
                    kind = 2
                    numbers.append(Double(date.wallClockMilliseconds))
                case _ where value.isEmpty:
                    numbers.append(nil)
                default:
                    self.numbers = nil
                    return
                }
            }
            self.numbers = numbers
        }

        func order(_ a: Int, _ b: Int, descending: Bool, environment: BaseEnvironment) -> Int {
            guard let numbers else { return BaseComparison.sortOrder(values[a], values[b], descending: descending, environment: environment) }
            switch (numbers[a], numbers[b]) {
            case (nil, nil): return 0
            case (nil, _): return 1
            case (_, nil): return -1
            case (let x?, let y?): return x == y ? 0 : ((x < y) != descending ? -1 : 1)
            }
        }
    }

    private func groups(_ rows: [BaseRow], shown: [BaseResult.Row], by groupBy: BaseSortKey, view: BaseViewDefinition) -> [BaseResult.Group] {
        let environment = evaluator.environment
        var keys: [BaseValue] = []
        var members: [[Int]] = []
        for (index, row) in rows.enumerated() {
            let key = (try? value(of: groupBy.property, row: row)) ?? .null
            if let existing = keys.firstIndex(where: { BaseComparison.equal($0, key, environment: environment) || ($0.isEmpty && key.isEmpty) }) {
                members[existing].append(index)
            } else {
                keys.append(key)
                members.append([index])
            }
        }
        let order = keys.indices.sorted { BaseComparison.sortOrder(keys[$0], keys[$1], descending: groupBy.descending, environment: environment) < 0 }
        return order.map { groupIndex in
            let groupRows = members[groupIndex].map { rows[$0] }
            return BaseResult.Group(
                key: keys[groupIndex], rows: members[groupIndex].map { shown[$0] }, summaries: summaries(view, rows: groupRows))
        }
    }

    // MARK: Summaries

    private func summaries(_ view: BaseViewDefinition, rows: [BaseRow]) -> [BaseResult.Summary] {
        view.summaries.map { entry in
            let values = rows.map { row in (try? value(of: entry.property, row: row)) ?? .null }
            return BaseResult.Summary(property: entry.property.canonical, name: entry.summary, value: summary(entry.summary, values: values))
        }
    }

    private func summary(_ name: String, values: [BaseValue]) -> BaseResult.Cell {
        if let custom = program.customSummaries[name] {
            let row = BaseRow(facts: BaseFileFacts(path: evaluator.thisPath ?? ""))
            do {
                return .value(try evaluator.evaluate(custom.expression, row: row, scope: ["values": .list(values)]))
            } catch {
                return .error(error.message)
            }
        }
        if let value = BaseSummaries.compute(name, values: values, environment: evaluator.environment) { return .value(value) }
        return .error("unknown summary \"\(name)\": use one of \(BaseSummaries.defaultNames.joined(separator: ", ")) or define it under `summaries:`")
    }
}
