import Dispatch
import Foundation
import RhizomeCore

/// Brings the index up to date with the vault, incrementally and safely.
///
/// A run: walk the vault → compare with the index → (1) one transaction for the structure (files added,
/// plus the link keys whose resolution that and the removals may change) → (2) parse changed files in
/// parallel and write them in batches, one transaction each → (2b) one that removes the files gone →
/// (3) one that re-resolves the pending link keys. Killing the process at any point leaves a consistent
/// database: unparsed files keep their old size/mtime (or none) and are parsed next time; files gone stay
/// until a run looks at them again; pending keys stay until re-resolved.
public final class Indexer {
    public let store: IndexStore
    public let vaultRoot: String
    public var options: IndexOptions
    /// The schemas notes were last checked against (by a walk of the whole vault, or loaded by a scoped
    /// update that found the index checked against them); a scoped update checks notes against them.
    private var cachedSchemas: LoadedSchemas?

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
        let previous = try loadFileStates(paths: scoped.scopedPaths)
        // A path that vanished while nothing was indexed at it may have been a folder: only a walk can
        // tell which of the files under it are gone.
        for path in scoped.missing where previous[path] == nil {
            if try store.hasIndexedFiles(under: path) { return try runOverWholeVault(progress: nil) }
        }
        var delta = Delta(schemas: schemas)
        delta.fillTotals = false
        for file in scoped.files {
            if let state = previous[file.path] {
                if state.size != file.size || state.modificationTime != file.modificationTime || state.realPath != file.realPath {
                    delta.changed.append((file, state))
                } else {
                    delta.unchanged += 1
                }
            } else {
                delta.added.append(file)
            }
        }
        delta.removed = scoped.missing.compactMap { previous[$0] }
        // Removing the last files of the index, or more than the removal guard allows: let the walk decide (it
        // refuses when the vault lists nothing or much less than the index holds), whichever batch gets here.
        if !delta.removed.isEmpty {
            let indexed = try store.fileCount()
            if indexed <= delta.removed.count || options.refusesRemoving(delta.removed.count, of: indexed) {
                return try runOverWholeVault(progress: nil)
            }
        }
        // Vault-level findings about other paths stay; those about the paths looked at are replaced.
        let stored = try storedScanFindings()
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
        let previous = try loadFileStates()
        // A vault folder that suddenly lists nothing is far more often an unmounted drive or a sync
        // client mid-way than a user who deleted every note: change nothing.
        if scan.files.isEmpty && scan.uncertainPaths.isEmpty && previous.count >= options.emptyVaultGuardMinimumFiles {
            throw VaultError.emptiedVault(path: vaultRoot, indexedFiles: previous.count, databasePath: store.databasePath)
        }
        // Schemas: notes are checked while parsed; a change of schemas or config re-checks every note.
        let schemas = loadSchemas()
        cachedSchemas = schemas
        var delta = Delta(schemas: schemas)
        delta.scanFindings = scan.findings
        if let problem = schemas.problem { delta.scanFindings.append(problem) }
        delta.schemaFingerprintChanged = try store.metaValue("schema_fingerprint") != schemas.fingerprint
        delta.forceReparse = try store.metaValue("parser_version") != IndexSchema.parserVersion

        // Diff the walk against the index (nothing to diff against in an empty one: every file is new).
        if previous.isEmpty {
            delta.added = scan.files
        } else {
            var seen = Set<String>()
            seen.reserveCapacity(scan.files.count)
            for file in scan.files {
                seen.insert(file.path)
                if let state = previous[file.path] {
                    if delta.forceReparse || state.size != file.size || state.modificationTime != file.modificationTime || state.realPath != file.realPath {
                        delta.changed.append((file, state))
                    } else {
                        delta.unchanged += 1
                    }
                } else {
                    delta.added.append(file)
                }
            }
            delta.removed = previous.values.filter { !seen.contains($0.path) && !scan.isUncertain($0.path) }
            // The same guard for a folder that lists much less than the index holds (a copy into place half-way),
            // when the caller asks for it (`IndexOptions.removalGuardFraction`).
            if options.refusesRemoving(delta.removed.count, of: previous.count) {
                throw VaultError.massRemoval(path: vaultRoot, removing: delta.removed.count, indexedFiles: previous.count)
            }
        }
        delta.isColdIndex = previous.isEmpty && delta.added.count >= options.bulkLoadMinimumFiles
        if delta.schemaFingerprintChanged && !delta.forceReparse {
            delta.recheckCandidates = scan.files.compactMap { file in
                guard file.kind == .note, let state = previous[file.path] else { return nil }
                return (state.id, file)
            }
        }
        phases.mark("walk + load state")
        delta.storedScanFindings = Set(try storedScanFindings().map(\.diagnosticDescription))
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

