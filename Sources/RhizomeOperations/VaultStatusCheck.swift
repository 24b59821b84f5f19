import Foundation
import RhizomeCore
import RhizomeStore
import RhizomeWatch

/// The health check of a vault (`rhizome status`): the index as it is — never refreshed, since status
/// reports — its watcher, the schema findings and the links to Claude Code, as a `VaultStatusReport`.
public struct VaultStatusCheck: Sendable {
    public var vault: String
    public var databasePath: String
    public var linker: ClaudeLinker

    public init(vault: String, databasePath: String, linker: ClaudeLinker) {
        self.vault = vault
        self.databasePath = databasePath
        self.linker = linker
    }

    /// Reads the index, the watch lock and the links (nothing is changed). `healthy` is false when a link
    /// is broken; an index that cannot be read is reported in `indexProblem`, not thrown.
    public func run(now: Date = Date()) throws -> VaultStatusReport {
        var report = VaultStatusReport(vault: vault, database: databasePath)
        report.watcher = .init(VaultWatcher.activeWatcher(databasePath: databasePath), now: now)
        let (opened, problem) = Self.openIndex(databasePath)
        report.indexProblem = problem.map { .init(code: $0.code, message: $0.description) }
        if let store = opened, store.hasIndexedOnce {
            report.index = try store.freshness(vaultRoot: vault)
            let findings = try store.validationFindings()
            let prefix = linker.layout.folderName + "/"
            report.schemaFindings = .init(
                errors: findings.count { $0.finding.severity == .error },
                warnings: findings.count { $0.finding.severity == .warning },
                claudeCodeErrors: findings.count { $0.finding.severity == .error && ($0.finding.path?.hasPrefix(prefix) ?? false) })
        }
        let links = linker.status()
        (report.projects, report.global, report.broken) = (links.projects, links.global, links.broken)
        report.healthy = links.broken.isEmpty
        return report
    }

    /// The report when the vault path leads to no folder: only the watcher can be checked (a watcher keeps
    /// the index as it was until the folder is back).
    public static func missingVault(_ vault: String, databasePath: String, now: Date = Date()) -> VaultStatusReport {
        var report = VaultStatusReport(vault: vault, database: databasePath)
        report.vaultMissing = true
        report.healthy = false
        report.watcher = .init(VaultWatcher.activeWatcher(databasePath: databasePath), now: now)
        if let store = try? IndexStore(readOnlyPath: databasePath), store.hasIndexedOnce {
            report.keptIndex = .init(lastRunAt: store.lastRunAt, lastChangeAt: store.lastIndexedAt)
        }
        return report
    }

    /// The index read-only, or why it cannot be read (nil when there is none yet: that is not a problem).
    static func openIndex(_ path: String) -> (store: IndexStore?, problem: StoreError?) {
        do {
            return (try IndexStore(readOnlyPath: path), nil)
        } catch {
            return (nil, error.code == StoreError.notIndexed(path: path).code ? nil : error)
        }
    }
}
