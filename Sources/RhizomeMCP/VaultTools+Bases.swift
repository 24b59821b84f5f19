import Foundation
import MCP
import RhizomeCore
import RhizomeStore

/// The `base` tool: an Obsidian base (`.base` file) evaluated over the index, the same JSON as
/// `rhizome base --json`.
extension VaultTools {
    static let basesCatalog: [Entry] = [
        Entry(
            tool: tool("base", title: "Obsidian base (.base) view",
                       """
                       Evaluates an Obsidian base (a `.base` file: Bases, Obsidian's database views) and returns one view's table: \
                       view {name, type}, columns {property, displayName}, rows {path, values} keyed by property (note.x, file.x, formula.x) with \
                       typed values (links as {path, display, resolved}, dates as ISO text, a formula's error as {error}), groups when the view \
                       groups, summaries, and total before the view's own limit. Without `view`, the first view, as Obsidian opens a base. \
                       `this` is the base file unless `this` names a note (as when the base is embedded in it). Errors in the base come back \
                       with its file, line and column and a code (base-syntax, base-unknown-function, base-evaluation, base-unknown-view…).
                       """,
                       properties: [
                        "file": string("The .base file, resolved like a note: `Books`, `Bases/Books.base`."),
                        "view": string("The view's name (default: the first)."),
                        "this": string("The note `this` refers to (optional). " + noteHelp),
                        "limit": limit(default: 200, maximum: 5_000, what: "rows"),
                       ], required: ["file"]),
            run: { tools, arguments, store in
                let limit = try arguments.int("limit", default: 200, in: 1...5_000)
                let file = try arguments.string("file")
                guard let record = try store.resolveBase(file) else {
                    let suggestions = try store.baseSuggestions(for: file)
                    throw ToolError.failed(
                        code: "base-not-found",
                        message: "no .base file matches `\(file)`" + (suggestions.isEmpty ? "; this vault has no .base files" : "; did you mean: " + suggestions.joined(separator: ", ")))
                }
                let thisPath = try arguments.optionalString("this").map { try tools.resolve($0, store: store).path } ?? record.path
                let program = try store.baseProgram(atPath: record.path)
                let result = try store.runBase(program, viewNamed: arguments.optionalString("view"), thisPath: thisPath)
                var payload = BaseJSONPayload(result)
                let shown = payload.rows.count
                let truncated = payload.cap(limit)
                return ToolOutput(payload, total: shown, truncated: truncated)
            }),
    ]
}
