/// Reads the sections of a `.base` file's top-level mapping into a `BaseDocument`, collecting a
/// `BaseDocumentProblem` for each thing that is probably a mistake and reading on past it.
/// Views are read in `BaseDocumentReader+Views.swift`.
struct BaseDocumentReader {
    let locator: BaseSourceLocator
    private(set) var problems: [BaseDocumentProblem] = []

    init(locator: BaseSourceLocator) {
        self.locator = locator
    }

    mutating func report(
        _ code: FindingCode, _ message: String, severity: Finding.Severity = .warning, line: Int, column: Int, fix: String? = nil
    ) {
        problems.append(BaseDocumentProblem(code: code, severity: severity, message: message, line: line, column: column, fix: fix))
    }

    /// The document with the problems found, ordered by position.
    func finish(_ document: BaseDocument) -> BaseDocument {
        var document = document
        document.problems = problems.enumerated()
            .sorted { ($0.element.line, $0.element.column, $0.offset) < ($1.element.line, $1.element.column, $1.offset) }
            .map(\.element)
        return document
    }

    mutating func read(_ entries: [FrontmatterEntry]) -> Result<BaseDocument, BaseDocumentError> {
        var document = BaseDocument()
        var viewNodes: [FrontmatterNode] = []
        for entry in entries {
            switch entry.key {
            case "filters":
                document.filters = filter(entry.value)
            case "formulas":
                document.formulas = namedSources(entry, kind: "formula")
            case "properties":
                document.properties = properties(entry)
            case "summaries":
                document.summaries = namedSources(entry, kind: "summary")
            case "views":
                switch entry.value.value {
                case .list(let items): viewNodes = items
                case .null: viewNodes = []
                default:
                    return .failure(BaseDocumentError(
                        code: .baseInvalidViews, message: "`views` is a \(entry.value.value.typeName), not a list of views",
                        line: entry.value.line, column: entry.value.column,
                        fix: "write each view as a list item: `- type: table` then `name: …` indented under it"))
                }
            case "display":
                report(
                    .baseUnknownKey, "`display` is from Bases' early beta and is no longer read", line: entry.keyLine, column: entry.keyColumn,
                    fix: "move each display name to `properties:` as `<property>: {displayName: …}`")
            default:
                let suggestion = NearestName.nearest(entry.key, among: BaseDocument.topLevelKeys).map { "did you mean `\($0)`? " } ?? ""
                report(
                    .baseUnknownKey, "`\(entry.key)` is not a key of a base; Obsidian ignores it", line: entry.keyLine, column: entry.keyColumn,
                    fix: "\(suggestion)a base has `filters`, `formulas`, `properties`, `summaries` and `views`")
            }
        }
        // Views last: their summaries may name custom summaries written after them.
        document.views = views(viewNodes, customSummaries: Set(document.summaries.map(\.name)))
        return .success(finish(document))
    }

    // MARK: Filters

    /// A filter: a statement, or an object with one of `and`, `or`, `not`. Nil for an empty `filters:` and
    /// for what cannot be read as a filter (reported).
    mutating func filter(_ node: FrontmatterNode, isListItem: Bool = false) -> BaseFilter? {
        switch node.value {
        case .string, .number, .bool, .date:
            return .statement(statement(node))
        case .null:
            if isListItem {
                report(
                    .baseInvalidFilter, "this filter is empty", line: node.line, column: node.column,
                    fix: locator.startsWith("!", node) ? "quote the statement: an unquoted `!` starts a YAML tag" : "write a statement or remove the item")
            }
            return nil
        case .list(let items):
            guard !isListItem else {
                report(
                    .baseInvalidFilter, "this filter is a list inside a list; it is ignored", line: node.line, column: node.column,
                    fix: "write a nested group as an object: `- and:` (or `or:`, `not:`) with the list under it")
                return nil
            }
            report(
                .baseInvalidFilter, "a filter is a statement or an object with `and`, `or` or `not`, not a list; the list is read as `and`",
                line: node.line, column: node.column, fix: "put `and:` (or `or:`, `not:`) above the list")
            return .and(items.compactMap { filter($0, isListItem: true) })
        case .map(let entries):
            return filterObject(entries, at: node)
        }
    }

