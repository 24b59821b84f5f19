import Foundation
import Testing
import RhizomeCore
@testable import RhizomeStore
import RhizomeTestSupport

/// Mistakes about the index file and the notes asked for, as a user makes them: `--db` at a text file or at
/// another application's database, an index the user may only read, a NOTE argument no note could have.
/// Each names the file and the fix and exits 2; none writes to a file that is not Rhizome's. The real binary
/// on real files and permissions.
@Suite(.serialized) struct IndexFileErrorTests {
    @Test func `--db at a text file is refused with its path, and the file is left as it was`() throws {
        let vault = try Self.smallVault()
        let text = vault.outside.appendingPathComponent("notes.txt").path
        try FileManager.default.createDirectory(at: vault.outside, withIntermediateDirectories: true)
        try Data("shopping: milk, eggs\n".utf8).write(to: URL(fileURLWithPath: text))
        for command in [["backlinks", "B"], ["index"], ["backlinks", "B", "--no-refresh"]] {
            let run = try BinaryRun(command + ["--vault", vault.path, "--db", text, "--json"], home: vault.outside.path)
            #expect(run.status == 2, "\(command): \(run.error)")
            #expect(run.json["error"]["code"] == "index-not-a-database", "\(command): \(run.output)")
            let message = run.json["error"]["message"].string ?? ""
            #expect(message.contains("\(text) is not a SQLite database") && message.contains("choose another --db"), "\(message)")
        }
        #expect(try String(contentsOfFile: text, encoding: .utf8) == "shopping: milk, eggs\n")
    }

    @Test(arguments: ["DELETE", "WAL"])
    func `--db at another application's database is refused before anything is written`(journalMode: String) throws {
        let vault = try Self.smallVault()
        try FileManager.default.createDirectory(at: vault.outside, withIntermediateDirectories: true)
        let database = vault.outside.appendingPathComponent("app.db").path
        do {
            let other = try SQLiteConnection(path: database)
            try other.execute("PRAGMA journal_mode = \(journalMode); CREATE TABLE orders (id INTEGER PRIMARY KEY, total REAL); INSERT INTO orders(total) VALUES (9.5)")
        }
        let hash = { ContentHash.hex(of: Array(try Data(contentsOf: URL(fileURLWithPath: database)))) }
        let before = try hash()
        let neighbours = { Set((try? FileManager.default.contentsOfDirectory(atPath: vault.outside.path)) ?? []) }
        #expect(neighbours() == ["app.db"])

        let commands = [["backlinks", "B"], ["index"], ["index", "--rebuild"], ["stats", "--no-refresh"], ["mv", "A", "C", "--write"], ["status"], ["sql", "SELECT 1"]]
        for command in commands {
            let run = try BinaryRun(command + ["--vault", vault.path, "--db", database, "--json"], home: vault.outside.path)
            // `status` reports what it finds, the index's problem included.
            let error = command == ["status"] ? run.json["data"]["indexProblem"] : run.json["error"]
            #expect(run.status == (command == ["status"] ? 0 : 2), "\(command): \(run.error)")
            #expect(error["code"] == "index-foreign-database", "\(command): \(run.output)")
            let message = error["message"].string ?? ""
            #expect(message.contains("\(database) is not a Rhizome index: it holds tables of another application (orders)"), "\(message)")
            #expect(message.contains("choose another --db"), "\(message)")
            #expect(try hash() == before, "\(command) changed the other application's database")
            // No -wal, -shm, lock or journal folder beside it.
            #expect(neighbours() == ["app.db"], "\(command)")
        }
        let other = try SQLiteConnection(path: database, mode: .readOnly)
        let rows = try other.prepare("SELECT total, (SELECT journal_mode FROM pragma_journal_mode) FROM orders").rows { "\($0.double(0)) \($0.text(1))" }
        #expect(rows == ["9.5 \(journalMode.lowercased())"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: vault.path).sorted() == [".obsidian", "A.md", "B.md"])
    }

