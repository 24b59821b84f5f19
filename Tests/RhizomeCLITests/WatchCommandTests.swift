import Foundation
import Testing
import RhizomeStore
import RhizomeTestSupport

/// `rhizome watch` as a user runs it: the real process on a copy of Vault-Example, its log lines read as
/// they come, stopped by the signals a terminal or a service manager sends.
@Suite(.serialized, .timeLimit(.minutes(2))) struct WatchCommandTests {
    /// The keys of `data` in every `--json` line, whatever the event.
    static let jsonLineKeys = [
        "added", "changedPaths", "event", "findings", "links", "message", "milliseconds", "modified", "notes", "reason",
        "relinked", "removed", "time", "unresolvedLinks", "waitedMilliseconds", "walkedVault",
    ]

    @Test func watchPrintsReadyThenOneLinePerBatchOfChanges() throws {
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        let watcher = try launchWatch(vault)
        defer { watcher.stop() }

        // Vault-Example: 60 notes, a canvas, two attachments and three bases; 313 links, 11 of them unresolved.
        let ready = try #require(watcher.outputLine(within: .seconds(20)) { $0.contains("ready") }, "no ready line; stderr: \(watcher.errorText)")
        #expect(ready.wholeMatch(of: /\d\d:\d\d:\d\d\.\d{3}  ready · 60 notes · 313 links \(11 unresolved\) · added 66, modified 0, removed 0 · [\d.,]+ ms/) != nil, "\(ready)")
        #expect(watcher.errorText.contains("Watching \(vault.path)"))

        try vault.write("Ideas/Fresh idea.md", "# Fresh idea\n\nSee [[SQLite FTS5 docs]].\n")
        let added = watcher.outputLine(from: 1, within: .seconds(10)) { $0.contains("+1 ~0 -0") }
        #expect(added?.wholeMatch(of: /\d\d:\d\d:\d\d\.\d{3}  1 path · \+1 ~0 -0 · \d+ links? re-resolved · [\d.,]+ ms/) != nil, "\(watcher.outputLines)")

        try vault.write("Ideas/Fresh idea.md", "# Fresh idea\n\nSee [[SQLite FTS5 docs]] and [[Storage schema]].\n")
        let modified = watcher.outputLine(from: 1, within: .seconds(10)) { $0.contains("+0 ~1 -0") }
        #expect(modified?.contains("1 path") == true, "\(watcher.outputLines)")

        try vault.remove("Ideas/Fresh idea.md")
        let removed = watcher.outputLine(from: 1, within: .seconds(10)) { $0.contains("+0 ~0 -1") }
        #expect(removed?.contains("1 path") == true, "\(watcher.outputLines)")

        // Moving a folder is applied with a walk of the vault, and says so.
        try vault.move("People", to: "Contacts")
        let moved = watcher.outputLine(from: 1, within: .seconds(10)) { $0.contains("walked the vault") }
        #expect(moved?.contains("+3 ~0 -3") == true, "\(watcher.outputLines)")
        #expect(moved?.hasSuffix("walked the vault: a folder was created, moved or deleted") == true, "\(moved ?? "none")")

        // Nothing but the ready line and batch lines, in the order of the changes.
        let lines = watcher.outputLines
        #expect(lines.allSatisfy { $0.wholeMatch(of: /\d\d:\d\d:\d\d\.\d{3}  .+ · .+ ms( · walked the vault: .+)?/) != nil }, "\(lines)")
        let order = [ready, added, modified, removed, moved].compactMap { $0 }.compactMap { lines.firstIndex(of: $0) }
        #expect(order == order.sorted())

        watcher.send(signal: SIGINT)
        #expect(watcher.waitForExit(within: .seconds(10)) == .exited(0), "stderr: \(watcher.errorText)")
        #expect(watcher.errorText.contains("stopped"))
    }

    @Test func jsonPrintsOneCompactEnvelopePerLineWithEveryKey() throws {
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        let watcher = try launchWatch(vault, json: true)
        defer { watcher.stop() }

        let readyLine = try #require(watcher.outputLine(within: .seconds(20)) { _ in true }, "no output; stderr: \(watcher.errorText)")
        let ready = try #require(AnyJSON.parse(readyLine), "not JSON: \(readyLine)")
        #expect(!readyLine.contains("\n") && !readyLine.contains(" : ") && readyLine.hasPrefix("{\"command\":\"watch\""), "compact, sorted keys: \(readyLine)")
        #expect(ready.keys == ["command", "data", "vault", "version"])
        #expect(ready["command"] == "watch")
        #expect(ready["version"] == 1)
        #expect(ready["vault"].string.map(Self.canonical) == Self.canonical(vault.path))
        let data = ready["data"]
        #expect(data.keys == Self.jsonLineKeys)
        #expect(data["event"] == "ready")
        #expect(data["notes"] == 60)
        #expect(data["links"] == 313)
        #expect(data["unresolvedLinks"] == 11)
        #expect(data["added"] == 66)
        #expect(data["walkedVault"] == true)
        #expect(data["changedPaths"].isNull)
        #expect(data["findings"].array != nil)
        #expect(data["time"].string.flatMap { ISO8601DateFormatter.withFractions.date(from: $0) } != nil, "\(data["time"])")
        #expect(!watcher.errorText.contains("Watching"), "--json keeps standard error for problems")

        try vault.write("Ideas/Fresh idea.md", "# Fresh idea\n\nSee [[SQLite FTS5 docs]].\n")
        let batch = try #require(watcher.outputLine(from: 1, within: .seconds(10)) { $0.contains("\"event\":\"batch\"") }.flatMap(AnyJSON.parse),
                                 "no batch line: \(watcher.outputLines)")
        #expect(batch.keys == ["command", "data", "vault", "version"])
        #expect(batch["data"].keys == Self.jsonLineKeys)
        #expect(batch["data"]["changedPaths"] == 1)
        #expect(batch["data"]["added"] == 1)
        #expect(batch["data"]["modified"] == 0)
        #expect(batch["data"]["removed"] == 0)
        #expect(batch["data"]["walkedVault"] == false)
        #expect(batch["data"]["reason"].isNull)
        #expect(batch["data"]["notes"].isNull)
        #expect(batch["data"]["milliseconds"].double != nil)
        #expect(batch["data"]["waitedMilliseconds"].double != nil)
        #expect(batch["data"]["findings"] == [])

        try vault.move("People", to: "Contacts")
        let moved = try #require(watcher.outputLine(from: 1, within: .seconds(10)) { $0.contains("\"walkedVault\":true") && $0.contains("\"event\":\"batch\"") }
            .flatMap(AnyJSON.parse), "no walk: \(watcher.outputLines)")
        #expect(moved["data"]["reason"] == "a folder was created, moved or deleted")
        #expect(moved["data"]["added"] == 3)
        #expect(moved["data"]["removed"] == 3)

        watcher.send(signal: SIGTERM)
        #expect(watcher.waitForExit(within: .seconds(10)) == .exited(0), "stderr: \(watcher.errorText)")
        let lines = watcher.outputLines
        let parsed = lines.compactMap(AnyJSON.parse)
        #expect(parsed.count == lines.count, "every line is one JSON document: \(lines)")
        #expect(parsed.allSatisfy { $0["command"] == "watch" && $0["data"].keys == Self.jsonLineKeys })
        #expect(parsed.last?["data"]["event"] == "stopped")
    }

    @Test func aSecondWatcherOfTheSameIndexIsRefusedNamingTheFirst() throws {
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        let first = try launchWatch(vault)
        defer { first.stop() }
        try #require(first.outputLine(within: .seconds(20)) { $0.contains("ready") } != nil, "stderr: \(first.errorText)")

        let second = try run(["watch", "--vault", vault.path, "--db", vault.databasePath], vault: vault)
        #expect(second.status == .exited(2))
        #expect(second.error.contains("already watched by process \(first.processIdentifier)"), "\(second.error)")
        #expect(second.output.isEmpty)

        // The first watcher is unharmed.
        try vault.write("Ideas/Fresh idea.md", "# Fresh idea\n")
        #expect(first.outputLine(from: 1, within: .seconds(10)) { $0.contains("+1 ~0 -0") } != nil, "\(first.outputLines)")
        first.send(signal: SIGTERM)
        #expect(first.waitForExit(within: .seconds(10)) == .exited(0))

        // Once it has stopped, the lock is free again.
        let third = try launchWatch(vault)
        defer { third.stop() }
        #expect(third.outputLine(within: .seconds(20)) { $0.contains("ready") } != nil, "stderr: \(third.errorText)")
        third.send(signal: SIGTERM)
        #expect(third.waitForExit(within: .seconds(10)) == .exited(0))
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func aStopSignalEndsTheWatcherWithStatusZeroAndAConsistentIndex(signal: Int32) throws {
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        let watcher = try launchWatch(vault)
        defer { watcher.stop() }
        try #require(watcher.outputLine(within: .seconds(20)) { $0.contains("ready") } != nil, "stderr: \(watcher.errorText)")
        try vault.write("Ideas/Fresh idea.md", "# Fresh idea\n\nSee [[SQLite FTS5 docs]].\n")
        #expect(watcher.outputLine(from: 1, within: .seconds(10)) { $0.contains("+1 ~0 -0") } != nil, "\(watcher.outputLines)")

        // A change the watcher may be applying when the signal arrives.
        try vault.write("Ideas/Second idea.md", "# Second idea\n\n[[Fresh idea]]\n")
        watcher.send(signal: signal)
        #expect(watcher.waitForExit(within: .seconds(10)) == .exited(0), "stderr: \(watcher.errorText)")
        #expect(watcher.errorText.contains("stopped"))

        try expectConsistentIndex(vault, notes: 61...62)
    }

    @Test func aStopSignalDuringTheFirstIndexStillLeavesAConsistentIndex() throws {
        let vault = try TemporaryVault()
        for index in 0..<2_000 {
            try vault.write("Folder \(index % 10)/Note \(index).md", "# Note \(index)\n[[Note \((index * 7 + 3) % 2_000)]] #t\(index % 5)\n- [ ] task \(index)\n")
        }
        let watcher = try launchWatch(vault)
        defer { watcher.stop() }
        // The line is printed once the signal handlers are installed.
        try #require(watcher.waitForError(containing: "Watching", within: .seconds(10)), "stderr: \(watcher.errorText)")
        watcher.send(signal: SIGTERM)
        #expect(watcher.waitForExit(within: .seconds(30)) == .exited(0), "stderr: \(watcher.errorText)")

        try expectConsistentIndex(vault, notes: 0...2_000)
    }

    @Test func otherCommandsAnswerWhileTheWatcherRuns() throws {
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        let watcher = try launchWatch(vault)
        defer { watcher.stop() }
        try #require(watcher.outputLine(within: .seconds(20)) { $0.contains("ready") } != nil, "stderr: \(watcher.errorText)")

        let before = try run(["backlinks", "SQLite FTS5 docs", "--json", "--vault", vault.path, "--db", vault.databasePath], vault: vault)
        #expect(before.status == .exited(0), "\(before.error)")
        #expect(Self.sources(before.json) == ["Ideas/Embedding-free search.md", "Projects/Rhizome/Design/Storage schema.md", "Reading list.md"])

        // A query command refreshes the index itself, racing the watcher's batch for the same change.
        try vault.write("Ideas/Fresh idea.md", "# Fresh idea\n\nSee [[SQLite FTS5 docs]].\n")
        let during = try run(["backlinks", "SQLite FTS5 docs", "--json", "--vault", vault.path, "--db", vault.databasePath], vault: vault)
        #expect(during.status == .exited(0), "\(during.error)")
        #expect(Self.sources(during.json).contains("Ideas/Fresh idea.md"), "\(during.output)")

        #expect(watcher.outputLine(from: 1, within: .seconds(10)) { $0.contains("1 path") } != nil, "\(watcher.outputLines)")
        let after = try run(["backlinks", "SQLite FTS5 docs", "--json", "--no-refresh", "--vault", vault.path, "--db", vault.databasePath], vault: vault)
        #expect(Self.sources(after.json).count == 4, "\(after.output)")
        let stats = try run(["stats", "--json", "--vault", vault.path, "--db", vault.databasePath], vault: vault)
        #expect(stats.status == .exited(0))
        #expect(stats.json["data"]["notes"] == 61)
        let status = try run(["status", "--json", "--vault", vault.path, "--db", vault.databasePath], vault: vault)
        #expect(status.json["data"]["watcher"]["watched"] == true, "\(status.output)")
        #expect(status.json["data"]["watcher"]["processID"] == .number(Double(watcher.processIdentifier)), "\(status.output)")

        watcher.send(signal: SIGTERM)
        #expect(watcher.waitForExit(within: .seconds(10)) == .exited(0), "stderr: \(watcher.errorText)")
        try expectConsistentIndex(vault, notes: 61...61)
    }

    // MARK: Helpers

    struct Run {
        var status: ChildProcess.Termination?
        var output: String
        var error: String
        var json: AnyJSON { AnyJSON.parse(output) ?? .null }
    }

    private static func environment(_ vault: TemporaryVault) -> [String: String] {
        ["HOME": vault.outside.path, "XDG_CACHE_HOME": vault.outside.path + "/.cache", "PATH": "/usr/bin:/bin"]
    }

    private func launchWatch(_ vault: TemporaryVault, json: Bool = false) throws -> ChildProcess {
        let binary = try #require(RhizomeBinary.url, "the rhizome executable was not built next to the tests")
        return try ChildProcess(
            executable: binary, arguments: ["watch", "--vault", vault.path, "--db", vault.databasePath] + (json ? ["--json"] : []),
            environment: Self.environment(vault))
    }

    /// Runs a one-shot command to its end (killed after the deadline).
    private func run(_ arguments: [String], vault: TemporaryVault, within timeout: Duration = .seconds(30)) throws -> Run {
        let binary = try #require(RhizomeBinary.url, "the rhizome executable was not built next to the tests")
        let child = try ChildProcess(executable: binary, arguments: arguments, environment: Self.environment(vault))
        defer { child.stop() }
        child.closeInput()
        let status = child.waitForExit(within: timeout)
        #expect(status != nil, "rhizome \(arguments.joined(separator: " ")) did not finish within \(timeout)")
        return Run(status: status, output: child.outputLines.joined(separator: "\n"), error: child.errorText)
    }

    /// The stopped watcher left a database that opens without refreshing, passes SQLite's integrity check,
    /// and, once brought up to date, equals a full rebuild.
    private func expectConsistentIndex(_ vault: TemporaryVault, notes: ClosedRange<Int>) throws {
        let stats = try run(["stats", "--no-refresh", "--json", "--vault", vault.path, "--db", vault.databasePath], vault: vault)
        #expect(stats.status == .exited(0), "\(stats.error)")
        #expect(notes.contains(stats.json["data"]["notes"].int ?? -1), "\(stats.output)")
        let check = try run(["sql", "PRAGMA integrity_check", "--no-refresh", "--json", "--vault", vault.path, "--db", vault.databasePath], vault: vault)
        #expect(check.status == .exited(0), "\(check.error)")
        #expect(check.json["data"]["rows"] == [["ok"]], "\(check.output)")

        let index = try run(["index", "--vault", vault.path, "--db", vault.databasePath], vault: vault)
        #expect(index.status == .exited(0), "\(index.error)")
        let fresh = vault.scratchDatabasePath()
        try vault.index(database: fresh)
        #expect(try IndexStore(path: vault.databasePath).canonicalDump() == (try IndexStore(path: fresh).canonicalDump()))
    }

    private static func sources(_ envelope: AnyJSON) -> [String] {
        (envelope["data"].array ?? []).compactMap { $0["source"].string }.sorted()
    }

    private static func canonical(_ path: String) -> String {
        URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
    }
}

private extension ISO8601DateFormatter {
    nonisolated(unsafe) static let withFractions: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }()
}
