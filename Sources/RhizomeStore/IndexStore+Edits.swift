import RhizomeCore

/// What changes to the vault need from the index: every file, and the notes whose links a change of
/// file names may affect.
extension IndexStore {
    /// Every file in the index (notes, canvases, attachments), in byte order of their paths.
    public func filePaths() throws -> [String] {
        try connection.prepare("SELECT path FROM file ORDER BY path").rows { $0.text(0) }
    }

    /// Files with a link (as Obsidian sees links: no reference edges) whose resolve key is one of `keys`:
    /// the only links a file that takes or gives up one of those names can affect.
    public func linkSources(withLinkKeys keys: Set<String>) throws -> [String] {
        // A resolved link's key is its target's resolve key (only a file sharing the key can be the
        // target: `LinkResolver`), so both halves go through an index rather than every link of the vault
        // (a hub note's 1,000 sources among 130,000 links: 34 -> 10 ms).
        try connection.prepare("""
            SELECT f.path FROM link l JOIN file f ON f.id = l.source_id
            WHERE l.via_reference = 0 AND l.target_id IN (SELECT id FROM file WHERE resolve_key IN (SELECT value FROM json_each(?1)))
            UNION
            SELECT f.path FROM link l JOIN file f ON f.id = l.source_id
            WHERE l.via_reference = 0 AND l.target_id IS NULL AND l.link_key IN (SELECT value FROM json_each(?1))
            ORDER BY 1
            """).bind(.text(JSONText.array(keys.sorted()))).rows { $0.text(0) }
    }

    /// The links that reach each of `paths` (resolved, no reference edges), with their sources.
    public func backlinks(toPaths paths: [String]) throws -> [LinkRecord] {
        try linkRecords(where: "l.via_reference = 0 AND t.path IN (SELECT value FROM json_each(?))", [.text(JSONText.array(paths))], order: "s.path, l.id")
    }
}

extension IndexStore {
    /// Notes modified at or after `since` (seconds since 1970), newest first, optionally only in `folder`
    /// (subfolders included), with `tag` (nested tags included) or of schema type `type`.
    public func recentlyModifiedNotes(since: Int64, folder: String? = nil, tag: String? = nil, type: String? = nil, limit: Int) throws -> [FileRecord] {
        var conditions = ["f.kind = 'note'", "f.mtime_ns >= ?"]
        var values: [SQLiteValue] = [.integer(since * 1_000_000_000)]
        if let folder, !folder.isEmpty {
            conditions.append("(f.folder = ? OR substr(f.folder, 1, length(?) + 1) = ? || '/')")
            values += [.text(folder), .text(folder), .text(folder)]
        }
        let scope = SearchScope(tag: tag, type: type)  // the tag and type conditions `search` narrows by
        if !scope.isEmpty {
            conditions.append(scope.condition.sql)
            values += scope.condition.values
        }
        return try connection.prepare("""
            SELECT \(Self.fileColumns) FROM file f WHERE \(conditions.joined(separator: " AND ")) ORDER BY f.mtime_ns DESC, f.path LIMIT ?
            """).bind(values + [.integer(Int64(limit))]).rows(Self.fileRecord)
    }
}
