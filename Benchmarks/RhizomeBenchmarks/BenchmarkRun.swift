import Foundation
import RhizomeCore
import RhizomeStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One vault size: cold index (with and without full text), no-change re-index, one-file-changed
/// re-index, validation, backlinks latency, and the process's peak RSS.
struct BenchmarkRun {
    let noteCount: Int
    let workRoot: String

    /// One cold index of the generated vault, timed, and nothing else.
    func runColdIndexOnly(fullText: Bool) throws {
        let (vault, _) = try Self.prepareVault(VaultGenerator(noteCount: noteCount), workRoot: workRoot)
        let database = URL(fileURLWithPath: workRoot).appendingPathComponent("cold-\(noteCount).sqlite").path
        removeDatabase(database)
        var options = IndexOptions()
        options.fullText = fullText
        var store: IndexStore? = nil
        let (coldReport, cold) = try timed { () -> IndexReport in
            store = try IndexStore(path: database)
            return try Indexer(store: store!, vaultRoot: vault.path, options: options).run()
        }
        let (_, closing) = try timed { store = nil }  // closing checkpoints the write-ahead log
        report("cold index, \(fullText ? "with" : "no") full text", cold + closing,
               extra: "\(coldReport.links) links; \(Int(closing.rounded())) ms of it closing the index")
    }

    /// Parsing and link resolution alone, one thread each, with no database.
    func runParseOnly() throws {
        let (vault, _) = try Self.prepareVault(VaultGenerator(noteCount: noteCount), workRoot: workRoot)
        try measureParseAndResolve(scan: try VaultScanner(root: vault.path).scan())
    }

    private func measureParseAndResolve(scan: VaultScan) throws {
        // Parsing alone, one thread: read every note and extract everything (no database).
        var linksByNote: [(path: String, links: [LinkOccurrence])] = []
        let (parsedBytes, parseOnly) = try timed { () -> Int in
            var total = 0
            for file in scan.files where file.kind == .note {
                guard case .success(let bytes) = FileReader.read(file.diskPath, maxBytes: 16 << 20) else { continue }
                total += bytes.count
                linksByNote.append((file.path, NoteParser.parse(bytes, path: file.path).links))
            }
            return total
        }
        report("parse only, one thread", parseOnly, extra: String(format: "%.0f MB/s", Double(parsedBytes) / 1_000_000 / (parseOnly / 1000)))

        // Link resolution alone, one thread: every parsed link against every file of the vault.
        let (resolvedCount, resolveOnly) = try timed { () -> Int in
            let resolver = LinkResolver<Int>(files: scan.files.enumerated().map { (path: $0.element.path, id: $0.offset) })
            return linksByNote.reduce(0) { $0 + resolver.resolveAll($1.links, from: $1.path).count }
        }
        report("resolve only, one thread", resolveOnly, extra: "\(resolvedCount) links")
        // The same through one resolver session, as each of the indexer's parse workers does.
        let (_, resolveSession) = try timed { () -> Int in
            let session = LinkResolver<Int>.Session(LinkResolver<Int>(files: scan.files.enumerated().map { (path: $0.element.path, id: $0.offset) }))
            return linksByNote.reduce(0) { $0 + session.resolveAll($1.links, from: $1.path).count }
        }
        linksByNote = []
        report("resolve, one session, one thread", resolveSession)
    }

