/// A parsed Bases expression (a filter statement, a formula, a summary formula), with where each part was
/// written: `range` is in characters of the expression's text, so errors can point inside it.
public struct BaseExpression: Sendable {
    public indirect enum Kind: Sendable {
        case literal(BaseValue)
        /// A bare name: a note property (`price`), or one of `file`, `note`, `formula`, `this`, and inside
        /// list functions and summaries `value`, `index`, `acc`, `values`.
        case identifier(String)
        /// `receiver.name`
        case member(BaseExpression, String)
        /// `receiver[index]`
        case index(BaseExpression, BaseExpression)
        /// A global function: `if(…)`, `date(…)`.
        case call(String, [BaseExpression])
        /// A method: `receiver.name(…)`. Arguments stay unevaluated: `filter`, `map` and `reduce` evaluate
        /// theirs once per element.
        case method(BaseExpression, String, [BaseExpression])
        case unary(BaseUnaryOperator, BaseExpression)
        case binary(BaseBinaryOperator, BaseExpression, BaseExpression)
        case list([BaseExpression])
        case object([(key: String, value: BaseExpression)])
    }

    public var kind: Kind
    public var range: Range<Int>

    public init(_ kind: Kind, range: Range<Int>) {
        self.kind = kind
        self.range = range
    }
}

public enum BaseUnaryOperator: String, Sendable {
    case not = "!"
    case negate = "-"
    case plus = "+"
}

public enum BaseBinaryOperator: String, Sendable {
    case or = "||"
    case and = "&&"
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    case plus = "+"
    case minus = "-"
    case times = "*"
    case divide = "/"
    case modulo = "%"

    /// Binding strength, as in JavaScript: `||` < `&&` < equality < comparison < `+ -` < `* / %`.
    var precedence: Int {
        switch self {
        case .or: return 1
        case .and: return 2
        case .equal, .notEqual: return 3
        case .less, .lessOrEqual, .greater, .greaterOrEqual: return 4
        case .plus, .minus: return 5
        case .times, .divide, .modulo: return 6
        }
    }
}

extension BaseExpression {
    /// Calls `body` with itself and its subexpressions, depth first in source order (for finding formula
    /// references and function names).
    public func visit(_ body: (BaseExpression) -> Void) {
        // With a stack of its own: `1 + 1 + … + 1` is a tree as deep as it is long.
        var pending: [BaseExpression] = [self]
        while let node = pending.popLast() {
            body(node)
            var children: [BaseExpression] = []
            switch node.kind {
            case .literal, .identifier: break
            case .member(let receiver, _): children = [receiver]
            case .index(let receiver, let index): children = [receiver, index]
            case .call(_, let arguments): children = arguments
            case .method(let receiver, _, let arguments): children = [receiver] + arguments
            case .unary(_, let operand): children = [operand]
            case .binary(_, let left, let right): children = [left, right]
            case .list(let items): children = items
            case .object(let entries): children = entries.map(\.value)
            }
            pending.append(contentsOf: children.reversed())  // depth first, in source order
        }
    }

    /// The formulas it reads: `formula.x` and `formula["x"]`.
    public var formulaReferences: [(name: String, range: Range<Int>)] {
        var names: [(String, Range<Int>)] = []
        visit { node in
            switch node.kind {
            case .member(let receiver, let name):
                if case .identifier("formula") = receiver.kind { names.append((name, node.range)) }
            case .index(let receiver, let index):
                if case .identifier("formula") = receiver.kind, case .literal(.string(let name)) = index.kind {
                    names.append((name, node.range))
                }
            default: break
            }
        }
        return names
    }
}
