import CSQLite
import Foundation
import RhizomeCore

/// A small, safe layer over the SQLite C API: one connection, prepared statements, transactions, and an
/// optional deadline that ends its statements.
/// Not thread-safe by design: each thread that needs the database opens its own connection
/// (WAL mode lets readers run while a writer commits).
final class SQLiteConnection {
    let handle: OpaquePointer
    let path: String

    /// While set, statements on this connection end with the deadline's error once it passes or is
    /// cancelled: inside SQLite (a progress handler, every 1,000 virtual-machine steps of a statement,
    /// counted across its rows) and before each statement is prepared or executed, so a loop of short
    /// queries stops too. (Not in `SQLiteStatement.step`: a statement may outlive the connection object
    /// it came from, and must not read it on every row.)
    var deadline: QueryDeadline? {
        didSet {
            guard deadline !== oldValue else { return }
            guard let deadline else { return sqlite3_progress_handler(handle, 0, nil, nil) }
            sqlite3_progress_handler(handle, 1_000, { context in
                guard let context else { return 0 }
                return Unmanaged<QueryDeadline>.fromOpaque(context).takeUnretainedValue().isOver ? 1 : 0
            }, Unmanaged.passUnretained(deadline).toOpaque())  // retained by this property while installed
        }
    }

    enum Mode {
        case readWrite, readOnly
        /// Read-only, and promised to SQLite that nothing changes the file while it is open (`immutable=1`):
        /// no locks, no `-wal` or `-shm`. Only for a file nobody can be writing (see
        /// `IndexStore.openReadOnly(_:)`); a change made meanwhile could be read torn.
        case immutable
    }

    /// How long a statement waits for another connection's lock before it fails with SQLITE_BUSY.
    static let busyTimeoutMilliseconds: Int32 = 10_000

    init(path: String, mode: Mode = .readWrite) throws(StoreError) {
        _ = Self.libraryConfigured
        var pointer: OpaquePointer?
        let (filename, flags): (String, Int32) = switch mode {
        case .readWrite: (path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX)
        case .readOnly: (path, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX)
        case .immutable: (Self.uri(path) + "?immutable=1", SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX)
        }
        let status = sqlite3_open_v2(filename, &pointer, flags, nil)
        guard status == SQLITE_OK, let pointer else {
            let message = pointer.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
            if let pointer { sqlite3_close_v2(pointer) }
            throw .cannotOpen(path: path, reason: message)
        }
        self.handle = pointer
        self.path = path
        sqlite3_busy_timeout(pointer, Self.busyTimeoutMilliseconds)
        sqlite3_extended_result_codes(pointer, 1)
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Process-wide SQLite settings, applied once before the first connection opens the library. Memory
    /// statistics are off: with them, every allocation SQLite makes (each bound text, each row) takes a
    /// global mutex, which cost 4% of a first index's time. Rhizome never reads those statistics.
    private static let libraryConfigured: Bool = {
        rhizome_sqlite3_disable_memory_statistics() == SQLITE_OK
    }()

    /// Runs one or more statements that return no rows.
    func execute(_ sql: String) throws(StoreError) {
        try deadline?.check()
        try executeUnchecked(sql)
    }

    /// `execute` without the deadline check: for `ROLLBACK`, which must run even after the deadline.
    private func executeUnchecked(_ sql: String) throws(StoreError) {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        guard status == SQLITE_OK else {
            let message = errorMessage.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(status))
            sqlite3_free(errorMessage)
            if status & 0xFF == SQLITE_INTERRUPT, let deadline { throw deadline.error }
            throw .sqlite(code: status, message: message, statement: Self.summary(of: sql))
        }
    }

    func prepare(_ sql: String) throws(StoreError) -> SQLiteStatement {
        try deadline?.check()
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard status == SQLITE_OK, let statement else {
            throw .sqlite(code: status, message: String(cString: sqlite3_errmsg(handle)), statement: Self.summary(of: sql))
        }
        return SQLiteStatement(statement: statement, connection: self, sql: sql)
    }

    /// Prepares exactly one statement: an empty query and trailing statements are refused.
    func prepareSingle(_ sql: String) throws(StoreError) -> SQLiteStatement {
        try deadline?.check()
        var statement: OpaquePointer?
        var tail: UnsafePointer<CChar>?
        let status = sql.withCString { text in
            let result = sqlite3_prepare_v2(handle, text, -1, &statement, &tail)
            if result == SQLITE_OK, let tail, statement != nil {
                // Anything but whitespace and comments after the first statement is a second statement.
                var rest: OpaquePointer?
                let restStatus = sqlite3_prepare_v2(handle, tail, -1, &rest, nil)
                if rest != nil || restStatus != SQLITE_OK {
                    sqlite3_finalize(rest)
                    return Int32(-2)
                }
            }
            return result
        }
        if status == -2 {
            sqlite3_finalize(statement)
            throw .multipleStatements
        }
        guard status == SQLITE_OK else {
            throw .sqlite(code: status, message: String(cString: sqlite3_errmsg(handle)), statement: Self.summary(of: sql))
        }
        guard let statement else { throw .emptyQuery }
        return SQLiteStatement(statement: statement, connection: self, sql: sql)
    }

