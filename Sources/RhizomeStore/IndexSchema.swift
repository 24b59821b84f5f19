/// The index database schema: tables (internal), views (the documented, stable query surface for
/// `rhizome sql`), and migrations keyed by `PRAGMA user_version`.
///
/// The index is a cache that can always be rebuilt from the vault. A shipped migration is never edited;
/// a migration that changes what is extracted bumps `parserVersion` so the next run re-reads every file.
enum IndexSchema {
    /// The schema version this build writes (`PRAGMA user_version`).
    static let version = 7
    /// Bump when parsing or resolution changes what is stored for unchanged files: forces a full re-read.
    static let parserVersion = "8"  // 2: CJK characters as single tokens; 3: exact canvas and property link positions; 4: Dataview inline fields; 5: `%%` comment sections, Obsidian's tag characters; 6: resolve keys of `.MD` files; 7: `file.dataview_tags`; 8: tasks' parent task and continued text

    /// Secondary indexes, kept apart from the migrations so that a first (bulk) index can build them once
    /// at the end. `IndexStore` makes sure they exist on every open.
    /// (A file's rows in the per-file tables need no index: see `FileRows`.)
    static let secondaryIndexes: [(name: String, definition: String)] = [
        // Backlinks (by target); re-resolution finds resolved links by their target (which shares their
        // key) and unresolved ones by key. Two indexes, each of one kind of link, so that a search for the
        // unresolved can only take the second (the first would hold them all under one NULL target).
        ("link_target", "link(target_id) WHERE target_id IS NOT NULL"),
        ("link_unresolved_key", "link(link_key) WHERE target_id IS NULL"),
        ("link_reference", "link(via_reference) WHERE via_reference = 1"),
        ("link_property", "link(property_key) WHERE kind = 'property'"),
        ("tag_name_key", "tag(name_key)"),
        ("property_key", "property(key)"),
        ("inline_field_key", "inline_field(field_key)"),
        ("finding_file", "finding(file_id)"),
        ("finding_code", "finding(code)"),
        // The few files whose frontmatter tags Dataview reads differently (`FROM #tag` reads them all).
        ("file_dataview_tags", "file(id) WHERE dataview_tags IS NOT NULL"),
    ]