    /// What a look at the vault found different from the index, and how to bring the index level with it.
    private struct Delta {
        var added: [ScannedFile] = []
        var changed: [(ScannedFile, FileState)] = []
        var removed: [FileState] = []
        var unchanged = 0
        /// Every vault-level finding of the scan (stored with no file).
        var scanFindings: [Finding] = []
        var scanFindingsChanged = false
        /// The scan findings this run reports (a scoped update: only those about the paths it looked at).
        var reportedFindings: [Finding]?
        /// The scan findings the index held before this run (`diagnosticDescription`s): what is not new.
        var storedScanFindings: Set<String> = []
        var schemas: LoadedSchemas
        var schemaFingerprintChanged = false
        var forceReparse = false
        /// A first index of a big vault: bulk-load mode.
        var isColdIndex = false
        /// Notes to re-check against new schemas unless this run parses them anyway.
        var recheckCandidates: [(id: Int64, file: ScannedFile)] = []
        /// Count every note, link and finding for the report (a watcher's small updates skip it).
        var fillTotals = true

        init(schemas: LoadedSchemas) { self.schemas = schemas }
    }

    /// Writes a delta: (1) structure, (2) content in parsed batches, (2b) removals, (3) link re-resolution,
    /// (4) vault checks.
    private func apply(
        _ delta: Delta, progress: ((IndexProgress) -> Void)?, phases: inout PhaseTimer, clock: ContinuousClock, started: ContinuousClock.Instant
    ) throws -> IndexReport {
        let connection = store.connection
        let (added, changed, removed, schemas, forceReparse, isColdIndex) =
            (delta.added, delta.changed, delta.removed, delta.schemas, delta.forceReparse, delta.isColdIndex)
        var unchanged = delta.unchanged
        let pendingKeyCount = try countPendingKeys()

        var report = IndexReport()
        report.added = added.count
        report.removed = removed.count
        report.findings = delta.reportedFindings ?? delta.scanFindings

        // Set before anything is written and cleared by the vault checks' own transaction: a run killed in
        // between leaves it set, so the next run redoes the checks even when no file changed.
        let vaultChecksPending = try store.metaValue("vault_checks_pending") == "1"
        if added.isEmpty && removed.isEmpty && changed.isEmpty && pendingKeyCount == 0 && !delta.scanFindingsChanged
            && !delta.schemaFingerprintChanged && !vaultChecksPending {
            report.unchanged = unchanged
            report.newFindings = report.findings.filter { !delta.storedScanFindings.contains($0.diagnosticDescription) }
            if delta.fillTotals { try fillTotals(&report) }
            report.milliseconds = milliseconds(since: started, clock: clock)
            return report
        }

        try store.setMeta("vault_checks_pending", "1")
        // A new parser may key file names differently (6: `.MD` files): stored keys follow, or the candidate
        // lookups of later small changes would miss those files. Every note is re-read in this run.
        if forceReparse && !isColdIndex { try connection.transaction { try refreshResolveKeys() } }

        // (1) Structure: added files get rows, and added and removed files mark their resolve keys for
        // re-resolution. Removed files leave once the content is written (2b).
        // The id of each added file, in the order of `added`.
        var addedIDs: [Int64] = []
        addedIDs.reserveCapacity(added.count)
        if isColdIndex {
            // A first index of a big vault writes each file's row with its content, numbering the files
            // itself (the table is empty), so that nothing waits for a transaction of every file before the
            // first notes are written. Secondary indexes are built once at the end (much faster than row by
            // row; if the run is killed, the next open recreates them). Until every batch is in, the index
            // is marked unfinished: a run killed part-way is started over by the next (links written so far
            // may point at files it never wrote).
            try connection.transaction {
                try store.dropSecondaryIndexes()
                try store.setMeta(Self.unfinishedFirstIndexKey, "1")
                if delta.scanFindingsChanged { try replaceScanFindings(delta.scanFindings) }
            }
            addedIDs = added.indices.map { Int64($0 + 1) }
        } else if !added.isEmpty || !removed.isEmpty || delta.scanFindingsChanged {
            try connection.transaction {
                let markPending = try connection.prepare("INSERT OR IGNORE INTO pending_resolve(link_key) VALUES (?)")
                for state in removed {
                    try markPending.bind(.text(LinkResolver<Int64>.resolveKey(ofFilePath: state.path))).run()
                }
                let insert = try connection.prepare("""
                    INSERT INTO file(path, name, folder, extension, kind, resolve_key, real_path) VALUES (?, ?, ?, ?, ?, ?, ?)
                    """)
                for file in added {
                    let key = LinkResolver<Int64>.resolveKey(ofFilePath: file.path)
                    let parts = VaultPath.Parts(of: file.path)
                    try insert.bind(
                        .text(file.path), .text(parts.displayName), .text(parts.folder),
                        .text(parts.lowercasedExtension), .text(file.kind.rawValue), .text(key), file.realPath.sqlite
                    ).run()
                    addedIDs.append(connection.lastInsertRowID)
                    try markPending.bind(.text(key)).run()
                }
                if delta.scanFindingsChanged { try replaceScanFindings(delta.scanFindings) }
            }
        }

        phases.mark("structure transaction")
        // (2) Content: read, hash and parse in parallel; write in batches.
        var jobs: [ParseJob] = []
        jobs.reserveCapacity(added.count + changed.count)
        for (file, id) in zip(added, addedIDs) { jobs.append(ParseJob(id: id, file: file, previousHash: nil, isNew: true, insertsFileRow: isColdIndex)) }
        for (file, state) in changed {
            jobs.append(ParseJob(id: state.id, file: file, previousHash: forceReparse ? nil : state.contentHash, isNew: false))
        }
        var parsedIDs = Set<Int64>()
        // Links written in step 2 are resolved as if the removed files were gone already.
        let removedIDs = Set(removed.map(\.id))
        if !jobs.isEmpty {
            let batches = Self.batches(of: jobs, size: max(1, options.batchSize))
            // Batches are parsed one after another on the worker threads, up to `parseLookahead` ahead of
            // the batch this thread writes, so that neither side waits for the other while both have work.
            // The first batches (`initialParseAhead` of them) are parsed while the resolver is made: their
            // links are resolved once it is ready.
            let checker = schemas.checker
            let pendingResolver = PendingResolver()
            // Its tables and the sessions' memos hold a few hundred thousand strings: the last reference is
            // dropped on another thread, not on this one with the indexes still to build.
            defer { Self.release(consume pendingResolver) }
            let parseQueue = DispatchQueue(label: "rhizome.index.parse", qos: .userInitiated)
            let resolveQueue = DispatchQueue(label: "rhizome.index.resolve", qos: .userInitiated)
            var upcoming: [BackgroundParse] = []
            var batchesStarted = 0
            /// Starts parsing every batch up to `last` not started yet.
            func startParsing(through last: Int) {
                while batchesStarted <= min(last, batches.count - 1) {
                    upcoming.append(BackgroundParse(
                        batches[batchesStarted], parsingOn: parseQueue, resolvingOn: resolveQueue, resolver: pendingResolver,
                        workers: options.parallelism, checker: checker, options: options))
                    batchesStarted += 1
                }
            }
            startParsing(through: max(Self.parseLookahead, Self.initialParseAhead - 1))
            defer { for parse in upcoming { _ = parse.wait() } }  // an error: let the workers finish first
            // A few changed files: resolve against just the files sharing their links' keys (a link's
            // target depends only on those), instead of loading every path in the vault. A first index
            // resolves against the files it is about to write (none is in the database yet).
            let isSmallChange = !isColdIndex && jobs.count <= options.candidateResolutionMaximumFiles
            do {
                pendingResolver.fulfill(
                    isSmallChange ? LinkResolver<Int64>(files: [])
                        : isColdIndex ? LinkResolver<Int64>(files: zip(added, addedIDs).lazy.map { (path: $0.0.path, id: $0.1) })
                        : try store.resolver(forFilesIn: "SELECT id, path FROM file", excluding: removedIDs))
            } catch {
                pendingResolver.fulfill(LinkResolver<Int64>(files: []))  // lets the workers finish; the run fails
                throw error
            }
            phases.mark("load resolver")
            // Writing content deletes no file row (nothing to cascade) and inserts only ids of files that
            // exist (link targets come from the resolver, read from this index under the write lock):
            // foreign-key checks are switched off for it (and back on after), which lets links go in many
            // per statement (`BulkInsert`) and spares a parent lookup per link written or deleted. A cold
            // bulk load also has FTS5 merge segments once at the end.
            try connection.execute("PRAGMA foreign_keys = OFF")
            if isColdIndex { try connection.execute("INSERT INTO note_fts(note_fts, rank) VALUES ('automerge', 0)") }
            defer {
                try? connection.execute("PRAGMA foreign_keys = ON")
                if isColdIndex { try? connection.execute("INSERT INTO note_fts(note_fts, rank) VALUES ('automerge', 4)") }
            }
            let writer = try BatchWriter(connection: connection, fullText: options.fullText, foreignKeysChecked: false)
            var done = 0
            for (number, batch) in batches.enumerated() {
                var outcomes = upcoming.removeFirst().wait()
                phases.mark("parse (waiting)")
                startParsing(through: number + Self.parseLookahead + 1)
                if isSmallChange { outcomes = try resolveAgainstCandidates(outcomes, jobs: batch, excluding: removedIDs) }
                try connection.transaction {
                    // By position, not `zip`: zip's elements are copies, and copying a parsed note retains
                    // each of its arrays (and releases them after), on the one thread that writes.
                    for index in batch.indices {
                        let job = batch[index]
                        switch outcomes[index] {
                        case .parsed(let note, let targets, let hash, let forms):
                            try writer.write(note, targets: targets, forms: forms, job: job, hash: hash)
                            parsedIDs.insert(job.id)
                            if !job.isNew { report.modified += 1 }
                            report.findings += note.findings.filter { $0.code == .fileTooLarge || $0.code == .binaryFile }
                        case .sameContent(let hash):
                            try writer.touch(job: job, hash: hash)
                            if !job.isNew { unchanged += 1 }
                        case .attachment:
                            try writer.touch(job: job, hash: nil)
                            if !job.isNew { unchanged += 1 }
                        case .unreadable(let finding):
                            try writer.recordUnreadable(finding, job: job)
                            report.findings.append(finding)
                        }
                    }
                    try writer.flush()  // the batch's last collected rows, before the commit
                }
                phases.mark("write")
                done += batch.count
                progress?(IndexProgress(filesDone: done, filesTotal: jobs.count, elapsed: clock.now - started))
                // Freeing a batch's parsed notes (every string and array in them) is not the writer's work.
                Self.release(consume outcomes)
            }
        }
        // (2b) Removed files leave: their rows go, and links to them become unresolved (a foreign-key
        // action), which now concerns only links this run did not write. Removed before step 2 (as they
        // were), a note with 1,000 backlinks had all of them unset, only for step 2 to delete those rows
        // and write their notes' new links (`rhizome mv` of the note, which rewrites them). A run killed
        // before this leaves them indexed, as they were; the next run that looks at them removes them.
        if !removed.isEmpty {
            try connection.transaction { try FileDeletion(connection).run(removed.map(\.id)) }
            phases.mark("remove files")
        }
        // A first index's rows are all in the write-ahead log. They are copied into the database file on
        // another thread (a passive checkpoint, which never blocks the writer) while this one builds the
        // indexes, instead of when the index is closed; the parse workers' core is idle by now.
        let checkpoint = isColdIndex ? BackgroundCheckpoint(databasePath: connection.path) : nil
        defer { checkpoint?.wait() }
        if isColdIndex {
            try store.setMeta(Self.unfinishedFirstIndexKey, "0")
            try store.createSecondaryIndexes()
            phases.mark("build secondary indexes")
        }

        // Schemas changed: re-check the notes this run did not parse (their frontmatter only).
        if !delta.recheckCandidates.isEmpty {
            try recheck(delta.recheckCandidates.filter { !parsedIDs.contains($0.id) }, checker: schemas.checker)
            phases.mark("schema re-check")
        }

        // (3) Re-resolve links whose targets may have changed. Links written in step 2 were resolved
        // against the current files already.
        // On a cold index every link was written (and resolved) in this run: nothing older to re-resolve.
        report.relinked = isColdIndex ? try clearPendingKeys() : try reresolvePendingLinks(skipping: parsedIDs)
        phases.mark("re-resolve")
        // (4) Across the vault: duplicate ids and reference fields (edges and findings), from what step 2 stored.
        _ = try VaultChecks(connection: connection, catalog: schemas.checker?.catalog).run()
        phases.mark("vault checks")
        if forceReparse { try store.setMeta("parser_version", IndexSchema.parserVersion) }
        if delta.schemaFingerprintChanged { try store.setMeta("schema_fingerprint", schemas.fingerprint) }
        try store.setMeta("last_indexed_at", ISO8601DateFormatter().string(from: Date()))
        report.unchanged = unchanged
        report.newFindings = report.findings.filter { !delta.storedScanFindings.contains($0.diagnosticDescription) }
        if delta.fillTotals { try fillTotals(&report) }
        phases.mark("totals")
        report.milliseconds = milliseconds(since: started, clock: clock)
        return report
    }

