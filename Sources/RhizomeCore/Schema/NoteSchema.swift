/// One note type's schema: how notes are matched to it, its id and reference fields, key order, how new
/// notes are scaffolded, and the JSON Schema its frontmatter must satisfy. The file format is described
/// in `Schemas/README.md`.
public struct NoteSchema: Sendable {
    /// The newest schema-file format this Rhizome reads.
    public static let supportedVersion = 1

    public enum IDSource: String, Sendable, CaseIterable {
        case fileName = "file-name", folderName = "folder-name", title
    }

    public struct IDRule: Sendable {
        /// The frontmatter key holding the id.
        public var field: String
        /// How `fix` and `new` infer a missing id.
        public var inferredFrom: IDSource?
        /// The id must equal the inferred value (a skill's `name` is its folder's name).
        public var mustMatch: Bool
    }

    public struct Scaffold: Sendable {
        public var folder: String?
        public var fileName: String?
        public var body: String?
    }

    public var type: String
    public var description: String
    /// Other `type:` values that mean this type.
    public var matchValues: [String]
    /// Globs for notes without a `type:` property.
    public var matchPaths: [PathGlob]
    public var id: IDRule?
    /// Reference fields and the type they must point at (nil: any type), in file order.
    public var references: [(key: String, targetType: String?)]
    public var keyOrder: [String]
    public var scaffold: Scaffold
    public var frontmatter: JSONSchema
    /// Where the schema came from: a file path, or `built-in:NAME`.
    public var source: String
    public var isBuiltIn: Bool

    /// The target type of reference field `key`, or nil when `key` is not a reference field.
    public func referenceTarget(_ key: String) -> String?? {
        references.first { $0.key == key }.map(\.targetType)
    }

    /// This schema in a vault whose type key is `key` (`typeKey: kind`): its `type` property, required
    /// entry and place in the key order are `key`'s. Unchanged when the schema describes `key` itself.
    public func withTypeKey(_ key: String) -> NoteSchema {
        guard key != "type", frontmatter.resolved.property(key) == nil, !keyOrder.contains(key) else { return self }
        var schema = self
        schema.frontmatter = frontmatter.renamingProperty("type", to: key)
        schema.keyOrder = keyOrder.map { $0 == "type" ? key : $0 }
        return schema
    }

    /// Whether unknown keys are reported (`additionalProperties: false`).
    public var isStrict: Bool {
        if case .forbidden = frontmatter.resolved.additionalProperties { return true }
        return false
    }
}

extension NoteSchema {
    static let topLevelKeys: [String] = [
        "version", "type", "description", "match", "id", "references", "keyOrder", "scaffold", "frontmatter",
    ]

