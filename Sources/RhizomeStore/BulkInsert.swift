import CSQLite

/// Inserts rows into one table many per statement, for the writer's bulk path: rows are collected
/// (`add` each column's value in order, then `endRow`), and every `rowsPerStatement` rows go into the table
/// in one `INSERT OR FAIL INTO t(…) VALUES (…), (…), …`; `flush()` inserts the rest.
///
/// Why: one statement per row costs SQLite more than the row (opening a cursor on the table, seeking the
/// row's id from the root page, finishing the statement), and binding text for copying allocates per value.
/// Here the cursor stays on the table's last page while ascending ids are appended, and text is bound
/// without copying, straight from this inserter's own buffer. Measured with SQLite alone, 125,000 link rows:
/// 163 ms one per statement, 99 ms 32 per statement.
///
/// `OR FAIL`, not the default `ABORT`: a statement that can abort after writing some of its rows makes
/// SQLite open a statement journal (a savepoint) for it, and at each savepoint FTS5 writes its pending
/// terms out as a new segment, which made a first index with full text seconds slower. A failing row
/// still fails its statement with the table's error, and the caller's transaction rolls back. (A table
/// with a foreign key checked on insert makes every multi-row statement a savepoint again: give such a
/// table one row per statement while foreign keys are on.)
///
/// Rows are in the table only once their statement ran: call `flush()` before the transaction commits and
/// before anything in it reads or deletes rows this inserter may still hold.
final class BulkInsert {
    /// One collected value. Text is a range of `text`, bound where it lies when the statement runs.
    private enum Cell {
        case null
        case integer(Int64)
        case text(offset: Int, count: Int)
    }

    private let connection: SQLiteConnection
    private let table: String
    private let columns: [String]
    let rowsPerStatement: Int
    /// Statements by their number of rows (`rowsPerStatement` and the powers of two below it), prepared
    /// when first needed.
    private var statements: [Int: SQLiteStatement] = [:]
    // Unchecked exclusivity: every value added checked at run time that no other access to these was under
    // way (3% of a first index's writing). The class is used from one thread, and neither is ever
    // accessed while the other is, nor handed out.
    @exclusivity(unchecked) private var cells: [Cell] = []
    @exclusivity(unchecked) private var text: [UInt8] = []
    private(set) var pendingRows = 0

    /// Whether a row whose id exists replaces it (`overwriting`), writing only when a value differs.
    private let overwrites: Bool

    /// `overwriting`: rows may have ids already in the table (the first column must be `id`); each then
    /// updates that row, and only if one of its values differs, so a row written again unchanged costs a
    /// lookup instead of a delete and an insert in the table and its indexes.
    init(_ connection: SQLiteConnection, table: String, columns: [String], rowsPerStatement: Int = 32, overwriting: Bool = false) throws(StoreError) {
        precondition(!columns.isEmpty && rowsPerStatement >= 1)
        precondition(!overwriting || columns.first == "id", "rows are overwritten by their id")
        self.connection = connection
        self.table = table
        self.columns = columns
        self.rowsPerStatement = rowsPerStatement
        overwrites = overwriting
        cells.reserveCapacity(columns.count * rowsPerStatement)
        text.reserveCapacity(256 * rowsPerStatement)
        statements[rowsPerStatement] = try prepareStatement(rows: rowsPerStatement)
    }

    // The current row's next column value, in the order of `columns`.
    func add(_ value: Int64) { cells.append(.integer(value)) }
    func add(_ value: Int) { cells.append(.integer(Int64(value))) }
    func add(_ value: Bool) { cells.append(.integer(value ? 1 : 0)) }
    func add(_ value: Int64?) { cells.append(value.map { .integer($0) } ?? .null) }
    func add(_ value: Int?) { cells.append(value.map { .integer(Int64($0)) } ?? .null) }
    func add(_ value: String?) {
        if let value { add(value) } else { cells.append(.null) }
    }
    // Its own overload: a `String` passed where `String?` is taken is copied into the optional (a retain
    // and a release per value, on the one thread that writes).
    func add(_ value: String) {
        let offset = text.count
        // Through the string's own storage: `append(contentsOf: value.utf8)` takes the view as its own,
        // another retain and release.
        if value.utf8.withContiguousStorageIfAvailable({ text.append(contentsOf: $0) }) == nil {
            text.append(contentsOf: Array(value.utf8))
        }
        cells.append(.text(offset: offset, count: text.count - offset))
    }

