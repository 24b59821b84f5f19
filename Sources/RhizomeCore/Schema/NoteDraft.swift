import Foundation

/// The text and place of a new note, from its schema's defaults and scaffold.
public struct NoteDraft: Sendable {
    /// Vault-relative path of the new note.
    public var path: String
    public var text: String
    public var id: String?

    /// The note a schema scaffolds for `title`, with defaults and placeholders filled; throws when the
    /// values given cannot make a valid note.
    public static func make(
        schema: NoteSchema, title requestedTitle: String?, folder requestedFolder: String?,
        assignments: [(key: String, value: FrontmatterValue)], now: Date, typeKey: String = "type"
    ) throws(NoteDraftError) -> NoteDraft {
        let fileNameTemplate = schema.scaffold.fileName ?? "{{title}}"
        let needsTitle = fileNameTemplate.contains("{{title}}") || [.title, .fileName].contains(schema.id?.inferredFrom)
            || (schema.id?.inferredFrom == .folderName && (schema.scaffold.folder ?? "").contains("{{id}}"))
        guard requestedTitle != nil || !needsTitle else {
            throw NoteDraftError("a `\(schema.type)` note needs a title: --title \"…\"")
        }
        let dateOnly = NoteIdentifier.Placeholders(title: "", now: now)
        let title = requestedTitle ?? dateOnly.fill(fileNameTemplate)
        let id = schema.id?.inferredFrom != nil ? NoteIdentifier.slug(title) : nil
        if let id, id.isEmpty { throw NoteDraftError("the title `\(title)` gives an empty id; use letters or digits") }
        let placeholders = NoteIdentifier.Placeholders(title: title, id: id ?? "", now: now)

        // Values: --set, the id, the type, then defaults with placeholders filled.
        let root = schema.frontmatter.resolved
        var values: [(key: String, value: FrontmatterValue)] = []
        func set(_ key: String, _ value: FrontmatterValue) {
            if let index = values.firstIndex(where: { $0.key == key }) { values[index].value = value } else { values.append((key, value)) }
        }
        let order = schema.keyOrder + root.properties.map(\.name).filter { !schema.keyOrder.contains($0) }
        for key in order {
            if key == typeKey, root.property(typeKey) != nil { set(key, .string(schema.type)); continue }
            if let rule = schema.id, rule.field == key, let id { set(key, .string(id)); continue }
            if let value = root.property(key)?.effectiveDefault { set(key, filled(value, placeholders)) }
        }
        // A type matched only by path (Claude Code agents, skills) carries no `type:`; every other note says it.
        if root.property(typeKey) == nil, schema.matchPaths.isEmpty { values.insert((typeKey, .string(schema.type)), at: 0) }
        for (key, value) in assignments {
            if case .forbidden = root.additionalProperties, root.property(key) == nil {
                throw NoteDraftError("`\(key)` is not a field of `\(schema.type)` (strict schema); fields: \(root.properties.map(\.name).joined(separator: ", "))")
            }
            set(key, value)
        }
        // In the schema's key order, so that `fix` has nothing to do on a fresh note.
        let rank = Dictionary(([typeKey] + order).enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        func position(_ item: (offset: Int, element: (key: String, value: FrontmatterValue))) -> Int {
            rank[item.element.key] ?? order.count + item.offset
        }
        values = values.enumerated().sorted { position($0) < position($1) }.map(\.element)
        let missing = root.required.filter { key in !values.contains { $0.key == key } }
        guard missing.isEmpty else {
            throw NoteDraftError("`\(schema.type)` requires \(missing.map { "`\($0)`" }.joined(separator: ", ")), which \(missing.count == 1 ? "has" : "have") no default: add --set \(missing[0])=…")
        }

        var text = "---\n"
        for (key, value) in values { text += YAMLWriter.entryLines(key: key, value: value).joined(separator: "\n") + "\n" }
        text += "---\n"
        if let body = schema.scaffold.body { text += "\n" + placeholders.fill(body) }

        if let requestedFolder, requestedFolder.hasPrefix("/") {
            throw NoteDraftError("--folder takes a folder inside the vault, relative to it (`Projects/Archive`), not `\(requestedFolder)`")
        }
        let folderText = requestedFolder ?? schema.scaffold.folder.map(placeholders.fill) ?? ""
        guard let folder = VaultPath.normalize(folderText) else {
            throw NoteDraftError("the folder `\(folderText)` is outside the vault")
        }
        let name = fileName(placeholders.fill(fileNameTemplate))
        guard !name.isEmpty else { throw NoteDraftError("the title gives an empty file name; use letters or digits") }
        // File systems allow 255 bytes per name (an accented letter takes two, CJK three).
        guard (name + ".md").utf8.count <= 255 else {
            throw NoteDraftError("the file name would be \((name + ".md").utf8.count) bytes, over the 255 file systems allow; use a shorter --title")
        }
        return NoteDraft(path: (folder.isEmpty ? "" : folder + "/") + name + ".md", text: text, id: id)
    }

    /// Characters Obsidian refuses in file names or that break links (`* " \ / < > : | ? # ^ [ ]`) are dropped.
    public static func fileName(_ text: String) -> String {
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

/// Why a note cannot be scaffolded (a missing title or value, a bad folder); the message says what to give.
public struct NoteDraftError: RhizomeError {
    public var description: String
    public var code: String { "invalid-argument" }
    public var isUserMistake: Bool { true }

    init(_ description: String) { self.description = description }
}