    /// Migrations from version N-1 to N, at index N-1.
    static let migrations: [String] = [
        """
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;

        CREATE TABLE file (
            id INTEGER PRIMARY KEY,
            path TEXT NOT NULL UNIQUE,
            name TEXT NOT NULL,
            folder TEXT NOT NULL,
            extension TEXT NOT NULL,
            kind TEXT NOT NULL,
            resolve_key TEXT NOT NULL,
            size INTEGER,
            mtime_ns INTEGER,
            content_hash TEXT,
            real_path TEXT,
            frontmatter_json TEXT
        );
        CREATE INDEX file_resolve_key ON file(resolve_key);

        CREATE TABLE link (
            source_id INTEGER NOT NULL REFERENCES file(id) ON DELETE CASCADE,
            ordinal INTEGER NOT NULL,
            target_id INTEGER REFERENCES file(id) ON DELETE SET NULL,
            kind TEXT NOT NULL,
            property_key TEXT,
            link_path TEXT NOT NULL,
            subpath TEXT,
            display TEXT,
            link_key TEXT NOT NULL,
            markdown_syntax INTEGER NOT NULL DEFAULT 0,
            line INTEGER NOT NULL,
            col INTEGER NOT NULL
        );

        CREATE TABLE tag (
            file_id INTEGER NOT NULL REFERENCES file(id) ON DELETE CASCADE,
            ordinal INTEGER NOT NULL,
            name TEXT NOT NULL,
            name_key TEXT NOT NULL,
            from_frontmatter INTEGER NOT NULL,
            line INTEGER NOT NULL,
            col INTEGER NOT NULL
        );

        CREATE TABLE heading (
            file_id INTEGER NOT NULL REFERENCES file(id) ON DELETE CASCADE,
            ordinal INTEGER NOT NULL,
            level INTEGER NOT NULL,
            text TEXT NOT NULL,
            line INTEGER NOT NULL
        );

        CREATE TABLE block (
            file_id INTEGER NOT NULL REFERENCES file(id) ON DELETE CASCADE,
            ordinal INTEGER NOT NULL,
            block_id TEXT NOT NULL,
            line INTEGER NOT NULL
        );

        CREATE TABLE task (
            file_id INTEGER NOT NULL REFERENCES file(id) ON DELETE CASCADE,
            ordinal INTEGER NOT NULL,
            status TEXT NOT NULL,
            text TEXT NOT NULL,
            line INTEGER NOT NULL
        );

        CREATE TABLE alias (
            file_id INTEGER NOT NULL REFERENCES file(id) ON DELETE CASCADE,
            ordinal INTEGER NOT NULL,
            alias TEXT NOT NULL
        );

        CREATE TABLE property (
            file_id INTEGER NOT NULL REFERENCES file(id) ON DELETE CASCADE,
            ordinal INTEGER NOT NULL,
            key TEXT NOT NULL,
            type TEXT NOT NULL,
            value_json TEXT NOT NULL,
            line INTEGER NOT NULL,
            col INTEGER NOT NULL
        );

        CREATE TABLE finding (
            id INTEGER PRIMARY KEY,
            file_id INTEGER REFERENCES file(id) ON DELETE CASCADE,
            path TEXT,
            code TEXT NOT NULL,
            severity TEXT NOT NULL,
            message TEXT NOT NULL,
            line INTEGER,
            col INTEGER,
            fix TEXT
        );

        -- Link keys whose resolution may have changed (files added or removed) and that still need
        -- re-resolving. Written in the same transaction as the change, so an interrupted run resumes.
        CREATE TABLE pending_resolve (link_key TEXT PRIMARY KEY) WITHOUT ROWID;

        CREATE VIRTUAL TABLE note_fts USING fts5(title, body, tokenize = 'unicode61 remove_diacritics 2');
        -- Larger FTS5 leaf pages (default 1000 bytes): fewer b-tree entries to write for long notes.
        INSERT INTO note_fts(note_fts, rank) VALUES ('pgsz', 4050);
        -- FTS rows are keyed by file id; they leave with their file.
        CREATE TRIGGER file_deleted_fts AFTER DELETE ON file BEGIN
            DELETE FROM note_fts WHERE rowid = old.id;
        END;

        -- The documented views (docs/INDEX.md). Stable: columns are only ever added.
        CREATE VIEW files AS
            SELECT id, path, name, folder, extension, kind, size, mtime_ns / 1000000000 AS modified,
                   content_hash, real_path
            FROM file;
        CREATE VIEW notes AS
            SELECT id, path, name, folder, size, mtime_ns / 1000000000 AS modified, frontmatter_json AS frontmatter
            FROM file WHERE kind = 'note';
        CREATE VIEW links AS
            SELECT s.path AS source, t.path AS target, l.link_path, l.subpath, l.display, l.kind, l.property_key,
                   l.line, l.col AS "column", l.target_id IS NOT NULL AS resolved
            FROM link l JOIN file s ON s.id = l.source_id LEFT JOIN file t ON t.id = l.target_id;
        CREATE VIEW tags AS
            SELECT f.path, t.name AS tag, t.name_key AS tag_lower,
                   CASE t.from_frontmatter WHEN 1 THEN 'frontmatter' ELSE 'body' END AS source, t.line, t.col AS "column"
            FROM tag t JOIN file f ON f.id = t.file_id;
        CREATE VIEW headings AS
            SELECT f.path, h.level, h.text, h.line FROM heading h JOIN file f ON f.id = h.file_id;
        CREATE VIEW blocks AS
            SELECT f.path, b.block_id, b.line FROM block b JOIN file f ON f.id = b.file_id;
        CREATE VIEW tasks AS
            SELECT f.path, k.status, k.text, k.line, k.status IN ('x', 'X') AS done
            FROM task k JOIN file f ON f.id = k.file_id;
        CREATE VIEW aliases AS
            SELECT f.path, a.alias FROM alias a JOIN file f ON f.id = a.file_id;
        CREATE VIEW properties AS
            SELECT f.path, p.key, p.type, p.value_json AS value, p.line, p.col AS "column"
            FROM property p JOIN file f ON f.id = p.file_id;
        CREATE VIEW findings AS
            SELECT path, code, severity, message, line, col AS "column", fix FROM finding;
        """,
        // 2: schemas. Each note's type and id, the id values of its reference fields, and reference edges
        // (links of kind `property` with `via_reference = 1`, recomputed across the vault after each change).
        """
        ALTER TABLE link ADD COLUMN via_reference INTEGER NOT NULL DEFAULT 0;

        CREATE TABLE note_type (
            file_id INTEGER PRIMARY KEY REFERENCES file(id) ON DELETE CASCADE,
            declared_type TEXT,
            schema_type TEXT,
            id_value TEXT,
            id_line INTEGER,
            id_col INTEGER
        );
        CREATE INDEX note_type_id ON note_type(id_value);

        CREATE TABLE reference_value (
            file_id INTEGER NOT NULL REFERENCES file(id) ON DELETE CASCADE,
            ordinal INTEGER NOT NULL,
            key TEXT NOT NULL,
            value TEXT NOT NULL,
            target_type TEXT,
            line INTEGER NOT NULL,
            col INTEGER NOT NULL
        );
        CREATE INDEX reference_value_file ON reference_value(file_id);

        DROP VIEW links;
        CREATE VIEW links AS
            SELECT s.path AS source, t.path AS target, l.link_path, l.subpath, l.display, l.kind, l.property_key,
                   l.line, l.col AS "column", l.target_id IS NOT NULL AS resolved, l.via_reference AS reference
            FROM link l JOIN file s ON s.id = l.source_id LEFT JOIN file t ON t.id = l.target_id;
        CREATE VIEW note_types AS
            SELECT f.path, n.declared_type, n.schema_type AS type, n.id_value AS id
            FROM note_type n JOIN file f ON f.id = n.file_id;
        """,
        // 3: Dataview inline fields (`key:: value`, `[key:: value]`, `(key:: value)`) of each note's page, not
        // of its tasks. `field_key` is the canonical name Dataview also accepts (`Book Rating` → `book-rating`).
        """
        CREATE TABLE inline_field (
            file_id INTEGER NOT NULL REFERENCES file(id) ON DELETE CASCADE,
            ordinal INTEGER NOT NULL,
            key TEXT NOT NULL,
            field_key TEXT NOT NULL,
            value TEXT NOT NULL,
            syntax TEXT NOT NULL,
            line INTEGER NOT NULL,
            col INTEGER NOT NULL
        );

        CREATE VIEW inline_fields AS
            SELECT f.path, i.key, i.field_key, i.value, i.syntax, i.line, i.col AS "column"
            FROM inline_field i JOIN file f ON f.id = i.file_id;
        """,
        // 4: the per-file tables are keyed by file and position (`FileRows`): a file's rows are one range of
        // the table itself, so no index on the file is built or kept, and deleting a file deletes its rows
        // explicitly (no foreign-key cascade, which would scan). `ordinal` is the low half of `id`. The
        // tables are recreated empty and every file forgotten: the next run is a first index.
        """
        DELETE FROM file;
        DELETE FROM finding;
        DELETE FROM pending_resolve;
        DELETE FROM meta WHERE key IN ('last_indexed_at', 'vault_checks_pending', 'schema_fingerprint');
        DROP TABLE link;
        DROP TABLE tag;
        DROP TABLE heading;
        DROP TABLE block;
        DROP TABLE task;
        DROP TABLE alias;
        DROP TABLE property;
        DROP TABLE inline_field;
        DROP TABLE reference_value;

        CREATE TABLE link (
            id INTEGER PRIMARY KEY,
            source_id INTEGER NOT NULL,
            target_id INTEGER REFERENCES file(id) ON DELETE SET NULL,
            kind TEXT NOT NULL,
            property_key TEXT,
            link_path TEXT NOT NULL,
            subpath TEXT,
            display TEXT,
            link_key TEXT NOT NULL,
            markdown_syntax INTEGER NOT NULL DEFAULT 0,
            line INTEGER NOT NULL,
            col INTEGER NOT NULL,
            via_reference INTEGER NOT NULL DEFAULT 0
        );
        CREATE TABLE tag (
            id INTEGER PRIMARY KEY,
            file_id INTEGER NOT NULL,
            name TEXT NOT NULL,
            name_key TEXT NOT NULL,
            from_frontmatter INTEGER NOT NULL,
            line INTEGER NOT NULL,
            col INTEGER NOT NULL
        );
        CREATE TABLE heading (
            id INTEGER PRIMARY KEY,
            file_id INTEGER NOT NULL,
            level INTEGER NOT NULL,
            text TEXT NOT NULL,
            line INTEGER NOT NULL
        );
        CREATE TABLE block (
            id INTEGER PRIMARY KEY,
            file_id INTEGER NOT NULL,
            block_id TEXT NOT NULL,
            line INTEGER NOT NULL
        );
        CREATE TABLE task (
            id INTEGER PRIMARY KEY,
            file_id INTEGER NOT NULL,
            status TEXT NOT NULL,
            text TEXT NOT NULL,
            line INTEGER NOT NULL
        );
        CREATE TABLE alias (
            id INTEGER PRIMARY KEY,
            file_id INTEGER NOT NULL,
            alias TEXT NOT NULL
        );
        CREATE TABLE property (
            id INTEGER PRIMARY KEY,
            file_id INTEGER NOT NULL,
            key TEXT NOT NULL,
            type TEXT NOT NULL,
            value_json TEXT NOT NULL,
            line INTEGER NOT NULL,
            col INTEGER NOT NULL
        );
        CREATE TABLE inline_field (
            id INTEGER PRIMARY KEY,
            file_id INTEGER NOT NULL,
            key TEXT NOT NULL,
            field_key TEXT NOT NULL,
            value TEXT NOT NULL,
            syntax TEXT NOT NULL,
            line INTEGER NOT NULL,
            col INTEGER NOT NULL
        );
        CREATE TABLE reference_value (
            id INTEGER PRIMARY KEY,
            file_id INTEGER NOT NULL,
            key TEXT NOT NULL,
            value TEXT NOT NULL,
            target_type TEXT,
            line INTEGER NOT NULL,
            col INTEGER NOT NULL
        );
        """,
        // 5: the index of links by (target, key) becomes one by target and one of the unresolved links by
        // key (`secondaryIndexes`, created on open): building them at the end of a 10k-note first index
        // takes 135 ms instead of 188. Nothing stored changes.
        """
        DROP INDEX IF EXISTS link_target_key;
        """,
        // 6: the frontmatter tags Dataview reads where they differ from Obsidian's reading (legacy `tag:`,
        // comma-separated text, unvalidated values): lookup keys as a JSON array, NULL when the same
        // (`StoredForms.dataviewTags`), so that `FROM #tag` stays one index lookup. Filled by the re-read
        // that parser version 7 asks for.
        """
        ALTER TABLE file ADD COLUMN dataview_tags TEXT;
        """,
        // 7: what a Dataview `TASK` result shows of a task, so that the simplest queries are answered from the
        // index (`DataviewTaskRows`): the line of its parent task (NULL at the top or under a plain item),
        // and its text with continuation lines (NULL when it has none: `text` is all of it). Filled by the
        // re-read that parser version 8 asks for.
        """
        ALTER TABLE task ADD COLUMN parent_line INTEGER;
        ALTER TABLE task ADD COLUMN continued_text TEXT;
        """,
    ]

