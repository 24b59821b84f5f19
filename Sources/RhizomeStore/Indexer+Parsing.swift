import Dispatch
import Foundation
import RhizomeCore

/// Stage "parse and resolve" of an indexing run, on worker threads: files are read, hashed and
/// parsed in batches on worker threads, each batch's links then resolved (`PendingResolver`), while the
/// writer's thread writes the batch before (`Indexer+Content.swift`).
extension Indexer {
    struct ParseJob: Sendable {
        var id: Int64
        var file: ScannedFile
        var previousHash: String?
        var isNew: Bool
        /// The file has no row yet (a first index): the writer inserts it, with `id`.
        var insertsFileRow = false
    }

    enum ParseOutcome: Sendable {
        case parsed(ParsedNote, targets: [LinkResolver<Int64>.Resolution], hash: String?, forms: StoredForms)
        case sameContent(hash: String)
        case attachment
        case unreadable(Finding)
    }

    /// Parses one batch on the worker threads, then resolves its links; `wait()` returns its outcomes.
    struct BackgroundParse {
        private let box = Locked<[ParseOutcome]>([])
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
                    let outcomes = Indexer.parallelMap(Array(parsed.indices), workers: workers) { worker, index in
                        guard case .parsed(let note, _, let hash, let forms) = parsed[index] else { return parsed[index] }
                        return .parsed(note, targets: sessions[worker].resolveAll(note.links, from: jobs[index].file.path), hash: hash, forms: forms)
                    }
                    box.withLock { $0 = outcomes }
                }
            }
        }

        func wait() -> [ParseOutcome] {
            group.wait()
            return box.withLock { $0 }
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
    final class PendingResolver: Sendable {
        private let ready = DispatchGroup()
        private let state = Locked<(resolver: LinkResolver<Int64>?, made: [LinkResolver<Int64>.Session])>((nil, []))

        init() { ready.enter() }

        /// Call exactly once.
        func fulfill(_ resolver: LinkResolver<Int64>) {
            state.withLock { $0.resolver = resolver }
            ready.leave()
        }

        /// `count` sessions, the same ones on every call (a batch's worker n uses session n).
        func sessions(count: Int) -> [LinkResolver<Int64>.Session] {
            ready.wait()
            return state.withLock { state in
                while state.made.count < max(1, count) { state.made.append(LinkResolver<Int64>.Session(state.resolver!)) }
                return state.made
            }
        }
    }

    /// Drops `value` on a background thread, so that freeing what it holds does not hold up this one.
    static func release(_ value: consuming some Sendable) {
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
        // A note whose full text went in ahead of a change for exactly these bytes keeps it
        // (`IndexStore.writeFullTextAhead`): its body text is not needed.
        let fullTextWrittenAhead = job.previousHash == IndexStore.fullTextAheadMarker(forContentHash: hash)
        var note = file.kind == .canvas
            ? CanvasParser.parse(bytes, path: file.path)
            : NoteParser.parse(bytes, path: file.path, includeBodyText: options.fullText && !fullTextWrittenAhead)
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

    /// `transform` over `items` on `workers` threads, results in order (`ParallelMap`).
    static func parallelMap<T: Sendable, R: Sendable>(_ items: [T], workers: Int, _ transform: @Sendable (T) -> R) -> [R] {
        ParallelMap.map(items, workers: workers, transform)
    }

    /// `transform` also gets the number of the worker that runs it (below `workers`; one thread each).
    static func parallelMap<T: Sendable, R: Sendable>(_ items: [T], workers: Int, _ transform: @Sendable (Int, T) -> R) -> [R] {
        ParallelMap.map(items, workers: workers, transform)
    }
}
