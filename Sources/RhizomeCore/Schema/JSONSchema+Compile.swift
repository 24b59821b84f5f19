/// Compiling a JSON Schema from its parsed YAML/JSON node, with the file and line of every problem.
extension JSONSchema {
    /// The keywords Rhizome validates with.
    static let supportedKeywords: Set<String> = [
        "type", "enum", "const", "required", "properties", "additionalProperties", "items", "minItems", "maxItems",
        "uniqueItems", "minLength", "maxLength", "pattern", "minimum", "maximum", "format", "default", "description",
        "$defs", "$ref",
    ]
    /// Annotations that change nothing; accepted so that schemas written for other tools load.
    static let annotationKeywords: Set<String> = ["$schema", "$comment", "title", "examples", "deprecated"]

    /// Compiles the schema at `node` (the value of a schema file's `frontmatter` key).
    static func compile(_ node: FrontmatterNode, file: String) throws(SchemaError) -> JSONSchema {
        let definitions = Definitions()
        let root = try compile(node, file: file, definitions: definitions, isRoot: true)
        for node in [root] + definitions.entries.values.sorted(by: { $0.line < $1.line }) {
            try checkReferences(node, file: file, definitions: definitions, seen: [])
            // A chain of references that comes back to itself would check nothing.
            var visited = Set<ObjectIdentifier>()
            var current = node
            while let reference = current.reference, let target = definitions.lookup(reference) {
                guard visited.insert(ObjectIdentifier(current)).inserted else {
                    throw SchemaError(
                        .unresolvedReference, file: file, line: node.line,
                        message: "`$ref: \(reference)` leads in a circle of references that never reaches a definition with keywords",
                        fix: "make one of the definitions in the circle a real schema")
                }
                current = target
            }
        }
        return root
    }

    private static func compile(
        _ node: FrontmatterNode, file: String, definitions: Definitions, isRoot: Bool
    ) throws(SchemaError) -> JSONSchema {
        let reader = SchemaNodeReader(file: file)
        let entries = try reader.mapping(node, what: "a schema")
        for entry in entries where !supportedKeywords.contains(entry.key) && !annotationKeywords.contains(entry.key) {
            throw SchemaError(
                .unsupportedKeyword, file: file, line: entry.keyLine, column: entry.keyColumn,
                message: "the JSON Schema keyword `\(entry.key)` is not supported by Rhizome",
                fix: "use only: " + supportedKeywords.sorted().joined(separator: ", "))
        }
        func value(_ key: String) -> FrontmatterEntry? { entries.last { $0.key == key } }

        if let defs = value("$defs") {
            guard isRoot else {
                throw SchemaError(
                    .invalidSchema, file: file, line: defs.keyLine, column: defs.keyColumn,
                    message: "`$defs` is only supported at the top of `frontmatter`", fix: "move the definition up")
            }
            for entry in try reader.mapping(defs.value, what: "`$defs`") {
                definitions.entries[entry.key] = try compile(entry.value, file: file, definitions: definitions, isRoot: false)
            }
        }
        var types: [ValueType]? = nil
        if let entry = value("type") {
            let names: [FrontmatterNode]
            if case .list(let items) = entry.value.value { names = items } else { names = [entry.value] }
            types = try names.map { (name: FrontmatterNode) throws(SchemaError) -> ValueType in
                // An unquoted `null` in YAML is the null value, not the string: accept both.
                let text = name.value == .null ? "null" : name.value.scalarText ?? ""
                guard let type = ValueType(rawValue: text) else {
                    throw SchemaError(
                        .invalidSchema, file: file, line: name.line, column: name.column,
                        message: "`\(text)` is not a JSON Schema type",
                        fix: "use one of " + ValueType.allCases.map(\.rawValue).joined(separator: ", "))
                }
                return type
            }
        }
        var enumValues: [FrontmatterValue]? = nil
        if let entry = value("enum") {
            guard case .list(let items) = entry.value.value, !items.isEmpty else {
                throw reader.wrongShape(entry, expected: "a non-empty list of allowed values")
            }
            enumValues = items.map(\.value)
        }
        var properties: [(name: String, schema: JSONSchema)] = []
        if let entry = value("properties") {
            for property in try reader.mapping(entry.value, what: "`properties`") {
                properties.append((property.key, try compile(property.value, file: file, definitions: definitions, isRoot: false)))
            }
        }
        var additional = AdditionalProperties.allowed
        if let entry = value("additionalProperties") {
            switch entry.value.value {
            case .bool(let allowed): additional = allowed ? .allowed : .forbidden
            case .map: additional = .schema(try compile(entry.value, file: file, definitions: definitions, isRoot: false))
            default: throw reader.wrongShape(entry, expected: "true, false or a schema")
            }
        }
        var items: JSONSchema? = nil
        if let entry = value("items") {
            items = try compile(entry.value, file: file, definitions: definitions, isRoot: false)
        }
        var pattern: Pattern? = nil
        if let entry = value("pattern") {
            let source = try reader.string(entry)
            guard let compiled = Pattern(source) else {
                throw SchemaError(
                    .invalidSchema, file: file, line: entry.value.line, column: entry.value.column,
                    message: "`\(source)` is not a valid regular expression", fix: "check the pattern's brackets and escapes")
            }
            pattern = compiled
        }
        var format: Format? = nil
        if let entry = value("format") {
            let name = try reader.string(entry)
            guard let known = Format(rawValue: name) else {
                throw SchemaError(
                    .unsupportedKeyword, file: file, line: entry.value.line, column: entry.value.column,
                    message: "the format `\(name)` is not supported",
                    fix: "use one of " + Format.allCases.map(\.rawValue).joined(separator: ", "))
            }
            format = known
        }
        var reference: String? = nil
        if let entry = value("$ref") {
            let target = try reader.string(entry)
            guard target.hasPrefix("#/$defs/") else {
                throw SchemaError(
                    .unresolvedReference, file: file, line: entry.value.line, column: entry.value.column,
                    message: "`$ref: \(target)` is not a local reference", fix: "define it under `$defs` and refer to it as `#/$defs/NAME`")
            }
            reference = target
            // Validation keywords beside `$ref` would apply together with the definition in JSON Schema
            // 2020-12; Rhizome follows the reference alone, so it refuses them rather than ignore them.
            let besideReference: Set<String> = ["$ref", "$defs", "default", "description"]
            if let other = entries.first(where: { !besideReference.contains($0.key) && !annotationKeywords.contains($0.key) }) {
                throw SchemaError(
                    .unsupportedKeyword, file: file, line: other.keyLine, column: other.keyColumn,
                    message: "`\(other.key)` beside `$ref` is not supported (only `default` and `description` may stand beside it)",
                    fix: "move `\(other.key)` into the definition `\(target)`, or make a new definition")
            }
        }
        return JSONSchema(
            types: types, enumValues: enumValues, constValue: value("const")?.value.value,
            required: try value("required").map { (entry: FrontmatterEntry) throws(SchemaError) in try reader.stringList(entry) } ?? [],
            properties: properties, additionalProperties: additional, items: items,
            minItems: try value("minItems").map { (entry: FrontmatterEntry) throws(SchemaError) in try reader.count(entry) },
            maxItems: try value("maxItems").map { (entry: FrontmatterEntry) throws(SchemaError) in try reader.count(entry) },
            uniqueItems: try value("uniqueItems").map { (entry: FrontmatterEntry) throws(SchemaError) in try reader.bool(entry) } ?? false,
            minLength: try value("minLength").map { (entry: FrontmatterEntry) throws(SchemaError) in try reader.count(entry) },
            maxLength: try value("maxLength").map { (entry: FrontmatterEntry) throws(SchemaError) in try reader.count(entry) },
            pattern: pattern,
            minimum: try value("minimum").map { (entry: FrontmatterEntry) throws(SchemaError) in try reader.number(entry) },
            maximum: try value("maximum").map { (entry: FrontmatterEntry) throws(SchemaError) in try reader.number(entry) },
            format: format, defaultValue: value("default")?.value.value,
            description: try value("description").map { (entry: FrontmatterEntry) throws(SchemaError) in try reader.string(entry) },
            reference: reference, definitions: definitions, line: node.line)
    }