    /// Rewrites the stored resolve keys that differ from what `LinkResolver` computes now.
    private func refreshResolveKeys() throws {
        let connection = store.connection
        let stale = try connection.prepare("SELECT id, path, resolve_key FROM file").rows { row -> (id: Int64, key: String)? in
            let key = LinkResolver<Int64>.resolveKey(ofFilePath: row.text(1))
            return key == row.text(2) ? nil : (row.int(0), key)
        }.compactMap { $0 }
        let update = try connection.prepare("UPDATE file SET resolve_key = ? WHERE id = ?")
        for (id, key) in stale { try update.bind(.text(key), .integer(id)).run() }
    }

    // MARK: Parsing

    struct ParseJob: Sendable {
        var id: Int64
        var file: ScannedFile
        var previousHash: String?
        var isNew: Bool
        /// The file has no row yet (a first index): the writer inserts it, with `id`.
        var insertsFileRow = false
    }

    /// Meta key set while a first index is being written (`"1"`); a run that finds it set starts over.
    static let unfinishedFirstIndexKey = "first_index_unfinished"

    enum ParseOutcome: Sendable {
        case parsed(ParsedNote, targets: [LinkResolver<Int64>.Resolution], hash: String?, forms: StoredForms)
        case sameContent(hash: String)
        case attachment
        case unreadable(Finding)
    }

