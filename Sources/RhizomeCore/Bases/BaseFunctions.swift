import Foundation

/// The global functions of the Bases language that work on values alone: `escapeHTML`, `file`, `html`, `icon`,
/// `image`, `link`, `list`, `max`, `min`, `number`, `random`. (`if` is evaluated lazily by the evaluator;
/// `date`, `duration`, `now` and `today` live with the dates.)
///
/// Choices where Obsidian's help is silent:
/// - link text given to `link()` or `file()` resolves from the vault root, as a formula belongs to no note;
/// - `file(…)` is null when no such file exists, so `file("x").isEmpty()` and `if(file("x"), …)` test existence;
/// - `number(null)` is null (a missing property stays empty), not JavaScript's 0, and unreadable text throws;
/// - `max`/`min` skip nulls, read numeric text as numbers, take the latest/earliest of dates, and are null
///   when given no values (JavaScript's `Math.max()` is `-Infinity`).
public enum BaseFunctions {
    /// The names `call` answers.
    public static let names: Set<String> = [
        "escapeHTML", "file", "html", "icon", "image", "link", "list", "max", "min", "number", "random",
    ]

    /// The result of the global function `name`, or nil when `name` is not one of `names`.
    public static func call(
        _ name: String, arguments: [BaseValue], environment: BaseEnvironment
    ) throws(BaseEvaluationError) -> BaseValue? {
        let arguments = BaseArguments(name, arguments)
        switch name {
        case "escapeHTML":
            try arguments.expectCount(1)
            return .string(escapeHTML(BaseText.string(arguments.values[0])))
        case "file":
            try arguments.expectCount(1)
            return try file(arguments, environment: environment)
        case "html":
            try arguments.expectCount(1)
            switch arguments.values[0] {
            case .null: return .null
            case .html: return arguments.values[0]
            default: return .html(BaseText.string(arguments.values[0]))
            }
        case "icon":
            try arguments.expectCount(1)
            if arguments.values[0].isNull { return .null }
            return .icon(try arguments.text(at: 0))
        case "image":
            try arguments.expectCount(1)
            return try image(arguments)
        case "link":
            try arguments.expectCount(1, 2)
            return try link(arguments, environment: environment)
        case "list":
            try arguments.expectCount(1)
            return .list(arguments.values[0].asList)
        case "max", "min":
            return try extreme(arguments, largest: name == "max", environment: environment)
        case "number":
            try arguments.expectCount(1)
            return try number(arguments, environment: environment)
        case "random":
            try arguments.expectCount(0)
            return .number(Double.random(in: 0..<1))
        default:
            return nil
        }
    }

    /// A link from link text: `[[target#subpath|display]]`, a web address, or a plain path (`Notes/A`,
    /// `A#Heading`), resolved from the vault root.
    static func parseLink(_ text: String, environment: BaseEnvironment) -> BaseLink {
        var body = Substring(text)
        if body.hasPrefix("![["), body.hasSuffix("]]") {
            body = body.dropFirst(3).dropLast(2)
        } else if body.hasPrefix("[["), body.hasSuffix("]]") {
            body = body.dropFirst(2).dropLast(2)
        }
        var display: String?
        if let bar = body.firstIndex(of: "|"), text.hasSuffix("]]") {
            display = String(body[body.index(after: bar)...])
            body = body[..<bar]
        }
        var link = BaseLink(target: String(body), display: display)
        if link.isExternal { return link }
        if let hash = body.firstIndex(of: "#") {
            link.target = String(body[..<hash])
            link.subpath = String(body[body.index(after: hash)...])
        }
        if !link.target.isEmpty {
            link.resolvedPath = environment.vault.resolve(link.target, from: "")
        }
        return link
    }

    /// The vault file a link resolves to, if it exists.
    static func file(of link: BaseLink, environment: BaseEnvironment) -> BaseFileReference? {
        if link.isExternal { return nil }
        guard let path = link.resolvedPath ?? environment.vault.resolve(link.target, from: ""),
              environment.vault.facts(ofPath: path) != nil else { return nil }
        return BaseFileReference(path: path)
    }