    /// Every `$ref` must name a definition.
    private static func checkReferences(_ node: JSONSchema, file: String, definitions: Definitions, seen: Set<ObjectIdentifier>) throws(SchemaError) {
        guard !seen.contains(ObjectIdentifier(node)) else { return }
        let seen = seen.union([ObjectIdentifier(node)])
        if let reference = node.reference, definitions.lookup(reference) == nil {
            throw SchemaError(
                .unresolvedReference, file: file, line: node.line,
                message: "`$ref: \(reference)` names no entry of `$defs`",
                fix: "add it under `$defs` or correct the name (defined: \(definitions.entries.keys.sorted().joined(separator: ", ")))")
        }
        for child in node.properties.map(\.schema) + [node.items].compactMap({ $0 }) {
            try checkReferences(child, file: file, definitions: definitions, seen: seen)
        }
        if case .schema(let child) = node.additionalProperties {
            try checkReferences(child, file: file, definitions: definitions, seen: seen)
        }
    }
}

/// Reads the typed pieces of a schema document, failing with the file, line and what was expected.
struct SchemaNodeReader {
    let file: String

    func mapping(_ node: FrontmatterNode, what: String) throws(SchemaError) -> [FrontmatterEntry] {
        guard case .map(let entries) = node.value else {
            throw SchemaError(
                .invalidSchema, file: file, line: node.line, column: node.column,
                message: "\(what) must be a mapping of `key: value` lines, not a \(node.value.typeName)")
        }
        return entries
    }

    func wrongShape(_ entry: FrontmatterEntry, expected: String) -> SchemaError {
        SchemaError(
            .invalidSchema, file: file, line: entry.value.line, column: entry.value.column,
            message: "`\(entry.key)` must be \(expected), not a \(entry.value.value.typeName)")
    }

    func string(_ entry: FrontmatterEntry) throws(SchemaError) -> String {
        switch entry.value.value {
        case .string(let text), .date(let text): return text
        default: throw wrongShape(entry, expected: "a string")
        }
    }

    func stringList(_ entry: FrontmatterEntry) throws(SchemaError) -> [String] {
        guard case .list(let items) = entry.value.value else { throw wrongShape(entry, expected: "a list of strings") }
        return try items.map { (item: FrontmatterNode) throws(SchemaError) -> String in
            guard let text = item.value.scalarText, item.value != .null else {
                throw SchemaError(.invalidSchema, file: file, line: item.line, column: item.column, message: "`\(entry.key)` items must be strings")
            }
            return text
        }
    }

    func count(_ entry: FrontmatterEntry) throws(SchemaError) -> Int {
        guard case .number(let value, _) = entry.value.value, value >= 0, value.rounded() == value, value < 1e9 else {
            throw wrongShape(entry, expected: "a whole number ≥ 0")
        }
        return Int(value)
    }

    func number(_ entry: FrontmatterEntry) throws(SchemaError) -> Double {
        guard case .number(let value, _) = entry.value.value else { throw wrongShape(entry, expected: "a number") }
        return value
    }

    func bool(_ entry: FrontmatterEntry) throws(SchemaError) -> Bool {
        guard case .bool(let value) = entry.value.value else { throw wrongShape(entry, expected: "true or false") }
        return value
    }
}