    /// Parses one batch on the worker threads, then resolves its links; `wait()` returns its outcomes.
    struct BackgroundParse {
        private final class Box: @unchecked Sendable { var outcomes: [ParseOutcome] = [] }
        private let box = Box()
        private let group = DispatchGroup()

        /// Parses on `parseQueue`, then resolves on `resolveQueue` (each serial: batches in turn, each on
        /// `workers` threads). Apart, so that the next batch is parsed while this one waits for the
        /// resolver (made while the first batches are parsed) or is resolved.
        init(
            _ jobs: [ParseJob], parsingOn parseQueue: DispatchQueue, resolvingOn resolveQueue: DispatchQueue, resolver: PendingResolver,
            workers: Int, checker: NoteChecker?, options: IndexOptions
        ) {
            let (box, group) = (self.box, self.group)
            parseQueue.async(group: group) {
                let parsed = Indexer.parallelMap(jobs, workers: workers) { job in Indexer.parse(job, checker: checker, options: options) }
                resolveQueue.async(group: group) {
                    let sessions = resolver.sessions(count: workers)
                    box.outcomes = Indexer.parallelMap(Array(parsed.indices), workers: workers) { worker, index in
                        guard case .parsed(let note, _, let hash, let forms) = parsed[index] else { return parsed[index] }
                        return .parsed(note, targets: sessions[worker].resolveAll(note.links, from: jobs[index].file.path), hash: hash, forms: forms)
                    }
                }
            }
        }

