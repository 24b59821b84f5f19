import RhizomeCore

/// Which notes a full-text search looks in and in what order it returns them: narrowed in SQL (before
/// `LIMIT`, so a page holds the best hits of the notes asked for, and the count is theirs).
public struct SearchScope: Sendable, Equatable {
    /// Vault-relative folders (subfolders included); any of them.
    public var folders: [String]
    /// A tag, nested tags included (`project` matches `project/rhizome`), with or without `#`.
    public var tag: String?
    /// A schema type or a `type:` value.
    public var type: String?

    public enum Order: Sendable, Equatable {
        /// Notes whose name holds the words first, then BM25 (titles weigh ten times the body).
        case relevance
        case path(descending: Bool)
        /// Newest first unless `descending` is false.
        case modified(descending: Bool)

        var sql: String {
            switch self {
            case .relevance: return "name_hit DESC, score"
            case .path(let descending): return "f.path" + (descending ? " DESC" : "")
            case .modified(let descending): return "f.mtime_ns IS NULL, f.mtime_ns" + (descending ? " DESC" : "") + ", f.path"
            }
        }
    }

    /// How a snippet marks the words that matched.
    public enum Highlight: Sendable {
        /// `**bold**`, except inside emphasis the note already has.
        case markdown
        /// Bold red terminal styles (ANSI SGR), as ripgrep and grep show matches.
        case terminal
    }

    public init(folders: [String] = [], tag: String? = nil, type: String? = nil) {
        self.folders = folders.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }.filter { !$0.isEmpty }
        self.tag = tag
        self.type = type
    }

    public var isEmpty: Bool { folders.isEmpty && tag == nil && type == nil }

    /// An SQL condition on the `file` row `f`, with its values in order.
    var condition: (sql: String, values: [SQLiteValue]) {
        var parts: [String] = []
        var values: [SQLiteValue] = []
        if !folders.isEmpty {
            // Case-sensitive, as paths are compared everywhere else (`LIKE` would fold ASCII case).
            parts.append("(" + folders.map { _ in "substr(f.path, 1, length(?)) = ?" }.joined(separator: " OR ") + ")")
            for folder in folders { values += [.text(folder + "/"), .text(folder + "/")] }
        }
        if let tag {
            var key = TagSyntax.key(tag)
            if key.hasPrefix("#") { key.removeFirst() }
            parts.append("f.id IN (SELECT file_id FROM tag WHERE name_key = ? OR substr(name_key, 1, length(?) + 1) = ? || '/')")
            values += [.text(key), .text(key), .text(key)]
        }
        if let type {
            parts.append("f.id IN (SELECT file_id FROM note_type WHERE schema_type = ? OR declared_type = ?)")
            values += [.text(type), .text(type)]
        }
        return (parts.isEmpty ? "1" : parts.joined(separator: " AND "), values)
    }
}
