import ArgumentParser
import Foundation
import RhizomeCore
import RhizomeStore

/// The options that narrow and page a list of notes or of rows about notes (links, by their source), shared
/// by the list commands: `--folder` (repeatable,
/// subfolders included), `--tag` (nested tags included), `--type`, `--offset`, `--limit`, and `--format`.
/// Text output says when the list was cut; JSON carries `total` and `truncated`.
struct ListShaping: ParsableArguments {
    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json, jsonl, csv, tsv, paths }

    @Option(name: .customLong("folder"), help: "Only notes under this vault-relative folder (repeatable; subfolders included).")
    var folders: [String] = []

    @Option(help: "Only notes with this tag (nested tags included: #project matches #project/rhizome).")
    var tag: String?

    @Option(help: "Only notes of this type (schema type or `type:` value).")
    var type: String?

    @Option(help: "Skip this many first.")
    var offset = 0

    @Option(help: "At most this many.")
    var limit: Int?

    @Option(help: "Output: text, json, jsonl, csv, tsv or paths (one path per line, for scripts).")
    var format: Format?

    @Option(help: "Order by FIELD, FIELD:asc or FIELD:desc (counts and dates: largest first by default). Each list names its fields when given one it lacks; docs/COMMANDS.md lists them.")
    var sort: String?

    /// No option given: the whole list, in the command's own output.
    var isDefault: Bool { folders.isEmpty && tag == nil && type == nil && offset == 0 && limit == nil && format == nil && sort == nil }

    /// Whether an option narrows which notes count (`--folder`, `--tag`, `--type`).
    var narrows: Bool { !folders.isEmpty || tag != nil || type != nil }

    func validate() throws {
        if offset < 0 { throw ValidationError("--offset must be 0 or more") }
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
        if let sort, SortRequest(sort) == nil { throw ValidationError("--sort takes FIELD, FIELD:asc or FIELD:desc, not `\(sort)`") }
    }

    /// `paths` narrowed by folder, tag and type, then paged; with how many there were before paging.
    func shape(_ paths: [String], store: IndexStore) throws -> (shown: [String], total: Int) {
        try shape(paths, path: { $0 }, store: store, sortBy: [.text("path") { $0 }])
    }

    /// `rows` narrowed by the note each belongs to (`path`: a link's source, a task's note) by folder, tag
    /// and type, then paged; with how many there were before paging.
    func shape<Row>(_ rows: [Row], path: (Row) -> String, store: IndexStore, sortBy fields: [SortField<Row>] = []) throws -> (shown: [Row], total: Int) {
        let kept = try sorted(try narrow(rows, path: path, store: store), by: fields)
        return (page(kept), kept.count)
    }

    /// `rows` narrowed by folder, tag and type (not paged).
    func narrow<Row>(_ rows: [Row], path: (Row) -> String, store: IndexStore) throws -> [Row] {
        var kept = rows
        if !folders.isEmpty {
            let prefixes = folders.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }.filter { !$0.isEmpty }
            if !prefixes.isEmpty { kept = kept.filter { row in prefixes.contains { path(row).hasPrefix($0 + "/") } } }
        }
        if let tag {
            let tagged = Set(try store.files(withTag: tag).map(\.path))
            kept = kept.filter { tagged.contains(path($0)) }
        }
        if let type {
            let typed = Set(try store.typedNotes().filter { $0.type == type || $0.declaredType == type }.map(\.path))
            kept = kept.filter { typed.contains(path($0)) }
        }
        return kept
    }

    /// The rows `--offset` and `--limit` show.
    func page<Row>(_ rows: [Row]) -> [Row] {
        let page = rows.dropFirst(offset)
        return Array(limit.map { page.prefix($0) } ?? page)
    }

    /// Prints a shaped list of paths in the chosen format (`--json` of the global options means json).
    /// `title` is plural ("orphan notes"); `singular` defaults to it without its last letter.
    func print(_ shown: [String], total: Int, title: String, singular: String? = nil, command: some RhizomeSubcommand, session: VaultSession, context: CommandContext) {
        switch format ?? (command.global.json ? .json : .text) {
        case .json:
            command.printJSON(shown, total: total, vault: session.vaultPath, context: context)
        case .jsonl:
            for path in shown { context.print(JSONOutput.encode(["path": path], pretty: false)) }
        case .csv, .tsv:
            // One column: the header, then a path a line (quoted for CSV where it must be).
            context.print("path")
            for path in shown { context.print(format == .csv ? CSVField.escaped(path) : path.replacingOccurrences(of: "\t", with: " ")) }
        case .paths:
            for path in shown { context.print(path) }
        case .text:
            context.print("\(total.grouped) \(total == 1 ? singular ?? String(title.dropLast()) : title)")
            for path in shown { context.print("  " + path) }
            printCutLine(shown: shown.count, total: total, context: context)
        }
    }

    /// Prints shaped rows in the chosen format: the JSON envelope with `total` and `truncated`, one JSON
    /// object a line, CSV or TSV with `columns`, each row's note once (`paths`), or `text` (the command's
    /// own rendering), followed by a line saying when the list was cut.
    func print<Row: Encodable>(
        _ shown: [Row], total: Int, columns: [(name: String, value: (Row) -> String)], path: (Row) -> String,
        command: some RhizomeSubcommand, session: VaultSession, context: CommandContext, text: () -> Void
    ) {
        switch format ?? (command.global.json ? .json : .text) {
        case .json:
            command.printJSON(shown, total: total, vault: session.vaultPath, context: context)
        case .jsonl:
            for row in shown { context.print(JSONOutput.encode(row, pretty: false)) }
        case .csv, .tsv:
            let field = { (text: String) in format == .csv ? CSVField.escaped(text) : text.replacingOccurrences(of: "\t", with: " ") }
            context.print(columns.map(\.name).joined(separator: format == .csv ? "," : "\t"))
            for row in shown { context.print(columns.map { field($0.value(row)) }.joined(separator: format == .csv ? "," : "\t")) }
        case .paths:
            var seen = Set<String>()
            for row in shown where seen.insert(path(row)).inserted { context.print(path(row)) }
        case .text:
            text()
            printCutLine(shown: shown.count, total: total, context: context)
        }
    }

    /// "showing 20 of 2,405; …" when the list was cut.
    func printCutLine(shown: Int, total: Int, context: CommandContext) {
        guard shown < total else { return }
        context.print("showing \(shown.grouped) of \(total.grouped)\(offset > 0 ? " from \(offset.grouped)" : ""); --limit and --offset to see more")
    }
}

/// The CSV and TSV columns of rows more than one command lists.
enum ListColumns {
    static var findings: [(name: String, value: (Finding) -> String)] {
        [("path", { $0.path ?? "" }), ("line", { $0.line.map(String.init) ?? "" }), ("column", { $0.column.map(String.init) ?? "" }),
         ("severity", \.severity.rawValue), ("code", \.code.rawValue), ("message", \.message), ("fix", { $0.fix ?? "" })]
    }
}
