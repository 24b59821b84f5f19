/// Checks one note against the schemas in effect: its type, its frontmatter, its id, and the values of
/// its reference fields (resolved later, across the vault, by the index). Never throws: every problem
/// is a `Finding`.
public struct NoteChecker: Sendable {
    /// Bumped when a release changes what checks report for the same schemas: part of the catalog's
    /// fingerprint, so stored results from an older Rhizome are re-checked.
    public static let version = "3"  // 2: a `type:` that is not one text value is untyped (info), not an error; 3: `typeKey`

    public let catalog: SchemaCatalog

    public init(catalog: SchemaCatalog) { self.catalog = catalog }

    /// Checks a parsed markdown note at vault-relative `path`.
    public func check(_ frontmatter: Frontmatter?, path: String) -> NoteCheck {
        guard !catalog.config.isExcluded(path) else { return NoteCheck() }
        var check = NoteCheck()
        if let frontmatter, frontmatter.isInvalid { return check }  // the YAML finding says it all
        if let frontmatter { check.findings += Self.frontmatterHygiene(frontmatter, path: path) }

        let typing = catalog.classify(frontmatter, path: path)
        let typeKey = catalog.config.typeKey
        check.declaredType = typing.declaredType
        if let node = typing.untypedValue {
            check.findings.append(Finding(
                code: .untypedTypeValue, severity: .info,
                message: "`\(typeKey)` is \(SchemaValidator.describe(node.value)), not one text value, so it names no Rhizome type",
                path: path, line: node.line, column: node.column,
                fix: typeKey == "type"
                    ? "nothing to do if `type` means something else in this vault (or name another key in \(VaultConfig.relativePath): `typeKey: kind`); to give the note a Rhizome type, write one value (`type: project`)"
                    : "to give the note a Rhizome type, write one value (`\(typeKey): project`)"))
        }
        switch typing.matchedBy {
        case .typeProperty where typing.schema == nil:
            let node = typing.declaredNode
            let value = typing.declaredType ?? ""
            var fix = "add a schema `\(catalog.config.schemaFolder)/\(value).yaml`, or map the value to a type in \(VaultConfig.relativePath) (`types: {\(value): TYPE}`)"
            var severity = Finding.Severity.info
            if let near = SchemaValidator.nearest(value, among: catalog.schemas.map(\.type)) {
                fix = "did you mean `\(near)`? (`rhizome types migrate --from \(value) --to \(near)`) Otherwise " + fix
                severity = .warning
            }
            check.findings.append(Finding(
                code: .unknownType, severity: severity, message: "no schema for the type `\(value)`",
                path: path, line: node?.line, column: node?.column, fix: fix))
            return check
        default:
            break
        }
        guard let schema = typing.schema else { return check }
        check.schemaType = schema.type

        guard let frontmatter else {
            if !schema.frontmatter.resolved.required.filter({ $0 != typeKey }).isEmpty {
                // Only path matching types a note without frontmatter, and a path can mislead (a prompt file
                // in an `agents/` folder): a warning, not an error.
                check.findings.append(Finding(
                    code: .missingFrontmatter, severity: .warning,
                    message: "this `\(schema.type)` note has no frontmatter; required: \(schema.frontmatter.resolved.required.joined(separator: ", "))",
                    path: path, line: 1, column: 1,
                    fix: "add a `---` block at the top with the required properties"))
            }
            return check
        }
        var validator = SchemaValidator(path: path)
        let anchor = typing.declaredNode.map { SchemaValidator.Location(line: $0.line, column: 1) } ?? SchemaValidator.Location(line: 1, column: 1)
        // A note typed by its path needs no `type:` to say so; a `type:` that names no type is the vault's own
        // property, not the schema's.
        let entries = typing.untypedValue == nil ? frontmatter.entries : frontmatter.entries.filter { $0.key != typeKey }
        validator.checkMapping(
            entries, against: schema.frontmatter, keyPath: "", at: anchor,
            exempt: typing.matchedBy == .path ? [typeKey] : [])
        check.findings += validator.findings

        if let rule = schema.id, let entry = frontmatter.entries.last(where: { $0.key == rule.field }), let value = Self.idText(entry.value.value) {
            check.id = NoteCheck.IDValue(value: value, line: entry.keyLine, column: entry.keyColumn)
            if rule.mustMatch, let expected = schema.inferredID(path: path, frontmatter: frontmatter), expected != value {
                check.findings.append(Finding(
                    code: .idMismatch, severity: .error,
                    message: "`\(rule.field)` is `\(value)` but must match the \(rule.inferredFrom?.rawValue ?? "name"), `\(expected)`",
                    path: path, line: entry.keyLine, column: entry.keyColumn,
                    fix: "set `\(rule.field): \(expected)`, or rename the \(rule.inferredFrom == .folderName ? "folder" : "file") to `\(value)`"))
            }
        }
        for (key, targetType) in schema.references {
            guard let entry = frontmatter.entries.last(where: { $0.key == key }) else { continue }
            let items: [FrontmatterNode]
            if case .list(let list) = entry.value.value { items = list } else { items = [entry.value] }
            for item in items {
                guard let text = Self.idText(item.value), !Self.looksLikeLink(text) else { continue }
                check.references.append(NoteCheck.ReferenceValue(key: key, value: text, targetType: targetType, line: item.line, column: item.column))
            }
        }
        return check
    }

