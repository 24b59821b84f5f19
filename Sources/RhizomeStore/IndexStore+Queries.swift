import Foundation
import RhizomeCore

/// Read queries over the index: notes and their links, orphans and dead ends, tags, tasks, properties,
/// stats and findings. Search is in `IndexStore+Search`, the graph walks in `+Graph`, the user's SQL in `+UserSQL`.
extension IndexStore {
    /// Resolves a NOTE argument exactly as a wikilink from the vault root would (`Note`, `Folder/Note`,
    /// `Note.md`, `Note#Heading`), also when pasted as a link or an Obsidian URI (`NoteArgument`).
    public func resolveNote(_ argument: String) throws -> FileRecord? {
        if let record = try resolveNoteText(argument) { return record }
        guard let inner = NoteArgument.linkPath(in: argument) else { return nil }
        return try resolveNoteText(inner)
    }

    private func resolveNoteText(_ argument: String) throws -> FileRecord? {
        // The whole argument first (a note may have `#` in its name: `C# notes`), then without `#heading`.
        if let record = try resolveNotePath(argument.trimmingSpaces) { return record }
        guard let hashIndex = argument.firstIndex(of: "#"), hashIndex != argument.startIndex else { return nil }
        return try resolveNotePath(String(argument[..<hashIndex]).trimmingSpaces)
    }

    /// The longest NOTE argument that can name a file: a vault path is at most what the system allows a
    /// path (4096 bytes on Linux, 1024 on macOS). Longer arguments name no note, and are not sent to SQLite
    /// (a pattern over 50,000 bytes is an error there, "LIKE or GLOB pattern too complex").
    static let longestNotePathBytes = 4_096
    /// The longest file name (`NAME_MAX`).
    static let longestFileNameBytes = 255

    private func resolveNotePath(_ linkPath: String) throws -> FileRecord? {
        guard linkPath.utf8.count <= Self.longestNotePathBytes else { return nil }
        let key = LinkResolver<Int64>.resolveKey(ofLinkPath: linkPath)
        let resolver = try resolver(forFilesIn: "SELECT id, path FROM file WHERE resolve_key = ?", [.text(key)])
        guard let match = resolver.resolve(linkPath: UnicodeNormalization.nfc(linkPath), from: "") else { return nil }
        return try file(id: match.id)
    }

    /// Notes whose name is close to `argument` (for "did you mean" messages).
    public func suggestions(for argument: String, limit: Int = 5) throws -> [String] {
        let argument = NoteArgument.linkPath(in: argument).map { path in path.split(separator: "#").first.map(String.init) ?? path } ?? argument
        guard argument.utf8.count <= Self.longestNotePathBytes else { return [] }
        let key = UnicodeNormalization.matchKey(String(VaultPath.fileName(of: argument)))
        let statement = try connection.prepare("""
            SELECT path FROM file WHERE resolve_key LIKE '%' || ? || '%' ESCAPE '\\' ORDER BY length(path) LIMIT ?
            """)
        statement.bind(.text(Self.escapeLike(key)), .integer(Int64(limit)))
        var result = try statement.rows { $0.text(0) }
        if result.isEmpty {
            let aliases = try connection.prepare("SELECT f.path FROM alias a JOIN file f ON f.id = a.file_id WHERE lower(a.alias) = ? LIMIT ?")
            aliases.bind(.text(key), .integer(Int64(limit)))
            result = try aliases.rows { $0.text(0) }
        }
        if result.isEmpty {
            // Typos and missing accents: names within a small edit distance, compared without case or diacritics.
            let wanted = Self.folded(key)
            let names = try connection.prepare("SELECT path, name FROM file").rows { ($0.text(0), Self.folded($0.text(1))) }
            let budget = max(1, wanted.count / 4)
            result = names.compactMap { path, name -> (String, Int)? in
                guard abs(name.count - wanted.count) <= budget else { return nil }
                let distance = Self.editDistance(name, wanted, limit: budget)
                return distance <= budget ? (path, distance) : nil
            }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(limit).map(\.0)
        }
        return result
    }

