import RhizomeCore

/// The SQL of link re-resolution by pending key (`pending_resolve`): a file added, removed or renamed
/// marks its resolve key, and the links that may now reach another file are resolved again. When each
/// resolution path applies is said once, in `Indexer+Links.swift`.
extension IndexStore {
    func pendingKeyCount() throws(StoreError) -> Int {
        let statement = try connection.prepare("SELECT count(*) FROM pending_resolve")
        return try statement.step() ? Int(statement.int(0)) : 0
    }

    /// Re-resolves every link whose key is pending, except in files just parsed; returns how many changed target.
    /// Those links are the unresolved ones with a pending key, and the resolved ones whose target has a
    /// pending key (a link resolves only to a file sharing its key; a removed file's links were unset).
    func reresolvePendingLinks(skipping parsedIDs: Set<Int64>) throws -> Int {
        guard try pendingKeyCount() > 0 else { return 0 }
        return try connection.transaction {
            let resolver = try resolver(forFilesIn: "SELECT f.id, f.path FROM file f JOIN pending_resolve p ON f.resolve_key = p.link_key")
            let links = try connection.prepare("""
                SELECT l.source_id, l.id, l.link_path, l.markdown_syntax, l.target_id, f.path
                FROM link l JOIN file f ON f.id = l.source_id
                WHERE (l.target_id IS NULL AND l.link_key IN (SELECT link_key FROM pending_resolve))
                   OR (l.target_id IN (SELECT t.id FROM file t JOIN pending_resolve p ON t.resolve_key = p.link_key) AND l.via_reference = 0)
                """)
            var updates: [(link: Int64, target: Int64?)] = []
            while try links.step() {
                guard !parsedIDs.contains(links.int(0)) else { continue }
                let target = resolver.resolve(linkPath: links.text(2), relativeFirst: links.int(3) != 0, from: links.text(5))?.id
                if target != links.optionalInt(4) { updates.append((links.int(1), target)) }
            }
            let update = try connection.prepare("UPDATE link SET target_id = ? WHERE id = ?")
            for change in updates {
                try update.bind(change.target.map { .integer($0) } ?? .null, .integer(change.link)).run()
            }
            try connection.execute("DELETE FROM pending_resolve")
            return updates.count
        }
    }

    /// Forgets every pending key (a first index resolved every link against every file).
    func clearPendingKeys() throws(StoreError) {
        try connection.execute("DELETE FROM pending_resolve")
    }

    /// Rewrites the stored resolve keys that differ from what `LinkResolver` computes now (a parser that
    /// keys names differently). Call inside a transaction.
    func refreshResolveKeys() throws {
        let stale = try connection.prepare("SELECT id, path, resolve_key FROM file").rows { row -> (id: Int64, key: String)? in
            let key = LinkResolver<Int64>.resolveKey(ofFilePath: row.text(1))
            return key == row.text(2) ? nil : (row.int(0), key)
        }.compactMap { $0 }
        let update = try connection.prepare("UPDATE file SET resolve_key = ? WHERE id = ?")
        for (id, key) in stale { try update.bind(.text(key), .integer(id)).run() }
    }
}