    /// The tables holding rows per file (`FileRows`), with their file column, in the order a file's rows
    /// are deleted.
    static let fileRowTables: [(table: String, fileColumn: String)] = [
        ("link", "source_id"), ("tag", "file_id"), ("heading", "file_id"), ("block", "file_id"), ("task", "file_id"),
        ("alias", "file_id"), ("property", "file_id"), ("inline_field", "file_id"), ("reference_value", "file_id"),
    ]
}

/// Rows of the per-file tables (`link`, `tag`, `heading`, `block`, `task`, `alias`, `property`,
/// `inline_field`, `reference_value`) are keyed by their file and their position in it:
/// `id = file_id << 32 | ordinal`. A file's rows are then one contiguous range of the table's own b-tree,
/// found without a secondary index, and in order. A first index appends them in key order.
///
/// Positions stay below 2^32: a note over the size limit (`IndexOptions.maxNoteBytes`, at most 1 GiB) is
/// not parsed, every link, tag or line item takes at least one byte, and the reference edges the vault
/// checks add are numbered from 2^31 (`VaultChecks.firstEdgeOrdinal`).
enum FileRows {
    static let positionBits: Int64 = 32

    static func id(file: Int64, position: Int) -> Int64 { file << positionBits | Int64(position) }

    /// The lowest and highest id of a file's rows, to bind to `BETWEEN ? AND ?`.
    static func bounds(of file: Int64) -> [SQLiteValue] {
        [.integer(file << positionBits), .integer(file << positionBits | (1 << positionBits - 1))]
    }

    /// SQL: the `id` column of `table` (a name or alias) lies within the rows of the file `file` (an SQL
    /// expression, e.g. `f.id`, evaluated once per file): a range SQLite searches by the table's key.
    static func of(_ file: String, in table: String) -> String {
        "\(table).id BETWEEN (\(file)) << 32 AND ((\(file)) << 32) + 4294967295"
    }
}
