import Foundation

/// A compiled JSON Schema node: the 2020-12 keywords Rhizome supports, checked against frontmatter values.
/// Built by `JSONSchema.compile`; a keyword outside the supported set is a `SchemaError`, never ignored.
public final class JSONSchema: Sendable {
    /// JSON's value types, as JSON Schema's `type` names them.
    public enum ValueType: String, Sendable, CaseIterable {
        case string, number, integer, boolean, array, object, null
    }

    /// The `format` values Rhizome checks.
    public enum Format: String, Sendable, CaseIterable {
        case date, dateTime = "date-time", email, uri
    }

    public enum AdditionalProperties: Sendable {
        case allowed
        /// `additionalProperties: false`: unknown keys are findings (strict mode).
        case forbidden
        case schema(JSONSchema)
    }

    public let types: [ValueType]?
    public let enumValues: [FrontmatterValue]?
    public let constValue: FrontmatterValue?
    public let required: [String]
    /// In the order the schema lists them.
    public let properties: [(name: String, schema: JSONSchema)]
    public let additionalProperties: AdditionalProperties
    public let items: JSONSchema?
    public let minItems: Int?
    public let maxItems: Int?
    public let uniqueItems: Bool
    public let minLength: Int?
    public let maxLength: Int?
    public let pattern: Pattern?
    public let minimum: Double?
    public let maximum: Double?
    public let format: Format?
    public let defaultValue: FrontmatterValue?
    public let description: String?
    /// `#/$defs/name`, resolved through `definitions` when validating.
    public let reference: String?
    /// The `$defs` of the document this node belongs to (shared by all of its nodes).
    let definitions: Definitions
    /// Where this node starts in its file.
    public let line: Int

    init(
        types: [ValueType]?, enumValues: [FrontmatterValue]?, constValue: FrontmatterValue?, required: [String],
        properties: [(name: String, schema: JSONSchema)], additionalProperties: AdditionalProperties, items: JSONSchema?,
        minItems: Int?, maxItems: Int?, uniqueItems: Bool, minLength: Int?, maxLength: Int?, pattern: Pattern?,
        minimum: Double?, maximum: Double?, format: Format?, defaultValue: FrontmatterValue?, description: String?,
        reference: String?, definitions: Definitions, line: Int
    ) {
        self.types = types
        self.enumValues = enumValues
        self.constValue = constValue
        self.required = required
        self.properties = properties
        self.additionalProperties = additionalProperties
        self.items = items
        self.minItems = minItems
        self.maxItems = maxItems
        self.uniqueItems = uniqueItems
        self.minLength = minLength
        self.maxLength = maxLength
        self.pattern = pattern
        self.minimum = minimum
        self.maximum = maximum
        self.format = format
        self.defaultValue = defaultValue
        self.description = description
        self.reference = reference
        self.definitions = definitions
        self.line = line
    }

    /// This object schema (its `$ref` followed) with property `old` called `new`, in `properties` and
    /// `required`; itself when it has no `old` or has a `new` already.
    func renamingProperty(_ old: String, to new: String) -> JSONSchema {
        let node = resolved
        guard node.property(old) != nil || node.required.contains(old), node.property(new) == nil, !node.required.contains(new) else { return self }
        return JSONSchema(
            types: node.types, enumValues: node.enumValues, constValue: node.constValue, required: node.required.map { $0 == old ? new : $0 },
            properties: node.properties.map { ($0.name == old ? new : $0.name, $0.schema) }, additionalProperties: node.additionalProperties,
            items: node.items, minItems: node.minItems, maxItems: node.maxItems, uniqueItems: node.uniqueItems, minLength: node.minLength,
            maxLength: node.maxLength, pattern: node.pattern, minimum: node.minimum, maximum: node.maximum, format: node.format,
            defaultValue: node.defaultValue ?? defaultValue, description: node.description ?? description, reference: nil,
            definitions: node.definitions, line: line)
    }

    /// The schema of property `name`, if the schema names it.
    public func property(_ name: String) -> JSONSchema? {
        properties.first { $0.name == name }?.schema
    }

    /// This node with a `$ref` followed (to a depth of 32, which stops reference cycles).
    public var resolved: JSONSchema {
        var node = self
        var depth = 0
        while let reference = node.reference, let target = definitions.lookup(reference), depth < 32 {
            node = target
            depth += 1
        }
        return node
    }

    /// The default written on this node, else on the definition its `$ref` names.
    public var effectiveDefault: FrontmatterValue? { defaultValue ?? resolved.defaultValue }

    /// The description written on this node, else on the definition its `$ref` names.
    public var effectiveDescription: String? { description ?? resolved.description }

    /// The value types this node accepts after following `$ref`; nil when any type is accepted.
    public var acceptedTypes: [ValueType]? { resolved.types }

    /// A compiled `pattern` (ECMA-262 style, run with ICU regular expressions).
    public final class Pattern: @unchecked Sendable {  // NSRegularExpression is not marked Sendable on every platform; `answers` is Locked
        public let source: String
        // NSRegularExpression is immutable and documented as safe to share between threads.
        private let expression: NSRegularExpression
        /// Answers already worked out, by the text's bytes (the expression sees `e\u{301}` and `é` apart, so
        /// must the table): the same values recur from note to note (tags above all), and a lookup costs a
        /// fraction of a regular-expression match. Emptied when it holds `cacheLimit`.
        private let answers = Locked<[ByteKey: Bool]>([:])
        static let cacheLimit = 4_096

        init?(_ source: String) {
            guard let expression = try? NSRegularExpression(pattern: source) else { return nil }
            self.source = source
            self.expression = expression
        }

        /// JSON Schema patterns are not anchored: a match anywhere counts.
        public func matches(_ text: String) -> Bool {
            let key = ByteKey(text)
            if let known = answers.withLock({ $0[key] }) { return known }
            let matched = expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
            answers.withLock { answers in
                if answers.count >= Self.cacheLimit { answers.removeAll(keepingCapacity: true) }
                answers[key] = matched
            }
            return matched
        }
    }

    /// The `$defs` table of one schema document, filled after its nodes are compiled.
    final class Definitions: @unchecked Sendable {  // written while compiling, on one thread; read-only after
        // Written only while compiling (single-threaded), read-only afterwards.
        var entries: [String: JSONSchema] = [:]

        func lookup(_ reference: String) -> JSONSchema? {
            guard reference.hasPrefix("#/$defs/") else { return nil }
            return entries[String(reference.dropFirst("#/$defs/".count))]
        }
    }
}
