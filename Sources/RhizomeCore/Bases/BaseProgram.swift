/// A base made ready to run: every filter statement, formula and custom summary of a `BaseDocument`
/// parsed, every function name checked, and formulas checked for cycles, so that mistakes are reported
/// with their place in the file before any note is read.
public struct BaseProgram: Sendable {
    /// A filter tree with its statements parsed.
    public indirect enum Filter: Sendable {
        case statement(BaseExpression, BaseSource)
        case and([Filter])
        case or([Filter])
        case not([Filter])
    }

    public let document: BaseDocument
    /// The `.base` file or the note with the `base` block, for error locations.
    public let path: String?
    public let filter: Filter?
    /// View filters, by view index.
    public let viewFilters: [Filter?]
    public let formulas: [String: BaseExpression]
    public let formulaSources: [String: BaseSource]
    public let customSummaries: [String: (expression: BaseExpression, source: BaseSource)]

    public init(document: BaseDocument, path: String?) throws(BaseError) {
        self.document = document
        self.path = path
        var formulas: [String: BaseExpression] = [:]
        var formulaSources: [String: BaseSource] = [:]
        for formula in document.formulas {
            formulas[formula.name] = try Self.compile(formula.source, path: path)
            formulaSources[formula.name] = formula.source
        }
        self.formulas = formulas
        self.formulaSources = formulaSources
        var summaries: [String: (BaseExpression, BaseSource)] = [:]
        for summary in document.summaries {
            summaries[summary.name] = (try Self.compile(summary.source, path: path), summary.source)
        }
        customSummaries = summaries
        filter = try document.filters.map { (filter) throws(BaseError) in try Self.compile(filter, path: path) }
        var viewFilters: [Filter?] = []
        for view in document.views {
            viewFilters.append(try view.filters.map { (filter) throws(BaseError) in try Self.compile(filter, path: path) })
        }
        self.viewFilters = viewFilters
        try checkFormulaReferences()
    }

    /// The view called `name` (nil: the first, as Obsidian opens a base) with its index; a base without views
    /// has one default table of every file.
    public func view(named name: String?) throws(BaseError) -> (definition: BaseViewDefinition, index: Int?) {
        if let name {
            if let index = document.views.firstIndex(where: { $0.name == name }) { return (document.views[index], index) }
            let names = document.views.map(\.name)
            var message = "the base has no view \"\(name)\""
            if let nearest = NearestName.nearest(name, among: names) { message += "; did you mean \"\(nearest)\"?" }
            throw BaseError(
                .unknownView, message, path: path,
                fix: names.isEmpty ? "this base has no views" : "its views: " + names.map { "\"\($0)\"" }.joined(separator: ", "))
        }
        if let first = document.views.first { return (first, 0) }
        return (BaseViewDefinition.defaultTable, nil)
    }

    /// Reads and compiles a `.base` file's text (or a `base` code block's, with `lineOffset` = the line of its
    /// opening fence, so locations are the note's lines). `path` names the file in errors.
    public static func load(text: String, path: String?, lineOffset: Int = 0) throws(BaseError) -> BaseProgram {
        switch BaseDocument.parse(text, lineOffset: lineOffset) {
        case .success(let document):
            return try BaseProgram(document: document, path: path)
        case .failure(let error):
            // The same code `validate` reports for it.
            let kind = BaseError.Kind(rawValue: error.code.rawValue) ?? .invalidYAML
            throw BaseError(kind, error.message, path: path, line: error.line, column: error.column, fix: error.fix)
        }
    }

    // MARK: Compiling

