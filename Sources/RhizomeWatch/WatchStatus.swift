import Foundation
import RhizomeCore

/// What a watcher is doing, readable from any thread.
public final class WatchStatus: Sendable {
    public enum Phase: Sendable, Equatable {
        case starting
        case indexing(filesDone: Int, filesTotal: Int)
        case watching
        /// Changes are held back until the vault is quiet, then a walk applies them (`WatchEvent.vaultReplaced`,
        /// `WatchEvent.settling`).
        case settling(reason: String)
        /// The vault folder is gone; the index is kept as it was (`WatchEvent.vaultMissing`).
        case vaultMissing
        case stopped
    }

    /// How current the index is, as readers report it: `rhizome status` and MCP `freshness.state`, in this
    /// process (`Snapshot.state`) or another (`VaultWatcher.activeWatcher`, from the watch lock file).
    public enum State: String, Sendable, Equatable {
        case starting
        case indexing
        /// Caught up with the vault; each change is applied as it comes.
        case current
        /// A batch failed; a walk of the vault retries it.
        case behind
        /// The vault folder was replaced, or a change would remove much of the index: the index catches up
        /// with a walk once the vault is quiet.
        case settling
        /// The vault folder is gone: the index is kept as it was until a folder is back at the vault path.
        case vaultMissing = "vault-missing"
        case stopped

        /// Why the index is not current, in general terms (`Snapshot.reason` says more in this process).
        public var reason: String? {
            switch self {
            case .behind: return "a change could not be applied yet; a walk of the vault retries it"
            case .settling: return "the vault folder was replaced or much of it changed; the index catches up once it is quiet"
            case .vaultMissing: return "the vault folder is missing (deleted, moved away or unmounted); the index is kept as it was until it is back"
            case .starting, .indexing, .current, .stopped: return nil
            }
        }
    }

    public struct Snapshot: Sendable {
        public var phase: Phase
        /// When the index last caught up with the vault.
        public var indexedAt: Date?
        public var lastError: String?

        public var state: State {
            switch phase {
            case .starting: return .starting
            case .indexing: return .indexing
            case .watching: return lastError == nil ? .current : .behind
            case .settling: return .settling
            case .vaultMissing: return .vaultMissing
            case .stopped: return .stopped
            }
        }

        /// Why the index is not current (`settling`, `vault-missing`); `lastError` says why it is `behind`.
        public var reason: String? {
            switch phase {
            case .settling(let reason): return reason
            case .vaultMissing: return state.reason
            default: return nil
            }
        }
    }

    private let current = Locked(Snapshot(phase: .starting, indexedAt: nil, lastError: nil))

    public init() {}

    public var snapshot: Snapshot {
        current.withLock { $0 }
    }

    /// Records why the watcher stopped working (its `run()` threw).
    public func fail(_ error: String) {
        set(.stopped, error: error)
    }

    func set(_ phase: Phase, indexedAt: Date? = nil, error: String? = nil) {
        current.withLock { current in
            current.phase = phase
            if let indexedAt {
                current.indexedAt = indexedAt
                current.lastError = nil
            }
            if let error { current.lastError = error }
        }
    }
}