        func wait() -> [ParseOutcome] {
            group.wait()
            return box.outcomes
        }
    }

    /// How many batches the workers may parse ahead of the one being written (beyond the next). Two ahead
    /// measured no faster than one at 10k notes, and held 5–10 MB more.
    static let parseLookahead = 1

    /// How many batches are started at once, before the resolver exists: the ramp's small batches (a
    /// quarter, a half, then two whole ones: 1,408 notes at a batch size of 512) keep the workers busy for
    /// about as long as the writer takes to make the resolver of a 10k-note vault.
    static let initialParseAhead = 4

    /// `jobs` in batches of `size`, the first and last ones smaller (a quarter, then a half; a half, then a
    /// quarter), so that writing starts soon after parsing does, and the last batch, which is written
    /// while the workers have nothing left to parse, is short.
    static func batches(of jobs: [ParseJob], size: Int) -> [[ParseJob]] {
        let (quarter, half) = (max(1, size / 4), max(1, size / 2))
        var sizes: [Int] = []
        var left = jobs.count
        for ramp in [quarter, half] where left > 0 {
            sizes.append(min(ramp, left))
            left -= sizes.last!
        }
        // The end: what does not fill whole batches is cut into a half and a quarter where it can be.
        var ending: [Int] = []
        for ramp in [quarter, half] where left > ramp {
            ending.insert(ramp, at: 0)
            left -= ramp
        }
        while left > 0 {
            sizes.append(min(size, left))
            left -= sizes.last!
        }
        var batches: [[ParseJob]] = []
        var start = 0
        for count in sizes + ending {
            batches.append(Array(jobs[start..<start + count]))
            start += count
        }
        return batches
    }

