import Foundation
import RhizomeCore

/// Tunables for an indexing run.
public struct IndexOptions: Sendable {
    /// Index note bodies for full-text search (FTS5).
    public var fullText = true
    /// Notes larger than this are nodes without content (a finding says so). Default 16 MiB; at most
    /// 1 GiB (a larger value counts as 1 GiB), which keeps every note's positions within `FileRows`' range.
    public var maxNoteBytes: Int64 {
        get { storedMaxNoteBytes }
        set { storedMaxNoteBytes = min(max(0, newValue), Self.largestNoteBytes) }
    }
    private var storedMaxNoteBytes: Int64 = 16 * 1024 * 1024
    /// A note's items (links, tags, lines…) each take at least a byte: fewer than 2^30 in a note this size.
    static let largestNoteBytes: Int64 = 1 << 30
    /// Files parsed and written per transaction.
    public var batchSize = 512
    /// Parser threads.
    public var parallelism = ProcessInfo.processInfo.activeProcessorCount
    /// If the vault lists no files while the index holds at least this many, the run refuses to empty it.
    public var emptyVaultGuardMinimumFiles = 10
    /// A walk that would remove more than this fraction of an index of at least `emptyVaultGuardMinimumFiles`
    /// files changes nothing and throws `VaultError.massRemoval`. Nil (the default, as for `rhizome index`):
    /// only a vault that lists nothing is refused. A watcher sets it, so that a vault folder caught half-way
    /// through being copied or synced into place is not taken for the vault; it walks again once the folder
    /// is quiet, without the guard.
    public var removalGuardFraction: Double?
    /// A first index of at least this many files uses bulk-load mode (secondary indexes built at the end).
    public var bulkLoadMinimumFiles = 1_000
    /// Runs that parse at most this many files resolve links against just the candidate files.
    public var candidateResolutionMaximumFiles = 256
    /// Vault-relative paths the walk leaves out (an index file kept inside the vault).
    public var excludedPaths: Set<String> = []
    /// Which schemas notes are checked against while indexed.
    public var schemas: SchemaSource = .vault
    /// Print wall time per phase to standard error (`RHIZOME_TRACE_PHASES=1`).
    public var tracePhases = PhaseTimer.requested

    public init() {}

    /// Whether removing `removed` of the `indexed` files is more than `removalGuardFraction` allows.
    func refusesRemoving(_ removed: Int, of indexed: Int) -> Bool {
        guard let fraction = removalGuardFraction, indexed >= emptyVaultGuardMinimumFiles else { return false }
        return Double(removed) > fraction * Double(indexed)
    }
}

/// Where an indexing run takes its schemas from.
public enum SchemaSource: Sendable {
    /// The built-in schemas and the vault's own (`.rhizome/`); a broken schema file becomes a finding.
    case vault
    /// No schema checks.
    case none
    /// A catalog loaded by the caller.
    case catalog(SchemaCatalog)
}
