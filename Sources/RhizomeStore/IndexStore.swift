import CSQLite
import Foundation
import RhizomeCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The on-disk index of one vault: an SQLite file in WAL mode, created and migrated on open.
public final class IndexStore {
    public let databasePath: String
    let connection: SQLiteConnection
    /// Dataview's link resolution over every file, with the state of the index it was built from
    /// (`cachedLinkTable`): reused by this connection's queries until the index changes.
    let dataviewLinkTable = Locked<(stamp: String, table: DataviewLinkTable)?>(nil)

    /// Opens (creating if needed) the index for writing. Refuses, before writing anything, a path that is not
    /// an SQLite file, another application's database, and an index it cannot write (`writeProblem`).
    public init(path: String) throws(StoreError) {
        self.databasePath = path
        Self.createParentFolder(of: path)
        try Self.checkIsSQLiteFile(path)
        if let problem = Self.writeProblem(ofIndexAt: path) { throw problem }
        let connection = try SQLiteConnection(path: path)
        // Only read so far: a refused file is closed as it was (SQLite removes the -wal and -shm a read of a
        // WAL-mode database made, as the last connection closes).
        if case .foreign(let tables) = try Self.contents(of: connection, path: path) {
            throw .foreignDatabase(path: path, tables: tables)
        }
        self.connection = connection
        try Self.configure(connection)
        try migrate()
        try createSecondaryIndexes()
        try restoreFullTextMerging()
    }

    /// The connection's settings. page_size only takes effect for a brand-new file (before WAL is switched
    /// on); existing indexes keep theirs. 16 KiB pages: fewer b-tree pages and WAL frames to write on a bulk
    /// load. Switching a new file to WAL needs the file to itself: another connection opening it at that
    /// moment (two commands started together on a new vault) makes SQLite answer "database is locked" at
    /// once, without waiting out the busy timeout. So a busy answer is tried again, for as long as that
    /// timeout would have waited.
    private static func configure(_ connection: SQLiteConnection) throws(StoreError) {
        let deadline = ContinuousClock.now + .milliseconds(Int(SQLiteConnection.busyTimeoutMilliseconds))
        while true {
            do {
                return try connection.execute("""
                    PRAGMA page_size = 16384;
                    PRAGMA journal_mode = WAL;
                    PRAGMA synchronous = NORMAL;
                    PRAGMA foreign_keys = ON;
                    PRAGMA temp_store = MEMORY;
                    PRAGMA cache_size = -32000;
                    """)
            } catch {
                guard case .sqlite(let code, _, _) = error, code & 0xFF == SQLITE_BUSY, ContinuousClock.now < deadline else { throw error }
                usleep(5_000)
            }
        }
    }

    /// Opens an existing index read-only (for `rhizome sql`, `--no-refresh` queries, and an index the user
    /// may only read): see `openReadOnly(_:)` for an index in a read-only folder.
    public init(readOnlyPath path: String) throws(StoreError) {
        guard access(path, F_OK) == 0 else { throw .notIndexed(path: path) }
        try Self.checkIsSQLiteFile(path)
        // A read-only connection to a WAL database creates its -wal and -shm and cannot remove them: look at
        // another application's database without one first (with no -wal, the file itself holds it all).
        if access(path + "-wal", F_OK) != 0, let probe = try? SQLiteConnection(path: path, mode: .immutable),
           case .foreign(let tables)? = try? Self.contents(of: probe, path: path) {
            throw .foreignDatabase(path: path, tables: tables)
        }
        self.databasePath = path
        connection = try Self.openReadOnly(path)
        try connection.execute("PRAGMA query_only = ON")
        switch try Self.contents(of: connection, path: path) {
        case .empty: throw .notIndexed(path: path)
        case .foreign(let tables): throw .foreignDatabase(path: path, tables: tables)
        case .rhizome: break
        }
        let found = try Self.userVersion(connection)
        if found > IndexSchema.version {
            throw .newerSchema(found: found, supported: IndexSchema.version, path: path)
        }
        if found == 0 { throw .notIndexed(path: path) }
        if found < IndexSchema.version { throw .olderSchema(found: found, supported: IndexSchema.version, path: path) }
    }

    /// The vault this index was last built for (nil before the first run).
    public func indexedVaultPath() throws -> String? { try metaValue("vault_path") }

    /// Records which vault the index belongs to.
    public func setIndexedVaultPath(_ path: String) throws { try setMeta("vault_path", path) }

    /// When a run last changed the index (ISO 8601), nil before the first. A run that finds nothing to change
    /// writes nothing, this included: see `lastRunAt`.
    public var lastIndexedAt: String? {
        try? metaValue("last_indexed_at")
    }

