import Foundation

/// Evaluates Bases expressions for one file (a row of a base): names, members, calls, operators, the
/// lazy functions (`if`, and a list's `filter`, `map`, `reduce` with `value`, `index`, `acc`), and formulas
/// (`formula.x`), each computed at most once per row.
///
/// Dispatch order for `x.f(…)`: a date's own methods (`BaseDates`), then the methods of every type
/// (`BaseMethods`). For `f(…)`: `if`, the date functions, then the other globals (`BaseFunctions`).
public struct BaseEvaluator: Sendable {
    public let environment: BaseEnvironment
    /// Compiled formulas by name.
    public let formulas: [String: BaseExpression]
    /// The file `this` refers to: the base itself, or the note embedding it.
    public let thisPath: String?

    /// Nested evaluations one row may make (expression levels across the formulas it uses); a thread's
    /// stack holds several times this many.
    static let maximumDepth = 400

    public init(environment: BaseEnvironment, formulas: [String: BaseExpression] = [:], thisPath: String? = nil) {
        self.environment = environment
        self.formulas = formulas
        self.thisPath = thisPath
    }

    /// The value of `expression` for `row`; `scope` holds `value`, `index`, `acc` or `values` where they apply.
    public func evaluate(_ expression: BaseExpression, row: BaseRow, scope: [String: BaseValue] = [:]) throws(BaseEvaluationError) -> BaseValue {
        do {
            return try value(of: expression, row: row, scope: scope)
        } catch var error {
            if error.range == nil { error.range = expression.range }
            throw error
        }
    }

    /// The value of formula `name` for `row`, computed once per row; a formula that reads itself (directly or
    /// through others) is an error, not a hang.
    public func formula(_ name: String, row: BaseRow) throws(BaseEvaluationError) -> BaseValue {
        if let known = row.formulaValues[name] { return try known.get() }
        guard let expression = formulas[name] else {
            throw BaseEvaluationError("there is no formula `\(name)`: define it under `formulas:`")
        }
        guard !row.formulasInProgress.contains(name) else {
            throw BaseEvaluationError("formula `\(name)` refers to itself (a circular formula)")
        }
        guard row.formulasInProgress.count < BaseProgram.maximumFormulaDepth else {
            throw BaseEvaluationError("formulas use formulas more than \(BaseProgram.maximumFormulaDepth) deep")
        }
        row.formulasInProgress.insert(name)
        defer { row.formulasInProgress.remove(name) }
        let result: Result<BaseValue, BaseEvaluationError>
        do {
            result = .success(try value(of: expression, row: row, scope: [:]))
        } catch {
            result = .failure(BaseEvaluationError("in formula `\(name)`: " + error.message))
        }
        row.formulaValues[name] = result
        return try result.get()
    }

    // MARK: Expressions

    private func value(of expression: BaseExpression, row: BaseRow, scope: [String: BaseValue]) throws(BaseEvaluationError) -> BaseValue {
        // Deep expressions inside deep formulas: stop well before a worker thread's stack would overflow.
        row.depth += 1
        defer { row.depth -= 1 }
        guard row.depth <= Self.maximumDepth else {
            throw BaseEvaluationError(
                "the expression and the formulas it uses nest more than \(Self.maximumDepth) levels deep", range: expression.range, isDepthLimit: true)
        }
        do {
            return try unlocated(expression, row: row, scope: scope)
        } catch var error {
            if error.range == nil { error.range = expression.range }
            throw error
        }
    }

    private func unlocated(_ expression: BaseExpression, row: BaseRow, scope: [String: BaseValue]) throws(BaseEvaluationError) -> BaseValue {
        switch expression.kind {
        case .literal(let literal):
            return literal
        case .identifier(let name):
            return try identifier(name, row: row, scope: scope)
        case .member(let receiver, let name):
            // `x.backlinks.length`, the usual way to count backlinks, without making every row's list.
            if name == "length", case .member(let owner, "backlinks") = receiver.kind,
                case .file(let file) = try value(of: owner, row: row, scope: scope)
            {
                return .number(Double(environment.vault.backlinkCount(ofPath: file.path)))
            }
            if case .identifier(let namespace) = receiver.kind, scope[namespace] == nil {
                switch namespace {
                case "formula": return try formula(name, row: row)
                case "note": return row.facts.properties[name] ?? .null
                default: break
                }
            }
            return member(name, of: try value(of: receiver, row: row, scope: scope))
        case .index(let receiver, let indexExpression):
            let index = try value(of: indexExpression, row: row, scope: scope)
            if case .identifier(let namespace) = receiver.kind, scope[namespace] == nil, case .string(let key) = index {
                switch namespace {
                case "formula": return try formula(key, row: row)
                case "note": return row.facts.properties[key] ?? .null
                default: break
                }
            }
            return try subscripted(try value(of: receiver, row: row, scope: scope), by: index)
        case .call(let name, let arguments):
            return try call(name, arguments, row: row, scope: scope)
        case .method(let receiverExpression, let name, let arguments):
            let receiver = try value(of: receiverExpression, row: row, scope: scope)
            if let lazy = try lazyMethod(name, on: receiver, arguments, row: row, scope: scope) { return lazy }
            var values: [BaseValue] = []
            for argument in arguments { values.append(try value(of: argument, row: row, scope: scope)) }
            return try method(name, on: receiver, values)
        case .unary(let op, let operandExpression):
            let operand = try value(of: operandExpression, row: row, scope: scope)
            return try BaseOperators.unary(op, operand)
        case .binary:
            return try binaryChain(expression, row: row, scope: scope)
        case .list(let items):
            var values: [BaseValue] = []
            for item in items { values.append(try value(of: item, row: row, scope: scope)) }
            return .list(values)
        case .object(let entries):
            var object = BaseObject()
            for entry in entries { object[entry.key] = try value(of: entry.value, row: row, scope: scope) }
            return .object(object)
        }
    }

