import Foundation
import RhizomeCore
import RhizomeStore
import RhizomeWatch

/// What `rhizome status` reports (`VaultStatusCheck` makes it): the index as it is, the watcher that keeps
/// it current, schema findings and the links to Claude Code. Its field names are the `--json` contract.
public struct VaultStatusReport: Encodable, Sendable {
    public var vault: String
    public var database: String
    public var index: IndexStore.Freshness?
    /// Why the index file cannot be read (not a database, another application's, permissions); null when
    /// it can, or when there is none yet.
    public var indexProblem: ErrorDetail?
    public var schemaFindings: SchemaSummary?
    public var projects: [AgentLinkStatus.Project] = []
    public var global = AgentLinkStatus.Global()
    public var broken: [LinkedItem] = []
    public var healthy = true
    /// Whether `rhizome watch` or `rhizome mcp` keeps this index current.
    public var watcher = WatcherStatus(ActiveWatcher(isWatched: false))
    /// The vault path leads to no folder (deleted, moved away, unmounted); `index` and `schemaFindings` are then left out.
    public var vaultMissing = false
    /// When the vault is missing: when the index that is kept as it was last ran and last changed; nil when
    /// there is no index yet. For the text output (not in `--json`, whose `index` stays null then).
    public var keptIndex: KeptIndex?

    /// An index kept while its vault is missing.
    public struct KeptIndex: Sendable, Equatable {
        public var lastRunAt: String?
        public var lastChangeAt: String?
    }

    private enum CodingKeys: String, CodingKey {
        case vault, database, index, indexProblem, schemaFindings, projects, global, broken, healthy, watcher, vaultMissing
    }

    public init(vault: String, database: String) {
        self.vault = vault
        self.database = database
    }

    /// The agent-link part, as `ClaudeLinker.status()` gave it.
    public var links: AgentLinkStatus {
        var links = AgentLinkStatus()
        (links.projects, links.global, links.broken) = (projects, global, broken)
        return links
    }

    public struct SchemaSummary: Encodable, Sendable {
        public var errors: Int
        public var warnings: Int
        /// Errors in notes under the Claude Code folder.
        public var claudeCodeErrors: Int
    }

    public struct ErrorDetail: Encodable, Sendable {
        public var code: String
        public var message: String
    }

    /// `processID` is null when no watcher runs (or it did not leave its process id); `state` is how current
    /// it keeps the index (`current`, `behind`, `settling`, `vault-missing`, `indexing`, `starting`, `stopped`),
    /// null when none runs (or it does not say).
    public struct WatcherStatus: Encodable, Sendable {
        public var watched: Bool
        @NullEncoded public var processID: Int32?
        /// What the watcher says, except that a watcher whose heartbeat stopped is `unresponsive`
        /// (`ActiveWatcher.isUnresponsive`, as MCP `freshness` says it): it vouches for nothing, and queries walk the vault.
        @NullEncoded public var state: String?
        /// When the watcher last found its watches live on the folder at the vault path (ISO 8601).
        @NullEncoded public var heartbeatAt: String?
        /// Whether queries trust the index without walking the vault (`ActiveWatcher.vouches`).
        public var vouches: Bool
        /// Why it is not current, for the text line only.
        public private(set) var reason: String?

        public init(_ watcher: ActiveWatcher, now: Date = Date()) {
            (watched, processID, vouches) = (watcher.isWatched, watcher.processID, watcher.vouches(now: now))
            heartbeatAt = watcher.heartbeat.map { ISO8601DateFormatter().string(from: $0) }
            state = watcher.state?.rawValue
            reason = watcher.state?.reason
            // Applying a batch is being current; a heartbeat that stopped is not.
            if watcher.isUnresponsive(now: now) {
                state = "unresponsive"
                reason = "the watching process is not responding (\(watcher.silence(now: now)): stopped, or busy); queries walk the vault meanwhile"
            }
        }

        /// The line `rhizome status` prints, when a watcher runs.
        public var line: String? {
            guard watched else { return nil }
            let who = "watched by \(processID.map { "process \($0)" } ?? "another process") (`rhizome watch` or `rhizome mcp`)"
            switch state {
            case "current"?, nil: return who + ": kept current as files change"
            case "starting"?, "indexing"?: return who + ": bringing the index up to date"
            case "stopped"?: return who + ": stopping"
            case let state?: return who + ", but not current: " + (reason ?? state)
            }
        }

        private enum CodingKeys: String, CodingKey { case watched, processID, state, heartbeatAt, vouches }
    }
}
