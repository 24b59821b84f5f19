import RhizomeCore

/// Errors from the index database. Messages name the statement but never bound values.
public enum StoreError: Error, Sendable, Equatable {
    case cannotOpen(path: String, reason: String)
    case sqlite(code: Int32, message: String, statement: String)
    case newerSchema(found: Int, supported: Int, path: String)
    /// An index written by an older Rhizome, opened read-only (`--no-refresh`), so it cannot be migrated.
    case olderSchema(found: Int, supported: Int, path: String)
    case notIndexed(path: String)
    case notReadOnly
    case multipleStatements
    case emptyQuery
    case invalidQuery(message: String)
    case lockUnavailable(path: String, reason: String)
    /// The index path leads to something that is not an SQLite file (a text file, a folder).
    case notADatabase(path: String, reason: String)
    /// The index path leads to another application's SQLite database; nothing was written to it.
    case foreignDatabase(path: String, tables: [String])
    /// The index cannot be written (or, in WAL mode, not even read) with the permissions it has.
    case readOnlyIndex(path: String, reason: String, fix: String)
    /// Work on the index ran past its time limit (`QueryDeadline`): `scope` is what the limit applies to,
    /// `setting` how to raise it.
    case timedOut(seconds: Double, scope: String, setting: String)
    /// The caller cancelled the work (an MCP client's `notifications/cancelled`).
    case cancelled
    /// `ATTACH` or `DETACH` in a read-only query: it reads the index and nothing else.
    case attachRefused
}

extension StoreError: CustomStringConvertible {
    /// Stable machine-readable code for JSON output.
    public var code: String {
        switch self {
        case .cannotOpen: return "index-unavailable"
        case .sqlite: return "index-sqlite-error"
        case .newerSchema: return "index-newer-schema"
        case .olderSchema: return "index-outdated"
        case .notIndexed: return "index-missing"
        case .notReadOnly: return "sql-not-read-only"
        case .multipleStatements: return "sql-multiple-statements"
        case .emptyQuery: return "sql-empty"
        case .invalidQuery: return "sql-invalid"
        case .lockUnavailable: return "index-lock-unavailable"
        case .notADatabase: return "index-not-a-database"
        case .foreignDatabase: return "index-foreign-database"
        case .readOnlyIndex: return "index-read-only"
        case .timedOut: return "timed-out"
        case .cancelled: return "cancelled"
        case .attachRefused: return "sql-attach-refused"
        }
    }

    /// Whether the user can fix it by asking differently or by fixing the file they pointed at (exit 2),
    /// rather than Rhizome failing (exit 70).
    public var isUserMistake: Bool {
        switch self {
        // The index file cannot be opened (permissions, a folder that cannot be made): the user's to fix.
        // An index from a newer Rhizome: the user's to fix (upgrade, or another --db), as an older one is.
        case .cannotOpen, .notIndexed, .olderSchema, .newerSchema, .notReadOnly, .multipleStatements, .emptyQuery, .invalidQuery,
             .notADatabase, .foreignDatabase, .readOnlyIndex, .timedOut, .attachRefused:
            return true
        case .sqlite, .lockUnavailable, .cancelled:
            return false
        }
    }

    /// The message as what went wrong, then how to fix it, and what joins them.
    public var message: ErrorMessage {
        switch self {
        case .cannotOpen(let path, let reason):
            return ErrorMessage("cannot open the index database at \(path): \(reason)", ". ", "Check the folder's permissions, or choose another place with --db PATH.")
        case .sqlite(let code, let message, let statement):
            return ErrorMessage("SQLite error \(code) (\(message)) while executing `\(statement)`")
        case .newerSchema(let found, let supported, let path):
            return ErrorMessage("the index at \(path) was written by a newer Rhizome (schema \(found); this one understands up to \(supported))", ". ",
                                "Upgrade Rhizome, or use another index file with --db PATH.")
        case .olderSchema(let found, let supported, let path):
            return ErrorMessage("the index at \(path) was written by an older Rhizome (schema \(found); this one writes \(supported)) and must be updated before it can be read",
                                ". ", "Run `rhizome index`, or drop --no-refresh.")
        case .notIndexed(let path):
            return ErrorMessage("the vault has not been indexed yet (no index at \(path))", ". ", "Run `rhizome index` first, or drop --no-refresh.")
        case .notReadOnly:
            return ErrorMessage("`rhizome sql` runs read-only queries only (SELECT, WITH …)", ". ", "Use the documented views listed in docs/INDEX.md.")
        case .multipleStatements:
            return ErrorMessage("`rhizome sql` runs one statement at a time", "; ", "remove everything after the first `;`.")
        case .emptyQuery:
            return ErrorMessage("the SQL query is empty", ". ", "Example: rhizome sql \"SELECT path FROM notes LIMIT 5\"")
        case .invalidQuery(let message):
            return ErrorMessage("the SQL query is not valid: \(message)", ". ",
                                "The views you can query are listed in docs/INDEX.md (files, notes, links, tags, headings, blocks, tasks, aliases, properties, findings).")
        case .lockUnavailable(let path, let reason):
            return ErrorMessage("cannot lock the index for writing (\(path): \(reason))", ". ", "Check the folder's permissions, or choose another place with --db PATH.")
        case .timedOut(let seconds, let scope, let setting):
            return ErrorMessage("stopped at the time limit of \(seconds.formatted()) s for \(scope)", ". ",
                                "Narrow the query (add a LIMIT, or filter on path, tag or key), or raise the limit with `\(setting)`.")
        case .cancelled:
            return ErrorMessage("the work was cancelled by its caller")
        case .attachRefused:
            return ErrorMessage("ATTACH and DETACH are refused: read-only SQL reads the index and no other database file", ". ", "Query the documented views instead.")
        case .notADatabase(let path, let reason):
            return ErrorMessage("\(path) is not a SQLite database (\(reason)), so it cannot be a Rhizome index", "; ",
                                "choose another --db (a new file name creates a new index).")
        case .foreignDatabase(let path, let tables):
            let held = tables.isEmpty
                ? "it is a database of another application"
                : "it holds tables of another application (\(tables.prefix(5).joined(separator: ", "))\(tables.count > 5 ? ", …" : ""))"
            return ErrorMessage("\(path) is not a Rhizome index: \(held)", "; ", "choose another --db (a new file name creates a new index). Nothing was written to it.")
        case .readOnlyIndex(let path, let reason, let fix):
            return ErrorMessage("the index at \(path) \(reason)", ". ", fix)
        }
    }
}

extension StoreError: ExplainedError {}
