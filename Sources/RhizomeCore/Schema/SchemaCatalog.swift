/// The schemas in effect for a vault: the built-in set, overridden and extended by the vault's own
/// folder, plus the vault config. Decides which type a note has.
public struct SchemaCatalog: Sendable {
    public let config: VaultConfig
    /// Sorted by type.
    public let schemas: [NoteSchema]
    /// Changes whenever a schema file or the config changes: stored validation results are only
    /// reused while it stays the same.
    public let fingerprint: String
    private let indexByType: [String: Int]
    private let indexByMatchValue: [String: Int]

    public init(schemas: [NoteSchema], config: VaultConfig, fingerprint: String) {
        self.schemas = schemas.map { $0.withTypeKey(config.typeKey) }.sorted { $0.type < $1.type }
        self.config = config
        self.fingerprint = fingerprint
        var byType: [String: Int] = [:]
        var byValue: [String: Int] = [:]
        for (index, schema) in self.schemas.enumerated() { byType[schema.type] = index }
        // A vault's own schemas claim their values first (as they do for paths); `load` refuses two
        // schemas of the same origin claiming one value.
        for (index, schema) in self.schemas.enumerated().sorted(by: { !$0.element.isBuiltIn && $1.element.isBuiltIn }) {
            for value in schema.matchValues where byValue[value] == nil { byValue[value] = index }
        }
        indexByType = byType
        indexByMatchValue = byValue
    }

    /// The built-in schemas alone, with the default config (no vault).
    public static func builtIn() throws(SchemaError) -> SchemaCatalog {
        var fingerprintInput = "checker \(NoteChecker.version)\u{0}"
        let schemas = try loadBuiltIns(fingerprintInput: &fingerprintInput)
        return SchemaCatalog(schemas: Array(schemas.values), config: VaultConfig(), fingerprint: fingerprint(of: fingerprintInput))
    }

    /// Loads the config, the built-in schemas and the vault's schema folder.
    public static func load(vaultRoot: String) throws(SchemaError) -> SchemaCatalog {
        let config = try VaultConfig.load(vaultRoot: vaultRoot)
        var fingerprintInput = "checker \(NoteChecker.version)\u{0}config\u{0}" + (config.sourceText ?? "") + "\u{0}"
        var schemas = try loadBuiltIns(fingerprintInput: &fingerprintInput)
        let folder = vaultRoot + "/" + config.schemaFolder
        if config.schemaFolderIsExplicit, !FileSystemEntry.isDirectory(folder) {
            throw SchemaError(
                .invalidConfig, file: VaultConfig.relativePath,
                message: "the schema folder `\(config.schemaFolder)` named by `schemas:` does not exist",
                fix: "create it, or correct the name (the default is `.rhizome/schemas`)")
        }
        var vaultTypes: [String: String] = [:]
        for name in try SchemaFileAccess.schemaFileNames(in: folder) {
            let path = folder + "/" + name
            guard let text = try SchemaFileAccess.readIfPresent(path) else { continue }
            let relative = config.schemaFolder + "/" + name
            let schema = try NoteSchema.load(text: text, file: relative, isBuiltIn: false)
            if let other = vaultTypes[schema.type] {
                throw SchemaError(
                    .duplicateType, file: relative, line: 1,
                    message: "the type `\(schema.type)` is also declared by \(other)", fix: "remove or rename one of the two files")
            }
            vaultTypes[schema.type] = relative
            schemas[schema.type] = schema
            fingerprintInput += relative + "\u{0}" + text + "\u{0}"
        }
        try checkMatchValues(Array(schemas.values))
        for (value, type) in config.typeMappings.sorted(by: { $0.key < $1.key }) where schemas[type] == nil {
            throw SchemaError(
                .invalidConfig, file: VaultConfig.relativePath,
                message: "`types` maps `\(value)` to `\(type)`, which no schema defines",
                fix: "map it to one of " + schemas.keys.sorted().joined(separator: ", ") + ", or add the schema")
        }
        for schema in schemas.values.sorted(by: { $0.type < $1.type }) {
            for (key, target) in schema.references {
                guard let target, schemas[target] == nil else { continue }
                throw SchemaError(
                    .invalidSchema, file: schema.source,
                    message: "the reference field `\(key)` points at the type `\(target)`, which no schema defines",
                    fix: "use one of " + schemas.keys.sorted().joined(separator: ", ") + ", or `any`")
            }
        }
        return SchemaCatalog(schemas: Array(schemas.values), config: config, fingerprint: fingerprint(of: fingerprintInput))
    }