    public func file(id: Int64) throws -> FileRecord? {
        let statement = try connection.prepare("SELECT \(Self.fileColumns) FROM file f WHERE f.id = ?")
        statement.bind(.integer(id))
        return try statement.step() ? Self.fileRecord(statement) : nil
    }

    public func note(_ file: FileRecord) throws -> NoteDetail {
        let id = SQLiteValue.integer(file.id)
        let rows = FileRows.bounds(of: file.id)
        let frontmatterText = try connection.prepare("SELECT frontmatter_json FROM file WHERE id = ?").bind(id).rows { $0.optionalText(0) }.first ?? nil
        let frontmatter = try frontmatterText.map { try JSONDecoder().decode(JSONValue.self, from: Data($0.utf8)) }
        return NoteDetail(
            file: file,
            frontmatter: frontmatter,
            aliases: try connection.prepare("SELECT alias FROM alias WHERE id BETWEEN ? AND ? ORDER BY id").bind(rows).rows { $0.text(0) },
            tags: try connection.prepare("SELECT name, from_frontmatter, line, col FROM tag WHERE id BETWEEN ? AND ? ORDER BY id").bind(rows).rows {
                TagOccurrence(name: $0.text(0), isFromFrontmatter: $0.int(1) != 0, line: Int($0.int(2)), column: Int($0.int(3)))
            },
            headings: try connection.prepare("SELECT level, text, line FROM heading WHERE id BETWEEN ? AND ? ORDER BY id").bind(rows).rows {
                Heading(level: Int($0.int(0)), text: $0.text(1), line: Int($0.int(2)))
            },
            blocks: try connection.prepare("SELECT block_id, line FROM block WHERE id BETWEEN ? AND ? ORDER BY id").bind(rows).rows {
                BlockID(id: $0.text(0), line: Int($0.int(1)))
            },
            tasks: try connection.prepare("SELECT status, text, line FROM task WHERE id BETWEEN ? AND ? ORDER BY id").bind(rows).rows {
                TaskItem(status: $0.text(0), text: $0.text(1), line: Int($0.int(2)))
            },
            links: try outgoingLinks(of: file.id),
            backlinks: try backlinks(of: file.id),
            findings: try findings(fileID: file.id, path: file.path))
    }

    /// Every link occurrence written in the file, in order.
    public func outgoingLinks(of fileID: Int64) throws -> [LinkRecord] {
        try linkRecords(where: "l.id BETWEEN ? AND ?", FileRows.bounds(of: fileID), order: "l.id")
    }

    /// Every link occurrence that resolves to the file, by source path then position.
    public func backlinks(of fileID: Int64) throws -> [LinkRecord] {
        try linkRecords(where: "l.target_id = ?", [.integer(fileID)], order: "s.path, l.line, l.col")
    }

    /// Every link occurrence in the vault (the fidelity contract of `rhizome links --all --json`): the links
    /// Obsidian sees, so without reference edges.
    public func allLinks() throws -> [LinkRecord] {
        try linkRecords(where: "l.via_reference = 0", [], order: "s.path, l.id")
    }

    public func unresolvedLinks() throws -> [LinkRecord] {
        try linkRecords(where: "l.target_id IS NULL", [], order: "l.link_key, s.path, l.line")
    }

    /// Notes no other file links to (as Obsidian sees links: reference edges from id values do not count).
    public func orphans() throws -> [FileRecord] {
        try files(where: """
            f.kind = 'note' AND NOT EXISTS (SELECT 1 FROM link l WHERE l.target_id = f.id AND l.source_id != f.id AND l.via_reference = 0)
            """)
    }

    /// Notes with no outgoing links (resolved or not) other than to themselves (reference edges do not count).
    public func deadEnds() throws -> [FileRecord] {
        try files(where: """
            f.kind = 'note' AND NOT EXISTS (
                SELECT 1 FROM link l WHERE \(FileRows.of("f.id", in: "l")) AND (l.target_id IS NULL OR l.target_id != f.id) AND l.via_reference = 0)
            """)
    }

