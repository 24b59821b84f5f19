import Foundation
import ArgumentParser
import RhizomeCore

/// `rhizome schema [TYPE]`: the note types in effect, or one type's fields, for people and agents.
struct SchemaCommand: RhizomeSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "List the note types, or show one type's fields, descriptions, defaults and allowed values.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "A type (or a `type:` value mapped to one).")
    var type: String?

    func execute(in context: CommandContext) throws -> ExitStatus {
        // Without a vault, the built-in types are still worth showing.
        let vault = try? VaultLocator.locate(explicit: global.vault, environment: context.environment, currentDirectory: context.currentDirectory)
        if global.vault != nil, vault == nil {
            _ = try VaultLocator.locate(explicit: global.vault, environment: context.environment, currentDirectory: context.currentDirectory)
        }
        let catalog = try vault.map { (root: String) throws(SchemaError) in try SchemaCatalog.load(vaultRoot: root) } ?? SchemaCatalog.builtIn()
        var schemas = catalog.schemas
        if let type {
            guard let schema = catalog.schema(forType: type) ?? catalog.schema(forTypeValue: type) else {
                let near = catalog.schemas.map(\.type).filter { $0.hasPrefix(String(type.prefix(2))) }
                throw CLIError.invalidArgument("no schema for the type `\(type)`. Known types: \(catalog.schemas.map(\.type).joined(separator: ", "))" + (near.isEmpty ? "" : ". Did you mean \(near.joined(separator: ", "))?"))
            }
            schemas = [schema]
        }
        let descriptions = schemas.map(SchemaDescription.init)
        if global.json {
            if type == nil { printJSON(descriptions, vault: vault, context: context) } else { printJSON(descriptions[0], vault: vault, context: context) }
            return .success
        }
        if type == nil {
            var table = TextTable(headers: ["TYPE", "FROM", "MATCHED BY", "DESCRIPTION"])
            for schema in descriptions {
                var matched = ["type: " + ([schema.type] + schema.match.values).joined(separator: "|")]
                matched += schema.match.paths
                table.add(cells: [schema.type, schema.builtIn ? "built-in" : schema.source, matched.joined(separator: ", "), Self.summary(schema.description)])
            }
            context.print(table.render())
            context.print("\n`rhizome schema TYPE` shows a type's fields.")
            return .success
        }
        let schema = descriptions[0]
        context.print("\(schema.type) — \(schema.description)")
        context.print("from: \(schema.builtIn ? "built-in (override it with \(catalog.config.schemaFolder)/\(schema.type).yaml)" : schema.source)")
        var matched = ["`type: \(schema.type)`"] + schema.match.values.map { "`type: \($0)`" }
        matched += catalog.config.typeMappings.filter { $0.value == schema.type }.keys.sorted().map { "`type: \($0)` (vault config)" }
        if !schema.match.paths.isEmpty { matched.append("notes without `type:` under " + schema.match.paths.joined(separator: ", ")) }
        context.print("matched by: " + matched.joined(separator: ", "))
        if let id = schema.id {
            let source = id.infer.map { $0.replacingOccurrences(of: "-", with: " ") }
            context.print("id: `\(id.field)`" + (source.map { ", inferred from the \($0)" } ?? "") + (id.mustMatch ? " (and must equal it)" : ""))
        }
        if !schema.references.isEmpty {
            context.print("references: " + schema.references.keys.sorted().map { "`\($0)` → \(schema.references[$0]!)" }.joined(separator: ", "))
        }
        context.print(schema.strict ? "strict: keys not listed below are errors" : "open: other keys are allowed")
        context.print("\nFields")
        for field in schema.fields {
            // `array of string, or null` rather than `array or null of string`.
            let types = field.types.isEmpty ? ["any"] : field.types.map { type -> String in
                guard type == "array", let items = field.itemTypes, !items.isEmpty else { return type }
                return "array of " + items.joined(separator: " or ")
            }
            let line = "  \(field.name)\(field.required ? " (required)" : ""): " + (types.count > 1 ? types.dropLast().joined(separator: ", ") + ", or " + types.last! : types[0])
            context.print(line)
            if let description = field.description { context.print("      " + description) }
            var details: [String] = []
            if let allowed = field.allowedValues { details.append("one of: " + allowed.joined(separator: ", ")) }
            if let value = field.defaultValue { details.append("default: " + value) }
            if let format = field.format { details.append("format: " + format) }
            if let pattern = field.pattern { details.append("pattern: " + pattern) }
            details += field.limits
            if !details.isEmpty { context.print("      " + details.joined(separator: " · ")) }
        }
        return .success
    }
}

extension SchemaCommand {
    /// A description's first sentence, at most 80 characters, for the list of types.
    static func summary(_ text: String) -> String {
        var sentence = text
        if let end = text.range(of: ". ") { sentence = String(text[..<end.lowerBound]) + "." }
        return sentence.count > 80 ? String(sentence.prefix(79)) + "…" : sentence
    }
}

/// The `schema --json` form of a type (version 1 of this shape: fields are only ever added).
struct SchemaDescription: Encodable {
    struct Match: Encodable {
        var values: [String]
        var paths: [String]
    }

    struct ID: Encodable {
        var field: String
        var infer: String?
        var mustMatch: Bool

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(field, forKey: .field)
            try container.encode(infer, forKey: .infer)
            try container.encode(mustMatch, forKey: .mustMatch)
        }

        private enum CodingKeys: String, CodingKey { case field, infer, mustMatch }
    }

    struct Field: Encodable {
        var name: String
        var required: Bool
        var types: [String]
        var itemTypes: [String]?
        var description: String?
        var defaultValue: String?
        var allowedValues: [String]?
        var format: String?
        var pattern: String?
        var limits: [String]
        var reference: String?

        private enum CodingKeys: String, CodingKey {
            case name, required, types, itemTypes, description, defaultValue, allowedValues, format, pattern, limits, reference
        }

        /// Every key is always present (`null` when absent), so agents can rely on the shape.
        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(required, forKey: .required)
            try container.encode(types, forKey: .types)
            try container.encode(itemTypes, forKey: .itemTypes)
            try container.encode(description, forKey: .description)
            try container.encode(defaultValue, forKey: .defaultValue)
            try container.encode(allowedValues, forKey: .allowedValues)
            try container.encode(format, forKey: .format)
            try container.encode(pattern, forKey: .pattern)
            try container.encode(limits, forKey: .limits)
            try container.encode(reference, forKey: .reference)
        }
    }

    var type: String
    var description: String
    var source: String
    var builtIn: Bool
    var match: Match
    var id: ID?
    var references: [String: String]
    var keyOrder: [String]
    var strict: Bool
    var fields: [Field]

    private enum CodingKeys: String, CodingKey {
        case type, description, source, builtIn, match, id, references, keyOrder, strict, fields
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encode(description, forKey: .description)
        try container.encode(source, forKey: .source)
        try container.encode(builtIn, forKey: .builtIn)
        try container.encode(match, forKey: .match)
        try container.encode(id, forKey: .id)
        try container.encode(references, forKey: .references)
        try container.encode(keyOrder, forKey: .keyOrder)
        try container.encode(strict, forKey: .strict)
        try container.encode(fields, forKey: .fields)
    }

    init(_ schema: NoteSchema) {
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