    /// Runs `body` in an immediate (write-locking) transaction; rolls back if it throws.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try inTransaction(beginning: "BEGIN IMMEDIATE", body)
    }

    /// Runs `body`'s reads on one snapshot of the database (a deferred transaction), so that a writer's
    /// commit between two of its statements is not half seen. Inside a transaction already, just runs it.
    func readSnapshot<T>(_ body: () throws -> T) throws -> T {
        guard sqlite3_get_autocommit(handle) != 0 else { return try body() }
        return try inTransaction(beginning: "BEGIN", body)
    }

    /// `body` between `begin` and `COMMIT`; rolled back if it throws.
    private func inTransaction<T>(beginning begin: String, _ body: () throws -> T) throws -> T {
        try execute(begin)
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? executeUnchecked("ROLLBACK")
            throw error
        }
    }

    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }
    var changes: Int { Int(sqlite3_changes(handle)) }

    func error(_ status: Int32, sql: String) -> StoreError {
        if status & 0xFF == SQLITE_INTERRUPT, let deadline { return deadline.error }
        return .sqlite(code: status, message: String(cString: sqlite3_errmsg(handle)), statement: Self.summary(of: sql))
    }

    /// The statement's first words, for error messages (never bound values).
    static func summary(of sql: String) -> String {
        let collapsed = sql.split(whereSeparator: { $0 == "\n" || $0 == " " }).joined(separator: " ")
        return collapsed.count > 80 ? String(collapsed.prefix(80)) + "…" : collapsed
    }
}

/// A prepared statement. Bind by 1-based index, step through rows, reset to reuse.
final class SQLiteStatement {
    let statement: OpaquePointer
    unowned let connection: SQLiteConnection
    let sql: String

    init(statement: OpaquePointer, connection: SQLiteConnection, sql: String) {
        self.statement = statement
        self.connection = connection
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(statement)
    }

    var isReadOnly: Bool { sqlite3_stmt_readonly(statement) != 0 }

    @discardableResult
    func bind(_ values: SQLiteValue?...) -> SQLiteStatement {
        bind(values)
    }

    @discardableResult
    func bind(_ values: [SQLiteValue?]) -> SQLiteStatement {
        sqlite3_reset(statement)
        for (offset, value) in values.enumerated() {
            bind(value, at: Int32(offset + 1))
        }
        return self
    }

    func bind(_ value: SQLiteValue?, at index: Int32) {
        switch value {
        case .none, .some(.null): sqlite3_bind_null(statement, index)
        case .some(.integer(let number)): sqlite3_bind_int64(statement, index, number)
        case .some(.real(let number)): sqlite3_bind_double(statement, index, number)
        case .some(.text(let text)): bindText(text, at: index)
        }
    }

