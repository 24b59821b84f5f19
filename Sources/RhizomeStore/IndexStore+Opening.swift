import CSQLite
import RhizomeCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What is at an index path before Rhizome reads or writes it: an SQLite file at all, a Rhizome index or
/// another application's database, writable or not. Every check here runs before the first write, so that
/// a `--db` pointing at the wrong file is refused with the file left as it was.
extension IndexStore {
    /// What an SQLite database at the index path holds.
    enum Contents: Equatable {
        /// No tables and `user_version` 0: a new file (or one another connection is creating).
        case empty
        /// Rhizome's `meta` and `file` tables and a schema version.
        case rhizome
        /// Anything else: another application's database (its table names, for the message).
        case foreign(tables: [String])
    }

    /// Why the index at `path` cannot be written with the permissions it has (nil when it can, or when it
    /// does not exist and its folder lets it be created): `.readOnlyIndex`, or `.notADatabase` for a path
    /// under a file. Writing needs the file and its folder: SQLite creates `-wal` and `-shm` beside the
    /// index, and Rhizome its `.lock` and its journal folder.
    public static func writeProblem(ofIndexAt path: String) -> StoreError? {
        var folder = parentFolder(of: path)
        // Folders that do not exist yet are made on open: the nearest one that exists must allow that.
        while access(folder, F_OK) != 0 && errno == ENOENT && folder != "/" && folder != "." {
            folder = parentFolder(of: folder)
        }
        let exists = access(path, F_OK) == 0
        // Gone since (removed by someone): not read-only; it is made anew, as the files beside it below.
        if exists && access(path, W_OK) != 0 && errno != ENOENT {
            let reason = errnoDescription()
            return .readOnlyIndex(
                path: path, reason: "is read-only (\(reason)), so it cannot be brought up to date",
                fix: "Make it writable (`chmod u+w \(path)`), or choose another --db.")
        }
        var folderStatus = stat()
        if stat(folder, &folderStatus) == 0, folderStatus.st_mode & S_IFMT != S_IFDIR {
            return .notADatabase(path: path, reason: "\(folder) is a file, not a folder, so nothing can be created in it")
        }
        if access(folder, W_OK | X_OK) != 0 {
            let reason = errnoDescription()
            return .readOnlyIndex(
                path: path,
                reason: exists
                    ? "cannot be written: its folder \(folder) is read-only (\(reason)), and SQLite keeps its -wal and -shm files beside the index"
                    : "cannot be created: its folder \(folder) is not writable (\(reason))",
                fix: "Make the folder writable (`chmod u+w \(folder)`), or choose another --db.")
        }
        // A file beside the index that is gone by the time it is checked (another connection closing the
        // index removes `-wal` and `-shm`) is no obstacle: SQLite makes it anew.
        for suffix in ["-wal", "-shm", ".lock"] where access(path + suffix, W_OK) != 0 && errno != ENOENT {
            let reason = errnoDescription()
            return .readOnlyIndex(
                path: path, reason: "cannot be written: \(path + suffix) beside it is read-only (\(reason))",
                fix: "Make it writable (`chmod u+w \(path + suffix)`), or choose another --db.")
        }
        return nil
    }