    /// Parses and compiles one schema file's text. `file` names it in errors.
    public static func load(text: String, file: String, isBuiltIn: Bool) throws(SchemaError) -> NoteSchema {
        let root: FrontmatterNode
        switch YAMLParser.parse(text) {
        case .failure(let error):
            throw SchemaError(.invalidSchema, file: file, line: error.line, column: error.column, message: "invalid YAML: \(error.message)")
        case .success(nil):
            throw SchemaError(.invalidSchema, file: file, line: 1, column: 1, message: "the schema file is empty", fix: "see Schemas/README.md for the format")
        case .success(let node?):
            root = node
        }
        let reader = SchemaNodeReader(file: file)
        let entries = try reader.mapping(root, what: "a schema file")
        for entry in entries where !topLevelKeys.contains(entry.key) {
            throw SchemaError(
                .unsupportedKeyword, file: file, line: entry.keyLine, column: entry.keyColumn,
                message: "unknown schema key `\(entry.key)`",
                fix: "use only: " + topLevelKeys.joined(separator: ", ") + " (JSON Schema keywords belong under `frontmatter`)")
        }
        func entry(_ key: String) -> FrontmatterEntry? { entries.last { $0.key == key } }
        func requireEntry(_ key: String) throws(SchemaError) -> FrontmatterEntry {
            guard let found = entry(key) else {
                throw SchemaError(.invalidSchema, file: file, line: root.line, column: root.column, message: "the schema has no `\(key)`", fix: "add `\(key):`")
            }
            return found
        }

        if let versionEntry = entry("version") {
            let version = try reader.count(versionEntry)
            guard version <= supportedVersion else {
                throw SchemaError(
                    .newerVersion, file: file, line: versionEntry.value.line, column: versionEntry.value.column,
                    message: "schema format version \(version) is newer than this Rhizome understands (\(supportedVersion))",
                    fix: "update Rhizome, or write the schema in format version \(supportedVersion)")
            }
        }
        let typeEntry = try requireEntry("type")
        let type = try reader.string(typeEntry)
        guard isValidTypeName(type) else {
            throw SchemaError(
                .invalidSchema, file: file, line: typeEntry.value.line, column: typeEntry.value.column,
                message: "`\(type)` is not a valid type name", fix: "use lowercase letters, digits, `-` and `_`, starting with a letter or digit")
        }
        let description = try reader.string(try requireEntry("description"))

        var matchValues: [String] = []
        var matchPaths: [PathGlob] = []
        if let match = entry("match") {
            for part in try reader.mapping(match.value, what: "`match`") {
                switch part.key {
                case "values": matchValues = try reader.stringList(part)
                case "paths":
                    matchPaths = try reader.stringList(part).map(PathGlob.init)
                    if let bad = matchPaths.first(where: { $0.pattern.isEmpty || $0.pattern.hasPrefix("/") }) {
                        throw SchemaError(
                            .invalidSchema, file: file, line: part.value.line, column: part.value.column,
                            message: "`\(bad.pattern)` is not a vault-relative glob", fix: "write paths relative to the vault, like `Projects/**`")
                    }
                default:
                    throw SchemaError(.unsupportedKeyword, file: file, line: part.keyLine, column: part.keyColumn, message: "unknown key `match.\(part.key)`", fix: "use `values` or `paths`")
                }
            }
        }

        var idRule: IDRule? = nil
        if let id = entry("id") {
            var field: String? = nil
            var source: IDSource? = nil
            var mustMatch = false
            for part in try reader.mapping(id.value, what: "`id`") {
                switch part.key {
                case "field": field = try reader.string(part)
                case "infer":
                    let name = try reader.string(part)
                    guard let known = IDSource(rawValue: name) else {
                        throw SchemaError(
                            .invalidSchema, file: file, line: part.value.line, column: part.value.column,
                            message: "`id.infer: \(name)` is not known", fix: "use " + IDSource.allCases.map(\.rawValue).joined(separator: ", "))
                    }
                    source = known
                case "mustMatch": mustMatch = try reader.bool(part)
                default:
                    throw SchemaError(.unsupportedKeyword, file: file, line: part.keyLine, column: part.keyColumn, message: "unknown key `id.\(part.key)`", fix: "use `field`, `infer` or `mustMatch`")
                }
            }
            guard let field else {
                throw SchemaError(.invalidSchema, file: file, line: id.keyLine, column: id.keyColumn, message: "`id` needs a `field`", fix: "add `field: id` (the key that holds the note's id)")
            }
            if mustMatch && source == nil {
                throw SchemaError(.invalidSchema, file: file, line: id.keyLine, column: id.keyColumn, message: "`id.mustMatch` needs `id.infer` (what the id must match)")
            }
            idRule = IDRule(field: field, inferredFrom: source, mustMatch: mustMatch)
        }

        var references: [(key: String, targetType: String?)] = []
        if let referencesEntry = entry("references") {
            for part in try reader.mapping(referencesEntry.value, what: "`references`") {
                let target = try reader.string(part)
                references.append((part.key, target == "any" ? nil : target))
            }
        }

        var scaffold = Scaffold()
        if let scaffoldEntry = entry("scaffold") {
            for part in try reader.mapping(scaffoldEntry.value, what: "`scaffold`") {
                switch part.key {
                case "folder": scaffold.folder = try reader.string(part)
                case "fileName": scaffold.fileName = try reader.string(part)
                case "body": scaffold.body = try reader.string(part)
                default:
                    throw SchemaError(.unsupportedKeyword, file: file, line: part.keyLine, column: part.keyColumn, message: "unknown key `scaffold.\(part.key)`", fix: "use `folder`, `fileName` or `body`")
                }
            }
        }

        let frontmatterEntry = try requireEntry("frontmatter")
        let frontmatter = try JSONSchema.compile(frontmatterEntry.value, file: file)
        if let types = frontmatter.resolved.types, !types.contains(.object) {
            throw SchemaError(.invalidSchema, file: file, line: frontmatterEntry.value.line, message: "`frontmatter` must describe an object (`type: object`)")
        }
        try checkProperties(of: frontmatter.resolved, file: file)
        return NoteSchema(
            type: type, description: description, matchValues: matchValues, matchPaths: matchPaths, id: idRule,
            references: references, keyOrder: try entry("keyOrder").map { (entry: FrontmatterEntry) throws(SchemaError) in try reader.stringList(entry) } ?? [],
            scaffold: scaffold, frontmatter: frontmatter, source: file, isBuiltIn: isBuiltIn)
    }

    /// A default must satisfy its own property (or `fix --populate` would write an error), and a range
    /// must not be empty.
    private static func checkProperties(of root: JSONSchema, file: String) throws(SchemaError) {
        for (name, property) in root.properties {
            let node = property.resolved
            if let minimum = node.minimum, let maximum = node.maximum, minimum > maximum {
                throw SchemaError(.invalidSchema, file: file, line: property.line, message: "`\(name)` has `minimum` \(minimum) above `maximum` \(maximum)")
            }
            if let minimum = node.minLength, let maximum = node.maxLength, minimum > maximum {
                throw SchemaError(.invalidSchema, file: file, line: property.line, message: "`\(name)` has `minLength` above `maxLength`")
            }
            guard let value = property.effectiveDefault else { continue }
            if let text = value.scalarText, NoteIdentifier.containsPlaceholder(text) { continue }
            var validator = SchemaValidator(path: file)
            validator.check(FrontmatterNode(value: value, line: property.line, column: 1), against: property, keyPath: name,
                            at: SchemaValidator.Location(line: property.line, column: 1))
            if let problem = validator.findings.first {
                throw SchemaError(
                    .invalidSchema, file: file, line: property.line,
                    message: "the default of `\(name)` breaks its own schema: \(problem.message)", fix: "change the default or the property's rules")
            }
        }
    }

    static func isValidTypeName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic || ("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isLowercase || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") }
    }
}