    static func compile(_ source: BaseSource, path: String?) throws(BaseError) -> BaseExpression {
        let expression: BaseExpression
        do {
            expression = try BaseExpressionParser.parse(source.text)
        } catch {
            throw BaseError(error.isDepthLimit ? .tooDeep : .syntax, error.message, path: path, source: source, range: error.range)
        }
        var unknown: BaseError? = nil
        expression.visit { node in
            guard unknown == nil else { return }
            switch node.kind {
            case .call(let name, _):
                if let message = BaseFunctionNames.unknownNameMessage(name, isMethod: false) {
                    unknown = BaseError(.unknownFunction, message, path: path, source: source, range: node.range)
                }
            case .method(let receiver, let name, _):
                if let message = BaseFunctionNames.unknownNameMessage(name, isMethod: true) {
                    // At the name, not at the start of what it is called on.
                    let range = Self.nameRange(name, after: receiver.range.upperBound, in: source.text) ?? node.range
                    unknown = BaseError(.unknownFunction, message, path: path, source: source, range: range)
                }
            default:
                break
            }
        }
        if let unknown { throw unknown }
        return expression
    }

    /// Where `name` is written after character `offset` of `text` (`receiver.name(`), in characters.
    private static func nameRange(_ name: String, after offset: Int, in text: String) -> Range<Int>? {
        let characters = Array(text)
        let wanted = Array(name)
        var start = offset
        while start + wanted.count <= characters.count {
            if Array(characters[start..<start + wanted.count]) == wanted { return start..<start + wanted.count }
            start += 1
        }
        return nil
    }

    private static func compile(_ filter: BaseFilter, path: String?) throws(BaseError) -> Filter {
        switch filter {
        case .statement(let source): return .statement(try compile(source, path: path), source)
        case .and(let items): return .and(try compileAll(items, path: path))
        case .or(let items): return .or(try compileAll(items, path: path))
        case .not(let items): return .not(try compileAll(items, path: path))
        }
    }

    private static func compileAll(_ filters: [BaseFilter], path: String?) throws(BaseError) -> [Filter] {
        var compiled: [Filter] = []
        for filter in filters { compiled.append(try compile(filter, path: path)) }
        return compiled
    }

    /// Every `formula.x` names a formula, and no formula reaches itself.
    private func checkFormulaReferences() throws(BaseError) {
        for (name, expression) in formulas.sorted(by: { $0.key < $1.key }) {
            for reference in expression.formulaReferences where formulas[reference.name] == nil {
                throw BaseError(
                    .syntax, "there is no formula `\(reference.name)`", path: path, source: formulaSources[name]!,
                    range: reference.range, fix: "define it under `formulas:` or correct the name")
            }
        }
        var finished: Set<String> = []
        for name in formulas.keys.sorted() {
            var trail: [String] = []
            try visit(name, trail: &trail, finished: &finished)
        }
    }

    /// How deep formulas may use formulas (`formula.a` using `formula.b` using …): far beyond what a base
    /// needs, and shallow enough that evaluating the chain cannot exhaust a thread's stack.
    public static let maximumFormulaDepth = 64

    private func visit(_ name: String, trail: inout [String], finished: inout Set<String>) throws(BaseError) {
        guard !finished.contains(name) else { return }
        if trail.count >= Self.maximumFormulaDepth {
            throw BaseError(
                .tooDeep, "formulas use formulas more than \(Self.maximumFormulaDepth) deep (formula.\(trail[0]) → … → formula.\(name))",
                path: path, source: formulaSources[trail.last!]!, range: nil,
                fix: "compute the value in fewer steps")
        }
        if let start = trail.firstIndex(of: name) {
            let cycle = trail[start...] + [name]
            let reference = formulas[trail.last!]!.formulaReferences.first { $0.name == name }
            throw BaseError(
                .circularFormula, "circular formula: " + cycle.map { "formula.\($0)" }.joined(separator: " → "),
                path: path, source: formulaSources[trail.last!]!, range: reference?.range,
                fix: "a formula may use other formulas, but not itself through them")
        }
        trail.append(name)
        for reference in formulas[name]!.formulaReferences {
            try visit(reference.name, trail: &trail, finished: &finished)
        }
        trail.removeLast()
        finished.insert(name)
    }
}

extension BaseViewDefinition {
    /// What Obsidian shows for a base without views: one table of every file, by name.
    public static let defaultTable = BaseViewDefinition(type: "table", name: "Table", isNamed: false)
}
