/// `VaultStatusCheck`, the operation behind `rhizome status`, driven directly on real vaults, index files
/// and symlinks: it reports the index as it is (never refreshing it), the schema findings, the links to
/// Claude Code, and an index it cannot read as a problem rather than a failure.
import Foundation
import Testing
import RhizomeCore
import RhizomeStore
import RhizomeOperations
import RhizomeWatch
import RhizomeTestSupport

@Suite struct VaultStatusCheckTests {
    static func check(_ vault: TemporaryVault, database: String? = nil) -> VaultStatusCheck {
        let home = vault.outside.appendingPathComponent("home").path
        try? FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        return VaultStatusCheck(vault: vault.path, databasePath: database ?? vault.databasePath,
                                linker: ClaudeLinker(layout: ClaudeCodeLayout(vaultRoot: vault.path, home: home)))
    }

    @Test func `a note added since the last index is counted as changed, and the check does not index it`() throws {
        let vault = try TemporaryVault()
        try vault.write("Home.md", "# Home\n[[Ideas/Half]]\n")
        try vault.write("Ideas/Half.md", "---\ntype: idea\ntitle: Half\n---\nNo status yet.\n")
        _ = try vault.index()
        try vault.write("Later.md", "Written after the index.\n")

        let report = try Self.check(vault).run()
        let index = try #require(report.index)
        #expect(index.staleFiles == 1)
        #expect(!index.isFresh)
        #expect(report.indexProblem == nil)
        #expect((report.schemaFindings?.errors ?? 0) >= 1, "the idea has no `status`")
        #expect(report.schemaFindings?.claudeCodeErrors == 0)
        #expect(report.healthy && !report.vaultMissing && !report.watcher.watched)
        #expect(try vault.store().resolveNote("Later") == nil, "status reports; it never refreshes the index")
    }

    @Test func `a linked agent whose file went away makes the vault unhealthy`() throws {
        let vault = try TemporaryVault()
        try vault.write("Home.md", "# Home\n")
        _ = try vault.index()
        let repository = vault.outside.appendingPathComponent("acme").path
        for folder in [repository + "/.git", repository + "/.claude/agents"] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        try "---\nname: writer\n---\n".write(toFile: repository + "/.claude/agents/writer.md", atomically: false, encoding: .utf8)
        let check = Self.check(vault)
        _ = try check.linker.link(projectDirectory: repository, project: "acme")
        #expect(try check.run().healthy)

        try FileManager.default.removeItem(atPath: repository + "/.claude/agents/writer.md")
        let report = try check.run()
        #expect(!report.healthy)
        #expect(report.broken.map(\.path) == ["ClaudeCode/Agents/acme/writer.md"])
        #expect(report.links.projects.map(\.name) == ["acme"])
    }

    @Test func `an index file that is not a database is reported as a problem, not thrown`() throws {
        let vault = try TemporaryVault()
        try vault.write("Home.md", "# Home\n")
        try FileManager.default.createDirectory(at: vault.outside, withIntermediateDirectories: true)
        let notADatabase = vault.outside.appendingPathComponent("notes.txt").path
        try String(repeating: "plain text, not SQLite\n", count: 200).write(toFile: notADatabase, atomically: false, encoding: .utf8)
        let report = try Self.check(vault, database: notADatabase).run()
        #expect(report.index == nil)
        #expect(report.indexProblem != nil)
        #expect(report.indexProblem?.message.contains(notADatabase) == true, "\(String(describing: report.indexProblem))")
    }

    @Test func `a vault that has not been indexed has no index and no problem`() throws {
        let vault = try TemporaryVault()
        try vault.write("Home.md", "# Home\n")
        let report = try Self.check(vault).run()
        #expect(report.index == nil && report.indexProblem == nil && report.schemaFindings == nil)
        #expect(report.healthy)
    }

    @Test func `a vault folder that is gone is reported missing, with nothing else checked`() throws {
        let vault = try TemporaryVault()
        let report = VaultStatusCheck.missingVault(vault.path + "/gone", databasePath: vault.databasePath)
        #expect(report.vaultMissing && !report.healthy)
        #expect(report.index == nil && report.schemaFindings == nil)
        #expect(report.keptIndex == nil, "no index was ever built")

        try vault.write("Home.md", "# Home\n")
        _ = try vault.index()
        try FileManager.default.removeItem(atPath: vault.path)
        let kept = try #require(VaultStatusCheck.missingVault(vault.path, databasePath: vault.databasePath).keptIndex)
        #expect(kept.lastRunAt != nil && kept.lastChangeAt != nil)
    }
    @Test func `a watcher whose heartbeat stopped is unresponsive unless its state already says it is not current`() {
        let now = Date()
        let silent = now.addingTimeInterval(-30), beating = now.addingTimeInterval(-0.5)
        for state: WatchStatus.State? in [.current, .stopped, nil] {
            let watcher = ActiveWatcher(isWatched: true, processID: 42, state: state, heartbeat: silent)
            let status = VaultStatusReport.WatcherStatus(watcher, now: now)
            #expect(watcher.isUnresponsive(now: now) && status.state == "unresponsive" && !status.vouches, "\(String(describing: state))")
            #expect(status.line?.contains("not responding (no heartbeat for 30 s") == true, "\(status.line ?? "")")
        }
        for state: WatchStatus.State in [.starting, .indexing, .behind, .settling, .vaultMissing] {
            let watcher = ActiveWatcher(isWatched: true, processID: 42, state: state, heartbeat: silent)
            #expect(!watcher.isUnresponsive(now: now))
            #expect(VaultStatusReport.WatcherStatus(watcher, now: now).state == state.rawValue)
        }
        let alive = ActiveWatcher(isWatched: true, processID: 42, state: .current, heartbeat: beating)
        #expect(!alive.isUnresponsive(now: now) && alive.vouches(now: now))
        #expect(!ActiveWatcher(isWatched: false).isUnresponsive(now: now), "nobody watching is not-watched, not unresponsive")
    }
}