    /// Tag counts with nested tags rolled up into their parents (`#a/b` counts for `#a`).
    /// Every tag with how often it occurs and in how many notes (a nested tag counts for its parents too);
    /// only in the notes at `paths` when given. A tag is spelled as its first occurrence (by row id) is.
    ///
    /// One pass over the index by tag key, which holds every row's id and so its file (`FileRows`): SQLite
    /// gives each distinct tag (a vault has tens or hundreds) with the ids of its rows, and each tag's
    /// parents are worked out once. Reading every row into Swift and splitting each name cost 330 ms for
    /// 10k notes and 68k tags; this costs about 20 ms there.
    public func tagCounts(inNotes paths: Set<String>? = nil) throws -> [TagCount] {
        // Its reads on one snapshot: a watcher's commit between them could move the row a spelling is read from.
        try connection.readSnapshot { try tagCountsOfSnapshot(inNotes: paths) }
    }

    private func tagCountsOfSnapshot(inNotes paths: Set<String>?) throws -> [TagCount] {
        let allowed: Set<Int64>? = try paths.map { paths in
            Set(try connection.prepare("SELECT id, path FROM file").rows { paths.contains($0.text(1)) ? $0.int(0) : nil }.compactMap { $0 })
        }
        struct Tag {
            var key: String
            var occurrences = 0
            var files = Set<Int64>()
            var firstRow = Int64.max
        }
        var tags: [Tag] = []
        let grouped = try connection.prepare("SELECT name_key, group_concat(id) FROM tag GROUP BY name_key")
        while try grouped.step() {
            var tag = Tag(key: grouped.text(0))
            for row in Self.integers(inList: grouped.text(1)) {
                let file = row >> FileRows.positionBits
                guard allowed?.contains(file) ?? true else { continue }
                tag.occurrences += 1
                tag.files.insert(file)
                tag.firstRow = min(tag.firstRow, row)
            }
            if tag.occurrences > 0 { tags.append(tag) }
        }
        let spellingOf = try connection.prepare("SELECT name FROM tag WHERE id = ?")
        var spelling: [String: String] = [:]
        var totals: [String: Int] = [:]
        var notes: [String: Set<Int64>] = [:]
        // In the order of their first occurrence, so that a parent takes the spelling it first had.
        for tag in tags.sorted(by: { $0.firstRow < $1.firstRow }) {
            spellingOf.reset()
            spellingOf.bind(.integer(tag.firstRow), at: 1)
            let names = try spellingOf.step() ? TagSyntax.selfAndAncestors(spellingOf.text(0)) : []
            for (index, key) in TagSyntax.selfAndAncestors(tag.key).enumerated() {
                if spelling[key] == nil { spelling[key] = index < names.count ? names[index] : key }
                totals[key, default: 0] += tag.occurrences
                notes[key, default: []].formUnion(tag.files)
            }
        }
        return totals.keys.sorted().map { TagCount(tag: spelling[$0]!, count: totals[$0]!, notes: notes[$0]!.count) }
    }