    /// Two vault schemas claiming the same `type:` value (or a value that is another vault type's name)
    /// would make a note's type depend on file names: refused.
    private static func checkMatchValues(_ schemas: [NoteSchema]) throws(SchemaError) {
        let vaultSchemas = schemas.filter { !$0.isBuiltIn }.sorted { $0.type < $1.type }
        var claimed: [String: NoteSchema] = [:]
        for schema in vaultSchemas { claimed[schema.type] = schema }
        for schema in vaultSchemas {
            for value in schema.matchValues {
                if let other = claimed[value], other.type != schema.type {
                    throw SchemaError(
                        .duplicateType, file: schema.source, line: 1,
                        message: "`match.values` lists `\(value)`, which already means the type `\(other.type)` (\(other.source))",
                        fix: "remove `\(value)` from one of the two schemas")
                }
                claimed[value] = schema
            }
        }
    }

    private static func loadBuiltIns(fingerprintInput: inout String) throws(SchemaError) -> [String: NoteSchema] {
        var schemas: [String: NoteSchema] = [:]
        for file in BuiltInSchemaFiles.files {
            let schema = try NoteSchema.load(text: file.text, file: "built-in:" + file.name, isBuiltIn: true)
            schemas[schema.type] = schema
            fingerprintInput += file.name + "\u{0}" + file.text + "\u{0}"
        }
        return schemas
    }

    private static func fingerprint(of input: String) -> String {
        String(ContentHash.hex(of: Array(input.utf8)).prefix(16))
    }

    public func schema(forType type: String) -> NoteSchema? {
        indexByType[type].map { schemas[$0] }
    }

    /// The schema a `type:` value means: the config's mapping, a type's name, or one of its `match.values`.
    public func schema(forTypeValue value: String) -> NoteSchema? {
        let mapped = config.typeMappings[value] ?? value
        if let index = indexByType[mapped] ?? indexByMatchValue[mapped] { return schemas[index] }
        return nil
    }

    /// How a note is typed: by its `type:` property (or the config's `typeKey`) when that is one text value, else by the first schema
    /// whose `match.paths` matches its path (vault schemas before built-in ones, then by type name). A
    /// `type:` that is a list, a number or a mapping names no Rhizome type (vaults use the key for their own
    /// purposes, e.g. `type: ["[[Cities]]"]`): the note is typed as if it had none, and `untypedValue` says so.
    public func classify(_ frontmatter: Frontmatter?, path: String) -> NoteTyping {
        var untypedValue: FrontmatterNode? = nil
        if let node = frontmatter?[config.typeKey], node.value != .null, node.value != .string("") {
            if let value = node.value.scalarText, case .string = node.value {
                return NoteTyping(declaredType: value, declaredNode: node, schema: schema(forTypeValue: value), matchedBy: .typeProperty)
            }
            untypedValue = node
        }
        for schema in schemas.filter({ !$0.isBuiltIn }) + schemas.filter(\.isBuiltIn)
        where schema.matchPaths.contains(where: { $0.matches(path) }) {
            return NoteTyping(declaredType: nil, declaredNode: nil, schema: schema, matchedBy: .path, untypedValue: untypedValue)
        }
        return NoteTyping(declaredType: nil, declaredNode: nil, schema: nil, matchedBy: .none, untypedValue: untypedValue)
    }
}

/// Which type a note has, and why.
public struct NoteTyping: Sendable {
    public enum Reason: String, Sendable {
        case typeProperty = "type-property", path, none
    }

    /// The note's `type:` value, if it has one.
    public var declaredType: String?
    public var declaredNode: FrontmatterNode?
    /// The schema it is checked against; nil for an unknown or absent type.
    public var schema: NoteSchema?
    public var matchedBy: Reason
    /// A `type:` value that is not one text value, so names no type (the note is typed as if it had none).
    public var untypedValue: FrontmatterNode? = nil
}