    /// `a + b - c || d …`: the operators down the left side of the tree, applied in order without recursing
    /// into that side (a 10,000-term sum is as deep as it is long). `&&` and `||` return one of their
    /// operands, as in JavaScript, and skip the right one when the left decides.
    private func binaryChain(_ expression: BaseExpression, row: BaseRow, scope: [String: BaseValue]) throws(BaseEvaluationError) -> BaseValue {
        var steps: [(op: BaseBinaryOperator, right: BaseExpression, range: Range<Int>)] = []
        var leftmost = expression
        while case .binary(let op, let left, let right) = leftmost.kind {
            steps.append((op, right, leftmost.range))
            leftmost = left
        }
        var result = try value(of: leftmost, row: row, scope: scope)
        for step in steps.reversed() {
            switch step.op {
            case .and:
                if result.isTruthy { result = try value(of: step.right, row: row, scope: scope) }
            case .or:
                if !result.isTruthy { result = try value(of: step.right, row: row, scope: scope) }
            default:
                let right = try value(of: step.right, row: row, scope: scope)
                do {
                    result = try BaseOperators.binary(step.op, result, right, environment: environment)
                } catch var error {
                    if error.range == nil { error.range = step.range }
                    throw error
                }
            }
        }
        return result
    }

    private func identifier(_ name: String, row: BaseRow, scope: [String: BaseValue]) throws(BaseEvaluationError) -> BaseValue {
        if let bound = scope[name] { return bound }
        switch name {
        case "file": return .file(BaseFileReference(path: row.facts.path))
        case "note": return .object(row.facts.properties)
        case "this": return thisPath.map { .file(BaseFileReference(path: $0)) } ?? .null
        case "formula":
            throw BaseEvaluationError("`formula` names a formula with a dot: `formula.name`")
        default: return row.facts.properties[name] ?? .null
        }
    }

    /// `receiver.name`: a date's fields, a file's fields (then its note properties: `this.status`), an object's
    /// key, a text's or list's `length`. Anything else, or a missing value, is null, as in JavaScript.
    private func member(_ name: String, of receiver: BaseValue) -> BaseValue {
        switch receiver {
        case .date(let date):
            return BaseDates.field(name, of: date) ?? .null
        case .duration(let duration):
            return Self.durationField(name, milliseconds: duration.totalMilliseconds)
        case .number(let milliseconds):
            // A date minus a date is milliseconds: `(now() - file.ctime).days`.
            return Self.durationField(name, milliseconds: milliseconds)
        case .file(let file):
            if let field = BaseMethods.field(name, of: receiver, environment: environment) { return field }
            return environment.vault.facts(ofPath: file.path)?.properties[name] ?? .null
        case .link(let link):
            // A link's target file's fields and properties (`author.file.name`, `author.age`).
            if let path = link.resolvedPath { return member(name, of: .file(BaseFileReference(path: path))) }
            return .null
        default:
            return BaseMethods.field(name, of: receiver, environment: environment) ?? .null
        }
    }

    /// `duration.days`, `.hours`, … and the same of a number of milliseconds (a date minus a date): the whole
    /// length in that unit, whole units only (truncated toward zero), so `(date(due) - today()).days` counts
    /// days; `.milliseconds` is exact. Months are 30 days and years 365. Null for other names.
    static func durationField(_ name: String, milliseconds: Double) -> BaseValue {
        let unit: Double
        switch name {
        case "milliseconds", "millisecond": return .number(milliseconds)
        case "seconds", "second": unit = 1_000
        case "minutes", "minute": unit = 60_000
        case "hours", "hour": unit = 3_600_000
        case "days", "day": unit = 86_400_000
        case "weeks", "week": unit = 7 * 86_400_000
        case "months", "month": unit = 30 * 86_400_000
        case "years", "year": unit = 365 * 86_400_000
        default: return .null
        }
        return .number((milliseconds / unit).rounded(.towardZero))
    }

