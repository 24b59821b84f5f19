import RhizomeCore

/// Writes parsed notes into the index with prepared statements (the bulk path: no per-row SQL parsing).
final class BatchWriter {
    private let connection: SQLiteConnection
    private let fullText: Bool
    /// Deletes a file's rows in the per-file tables (`FileRows`).
    private let fileRows: FileDeletion
    private let deleteFindings: SQLiteStatement
    private let deleteFullText: SQLiteStatement
    private let insertLink, insertTag, insertHeading, insertBlock, insertTask, insertAlias, insertProperty, insertInlineField: SQLiteStatement
    private let insertFinding, insertFullText: SQLiteStatement
    private let updateFile, touchFile, forgetHash, insertFile: SQLiteStatement
    private let insertNoteType, insertReferenceValue, deleteSchemaFindings, deleteNoteType, deleteReferenceValues: SQLiteStatement

    init(connection: SQLiteConnection, fullText: Bool) throws(StoreError) {
        self.connection = connection
        self.fullText = fullText
        fileRows = try FileDeletion(connection)
        deleteFindings = try connection.prepare("DELETE FROM finding WHERE file_id = ?")
        deleteFullText = try connection.prepare("DELETE FROM note_fts WHERE rowid = ?")
        insertLink = try connection.prepare("""
            INSERT INTO link(id, source_id, target_id, kind, property_key, link_path, subpath, display, link_key, line, col, markdown_syntax)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        insertTag = try connection.prepare("INSERT INTO tag(id, file_id, name, name_key, from_frontmatter, line, col) VALUES (?, ?, ?, ?, ?, ?, ?)")
        insertHeading = try connection.prepare("INSERT INTO heading(id, file_id, level, text, line) VALUES (?, ?, ?, ?, ?)")
        insertBlock = try connection.prepare("INSERT INTO block(id, file_id, block_id, line) VALUES (?, ?, ?, ?)")
        insertTask = try connection.prepare("INSERT INTO task(id, file_id, status, text, line) VALUES (?, ?, ?, ?, ?)")
        insertAlias = try connection.prepare("INSERT INTO alias(id, file_id, alias) VALUES (?, ?, ?)")
        insertProperty = try connection.prepare("INSERT INTO property(id, file_id, key, type, value_json, line, col) VALUES (?, ?, ?, ?, ?, ?, ?)")
        insertInlineField = try connection.prepare("""
            INSERT INTO inline_field(id, file_id, key, field_key, value, syntax, line, col) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """)
        insertFinding = try connection.prepare("""
            INSERT INTO finding(file_id, path, code, severity, message, line, col, fix) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """)
        insertFullText = try connection.prepare("INSERT INTO note_fts(rowid, title, body) VALUES (?, ?, ?)")
        updateFile = try connection.prepare("""
            UPDATE file SET size = ?, mtime_ns = ?, content_hash = ?, real_path = ?, frontmatter_json = ? WHERE id = ?
            """)
        touchFile = try connection.prepare("UPDATE file SET size = ?, mtime_ns = ?, content_hash = ?, real_path = ? WHERE id = ?")
        forgetHash = try connection.prepare("UPDATE file SET content_hash = NULL WHERE id = ?")
        insertFile = try connection.prepare("""
            INSERT INTO file(id, path, name, folder, extension, kind, resolve_key, size, mtime_ns, content_hash, real_path, frontmatter_json)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        let schemaCodes = FindingCode.schemaCodes.subtracting(FindingCode.vaultCodes).map { "'\($0.rawValue)'" }.sorted().joined(separator: ", ")
        deleteSchemaFindings = try connection.prepare("DELETE FROM finding WHERE file_id = ? AND code IN (\(schemaCodes))")
        deleteNoteType = try connection.prepare("DELETE FROM note_type WHERE file_id = ?")
        deleteReferenceValues = try connection.prepare("DELETE FROM reference_value WHERE id BETWEEN ? AND ?")
        insertNoteType = try connection.prepare("""
            INSERT INTO note_type(file_id, declared_type, schema_type, id_value, id_line, id_col) VALUES (?, ?, ?, ?, ?, ?)
            """)
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
        if !job.isNew { try clear(id) }
        for (ordinal, (link, target)) in zip(note.links, targets).enumerated() {
            let statement = insertLink
            statement.reset()
            statement.bind(1, FileRows.id(file: id, position: ordinal))
            statement.bind(2, id)
            statement.bind(3, target.target)
            statement.bind(4, link.kind.rawValue)
            statement.bind(5, link.propertyKey)
            statement.bind(6, link.path)
            statement.bind(7, link.subpath)
            statement.bind(8, link.display)
            statement.bind(9, target.key)
            statement.bind(10, link.line)
            statement.bind(11, link.column)
            statement.bind(12, link.isMarkdownSyntax ? 1 : 0)
            try statement.execute()
        }
        for (ordinal, (tag, key)) in zip(note.tags, forms.tagKeys).enumerated() {
            let statement = insertTag
            statement.reset()
            statement.bind(1, FileRows.id(file: id, position: ordinal))
            statement.bind(2, id)
            statement.bind(3, tag.name)
            statement.bind(4, key)
            statement.bind(5, tag.isFromFrontmatter ? 1 : 0)
            statement.bind(6, tag.line)
            statement.bind(7, tag.column)
            try statement.execute()
        }
        for (ordinal, heading) in note.headings.enumerated() {
            let statement = insertHeading
            statement.reset()
            statement.bind(1, FileRows.id(file: id, position: ordinal))
            statement.bind(2, id)
            statement.bind(3, heading.level)
            statement.bind(4, heading.text)
            statement.bind(5, heading.line)
            try statement.execute()
        }
        for (ordinal, block) in note.blocks.enumerated() {
            let statement = insertBlock
            statement.reset()
            statement.bind(1, FileRows.id(file: id, position: ordinal))
            statement.bind(2, id)
            statement.bind(3, block.id)
            statement.bind(4, block.line)
            try statement.execute()
        }
        for (ordinal, task) in note.tasks.enumerated() {
            let statement = insertTask
            statement.reset()
            statement.bind(1, FileRows.id(file: id, position: ordinal))
            statement.bind(2, id)
            statement.bind(3, task.status)
            statement.bind(4, task.text)
            statement.bind(5, task.line)
            try statement.execute()
        }
        for (ordinal, (field, key)) in zip(note.inlineFields, forms.inlineFieldKeys).enumerated() {
            let statement = insertInlineField
            statement.reset()
            statement.bind(1, FileRows.id(file: id, position: ordinal))
            statement.bind(2, id)
            statement.bind(3, field.key)
            statement.bind(4, key)
            statement.bind(5, field.value)
            statement.bind(6, field.syntax.rawValue)
            statement.bind(7, field.line)
            statement.bind(8, field.column)
            try statement.execute()
        }
        for (ordinal, alias) in note.aliases.enumerated() {
            try insertAlias.bind(.integer(FileRows.id(file: id, position: ordinal)), .integer(id), .text(alias)).run()
        }
        if let frontmatter = note.frontmatter, !frontmatter.isInvalid {
            for (ordinal, (entry, valueJSON)) in zip(frontmatter.entries, forms.propertyValues).enumerated() {
                let statement = insertProperty
                statement.reset()
                statement.bind(1, FileRows.id(file: id, position: ordinal))
                statement.bind(2, id)
                statement.bind(3, entry.key)
                statement.bind(4, entry.value.value.typeName)
                statement.bind(5, valueJSON)
                statement.bind(6, entry.keyLine)
                statement.bind(7, entry.keyColumn)
                try statement.execute()
            }
        }
        try insertFindings(note.findings, fileID: id)
        if let check = note.schemaCheck { try writeSchemaCheck(check, fileID: id) }
        if fullText, let body = note.bodyText {
            let title = ([VaultPath.displayName(of: path)] + note.aliases).joined(separator: "\n")
            // The body was segmented for FTS by the parse workers (Indexer.parse); the short title is done here.
            try insertFullText.bind(.integer(id), .text(FullTextSegmenter.indexable(title)), .text(body)).run()
        }
        if job.insertsFileRow {
            try insertRow(of: job, hash: hash, frontmatterJSON: forms.frontmatterJSON)
        } else {
            try updateFile.bind(
                .integer(job.file.size), .integer(job.file.modificationTime), hash.sqlite, job.file.realPath.sqlite,
                forms.frontmatterJSON.sqlite, .integer(id)
            ).run()
        }
    }

    /// Records a new size/mtime for a file whose content did not change (or is not read).
    func touch(job: Indexer.ParseJob, hash: String?) throws(StoreError) {
        if job.insertsFileRow { return try insertRow(of: job, hash: hash, frontmatterJSON: nil) }
        try touchFile.bind(.integer(job.file.size), .integer(job.file.modificationTime), hash.sqlite, job.file.realPath.sqlite, .integer(job.id)).run()
    }

    /// The row of a file a first index writes with its content (`ParseJob.insertsFileRow`). Without its size
    /// and time when it was not read (`wasRead`): the next run then sees it changed and reads it again.
    private func insertRow(of job: Indexer.ParseJob, hash: String?, frontmatterJSON: String?, wasRead: Bool = true) throws(StoreError) {
        let path = job.file.path
        let parts = VaultPath.Parts(of: path)
        try insertFile.bind(
            .integer(job.id), .text(path), .text(parts.displayName), .text(parts.folder),
            .text(parts.lowercasedExtension), .text(job.file.kind.rawValue), .text(LinkResolver<Int64>.resolveKey(ofFilePath: path)),
            wasRead ? .integer(job.file.size) : nil, wasRead ? .integer(job.file.modificationTime) : nil, hash.sqlite,
            job.file.realPath.sqlite, frontmatterJSON.sqlite
        ).run()
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
        try deleteFindings.bind(.integer(fileID)).run()
        try insertFindings([finding], fileID: fileID)
        try forgetHash.bind(.integer(fileID)).run()
    }

    /// Replaces what schema checks stored about a file whose content did not change (the schemas did).
    func replaceSchemaCheck(_ check: NoteCheck, fileID id: Int64) throws(StoreError) {
        for statement in [deleteSchemaFindings, deleteNoteType] { try statement.bind(.integer(id)).run() }
        try deleteReferenceValues.bind(FileRows.bounds(of: id)).run()
        try insertFindings(check.findings, fileID: id)
        try writeSchemaCheck(check, fileID: id)
    }

    private func writeSchemaCheck(_ check: NoteCheck, fileID id: Int64) throws(StoreError) {
        guard check.declaredType != nil || check.schemaType != nil else { return }
        try insertNoteType.bind(
            .integer(id), check.declaredType.sqlite, check.schemaType.sqlite, check.id.map { .text($0.value) } ?? .null,
            check.id.map { .integer(Int64($0.line)) } ?? .null, check.id.map { .integer(Int64($0.column)) } ?? .null
        ).run()
        for (ordinal, reference) in check.references.enumerated() {
            try insertReferenceValue.bind(
                .integer(FileRows.id(file: id, position: ordinal)), .integer(id), .text(reference.key), .text(reference.value), reference.targetType.sqlite,
                .integer(Int64(reference.line)), .integer(Int64(reference.column))
            ).run()
        }
    }

    private func insertFindings(_ findings: [Finding], fileID: Int64) throws(StoreError) {
        for finding in findings {
            try insertFinding.bind(
                .integer(fileID), finding.path.sqlite, .text(finding.code.rawValue), .text(finding.severity.rawValue),
                .text(finding.message), finding.line.sqlite, finding.column.sqlite, finding.fix.sqlite
            ).run()
        }
    }

    private func clear(_ id: Int64) throws(StoreError) {
        try fileRows.deleteRows(of: id)
        for statement in [deleteNoteType, deleteFindings] { try statement.bind(.integer(id)).run() }
        try deleteFullText.bind(.integer(id)).run()
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

    init() {}

    init(_ note: ParsedNote) {
        if let frontmatter = note.frontmatter, !frontmatter.isInvalid {
            propertyValues = frontmatter.entries.map { JSONText.encode($0.value.value) }
            frontmatterJSON = JSONText.encode(frontmatter.entries, encodedValues: propertyValues)
        }
        tagKeys = note.tags.map { TagSyntax.key($0.name) }
        inlineFieldKeys = note.inlineFields.map { DataviewKey.canonicalKey($0.key) }
    }
}