    /// Ends the current row (every column added); inserts the rows collected when they fill a statement.
    func endRow() throws(StoreError) {
        pendingRows += 1
        precondition(cells.count == pendingRows * columns.count, "a row of \(table) needs \(columns.count) values")
        if pendingRows == rowsPerStatement { try insertPending() }
    }

    /// Inserts every row collected so far.
    func flush() throws(StoreError) {
        if pendingRows > 0 { try insertPending() }
    }

    // MARK: Helpers

    /// Inserts the pending rows with as few statements as their count allows (a full statement, then
    /// statements of 16, 8, 4, 2 and 1 rows for what is left), and forgets them, whether or not it succeeds.
    private func insertPending() throws(StoreError) {
        defer {
            cells.removeAll(keepingCapacity: true)
            text.removeAll(keepingCapacity: true)
            pendingRows = 0
        }
        var firstRow = 0
        var size = rowsPerStatement
        while firstRow < pendingRows {
            while size > pendingRows - firstRow { size = size == rowsPerStatement ? Self.largestPowerOfTwo(below: size) : size / 2 }
            let statement: SQLiteStatement
            if let prepared = statements[size] { statement = prepared } else {
                statement = try prepareStatement(rows: size)
                statements[size] = statement
            }
            try run(statement, firstRow: firstRow, rows: size)
            firstRow += size
        }
    }

    private func run(_ statement: SQLiteStatement, firstRow: Int, rows: Int) throws(StoreError) {
        let handle = statement.statement
        let first = firstRow * columns.count
        let count = rows * columns.count
        let failure = text.withUnsafeBufferPointer { bytes -> StoreError? in
            let base = bytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }
            for position in 0..<count {
                let parameter = Int32(position + 1)
                switch cells[first + position] {
                case .null: sqlite3_bind_null(handle, parameter)
                case .integer(let value): sqlite3_bind_int64(handle, parameter, value)
                case .text(let offset, let length):
                    // Not copied (a nil destructor is SQLITE_STATIC): the bytes stay put until the statement
                    // has run, and every parameter is bound again before it runs next.
                    let start = length > 0 ? base.map { $0 + offset } ?? Self.emptyText : Self.emptyText
                    sqlite3_bind_text(handle, parameter, start, Int32(length), nil)
                }
            }
            let status = sqlite3_step(handle)
            let failure = status == SQLITE_DONE ? nil : connection.error(status, sql: statement.sql)
            sqlite3_reset(handle)
            return failure
        }
        if let failure { throw failure }
    }

    private func prepareStatement(rows: Int) throws(StoreError) -> SQLiteStatement {
        let row = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        var sql = "INSERT OR FAIL INTO \(table)(\(columns.joined(separator: ", "))) VALUES \(Array(repeating: row, count: rows).joined(separator: ", "))"
        if overwrites {
            let values = columns.dropFirst()
            sql += " ON CONFLICT(id) DO UPDATE SET " + values.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
                + " WHERE (" + values.joined(separator: ", ") + ") IS NOT (" + values.map { "excluded.\($0)" }.joined(separator: ", ") + ")"
        }
        return try connection.prepare(sql)
    }

    /// Where empty text is bound from: SQLite keeps a text value's pointer even for zero bytes (a null
    /// pointer would bind NULL), so it points into the program's constant data, valid for its lifetime.
    private static var emptyText: UnsafePointer<CChar> { UnsafeRawPointer(("" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self) }

    private static func largestPowerOfTwo(below count: Int) -> Int {
        var power = 1
        while power * 2 < count { power *= 2 }
        return power
    }
}
