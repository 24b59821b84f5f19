import Dispatch
import Foundation
import RhizomeCore

/// Brings the index up to date with the vault, incrementally and safely. This file holds the
/// orchestration; each stage of a run is in a file of its own:
///
/// 1. **walk**: `VaultScanner`, the whole vault (`run`) or the paths a watcher reports (`update`);
/// 2. **plan**: `IndexDelta` (`IndexDelta.swift`), the difference between the walk and the index's file
///    states (`IndexStore+Files.swift`), computed without I/O;
/// 3. **structure**: one transaction gives added files rows and marks the resolve keys that added and
///    removed files affect (`Indexer+Structure.swift`, which also removes the files gone once the content
///    is written);
/// 4. **parse and resolve** on worker threads (`Indexer+Parsing.swift`), and **write** on this one, one
///    transaction per batch (`Indexer+Content.swift`, `BatchWriter`); then the files gone are removed;
/// 5. **reconcile links**: the three resolution paths, and when each applies (`Indexer+Links.swift`);
/// 6. **vault checks**: duplicate ids and reference fields (`IndexStore+VaultChecks.swift`).
///
/// Killing the process at any point leaves a consistent database: unparsed files keep their old size and
/// time (or none) and are parsed next time; files gone stay until a run looks at them again; pending keys
/// stay until re-resolved. No stage holds SQL: the bookkeeping lives in `IndexStore+Files` and
/// `IndexStore+PendingLinks`, the content rows in `BatchWriter`, removals in `FileDeletion`, the checks in
/// `IndexStore+VaultChecks`; the stages decide only what goes in which transaction.
public final class Indexer {
    public let store: IndexStore
    public let vaultRoot: String
    public var options: IndexOptions
    /// The schemas notes were last checked against (by a walk of the whole vault, or loaded by a scoped
    /// update that found the index checked against them); a scoped update checks notes against them.
    private var cachedSchemas: LoadedSchemas?

    /// Meta key set while a first index is being written (`"1"`); a run that finds it set starts over.
    static let unfinishedFirstIndexKey = "first_index_unfinished"

    public init(store: IndexStore, vaultRoot: String, options: IndexOptions = IndexOptions()) {
        self.store = store
        self.vaultRoot = vaultRoot
        self.options = options
    }

    /// Runs one incremental pass over the whole vault. Throws only when nothing could be done (unreadable
    /// vault root, database failure); problems with individual files are reported in `IndexReport.findings`.
    public func run(progress: ((IndexProgress) -> Void)? = nil) throws -> IndexReport {
        let lock = try store.lockForWriting()
        defer { lock.release() }
        let report = try runOverWholeVault(progress: progress)
        lock.recordFinishedRun()
        // Queries that read notes again (Dataview's file.lists and file.tasks) find the vault here.
        let absoluteRoot = vaultRoot.hasPrefix("/") ? vaultRoot : FileManager.default.currentDirectoryPath + "/" + vaultRoot
        if try store.indexedVaultPath() != absoluteRoot { try store.setIndexedVaultPath(absoluteRoot) }
        return report
    }

    /// Brings the index up to date with what changed at `changedPaths` (vault-relative, `/`-separated, the
    /// bytes on disk, as a file-system watcher reports them), without walking the vault. Everything after
    /// the look at those paths is the code `run()` uses: the same writes, link re-resolution and vault checks.
    /// Falls back to `run()` when the paths cannot settle it alone (a folder changed, schemas or the parser
    /// changed since the last run); `IndexReport.walkedVault` says which happened.
    public func update(changedPaths: some Sequence<[UInt8]>) throws -> IndexReport {
        let lock = try store.lockForWriting()
        defer { lock.release() }
        let report = try updateLocked(changedPaths: changedPaths)
        lock.recordFinishedRun()
        return report
    }

