import CSQLite
import Foundation
import RhizomeCore

/// The user's own SQL (`rhizome sql`, MCP `query`): one read-only statement over the documented views,
/// with `ATTACH` refused, a row limit and, for untrusted callers, a deadline.
extension IndexStore {
    /// Runs one read-only statement (the index must have been opened with `init(readOnlyPath:)` or the
    /// statement must not write; anything else is refused, and so are `ATTACH` and `DETACH`). Errors the
    /// statement itself causes while it runs (bad JSON, a function misused) are `.invalidQuery`: the
    /// user's to fix.
    public func readOnlyQuery(_ sql: String, maxRows: Int = 100_000) throws -> SQLResult {
        let statement = try prepareUserQuery(sql)
        guard statement.isReadOnly else { throw StoreError.notReadOnly }
        let columns = (0..<statement.columnCount).map { statement.columnName($0) }
        var rows: [[JSONValue]] = []
        do {
            while rows.count < maxRows, try statement.step() {
                rows.append((0..<statement.columnCount).map { index in
                    switch statement.value(index) {
                    case .null: return .null
                    case .integer(let value): return .integer(value)
                    case .real(let value): return .number(value)
                    case .text(let value): return .string(value)
                    }
                })
            }
        } catch {
            throw Self.userQueryError(error)
        }
        return SQLResult(columns: columns, rows: rows)
    }

    /// Runs one read-only statement for an untrusted caller (an agent over MCP): on a connection of its
    /// own (settings a statement changes, such as a `PRAGMA`, die with it), unable to `ATTACH` other
    /// database files, and ended by `deadline`.
    public static func untrustedQuery(databasePath: String, sql: String, maxRows: Int, deadline: QueryDeadline) throws -> SQLResult {
        let store = try IndexStore(readOnlyPath: databasePath)
        sqlite3_limit(store.connection.handle, SQLITE_LIMIT_ATTACHED, 0)
        return try store.withDeadline(deadline) { try store.readOnlyQuery(sql, maxRows: maxRows) }
    }

    /// A failure while the user's statement runs: its own mistakes are `.invalidQuery` (exit 2), a
    /// write `.notReadOnly`; a broken or busy index stays an SQLite error.
    private static func userQueryError(_ error: Error) -> Error {
        guard case .sqlite(let code, let message, _)? = error as? StoreError else { return error }
        switch code & 0xFF {
        case SQLITE_READONLY: return StoreError.notReadOnly
        case SQLITE_ERROR, SQLITE_AUTH, SQLITE_RANGE, SQLITE_MISMATCH, SQLITE_TOOBIG, SQLITE_CONSTRAINT:
            return StoreError.invalidQuery(message: message)
        default: return error
        }
    }

    /// Compiles the user's SQL; a statement that does not compile is a usage error, not a broken index.
    /// `ATTACH` and `DETACH` are refused while compiling (an authorizer), before they touch any file.
    private func prepareUserQuery(_ sql: String) throws(StoreError) -> SQLiteStatement {
        let attach = AttachWatch()
        let handle = connection.handle
        sqlite3_set_authorizer(handle, { context, action, _, _, _, _ in
            guard action == SQLITE_ATTACH || action == SQLITE_DETACH, let context else { return SQLITE_OK }
            Unmanaged<AttachWatch>.fromOpaque(context).takeUnretainedValue().attempted = true
            return SQLITE_DENY
        }, Unmanaged.passUnretained(attach).toOpaque())
        defer {
            sqlite3_set_authorizer(handle, nil, nil)
            withExtendedLifetime(attach) {}
        }
        do {
            return try connection.prepareSingle(sql)
        } catch {
            if attach.attempted { throw .attachRefused }
            guard case .sqlite(_, let message, _) = error else { throw error }
            throw message.hasPrefix("cannot modify") ? .notReadOnly : .invalidQuery(message: message)
        }
    }
}

/// Whether the user's statement tried to `ATTACH` or `DETACH` (set by SQLite's authorizer).
private final class AttachWatch {
    var attempted = false
}