    private func subscripted(_ receiver: BaseValue, by index: BaseValue) throws(BaseEvaluationError) -> BaseValue {
        switch (receiver, index) {
        case (.list(let items), .number(let number)):
            guard number == number.rounded(), number >= 0, number < Double(items.count) else { return .null }
            return items[Int(number)]
        case (.object(let object), .string(let key)):
            return object[key] ?? .null
        case (.string(let text), .number(let number)):
            let characters = Array(text)
            guard number == number.rounded(), number >= 0, number < Double(characters.count) else { return .null }
            return .string(String(characters[Int(number)]))
        case (.file, .string(let key)), (.link, .string(let key)):
            return member(key, of: receiver)
        case (.null, _):
            return .null
        default:
            throw BaseEvaluationError("cannot index a \(receiver.typeName) with a \(index.typeName): use a number for lists, a quoted key for objects")
        }
    }

    // MARK: Calls

    private func call(_ name: String, _ arguments: [BaseExpression], row: BaseRow, scope: [String: BaseValue]) throws(BaseEvaluationError) -> BaseValue {
        if name == "if" {
            guard (2...3).contains(arguments.count) else {
                throw BaseEvaluationError("`if` takes a condition, a result and an optional other result, got \(arguments.count) arguments")
            }
            if try value(of: arguments[0], row: row, scope: scope).isTruthy {
                return try value(of: arguments[1], row: row, scope: scope)
            }
            return arguments.count == 3 ? try value(of: arguments[2], row: row, scope: scope) : .null
        }
        var values: [BaseValue] = []
        for argument in arguments { values.append(try value(of: argument, row: row, scope: scope)) }
        if let result = try BaseDates.global(name, arguments: values, environment: environment) { return result }
        if let result = try BaseFunctions.call(name, arguments: values, environment: environment) { return result }
        throw BaseEvaluationError(BaseFunctionNames.unknownFunctionMessage(name))
    }

    private func method(_ name: String, on receiver: BaseValue, _ arguments: [BaseValue]) throws(BaseEvaluationError) -> BaseValue {
        if case .date(let date) = receiver, let result = try BaseDates.method(name, on: date, arguments: arguments, environment: environment) {
            return result
        }
        if let result = try BaseMethods.call(name, on: receiver, arguments: arguments, environment: environment) { return result }
        throw BaseEvaluationError(BaseFunctionNames.unknownMethodMessage(name, on: receiver))
    }

    /// `list.filter(…)`, `list.map(…)`, `list.reduce(…, initial)`: their argument is evaluated once per element
    /// with `value` and `index` (and `acc`) bound. Nil for every other method.
    private func lazyMethod(
        _ name: String, on receiver: BaseValue, _ arguments: [BaseExpression], row: BaseRow, scope: [String: BaseValue]
    ) throws(BaseEvaluationError) -> BaseValue? {
        guard name == "filter" || name == "map" || name == "reduce" else { return nil }
        let items: [BaseValue]
        switch receiver {
        case .list(let list): items = list
        case .null: return .null
        default: throw BaseEvaluationError("`\(name)` works on lists, not on a \(receiver.typeName): wrap it with list(…)")
        }
        let expected = name == "reduce" ? 2 : 1
        guard arguments.count == expected else {
            let usage = name == "reduce" ? "an expression using `acc` and `value`, and the initial `acc`" : "one expression using `value` (and `index`)"
            throw BaseEvaluationError("`\(name)` takes \(usage), got \(arguments.count) arguments")
        }
        var inner = scope
        switch name {
        case "filter":
            var kept: [BaseValue] = []
            for (index, item) in items.enumerated() {
                inner["value"] = item
                inner["index"] = .number(Double(index))
                if try value(of: arguments[0], row: row, scope: inner).isTruthy { kept.append(item) }
            }
            return .list(kept)
        case "map":
            var mapped: [BaseValue] = []
            mapped.reserveCapacity(items.count)
            for (index, item) in items.enumerated() {
                inner["value"] = item
                inner["index"] = .number(Double(index))
                mapped.append(try value(of: arguments[0], row: row, scope: inner))
            }
            return .list(mapped)
        default:
            var accumulator = try value(of: arguments[1], row: row, scope: scope)
            for (index, item) in items.enumerated() {
                inner["value"] = item
                inner["index"] = .number(Double(index))
                inner["acc"] = accumulator
                accumulator = try value(of: arguments[0], row: row, scope: inner)
            }
            return accumulator
        }
    }
}

/// One file being evaluated, with the formulas computed for it so far (each formula once per row).
public final class BaseRow {
    public let facts: BaseFileFacts
    var formulaValues: [String: Result<BaseValue, BaseEvaluationError>] = [:]
    var formulasInProgress: Set<String> = []
    var depth = 0

    public init(facts: BaseFileFacts) {
        self.facts = facts
    }
}