    private func updateLocked(changedPaths: some Sequence<[UInt8]>) throws -> IndexReport {
        let clock = ContinuousClock()
        let started = clock.now
        var phases = PhaseTimer(enabled: options.tracePhases)
        defer { phases.finish() }
        // An indexer made for this update (as `rhizome mv` makes one) loads the schemas: when the index was
        // checked against the same ones, the paths settle it as they do for a watcher's indexer.
        let schemas = cachedSchemas ?? loadSchemas()
        guard try store.metaValue("schema_fingerprint") == schemas.fingerprint,
              try store.metaValue("parser_version") == IndexSchema.parserVersion,
              try store.metaValue(Self.unfinishedFirstIndexKey) != "1" else {
            return try runOverWholeVault(progress: nil)
        }
        cachedSchemas = schemas
        let scoped = try VaultScanner(root: vaultRoot, excludedPaths: options.excludedPaths).scan(paths: changedPaths)
        if scoped.needsFullScan != nil { return try runOverWholeVault(progress: nil) }
        // A schema folder the config keeps in the vault (`schemas: Meta/schemas`): a schema changed.
        if let folder = schemas.schemaFolder, scoped.scopedPaths.contains(where: { $0 == folder || $0.hasPrefix(folder + "/") }) {
            return try runOverWholeVault(progress: nil)
        }
        let previous = try store.fileStates(paths: scoped.scopedPaths)
        // A path that vanished while nothing was indexed at it may have been a folder: only a walk can
        // tell which of the files under it are gone.
        for path in scoped.missing where previous[path] == nil {
            if try store.hasIndexedFiles(under: path) { return try runOverWholeVault(progress: nil) }
        }
        var delta = IndexDelta(schemas: schemas)
        delta.fillTotals = false
        delta.compareScoped(scoped.files, missing: scoped.missing, with: previous)
        // Removing the last files of the index, or more than the removal guard allows: let the walk decide (it
        // refuses when the vault lists nothing or much less than the index holds), whichever batch gets here.
        if !delta.removed.isEmpty {
            let indexed = try store.fileCount()
            if indexed <= delta.removed.count || options.refusesRemoving(delta.removed.count, of: indexed) {
                return try runOverWholeVault(progress: nil)
            }
        }
        // Vault-level findings about other paths stay; those about the paths looked at are replaced.
        let stored = try store.vaultLevelFindings()
        delta.scanFindings = stored.filter { finding in finding.path.map { !scoped.scopedPaths.contains($0) } ?? true } + scoped.findings
        delta.storedScanFindings = Set(stored.map(\.diagnosticDescription))
        delta.scanFindingsChanged = delta.storedScanFindings != Set(delta.scanFindings.map(\.diagnosticDescription))
        delta.reportedFindings = scoped.findings
        phases.mark("look at changed paths")
        var report = try apply(delta, progress: nil, phases: &phases, clock: clock, started: started)
        report.walkedVault = false
        return report
    }