    func run() throws {
        let generator = VaultGenerator(noteCount: noteCount)
        let (vault, bytes) = try Self.prepareVault(generator, workRoot: workRoot)
        print("\n== \(noteCount) notes (\(String(format: "%.1f", Double(bytes) / 1_000_000)) MB) ==")

        let database = URL(fileURLWithPath: workRoot).appendingPathComponent("index-\(noteCount).sqlite").path

        try measureParseAndResolve(scan: try VaultScanner(root: vault.path).scan())

        // Cold index without full text (links, tags, properties, headings, tasks…).
        removeDatabase(database)
        var noFullText = IndexOptions()
        noFullText.fullText = false
        let (coldLinksReport, coldLinks) = try timed { try Indexer(store: try IndexStore(path: database), vaultRoot: vault.path, options: noFullText).run() }
        report("cold index, no full text", coldLinks, extra: "\(coldLinksReport.links) links, \(coldLinksReport.unresolvedLinks) unresolved")

        // Cold index with full text (the default).
        removeDatabase(database)
        let (coldReport, cold) = try timed { try Indexer(store: try IndexStore(path: database), vaultRoot: vault.path).run() }
        report("cold index, with full text", cold, extra: "\(coldReport.notes) notes, \(coldReport.files) files")

        let store = try IndexStore(path: database)
        let indexer = Indexer(store: store, vaultRoot: vault.path)

        // No-change re-index: median of 7.
        var noChange: [Double] = []
        for _ in 0..<7 { noChange.append(try timed { try indexer.run() }.1) }
        report("no-change re-index (median of 7)", Measurements.median(noChange))

        // One file changed: median of 7 edits of different notes (restored afterwards, so that every run
        // measures the same vault).
        var oneChanged: [Double] = []
        var originals: [(URL, Data)] = []
        defer {
            for (url, data) in originals { try? data.write(to: url) }
            _ = try? indexer.run()
        }
        for revision in 0..<7 {
            let url = vault.appendingPathComponent(generator.relativePath(ofNote: (revision * 7_919) % noteCount))
            originals.append((url, try Data(contentsOf: url)))
            _ = try generator.touchNote(at: (revision * 7_919) % noteCount, in: vault, revision: revision)
            let (result, milliseconds) = try timed { try indexer.run() }
            precondition(result.modified == 1, "expected one modified file, got \(result.modified)")
            oneChanged.append(milliseconds)
        }
        report("one file changed re-index (median of 7)", Measurements.median(oneChanged))

        // Validation: a no-change refresh plus reading the stored results (what `rhizome validate` does).
        var validations: [Double] = []
        var findingCount = 0
        for _ in 0..<7 {
            validations.append(try timed { () -> Void in
                _ = try indexer.run()
                findingCount = try store.validationFindings().count
                _ = try store.typedNotes()
            }.1)
        }
        let validation = Measurements.median(validations)
        report("validate (median of 7)", validation, extra: String(format: "%d findings; %.0f ms beyond the no-change re-index", findingCount, validation - Measurements.median(noChange)))

        // A schema change re-checks every note (the stored results no longer apply): switch schemas off, then on.
        var withoutSchemas = IndexOptions()
        withoutSchemas.schemas = .none
        _ = try Indexer(store: store, vaultRoot: vault.path, options: withoutSchemas).run()
        let (_, recheck) = try timed { try indexer.run() }
        report("schemas changed: re-check every note", recheck)

        // Backlinks latency, in-process: resolve nothing, just the query, over many notes.
        let ids = try store.readOnlyQuery("SELECT id FROM file WHERE kind = 'note' ORDER BY id").rows.compactMap { row -> Int64? in
            if case .integer(let value) = row[0] { return value }
            return nil
        }
        var latencies: [Double] = []
        var total = 0
        let clock = ContinuousClock()
        for (index, id) in ids.enumerated() where index % max(1, ids.count / 2_000) == 0 {
            let start = clock.now
            total += try store.backlinks(of: id).count
            latencies.append((clock.now - start).inMilliseconds)
        }
        latencies.sort()
        print(String(format: "  %-44@ p50 %.3f ms · p99 %.3f ms (%d queries, %d backlinks)", "backlinks query" as NSString,
                     Measurements.percentile(latencies, 0.5), Measurements.percentile(latencies, 0.99), latencies.count, total))

        print(String(format: "  %-44@ %.0f MB", "peak RSS (this process)" as NSString, Measurements.peakResidentMegabytes()))
    }

    /// The generated vault for this size (made once, reused), and its size in bytes.
    static func prepareVault(_ generator: VaultGenerator, workRoot: String) throws -> (URL, Int) {
        let vault = URL(fileURLWithPath: workRoot).appendingPathComponent("vault-\(generator.noteCount)")
        let marker = vault.appendingPathComponent(".obsidian/generated")
        if !FileManager.default.fileExists(atPath: marker.path) {
            try? FileManager.default.removeItem(at: vault)
            let summary = try generator.generate(into: vault)
            try Data("\(summary.totalBytes)".utf8).write(to: marker)
        }
        return (vault, Int((try? String(contentsOf: marker, encoding: .utf8)).flatMap { Int($0) } ?? 0))
    }

    private func timed<T>(_ body: () throws -> T) throws -> (T, Double) {
        let clock = ContinuousClock()
        let start = clock.now
        let result = try body()
        return (result, (clock.now - start).inMilliseconds)
    }

    private func report(_ name: String, _ milliseconds: Double, extra: String = "") {
        print(String(format: "  %-44@ %8.0f ms  %@", name as NSString, milliseconds, extra as NSString))
    }

    private func removeDatabase(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

}
