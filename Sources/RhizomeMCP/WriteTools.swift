import Foundation
import MCP
import RhizomeCore
import RhizomeOperations
import RhizomeStore

/// The MCP tools that change the vault, over the operations layer the CLI uses (`VaultEditor`): each change
/// is journaled and can be undone (the `undo` tool), stays inside the vault (no `..`, no absolute paths, no
/// `.obsidian/`, no symlinks leading out), and with `expectedHash` (from `read_note` or an earlier write)
/// is refused when the note changed since. Results say exactly what changed: paths, link counts, new hashes
/// and the operation's id. Listed unless the server runs with `--read-only`.
struct WriteTools: Sendable {
    /// What `tools/list` adds.
    static var definitions: [Tool] { catalog.map(\.tool) }

    static func handles(_ name: String) -> Bool { catalog.contains { $0.tool.name == name } }

    static func call(_ name: String, arguments: ToolArguments, editor: VaultEditor) throws -> ToolOutput {
        guard let entry = catalog.first(where: { $0.tool.name == name }) else { throw ToolError.unknownTool(name) }
        return try entry.run(arguments, editor)
    }

    private struct Entry: Sendable {
        var tool: Tool
        var run: @Sendable (ToolArguments, VaultEditor) throws -> ToolOutput
    }

    private static let hashHelp = "The note's `hash` as `read_note` (or the last write) returned it: the change is refused if the note changed since. Recommended."
    private static let dryRunHelp = "Only plan the change and return what it would do."