    /// A walk of the whole vault, compared with the whole index.
    private func runOverWholeVault(progress: ((IndexProgress) -> Void)?) throws -> IndexReport {
        let clock = ContinuousClock()
        let started = clock.now
        var phases = PhaseTimer(enabled: options.tracePhases)
        defer { phases.finish() }
        let scan = try VaultScanner(root: vaultRoot, excludedPaths: options.excludedPaths).scan()
        // A first index killed part-way: start it over (see `apply`).
        if try store.metaValue(Self.unfinishedFirstIndexKey) == "1" { try store.forgetAllFiles() }
        let previous = try store.fileStates()
        // A vault folder that suddenly lists nothing is far more often an unmounted drive or a sync
        // client mid-way than a user who deleted every note: change nothing.
        if scan.files.isEmpty && scan.uncertainPaths.isEmpty && previous.count >= options.emptyVaultGuardMinimumFiles {
            throw VaultError.emptiedVault(path: vaultRoot, indexedFiles: previous.count, databasePath: store.databasePath)
        }
        // Schemas: notes are checked while parsed; a change of schemas or config re-checks every note.
        let schemas = loadSchemas()
        cachedSchemas = schemas
        var delta = IndexDelta(schemas: schemas)
        delta.scanFindings = scan.findings
        if let problem = schemas.problem { delta.scanFindings.append(problem) }
        delta.schemaFingerprintChanged = try store.metaValue("schema_fingerprint") != schemas.fingerprint
        delta.forceReparse = try store.metaValue("parser_version") != IndexSchema.parserVersion
        delta.compareWalk(scan.files, with: previous, isUncertain: scan.isUncertain)
        // The same guard for a folder that lists much less than the index holds (a copy into place half-way),
        // when the caller asks for it (`IndexOptions.removalGuardFraction`).
        if options.refusesRemoving(delta.removed.count, of: previous.count) {
            throw VaultError.massRemoval(path: vaultRoot, removing: delta.removed.count, indexedFiles: previous.count)
        }
        delta.isColdIndex = previous.isEmpty && delta.added.count >= options.bulkLoadMinimumFiles
        if delta.schemaFingerprintChanged && !delta.forceReparse {
            delta.recheckCandidates = scan.files.compactMap { file in
                guard file.kind == .note, let state = previous[file.path] else { return nil }
                return (state.id, file)
            }
        }
        phases.mark("walk + load state")
        delta.storedScanFindings = Set(try store.vaultLevelFindings().map(\.diagnosticDescription))
        delta.scanFindingsChanged = delta.storedScanFindings != Set(delta.scanFindings.map(\.diagnosticDescription))
        // Temporary files a killed Rhizome process left beside notes (never vault files): removed, and said so.
        let swept = LeftoverSweeper.sweep(
            scan.temporaryFiles, now: Int64(Date().timeIntervalSince1970 * 1e9),
            journalHasPendingChange: FileManager.default.fileExists(atPath: OperationJournalLocation.pendingRecord(databasePath: store.databasePath)))
        var report = try apply(delta, progress: progress, phases: &phases, clock: clock, started: started)
        report.findings += swept
        report.newFindings += swept
        return report
    }