    @Test(.enabled(if: BinaryRun.canDropPrivileges, "running as root without setpriv: permission bits would not stop this process"))
    func `an index the user may only read answers queries, and a refresh that must write says which permission to fix`() throws {
        let vault = try Self.smallVault()
        let folder = vault.outside.appendingPathComponent("read-only")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let database = folder.appendingPathComponent("index.sqlite").path
        let indexed = try BinaryRun(["index", "--vault", vault.path, "--db", database], home: vault.outside.path)
        #expect(indexed.status == 0, "\(indexed.error)")
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: database)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path) }
        let home = vault.outside.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o777])
        let user = BinaryRun.unprivileged

        // --no-refresh: read as it is, silently (WAL needs a writable -shm: read immutable, nothing can write it).
        let quiet = try BinaryRun(["backlinks", "B", "--no-refresh", "--vault", vault.path, "--db", database, "--json"], home: home.path, as: user)
        #expect(quiet.status == 0, "\(quiet.error)")
        #expect(quiet.json["data"][0]["source"] == "A.md", "\(quiet.output)")
        #expect(quiet.error.isEmpty, "\(quiet.error)")
        // A query that would refresh answers from the index as it is, and warns that it may be stale.
        let warned = try BinaryRun(["backlinks", "B", "--vault", vault.path, "--db", database, "--json"], home: home.path, as: user)
        #expect(warned.status == 0, "\(warned.error)")
        #expect(warned.json["data"][0]["source"] == "A.md", "\(warned.output)")
        #expect(warned.error.contains("may be stale") && warned.error.contains("chmod u+w \(database)"), "\(warned.error)")
        // Commands that must write say which file, and how to fix it.
        for command in [["index"], ["mv", "A", "C", "--write"], ["append", "A", "more"]] {
            let run = try BinaryRun(command + ["--vault", vault.path, "--db", database, "--json"], home: home.path, as: user)
            #expect(run.status == 2, "\(command): \(run.error)")
            #expect(run.json["error"]["code"] == "index-read-only", "\(command): \(run.output)")
            #expect(run.json["error"]["message"].string?.contains("chmod u+w \(database)") == true, "\(command): \(run.output)")
        }
        #expect(try vault.read("A.md") == "[[B]]\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["index.sqlite", "index.sqlite.lock"])
    }

    @Test func `an index written by a newer Rhizome is the user's to fix, exit 2`() throws {
        let vault = try Self.smallVault()
        try vault.index()
        try SQLiteConnection(path: vault.databasePath).execute("PRAGMA user_version = 999")
        for command in [["backlinks", "B"], ["backlinks", "B", "--no-refresh"]] {
            let run = try BinaryRun(command + ["--vault", vault.path, "--db", vault.databasePath, "--json"], home: vault.outside.path)
            #expect(run.status == 2, "\(command): \(run.error)")
            #expect(run.json["error"]["code"] == "index-newer-schema", "\(command): \(run.output)")
        }
    }

    @Test func `a NOTE argument of 50,000 characters is note-not-found, in the CLI and over MCP`() throws {
        let vault = try Self.smallVault()
        let long = String(repeating: "x", count: 50_000)
        for command in [["backlinks", long], ["note", long], ["links", long], ["neighbors", long], ["path", "A", long], ["backlinks", "A#" + long]] {
            let run = try BinaryRun(command + ["--vault", vault.path, "--db", vault.databasePath, "--json"], home: vault.outside.path)
            let name = command.map { $0.count > 20 ? "<\($0.count) characters>" : $0 }
            if command.last?.hasPrefix("A#") == true {
                #expect(run.status == 0, "\(name): a heading after `#` does not stop the note from resolving: \(run.error)")
                continue
            }
            #expect(run.status == 2, "\(name): \(run.error.prefix(300))")
            #expect(run.json["error"]["code"] == "note-not-found", "\(name): \(run.output.prefix(300))")
        }
        let session = try MCPSession(vault: vault)
        defer { session.child.stop() }
        _ = try session.initialize()
        try session.waitUntilIndexed()
        for tool in ["note", "backlinks"] {
            let answer = try session.call(tool, ["note": .string(long)])
            #expect(answer.isError)
            #expect(answer.body["error"]["code"] == "note-not-found", "\(tool): \(String(describing: answer.body).prefix(300))")
            #expect(answer.body["error"]["fix"] == "use the `search` tool to find it", "\(tool): \(String(describing: answer.body).prefix(300))")
        }
        #expect(session.finish() == .exited(0), "stderr: \(session.child.errorText)")
    }

    @Test func `an edit with --no-refresh still brings the index up to date and keeps it level with the vault`() throws {
        let vault = try Self.smallVault()
        let arguments = ["--vault", vault.path, "--db", vault.databasePath, "--json"]
        #expect(try BinaryRun(["index"] + arguments, home: vault.outside.path).status == 0)
        try vault.write("D.md", "[[B]]\n")  // not indexed yet: the move must see its link too
        let moved = try BinaryRun(["mv", "B", "C", "--write", "--no-refresh"] + arguments, home: vault.outside.path)
        #expect(moved.status == 0, "\(moved.error)")
        #expect(try vault.read("D.md") == "[[C]]\n")
        let appended = try BinaryRun(["append", "A", "more", "--no-refresh"] + arguments, home: vault.outside.path)
        #expect(appended.status == 0, "\(appended.error)")
        let backlinks = try BinaryRun(["backlinks", "C", "--no-refresh"] + arguments, home: vault.outside.path)
        #expect(backlinks.json["data"].array?.compactMap { $0["source"].string }.sorted() == ["A.md", "D.md"], "\(backlinks.output)")
    }

    @Test func `a search no note name could hold is answered, not failed`() throws {
        let vault = try Self.smallVault()
        let manyWords = (0..<1_200).map { "word\($0)" }.joined(separator: " ")
        for query in [String(repeating: "y", count: 50_000), manyWords] {
            let run = try BinaryRun(["search", query, "--vault", vault.path, "--db", vault.databasePath, "--json"], home: vault.outside.path)
            #expect(run.status == 0, "\(run.error.prefix(300))")
            #expect(run.json["data"] == [], "\(run.output.prefix(300))")
        }
    }

    @Test func `a Dataview query nested or chained past the limits is a syntax error, not a crash`() throws {
        let vault = try Self.smallVault()
        let queries = [
            "LIST WHERE " + String(repeating: "(", count: 1_000) + "1" + String(repeating: ")", count: 1_000),
            "LIST WHERE " + (0..<3_000).map { "file.name = \"n\($0)\"" }.joined(separator: " OR "),
        ]
        for query in queries {
            let run = try BinaryRun(["query", query, "--vault", vault.path, "--db", vault.databasePath, "--json"], home: vault.outside.path)
            #expect(run.status == 2, "\(run.error.prefix(300))")
            #expect(run.json["error"]["code"] == "query-syntax", "\(run.output.prefix(300))")
        }
    }

    private static func smallVault() throws -> TemporaryVault {
        let vault = try TemporaryVault()
        try vault.write("A.md", "[[B]]\n")
        try vault.write("B.md", "# B\n")
        return vault
    }
}

