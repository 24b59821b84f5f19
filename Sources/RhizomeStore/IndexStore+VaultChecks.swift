import RhizomeCore

/// The schema checks that need the whole vault, run after each indexing run that changed anything:
/// duplicate ids, and reference fields — id values become graph edges (links of kind `property` with
/// `via_reference = 1`), references to missing notes, to several notes, or to notes of the wrong type
/// become findings. Reads what the parse step stored (`note_type`, `reference_value`, property links).
extension IndexStore {
    /// The vault checks stage of an indexing run (`VaultChecks`); returns the number of reference edges.
    func runVaultChecks(catalog: SchemaCatalog?) throws -> Int {
        try VaultChecks(connection: connection, catalog: catalog).run()
    }
}

struct VaultChecks {
    let connection: SQLiteConnection
    /// nil when schemas are off or failed to load: only clears what earlier runs derived.
    let catalog: SchemaCatalog?

    /// Replaces the reference edges and vault-level findings; returns the number of edges. The queries run
    /// on indexes (about 10 ms at 10k notes); their cost grows with the number of typed notes and references.
    func run() throws -> Int {
        try connection.transaction { () throws -> Int in
            try connection.execute("DELETE FROM link WHERE via_reference = 1")
            let codes = FindingCode.vaultCodes.map { "'\($0.rawValue)'" }.sorted().joined(separator: ", ")
            try connection.execute("DELETE FROM finding WHERE code IN (\(codes))")
            guard let catalog else { return 0 }
            var findings: [(fileID: Int64, finding: Finding)] = []

            let duplicates = try connection.prepare("""
                SELECT n.id_value, n.file_id, f.path, n.id_line, n.id_col FROM note_type n JOIN file f ON f.id = n.file_id
                WHERE n.id_value IN (SELECT id_value FROM note_type WHERE id_value IS NOT NULL GROUP BY id_value HAVING count(*) > 1)
                ORDER BY n.id_value, f.path
                """)
            var owners: [String: [(fileID: Int64, path: String, line: Int?, column: Int?)]] = [:]
            while try duplicates.step() {
                owners[duplicates.text(0), default: []].append((
                    duplicates.int(1), duplicates.text(2), duplicates.optionalInt(3).map(Int.init), duplicates.optionalInt(4).map(Int.init)))
            }
            for (id, notes) in owners {
                for note in notes {
                    let others = notes.filter { $0.fileID != note.fileID }.map(\.path)
                    // A placeholder id shared by thousands of notes must not make thousands of huge messages.
                    let listed = others.prefix(5).joined(separator: ", ") + (others.count > 5 ? " and \(others.count - 5) more" : "")
                    findings.append((note.fileID, Finding(
                        code: .duplicateID, severity: .error, message: "the id `\(id)` is also used by \(listed)",
                        path: note.path, line: note.line, column: note.column,
                        fix: "give each note its own id; references to `\(id)` cannot tell them apart")))
                }
            }

            // Id values of reference fields, each with the notes that have that id.
            var edges: [Edge] = []
            let references = try connection.prepare("""
                SELECT r.file_id, r.id, r.key, r.value, r.target_type, r.line, r.col, f.path, t.file_id, t.schema_type, tf.path
                FROM reference_value r JOIN file f ON f.id = r.file_id
                LEFT JOIN note_type t ON t.id_value = r.value LEFT JOIN file tf ON tf.id = t.file_id
                ORDER BY r.id, tf.path
                """)
            var suggestionsLeft = Self.maximumSuggestions
            var current: (source: Int64, ordinal: Int64)? = nil
            var group: [SQLRow] = []
            func flush() throws {
                guard let first = group.first else { return }
                defer { group = [] }
                let targets = group.filter { $0.targetID != nil }
                func add(_ code: FindingCode, _ message: String, fix: String?) {
                    findings.append((first.source, Finding(
                        code: code, severity: .error, message: message, path: first.path, line: first.line, column: first.column, fix: fix)))
                }
                switch targets.count {
                case 0:
                    // Suggestions cost a query each: a vault with thousands of broken references gets them for the first few.
                    suggestionsLeft -= 1
                    let fix = suggestionsLeft >= 0
                        ? try brokenReferenceFix(first.value, targetType: first.targetType)
                        : "use the id of an existing\(first.targetType.map { " `\($0)`" } ?? "") note, or link a note by name (`\"[[Note]]\"`)"
                    add(.brokenReference, "`\(first.key)` refers to `\(first.value)`, but no note has that id", fix: fix)
                case 1:
                    let target = targets[0]
                    edges.append(Edge(source: first.source, target: target.targetID!, key: first.key, value: first.value, line: first.line, column: first.column))
                    if let expected = first.targetType, target.targetSchemaType != expected {
                        add(.wrongReferenceType, "`\(first.key)` refers to \(target.targetPath ?? first.value), a `\(target.targetSchemaType ?? "untyped")` note; a `\(expected)` was expected",
                            fix: "point `\(first.key)` at a `\(expected)` note")
                    }
                default:
                    add(.ambiguousReference, "`\(first.key)` refers to `\(first.value)`, the id of \(targets.count) notes: \(targets.compactMap(\.targetPath).joined(separator: ", "))",
                        fix: "make the id unique, or link the note itself: `\"[[Note]]\"`")
                }
            }
            while try references.step() {
                let row = SQLRow(
                    source: references.int(0), key: references.text(2), value: references.text(3), targetType: references.optionalText(4),
                    line: Int(references.int(5)), column: Int(references.int(6)), path: references.text(7),
                    targetID: references.optionalInt(8), targetSchemaType: references.optionalText(9), targetPath: references.optionalText(10))
                let position = (row.source, references.int(1))
                if let current, current != position { try flush() }
                current = position
                group.append(row)
            }
            try flush()

            // Link values of reference fields: Obsidian's own property links, checked for existence and type.
            let referenceKeys = Set(catalog.schemas.flatMap { $0.references.map(\.key) })
            if !referenceKeys.isEmpty {
                let keyList = JSONText.array(referenceKeys.sorted())
                let links = try connection.prepare("""
                    SELECT l.source_id, l.property_key, l.target_id, l.link_path, l.line, l.col, f.path, n.schema_type, t.schema_type, tf.path
                    FROM link l JOIN note_type n ON n.file_id = l.source_id JOIN file f ON f.id = l.source_id
                    LEFT JOIN note_type t ON t.file_id = l.target_id LEFT JOIN file tf ON tf.id = l.target_id
                    WHERE l.kind = 'property' AND l.property_key IN (SELECT value FROM json_each(?)) AND n.schema_type IS NOT NULL
                    ORDER BY l.id
                    """)
                links.bind(.text(keyList))
                while try links.step() {
                    guard let key = links.optionalText(1), let schema = catalog.schema(forType: links.text(7)),
                          let expected = schema.referenceTarget(key) else { continue }
                    let source = links.int(0), path = links.text(6), linkPath = links.text(3)
                    let line = Int(links.int(4)), column = Int(links.int(5))
                    guard links.optionalInt(2) != nil else {
                        findings.append((source, Finding(
                            code: .brokenReference, severity: .error, message: "`\(key)` links to `[[\(linkPath)]]`, which does not exist",
                            path: path, line: line, column: column, fix: "create the note, or correct the link")))
                        continue
                    }
                    let targetType = links.optionalText(8)
                    if let expected, targetType != expected {
                        findings.append((source, Finding(
                            code: .wrongReferenceType, severity: .error,
                            message: "`\(key)` links to \(links.optionalText(9) ?? linkPath), a `\(targetType ?? "untyped")` note; a `\(expected)` was expected",
                            path: path, line: line, column: column, fix: "point `\(key)` at a `\(expected)` note")))
                    }
                }
            }

            let insertEdge = try connection.prepare("""
                INSERT INTO link(id, source_id, target_id, kind, property_key, link_path, link_key, line, col, via_reference)
                VALUES (?, ?, ?, 'property', ?, ?, ?, ?, ?, 1)
                """)
            var ordinals: [Int64: Int64] = [:]
            for edge in edges {
                let ordinal = ordinals[edge.source, default: Self.firstEdgeOrdinal]
                ordinals[edge.source] = ordinal + 1
                // The link key can never equal a file's resolve key, so re-resolution never touches these rows.
                try insertEdge.bind(
                    .integer(FileRows.id(file: edge.source, position: Int(ordinal))), .integer(edge.source), .integer(edge.target), .text(edge.key), .text(edge.value),
                    .text("\u{1}id:" + edge.value), .integer(Int64(edge.line)), .integer(Int64(edge.column))
                ).run()
            }
            let insertFinding = try connection.prepare("""
                INSERT INTO finding(file_id, path, code, severity, message, line, col, fix) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for (fileID, finding) in findings {
                try insertFinding.bind(
                    .integer(fileID), finding.path.sqlite, .text(finding.code.rawValue), .text(finding.severity.rawValue),
                    .text(finding.message), finding.line.sqlite, finding.column.sqlite, finding.fix.sqlite
                ).run()
            }
            try connection.prepare("INSERT INTO meta(key, value) VALUES ('vault_checks_pending', '0') ON CONFLICT(key) DO UPDATE SET value = '0'").run()
            return edges.count
        }
    }

    /// Broken references that get a did-you-mean (each costs a query).
    static let maximumSuggestions = 100

    /// Reference edges are numbered after any link a note can hold (a note has fewer than 2^30 links:
    /// `IndexOptions.largestNoteBytes`), within a file's range of link ids (`FileRows`).
    static let firstEdgeOrdinal: Int64 = 1 << 31

    // MARK: Helpers

    private struct SQLRow {
        var source: Int64
        var key: String
        var value: String
        var targetType: String?
        var line: Int
        var column: Int
        var path: String
        var targetID: Int64?
        var targetSchemaType: String?
        var targetPath: String?
    }

    private struct Edge {
        var source: Int64
        var target: Int64
        var key: String
        var value: String
        var line: Int
        var column: Int
    }

    /// Suggests linking by name when a note is called like the value, else ids that contain it.
    private func brokenReferenceFix(_ value: String, targetType: String?) throws -> String {
        let sameIgnoringCase = try connection.prepare("SELECT id_value FROM note_type WHERE lower(id_value) = lower(?) LIMIT 1")
        sameIgnoringCase.bind(.text(value))
        if try sameIgnoringCase.step() { return "ids are compared exactly: did you mean `\(sameIgnoringCase.text(0))`?" }
        // A type without an id field can only be referred to by link.
        let targetHasIDs = targetType.map { catalog?.schema(forType: $0)?.id != nil } ?? true
        let named = try connection.prepare("SELECT path FROM file WHERE resolve_key = ? AND kind = 'note' LIMIT 1")
        named.bind(.text(LinkResolver<Int64>.resolveKey(ofLinkPath: value)))
        if try named.step() {
            return "a note is named `\(value)` (\(named.text(0))): link it instead, `\"[[\(value)]]\"`" + (targetHasIDs ? ", or give it the id `\(value)`" : "")
        }
        if !targetHasIDs {
            return "`\(targetType ?? "")` notes have no id field: refer to one by link, `\"[[Note name]]\"`"
        }
        let similar = try connection.prepare("""
            SELECT DISTINCT id_value FROM note_type WHERE id_value IS NOT NULL AND (?2 IS NULL OR schema_type = ?2)
            AND (instr(lower(id_value), lower(?1)) > 0 OR instr(lower(?1), lower(id_value)) > 0) ORDER BY id_value LIMIT 3
            """)
        similar.bind(.text(value), targetType.sqlite)
        let close = try similar.rows { "`\($0.text(0))`" }
        if !close.isEmpty { return "did you mean " + close.joined(separator: ", ") + "?" }
        return "use the id of an existing\(targetType.map { " `\($0)`" } ?? "") note, or create it (`rhizome new \(targetType ?? "TYPE") --title …`)"
    }
}