    private static let catalog: [Entry] = [
        Entry(
            tool: tool("create_note", title: "Create a note", destructive: false,
                       "Creates a new note (never overwrites: any note of that name, in any letter case, is an error). A typed note: `type` (see the `schema` tool) with `title`, optional `folder` and `properties`, made from the schema's scaffold with defaults and an inferred id, valid by construction. A plain note: `path` with `content` (the whole text) or `properties` and `body`.",
                       properties: [
                        "type": string("A note type: the note is made from its schema's scaffold."),
                        "title": string("The typed note's title (its file name, and the source of an inferred id)."),
                        "folder": string("Where a typed note goes (default: its schema's scaffold folder)."),
                        "path": string("Vault-relative path of a plain note, e.g. `Inbox/Idea.md` (`.md` is added when missing)."),
                        "content": string("The note's whole text."),
                        "properties": .object(["type": "object", "description": "Frontmatter properties (text, numbers, booleans, lists; `[[Note]]` links are quoted for you)."]),
                        "body": string("The markdown after the frontmatter."),
                       ]),
            run: { arguments, editor in
                if let type = arguments.optionalString("type") {
                    let folder = try arguments.optionalString("folder").map(safePath)
                    let properties = try propertyChanges(arguments, required: false).compactMap { change in change.value.map { (change.key, $0) } }
                    let plan = try editor.planNew(type: type, title: arguments.optionalString("title"), folder: folder, properties: properties)
                    return ToolOutput(NoteWritten(plan: plan, operation: try editor.apply(plan)), total: nil, truncated: false)
                }
                let path = try safePath(arguments.string("path"))
                var text = arguments.optionalString("content") ?? ""
                if arguments.values["content"] == nil {
                    // The body, with a frontmatter block written in front of it by the editor `fix` uses.
                    var editor = try FrontmatterEditor(fileBytes: Array((arguments.optionalString("body") ?? "").utf8))
                    for (key, value) in try propertyChanges(arguments, required: false) {
                        guard let value, editor.setValue(value, forKey: key) else { continue }
                    }
                    text = String(decoding: editor.renderedBytes(), as: UTF8.self)
                }
                let plan = try editor.planCreate(at: path, text: text)
                let operation = try editor.apply(plan)
                return ToolOutput(NoteWritten(plan: plan, operation: operation), total: nil, truncated: false)
            }),
        Entry(
            tool: tool("append_to_note", title: "Append to a note", destructive: false,
                       "Adds text at the end of a note, or at the end of one section (`heading`); with `position: start`, right after the frontmatter (or right under the heading). The rest of the note keeps every byte.",
                       properties: [
                        "note": string(noteHelp), "text": string("The markdown to add (on lines of its own)."),
                        "heading": string("Add to the section under this heading (its text, without `#`)."),
                        "position": .object(["type": "string", "enum": ["end", "start"], "default": "end", "description": "`end` of the note or section, or `start`."]),
                        "expectedHash": string(hashHelp),
                       ], required: ["note", "text"]),
            run: { arguments, editor in
                let atStart = try arguments.choice("position", of: ["end", "start"], default: "end") == "start"
                let plan = try editor.planInsert(
                    try arguments.string("text"), into: try safeNote(arguments.string("note")), heading: arguments.optionalString("heading"),
                    atStart: atStart, expectedHash: arguments.optionalString("expectedHash"))
                let operation = try editor.apply(plan)
                return ToolOutput(NoteWritten(plan: plan, operation: operation), total: nil, truncated: false)
            }),
        Entry(
            tool: tool("set_properties", title: "Set properties", destructive: false,
                       "Sets frontmatter properties of a note (a `null` value removes the key). Only those lines change; comments, key order and the body are kept. If the note has a schema, a change that makes it invalid is refused with the schema's message.",
                       properties: [
                        "note": string(noteHelp),
                        "properties": .object(["type": "object", "description": "Keys and their new values (text, number, boolean, list, or null to remove)."]),
                        "expectedHash": string(hashHelp),
                       ], required: ["note", "properties"]),
            run: { arguments, editor in
                let plan = try editor.planProperties(
                    try propertyChanges(arguments, required: true), of: try safeNote(arguments.string("note")), expectedHash: arguments.optionalString("expectedHash"))
                let operation = try editor.apply(plan)
                return ToolOutput(NoteWritten(plan: plan, operation: operation), total: nil, truncated: false)
            }),
        Entry(
            tool: tool("move_note", title: "Move or rename", destructive: false,
                       "Renames or moves a note, file or folder and rewrites every link that would otherwise stop reaching it (wikilinks, embeds, markdown links, property links, canvases), as Obsidian would. Nothing else in any file changes. Refused, changing nothing, when the destination exists.",
                       properties: [
                        "source": string("The note (as in a wikilink), or a vault-relative file or folder path."),
                        "destination": string("The new vault-relative path, or a folder (ending in `/`) to move it into."),
                        "expectedHash": string(hashHelp + " (notes only)"),
                        "resolveLinks": .object(["type": "boolean", "default": false, "description": "Let links that reach nothing now reach the moved file when its new name is theirs; without it such a move is refused (`would-resolve-links`) and the links are listed."]),
                        "dryRun": .object(["type": "boolean", "default": false, "description": .string(dryRunHelp)]),
                       ], required: ["source", "destination"]),
            run: { arguments, editor in
                let source = try safeNote(arguments.string("source"))
                if let expected = arguments.optionalString("expectedHash") { try editor.checkHash(of: source, expectedHash: expected) }
                let plan = try editor.planMove(source, to: try safePath(arguments.string("destination")), resolvingLinks: try arguments.bool("resolveLinks", default: false))
                let operation = try arguments.bool("dryRun", default: false) ? nil : try editor.apply(plan)
                return ToolOutput(MoveReport(plan, operation: operation), total: nil, truncated: false)
            }),
        Entry(
            tool: tool("delete_note", title: "Move to the trash", destructive: true,
                       "Moves a note, file or folder to the vault's `.trash/` folder (Obsidian's trash; nothing is deleted, and `undo` brings it back). Returns the links elsewhere that no longer reach a file.",
                       properties: [
                        "note": string("The note (as in a wikilink), or a vault-relative file or folder path."),
                        "expectedHash": string(hashHelp + " (notes only)"),
                        "dryRun": .object(["type": "boolean", "default": false, "description": .string(dryRunHelp)]),
                       ], required: ["note"]),
            run: { arguments, editor in
                let note = try safeNote(arguments.string("note"))
                if let expected = arguments.optionalString("expectedHash") { try editor.checkHash(of: note, expectedHash: expected) }
                let plan = try editor.planTrash([note])
                let operation = try arguments.bool("dryRun", default: false) ? nil : try editor.apply(plan)
                return ToolOutput(TrashReport(plan, operation: operation), total: nil, truncated: false)
            }),
        Entry(
            tool: tool("fix_frontmatter", title: "Fix frontmatter", destructive: false,
                       "Repairs frontmatter that a schema (or Obsidian's own rules) says is wrong, where the repair is safe, as `rhizome fix` does: legacy tag/alias/cssclass keys renamed, a scalar made a list where a list belongs, dates written as YYYY-MM-DD, unquoted [[links]] quoted, keys in the schema's order. `populate` also adds missing fields that have defaults and ids the schema can infer; `unsafe` also removes keys a strict schema does not know. Only frontmatter lines change; bodies keep every byte. One change over every note fixed (`undo` reverses it). Returns each note's fixes and diff, and the notes skipped with the reason. Try `dryRun` first.",
                       properties: [
                        "notes": .object(["type": "array", "items": ["type": "string"], "description": "Notes (as in a wikilink) or vault-relative folders to fix (default: the whole vault)."]),
                        "populate": .object(["type": "boolean", "default": false, "description": "Also add missing fields that have defaults, and inferable ids."]),
                        "unsafe": .object(["type": "boolean", "default": false, "description": "Also remove keys that a strict schema does not know."]),
                        "reorder": .object(["type": "boolean", "default": false, "description": "Put keys in the schema's order in every note (by default only in notes changed for another fix)."]),
                        "dryRun": .object(["type": "boolean", "default": false, "description": .string(dryRunHelp)]),
                       ]),
            run: { arguments, editor in
                let includes = try fixScope(arguments, store: editor.store)
                let dryRun = try arguments.bool("dryRun", default: false)
                let options = FixPlanner.Options(populate: try arguments.bool("populate", default: false), unsafe: try arguments.bool("unsafe", default: false),
                                                 reorder: try arguments.bool("reorder", default: false))
                let catalog = try SchemaCatalog.load(vaultRoot: editor.vaultPath)
                let fix = FixOperation(vaultPath: editor.vaultPath, databasePath: editor.databasePath, options: options, write: !dryRun)
                let (report, operation) = try fix.run(store: editor.store, catalog: catalog, includes: includes)
                if let operation { try editor.reindex(operation) }
                return ToolOutput(FixResult(report, operation: operation), total: report.changes.count, truncated: false)
            }),
        Entry(
            tool: tool("undo", title: "Undo the last change", destructive: true,
                       "Reverses the newest change made through Rhizome (by this server or the command line) that is not undone yet, when none of its files changed since; otherwise says which file changed and changes nothing.",
                       properties: ["dryRun": .object(["type": "boolean", "default": false, "description": .string(dryRunHelp)])]),
            run: { arguments, editor in
                let plan = try editor.planUndo()
                let operation = try arguments.bool("dryRun", default: false) ? nil : try editor.apply(plan)
                return ToolOutput(UndoResult(undone: plan.original.summary, undoneOperation: plan.original.id, operation: operation?.id, written: operation != nil),
                                  total: nil, truncated: false)
            }),
    ]

