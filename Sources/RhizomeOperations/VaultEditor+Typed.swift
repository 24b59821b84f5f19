import Foundation
import RhizomeCore
import RhizomeStore

/// Typed notes made from their schema's scaffold, as `rhizome new` makes them (MCP `create_note` with `type`).
extension VaultEditor {
    /// Plans a note of `type` (a schema type or a `type:` value the config maps) with its defaults, inferred
    /// id and `properties` set, in the schema's scaffold folder or `folder`. Refused when the draft would not be
    /// valid, its id is taken, or a note of that name exists.
    public func planNew(type: String, title: String?, folder: String?, properties: [(key: String, value: FrontmatterValue)], now: Date = Date()) throws -> NoteEditPlan {
        let catalog = try SchemaCatalog.load(vaultRoot: vaultPath)
        guard let schema = catalog.schema(forType: type) ?? catalog.schema(forTypeValue: type) else {
            throw EditError.invalidProperty(key: "type", reason: "no schema for the type `\(type)`; known types: \(catalog.schemas.map(\.type).joined(separator: ", "))")
        }
        let draft = try NoteDraft.make(schema: schema, title: title, folder: folder, assignments: properties, now: now, typeKey: catalog.config.typeKey)
        let problems = Self.problems(of: draft, catalog: catalog)
        if !problems.isEmpty { throw EditError.invalidResult(path: draft.path, findings: problems) }
        if let id = draft.id, let other = try storeCall({ try store.typedNotes() }).first(where: { $0.id == id }) {
            throw EditError.invalidProperty(key: schema.id?.field ?? "id", reason: "the id `\(id)` is already used by \(other.path); choose another title")
        }
        var plan = try planCreate(at: draft.path, text: draft.text)
        plan.summary = "created \(plan.path) (\(schema.type))"
        plan.operation.summary = plan.summary
        return plan
    }

    /// The error findings a draft note would have: it must be valid by construction.
    public static func problems(of draft: NoteDraft, catalog: SchemaCatalog) -> [Finding] {
        let parsed = NoteParser.parse(Array(draft.text.utf8), path: draft.path, includeBodyText: false)
        return (parsed.findings + NoteChecker(catalog: catalog).check(parsed.frontmatter, path: draft.path).findings).filter { $0.severity == .error }
    }
}
