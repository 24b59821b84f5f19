import RhizomeCore

/// Queries behind `validate`, `fix` and `types`: stored validation findings, note types and type values.
extension IndexStore {
    /// The fingerprint of the schemas the stored results were checked against (nil before any check).
    public func checkedSchemaFingerprint() throws -> String? { try metaValue("schema_fingerprint") }

    /// A stored finding with the type of the note it is about.
    public struct ValidationFinding: Sendable {
        public var finding: Finding
        /// The schema type the note was checked against (nil for untyped notes and vault-level findings).
        public var schemaType: String?
        public var declaredType: String?
    }

    /// Findings about frontmatter and schemas (`FindingCode.isValidationCode`), most severe first, then by path and line.
    public func validationFindings() throws -> [ValidationFinding] {
        let codes = FindingCode.allCases.filter(\.isValidationCode).map { "'\($0.rawValue)'" }.joined(separator: ", ")
        let statement = try connection.prepare("""
            SELECT f.code, f.severity, f.message, f.path, f.line, f.col, f.fix, n.schema_type, n.declared_type
            FROM finding f LEFT JOIN note_type n ON n.file_id = f.file_id
            WHERE f.code IN (\(codes))
            ORDER BY CASE f.severity WHEN 'error' THEN 0 WHEN 'warning' THEN 1 ELSE 2 END, f.path, f.line, f.col, f.code
            """)
        return try statement.rows {
            ValidationFinding(
                finding: Finding(
                    code: FindingCode(rawValue: $0.text(0)) ?? .wrongType, severity: Finding.Severity(rawValue: $0.text(1)) ?? .error,
                    message: $0.text(2), path: $0.optionalText(3), line: $0.optionalInt(4).map(Int.init),
                    column: $0.optionalInt(5).map(Int.init), fix: $0.optionalText(6)),
                schemaType: $0.optionalText(7), declaredType: $0.optionalText(8))
        }
    }

    /// A typed note: its path, the schema it was checked against, and its `type:` value.
    public struct TypedNoteRecord: Sendable, Codable, Hashable {
        public var path: String
        public var type: String?
        public var declaredType: String?
        public var id: String?
    }

    /// Every note that has a `type:` value or was typed by its path.
    public func typedNotes() throws -> [TypedNoteRecord] {
        let statement = try connection.prepare("""
            SELECT f.path, n.schema_type, n.declared_type, n.id_value FROM note_type n JOIN file f ON f.id = n.file_id ORDER BY f.path
            """)
        return try statement.rows { TypedNoteRecord(path: $0.text(0), type: $0.optionalText(1), declaredType: $0.optionalText(2), id: $0.optionalText(3)) }
    }

    /// Notes (markdown files) in the index, by path.
    public func notePaths() throws -> [String] {
        let statement = try connection.prepare("SELECT path FROM file WHERE kind = 'note' ORDER BY path")
        return try statement.rows { $0.text(0) }
    }

    /// How many notes use each text value of the `type` property, or of the config's `typeKey` (whatever
    /// the schemas say).
    /// Only in the notes at `paths` when given.
    public func typePropertyCounts(key: String = "type", inNotes paths: Set<String>? = nil) throws -> [(value: String, notes: Int)] {
        guard let paths else {
            let statement = try connection.prepare("""
                SELECT json_extract(value_json, '$'), count(*) FROM property WHERE key = ? AND type IN ('string', 'date')
                GROUP BY 1 ORDER BY 2 DESC, 1
                """)
            statement.bind(.text(key))
            return try statement.rows { ($0.text(0), Int($0.int(1))) }
        }
        let statement = try connection.prepare("""
            SELECT json_extract(p.value_json, '$'), f.path FROM property p JOIN file f ON f.id = p.file_id
            WHERE p.key = ? AND p.type IN ('string', 'date')
            """)
        statement.bind(.text(key))
        var counts: [String: Int] = [:]
        for (value, path) in try statement.rows({ ($0.text(0), $0.text(1)) }) where paths.contains(path) { counts[value, default: 0] += 1 }
        return counts.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { ($0.key, $0.value) }
    }

    /// Paths of the notes whose `type` property (or the config's `typeKey`) is the text `value`.
    public func notes(withTypeValue value: String, key: String = "type") throws -> [String] {
        let statement = try connection.prepare("""
            SELECT f.path FROM property p JOIN file f ON f.id = p.file_id
            WHERE p.key = ? AND p.type IN ('string', 'date') AND json_extract(p.value_json, '$') = ? ORDER BY f.path
            """)
        statement.bind(.text(key), .text(value))
        return try statement.rows { $0.text(0) }
    }
}