    // MARK: Checks every note gets

    static let legacyKeys = ["tag": "tags", "alias": "aliases", "cssclass": "cssclasses"]

    /// Legacy singular keys (dropped by Obsidian 1.9) and unquoted `[[links]]` (read by YAML as nested lists).
    static func frontmatterHygiene(_ frontmatter: Frontmatter, path: String) -> [Finding] {
        var findings: [Finding] = []
        for entry in frontmatter.entries {
            if let plural = legacyKeys[entry.key] {
                let hasPlural = frontmatter.entries.contains { $0.key == plural }
                findings.append(Finding(
                    code: .legacyKey, severity: .warning,
                    message: "`\(entry.key)` is no longer read by Obsidian (since 1.9); its values are ignored",
                    path: path, line: entry.keyLine, column: entry.keyColumn,
                    fix: hasPlural ? "move its values into `\(plural)` and remove `\(entry.key)`" : "rename it to `\(plural)` (`rhizome fix` does)"))
            }
            for link in unquotedLinks(in: entry.value) {
                findings.append(Finding(
                    code: .unquotedLink, severity: .warning,
                    message: "`\(entry.key)` holds `[[\(link.text)]]` without quotes: YAML reads it as a nested list, not a link",
                    path: path, line: link.line, column: link.column, fix: "quote it: `\"[[\(link.text)]]\"` (`rhizome fix` does)"))
            }
        }
        return findings
    }

    /// The link text when `node` itself is an unquoted `[[Note]]`: YAML reads it as a list holding a list
    /// holding `Note`, the inner bracket right after the outer.
    public static func unquotedLinkText(_ node: FrontmatterNode) -> String? {
        guard case .list(let items) = node.value, items.count == 1, case .list(let inner) = items[0].value,
              items[0].line == node.line, items[0].column == node.column + 1, inner.count == 1,
              inner[0].value != .null else { return nil }
        return inner[0].value.scalarText
    }

    /// Whether `node` itself is an unquoted `[[Note]]`.
    public static func isUnquotedLink(_ node: FrontmatterNode) -> Bool { unquotedLinkText(node) != nil }

    /// Every unquoted `[[Note]]` in `node` or nested in its lists.
    public static func unquotedLinks(in node: FrontmatterNode) -> [(text: String, line: Int, column: Int)] {
        if let text = unquotedLinkText(node) { return [(text, node.line, node.column)] }
        guard case .list(let items) = node.value else { return [] }
        return items.flatMap { unquotedLinks(in: $0) }
    }

    static func idText(_ value: FrontmatterValue) -> String? {
        switch value {
        case .string(let text), .date(let text): return text.isEmpty ? nil : text
        case .number(_, let text): return text
        default: return nil
        }
    }

    static func looksLikeLink(_ text: String) -> Bool {
        (text.hasPrefix("[[") && text.hasSuffix("]]")) || (text.hasPrefix("[") && text.contains("](") && text.hasSuffix(")"))
    }
}

/// What checking one note found.
public struct NoteCheck: Sendable, Equatable {
    public struct IDValue: Sendable, Equatable {
        public var value: String
        public var line: Int
        public var column: Int
    }

    /// A plain value of a reference field: an id to look up across the vault.
    public struct ReferenceValue: Sendable, Equatable {
        public var key: String
        public var value: String
        /// The type the referenced note must have; nil for any.
        public var targetType: String?
        public var line: Int
        public var column: Int
    }

    public var findings: [Finding] = []
    public var declaredType: String?
    /// The schema the note was checked against.
    public var schemaType: String?
    public var id: IDValue?
    public var references: [ReferenceValue] = []

    public init() {}
}

extension NoteSchema {
    /// The id `fix` and `new` would give a note at `path`, per `id.infer`; nil when the schema infers none.
    public func inferredID(path: String, frontmatter: Frontmatter?) -> String? {
        guard let source = id?.inferredFrom else { return nil }
        let fileName = VaultPath.displayName(of: path)
        switch source {
        case .fileName:
            return NoteIdentifier.slug(fileName)
        case .folderName:
            let folder = VaultPath.folder(of: path)
            guard !folder.isEmpty else { return nil }
            return String(folder.split(separator: "/").last ?? "")
        case .title:
            if case .string(let title)? = frontmatter?["title"]?.value, !title.isEmpty { return NoteIdentifier.slug(title) }
            return NoteIdentifier.slug(fileName)
        }
    }
}
