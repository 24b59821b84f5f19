import RhizomeCore

/// Progress of a long run, for a terminal progress line.
public struct IndexProgress: Sendable {
    public var filesDone: Int
    public var filesTotal: Int
    public var elapsed: Duration
}

/// What a run did, and the totals after it.
public struct IndexReport: Sendable, Codable, Equatable {
    public var added = 0
    public var modified = 0
    public var removed = 0
    public var unchanged = 0
    public var notes = 0
    public var files = 0
    public var links = 0
    public var unresolvedLinks = 0
    /// Links in unchanged notes whose target changed because files were added, removed or renamed.
    public var relinked = 0
    /// Edges from reference fields whose values are ids (`project: rhizome`), after the run.
    public var referenceEdges = 0
    public var findingsTotal = 0
    public var milliseconds: Double = 0
    /// Problems met in this run (unreadable files or folders, broken symlinks, oversized files).
    public var findings: [Finding] = []
    /// Those of `findings` the index did not hold before this run: what `rhizome index` prints (not part of
    /// the JSON output, which has them all).
    public var newFindings: [Finding] = []
    /// Whether the run walked the whole vault (`run()`, or an `update(changedPaths:)` that needed to).
    /// Not part of the JSON output.
    public var walkedVault = true

    public init() {}

    private enum CodingKeys: String, CodingKey {
        case added, modified, removed, unchanged, notes, files, links, unresolvedLinks, relinked, referenceEdges, findingsTotal
        case milliseconds, findings
    }
}
