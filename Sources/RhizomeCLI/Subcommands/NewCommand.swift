import ArgumentParser
import Foundation
import RhizomeCore

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
        let note = try NoteDraft.make(schema: schema, title: title, folder: folder, assignments: try parseAssignments(), now: Date())
        // Valid by construction: check the draft exactly as `validate` would before writing anything.
        let parsed = NoteParser.parse(Array(note.text.utf8), path: note.path, includeBodyText: false)
        let problems = (parsed.findings + NoteChecker(catalog: catalog).check(parsed.frontmatter, path: note.path).findings).filter { $0.severity == .error }
        guard problems.isEmpty else {
            throw CLIError.invalidArgument(
                "the new note would not be valid, so nothing was written:\n" + problems.map { "  " + $0.message + ($0.fix.map { " (\($0))" } ?? "") }.joined(separator: "\n")
                + "\nGive the missing values with --set KEY=VALUE.")
        }
        // The same name in another Unicode form (NFD, as macOS may save it) is the same note to Obsidian.
        // …and so is the same name in other letter case, for links and on macOS and Windows disks.
        if let existing = try NoteFiles(vaultPath: vault).existingNote(named: note.path) {
            throw FileWriteError.alreadyExists(path: existing)
        }
        if let id = note.id, let other = try existingNote(withID: id, context: context) {
            throw CLIError.invalidArgument("the id `\(id)` is already used by \(other); choose another --title, or --set \(schema.id?.field ?? "id")=…")
        }
        try AtomicFileWriter.create(vault + "/" + note.path, bytes: Array(note.text.utf8))
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
            guard let equals = assignment.firstIndex(of: "="), equals != assignment.startIndex else {
                throw CLIError.invalidArgument("--set expects KEY=VALUE, got `\(assignment)`")
            }
            let key = String(assignment[..<equals]).trimmingCharacters(in: .whitespaces)
            let text = String(assignment[assignment.index(after: equals)...])
            guard case .success(let node?) = YAMLParser.parse("value: " + text), case .map(let entries) = node.value,
                  let value = entries.first?.value.value else {
                return (key, .string(text))
            }
            // `--set related=[[Home]]`: unquoted, YAML reads a list in a list; on a command line it means the link.
            if !NoteChecker.unquotedLinks(in: entries[0].value).isEmpty {
                return (key, FixPlanner.quotingLinks(entries[0].value).value)
            }
            // `--set 'aliases=#1 priority'` is YAML for an empty value and a comment; the user meant the text.
            if value == .null, !["", "~", "null", "Null", "NULL"].contains(text.trimmingCharacters(in: .whitespaces)) {
                return (key, .string(text))
            }
            return (key, value)
        }
    }

    struct Created: Encodable {
        var path: String
        var type: String
        var id: String?
    }
}

/// The text and place of a new note, from its schema's defaults and scaffold.
struct NoteDraft {
    var path: String
    var text: String
    var id: String?