    /// When a run last finished (ISO 8601), whether or not it changed anything; nil before the first. Kept as
    /// the modification time of the write lock (`WriteLock.recordFinishedRun()`), so that a run that finds
    /// nothing changed still writes nothing to the database. Never earlier than `lastIndexedAt`: the lock of an
    /// index last run by an older Rhizome keeps the time it was created.
    public var lastRunAt: String? {
        let lastChange = lastIndexedAt
        var status = stat()
        guard stat(databasePath + ".lock", &status) == 0 else { return lastChange }
        #if canImport(Darwin)
        let seconds = TimeInterval(status.st_mtimespec.tv_sec)
        #else
        let seconds = TimeInterval(status.st_mtim.tv_sec)
        #endif
        let lockTime = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: seconds))
        guard let lastChange else { return lockTime }
        return max(lockTime, lastChange)  // both ISO 8601 in UTC: text order is time order
    }

    /// Whether the index has ever completed a run.
    public var hasIndexedOnce: Bool {
        (try? metaValue("last_indexed_at")) != nil
    }

    // MARK: Meta

    func metaValue(_ key: String) throws(StoreError) -> String? {
        let statement = try connection.prepare("SELECT value FROM meta WHERE key = ?")
        statement.bind(.text(key))
        return try statement.step() ? statement.text(0) : nil
    }

    func setMeta(_ key: String, _ value: String) throws(StoreError) {
        try connection.prepare("INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value")
            .bind(.text(key), .text(value)).run()
    }

    // MARK: Migrations

    private func migrate() throws(StoreError) {
        let found = try Self.userVersion(connection)
        if found > IndexSchema.version {
            throw .newerSchema(found: found, supported: IndexSchema.version, path: databasePath)
        }
        guard found < IndexSchema.version else { return }
        try writeTransaction(statement: "migration") { () throws(StoreError) in
            // Read again under the write lock: another process may have migrated meanwhile.
            let current = try Self.userVersion(connection)
            guard current < IndexSchema.version else { return }
            for step in current..<IndexSchema.version {
                try connection.execute(IndexSchema.migrations[step])
            }
            try connection.execute("PRAGMA user_version = \(IndexSchema.version)")
            // A new index holds nothing parsed yet. An older one keeps its parser version: a migration that
            // adds what the parser extracts comes with a new version, and the next run re-reads every file.
            if current == 0 { try setMeta("parser_version", IndexSchema.parserVersion) }
        }
    }

    private static func createParentFolder(of path: String) {
        var folder = path
        guard let slash = folder.lastIndex(of: "/") else { return }
        folder = String(folder[..<slash])
        var components: [Substring] = []
        for part in folder.split(separator: "/") {
            components.append(part)
            let prefix = (folder.hasPrefix("/") ? "/" : "") + components.joined(separator: "/")
            mkdir(prefix, 0o700)
        }
    }
}

extension IndexStore {
    /// A resolver over every file of the index but `excluded`.
    func resolverOfAllFiles(excluding excluded: Set<Int64> = []) throws(StoreError) -> LinkResolver<Int64> {
        try resolver(forFilesIn: "SELECT id, path FROM file", excluding: excluded)
    }

    /// A resolver over the files a query selects, but those in `excluded` (files about to be removed);
    /// the query's columns are `id, path`. A link's target depends only on files sharing its resolve key,
    /// so callers select just those when they can.
    func resolver(forFilesIn sql: String, _ values: [SQLiteValue] = [], excluding excluded: Set<Int64> = []) throws(StoreError) -> LinkResolver<Int64> {
        let statement = try connection.prepare(sql)
        statement.bind(values)
        var files: [(path: String, id: Int64)] = []
        while try statement.step() {
            let id = statement.int(0)
            if !excluded.contains(id) { files.append((statement.text(1), id)) }
        }
        return LinkResolver(files: files)
    }

    /// A resolver over the files whose resolve key is one of `keys`, but those in `excluded`.
    func resolver(forKeys keys: some Sequence<String>, excluding excluded: Set<Int64> = []) throws(StoreError) -> LinkResolver<Int64> {
        try resolver(
            forFilesIn: "SELECT id, path FROM file WHERE resolve_key IN (SELECT value FROM json_each(?))", [.text(JSONText.array(keys))], excluding: excluded)
    }

    /// Creates the secondary indexes that do not exist (every open checks: a first index killed before
    /// building them leaves them missing). Builds them in one write transaction that waits its turn:
    /// another process may be writing the index meanwhile.
    func createSecondaryIndexes() throws(StoreError) {
        let names = try connection.prepare("SELECT name FROM sqlite_master WHERE type = 'index'")
        var existing = Set<String>()
        while try names.step() { existing.insert(names.text(0)) }
        names.reset()
        let missing = IndexSchema.secondaryIndexes.filter { !existing.contains($0.name) }
        guard !missing.isEmpty else { return }
        try writeTransaction { () throws(StoreError) in
            for index in missing {
                try connection.execute("CREATE INDEX IF NOT EXISTS \(index.name) ON \(index.definition)")
            }
        }
    }