    /// Writes a delta, stage by stage: (1) structure (`Indexer+Structure.swift`), (2) content, parsed and
    /// resolved in batches (`Indexer+Content.swift`), (2b) removals, (3) link reconciliation
    /// (`Indexer+Links.swift`), (4) vault checks (`IndexStore+VaultChecks.swift`).
    private func apply(
        _ delta: IndexDelta, progress: ((IndexProgress) -> Void)?, phases: inout PhaseTimer, clock: ContinuousClock, started: ContinuousClock.Instant
    ) throws -> IndexReport {
        let (added, changed, removed, schemas, forceReparse, isColdIndex) =
            (delta.added, delta.changed, delta.removed, delta.schemas, delta.forceReparse, delta.isColdIndex)
        var report = IndexReport()
        report.added = added.count
        report.removed = removed.count
        report.findings = delta.reportedFindings ?? delta.scanFindings

        // Set before anything is written and cleared by the vault checks' own transaction: a run killed in
        // between leaves it set, so the next run redoes the checks even when no file changed.
        let vaultChecksPending = try store.metaValue("vault_checks_pending") == "1"
        if try delta.changesNothing && store.pendingKeyCount() == 0 && !vaultChecksPending {
            report.unchanged = delta.unchanged
            report.newFindings = report.findings.filter { !delta.storedScanFindings.contains($0.diagnosticDescription) }
            if delta.fillTotals { try store.fillTotals(&report) }
            report.milliseconds = milliseconds(since: started, clock: clock)
            return report
        }

        try store.setMeta("vault_checks_pending", "1")
        // A new parser may key file names differently (6: `.MD` files): stored keys follow, or the candidate
        // lookups of later small changes would miss those files. Every note is re-read in this run.
        if forceReparse && !isColdIndex { try store.connection.transaction { try store.refreshResolveKeys() } }

        // (1) Structure.
        let addedIDs = try writeStructure(delta)
        phases.mark("structure transaction")

        // (2) Content: read, hash, parse and resolve in parallel; write in batches.
        var jobs: [ParseJob] = []
        jobs.reserveCapacity(added.count + changed.count)
        for (file, id) in zip(added, addedIDs) { jobs.append(ParseJob(id: id, file: file, previousHash: nil, isNew: true, insertsFileRow: isColdIndex)) }
        for (file, state) in changed {
            jobs.append(ParseJob(id: state.id, file: file, previousHash: forceReparse ? nil : state.contentHash, isNew: false))
        }
        // Links written in step 2 are resolved as if the removed files were gone already.
        let removedIDs = Set(removed.map(\.id))
        let resolution: ContentResolution = !isColdIndex && jobs.count <= options.candidateResolutionMaximumFiles ? .candidates
            : isColdIndex ? .filesBeingWritten(zip(added, addedIDs).map { (path: $0.0.path, id: $0.1) })
            : .wholeIndex
        let content = try writeContent(
            jobs, resolution: resolution, excluding: removedIDs, checker: schemas.checker, isColdIndex: isColdIndex, phases: &phases
        ) { done in
            progress?(IndexProgress(filesDone: done, filesTotal: jobs.count, elapsed: clock.now - started))
        }
        report.modified = content.modified
        report.findings += content.findings

        // (2b) Removed files leave: their rows go, and links to them become unresolved (a foreign-key
        // action), which now concerns only links this run did not write. Removed before step 2 (as they
        // were), a note with 1,000 backlinks had all of them unset, only for step 2 to delete those rows
        // and write their notes' new links (`rhizome mv` of the note, which rewrites them). A run killed
        // before this leaves them indexed, as they were; the next run that looks at them removes them.
        if !removed.isEmpty {
            try removeFiles(removed.map(\.id))
            phases.mark("remove files")
        }
        // A first index's rows are all in the write-ahead log. They are copied into the database file on
        // another thread (a passive checkpoint, which never blocks the writer) while this one builds the
        // indexes, instead of when the index is closed; the parse workers' core is idle by now.
        let checkpoint = isColdIndex ? BackgroundCheckpoint(databasePath: store.connection.path) : nil
        defer { checkpoint?.wait() }
        if isColdIndex {
            try store.setMeta(Self.unfinishedFirstIndexKey, "0")
            try store.createSecondaryIndexes()
            phases.mark("build secondary indexes")
        }

        // Schemas changed: re-check the notes this run did not parse (their frontmatter only).
        if !delta.recheckCandidates.isEmpty {
            try recheck(delta.recheckCandidates.filter { !content.parsedIDs.contains($0.id) }, checker: schemas.checker)
            phases.mark("schema re-check")
        }

        // (3) Links whose targets may have changed.
        report.relinked = try reconcileLinks(parsedIDs: content.parsedIDs, isColdIndex: isColdIndex)
        phases.mark("re-resolve")
        // (4) Across the vault: duplicate ids and reference fields (edges and findings), from what step 2 stored.
        _ = try store.runVaultChecks(catalog: schemas.checker?.catalog)
        phases.mark("vault checks")
        if forceReparse { try store.setMeta("parser_version", IndexSchema.parserVersion) }
        if delta.schemaFingerprintChanged { try store.setMeta("schema_fingerprint", schemas.fingerprint) }
        try store.setMeta("last_indexed_at", ISO8601DateFormatter().string(from: Date()))
        report.unchanged = delta.unchanged + content.unchanged
        report.newFindings = report.findings.filter { !delta.storedScanFindings.contains($0.diagnosticDescription) }
        if delta.fillTotals { try store.fillTotals(&report) }
        phases.mark("totals")
        report.milliseconds = milliseconds(since: started, clock: clock)
        return report
    }

    private func milliseconds(since start: ContinuousClock.Instant, clock: ContinuousClock) -> Double {
        (clock.now - start).inMilliseconds
    }
}

