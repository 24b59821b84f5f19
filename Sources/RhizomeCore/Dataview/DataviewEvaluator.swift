/// Evaluates Dataview expressions over one row (a note's fields, or a group after `GROUP BY`).
///
/// Field names are looked up in the row as written, then in lower case (Dataview exposes each key both
/// as written and in its canonical form, and the row holds both). `this` is the note the query runs
/// in; `row` is the row itself. Links can be followed into the linked note's fields (`[[Alpha]].status`)
/// through `linkedPage`.
public struct DataviewEvaluator: Sendable {
    /// The fields of the note the query runs in (`this`), or `null` when it runs outside a note.
    public var thisPage: DataviewValue
    /// Resolves the text of a `[[…]]` literal into a link, as Obsidian would from the note the query runs in.
    public var resolveLink: @Sendable (String) -> DataviewLink
    /// The fields of the note a link points at, or nil if it does not resolve to an indexed note.
    public var linkedPage: @Sendable (DataviewLink) -> DataviewObject?
    /// What `date(now)` and `date(today)` mean while this query runs.
    public var now: DataviewDate
    /// The regular expressions this query's functions compiled (`regexmatch`, `split`, `containsword`…).
    let regexes = RegexCache()

    public init(
        thisPage: DataviewValue = .null,
        resolveLink: @escaping @Sendable (String) -> DataviewLink = { DataviewLink(path: $0) },
        linkedPage: @escaping @Sendable (DataviewLink) -> DataviewObject? = { _ in nil },
        now: DataviewDate
    ) {
        self.thisPage = thisPage
        self.resolveLink = resolveLink
        self.linkedPage = linkedPage
        self.now = now
    }

    /// Evaluates `expression` with `row`'s fields in scope.
    public func evaluate(_ expression: DataviewExpression, row: DataviewObject) throws(DataviewError) -> DataviewValue {
        try evaluate(expression, scope: Scope(row: row, locals: [:]))
    }

    struct Scope {
        var row: DataviewObject
        var locals: [String: DataviewValue]
    }

    func evaluate(_ expression: DataviewExpression, scope: Scope) throws(DataviewError) -> DataviewValue {
        switch expression {
        case .literal(let value):
            return value
        case .variable(let name):
            return lookUp(name, scope: scope)
        case .member(let base, let name):
            return try member(name, of: try evaluate(base, scope: scope))
        case .index(let base, let index):
            return try self.index(try evaluate(base, scope: scope), by: try evaluate(index, scope: scope))
        case .call(let name, let arguments, _, _):
            return try DataviewFunctions.call(name, arguments: arguments, scope: scope, evaluator: self)
        case .binary(.and, let left, let right):
            guard try evaluate(left, scope: scope).isTruthy else { return .boolean(false) }
            return .boolean(try evaluate(right, scope: scope).isTruthy)
        case .binary(.or, let left, let right):
            if try evaluate(left, scope: scope).isTruthy { return .boolean(true) }
            return .boolean(try evaluate(right, scope: scope).isTruthy)
        case .binary(let op, let left, let right):
            return try DataviewOperators.apply(op, try evaluate(left, scope: scope), try evaluate(right, scope: scope))
        case .not(let inner):
            return .boolean(!(try evaluate(inner, scope: scope).isTruthy))
        case .negate(let inner):
            return try DataviewOperators.apply(.minus, .number(0), try evaluate(inner, scope: scope))
        case .list(let items):
            var values: [DataviewValue] = []
            for item in items { values.append(try evaluate(item, scope: scope)) }
            return .list(values)
        case .object(let pairs):
            var object = DataviewObject()
            for pair in pairs { object[pair.key] = try evaluate(pair.value, scope: scope) }
            return .object(object)
        case .lambda(let parameters, let body):
            return .function(DataviewLambda(parameters: parameters, body: body, captured: scope.locals))
        case .apply(let function, let arguments):
            var values: [DataviewValue] = []
            for argument in arguments { values.append(try evaluate(argument, scope: scope)) }
            return try call(try evaluate(function, scope: scope), with: values, scope: scope)
        case .link(let text, let isEmbed):
            var link = resolveLink(text)
            link.isEmbed = isEmbed
            return .link(link)
        }
    }

    /// Calls a lambda value with arguments (for `map`, `filter`, `sort` …).
    func call(_ function: DataviewValue, with arguments: [DataviewValue], scope: Scope) throws(DataviewError) -> DataviewValue {
        guard case .function(let lambda) = function else {
            throw .evaluation(message: "expected a function like `(x) => …`, got a \(function.typeName)")
        }
        var inner = scope
        inner.locals.merge(lambda.captured) { current, _ in current }
        for (parameter, argument) in zip(lambda.parameters, arguments) { inner.locals[parameter] = argument }
        return try evaluate(lambda.body, scope: inner)
    }

    private func lookUp(_ name: String, scope: Scope) -> DataviewValue {
        if let local = scope.locals[name] { return local }
        if let value = scope.row[name] { return value }
        switch name {
        case "row": return .object(scope.row)
        case "this": return thisPage
        default: break
        }
        return scope.row[name.lowercased()] ?? .null
    }

    /// `base.name`: an object's key, a linked note's field, a date or duration part; mapped over lists.
    func member(_ name: String, of base: DataviewValue) throws(DataviewError) -> DataviewValue {
        switch base {
        case .object(let object):
            return object[name] ?? object[name.lowercased()] ?? .null
        case .link(let link):
            guard let page = linkedPage(link) else { return .null }
            return page[name] ?? page[name.lowercased()] ?? .null
        case .list(let items):
            var values: [DataviewValue] = []
            for item in items { values.append(try member(name, of: item)) }
            return .list(values)
        case .date(let date):
            return DataviewOperators.datePart(name, of: date)
        case .duration(let duration):
            return DataviewOperators.durationPart(name, of: duration)
        case .string(let text) where name == "length":
            return .number(Double(text.count))
        default:
            return .null
        }
    }

    /// `base[index]`: a list element, an object key, a string's character. As in Dataview, an index
    /// out of range is null, and so is a negative one (there is no counting from the end).
    func index(_ base: DataviewValue, by index: DataviewValue) throws(DataviewError) -> DataviewValue {
        switch (base, index) {
        case (.list(let items), .number(let number)):
            guard number >= 0, number < Double(items.count) else { return .null }
            return items[Int(number)]
        case (.string(let text), .number(let number)):
            guard number >= 0, number < Double(text.count) else { return .null }  // NaN too
            let position = Int(number.rounded(.down))
            return .string(String(text[text.index(text.startIndex, offsetBy: position)]))
        case (_, .string(let key)):
            return try member(key, of: base)
        case (.null, _), (_, .null):
            return .null
        default:
            throw .evaluation(message: "cannot index a \(base.typeName) with a \(index.typeName)")
        }
    }
}

extension DataviewLambda {
    init(parameters: [String], body: DataviewExpression, captured: [String: DataviewValue]) {
        self.init(parameters: parameters, body: body)
        self.captured = captured
    }
}