    private static func escapeHTML(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }

    private static func file(_ arguments: BaseArguments, environment: BaseEnvironment) throws(BaseEvaluationError) -> BaseValue {
        let vault = environment.vault
        switch arguments.values[0] {
        case .null: return .null
        case .file(let file): return vault.facts(ofPath: file.path) == nil ? .null : .file(file)
        case .link(let link): return file(of: link, environment: environment).map(BaseValue.file) ?? .null
        case .string(let text):
            if text.hasPrefix("[[") || text.hasPrefix("![[") {
                return file(of: parseLink(text, environment: environment), environment: environment).map(BaseValue.file) ?? .null
            }
            if vault.facts(ofPath: text) != nil { return .file(BaseFileReference(path: text)) }
            return file(of: parseLink(text, environment: environment), environment: environment).map(BaseValue.file) ?? .null
        default:
            throw arguments.mismatch(at: 0, expected: "a path, a link or a file")
        }
    }

    private static func image(_ arguments: BaseArguments) throws(BaseEvaluationError) -> BaseValue {
        switch arguments.values[0] {
        case .null: return .null
        case .image: return arguments.values[0]
        case .string(let text): return .image(text)
        case .file(let file): return .image(file.path)
        case .link(let link): return .image(link.resolvedPath ?? link.target)
        default: throw arguments.mismatch(at: 0, expected: "a path, a web address, a link or a file")
        }
    }

    private static func link(_ arguments: BaseArguments, environment: BaseEnvironment) throws(BaseEvaluationError) -> BaseValue {
        var link: BaseLink
        switch arguments.values[0] {
        case .null: return .null
        case .link(let existing): link = existing
        case .file(let file): link = BaseLink.to(file)
        case .string, .number, .boolean: link = parseLink(try arguments.text(at: 0), environment: environment)
        default: throw arguments.mismatch(at: 0, expected: "a path or a file")
        }
        if arguments.count > 1, !arguments.values[1].isNull {
            // An `icon()` as display text keeps its name: a link holds its display as text.
            link.display = BaseText.string(arguments.values[1])
        }
        return .link(link)
    }

    private static func extreme(_ arguments: BaseArguments, largest: Bool, environment: BaseEnvironment) throws(BaseEvaluationError) -> BaseValue {
        var best: BaseValue?
        var bestKey = 0.0
        var sawDate = false, sawNumber = false
        for (index, value) in arguments.values.enumerated() {
            let key: Double
            switch value {
            case .null: continue
            case .number(let number):
                key = number
                sawNumber = true
            case .date(let date):
                key = BaseDates.epochMilliseconds(of: date, timeZone: environment.timeZone)
                sawDate = true
            case .string(let text):
                guard let number = BaseText.number(fromText: text) else { throw arguments.mismatch(at: index, expected: "a number") }
                key = number
                sawNumber = true
            default:
                throw arguments.mismatch(at: index, expected: "a number")
            }
            if sawDate && sawNumber {
                throw BaseEvaluationError("`\(arguments.name)` expects all numbers or all dates, not both")
            }
            if key.isNaN { return .number(.nan) }
            if best == nil || (largest ? key > bestKey : key < bestKey) {
                best = value
                bestKey = key
            }
        }
        guard let best else { return .null }
        if case .string = best { return .number(bestKey) }
        return best
    }

    private static func number(_ arguments: BaseArguments, environment: BaseEnvironment) throws(BaseEvaluationError) -> BaseValue {
        switch arguments.values[0] {
        case .null: return .null
        case .number: return arguments.values[0]
        case .boolean(let flag): return .number(flag ? 1 : 0)
        case .date(let date): return .number(BaseDates.epochMilliseconds(of: date, timeZone: environment.timeZone))
        case .duration(let duration): return .number(duration.totalMilliseconds)
        case .string(let text):
            guard let number = BaseText.number(fromText: text) else {
                throw BaseEvaluationError("`number` cannot read \(BaseText.described(arguments.values[0])) as a number")
            }
            return .number(number)
        default:
            throw arguments.mismatch(at: 0, expected: "text, a number, a boolean or a date")
        }
    }
}