    static let noteHelp = "A note as you would write it in a wikilink: `Note`, `Folder/Note` or `Note.md`."

    /// Which notes `fix_frontmatter` looks at: every note, or those at or under `notes` (each a vault-relative
    /// path or folder, or a note's name as in a wikilink).
    static func fixScope(_ arguments: ToolArguments, store: IndexStore) throws -> (String) -> Bool {
        guard case .array(let items)? = arguments.values["notes"], !items.isEmpty else { return { _ in true } }
        let known = try store.notePaths()
        var prefixes: [String] = []
        for item in items {
            guard let text = item.stringValue else { throw ToolError.invalidArgument("`notes` holds note names or folders (text)") }
            let path = try safePath(text.hasSuffix("/") ? String(text.dropLast()) : text)
            if path.isEmpty || path == "." { return { _ in true } }
            if known.contains(where: { $0 == path || $0.hasPrefix(path + "/") }) {
                prefixes.append(path)
            } else if let note = try store.resolveNote(path) {
                prefixes.append(note.path)
            } else {
                throw ToolError.invalidArgument("no note in the vault is at or under `\(text)`, and no note has that name")
            }
        }
        return { path in prefixes.contains { path == $0 || path.hasPrefix($0 + "/") } }
    }

    /// Vault-relative paths only: an absolute path, `~` or `..` is refused before anything else.
    static func safePath(_ path: String) throws -> String {
        if path.hasPrefix("/") || path.hasPrefix("~") || path.split(separator: "/").contains("..") || path.contains("\\") {
            throw ToolError.invalidArgument("`\(path)` is not a vault-relative path: absolute paths, `~`, `\\` and `..` are refused")
        }
        return path
    }