    private mutating func filterObject(_ entries: [FrontmatterEntry], at node: FrontmatterNode) -> BaseFilter? {
        let conjunctionKeys = ["and", "or", "not"]
        for entry in entries where !conjunctionKeys.contains(entry.key) {
            let suggestion = NearestName.nearest(entry.key, among: conjunctionKeys).map { "did you mean `\($0)`? " } ?? ""
            report(
                .baseUnknownKey, "`\(entry.key)` is not a key of a filter object; it is ignored", line: entry.keyLine, column: entry.keyColumn,
                fix: "\(suggestion)a filter object holds one of `and`, `or`, `not`")
        }
        let conjunctions = entries.filter { conjunctionKeys.contains($0.key) }
        guard let conjunction = conjunctions.first else {
            report(
                .baseInvalidFilter, "this filter object has none of `and`, `or`, `not`; it filters nothing", line: node.line, column: node.column,
                fix: "put the statements in a list under `and:`, `or:` or `not:`")
            return nil
        }
        if conjunctions.count > 1 {
            let names = conjunctions.map { "`\($0.key)`" }.joined(separator: " and ")
            report(
                .baseInvalidFilter, "this filter object has both \(names); only the first, `\(conjunction.key)`, is read",
                line: conjunctions[1].keyLine, column: conjunctions[1].keyColumn,
                fix: "nest the groups: a list under `and:` whose items are `- or: […]` objects")
        }
        var children: [BaseFilter] = []
        switch conjunction.value.value {
        case .list(let items):
            children = items.compactMap { filter($0, isListItem: true) }
        case .null:
            break
        default:
            report(
                .baseInvalidFilter, "`\(conjunction.key)` holds a \(conjunction.value.value.typeName), not a list; it is read as a list of one",
                line: conjunction.value.line, column: conjunction.value.column, fix: "write the statement as a list item: `- …`")
            if let child = filter(conjunction.value, isListItem: true) { children = [child] }
        }
        switch conjunction.key {
        case "and": return .and(children)
        case "or": return .or(children)
        default: return .not(children)
        }
    }

    /// A statement's source; a number, boolean or date in YAML is read as its text (reported: a filter
    /// statement is text).
    private mutating func statement(_ node: FrontmatterNode) -> BaseSource {
        let text = node.value.scalarText ?? ""
        if case .string = node.value {} else {
            report(
                .baseInvalidFilter, "this filter is the YAML \(node.value.typeName) `\(text)`, not a text statement; it is read as the text",
                line: node.line, column: node.column, fix: "write a statement that is true or false for a file, e.g. `file.hasTag(\"book\")`")
        }
        return locator.source(text, of: node)
    }

    // MARK: Formulas, summaries, properties

    /// The entries of `formulas:` or `summaries:`: a name and an expression each. A number or boolean is an
    /// expression too (`x: 5` is the formula `5`).
    private mutating func namedSources(_ section: FrontmatterEntry, kind: String) -> [BaseNamedSource] {
        switch section.value.value {
        case .map(let entries):
            var sources: [BaseNamedSource] = []
            for entry in entries {
                guard let text = entry.value.value.scalarText else {
                    let what = entry.value.value == .null ? "is empty" : "is a \(entry.value.value.typeName), not an expression"
                    report(
                        .baseInvalidFormula, "the \(kind) `\(entry.key)` \(what); it is left out", line: entry.value.line, column: entry.value.column,
                        fix: "write the \(kind) as one expression in quotes, e.g. `\(entry.key): 'price * 2'`")
                    continue
                }
                sources.append(BaseNamedSource(
                    name: entry.key, source: locator.source(text, of: entry.value), keyLine: entry.keyLine, keyColumn: entry.keyColumn))
            }
            return sources
        case .null:
            return []
        default:
            report(
                .baseInvalidFormula, "`\(section.key)` is a \(section.value.value.typeName), not a mapping of names to expressions",
                line: section.value.line, column: section.value.column, fix: "write each \(kind) as `name: 'expression'` under `\(section.key):`")
            return []
        }
    }

    private mutating func properties(_ section: FrontmatterEntry) -> [BasePropertyConfig] {
        guard case .map(let entries) = section.value.value else {
            if section.value.value != .null {
                report(
                    .baseInvalidProperty, "`properties` is a \(section.value.value.typeName), not a mapping of property names",
                    line: section.value.line, column: section.value.column, fix: "write `<property>:` then `displayName: …` indented under it")
            }
            return []
        }
        var configs: [BasePropertyConfig] = []
        for entry in entries {
            var config = BasePropertyConfig(name: BasePropertyName(entry.key), keyLine: entry.keyLine, keyColumn: entry.keyColumn)
            switch entry.value.value {
            case .map(let settings):
                for setting in settings {
                    guard setting.key == "displayName" else {
                        config.extra.append(setting)
                        continue
                    }
                    if let text = setting.value.value.scalarText {
                        config.displayName = text
                    } else if setting.value.value != .null {
                        report(
                            .baseInvalidProperty, "the display name of `\(entry.key)` is a \(setting.value.value.typeName), not text; it is ignored",
                            line: setting.value.line, column: setting.value.column, fix: "write `displayName: Some name`")
                    }
                }
            case .null:
                break
            default:
                report(
                    .baseInvalidProperty, "the `properties` entry `\(entry.key)` is a \(entry.value.value.typeName), not a mapping; it is ignored",
                    line: entry.value.line, column: entry.value.column, fix: "write `displayName: …` on its own line, indented under `\(entry.key):`")
                continue
            }
            configs.append(config)
        }
        return configs
    }
}
