import Foundation
import Testing
import RhizomeTestSupport

/// The vault folder deleted or replaced under the real `rhizome watch` and `rhizome mcp` processes: the log,
/// `rhizome status` and MCP `freshness` say when the watcher has no vault, and it follows the folder put
/// back (issue 18). The watcher's own behaviour is tested in RhizomeWatchTests/VaultFolderReplacementTests.
@Suite(.serialized, .timeLimit(.minutes(2))) struct VaultReplacementTests {
    @Test func watchFollowsAVaultFolderReplacedByACopyAndStatusSaysWhenItIsMissing() throws {
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        let binary = try #require(RhizomeBinary.url, "the rhizome executable was not built next to the tests")
        let watcher = try ChildProcess(executable: binary, arguments: ["watch", "--vault", vault.path, "--db", vault.databasePath],
                                       environment: MCPSession.environment(vault))
        defer { watcher.stop() }
        try #require(watcher.outputLine(within: .seconds(20)) { $0.contains("ready") } != nil, "stderr: \(watcher.errorText)")

        // Moved away and copied back, as `mv V V.bak && cp -a V.bak V` does.
        let moved = vault.root.deletingLastPathComponent().appendingPathComponent("vault.bak")
        try FileManager.default.moveItem(at: vault.root, to: moved)
        try Self.copy(moved, to: vault.root)
        let walked = watcher.outputLine(from: 1, within: .seconds(10)) { $0.contains("walked once the vault was quiet") }
        #expect(walked?.contains("+0 ~0 -0") == true, "\(watcher.outputLines); stderr: \(watcher.errorText)")
        #expect(watcher.errorText.contains("watching it; the index catches up with a walk once it is quiet"), "\(watcher.errorText)")
        try vault.write("Ideas/Fresh idea.md", "# Fresh idea\n\nSee [[SQLite FTS5 docs]].\n")
        #expect(watcher.outputLine(from: 1, within: .seconds(10)) { $0.contains("+1 ~0 -0") } != nil, "\(watcher.outputLines)")
        let current = try Self.run(["status", "--json", "--vault", vault.path, "--db", vault.databasePath], vault: vault)
        #expect(current.json["data"]["watcher"]["state"] == "current", "\(current.output)")
        #expect(current.json["data"]["vaultMissing"] == false)

        // Deleted: the log says so, and so does `rhizome status`, with the index kept as it was.
        try FileManager.default.removeItem(at: vault.root)
        #expect(watcher.waitForError(containing: "the vault folder is missing", within: .seconds(10)), "\(watcher.errorText)")
        let missing = try Self.run(["status", "--vault", vault.path, "--db", vault.databasePath], vault: vault)
        #expect(missing.status == .exited(1), "\(missing.error)")
        #expect(missing.output.contains("missing: there is no folder at this path"), "\(missing.output)")
        #expect(missing.output.contains("index: kept as it was"), "\(missing.output)")
        #expect(missing.output.contains("watched by process \(watcher.processIdentifier) (`rhizome watch` or `rhizome mcp`), but not current: the vault folder is missing"),
                "\(missing.output)")
        let missingJSON = try Self.run(["status", "--json", "--vault", vault.path, "--db", vault.databasePath], vault: vault)
        #expect(missingJSON.json["data"]["vaultMissing"] == true, "\(missingJSON.output)")
        #expect(missingJSON.json["data"]["watcher"]["state"] == "vault-missing")
        #expect(missingJSON.json["data"]["watcher"]["processID"] == .number(Double(watcher.processIdentifier)))
        let stats = try Self.run(["stats", "--json", "--no-refresh", "--vault", moved.path, "--db", vault.databasePath], vault: vault)
        #expect(stats.json["data"]["notes"] == 61, "the index lost notes while the vault was missing: \(stats.output)")

        // Put back: followed again.
        let linesBefore = watcher.outputLines.count
        try Self.copy(moved, to: vault.root)
        #expect(watcher.outputLine(from: linesBefore, within: .seconds(10)) { $0.contains("walked once the vault was quiet") } != nil,
                "\(watcher.outputLines); stderr: \(watcher.errorText)")
        let back = try Self.run(["status", "--json", "--vault", vault.path, "--db", vault.databasePath], vault: vault)
        #expect(back.json["data"]["watcher"]["state"] == "current", "\(back.output)")
        #expect(back.json["data"]["index"]["staleFiles"] == 0, "\(back.output)")

        watcher.send(signal: SIGTERM)
        #expect(watcher.waitForExit(within: .seconds(10)) == .exited(0), "stderr: \(watcher.errorText)")
    }

    @Test func mcpFreshnessSaysVaultMissingUntilTheFolderIsBack() throws {
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        let session = try MCPSession(vault: vault)
        defer { session.child.stop() }
        _ = try session.initialize()
        try session.waitUntilIndexed()
        let moved = vault.root.deletingLastPathComponent().appendingPathComponent("vault.bak")
        try FileManager.default.moveItem(at: vault.root, to: moved)

        var last = AnyJSON.null
        let sawMissing = try session.poll(within: .seconds(10)) {
            last = try session.call("query", ["sql": "SELECT count(*) AS notes FROM notes"]).body
            return last["freshness"]["state"] == "vault-missing"
        }
        #expect(sawMissing, "freshness never said vault-missing: \(last["freshness"]); stderr: \(session.child.errorText)")
        #expect(last["freshness"]["reason"].string?.contains("the vault folder is missing") == true, "\(last["freshness"])")
        #expect(last["data"]["rows"][0][0] == 60, "the index lost notes while the vault was missing: \(last["data"])")
        #expect(session.child.waitForError(containing: "the vault folder is missing", within: .seconds(2)))

        try Self.copy(moved, to: vault.root)
        try vault.write("Ideas/Fresh idea.md", "# Fresh idea\n")
        let caughtUp = try session.poll(within: .seconds(10)) {
            last = try session.call("query", ["sql": "SELECT count(*) AS notes FROM notes"]).body
            return last["freshness"]["state"] == "current" && last["data"]["rows"][0][0] == 61
        }
        #expect(caughtUp, "not current again: \(last); stderr: \(session.child.errorText)")
    }

    @Test func mcpFreshnessReportsAnotherProcessWatcherThatLostTheVault() throws {
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        let binary = try #require(RhizomeBinary.url)
        let watcher = try ChildProcess(executable: binary, arguments: ["watch", "--vault", vault.path, "--db", vault.databasePath],
                                       environment: MCPSession.environment(vault))
        defer { watcher.stop() }
        try #require(watcher.outputLine(within: .seconds(20)) { $0.contains("ready") } != nil, "stderr: \(watcher.errorText)")
        let session = try MCPSession(vault: vault)
        defer { session.child.stop() }
        _ = try session.initialize()
        #expect(try session.call("query", ["sql": "SELECT 1"]).body["freshness"]["state"] == "watched-by-other-process")

        try FileManager.default.removeItem(at: vault.root)
        #expect(watcher.waitForError(containing: "the vault folder is missing", within: .seconds(10)), "\(watcher.errorText)")
        let freshness = try session.call("query", ["sql": "SELECT 1"]).body["freshness"]
        #expect(freshness["state"] == "vault-missing", "\(freshness)")
        #expect(freshness["watchedBy"] == .string("process \(watcher.processIdentifier)"))
        #expect(freshness["reason"].string != nil)
    }

    // MARK: Helpers

    struct Run {
        var status: ChildProcess.Termination?
        var output: String
        var error: String
        var json: AnyJSON { AnyJSON.parse(output) ?? .null }
    }

    /// Runs a one-shot command to its end.
    static func run(_ arguments: [String], vault: TemporaryVault) throws -> Run {
        let binary = try #require(RhizomeBinary.url, "the rhizome executable was not built next to the tests")
        let child = try ChildProcess(executable: binary, arguments: arguments, environment: MCPSession.environment(vault))
        defer { child.stop() }
        child.closeInput()
        let status = child.waitForExit(within: .seconds(30))
        #expect(status != nil, "rhizome \(arguments.joined(separator: " ")) did not finish")
        return Run(status: status, output: child.outputLines.joined(separator: "\n"), error: child.errorText)
    }

    /// `cp -a`, as users and sync tools put a folder back.
    static func copy(_ source: URL, to destination: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/cp")
        process.arguments = ["-a", source.path, destination.path]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
    }
}
