import ArgumentParser
import Foundation
import RhizomeCore
import RhizomeOperations

/// `rhizome new TYPE`: writes a note that is valid by construction, never over an existing file.
struct NewCommand: RhizomeSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Create a note of a type, valid by construction (defaults filled, id inferred); never overwrites.",
        discussion: "Fields without a default can be given with --set KEY=VALUE (YAML values: --set 'tags=[a, b]'). `rhizome schema TYPE` lists the fields.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The note type (see `rhizome schema`).")
    var type: String

    @Option(help: "The note's title (its file name, and the source of an inferred id).")
    var title: String?

    @Option(help: "The folder to create it in, vault-relative (default: the schema's scaffold folder).")
    var folder: String?

    @Option(name: .customLong("set"), parsing: .singleValue, help: "A frontmatter value, KEY=VALUE (repeatable).")
    var assignments: [String] = []

    func execute(in context: CommandContext) throws -> ExitStatus {
        let vault = try VaultLocator.locate(explicit: global.vault, environment: context.environment, currentDirectory: context.currentDirectory)
        let catalog = try SchemaCatalog.load(vaultRoot: vault)
        guard let schema = catalog.schema(forType: type) ?? catalog.schema(forTypeValue: type) else {
            throw CLIError.invalidArgument("no schema for the type `\(type)`; known types: \(catalog.schemas.map(\.type).joined(separator: ", "))")
        }
        let note = try NoteDraft.make(schema: schema, title: title, folder: folder, assignments: try parseAssignments(), now: Date(), typeKey: catalog.config.typeKey)
        // Valid by construction: check the draft exactly as `validate` would before writing anything.
        let problems = VaultEditor.problems(of: note, catalog: catalog)
        guard problems.isEmpty else {
            throw CLIError.invalidArgument(
                "the new note would not be valid, so nothing was written:\n" + problems.map { "  " + $0.message + ($0.fix.map { " (\($0))" } ?? "") }.joined(separator: "\n")
                + "\nGive the missing values with --set KEY=VALUE.")
        }
        // The same name in another Unicode form (NFD, as macOS may save it) is the same note to Obsidian.
        // …and so is the same name in other letter case, for links and on macOS and Windows disks.
        if let existing = try VaultFiles(vaultPath: vault, notesOnly: true).existingNote(named: note.path) {
            throw FileWriteError.alreadyExists(path: existing)
        }
        if let id = note.id, let other = try existingNote(withID: id, context: context) {
            throw CLIError.invalidArgument("the id `\(id)` is already used by \(other); choose another --title, or --set \(schema.id?.field ?? "id")=…")
        }
        // Through the vault editor, as every change: refused in folders Obsidian does not see (`.obsidian/`,
        // `.trash/`, any `.folder`), journaled so that `rhizome undo --write` moves it to the trash again.
        let editor = try VaultSession.open(global, context: context).editor()
        var plan = try editor.planCreate(at: note.path, text: note.text)
        plan.operation.summary = "created \(note.path) (\(schema.type))"
        try editor.apply(plan)
        if global.json {
            printJSON(Created(path: note.path, type: schema.type, id: note.id), vault: vault, context: context)
        } else {
            context.print("created \(note.path)" + (note.id.map { " (\(schema.type), id \($0))" } ?? " (\(schema.type))"))
        }
        return .success
    }

    /// The note that already has `id`, from the index (brought up to date first).
    private func existingNote(withID id: String, context: CommandContext) throws -> String? {
        try VaultSession.open(global, context: context).store.typedNotes().first { $0.id == id }?.path
    }

    private func parseAssignments() throws -> [(key: String, value: FrontmatterValue)] {
        try assignments.map { assignment in
            guard let parsed = PropertyAssignment.parse(assignment) else {
                throw CLIError.invalidArgument("--set expects KEY=VALUE, got `\(assignment)`")
            }
            return parsed
        }
    }

    struct Created: Encodable {
        var path: String
        var type: String
        var id: String?
    }
}
