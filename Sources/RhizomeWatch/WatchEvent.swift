import RhizomeStore

/// What a watcher reports, one per line of `rhizome watch`'s log.
public enum WatchEvent: Sendable {
    /// The first index is done; changes are applied from now on.
    case ready(IndexReport)
    case batch(WatchBatch)
    /// A batch could not be applied; the next one tries again.
    case failed(message: String, changedPaths: Int)
    /// The vault folder is gone (deleted, moved away, unmounted): nothing is applied and the index is kept as
    /// it was; the vault path is looked at every `vaultCheckInterval` until a folder is there again.
    case vaultMissing
    /// A folder is at the vault path again (`reappeared`), or another folder took the place of the one watched
    /// (moved or copied into place, a symlink): it is watched now, and walked once it has been quiet for
    /// `settleInterval`.
    case vaultReplaced(reappeared: Bool)
    /// A walk would remove `removing` of the `indexedFiles`, more than `removalGuardFraction` allows: it waits
    /// for the vault to be quiet for `settleInterval`, and a second such refusal after a quiet period lets it go.
    case settling(removing: Int, indexedFiles: Int)
    case stopped
}

/// One applied batch of changes.
public struct WatchBatch: Sendable, Encodable {
    /// Distinct paths the file-system events named.
    public var changedPaths: Int
    /// Whether the batch needed a walk of the whole vault, and why.
    public var walkedVault: Bool
    public var reason: String?
    public var report: IndexReport
    /// From the first event of the batch to the start of applying it (the debounce).
    public var waitedMilliseconds: Double
    /// Applying it, in one `Indexer` run.
    public var milliseconds: Double
}

extension WatchEvent {
    /// What the vault folder's events mean for the index, in a sentence (for logs); nil for the others.
    public var notice: String? {
        switch self {
        case .vaultMissing:
            return "the vault folder is missing (deleted, moved away or unmounted): the index is kept as it was until a folder is back at its path"
        case .vaultReplaced(let reappeared):
            return (reappeared ? "the vault folder is back" : "the vault folder was replaced (moved, copied or linked into place)")
                + ": watching it; the index catches up with a walk once it is quiet"
        case .settling(let removing, let indexedFiles):
            return "a change would remove \(removing) of the \(indexedFiles) indexed files: "
                + "applied once the vault is quiet (a folder being copied or synced into place is not the vault yet)"
        case .ready, .batch, .failed, .stopped:
            return nil
        }
    }
}
