import Foundation
import MCP
import RhizomeCore
import RhizomeStore

/// The MCP tools over a vault's index: each with a description, a JSON input schema and read-only
/// annotations, answering with compact JSON (`{tool, data, total, truncated, freshness}`).
struct VaultTools: Sendable {
    let vaultPath: String

    /// What `tools/list` returns.
    var definitions: [Tool] { Self.catalog.map(\.tool) }

    /// Runs one tool against the index.
    func call(_ name: String, arguments: ToolArguments, store: IndexStore) throws -> ToolOutput {
        guard let entry = Self.catalog.first(where: { $0.tool.name == name }) else { throw ToolError.unknownTool(name) }
        return try entry.run(self, arguments, store)
    }

    // MARK: The tools

    struct Entry: Sendable {
        var tool: Tool
        var run: @Sendable (VaultTools, ToolArguments, IndexStore) throws -> ToolOutput
    }

    private static let readOnly = Tool.Annotations(readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false)
    static let noteHelp = "A note as you would write it in a wikilink: `Note`, `Folder/Note` or `Note.md` (Obsidian's resolution rules)."

    static let catalog: [Entry] = baseCatalog + retrievalCatalog + basesCatalog + noteCatalog + statusCatalog

    private static let baseCatalog: [Entry] = [
        Entry(
            tool: tool("search", title: "Search notes",
                       "Full-text search over note titles and bodies: every word must occur (case and accents ignored; `word*` matches a prefix); when no note has every word, notes with any of them, ranked by how many and how well, and `note` says so. Notes whose name holds the words come first, then by BM25 rank (titles weigh more). Returns each note's path, a snippet with the matches in **bold**, and its score (lower is better).",
                       properties: ["query": string("The words to look for."), "limit": limit(default: 10, maximum: 100)], required: ["query"]),
            run: { tools, arguments, store in
                let limit = try arguments.int("limit", default: 10, in: 1...100)
                // One more than asked says whether there are more, without ranking every match.
                let (hits, anyWord) = try store.searchFallingBack(try arguments.string("query"), limit: limit + 1)
                return ToolOutput(Array(hits.prefix(limit)), total: nil, truncated: hits.count > limit,
                                  note: anyWord ? "no note has every word; these notes have some of them, those with more first" : nil)
            }),
        Entry(
            tool: tool("note", title: "Read a note",
                       "Everything indexed about one note: path, frontmatter, aliases, tags, headings, block ids, tasks, outgoing links, backlinks (with line and column of each) and findings. Set includeBody to also get its markdown text, capped at maxBodyCharacters.",
                       properties: [
                        "note": string(noteHelp),
                        "includeBody": .object(["type": "boolean", "default": false, "description": "Include the note's markdown text."]),
                        "maxBodyCharacters": .object(["type": "integer", "minimum": 100, "maximum": 100_000, "default": 8_000, "description": "Cap on the body's length."]),
                        "maxLinks": limit(default: 200, maximum: 2_000, what: "outgoing links and backlinks (each)"),
                       ], required: ["note"]),
            run: { tools, arguments, store in
                let file = try tools.resolve(try arguments.string("note"), store: store)
                var detail = try store.note(file)
                let maxLinks = try arguments.int("maxLinks", default: 200, in: 1...2_000)
                let truncated = detail.links.count > maxLinks || detail.backlinks.count > maxLinks
                detail.links = Array(detail.links.prefix(maxLinks))
                detail.backlinks = Array(detail.backlinks.prefix(maxLinks))
                var body: NoteBody?
                if try arguments.bool("includeBody", default: false) {
                    body = tools.readBody(of: file, maxCharacters: try arguments.int("maxBodyCharacters", default: 8_000, in: 100...100_000))
                }
                return ToolOutput(NoteWithBody(note: detail, body: body), total: nil, truncated: truncated || body?.truncated == true)
            }),
        Entry(
            tool: tool("backlinks", title: "Backlinks",
                       "The link occurrences that point at a note (wikilinks, embeds, markdown links, property links, reference fields), with source path, line and column.",
                       properties: ["note": string(noteHelp), "limit": limit(default: 100, maximum: 2_000)], required: ["note"]),
            run: { tools, arguments, store in
                let file = try tools.resolve(try arguments.string("note"), store: store)
                return ToolOutput(capping: try store.backlinks(of: file.id), limit: try arguments.int("limit", default: 100, in: 1...2_000))
            }),
        Entry(
            tool: tool("links", title: "Outgoing links",
                       "The link occurrences in a note, in order, each with what it resolves to (a path, or null when unresolved), subpath, display text, kind, line and column.",
                       properties: ["note": string(noteHelp), "limit": limit(default: 100, maximum: 2_000)], required: ["note"]),
            run: { tools, arguments, store in
                let file = try tools.resolve(try arguments.string("note"), store: store)
                return ToolOutput(capping: try store.outgoingLinks(of: file.id), limit: try arguments.int("limit", default: 100, in: 1...2_000))
            }),
        Entry(
            tool: tool("neighbors", title: "Neighbors",
                       "Notes and files within `depth` links of a note (1 to 3), nearest first, following links out, in, or both ways.",
                       properties: [
                        "note": string(noteHelp),
                        "depth": .object(["type": "integer", "minimum": 1, "maximum": 3, "default": 1, "description": "How many links away."]),
                        "direction": .object(["type": "string", "enum": ["both", "outgoing", "incoming"], "default": "both", "description": "Which links to follow."]),
                        "limit": limit(default: 100, maximum: 2_000),
                       ], required: ["note"]),
            run: { tools, arguments, store in
                let file = try tools.resolve(try arguments.string("note"), store: store)
                let depth = try arguments.int("depth", default: 1, in: 1...3)
                let direction = IndexStore.Direction(rawValue: try arguments.choice("direction", of: ["both", "outgoing", "incoming"], default: "both")) ?? .both
                let neighbors = try store.neighbors(of: file.id, depth: depth, direction: direction)
                return ToolOutput(capping: neighbors, limit: try arguments.int("limit", default: 100, in: 1...2_000))
            }),
        Entry(
            tool: tool("path", title: "Shortest link path",
                       "The shortest chain of links from one note to another, as a list of paths (null when none). Follows links forward unless undirected is true.",
                       properties: [
                        "from": string(noteHelp), "to": string(noteHelp),
                        "undirected": .object(["type": "boolean", "default": false, "description": "Follow links both ways."]),
                       ], required: ["from", "to"]),
            run: { tools, arguments, store in
                let start = try tools.resolve(try arguments.string("from"), store: store)
                let goal = try tools.resolve(try arguments.string("to"), store: store)
                let direction: IndexStore.Direction = try arguments.bool("undirected", default: false) ? .both : .outgoing
                let chain = try store.shortestPath(from: start.id, to: goal.id, direction: direction)
                return ToolOutput(chain?.map(\.path), total: nil, truncated: false)
            }),
        Entry(
            tool: tool("unresolved", title: "Unresolved links",
                       "Link occurrences that resolve to no file (Obsidian shows them greyed out), with source, line and column.",
                       properties: ["limit": limit(default: 100, maximum: 5_000)]),
            run: { _, arguments, store in
                ToolOutput(capping: try store.unresolvedLinks(), limit: try arguments.int("limit", default: 100, in: 1...5_000))
            }),
        Entry(
            tool: tool("orphans", title: "Orphan notes",
                       "Notes that no other file links to (paths).",
                       properties: ["limit": limit(default: 100, maximum: 5_000)]),
            run: { _, arguments, store in
                ToolOutput(capping: try store.orphans().map(\.path), limit: try arguments.int("limit", default: 100, in: 1...5_000))
            }),
        Entry(
            tool: tool("tags", title: "Tags",
                       "Without `tag`: every tag with its count of occurrences and notes (nested tags roll up into their parents). With `tag`: the paths of the notes carrying it or a tag nested under it.",
                       properties: ["tag": string("A tag, with or without `#` (e.g. `project/active`)."), "limit": limit(default: 200, maximum: 5_000)]),
            run: { _, arguments, store in
                let limit = try arguments.int("limit", default: 200, in: 1...5_000)
                if let tag = arguments.optionalString("tag"), !tag.isEmpty {
                    return ToolOutput(capping: try store.files(withTag: tag).map(\.path), limit: limit)
                }
                return ToolOutput(capping: try store.tagCounts(), limit: limit)
            }),
        Entry(
            tool: tool("tasks", title: "Tasks",
                       "Markdown tasks (`- [ ]` items) with path, line, status character and text.",
                       properties: [
                        "status": .object(["type": "string", "enum": ["open", "done", "all"], "default": "open", "description": "Which tasks."]),
                        "limit": limit(default: 200, maximum: 5_000),
                       ]),
            run: { _, arguments, store in
                let status = try arguments.choice("status", of: ["open", "done", "all"], default: "open")
                let filter: IndexStore.TaskFilter = status == "open" ? .open : status == "done" ? .done : .all
                let limit = try arguments.int("limit", default: 200, in: 1...5_000)
                let page = try store.tasks(filter, limit: limit)
                return ToolOutput(page.tasks, total: page.total, truncated: page.total > page.tasks.count)
            }),
        Entry(
            tool: tool("properties", title: "Frontmatter properties",
                       "Without `key`: every frontmatter key with the number of notes using it and its value types. With `key`: each note's value for that key.",
                       properties: ["key": string("A frontmatter key, e.g. `status`."), "limit": limit(default: 200, maximum: 5_000)]),
            run: { _, arguments, store in
                let limit = try arguments.int("limit", default: 200, in: 1...5_000)
                if let key = arguments.optionalString("key"), !key.isEmpty {
                    return ToolOutput(capping: try store.propertyValues(key: key), limit: limit)
                }
                return ToolOutput(capping: try store.propertySummaries(), limit: limit)
            }),
        Entry(
            tool: tool("query", title: "Read-only SQL",
                       """
                       One read-only SQLite statement over the index's documented views: files(id, path, name, folder, extension, kind, size, modified, content_hash, real_path), \
                       notes(id, path, name, folder, size, modified, frontmatter JSON), links(source, target, link_path, subpath, display, kind, property_key, line, column, resolved, reference), \
                       note_types(path, declared_type, type, id), tags(path, tag, tag_lower, source, line, column), headings(path, level, text, line), blocks(path, block_id, line), \
                       tasks(path, status, text, line, done), aliases(path, alias), properties(path, key, type, value JSON, line, column), inline_fields(path, key, field_key, value, syntax, line, column), \
                       findings(path, code, severity, message, line, column, fix), \
                       and note_fts (FTS5: title, body; rowid = files.id). Statements that write and ATTACH are refused (`sql-not-read-only`, `sql-attach-refused`); a query still running at the server's time limit (10 s unless `rhizome mcp --timeout` says otherwise) is stopped with `timed-out`. Returns columns and rows.
                       """,
                       properties: ["sql": string("One SELECT (or WITH … SELECT) statement."), "limit": limit(default: 100, maximum: 5_000, what: "rows")],
                       required: ["sql"]),
            run: { _, arguments, store in
                let limit = try arguments.int("limit", default: 100, in: 1...5_000)
                let deadline = store.deadline ?? QueryDeadline(limit: VaultMCPServer.defaultTimeLimit, scope: "each MCP tool call", setting: "rhizome mcp --timeout SECONDS")
                var result = try IndexStore.untrustedQuery(
                    databasePath: store.databasePath, sql: try arguments.string("sql"), maxRows: limit + 1, deadline: deadline)
                let truncated = result.rows.count > limit
                result.rows = Array(result.rows.prefix(limit))
                return ToolOutput(result, total: nil, truncated: truncated)
            }),
        Entry(
            tool: tool("dataview", title: "Dataview query",
                       """
                       A Dataview (DQL) query, as the Obsidian plugin runs it: LIST, TABLE or TASK with FROM (#tag, "folder", [[note]], outgoing([[note]])), \
                       WHERE, SORT, GROUP BY, FLATTEN, LIMIT; fields are frontmatter keys and inline `key:: value` fields, plus file.name, file.path, \
                       file.tags, file.inlinks, file.outlinks, file.tasks and the other file.* fields. Example: TABLE status, due FROM #project WHERE status != "done" SORT due. \
                       Returns kind, columns and rows (values typed: links as {path, display}, dates as ISO text); set note to run it inside a note (`this`, [[]]). \
                       A query still running at the server's time limit (10 s unless `rhizome mcp --timeout` says otherwise) is stopped with `timed-out`.
                       """,
                       properties: [
                        "query": string("The DQL query."), "note": string("Run the query in this note (optional). " + noteHelp),
                        "explain": .object(["type": "boolean", "default": false, "description": "Include the plan: what ran in SQL, what in Swift."]),
                        "limit": limit(default: 200, maximum: 5_000, what: "rows"),
                       ], required: ["query"]),
            run: { tools, arguments, store in
                let limit = try arguments.int("limit", default: 200, in: 1...5_000)
                let origin = try arguments.optionalString("note").map { try tools.resolve($0, store: store).path }
                let text = try arguments.string("query")
                // A DataviewError answers with its diagnostic (the query line and a caret) and its fix.
                let query = try DataviewParser.parse(text)
                let result = try store.runDataview(query, origin: origin)
                var payload = DataviewJSONPayload(result, explain: try arguments.bool("explain", default: false))
                let total = max(payload.rows.count, result.tasks.count)
                let truncated = payload.cap(limit)
                return ToolOutput(payload, total: total, truncated: truncated)
            }),
        Entry(
            tool: tool("validate", title: "Schema findings",
                       "Problems the note-type schemas found in frontmatter (missing or wrong fields, bad values, duplicate ids, broken references), each with path, line, column, code, message and a fix. Filter by a path prefix or a type.",
                       properties: [
                        "path": string("Only notes at or under this vault path (a file or folder)."),
                        "type": string("Only notes of this type (e.g. `project`)."),
                        "limit": limit(default: 200, maximum: 5_000),
                       ]),
            run: { tools, arguments, store in
                let prefix = arguments.optionalString("path").map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 } ?? ""
                let type = arguments.optionalString("type") ?? ""
                let findings = try store.validationFindings().filter { item in
                    let path = item.finding.path ?? ""
                    let inPath = prefix.isEmpty || path == prefix || path.hasPrefix(prefix + "/")
                    let ofType = type.isEmpty || item.schemaType == type || item.declaredType == type
                    return inPath && ofType
                }.map(\.finding)
                return ToolOutput(capping: findings, limit: try arguments.int("limit", default: 200, in: 1...5_000))
            }),
        Entry(
            tool: tool("schema", title: "Note types",
                       "The note types in effect (built-in and the vault's own in .rhizome/schemas): without `type`, all of them; with `type`, that one. Each with its fields, which are required, their types, allowed values, defaults and descriptions: what to write in a new note's frontmatter.",
                       properties: ["type": string("A type name (or a `type:` value mapped to one).")]),
            run: { tools, arguments, _ in
                let catalog = try SchemaCatalog.load(vaultRoot: tools.vaultPath)
                if let type = arguments.optionalString("type"), !type.isEmpty {
                    guard let schema = catalog.schema(forType: type) ?? catalog.schema(forTypeValue: type) else {
                        throw ToolError.invalidArgument("no schema for the type `\(type)`; known types: \(catalog.schemas.map(\.type).joined(separator: ", "))")
                    }
                    return ToolOutput(SchemaDescription(schema), total: nil, truncated: false)
                }
                return ToolOutput(catalog.schemas.map(SchemaDescription.init), total: catalog.schemas.count, truncated: false)
            }),
    ]

    // MARK: Helpers

    func resolve(_ argument: String, store: IndexStore) throws -> FileRecord {
        if let record = try store.resolveNote(argument) { return record }
        throw ToolError.noteNotFound(argument, suggestions: try store.suggestions(for: argument))
    }

    private func readBody(of file: FileRecord, maxCharacters: Int) -> NoteBody {
        // Whole, to count its characters, up to the size the indexer reads (16 MiB).
        guard let (text, isWhole) = NoteText.read(vaultRoot: vaultPath, path: file.path) else {
            return NoteBody(text: nil, characters: 0, truncated: false, problem: "the file could not be read")
        }
        let truncated = text.count > maxCharacters || !isWhole
        return NoteBody(text: truncated ? String(text.prefix(maxCharacters)) : text, characters: isWhole ? text.count : nil, truncated: truncated, problem: nil)
    }

    static func tool(_ name: String, title: String, _ description: String, properties: [String: Value], required: [String] = []) -> Tool {
        Tool(
            name: name, title: title, description: description,
            inputSchema: .object([
                "type": "object", "properties": .object(properties), "required": .array(required.map { .string($0) }), "additionalProperties": false,
            ]),
            annotations: Tool.Annotations(title: title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false))
    }

    static func string(_ description: String) -> Value {
        .object(["type": "string", "description": .string(description)])
    }

    static func limit(default value: Int, maximum: Int, what: String = "items") -> Value {
        .object(["type": "integer", "minimum": 1, "maximum": .int(maximum), "default": .int(value), "description": .string("At most this many \(what); `truncated` says when more exist.")])
    }
}

/// A tool's answer before the freshness is added.
struct ToolOutput: Sendable {
    let data: any Encodable & Sendable
    let total: Int?
    let truncated: Bool
    /// Said beside the data when the answer is not quite what was asked (a search that fell back to any word).
    let note: String?

    init(_ data: some Encodable & Sendable, total: Int?, truncated: Bool, note: String? = nil) {
        self.data = data
        self.total = total
        self.truncated = truncated
        self.note = note
    }

    /// At most `limit` items; `total` counts them all.
    init<Item: Encodable & Sendable>(capping items: [Item], limit: Int) {
        self.init(Array(items.prefix(limit)), total: items.count, truncated: items.count > limit)
    }
}

struct NoteBody: Encodable, Sendable {
    @NullEncoded var text: String?
    /// The body's length in characters (null when only part of a large file was read).
    @NullEncoded var characters: Int?
    var truncated: Bool
    @NullEncoded var problem: String?

    private enum CodingKeys: String, CodingKey { case text, characters, truncated, problem }
}

struct NoteWithBody: Encodable, Sendable {
    var note: NoteDetail
    @NullEncoded var body: NoteBody?

    private enum CodingKeys: String, CodingKey { case note, body }
}