/// One run of the real `rhizome` executable, optionally as another user (`setpriv`, when the tests run as root).
struct BinaryRun {
    var status: Int32
    var output: String
    var error: String
    var json: AnyJSON { AnyJSON.parse(output) ?? .null }

    /// The user id tests drop to when they run as root: `nobody`, if `setpriv` can switch to it.
    static let unprivileged: UInt32? = geteuid() == 0 ? 65_534 : nil

    /// Whether permission bits can stop the processes a test starts: not root, or root with `setpriv`.
    static let canDropPrivileges = geteuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")

    init(_ arguments: [String], home: String, as user: UInt32? = nil) throws {
        let binary = try #require(RhizomeBinary.url, "the rhizome executable was not built next to the tests")
        let process = Process()
        if let user {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=\(user)", "--regid=\(user)", "--clear-groups", binary.path] + arguments
        } else {
            process.executableURL = binary
            process.arguments = arguments
        }
        process.environment = ["HOME": home, "XDG_CACHE_HOME": home + "/.cache", "PATH": "/usr/bin:/bin"]
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Read both pipes while the process runs: a long answer must not fill one and stall it.
        let errorData = LockedData()
        let reader = Thread { errorData.set(error.fileHandleForReading.readDataToEndOfFile()) }
        reader.start()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !errorData.isSet { usleep(1_000) }
        (status, self.output, self.error) = (process.terminationStatus, String(decoding: outputData, as: UTF8.self), String(decoding: errorData.value, as: UTF8.self))
    }
}

/// Bytes handed from a reader thread.
private final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data: Data?
    var isSet: Bool { lock.withLock { data != nil } }
    var value: Data { lock.withLock { data ?? Data() } }
    func set(_ value: Data) { lock.withLock { data = value } }
}