    static func safeNote(_ note: String) throws -> String { try safePath(note) }

    /// `properties` as typed frontmatter values (null removes).
    static func propertyChanges(_ arguments: ToolArguments, required: Bool) throws -> [(key: String, value: FrontmatterValue?)] {
        guard case .object(let object)? = arguments.values["properties"] else {
            if required { throw ToolError.invalidArgument("`properties` is required (an object of keys and values)") }
            return []
        }
        return try object.sorted { $0.key < $1.key }.map { key, value in (key, try frontmatterValue(value, key: key)) }
    }

    static func frontmatterValue(_ value: Value, key: String) throws -> FrontmatterValue? {
        switch value {
        case .null: return nil
        case .bool(let flag): return .bool(flag)
        case .int(let number): return .number(Double(number), text: String(number))
        case .double(let number): return .number(number, text: number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : String(number))
        // A date or date-time is written plain, so Obsidian shows it as a date; other text as text (quoted
        // when YAML needs it, links included).
        case .string(let text):
            return DateText.matches(text, format: .date) || DateText.matches(text, format: .dateTime) ? .date(text) : .string(text)
        case .array(let items):
            return .list(try items.map { item in
                guard let value = try frontmatterValue(item, key: key) else { throw ToolError.invalidArgument("`\(key)`: a list may not hold null") }
                return FrontmatterNode(value: value, line: 0, column: 0)
            })
        default:
            throw ToolError.invalidArgument("`\(key)`: nested objects are not written; give text, a number, a boolean, a list or null")
        }
    }

    private static func tool(_ name: String, title: String, destructive: Bool, _ description: String, properties: [String: Value], required: [String] = []) -> Tool {
        Tool(
            name: name, title: title, description: description,
            inputSchema: .object(["type": "object", "properties": .object(properties), "required": .array(required.map { .string($0) }), "additionalProperties": false]),
            annotations: Tool.Annotations(title: title, readOnlyHint: false, destructiveHint: destructive, idempotentHint: false, openWorldHint: false))
    }

    private static func string(_ description: String) -> Value { .object(["type": "string", "description": .string(description)]) }
}

/// A single-note write's result.
struct NoteWritten: Encodable, Sendable {
    var path: String
    var hash: String
    var summary: String
    var operation: String
    var created: Bool

    init(plan: NoteEditPlan, operation: VaultOperation) {
        path = plan.path
        hash = plan.newHash
        summary = plan.summary
        self.operation = operation.id
        created = plan.oldBytes == nil
    }
}

struct UndoResult: Encodable, Sendable {
    var undone: String
    var undoneOperation: String
    @NullEncoded var operation: String?
    var written: Bool

    private enum CodingKeys: String, CodingKey { case undone, undoneOperation, operation, written }
}

/// `fix_frontmatter`'s result: `rhizome fix --json`'s report, and the change's id when it was written.
struct FixResult: Encodable, Sendable {
    var changes: [NoteRewrite.Change]
    var skipped: [NoteRewrite.Skipped]
    var written: Bool
    @NullEncoded var operation: String?

    init(_ report: NoteRewrite.Report, operation: VaultOperation?) {
        (changes, skipped, written, self.operation) = (report.changes, report.skipped, operation != nil, operation?.id)
    }

    private enum CodingKeys: String, CodingKey { case changes, skipped, written, operation }
}