    /// The resolver of a run, made on the writer's thread while the first batches are parsed; the workers
    /// wait for it before resolving links. One resolver session per worker, kept across batches: link
    /// paths recur from note to note.
    final class PendingResolver: @unchecked Sendable {
        private let ready = DispatchGroup()
        private var resolver: LinkResolver<Int64>?
        private var made: [LinkResolver<Int64>.Session] = []
        private let lock = NSLock()

        init() { ready.enter() }

        /// Call exactly once.
        func fulfill(_ resolver: LinkResolver<Int64>) {
            lock.lock()
            self.resolver = resolver
            lock.unlock()
            ready.leave()
        }

        /// `count` sessions, the same ones on every call (a batch's worker n uses session n).
        func sessions(count: Int) -> [LinkResolver<Int64>.Session] {
            ready.wait()
            lock.lock()
            defer { lock.unlock() }
            while made.count < max(1, count) { made.append(LinkResolver<Int64>.Session(resolver!)) }
            return made
        }
    }

    /// Drops `value` on a background thread, so that freeing what it holds does not hold up this one.
    private static func release(_ value: consuming some Sendable) {
        let value = consume value
        DispatchQueue.global(qos: .utility).async { withExtendedLifetime(value) {} }
    }

    /// Reads and parses one file; links are resolved afterwards (`targets` is empty here).
    static func parse(_ job: ParseJob, checker: NoteChecker?, options: IndexOptions) -> ParseOutcome {
        let file = job.file
        guard file.kind.isParsed else { return .attachment }
        let bytes: [UInt8]
        switch FileReader.read(file.diskPath, maxBytes: options.maxNoteBytes) {
        case .success(let read):
            bytes = read
        case .failure(.tooLarge(let size)):
            let finding = Finding(
                code: .fileTooLarge, severity: .warning,
                message: "the file is \(size) bytes, over the \(options.maxNoteBytes)-byte limit for notes; it is a node in the graph but its content is not indexed",
                path: file.path, fix: "split the note into smaller notes")
            return .parsed(emptyNote(finding), targets: [], hash: nil, forms: StoredForms())
        case .failure(.unreadable(let reason, _)):
            return .unreadable(Finding(
                code: .unreadableFile, severity: .error,
                message: "cannot read the file (\(reason)); its previous index entry is kept",
                path: file.path, fix: "check the file's permissions (`chmod u+r`)"))
        }
        let hash = ContentHash.hex(of: bytes)
        if let previous = job.previousHash, previous == hash { return .sameContent(hash: hash) }
        if UTF8Validation.containsNUL(bytes) {
            let finding = Finding(
                code: .binaryFile, severity: .warning,
                message: "the file contains NUL bytes, so it is treated as binary: a node in the graph, content not indexed",
                path: file.path, fix: "if this is a note, remove the binary content or re-save it as UTF-8 text")
            return .parsed(emptyNote(finding), targets: [], hash: hash, forms: StoredForms())
        }
        var note = file.kind == .canvas
            ? CanvasParser.parse(bytes, path: file.path)
            : NoteParser.parse(bytes, path: file.path, includeBodyText: options.fullText)
        if let checker, file.kind == .note {
            let check = checker.check(note.frontmatter, path: file.path)
            note.findings += check.findings
            note.schemaCheck = check
        }
        // Prepared for the full-text index here, on the worker threads, not on the single writer.
        note.bodyText = note.bodyText.map(FullTextSegmenter.indexable)
        return .parsed(note, targets: [], hash: hash, forms: StoredForms(note))
    }

    private static func emptyNote(_ finding: Finding) -> ParsedNote {
        ParsedNote(findings: [finding])
    }

    // MARK: Schemas

    /// Re-checks unchanged notes against new schemas: reads just their frontmatter (in parallel) and
    /// replaces only what the checks stored. A note that cannot be read keeps its previous results.
    private func recheck(_ notes: [(id: Int64, file: ScannedFile)], checker: NoteChecker?) throws {
        guard !notes.isEmpty else { return }
        let writer = try BatchWriter(connection: store.connection, fullText: false)
        let maxBytes = options.maxNoteBytes
        for start in stride(from: 0, to: notes.count, by: 2_048) {
            let batch = Array(notes[start..<min(start + 2_048, notes.count)])
            let checks = Self.parallelMap(batch, workers: options.parallelism) { note -> NoteCheck? in
                guard case .success(let bytes) = FileReader.read(note.file.diskPath, maxBytes: maxBytes),
                      !UTF8Validation.containsNUL(bytes) else { return nil }
                return checker?.check(NoteParser.frontmatter(bytes, path: note.file.path), path: note.file.path) ?? NoteCheck()
            }
            try store.connection.transaction {
                for (note, check) in zip(batch, checks) {
                    if let check { try writer.replaceSchemaCheck(check, fileID: note.id) }
                }
                try writer.flush()
            }
        }
    }

