import RhizomeCore

/// The SQL of an indexing run's bookkeeping: what the index knows of each file (to compare a walk with),
/// the rows of files a run adds, the vault-level findings, and the totals a report shows. The `Indexer`
/// decides; these read and write.
extension IndexStore {
    /// What the index holds about a file: enough to tell whether the file on disk changed.
    struct FileState: Sendable {
        var id: Int64
        var path: String
        var size: Int64?
        var modificationTime: Int64?
        var contentHash: String?
        var realPath: String?
    }

    /// Every indexed file's state, by path.
    func fileStates() throws(StoreError) -> [String: FileState] {
        try fileStates(where: "", [])
    }

    /// The states of just these paths (those indexed).
    func fileStates(paths: Set<String>) throws(StoreError) -> [String: FileState] {
        try fileStates(where: "WHERE path IN (SELECT value FROM json_each(?))", [.text(JSONText.array(paths))])
    }

    private func fileStates(where condition: String, _ values: [SQLiteValue]) throws(StoreError) -> [String: FileState] {
        let statement = try connection.prepare("SELECT id, path, size, mtime_ns, content_hash, real_path FROM file \(condition)")
        statement.bind(values)
        var states: [String: FileState] = [:]
        while try statement.step() {
            let state = FileState(
                id: statement.int(0), path: statement.text(1), size: statement.optionalInt(2),
                modificationTime: statement.optionalInt(3), contentHash: statement.optionalText(4), realPath: statement.optionalText(5))
            states[state.path] = state
        }
        return states
    }

    /// Gives each added file its row (no content yet: no size, time or hash, so an unfinished run parses
    /// it next time) and marks the resolve keys of the added and removed files pending. Returns the new
    /// rows' ids in the order of `added`. Call inside a transaction.
    func insertFileRows(_ added: [ScannedFile], markingPendingAlso removed: [FileState]) throws(StoreError) -> [Int64] {
        let markPending = try connection.prepare("INSERT OR IGNORE INTO pending_resolve(link_key) VALUES (?)")
        for state in removed {
            try markPending.bind(.text(LinkResolver<Int64>.resolveKey(ofFilePath: state.path))).run()
        }
        let insert = try connection.prepare("""
            INSERT INTO file(path, name, folder, extension, kind, resolve_key, real_path) VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        var ids: [Int64] = []
        ids.reserveCapacity(added.count)
        for file in added {
            let key = LinkResolver<Int64>.resolveKey(ofFilePath: file.path)
            let parts = VaultPath.Parts(of: file.path)
            try insert.bind(
                .text(file.path), .text(parts.displayName), .text(parts.folder),
                .text(parts.lowercasedExtension), .text(file.kind.rawValue), .text(key), file.realPath.sqlite
            ).run()
            ids.append(connection.lastInsertRowID)
            try markPending.bind(.text(key)).run()
        }
        return ids
    }

    /// The findings about the vault rather than a note's content (unreadable folders, broken symlinks…),
    /// stored without a file.
    func vaultLevelFindings() throws(StoreError) -> [Finding] {
        let statement = try connection.prepare("SELECT code, severity, message, path, line, col, fix FROM finding WHERE file_id IS NULL ORDER BY id")
        var result: [Finding] = []
        while try statement.step() {
            let finding = Finding(
                code: FindingCode(rawValue: statement.text(0)) ?? .unreadableFile,
                severity: Finding.Severity(rawValue: statement.text(1)) ?? .warning,
                message: statement.text(2), path: statement.optionalText(3),
                line: statement.optionalInt(4).map(Int.init), column: statement.optionalInt(5).map(Int.init), fix: statement.optionalText(6))
            result.append(finding)
        }
        return result
    }

    /// Replaces every vault-level finding with `findings`. Call inside a transaction.
    func replaceVaultLevelFindings(_ findings: [Finding]) throws(StoreError) {
        try connection.execute("DELETE FROM finding WHERE file_id IS NULL")
        let insert = try connection.prepare("""
            INSERT INTO finding(file_id, path, code, severity, message, line, col, fix) VALUES (NULL, ?, ?, ?, ?, ?, ?, ?)
            """)
        for finding in findings {
            try insert.bind(
                finding.path.sqlite, .text(finding.code.rawValue), .text(finding.severity.rawValue), .text(finding.message),
                finding.line.sqlite, finding.column.sqlite, finding.fix.sqlite
            ).run()
        }
    }

    /// The index's totals after a run: notes, files, links (less reference edges), unresolved links,
    /// findings and reference edges.
    func fillTotals(_ report: inout IndexReport) throws(StoreError) {
        let statement = try connection.prepare("""
            SELECT (SELECT count(*) FROM file WHERE kind = 'note'), (SELECT count(*) FROM file),
                   -- All links (counted on an index, not by reading the table) less the reference edges.
                   (SELECT count(*) FROM link) - (SELECT count(*) FROM link WHERE via_reference = 1),
                   (SELECT count(*) FROM link WHERE target_id IS NULL),
                   (SELECT count(*) FROM finding), (SELECT count(*) FROM link WHERE via_reference = 1)
            """)
        guard try statement.step() else { return }
        report.referenceEdges = Int(statement.int(5))
        report.notes = Int(statement.int(0))
        report.files = Int(statement.int(1))
        report.links = Int(statement.int(2))
        report.unresolvedLinks = Int(statement.int(3))
        report.findingsTotal = Int(statement.int(4))
    }

    /// Before the content stage writes a run's notes: foreign-key checks off (writing content deletes no
    /// file row and inserts only ids of files that exist, so nothing needs them, and `BulkInsert` can put
    /// many links in one statement), and for a cold bulk load FTS5 merging off, so its segments merge once
    /// at the end. `endContentWrites` turns both back on.
    func beginContentWrites(coldIndex: Bool) throws {
        try connection.execute("PRAGMA foreign_keys = OFF")
        if coldIndex { try connection.execute("INSERT INTO note_fts(note_fts, rank) VALUES ('automerge', 0)") }
    }

    func endContentWrites(coldIndex: Bool) {
        try? connection.execute("PRAGMA foreign_keys = ON")
        if coldIndex { try? connection.execute("INSERT INTO note_fts(note_fts, rank) VALUES ('automerge', 4)") }
    }
}
