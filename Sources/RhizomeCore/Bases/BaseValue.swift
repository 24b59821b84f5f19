import Foundation

/// A value of the Bases language (Obsidian's `.base` filters and formulas): what properties hold and what
/// expressions evaluate to.
///
/// Obsidian's help says the functions "follow JavaScript behavior"; where it is silent this type does
/// what JavaScript does (truthiness, `toString`, loose `==` between numbers and text). Dates and durations
/// reuse Dataview's calendar types, which already do month arithmetic and time zones.
public enum BaseValue: Sendable {
    case null
    case boolean(Bool)
    case number(Double)
    case string(String)
    /// A date (`hasTime == false`: `today()`, a `date` property) or a date and time (`now()`, `file.mtime`).
    case date(DataviewDate)
    case duration(DataviewDuration)
    case list([BaseValue])
    case object(BaseObject)
    case link(BaseLink)
    /// A file of the vault, by path: `file`, `this`, `link.asFile()`, `file("path")`.
    case file(BaseFileReference)
    case regex(BaseRegex)
    /// `html()`, `icon()`, `image()`: values a view renders; here they carry their text.
    case html(String)
    case icon(String)
    case image(String)

    /// The names `isType()` accepts and errors use.
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .boolean: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .date: return "date"
        case .duration: return "duration"
        case .list: return "list"
        case .object: return "object"
        case .link: return "link"
        case .file: return "file"
        case .regex: return "regexp"
        case .html: return "html"
        case .icon: return "icon"
        case .image: return "image"
        }
    }

    /// JavaScript truthiness: `null`, `false`, `0`, `NaN` and `""` are false. An empty list is true in
    /// JavaScript, but Bases filters treat an empty list or object as empty (`isEmpty()`), so `if(tags, …)`
    /// on `tags: []` is false here, as in Obsidian.
    public var isTruthy: Bool {
        switch self {
        case .null: return false
        case .boolean(let flag): return flag
        case .number(let number): return number != 0 && !number.isNaN
        case .string(let text): return !text.isEmpty
        case .list(let items): return !items.isEmpty
        case .object(let object): return !object.isEmpty
        case .duration(let duration): return duration.totalMilliseconds != 0
        case .date, .link, .file, .regex, .html, .icon, .image: return true
        }
    }

    /// True for what the `Empty` summary and `isEmpty()` count as empty: null, `""`, an empty list or object.
    public var isEmpty: Bool {
        switch self {
        case .null: return true
        case .string(let text): return text.isEmpty
        case .list(let items): return items.isEmpty
        case .object(let object): return object.isEmpty
        default: return false
        }
    }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The elements of a list; any other value as a one-element list; `null` as an empty list (`list()`).
    public var asList: [BaseValue] {
        switch self {
        case .list(let items): return items
        case .null: return []
        default: return [self]
        }
    }
}

/// An ordered map: a frontmatter object or `{a: 1}` literal, keys in the order written.
public struct BaseObject: Sendable {
    public private(set) var entries: [(key: String, value: BaseValue)]

    public init(_ entries: [(key: String, value: BaseValue)] = []) {
        self.entries = entries
    }

    public var isEmpty: Bool { entries.isEmpty }
    public var keys: [String] { entries.map(\.key) }
    public var values: [BaseValue] { entries.map(\.value) }

    public subscript(key: String) -> BaseValue? {
        get { entries.first { $0.key == key }?.value }
        set {
            if let index = entries.firstIndex(where: { $0.key == key }) {
                if let newValue { entries[index].value = newValue } else { entries.remove(at: index) }
            } else if let newValue {
                entries.append((key, newValue))
            }
        }
    }
}

/// A link value: a `[[…]]` in a property, `link("path")`, `file.asLink()`, an entry of `file.links`.
/// `target` is the link path as written (no `#subpath`, no `|display`); `resolvedPath` is the vault file it
/// resolves to from where it was written, nil when it does not resolve (or is a web address).
public struct BaseLink: Sendable {
    public var target: String
    public var subpath: String?
    public var display: String?
    public var resolvedPath: String?

    public init(target: String, subpath: String? = nil, display: String? = nil, resolvedPath: String? = nil) {
        self.target = target
        self.subpath = subpath
        self.display = display
        self.resolvedPath = resolvedPath
    }

    /// A link to a vault file, written as Obsidian writes one: the path, without `.md` for notes.
    public static func to(_ file: BaseFileReference, display: String? = nil) -> BaseLink {
        let target = file.path.hasSuffix(".md") ? String(file.path.dropLast(3)) : file.path
        return BaseLink(target: target, display: display, resolvedPath: file.path)
    }

    /// True for `https://…` and other URLs, which never resolve to a vault file.
    public var isExternal: Bool {
        guard let colon = target.firstIndex(of: ":") else { return false }
        let scheme = target[..<colon]
        return !scheme.isEmpty && scheme.count > 1 && scheme.allSatisfy { $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }
    }

    /// The text a table shows: the display text, else the target (with its subpath).
    public var shownText: String {
        if let display { return display }
        if let subpath { return target + "#" + subpath }
        return target
    }
}

/// A vault file by its path (`Folder/Note.md`); its facts come from the `BaseVault` being evaluated.
public struct BaseFileReference: Sendable, Hashable {
    public var path: String

    public init(path: String) {
        self.path = path
    }
}

/// A regular expression literal `/pattern/flags` (JavaScript syntax; compiled with NSRegularExpression).
public struct BaseRegex: @unchecked Sendable {  // NSRegularExpression is not marked Sendable on every platform
    public var pattern: String
    public var flags: String
    /// NSRegularExpression is immutable and documented thread-safe.
    public let compiled: NSRegularExpression

    public init(pattern: String, flags: String) throws(BaseEvaluationError) {
        self.pattern = pattern
        self.flags = flags
        var options: NSRegularExpression.Options = []
        for flag in flags {
            switch flag {
            case "i": options.insert(.caseInsensitive)
            case "m": options.insert(.anchorsMatchLines)
            case "s": options.insert(.dotMatchesLineSeparators)
            case "g", "u", "y", "d", "v": break
            default: throw BaseEvaluationError("unknown regular expression flag `\(flag)` in /\(pattern)/\(flags)")
            }
        }
        do {
            compiled = try NSRegularExpression(pattern: pattern, options: options)
        } catch {
            throw BaseEvaluationError("invalid regular expression /\(pattern)/: check its brackets and escapes")
        }
    }

    /// The `g` flag: `replace` replaces every match, not only the first.
    public var isGlobal: Bool { flags.contains("g") }
}

/// What went wrong evaluating an expression; `range` is where in the expression (character offsets), when
/// known. The evaluator adds the range of the call or operator that failed.
public struct BaseEvaluationError: Error, Sendable, Equatable {
    public var message: String
    public var range: Range<Int>?
    /// The expression nests deeper than Rhizome parses or evaluates (`base-too-deep`).
    public var isDepthLimit: Bool

    public init(_ message: String, range: Range<Int>? = nil, isDepthLimit: Bool = false) {
        self.message = message
        self.range = range
        self.isDepthLimit = isDepthLimit
    }
}