    /// The row ids of a comma-separated list (`group_concat(id)`: never negative), read from its bytes.
    static func integers(inList text: String) -> [Int64] {
        var numbers: [Int64] = []
        var value: Int64 = 0, inNumber = false
        for byte in text.utf8 {
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                value = value &* 10 &+ Int64(byte &- UInt8(ascii: "0"))
                inNumber = true
            } else {
                if inNumber { numbers.append(value) }
                value = 0
                inNumber = false
            }
        }
        if inNumber { numbers.append(value) }
        return numbers
    }

    /// Files carrying `tag` or one of its nested children (case-insensitive, leading `#` optional).
    public func files(withTag tag: String) throws -> [FileRecord] {
        var key = TagSyntax.key(tag)
        if key.hasPrefix("#") { key.removeFirst() }
        return try files(where: """
            f.id IN (SELECT file_id FROM tag WHERE name_key = ? OR substr(name_key, 1, length(?) + 1) = ? || '/')
            """, [.text(key), .text(key), .text(key)])
    }

    public enum TaskFilter: Sendable {
        case all, open, done

        /// SQL over the `task` table as `k`.
        var condition: String {
            switch self {
            case .all: "1"
            case .open: "k.status = ' '"
            case .done: "k.status IN ('x', 'X')"
            }
        }
    }

    public func tasks(_ filter: TaskFilter = .all) throws -> [TaskRecord] {
        try connection.prepare("""
            SELECT f.path, k.line, k.status, k.text FROM task k JOIN file f ON f.id = k.file_id WHERE \(filter.condition) ORDER BY f.path, k.line
            """).rows(Self.taskRecord)
    }

    /// The first `limit` tasks of `tasks(filter)`, and how many there are in all: SQLite keeps only the
    /// first ones while sorting (10k notes, 64k tasks: 200 first of 33k open ones in ~25 ms, where reading
    /// them all took ~150).
    public func tasks(_ filter: TaskFilter, limit: Int) throws -> (tasks: [TaskRecord], total: Int) {
        // Both on one snapshot, so that the count is the count of the list.
        try connection.readSnapshot {
            let total = try connection.prepare("""
                SELECT count(*) FROM task k JOIN file f ON f.id = k.file_id WHERE \(filter.condition)
                """).rows { Int($0.int(0)) }.first ?? 0
            let tasks = try connection.prepare("""
                SELECT f.path, k.line, k.status, k.text FROM task k JOIN file f ON f.id = k.file_id WHERE \(filter.condition)
                ORDER BY f.path, k.line LIMIT ?
                """).bind(.integer(Int64(limit))).rows(Self.taskRecord)
            return (tasks, total)
        }
    }

    private static func taskRecord(_ row: SQLiteStatement) -> TaskRecord {
        TaskRecord(path: row.text(0), line: Int(row.int(1)), status: row.text(2), text: row.text(3), done: ["x", "X"].contains(row.text(2)))
    }

    public func propertySummaries() throws -> [PropertySummary] {
        try connection.prepare("""
            SELECT key, count(DISTINCT file_id), group_concat(DISTINCT type) FROM property GROUP BY key ORDER BY key
            """).rows {
            PropertySummary(key: $0.text(0), notes: Int($0.int(1)), types: $0.text(2).split(separator: ",").map(String.init).sorted())
        }
    }

    public func propertyValues(key: String) throws -> [PropertyValueRecord] {
        try connection.prepare("""
            SELECT f.path, p.type, p.value_json, p.line, p.col FROM property p JOIN file f ON f.id = p.file_id
            WHERE p.key = ? ORDER BY f.path
            """).bind(.text(key)).rows {
            PropertyValueRecord(
                path: $0.text(0), type: $0.text(1),
                value: (try? JSONDecoder().decode(JSONValue.self, from: Data($0.text(2).utf8))) ?? .null,
                line: Int($0.int(3)), column: Int($0.int(4)))
        }
    }

    public func stats() throws -> VaultStats {
        let statement = try connection.prepare("""
            SELECT (SELECT count(*) FROM file WHERE kind = 'note'), (SELECT count(*) FROM file WHERE kind = 'canvas'),
                   (SELECT count(*) FROM file WHERE kind = 'attachment'), (SELECT count(*) FROM link WHERE via_reference = 0),
                   (SELECT count(*) FROM link WHERE target_id IS NULL), (SELECT count(DISTINCT name_key) FROM tag),
                   (SELECT count(*) FROM task WHERE status = ' '), (SELECT count(*) FROM task WHERE status IN ('x', 'X')),
                   (SELECT count(*) FROM finding), (SELECT value FROM meta WHERE key = 'last_indexed_at'),
                   (SELECT count(*) FROM task WHERE status NOT IN (' ', 'x', 'X'))
            """)
        _ = try statement.step()
        let links = Int(statement.int(3))
        let unresolved = Int(statement.int(4))
        return VaultStats(
            notes: Int(statement.int(0)), canvases: Int(statement.int(1)), attachments: Int(statement.int(2)),
            links: links, resolvedLinks: links - unresolved, unresolvedLinks: unresolved, tags: Int(statement.int(5)),
            openTasks: Int(statement.int(6)), doneTasks: Int(statement.int(7)), otherTasks: Int(statement.int(10)), findings: Int(statement.int(8)),
            lastIndexedAt: statement.optionalText(9))
    }

    /// Stored findings (per file and vault-wide), most severe first. With a file: its own findings and the
    /// walk's findings about its path (a name that is not UTF-8, a duplicate path).
    public func findings(fileID: Int64? = nil, path: String? = nil) throws -> [Finding] {
        let condition = fileID == nil ? "1" : "(file_id = ? OR (file_id IS NULL AND path = ?))"
        let statement = try connection.prepare("""
            SELECT code, severity, message, path, line, col, fix FROM finding WHERE \(condition)
            ORDER BY CASE severity WHEN 'error' THEN 0 WHEN 'warning' THEN 1 ELSE 2 END, path, line
            """)
        if let fileID { statement.bind(.integer(fileID), path.map { .text($0) } ?? .null) }
        return try statement.rows {
            Finding(
                code: FindingCode(rawValue: $0.text(0)) ?? .unreadableFile, severity: Finding.Severity(rawValue: $0.text(1)) ?? .warning,
                message: $0.text(2), path: $0.optionalText(3), line: $0.optionalInt(4).map(Int.init),
                column: $0.optionalInt(5).map(Int.init), fix: $0.optionalText(6))
        }
    }

    static let fileColumns = "f.id, f.path, f.name, f.folder, f.kind, f.size, f.mtime_ns, f.real_path"

    static func fileRecord(_ statement: SQLiteStatement) -> FileRecord {
        FileRecord(
            id: statement.int(0), path: statement.text(1), name: statement.text(2), folder: statement.text(3), kind: statement.text(4),
            size: statement.optionalInt(5), modified: statement.optionalInt(6).map { $0 / 1_000_000_000 }, realPath: statement.optionalText(7))
    }

    private func files(where condition: String, _ values: [SQLiteValue] = []) throws -> [FileRecord] {
        try connection.prepare("SELECT \(Self.fileColumns) FROM file f WHERE \(condition) ORDER BY f.path").bind(values).rows(Self.fileRecord)
    }

    func linkRecords(where condition: String, _ values: [SQLiteValue], order: String) throws -> [LinkRecord] {
        try connection.prepare("""
            SELECT s.path, t.path, l.link_path, l.subpath, l.display, l.kind, l.property_key, l.line, l.col, l.via_reference
            FROM link l JOIN file s ON s.id = l.source_id LEFT JOIN file t ON t.id = l.target_id
            WHERE \(condition) ORDER BY \(order)
            """).bind(values).rows {
            LinkRecord(
                source: $0.text(0), target: $0.optionalText(1), linkPath: $0.text(2), subpath: $0.optionalText(3),
                display: $0.optionalText(4), kind: $0.text(5), propertyKey: $0.optionalText(6), line: Int($0.int(7)), column: Int($0.int(8)),
                isReference: $0.int(9) != 0)
        }
    }

    static func folded(_ text: String) -> [Character] {
        Array(text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil))
    }

    /// Levenshtein distance, giving up (returning `limit + 1`) once it must exceed `limit`.
    static func editDistance(_ lhs: [Character], _ rhs: [Character], limit: Int) -> Int {
        var previous = Array(0...rhs.count)
        for (i, left) in lhs.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: rhs.count)
            for (j, right) in rhs.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (left == right ? 0 : 1))
            }
            if current.min()! > limit { return limit + 1 }
            previous = current
        }
        return previous[rhs.count]
    }

    static func escapeLike(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
    }
}