    /// Binds text with its byte length (SQLite copies it; no strlen, no bridging allocation).
    func bindText(_ text: String, at index: Int32) {
        var text = text
        _ = text.withUTF8 { buffer in
            if let base = buffer.baseAddress, buffer.count > 0 {
                return sqlite3_bind_text(statement, index, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self), Int32(buffer.count), transientDestructor)
            }
            return sqlite3_bind_text(statement, index, "", 0, transientDestructor)
        }
    }

    // Typed binding without intermediate arrays, for the bulk insert path:
    // `statement.reset(); statement.bind(1, id); …; try statement.execute()`.

    func reset() { sqlite3_reset(statement) }
    func bind(_ index: Int32, _ value: Int64) { sqlite3_bind_int64(statement, index, value) }
    func bind(_ index: Int32, _ value: Int) { sqlite3_bind_int64(statement, index, Int64(value)) }
    func bind(_ index: Int32, _ value: String) { bindText(value, at: index) }
    func bind(_ index: Int32, _ value: String?) {
        if let value { bindText(value, at: index) } else { sqlite3_bind_null(statement, index) }
    }
    func bind(_ index: Int32, _ value: Int64?) {
        if let value { sqlite3_bind_int64(statement, index, value) } else { sqlite3_bind_null(statement, index) }
    }

    /// Steps a bound insert/update/delete to completion.
    func execute() throws(StoreError) {
        let status = sqlite3_step(statement)
        guard status == SQLITE_DONE || status == SQLITE_ROW else { throw connection.error(status, sql: sql) }
    }

    /// Advances to the next row; false when done.
    func step() throws(StoreError) -> Bool {
        let status = sqlite3_step(statement)
        switch status {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.error(status, sql: sql)
        }
    }

    /// Executes a statement that returns no rows.
    func run() throws(StoreError) {
        while try step() {}
        sqlite3_reset(statement)
    }

    /// All rows mapped by `transform`.
    func rows<T>(_ transform: (SQLiteStatement) throws -> T) throws -> [T] {
        var result: [T] = []
        while try step() { result.append(try transform(self)) }
        sqlite3_reset(statement)
        return result
    }

    var columnCount: Int32 { sqlite3_column_count(statement) }
    func columnName(_ index: Int32) -> String { String(cString: sqlite3_column_name(statement, index)) }
    func isNull(_ index: Int32) -> Bool { sqlite3_column_type(statement, index) == SQLITE_NULL }
    func int(_ index: Int32) -> Int64 { sqlite3_column_int64(statement, index) }
    func optionalInt(_ index: Int32) -> Int64? { isNull(index) ? nil : int(index) }
    func double(_ index: Int32) -> Double { sqlite3_column_double(statement, index) }

    func text(_ index: Int32) -> String {
        guard let pointer = sqlite3_column_text(statement, index) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, index))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    func optionalText(_ index: Int32) -> String? { isNull(index) ? nil : text(index) }

    /// The column as a typed value (for `rhizome sql`).
    func value(_ index: Int32) -> SQLiteValue {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER: return .integer(int(index))
        case SQLITE_FLOAT: return .real(double(index))
        case SQLITE_NULL: return .null
        default: return .text(text(index))
        }
    }
}

/// A time limit for work on the index, and a switch to end it early (an MCP client cancelled the call).
/// Set on a connection (`IndexStore.withDeadline`), it interrupts SQL inside SQLite; Swift loops over
/// rows (Dataview's data commands) call `check()`.
///
///     let deadline = QueryDeadline(limit: .seconds(10), scope: "each MCP tool call", setting: "rhizome mcp --timeout SECONDS")
///     let rows = try store.withDeadline(deadline) { try store.readOnlyQuery(sql) }
public final class QueryDeadline: Sendable {
    public let limit: Duration
    public let instant: ContinuousClock.Instant
    /// What the limit applies to ("each MCP tool call") and how to change it ("rhizome mcp --timeout
    /// SECONDS"), for the error message.
    public let scope: String
    public let setting: String
    private let cancelled = Locked(false)
    /// The deadline this one restarts (`restarted()`): cancelling it cancels this one too.
    private let parent: QueryDeadline?

    public convenience init(limit: Duration, scope: String, setting: String, startingAt start: ContinuousClock.Instant = .now) {
        self.init(limit: limit, scope: scope, setting: setting, start: start, parent: nil)
    }

    private init(limit: Duration, scope: String, setting: String, start: ContinuousClock.Instant, parent: QueryDeadline?) {
        self.limit = limit
        instant = start + limit
        self.scope = scope
        self.setting = setting
        self.parent = parent
    }

    /// The same limit from now, cancelled with this one: for the reads after a wait that is not a query
    /// (explore's model call between its two reads over MCP), which must not use up their time.
    public func restarted() -> QueryDeadline {
        QueryDeadline(limit: limit, scope: scope, setting: setting, start: .now, parent: self)
    }

    /// Ends the work at its next check, with `StoreError.cancelled`.
    public func cancel() { cancelled.withLock { $0 = true } }

    public var isCancelled: Bool { cancelled.withLock { $0 } || parent?.isCancelled == true }

    /// Cancelled, or past the time limit.
    public var isOver: Bool { isCancelled || ContinuousClock.now >= instant }

    /// Throws `.cancelled` or `.timedOut` once the work should end.
    public func check() throws(StoreError) {
        if isOver { throw error }
    }

    /// The error that ends the work: `.cancelled` when cancelled, else `.timedOut`.
    public var error: StoreError {
        isCancelled ? .cancelled : .timedOut(seconds: limit.inSeconds, scope: scope, setting: setting)
    }
}

/// A value bound to or read from SQLite.
public enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
}

extension SQLiteValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension Optional where Wrapped == String {
    var sqlite: SQLiteValue { map { .text($0) } ?? .null }
}

extension Optional where Wrapped == Int {
    var sqlite: SQLiteValue { map { .integer(Int64($0)) } ?? .null }
}

private let transientDestructor = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