    static func make(
        schema: NoteSchema, title requestedTitle: String?, folder requestedFolder: String?,
        assignments: [(key: String, value: FrontmatterValue)], now: Date
    ) throws -> NoteDraft {
        let fileNameTemplate = schema.scaffold.fileName ?? "{{title}}"
        let needsTitle = fileNameTemplate.contains("{{title}}") || [.title, .fileName].contains(schema.id?.inferredFrom)
            || (schema.id?.inferredFrom == .folderName && (schema.scaffold.folder ?? "").contains("{{id}}"))
        guard requestedTitle != nil || !needsTitle else {
            throw CLIError.invalidArgument("a `\(schema.type)` note needs a title: --title \"…\"")
        }
        let dateOnly = NoteIdentifier.Placeholders(title: "", now: now)
        let title = requestedTitle ?? dateOnly.fill(fileNameTemplate)
        let id = schema.id?.inferredFrom != nil ? NoteIdentifier.slug(title) : nil
        if let id, id.isEmpty { throw CLIError.invalidArgument("the title `\(title)` gives an empty id; use letters or digits") }
        let placeholders = NoteIdentifier.Placeholders(title: title, id: id ?? "", now: now)

        // Values: --set, the id, the type, then defaults with placeholders filled.
        let root = schema.frontmatter.resolved
        var values: [(key: String, value: FrontmatterValue)] = []
        func set(_ key: String, _ value: FrontmatterValue) {
            if let index = values.firstIndex(where: { $0.key == key }) { values[index].value = value } else { values.append((key, value)) }
        }
        let order = schema.keyOrder + root.properties.map(\.name).filter { !schema.keyOrder.contains($0) }
        for key in order {
            if key == "type", root.property("type") != nil { set(key, .string(schema.type)); continue }
            if let rule = schema.id, rule.field == key, let id { set(key, .string(id)); continue }
            if let value = root.property(key)?.effectiveDefault { set(key, filled(value, placeholders)) }
        }
        // A type matched only by path (Claude Code agents, skills) carries no `type:`; every other note says it.
        if root.property("type") == nil, schema.matchPaths.isEmpty { values.insert(("type", .string(schema.type)), at: 0) }
        for (key, value) in assignments {
            if case .forbidden = root.additionalProperties, root.property(key) == nil {
                throw CLIError.invalidArgument("`\(key)` is not a field of `\(schema.type)` (strict schema); fields: \(root.properties.map(\.name).joined(separator: ", "))")
            }
            set(key, value)
        }
        // In the schema's key order, so that `fix` has nothing to do on a fresh note.
        let rank = Dictionary((["type"] + order).enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        func position(_ item: (offset: Int, element: (key: String, value: FrontmatterValue))) -> Int {
            rank[item.element.key] ?? order.count + item.offset
        }
        values = values.enumerated().sorted { position($0) < position($1) }.map(\.element)
        let missing = root.required.filter { key in !values.contains { $0.key == key } }
        guard missing.isEmpty else {
            throw CLIError.invalidArgument("`\(schema.type)` requires \(missing.map { "`\($0)`" }.joined(separator: ", ")), which \(missing.count == 1 ? "has" : "have") no default: add --set \(missing[0])=…")
        }

        var text = "---\n"
        for (key, value) in values { text += YAMLWriter.entryLines(key: key, value: value).joined(separator: "\n") + "\n" }
        text += "---\n"
        if let body = schema.scaffold.body { text += "\n" + placeholders.fill(body) }

        if let requestedFolder, requestedFolder.hasPrefix("/") {
            throw CLIError.invalidArgument("--folder takes a folder inside the vault, relative to it (`Projects/Archive`), not `\(requestedFolder)`")
        }
        let folderText = requestedFolder ?? schema.scaffold.folder.map(placeholders.fill) ?? ""
        guard let folder = VaultPath.normalize(folderText) else {
            throw CLIError.invalidArgument("the folder `\(folderText)` is outside the vault")
        }
        let name = fileName(placeholders.fill(fileNameTemplate))
        guard !name.isEmpty else { throw CLIError.invalidArgument("the title gives an empty file name; use letters or digits") }
        // File systems allow 255 bytes per name (an accented letter takes two, CJK three).
        guard (name + ".md").utf8.count <= 255 else {
            throw CLIError.invalidArgument("the file name would be \((name + ".md").utf8.count) bytes, over the 255 file systems allow; use a shorter --title")
        }
        return NoteDraft(path: (folder.isEmpty ? "" : folder + "/") + name + ".md", text: text, id: id)
    }

    /// Characters Obsidian refuses in file names or that break links (`* " \ / < > : | ? # ^ [ ]`) are dropped.
    static func fileName(_ text: String) -> String {
        let forbidden = Set("*\"\\/<>:|?#^[]")
        let kept = String(text.filter { !forbidden.contains($0) && !$0.isNewline })
        return kept.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ").trimmingCharacters(in: CharacterSet(charactersIn: ". "))
    }

    private static func filled(_ value: FrontmatterValue, _ placeholders: NoteIdentifier.Placeholders) -> FrontmatterValue {
        switch value {
        case .string(let text), .date(let text):
            let result = placeholders.fill(text)
            return DateText.matches(result, format: .date) || DateText.matches(result, format: .dateTime) ? .date(result) : .string(result)
        case .list(let items):
            return .list(items.map { FrontmatterNode(value: filled($0.value, placeholders), line: 0, column: 0) })
        default:
            return value
        }
    }
}
