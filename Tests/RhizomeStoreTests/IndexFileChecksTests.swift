import CSQLite
import Foundation
import Testing
@testable import RhizomeStore
import RhizomeTestSupport

/// What `IndexStore` finds at an index path before it writes there: not an SQLite file, another
/// application's database, an index it may only read. Real files, real permissions.
@Suite struct IndexFileChecksTests {
    @Test func `a text file is refused as not a database, and left as it was`() throws {
        let vault = try TemporaryVault()
        let path = vault.databasePath
        try Data("hello, not a database\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: StoreError.notADatabase(path: path, reason: "it is a text file")) { try IndexStore(path: path) }
        #expect(throws: StoreError.notADatabase(path: path, reason: "it is a text file")) { try IndexStore(readOnlyPath: path) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "hello, not a database\n")
    }

    @Test(arguments: [false, true])
    func `another application's database is refused before anything is written`(walMode: Bool) throws {
        let vault = try TemporaryVault()
        let path = vault.databasePath
        do {
            let other = try SQLiteConnection(path: path)
            if walMode { try other.execute("PRAGMA journal_mode = WAL") }
            try other.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO users(name) VALUES ('ada')")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let sidecars = { ["-wal", "-shm", "-journal", ".lock"].filter { FileManager.default.fileExists(atPath: path + $0) } }
        #expect(sidecars() == [])
        #expect(throws: StoreError.foreignDatabase(path: path, tables: ["users"])) { try IndexStore(path: path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(sidecars() == [])
        #expect(throws: StoreError.foreignDatabase(path: path, tables: ["users"])) { try IndexStore(readOnlyPath: path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(sidecars() == [])
    }

    @Test func `a new index, an empty file and an index of this Rhizome all open`() throws {
        let vault = try TemporaryVault()
        let empty = vault.scratchDatabasePath()
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        _ = try IndexStore(path: empty)
        _ = try IndexStore(path: empty)  // now a Rhizome index
        _ = try IndexStore(readOnlyPath: empty)
    }

    @Test func `an index whose path has URI characters opens immutable`() throws {
        let vault = try TemporaryVault()
        try vault.write("A.md", "[[B]]")
        try vault.write("B.md", "# B")
        let folder = vault.outside.appendingPathComponent("odd ?#% ünïcode&=")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("index?.sqlite").path
        try vault.index(database: path)
        let connection = try SQLiteConnection(path: path, mode: .immutable)
        let statement = try connection.prepare("SELECT count(*) FROM files")
        #expect(try statement.step() && statement.int(0) == 2)
        #expect(throws: (any Error).self) { try connection.execute("DELETE FROM meta") }
    }

    @Test(.enabled(if: ReadOnlyFolder.isPossible, "root ignores permission bits and `chattr +i` is not available here"))
    func `an index in a read-only folder is read immutable, and refused for writing with the fix`() throws {
        let vault = try TemporaryVault()
        try vault.write("A.md", "[[B]]")
        try vault.write("B.md", "# B")
        let folder = vault.outside.appendingPathComponent("read-only")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("index.sqlite").path
        try vault.index(database: path)  // closed: no -wal is left
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        let readOnly = try ReadOnlyFolder(folder: folder.path, file: path)
        defer { readOnly.restore() }

        let store = try IndexStore(readOnlyPath: path)
        #expect(try store.resolveNote("B")?.path == "B.md")
        #expect(IndexStore.writeProblem(ofIndexAt: path)?.code == "index-read-only")
        do {
            _ = try IndexStore(path: path)
            Issue.record("a read-only index opened for writing")
        } catch {
            #expect(error.code == "index-read-only")
            #expect(error.description.contains(path) && error.description.contains("chmod u+w"), "\(error)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["index.sqlite", "index.sqlite.lock"])
    }

    @Test(.enabled(if: ReadOnlyFolder.isPossible, "root ignores permission bits and `chattr +i` is not available here"))
    func `a read-only index with a write-ahead log and no -shm says which permission to fix`() throws {
        let vault = try TemporaryVault()
        try vault.write("A.md", "[[B]]")
        let folder = vault.outside.appendingPathComponent("read-only")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("index.sqlite").path
        try vault.index(database: path)
        // A log left by a writer that was killed (its -shm gone with the machine's memory).
        #expect(FileManager.default.createFile(atPath: path + "-wal", contents: Data()))
        let readOnly = try ReadOnlyFolder(folder: folder.path, file: path)
        defer { readOnly.restore() }
        do {
            _ = try IndexStore(readOnlyPath: path)
            Issue.record("read through an immutable open although a write-ahead log exists")
        } catch {
            #expect(error.code == "index-read-only")
            #expect(error.description.contains("chmod u+w \(folder.path)"), "\(error)")
        }
    }

    @Test func `the index's own files inside the vault are not vault files, through symlinks too`() throws {
        let vault = try TemporaryVault()
        try FileManager.default.createDirectory(at: vault.outside, withIntermediateDirectories: true)
        let link = vault.outside.appendingPathComponent("vault-link").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: vault.path)
        let expected: Set<String> = [
            "Data/index.sqlite", "Data/index.sqlite-wal", "Data/index.sqlite-shm", "Data/index.sqlite-journal",
            "Data/index.sqlite.lock", "Data/index.sqlite.watch.lock", "Data/.index.sqlite.operations",
        ]
        try FileManager.default.createDirectory(at: vault.url("Data"), withIntermediateDirectories: true)
        #expect(IndexLocation.excludedPaths(databasePath: vault.path + "/Data/index.sqlite", vaultPath: vault.path) == expected)
        #expect(IndexLocation.excludedPaths(databasePath: vault.path + "/Data/index.sqlite", vaultPath: link) == expected)
        #expect(IndexLocation.excludedPaths(databasePath: link + "/Data/index.sqlite", vaultPath: vault.path) == expected)
        #expect(IndexLocation.excludedPaths(databasePath: vault.databasePath, vaultPath: vault.path).isEmpty)
    }
}

/// Makes an index file and its folder read-only for this process: permission bits (0444, 0555), and when
/// the tests run as root, whom those do not stop, the immutable attribute (`chattr +i`, Linux) as well.
struct ReadOnlyFolder {
    let folder: String
    let file: String

    /// Whether this process can be kept from writing a folder.
    static let isPossible: Bool = {
        if geteuid() != 0 { return true }
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("rhizome-chattr-\(UUID().uuidString)").path
        guard FileManager.default.createFile(atPath: probe, contents: Data()) else { return false }
        defer {
            _ = chattr("-i", probe)
            try? FileManager.default.removeItem(atPath: probe)
        }
        return chattr("+i", probe) && !FileManager.default.isWritableFile(atPath: probe)
    }()

    init(folder: String, file: String) throws {
        (self.folder, self.file) = (folder, file)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder)
        if geteuid() == 0 {
            #expect(Self.chattr("+i", file) && Self.chattr("+i", folder))
        }
    }

    func restore() {
        if geteuid() == 0 {
            Self.chattr("-i", folder)
            Self.chattr("-i", file)
        }
        try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder)
        try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
    }

    @discardableResult
    private static func chattr(_ flag: String, _ path: String) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
        process.arguments = [flag, path]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
