import RhizomeCore

/// Writes parsed notes into the index with prepared statements (the bulk path: no per-row SQL parsing).
final class BatchWriter {
    private let connection: SQLiteConnection
    private let fullText: Bool
    /// Deletes a file's rows in the per-file tables (`FileRows`).
    private let fileRows: FileDeletion
    private let deleteFindings: SQLiteStatement
    private let deleteFullText: SQLiteStatement
    /// The per-note rows, many per statement (`BulkInsert`): in the tables only after `flush()`.
    private let insertLink, insertTag, insertHeading, insertBlock, insertTask, insertAlias, insertProperty, insertInlineField: FileRowInserters
    private let insertFullText, replaceFullText: SQLiteStatement
    private let insertFinding, insertNoteType: BulkInsert
    private let updateFile, touchFile, forgetHash: SQLiteStatement
    /// The rows of files a first index writes with their content (`ParseJob.insertsFileRow`).
    private let insertFile: BulkInsert
    private let insertReferenceValue, deleteSchemaFindings, deleteNoteType, deleteReferenceValues: SQLiteStatement

    /// Every inserter above, for `flush()`.
    private let bulkInserts: [BulkInsert]

    /// How many rows one statement inserts (see `BulkInsert`).
    static let rowsPerStatement = 32

    /// `foreignKeysChecked`: whether the connection checks foreign keys (the indexer switches them off while
    /// it writes notes' content).
    init(connection: SQLiteConnection, fullText: Bool, foreignKeysChecked: Bool = true) throws(StoreError) {
        self.connection = connection
        self.fullText = fullText
        fileRows = try FileDeletion(connection)
        deleteFindings = try connection.prepare("DELETE FROM finding WHERE file_id = ?")
        deleteFullText = try connection.prepare("DELETE FROM note_fts WHERE rowid = ?")
        // Tables with a foreign key (links to their target; files, findings and note types as parents or
        // children) get one row per statement while the checks are on, which makes a multi-row statement
        // a savepoint (see `BulkInsert`).
        let checkedTableRows = foreignKeysChecked ? 1 : Self.rowsPerStatement
        insertLink = try FileRowInserters(connection, table: "link", columns: [
            "id", "source_id", "target_id", "kind", "property_key", "link_path", "subpath", "display", "link_key", "line", "col", "markdown_syntax",
        ], rowsPerStatement: checkedTableRows)
        insertTag = try FileRowInserters(connection, table: "tag", columns: ["id", "file_id", "name", "name_key", "from_frontmatter", "line", "col"])
        insertHeading = try FileRowInserters(connection, table: "heading", columns: ["id", "file_id", "level", "text", "line"])
        insertBlock = try FileRowInserters(connection, table: "block", columns: ["id", "file_id", "block_id", "line"])
        insertTask = try FileRowInserters(connection, table: "task", columns: ["id", "file_id", "status", "text", "line", "parent_line", "continued_text"])
        insertAlias = try FileRowInserters(connection, table: "alias", columns: ["id", "file_id", "alias"])
        insertProperty = try FileRowInserters(connection, table: "property", columns: ["id", "file_id", "key", "type", "value_json", "line", "col"])
        insertInlineField = try FileRowInserters(
            connection, table: "inline_field", columns: ["id", "file_id", "key", "field_key", "value", "syntax", "line", "col"])
        insertFinding = try BulkInsert(
            connection, table: "finding", columns: ["file_id", "path", "code", "severity", "message", "line", "col", "fix"],
            rowsPerStatement: checkedTableRows)
        insertFullText = try connection.prepare("INSERT INTO note_fts(rowid, title, body) VALUES (?, ?, ?)")
        // FTS5 deletes the row it replaces itself, reading it once; `DELETE … WHERE rowid = ?` first read it
        // to find it, then again to remove its terms (1,100 of 10k notes replaced: 240 -> 210 ms).
        replaceFullText = try connection.prepare("INSERT OR REPLACE INTO note_fts(rowid, title, body) VALUES (?, ?, ?)")
        updateFile = try connection.prepare("""
            UPDATE file SET size = ?, mtime_ns = ?, content_hash = ?, real_path = ?, frontmatter_json = ?, dataview_tags = ? WHERE id = ?
            """)
        touchFile = try connection.prepare("UPDATE file SET size = ?, mtime_ns = ?, content_hash = ?, real_path = ? WHERE id = ?")
        forgetHash = try connection.prepare("UPDATE file SET content_hash = NULL WHERE id = ?")
        insertFile = try BulkInsert(connection, table: "file", columns: [
            "id", "path", "name", "folder", "extension", "kind", "resolve_key", "size", "mtime_ns", "content_hash", "real_path", "frontmatter_json",
            "dataview_tags",
        ], rowsPerStatement: checkedTableRows)
        let schemaCodes = FindingCode.schemaCodes.subtracting(FindingCode.vaultCodes).map { "'\($0.rawValue)'" }.sorted().joined(separator: ", ")
        deleteSchemaFindings = try connection.prepare("DELETE FROM finding WHERE file_id = ? AND code IN (\(schemaCodes))")
        deleteNoteType = try connection.prepare("DELETE FROM note_type WHERE file_id = ?")
        deleteReferenceValues = try connection.prepare("DELETE FROM reference_value WHERE id BETWEEN ? AND ?")
        insertNoteType = try BulkInsert(
            connection, table: "note_type", columns: ["file_id", "declared_type", "schema_type", "id_value", "id_line", "id_col"],
            rowsPerStatement: checkedTableRows)
        bulkInserts = [insertFile]
            + [insertLink, insertTag, insertHeading, insertBlock, insertTask, insertAlias, insertProperty, insertInlineField].flatMap(\.both)
            + [insertFinding, insertNoteType]
        insertReferenceValue = try connection.prepare("""
            INSERT INTO reference_value(id, file_id, key, value, target_type, line, col) VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
    }

    /// Replaces everything stored about one file with `note`.
    func write(
        _ note: ParsedNote, targets: [LinkResolver<Int64>.Resolution], forms: StoredForms, job: Indexer.ParseJob, hash: String?
    ) throws(StoreError) {
        let id = job.id
        let path = job.file.path
        // Full text written ahead for exactly these bytes (`IndexStore.writeFullTextAhead`) stays as it is.
        let fullTextWrittenAhead = !job.isNew && hash.map { job.previousHash == IndexStore.fullTextAheadMarker(forContentHash: $0) } == true
        let fullTextBody = fullText && !fullTextWrittenAhead ? note.bodyText : nil
        // A file written before keeps its rows where its new version fills them again, overwritten only
        // where they differ (a note whose links a move rewrote: 1,000 notes' rows 330 -> 175 ms), unless
        // its full text is written in this run too: with FTS5 writing in the same transaction the
        // overwriting statements cost more than they save (the undo of a folder move: 800 -> 1,500 ms).
        let overwrites = !job.isNew && fullTextBody == nil
        if !job.isNew { try clear(id, keepingFullText: fullText && (fullTextWrittenAhead || note.bodyText != nil), keepingRowsOf: overwrites ? note : nil) }
        for ordinal in note.links.indices {
            let statement = insertLink(overwrites)
            statement.startRow(ofFile: id, position: ordinal)
            statement.add(targets[ordinal].target)
            statement.add(note.links[ordinal].kind.rawValue)
            statement.add(note.links[ordinal].propertyKey)
            statement.add(note.links[ordinal].path)
            statement.add(note.links[ordinal].subpath)
            statement.add(note.links[ordinal].display)
            statement.add(targets[ordinal].key)
            statement.add(note.links[ordinal].line)
            statement.add(note.links[ordinal].column)
            statement.add(note.links[ordinal].isMarkdownSyntax)
            try statement.endRow()
        }
        for ordinal in note.tags.indices {
            let statement = insertTag(overwrites)
            statement.startRow(ofFile: id, position: ordinal)
            statement.add(note.tags[ordinal].name)
            statement.add(forms.tagKeys[ordinal])
            statement.add(note.tags[ordinal].isFromFrontmatter)
            statement.add(note.tags[ordinal].line)
            statement.add(note.tags[ordinal].column)
            try statement.endRow()
        }
        for ordinal in note.headings.indices {
            let statement = insertHeading(overwrites)
            statement.startRow(ofFile: id, position: ordinal)
            statement.add(note.headings[ordinal].level)
            statement.add(note.headings[ordinal].text)
            statement.add(note.headings[ordinal].line)
            try statement.endRow()
        }
        for ordinal in note.blocks.indices {
            let statement = insertBlock(overwrites)
            statement.startRow(ofFile: id, position: ordinal)
            statement.add(note.blocks[ordinal].id)
            statement.add(note.blocks[ordinal].line)
            try statement.endRow()
        }
        for ordinal in note.tasks.indices {
            let statement = insertTask(overwrites)
            statement.startRow(ofFile: id, position: ordinal)
            statement.add(note.tasks[ordinal].status)
            statement.add(note.tasks[ordinal].text)
            statement.add(note.tasks[ordinal].line)
            statement.add(note.tasks[ordinal].parentTaskLine)
            statement.add(note.tasks[ordinal].continuedText)
            try statement.endRow()
        }
        for ordinal in note.inlineFields.indices {
            let statement = insertInlineField(overwrites)
            statement.startRow(ofFile: id, position: ordinal)
            statement.add(note.inlineFields[ordinal].key)
            statement.add(forms.inlineFieldKeys[ordinal])
            statement.add(note.inlineFields[ordinal].value)
            statement.add(note.inlineFields[ordinal].syntax.rawValue)
            statement.add(note.inlineFields[ordinal].line)
            statement.add(note.inlineFields[ordinal].column)
            try statement.endRow()
        }
        let aliases = insertAlias(overwrites)
        for (ordinal, alias) in note.aliases.enumerated() {
            aliases.startRow(ofFile: id, position: ordinal)
            aliases.add(alias)
            try aliases.endRow()
        }
        if let frontmatter = note.frontmatter, !frontmatter.isInvalid {
            for ordinal in frontmatter.entries.indices {
                let statement = insertProperty(overwrites)
                statement.startRow(ofFile: id, position: ordinal)
                statement.add(frontmatter.entries[ordinal].key)
                statement.add(frontmatter.entries[ordinal].value.value.typeName)
                statement.add(forms.propertyValues[ordinal])
                statement.add(frontmatter.entries[ordinal].keyLine)
                statement.add(frontmatter.entries[ordinal].keyColumn)
                try statement.endRow()
            }
        }
        try insertFindings(note.findings, fileID: id)
        if let check = note.schemaCheck { try writeSchemaCheck(check, fileID: id) }
        if let body = fullTextBody {
            let title = ([VaultPath.displayName(of: path)] + note.aliases).joined(separator: "\n")
            // The body was segmented for FTS by the parse workers (Indexer.parse); the short title is done here.
            try (job.isNew ? insertFullText : replaceFullText).bind(.integer(id), .text(FullTextSegmenter.indexable(title)), .text(body)).run()
        }
        if job.insertsFileRow {
            try insertRow(of: job, hash: hash, frontmatterJSON: forms.frontmatterJSON, dataviewTags: forms.dataviewTags)
        } else {
            try updateFile.bind(
                .integer(job.file.size), .integer(job.file.modificationTime), hash.sqlite, job.file.realPath.sqlite,
                forms.frontmatterJSON.sqlite, forms.dataviewTags.sqlite, .integer(id)
            ).run()
        }
    }

    /// Inserts the rows still collected: call it before the transaction commits.
    func flush() throws(StoreError) {
        for insert in bulkInserts { try insert.flush() }
    }

    /// Records a new size/mtime for a file whose content did not change (or is not read).
    func touch(job: Indexer.ParseJob, hash: String?) throws(StoreError) {
        if job.insertsFileRow { return try insertRow(of: job, hash: hash, frontmatterJSON: nil) }
        try touchFile.bind(.integer(job.file.size), .integer(job.file.modificationTime), hash.sqlite, job.file.realPath.sqlite, .integer(job.id)).run()
    }

    /// The row of a file a first index writes with its content (`ParseJob.insertsFileRow`). Without its size
    /// and time when it was not read (`wasRead`): the next run then sees it changed and reads it again.
    private func insertRow(
        of job: Indexer.ParseJob, hash: String?, frontmatterJSON: String?, dataviewTags: String? = nil, wasRead: Bool = true
    ) throws(StoreError) {
        let path = job.file.path
        let parts = VaultPath.Parts(of: path)
        insertFile.add(job.id)
        insertFile.add(path)
        insertFile.add(parts.displayName)
        insertFile.add(parts.folder)
        insertFile.add(parts.lowercasedExtension)
        insertFile.add(job.file.kind.rawValue)
        insertFile.add(LinkResolver<Int64>.resolveKey(ofFilePath: path))
        insertFile.add(wasRead ? job.file.size : nil)
        insertFile.add(wasRead ? job.file.modificationTime : nil)
        insertFile.add(hash)
        insertFile.add(job.file.realPath)
        insertFile.add(frontmatterJSON)
        insertFile.add(dataviewTags)
        try insertFile.endRow()
    }

    /// Records that a file could not be read: its findings become the read error, and its content hash is
    /// forgotten so that the next successful read parses it again (restoring its real findings), even if
    /// the bytes turn out unchanged. Everything else indexed about it is kept.
    func recordUnreadable(_ finding: Finding, job: Indexer.ParseJob) throws(StoreError) {
        let fileID = job.id
        if job.insertsFileRow {
            try insertRow(of: job, hash: nil, frontmatterJSON: nil, wasRead: false)
            return try insertFindings([finding], fileID: fileID)
        }
        try flush()  // nothing collected may outlive a delete in its table
        try deleteFindings.bind(.integer(fileID)).run()
        try insertFindings([finding], fileID: fileID)
        try forgetHash.bind(.integer(fileID)).run()
    }

    /// Replaces what schema checks stored about a file whose content did not change (the schemas did).
    func replaceSchemaCheck(_ check: NoteCheck, fileID id: Int64) throws(StoreError) {
        try flush()
        for statement in [deleteSchemaFindings, deleteNoteType] { try statement.bind(.integer(id)).run() }
        try deleteReferenceValues.bind(FileRows.bounds(of: id)).run()
        try insertFindings(check.findings, fileID: id)
        try writeSchemaCheck(check, fileID: id)
    }

    private func writeSchemaCheck(_ check: NoteCheck, fileID id: Int64) throws(StoreError) {
        guard check.declaredType != nil || check.schemaType != nil else { return }
        insertNoteType.add(id)
        insertNoteType.add(check.declaredType)
        insertNoteType.add(check.schemaType)
        insertNoteType.add(check.id?.value)
        insertNoteType.add(check.id?.line)
        insertNoteType.add(check.id?.column)
        try insertNoteType.endRow()
        for (ordinal, reference) in check.references.enumerated() {
            try insertReferenceValue.bind(
                .integer(FileRows.id(file: id, position: ordinal)), .integer(id), .text(reference.key), .text(reference.value), reference.targetType.sqlite,
                .integer(Int64(reference.line)), .integer(Int64(reference.column))
            ).run()
        }
    }

    private func insertFindings(_ findings: [Finding], fileID: Int64) throws(StoreError) {
        for finding in findings {
            insertFinding.add(fileID)
            insertFinding.add(finding.path)
            insertFinding.add(finding.code.rawValue)
            insertFinding.add(finding.severity.rawValue)
            insertFinding.add(finding.message)
            insertFinding.add(finding.line)
            insertFinding.add(finding.column)
            insertFinding.add(finding.fix)
            try insertFinding.endRow()
        }
    }

    /// Deletes what is stored about a file before its new content is written; its full text stays when
    /// the new one replaces it. With `keepingRowsOf`, so do its rows at the positions that note fills
    /// again, which the overwriting inserters then change only where they differ (a note whose links were
    /// rewritten keeps every other row as it was). The rows collected meanwhile are other files' (each
    /// file is written once in a run, after this), which these deletes cannot touch: they go in with the
    /// next full statement.
    private func clear(_ id: Int64, keepingFullText: Bool, keepingRowsOf note: ParsedNote?) throws(StoreError) {
        if let note {
            let properties = note.frontmatter.map { $0.isInvalid ? 0 : $0.entries.count } ?? 0
            // In the order of `IndexSchema.fileRowTables`; reference values are written by the schema check.
            try fileRows.deleteRows(of: id, from: [
                note.links.count, note.tags.count, note.headings.count, note.blocks.count, note.tasks.count,
                note.aliases.count, properties, note.inlineFields.count, 0,
            ])
        } else {
            try fileRows.deleteRows(of: id)
        }
        for statement in [deleteNoteType, deleteFindings] { try statement.bind(.integer(id)).run() }
        if !keepingFullText { try deleteFullText.bind(.integer(id)).run() }
    }
}

/// What the writer stores for a note that can be worked out before it: the frontmatter and each
/// property's value as JSON, and the lookup keys of tags and inline fields. Made on the parse workers,
/// so that the single writer only binds values.
struct StoredForms: Sendable {
    var frontmatterJSON: String?
    /// Each frontmatter entry's value as JSON, in order (empty without valid frontmatter).
    var propertyValues: [String] = []
    var tagKeys: [String] = []
    var inlineFieldKeys: [String] = []
    /// The lookup keys of the frontmatter tags Dataview reads (`DataviewFrontmatterTags`) as a JSON array,
    /// when they differ from the index's own frontmatter tags (Obsidian's reading); nil when they do not.
    var dataviewTags: String?

    init() {}

    init(_ note: ParsedNote) {
        if let frontmatter = note.frontmatter, !frontmatter.isInvalid {
            propertyValues = frontmatter.entries.map { JSONText.encode($0.value.value) }
            frontmatterJSON = JSONText.encode(frontmatter.entries, encodedValues: propertyValues)
            if frontmatter.entries.contains(where: { DataviewFrontmatterTags.isTagKey($0.key) }),
               let json = frontmatterJSON, case .object(let object)? = DataviewJSON.parse(json) {
                var seen = Set<String>()
                let keys = DataviewFrontmatterTags.tags(in: object).map { TagSyntax.key(String($0.dropFirst())) }.filter { seen.insert($0).inserted }
                let obsidian = Set(note.tags.filter(\.isFromFrontmatter).map { TagSyntax.key($0.name) })
                if Set(keys) != obsidian { dataviewTags = JSONText.array(keys) }
            }
        }
        tagKeys = note.tags.map { TagSyntax.key($0.name) }
        inlineFieldKeys = note.inlineFields.map { DataviewKey.canonicalKey($0.key) }
    }
}

/// A per-file table's two inserters: plain for rows whose ids are free (a file new to the index, or one
/// whose rows were all deleted), overwriting by id for a file whose rows were kept (`BatchWriter.clear`).
private struct FileRowInserters {
    let fresh: BulkInsert
    let overwriting: BulkInsert

    init(_ connection: SQLiteConnection, table: String, columns: [String], rowsPerStatement: Int = BatchWriter.rowsPerStatement) throws(StoreError) {
        fresh = try BulkInsert(connection, table: table, columns: columns, rowsPerStatement: rowsPerStatement)
        overwriting = try BulkInsert(connection, table: table, columns: columns, rowsPerStatement: rowsPerStatement, overwriting: true)
    }

    func callAsFunction(_ overwrites: Bool) -> BulkInsert { overwrites ? overwriting : fresh }

    var both: [BulkInsert] { [fresh, overwriting] }
}

private extension BulkInsert {
    /// A row of a per-file table (`FileRows`) begins with its id and its file's.
    func startRow(ofFile file: Int64, position: Int) {
        add(FileRows.id(file: file, position: position))
        add(file)
    }
}
