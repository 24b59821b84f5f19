/// The `schema --json` form of a type (version 1 of this shape: fields are only ever added).
public struct SchemaDescription: Encodable, Sendable {
    public struct Match: Encodable, Sendable {
        public var values: [String]
        public var paths: [String]
    }

    public struct ID: Encodable, Sendable {
        public var field: String
        @NullEncoded public var infer: String?
        public var mustMatch: Bool

        private enum CodingKeys: String, CodingKey { case field, infer, mustMatch }
    }

    public struct Field: Encodable, Sendable {
        public var name: String
        public var required: Bool
        public var types: [String]
        @NullEncoded public var itemTypes: [String]?
        @NullEncoded public var description: String?
        @NullEncoded public var defaultValue: String?
        @NullEncoded public var allowedValues: [String]?
        @NullEncoded public var format: String?
        @NullEncoded public var pattern: String?
        public var limits: [String]
        @NullEncoded public var reference: String?

        private enum CodingKeys: String, CodingKey {
            case name, required, types, itemTypes, description, defaultValue, allowedValues, format, pattern, limits, reference
        }
    }

    public var type: String
    public var description: String
    public var source: String
    public var builtIn: Bool
    public var match: Match
    @NullEncoded public var id: ID?
    public var references: [String: String]
    public var keyOrder: [String]
    public var strict: Bool
    public var fields: [Field]

    private enum CodingKeys: String, CodingKey {
        case type, description, source, builtIn, match, id, references, keyOrder, strict, fields
    }

    public init(_ schema: NoteSchema) {
        type = schema.type
        description = schema.description
        source = schema.source
        builtIn = schema.isBuiltIn
        match = Match(values: schema.matchValues, paths: schema.matchPaths.map(\.pattern))
        id = schema.id.map { ID(field: $0.field, infer: $0.inferredFrom?.rawValue, mustMatch: $0.mustMatch) }
        references = Dictionary(schema.references.map { ($0.key, $0.targetType ?? "any") }, uniquingKeysWith: { first, _ in first })
        keyOrder = schema.keyOrder
        strict = schema.isStrict
        let root = schema.frontmatter.resolved
        fields = root.properties.map { name, property in
            let node = property.resolved
            var limits: [String] = []
            if let value = node.minLength { limits.append("at least \(value) character\(value == 1 ? "" : "s")") }
            if let value = node.maxLength { limits.append("at most \(value) character\(value == 1 ? "" : "s")") }
            if let value = node.minItems { limits.append("at least \(value) item\(value == 1 ? "" : "s")") }
            if let value = node.maxItems { limits.append("at most \(value) item\(value == 1 ? "" : "s")") }
            if node.uniqueItems { limits.append("no repeated items") }
            if let value = node.minimum { limits.append("≥ \(SchemaDescription.number(value))") }
            if let value = node.maximum { limits.append("≤ \(SchemaDescription.number(value))") }
            if let value = node.constValue?.scalarText { limits.append("always `\(value)`") }
            return Field(
                name: name, required: root.required.contains(name), types: node.types?.map(\.rawValue) ?? [],
                itemTypes: node.items?.resolved.types?.map(\.rawValue), description: property.effectiveDescription,
                defaultValue: property.effectiveDefault.map(SchemaDescription.text), allowedValues: node.enumValues?.map(SchemaDescription.text),
                format: node.format?.rawValue, pattern: node.pattern?.source, limits: limits,
                reference: schema.referenceTarget(name).map { $0 ?? "any" })
        }
        for name in root.required where !fields.contains(where: { $0.name == name }) {
            fields.append(Field(name: name, required: true, types: [], itemTypes: nil, description: nil, defaultValue: nil, allowedValues: nil, format: nil, pattern: nil, limits: [], reference: nil))
        }
    }

    static func text(_ value: FrontmatterValue) -> String {
        if let scalar = value.scalarText { return scalar }
        if case .list(let items) = value { return "[" + items.map { text($0.value) }.joined(separator: ", ") + "]" }
        return value.typeName
    }

    static func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
