/// The names of the Bases functions, as Obsidian's help lists them ("Functions"), by the type they work
/// on. A base is checked against this list before it runs, so an unknown function is reported with its
/// location (and the nearest known name) instead of failing on the first row that reaches it.
public enum BaseFunctionNames {
    public static let global: Set<String> = [
        "escapeHTML", "date", "duration", "file", "html", "if", "image", "icon", "link", "list", "max", "min",
        "now", "number", "today", "random",
    ]

    public static let methodsByType: [String: Set<String>] = [
        "any": ["isTruthy", "isType", "toString"],
        "date": ["date", "format", "time", "relative", "isEmpty"],
        "string": [
            "contains", "containsAll", "containsAny", "endsWith", "isEmpty", "lower", "replace", "repeat", "reverse",
            "slice", "split", "startsWith", "title", "trim",
        ],
        "number": ["abs", "ceil", "floor", "isEmpty", "round", "toFixed"],
        "list": [
            "contains", "containsAll", "containsAny", "filter", "flat", "isEmpty", "join", "map", "reduce", "reverse",
            "slice", "sort", "unique",
            // Not on the help's page, but its own custom summary example calls `values.mean()`.
            "mean", "median", "stddev", "sum", "min", "max",
        ],
        "link": ["asFile", "linksTo"],
        "file": ["asLink", "hasLink", "hasProperty", "hasTag", "inFolder"],
        "object": ["isEmpty", "keys", "values"],
        "regexp": ["matches"],
    ]

    /// Every method name of any type.
    public static let methods: Set<String> = methodsByType.values.reduce(into: Set<String>()) { $0.formUnion($1) }

    static func unknownFunctionMessage(_ name: String) -> String {
        var message = "unknown function `\(name)()`"
        if methods.contains(name) {
            message += ": `\(name)` is called on a value, like `value.\(name)(…)`"
        } else if let nearest = NearestName.nearest(name, among: global.sorted()) {
            message += ": did you mean `\(nearest)()`?"
        } else {
            message += ": see the functions Obsidian's help lists under Bases > Functions"
        }
        return message
    }

    static func unknownMethodMessage(_ name: String, on receiver: BaseValue) -> String {
        let type = receiver.typeName
        var message = "a \(type) has no function `\(name)()`"
        let ownNames = (methodsByType[type] ?? []).union(methodsByType["any"] ?? [])
        if let nearest = NearestName.nearest(name, among: ownNames.sorted()) {
            message += ": did you mean `\(nearest)()`?"
        } else if let owners = owners(of: name) {
            message += ": it works on \(owners)"
        }
        return message
    }

    /// Where a name is not a function at all (checked before running): the message, or nil if it is known.
    static func unknownNameMessage(_ name: String, isMethod: Bool) -> String? {
        if isMethod {
            guard !methods.contains(name) else { return nil }
            var message = "unknown function `.\(name)()`"
            if let nearest = NearestName.nearest(name, among: methods.sorted()) { message += ": did you mean `.\(nearest)()`?" }
            return message
        }
        guard !global.contains(name) else { return nil }
        return unknownFunctionMessage(name)
    }

    private static func owners(of name: String) -> String? {
        let types = methodsByType.filter { $0.value.contains(name) }.keys.sorted()
        return types.isEmpty ? nil : types.joined(separator: ", ") + " values"
    }
}
