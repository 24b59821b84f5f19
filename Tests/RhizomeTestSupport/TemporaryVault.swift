import Foundation
import RhizomeCore
import RhizomeStore

/// A vault in a fresh temporary folder, with helpers to write, move and delete real files.
/// Removed when the value is deinitialised.
public final class TemporaryVault: @unchecked Sendable {
    public let root: URL
    public var path: String { root.path }
    /// A database path outside the vault, in the same temporary parent.
    public let databasePath: String
    private let parent: URL

    public init(obsidianFolder: Bool = true) throws {
        parent = FileManager.default.temporaryDirectory.appendingPathComponent("rhizome-test-\(UUID().uuidString)")
        root = parent.appendingPathComponent("vault")
        databasePath = parent.appendingPathComponent("index.sqlite").path
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        if obsidianFolder {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(".obsidian"), withIntermediateDirectories: true)
        }
    }

    /// Copies a folder (a corpus or Vault-Example) into a new temporary vault.
    public convenience init(copying source: URL) throws {
        try self.init(obsidianFolder: false)
        try FileManager.default.removeItem(at: root)
        try FileManager.default.copyItem(at: source, to: root)
        // A read-only source (the shared corpora) would give a copy that cannot be edited or removed.
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: root.path)
        for case let relative as String in FileManager.default.enumerator(atPath: root.path) ?? FileManager.DirectoryEnumerator() {
            let path = root.appendingPathComponent(relative).path
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path), attributes[.type] as? FileAttributeType != .typeSymbolicLink,
                  let mode = attributes[.posixPermissions] as? Int else { continue }
            try? FileManager.default.setAttributes([.posixPermissions: mode | 0o200], ofItemAtPath: path)
        }
    }

    deinit {
        try? FileManager.default.removeItem(at: parent)
    }

    /// A scratch folder outside the vault (for symlink targets).
    public var outside: URL { parent.appendingPathComponent("outside") }

    public func url(_ relativePath: String) -> URL { root.appendingPathComponent(relativePath) }

    @discardableResult
    public func write(_ relativePath: String, _ text: String) throws -> URL {
        try write(relativePath, bytes: Array(text.utf8))
    }

    @discardableResult
    public func write(_ relativePath: String, bytes: [UInt8]) throws -> URL {
        let url = url(relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
        return url
    }

    public func read(_ relativePath: String) throws -> String {
        try String(contentsOf: url(relativePath), encoding: .utf8)
    }

    public func remove(_ relativePath: String) throws {
        try FileManager.default.removeItem(at: url(relativePath))
    }

    public func move(_ from: String, to destination: String) throws {
        let target = url(destination)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: url(from), to: target)
    }

    public func symlink(_ relativePath: String, to destination: String) throws {
        let url = url(relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: destination)
    }

    /// Sets a file's modification time (to simulate an edit that keeps the size, or a touch).
    public func setModificationDate(_ relativePath: String, _ date: Date) throws {
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: url(relativePath).path)
    }

    /// Indexes the vault into `databasePath` (or another database) and returns the report.
    @discardableResult
    public func index(database: String? = nil, options: IndexOptions = IndexOptions()) throws -> IndexReport {
        let store = try IndexStore(path: database ?? databasePath)
        return try Indexer(store: store, vaultRoot: path, options: options).run()
    }

    public func store(database: String? = nil) throws -> IndexStore {
        try IndexStore(path: database ?? databasePath)
    }

    /// A fresh database path in the temporary parent (for full-rebuild comparisons).
    public func scratchDatabasePath() -> String {
        parent.appendingPathComponent("scratch-\(UUID().uuidString).sqlite").path
    }
}

/// Locations of the repository's fixtures.
public enum Fixtures {
    /// The repository root (found from this source file's path).
    public static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    public static var vaultExample: URL { repositoryRoot.appendingPathComponent("Vault-Example") }

    /// `../shared/corpora/NAME` beside the repository, or nil when absent (a user's clone has none).
    public static func corpus(_ name: String) -> URL? {
        let url = repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/corpora/\(name)")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }
}

extension IndexStore {
    /// A canonical, order-independent dump of everything indexed, for "incremental equals full rebuild".
    public func canonicalDump() throws -> [String] {
        let queries = [
            "SELECT 'file', path, kind, coalesce(content_hash, ''), coalesce(frontmatter_json, '') FROM file",
            // `resolved` too: a link whose target id names no file would otherwise look unresolved.
            "SELECT 'link', source, coalesce(target, '∅'), resolved, kind, coalesce(property_key, ''), link_path, coalesce(subpath, ''), coalesce(display, ''), line, \"column\" FROM links",
            "SELECT 'tag', path, tag, source, line, \"column\" FROM tags",
            "SELECT 'heading', path, level, text, line FROM headings",
            "SELECT 'block', path, block_id, line FROM blocks",
            "SELECT 'task', f.path, k.status, k.text, k.line, coalesce(k.parent_line, 0), coalesce(k.continued_text, '') FROM task k JOIN file f ON f.id = k.file_id",
            "SELECT 'alias', path, alias FROM aliases",
            "SELECT 'property', path, key, type, value, line, \"column\" FROM properties",
            "SELECT 'inline_field', path, key, field_key, value, syntax, line, \"column\" FROM inline_fields",
            "SELECT 'finding', coalesce(path, ''), code, coalesce(line, 0), coalesce(\"column\", 0) FROM findings",
            "SELECT 'fts', f.path, t.title, t.body FROM note_fts t JOIN file f ON f.id = t.rowid",
        ] + [("link", "source_id"), ("tag", "file_id"), ("heading", "file_id"), ("block", "file_id"), ("task", "file_id"),
             ("alias", "file_id"), ("property", "file_id"), ("inline_field", "file_id"), ("reference_value", "file_id")].map { table, file in
            // The views join files, so they would hide rows left behind by a deleted file, or keyed under
            // another file's range: each table counts those (a fresh rebuild has none).
            "SELECT 'stray \(table) rows', count(*) FROM \(table) WHERE \(file) NOT IN (SELECT id FROM file) OR id >> 32 != \(file)"
        }
        var rows: [String] = []
        for query in queries {
            let result = try readOnlyQuery(query)
            rows += result.rows.map { $0.map(\.displayText).joined(separator: " | ") }
        }
        return rows.sorted()
    }
}

/// Writes an executable script at `path` so that it can be run at once from a test process that starts
/// other processes concurrently: the final file is written by `cp`, never through a descriptor of this
/// process, which a concurrent fork would inherit (exec then fails with ETXTBSY, "text file busy").
public func writeExecutableScript(_ script: String, to path: String) throws {
    let draft = path + ".draft"
    try script.write(toFile: draft, atomically: false, encoding: .utf8)
    let copy = Process()
    copy.executableURL = URL(fileURLWithPath: "/bin/cp")
    copy.arguments = [draft, path]
    try copy.run()
    copy.waitUntilExit()
    try? FileManager.default.removeItem(atPath: draft)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
}
