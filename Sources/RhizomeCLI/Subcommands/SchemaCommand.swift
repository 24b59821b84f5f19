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