    /// `body` in a write transaction taken at once (`BEGIN IMMEDIATE`, waiting for other writers), so that
    /// a statement that reads before it writes cannot find the database changed under it (SQLITE_BUSY).
    /// `statement` names the work in the error of a failure that is not SQLite's own.
    func writeTransaction(statement: String = "transaction", _ body: () throws(StoreError) -> Void) throws(StoreError) {
        do {
            try connection.transaction { try body() }
        } catch let error as StoreError {
            throw error
        } catch {
            throw .sqlite(code: -1, message: "\(error)", statement: statement)
        }
    }

    func dropSecondaryIndexes() throws(StoreError) {
        for index in IndexSchema.secondaryIndexes {
            try connection.execute("DROP INDEX IF EXISTS \(index.name)")
        }
    }

    /// A bulk load turns FTS5's incremental merging off; a run killed during it must not leave it off.
    func restoreFullTextMerging() throws(StoreError) {
        let statement = try connection.prepare("SELECT v FROM note_fts_config WHERE k = 'automerge'")
        if try statement.step(), statement.int(0) == 0 {
            statement.reset()
            try writeTransaction { () throws(StoreError) in
                try connection.execute("INSERT INTO note_fts(note_fts, rank) VALUES ('automerge', 4)")
            }
        }
    }

    /// An exclusive advisory lock on `<database>.lock`, held while the index is written, so that two
    /// processes refreshing the same index take turns. Waits for the other writer.
    func lockForWriting() throws(StoreError) -> WriteLock {
        let path = databasePath + ".lock"
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .lockUnavailable(path: path, reason: String(cString: strerror(errno))) }
        while flock(descriptor, LOCK_EX) != 0 {
            if errno == EINTR { continue }
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw .lockUnavailable(path: path, reason: reason)
        }
        return WriteLock(descriptor: descriptor)
    }

    /// Empties the index of every file and everything stored about them, in one transaction (what a
    /// first index killed part-way leaves is started over).
    func forgetAllFiles() throws(StoreError) {
        try writeTransaction { () throws(StoreError) in
            for (table, _) in IndexSchema.fileRowTables { try connection.execute("DELETE FROM \(table)") }
            try connection.execute("""
                DELETE FROM note_type; DELETE FROM finding; DELETE FROM pending_resolve; DELETE FROM note_fts; DELETE FROM file;
                DELETE FROM meta WHERE key = '\(Indexer.unfinishedFirstIndexKey)';
                """)
        }
    }

    /// Makes the next run re-read every file (used by `rhizome index --rebuild`).
    public func requestFullReparse() throws(StoreError) {
        try setMeta("parser_version", "rebuild-requested")
    }
}

/// Deletes files from the index with everything stored about them: their full text, their rows in the
/// per-file tables (`FileRows`, deleted by range), then the file row, whose foreign keys cascade to the
/// rest (findings, note type) and unset links that pointed at it.
struct FileDeletion {
    private let children: [SQLiteStatement]
    private let file: SQLiteStatement
    private let fullText: SQLiteStatement

    init(_ connection: SQLiteConnection) throws(StoreError) {
        var children: [SQLiteStatement] = []
        for (table, _) in IndexSchema.fileRowTables {
            children.append(try connection.prepare("DELETE FROM \(table) WHERE id BETWEEN ? AND ?"))
        }
        self.children = children
        file = try connection.prepare("DELETE FROM file WHERE id = ?")
        fullText = try connection.prepare("DELETE FROM note_fts WHERE rowid = ?")
    }

    /// Deletes the files and everything stored about them. Their full text goes first, all of it, in
    /// ascending order (the file rows' trigger then finds none): deleting a file row runs its trigger and
    /// foreign-key actions in a statement savepoint, at which FTS5 writes out the terms it holds as a new
    /// segment. With each file's full-text deletion pending there, that was a segment (and merging) per
    /// file: removing 1,000 of 10k notes took 270 ms, 80 ms after.
    func run(_ ids: [Int64]) throws(StoreError) {
        for id in ids.sorted() { try fullText.bind(.integer(id)).run() }
        for id in ids {
            try deleteRows(of: id)
            try file.bind(.integer(id)).run()
        }
    }

    /// Deletes only the file's rows in the per-file tables (what re-parsing it replaces).
    func deleteRows(of id: Int64) throws(StoreError) {
        for statement in children { try statement.bind(FileRows.bounds(of: id)).run() }
    }

    /// Deletes the file's rows in each per-file table from the position given for it on (in the order of
    /// `IndexSchema.fileRowTables`): the rows before it are about to be overwritten.
    func deleteRows(of id: Int64, from positions: [Int]) throws(StoreError) {
        precondition(positions.count == children.count, "one position per per-file table")
        for (statement, position) in zip(children, positions) {
            try statement.bind(.integer(FileRows.id(file: id, position: position)), FileRows.bounds(of: id)[1]).run()
        }
    }
}

/// A held write lock; `release()` (or process exit) frees it.
struct WriteLock {
    let descriptor: Int32

    /// Records that a run finished now (`IndexStore.lastRunAt`): sets the lock file's modification time.
    func recordFinishedRun() {
        _ = futimens(descriptor, nil)
    }

    func release() {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