    /// `transform` over `items` on `workers` threads, results in order (`ParallelMap`).
    static func parallelMap<T: Sendable, R: Sendable>(_ items: [T], workers: Int, _ transform: @Sendable (T) -> R) -> [R] {
        ParallelMap.map(items, workers: workers, transform)
    }

    /// `transform` also gets the number of the worker that runs it (below `workers`; one thread each).
    static func parallelMap<T: Sendable, R: Sendable>(_ items: [T], workers: Int, _ transform: @Sendable (Int, T) -> R) -> [R] {
        ParallelMap.map(items, workers: workers, transform)
    }

    private struct LoadedSchemas {
        var checker: NoteChecker?
        /// Why notes are not checked, as a vault-level finding.
        var problem: Finding?
        var fingerprint: String
        /// The vault-relative folder the vault's own schemas are read from, when known.
        var schemaFolder: String?
    }

    private func loadSchemas() -> LoadedSchemas {
        switch options.schemas {
        case .none:
            return LoadedSchemas(checker: nil, problem: nil, fingerprint: "none")
        case .catalog(let catalog):
            return LoadedSchemas(checker: NoteChecker(catalog: catalog), problem: nil, fingerprint: catalog.fingerprint)
        case .vault:
            do {
                let catalog = try SchemaCatalog.load(vaultRoot: vaultRoot)
                return LoadedSchemas(
                    checker: NoteChecker(catalog: catalog), problem: nil, fingerprint: catalog.fingerprint, schemaFolder: catalog.config.schemaFolder)
            } catch {
                let finding = Finding(
                    code: .schemaUnavailable, severity: .error,
                    message: "schemas could not be loaded, so notes were not validated: \(error.message) [\(error.code)]",
                    path: error.file, line: error.line, column: error.column, fix: error.fix ?? "correct the file (see Schemas/README.md)")
                // A broken schema file: the next change to it must still reach a walk.
                let folder = (try? VaultConfig.load(vaultRoot: vaultRoot))?.schemaFolder
                return LoadedSchemas(checker: nil, problem: finding, fingerprint: "unavailable:" + error.description, schemaFolder: folder)
            }
        }
    }

    // MARK: State

    struct FileState: Sendable {
        var id: Int64
        var path: String
        var size: Int64?
        var modificationTime: Int64?
        var contentHash: String?
        var realPath: String?
    }

    private func loadFileStates() throws -> [String: FileState] {
        try loadFileStates(where: "", [])
    }

    /// The states of just these paths (those indexed).
    private func loadFileStates(paths: Set<String>) throws -> [String: FileState] {
        try loadFileStates(where: "WHERE path IN (SELECT value FROM json_each(?))", [.text(JSONText.array(paths))])
    }

    private func loadFileStates(where condition: String, _ values: [SQLiteValue]) throws -> [String: FileState] {
        let statement = try store.connection.prepare("SELECT id, path, size, mtime_ns, content_hash, real_path FROM file \(condition)")
        statement.bind(values)
        var states: [String: FileState] = [:]
        while try statement.step() {
            let state = FileState(
                id: statement.int(0), path: statement.text(1), size: statement.optionalInt(2),
                modificationTime: statement.optionalInt(3), contentHash: statement.optionalText(4), realPath: statement.optionalText(5))
            states[state.path] = state
        }
        return states
    }

