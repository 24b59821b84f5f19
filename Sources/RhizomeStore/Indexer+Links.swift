import RhizomeCore

/// Stage (3) of an indexing run, link reconciliation, and the resolvers stage (2) uses.
///
/// A link's target depends only on the files sharing its resolve key (`LinkResolver`), so a run resolves
/// each link along one of three paths:
/// 1. **At parse time, against a whole resolver** (`ContentResolution.wholeIndex`, `.filesBeingWritten`):
///    the links of the notes a run parses, when it parses many (more than
///    `IndexOptions.candidateResolutionMaximumFiles`) or writes a cold first index (bulk-load mode, whose
///    resolver holds the files it is about to write: none is in the database yet). Made on the writer's thread while the first
///    batches are parsed (`PendingResolver`).
/// 2. **Against candidates** (`ContentResolution.candidates`): the links of the few notes a small change
///    parses (a watcher's, `rhizome mv`'s), against just the files sharing their keys, read from the index
///    batch by batch, instead of loading every path in the vault.
/// 3. **By pending key, afterwards** (`reconcileLinks`): links in notes this run did not parse whose target
///    may have changed, because a file with their key was added, removed or renamed (stage 1 marked the key
///    in `pending_resolve`). A cold first index skips it: every link was resolved along path 1.
/// Paths 1 and 2 resolve as if the files being removed were gone already; path 3 runs after they are.
extension Indexer {
    /// How stage (2) resolves the links of the notes it parses (paths 1 and 2 above).
    enum ContentResolution {
        /// Every indexed file (path 1).
        case wholeIndex
        /// The files a cold first index (bulk-load mode) is about to write (path 1).
        case filesBeingWritten([(path: String, id: Int64)])
        /// The candidate files of each batch's keys, looked up per batch (path 2).
        case candidates

        /// The resolver the workers resolve with; empty for `.candidates`, whose links are resolved again
        /// per batch (`resolveAgainstCandidates`).
        func resolver(store: IndexStore, excluding removedIDs: Set<Int64>) throws -> LinkResolver<Int64> {
            switch self {
            case .wholeIndex: return try store.resolverOfAllFiles(excluding: removedIDs)
            case .filesBeingWritten(let files): return LinkResolver<Int64>(files: files)
            case .candidates: return LinkResolver<Int64>(files: [])
            }
        }
    }

    /// Path 2: re-resolves parsed notes' links against a resolver holding only the candidate files for their keys.
    func resolveAgainstCandidates(_ outcomes: [ParseOutcome], jobs: [ParseJob], excluding removedIDs: Set<Int64>) throws -> [ParseOutcome] {
        var keys = Set<String>()
        for (job, outcome) in zip(jobs, outcomes) {
            guard case .parsed(let note, _, _, _) = outcome else { continue }
            keys.insert(LinkResolver<Int64>.resolveKey(ofFilePath: job.file.path))
            for link in note.links { keys.insert(LinkResolver<Int64>.resolveKey(ofLinkPath: link.path)) }
        }
        let resolver = try store.resolver(forKeys: keys, excluding: removedIDs)
        return zip(jobs, outcomes).map { job, outcome in
            guard case .parsed(let note, _, let hash, let forms) = outcome else { return outcome }
            return .parsed(note, targets: resolver.resolveAll(note.links, from: job.file.path), hash: hash, forms: forms)
        }
    }

    /// Path 3: re-resolves the links of notes not parsed in this run whose keys are pending; returns how
    /// many changed target. A first index only forgets the pending keys.
    func reconcileLinks(parsedIDs: Set<Int64>, isColdIndex: Bool) throws -> Int {
        if isColdIndex {
            try store.clearPendingKeys()
            return 0
        }
        return try store.reresolvePendingLinks(skipping: parsedIDs)
    }
}