    /// Throws unless `path` is absent, empty, or a file that starts with SQLite's header.
    static func checkIsSQLiteFile(_ path: String) throws(StoreError) {
        var status = stat()
        guard stat(path, &status) == 0 else { return }  // absent: a new index
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw .notADatabase(path: path, reason: "it is a folder; --db names the index file itself, e.g. \(path)/index.sqlite")
        default: throw .notADatabase(path: path, reason: "it is not a regular file")
        }
        guard status.st_size > 0 else { return }  // SQLite makes an empty file a new database
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw .cannotOpen(path: path, reason: "\(errnoDescription()); make it readable (`chmod u+r \(path)`)")
        }
        defer { close(descriptor) }
        var header = [UInt8](repeating: 0, count: 64)
        let count = header.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        let sqliteHeader = Array("SQLite format 3".utf8) + [0]
        guard count < sqliteHeader.count || !header.starts(with: sqliteHeader) else { return }
        let sample = header.prefix(max(0, count))
        let looksLikeText = !sample.isEmpty && sample.allSatisfy { $0 == 9 || $0 == 10 || $0 == 13 || $0 >= 32 }
        throw .notADatabase(path: path, reason: looksLikeText ? "it is a text file" : "it does not start with SQLite's file header")
    }

    /// What the database holds, read before anything is written to it. A new file that another connection is
    /// switching to WAL mode answers "database is locked" at once (see `configure`): that answer is tried
    /// again for as long as the busy timeout would have waited.
    /// Whether `name` is a table or view of Rhizome's schema (any version), FTS5's shadow tables included.
    static func isRhizomeTable(_ name: String) -> Bool {
        name.hasPrefix("note_fts") || IndexSchema.migrations.contains { migration in
            migration.contains("CREATE TABLE \(name) ") || migration.contains("CREATE TABLE \(name)(")
                || migration.contains("CREATE VIEW \(name) ") || migration.contains("CREATE TABLE IF NOT EXISTS \(name) ")
        }
    }

    static func contents(of connection: SQLiteConnection, path: String) throws(StoreError) -> Contents {
        let deadline = ContinuousClock.now + .milliseconds(Int(SQLiteConnection.busyTimeoutMilliseconds))
        while true {
            do {
                let statement = try connection.prepare("""
                    SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name
                    """)
                var tables: [String] = []
                while try statement.step() { tables.append(statement.text(0)) }
                let version = try userVersion(connection)
                if tables.isEmpty && version == 0 { return .empty }
                if version > 0 && tables.contains("meta") && tables.contains("file") { return .rhizome }
                // Only Rhizome's own tables, not all there yet: an index another process is creating, read
                // between its steps. Not another application's database; not an index yet either.
                if tables.allSatisfy(isRhizomeTable) { return .empty }
                return .foreign(tables: tables)
            } catch {
                guard case .sqlite(let code, let message, _) = error else { throw error }
                if code & 0xFF == SQLITE_NOTADB { throw .notADatabase(path: path, reason: "SQLite cannot read it: \(message)") }
                guard code & 0xFF == SQLITE_BUSY, ContinuousClock.now < deadline else { throw error }
                usleep(5_000)
            }
        }
    }

    /// A read-only connection to the index at `path`, which exists.
    ///
    /// An index in WAL mode can only be read when SQLite can use `<index>-shm` (create it, or open it) and
    /// `<index>-wal`: a read-only file in a read-only folder that has neither cannot be read the usual way.
    /// It is then opened `immutable=1` (no locks, no WAL), which is safe only when nothing can be writing
    /// it meanwhile, because such a reader would see a write half done. That is known when
    ///
    /// - no `<index>-wal` exists: a writer keeps that file while its connection is open, so no Rhizome
    ///   process (or any other SQLite writer) has the index open, and the file itself holds every committed
    ///   transaction (nothing waits in a log to be copied back); and
    /// - no one may open the file for writing: it has no write permission bits (only root, or a `chmod`
    ///   first, could write it), or it lies on a read-only file system.
    ///
    /// Otherwise the error says which permission to fix.
    static func openReadOnly(_ path: String) throws(StoreError) -> SQLiteConnection {
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        let failure: StoreError
        do {
            _ = try userVersion(connection)  // the first read sets up the WAL, if it can
            return connection
        } catch {
            failure = error
        }
        guard case .sqlite(let code, _, _) = failure, [SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_PERM].contains(code & 0xFF) else {
            throw failure
        }
        let folder = parentFolder(of: path)
        if access(path + "-wal", F_OK) != 0 && nobodyMayWrite(path) {
            let immutable = try SQLiteConnection(path: path, mode: .immutable)
            _ = try userVersion(immutable)
            return immutable
        }
        let log = access(path + "-wal", F_OK) == 0 ? " (with its write-ahead log \(path)-wal)" : ""
        throw .readOnlyIndex(
            path: path,
            reason: "cannot be read: it is in write-ahead-log mode, and SQLite must create or write \(path)-shm beside it, which its folder \(folder) does not allow",
            fix: "Make the folder writable (`chmod u+w \(folder)`), or copy the index\(log) to a writable folder and pass that with --db.")
    }

    /// Whether the file cannot be opened for writing by anyone: no write permission bits, or a read-only
    /// file system.
    private static func nobodyMayWrite(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        if status.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH) == 0 { return true }
        var system = statvfs()
        return statvfs(path, &system) == 0 && system.f_flag & UInt(ST_RDONLY) != 0
    }

    static func userVersion(_ connection: SQLiteConnection) throws(StoreError) -> Int {
        let statement = try connection.prepare("PRAGMA user_version")
        return try statement.step() ? Int(statement.int(0)) : 0
    }

    /// The folder holding `path` (`.` for a bare file name).
    static func parentFolder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