    /// Re-resolves parsed notes' links against a resolver holding only the candidate files for their keys.
    private func resolveAgainstCandidates(_ outcomes: [ParseOutcome], jobs: [ParseJob], excluding removedIDs: Set<Int64>) throws -> [ParseOutcome] {
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

    private func countPendingKeys() throws -> Int {
        let statement = try store.connection.prepare("SELECT count(*) FROM pending_resolve")
        return try statement.step() ? Int(statement.int(0)) : 0
    }

    private func storedScanFindings() throws -> [Finding] {
        let statement = try store.connection.prepare("SELECT code, severity, message, path, line, col, fix FROM finding WHERE file_id IS NULL ORDER BY id")
        var result: [Finding] = []
        while try statement.step() {
            let finding = Finding(
                code: FindingCode(rawValue: statement.text(0)) ?? .unreadableFile,
                severity: Finding.Severity(rawValue: statement.text(1)) ?? .warning,
                message: statement.text(2), path: statement.optionalText(3),
                line: statement.optionalInt(4).map(Int.init), column: statement.optionalInt(5).map(Int.init), fix: statement.optionalText(6))
            result.append(finding)
        }
        return result
    }

    private func replaceScanFindings(_ findings: [Finding]) throws {
        try store.connection.execute("DELETE FROM finding WHERE file_id IS NULL")
        let insert = try store.connection.prepare("""
            INSERT INTO finding(file_id, path, code, severity, message, line, col, fix) VALUES (NULL, ?, ?, ?, ?, ?, ?, ?)
            """)
        for finding in findings {
            try insert.bind(
                finding.path.sqlite, .text(finding.code.rawValue), .text(finding.severity.rawValue), .text(finding.message),
                finding.line.sqlite, finding.column.sqlite, finding.fix.sqlite
            ).run()
        }
    }

    /// Re-resolves every link whose key is pending, except in files just parsed; returns how many changed target.
    /// Those links are the unresolved ones with a pending key, and the resolved ones whose target has a
    /// pending key (a link resolves only to a file sharing its key; a removed file's links were unset).
    private func reresolvePendingLinks(skipping parsedIDs: Set<Int64>) throws -> Int {
        guard try countPendingKeys() > 0 else { return 0 }
        let connection = store.connection
        return try connection.transaction {
            let resolver = try store.resolver(forFilesIn: "SELECT f.id, f.path FROM file f JOIN pending_resolve p ON f.resolve_key = p.link_key")
            let links = try connection.prepare("""
                SELECT l.source_id, l.id, l.link_path, l.markdown_syntax, l.target_id, f.path
                FROM link l JOIN file f ON f.id = l.source_id
                WHERE (l.target_id IS NULL AND l.link_key IN (SELECT link_key FROM pending_resolve))
                   OR (l.target_id IN (SELECT t.id FROM file t JOIN pending_resolve p ON t.resolve_key = p.link_key) AND l.via_reference = 0)
                """)
            var updates: [(link: Int64, target: Int64?)] = []
            while try links.step() {
                guard !parsedIDs.contains(links.int(0)) else { continue }
                let target = resolver.resolve(linkPath: links.text(2), relativeFirst: links.int(3) != 0, from: links.text(5))?.id
                if target != links.optionalInt(4) { updates.append((links.int(1), target)) }
            }
            let update = try connection.prepare("UPDATE link SET target_id = ? WHERE id = ?")
            for change in updates {
                try update.bind(change.target.map { .integer($0) } ?? .null, .integer(change.link)).run()
            }
            try connection.execute("DELETE FROM pending_resolve")
            return updates.count
        }
    }

    private func clearPendingKeys() throws -> Int {
        try store.connection.execute("DELETE FROM pending_resolve")
        return 0
    }

    private func fillTotals(_ report: inout IndexReport) throws {
        let statement = try store.connection.prepare("""
            SELECT (SELECT count(*) FROM file WHERE kind = 'note'), (SELECT count(*) FROM file),
                   -- All links (counted on an index, not by reading the table) less the reference edges.
                   (SELECT count(*) FROM link) - (SELECT count(*) FROM link WHERE via_reference = 1),
                   (SELECT count(*) FROM link WHERE target_id IS NULL),
                   (SELECT count(*) FROM finding), (SELECT count(*) FROM link WHERE via_reference = 1)
            """)
        guard try statement.step() else { return }
        report.referenceEdges = Int(statement.int(5))
        report.notes = Int(statement.int(0))
        report.files = Int(statement.int(1))
        report.links = Int(statement.int(2))
        report.unresolvedLinks = Int(statement.int(3))
        report.findingsTotal = Int(statement.int(4))
    }

    private func milliseconds(since start: ContinuousClock.Instant, clock: ContinuousClock) -> Double {
        (clock.now - start).inMilliseconds
    }
}

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
    public var tracePhases = ProcessInfo.processInfo.environment["RHIZOME_TRACE_PHASES"] == "1"

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

/// A passive checkpoint of a database's write-ahead log, run on a connection of its own on another
/// thread. `wait()` returns when it is done (a failure is ignored: closing the index checkpoints anyway).
final class BackgroundCheckpoint: @unchecked Sendable {
    private let group = DispatchGroup()

    init(databasePath: String) {
        DispatchQueue.global(qos: .utility).async(group: group) {
            guard let connection = try? SQLiteConnection(path: databasePath) else { return }
            try? connection.execute("PRAGMA wal_checkpoint(PASSIVE)")
        }
    }

    func wait() { group.wait() }
}
