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
        try connection.prepare("""
            SELECT DISTINCT f.path FROM link l JOIN file f ON f.id = l.source_id
            WHERE l.via_reference = 0 AND l.link_key IN (SELECT value FROM json_each(?)) ORDER BY f.path
            """).bind(.text(JSONText.array(keys.sorted()))).rows { $0.text(0) }
    }

    /// The links that reach each of `paths` (resolved, no reference edges), with their sources.
    public func backlinks(toPaths paths: [String]) throws -> [LinkRecord] {
        try linkRecords(where: "l.via_reference = 0 AND t.path IN (SELECT value FROM json_each(?))", [.text(JSONText.array(paths))], order: "s.path, l.id")
    }
}
