import Dispatch
import RhizomeCore

/// Stage (2) of an indexing run, content: every added or changed file is read, hashed, parsed and its links
/// resolved on worker threads (`Indexer+Parsing.swift`), batch by batch, while this thread writes the batch
/// before, one transaction each (`BatchWriter`).
extension Indexer {
    /// What writing the content did.
    struct ContentResult {
        /// The files whose content was parsed and written (their links are resolved already).
        var parsedIDs = Set<Int64>()
        /// Changed files whose content changed.
        var modified = 0
        /// Changed files whose bytes turned out the same (or attachments).
        var unchanged = 0
        /// Oversized, binary and unreadable files.
        var findings: [Finding] = []
    }

    /// Parses and writes `jobs`, resolving their links as `resolution` says, as if the files `removedIDs`
    /// were gone already. `progress` gets the number of files done after each batch.
    func writeContent(
        _ jobs: [ParseJob], resolution: ContentResolution, excluding removedIDs: Set<Int64>, checker: NoteChecker?, isColdIndex: Bool,
        phases: inout PhaseTimer, progress: (Int) -> Void
    ) throws -> ContentResult {
        var result = ContentResult()
        guard !jobs.isEmpty else { return result }
        let connection = store.connection
        let batches = Self.batches(of: jobs, size: max(1, options.batchSize))
        // Batches are parsed one after another on the worker threads, up to `parseLookahead` ahead of
        // the batch this thread writes, so that neither side waits for the other while both have work.
        // The first batches (`initialParseAhead` of them) are parsed while the resolver is made: their
        // links are resolved once it is ready.
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
        do {
            pendingResolver.fulfill(try resolution.resolver(store: store, excluding: removedIDs))
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
        try store.beginContentWrites(coldIndex: isColdIndex)
        defer { store.endContentWrites(coldIndex: isColdIndex) }
        let writer = try BatchWriter(connection: connection, fullText: options.fullText, foreignKeysChecked: false)
        var done = 0
        for (number, batch) in batches.enumerated() {
            var outcomes = upcoming.removeFirst().wait()
            phases.mark("parse (waiting)")
            startParsing(through: number + Self.parseLookahead + 1)
            if case .candidates = resolution { outcomes = try resolveAgainstCandidates(outcomes, jobs: batch, excluding: removedIDs) }
            // A failure names the files being written (a SQLite error alone says only which statement
            // failed). The batch, not one file: rows go in many per statement, so a failing row may be
            // flushed while a later file is written.
            try Self.naming(batch) {
                try connection.transaction {
                    // By position, not `zip`: zip's elements are copies, and copying a parsed note retains
                    // each of its arrays (and releases them after), on the one thread that writes.
                    for index in batch.indices {
                        let job = batch[index]
                        switch outcomes[index] {
                        case .parsed(let note, let targets, let hash, let forms):
                            try writer.write(note, targets: targets, forms: forms, job: job, hash: hash)
                            result.parsedIDs.insert(job.id)
                            if !job.isNew { result.modified += 1 }
                            result.findings += note.findings.filter { $0.code == .fileTooLarge || $0.code == .binaryFile }
                        case .sameContent(let hash):
                            try writer.touch(job: job, hash: hash)
                            if !job.isNew { result.unchanged += 1 }
                        case .attachment:
                            try writer.touch(job: job, hash: nil)
                            if !job.isNew { result.unchanged += 1 }
                        case .unreadable(let finding):
                            try writer.recordUnreadable(finding, job: job)
                            result.findings.append(finding)
                        }
                    }
                    try writer.flush()  // the batch's last collected rows, before the commit
                }
            }
            phases.mark("write")
            done += batch.count
            progress(done)
            // Freeing a batch's parsed notes (every string and array in them) is not the writer's work.
            Self.release(consume outcomes)
        }
        return result
    }

    /// Runs `body`, giving an error it throws the files of `batch` as context.
    static func naming<Result>(_ batch: [ParseJob], _ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch let error as any RhizomeError {
            guard let first = batch.first?.file.path else { throw error }
            throw error.inContext(batch.count == 1 ? "indexing `\(first)`"
                : "indexing a batch of \(batch.count) files (`\(first)` … `\(batch.last!.file.path)`)")
        }
    }
}
