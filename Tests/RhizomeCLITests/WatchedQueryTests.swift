import Foundation
import Testing
import RhizomeTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Queries beside a running `rhizome watch` (issue 18, item 10): while the watcher vouches for the index
/// (current, a recent heartbeat, nothing waiting), a query answers without walking the vault, and still
/// sees a change saved just before it; a watcher that is stopped (SIGSTOP) or gone vouches for nothing, and
/// queries walk as without one. Whether a query walked is read from the indexer's phase trace
/// (`RHIZOME_TRACE_PHASES=1` prints a `phases:` line for every indexing run).
@Suite(.serialized, .ownThread, .timeLimit(.minutes(2))) struct WatchedQueryTests {
    @Test func aQueryBesideALiveWatcherSkipsTheWalkAndStillSeesAChangeSavedJustBefore() throws {
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        let watcher = try launchWatch(vault)
        defer { watcher.stop() }
        try #require(watcher.outputLine(within: .seconds(20)) { $0.contains("ready") } != nil, "stderr: \(watcher.errorText)")

        let quiet = try Self.query(["backlinks", "SQLite FTS5 docs"], vault: vault)
        #expect(quiet.status == .exited(0), "\(quiet.error)")
        #expect(!quiet.walked, "a query beside a current watcher walked the vault: \(quiet.error)")

        // Saved, then queried at once, many times: each answer has the change, whether the watcher had
        // applied it (no walk) or was applying it (the query waits for it).
        for round in 0..<5 {
            let name = "Fresh \(round)"
            try vault.write("Ideas/\(name).md", "# \(name)\n\nSee [[SQLite FTS5 docs]].\n")
            let seen = try Self.query(["backlinks", "SQLite FTS5 docs", "--json"], vault: vault)
            #expect(seen.status == .exited(0), "\(seen.error)")
            let sources = (seen.json["data"].array ?? []).compactMap { $0["source"].string }
            #expect(sources.contains("Ideas/\(name).md"), "round \(round): a note saved before the query is missing: \(sources)")
            #expect(!seen.walked, "round \(round): walked: \(seen.error)")
        }

        // `RHIZOME_WALK=1` walks anyway.
        let forced = try Self.query(["backlinks", "SQLite FTS5 docs"], vault: vault, extra: ["RHIZOME_WALK": "1"])
        #expect(forced.walked, "RHIZOME_WALK=1 did not walk: \(forced.error)")

        watcher.send(signal: SIGTERM)
        #expect(watcher.waitForExit(within: .seconds(10)) == .exited(0), "stderr: \(watcher.errorText)")
    }

    @Test func aStoppedOrExitedWatcherVouchesForNothingAndQueriesWalk() throws {
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        let watcher = try launchWatch(vault)
        defer { watcher.stop() }
        try #require(watcher.outputLine(within: .seconds(20)) { $0.contains("ready") } != nil, "stderr: \(watcher.errorText)")

        // Stopped (a debugger, SIGSTOP): its heartbeat ages, and once it is older than the limit (2 s) a
        // query walks, and finds what the stopped watcher could not apply.
        watcher.send(signal: SIGSTOP)
        try vault.write("Ideas/While stopped.md", "# While stopped\n\nSee [[SQLite FTS5 docs]].\n")
        usleep(2_500_000)
        let stuck = try Self.query(["backlinks", "SQLite FTS5 docs", "--json"], vault: vault)
        #expect(stuck.walked, "a query trusted a stopped watcher: \(stuck.error)")
        let sources = (stuck.json["data"].array ?? []).compactMap { $0["source"].string }
        #expect(sources.contains("Ideas/While stopped.md"), "\(sources)")
        // `status` agrees: the watcher is there, but unresponsive, and vouches for nothing.
        let status = try Self.query(["status", "--json"], vault: vault)
        let stuckWatcher = status.json["data"]["watcher"]
        #expect(stuckWatcher["processID"] == .number(Double(watcher.processIdentifier)), "\(status.output)")
        #expect(stuckWatcher["state"] == "unresponsive", "\(stuckWatcher)")
        #expect(stuckWatcher["vouches"] == false)
        let statusText = try Self.query(["status"], vault: vault)
        #expect(statusText.output.contains("but not current: the watching process is not responding (no heartbeat for"), "\(statusText.output)")

        // Running again: it beats, applies what it missed (nothing: the walk did), and vouches again.
        watcher.send(signal: SIGCONT)
        usleep(1_000_000)
        let resumed = try Self.query(["backlinks", "SQLite FTS5 docs"], vault: vault)
        #expect(!resumed.walked, "a query beside a resumed watcher walked: \(resumed.error)")
        let live = try Self.query(["status", "--json"], vault: vault).json["data"]["watcher"]
        #expect(live["state"] == "current" && live["vouches"] == true, "\(live)")
        #expect(live["heartbeatAt"].string.flatMap { ISO8601DateFormatter().date(from: $0) }.map { abs($0.timeIntervalSinceNow) < 3 } == true, "\(live)")

        // Gone: its lock is free, and queries walk.
        watcher.send(signal: SIGKILL)
        _ = watcher.waitForExit(within: .seconds(10))
        try vault.write("Ideas/After exit.md", "# After exit\n\nSee [[SQLite FTS5 docs]].\n")
        let after = try Self.query(["backlinks", "SQLite FTS5 docs", "--json"], vault: vault)
        #expect(after.walked, "\(after.error)")
        #expect((after.json["data"].array ?? []).contains { $0["source"].string == "Ideas/After exit.md" }, "\(after.output)")
    }

    // MARK: Helpers

    struct Run {
        var status: ChildProcess.Termination?
        var output: String
        var error: String
        var json: AnyJSON { AnyJSON.parse(output) ?? .null }
        /// Whether an indexing run happened (its phase trace is on standard error).
        var walked: Bool { error.contains("phases:") }
    }

    private func launchWatch(_ vault: TemporaryVault) throws -> ChildProcess {
        let binary = try #require(RhizomeBinary.url, "the rhizome executable was not built next to the tests")
        return try ChildProcess(
            executable: binary, arguments: ["watch", "--vault", vault.path, "--db", vault.databasePath], environment: MCPSession.environment(vault))
    }

    /// Runs a one-shot command against the vault and its index, with the indexer's phase trace on.
    static func query(_ arguments: [String], vault: TemporaryVault, extra: [String: String] = [:]) throws -> Run {
        let binary = try #require(RhizomeBinary.url, "the rhizome executable was not built next to the tests")
        let environment = MCPSession.environment(vault).merging(["RHIZOME_TRACE_PHASES": "1"].merging(extra) { $1 }) { $1 }
        let child = try ChildProcess(
            executable: binary, arguments: arguments + ["--vault", vault.path, "--db", vault.databasePath], environment: environment)
        defer { child.stop() }
        child.closeInput()
        let status = child.waitForExit(within: .seconds(30))
        #expect(status != nil, "rhizome \(arguments.joined(separator: " ")) did not finish")
        return Run(status: status, output: child.outputLines.joined(separator: "\n"), error: child.errorText)
    }
}
