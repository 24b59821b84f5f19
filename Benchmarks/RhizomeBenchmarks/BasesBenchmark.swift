import Foundation
import RhizomeCore
import RhizomeStore

/// `--bases N`: Obsidian bases evaluated over an indexed generated vault, warm and in-process (compile +
/// loading every file's facts from the index + filters, formulas, sort, group, summaries), median and
/// p95 of 30 runs each. Issue 20's target: ≤ 100 ms on 10,000 notes.
struct BasesBenchmark {
    let noteCount: Int
    let workRoot: String
    /// Runs only the base at this position (1-based) when set, e.g. under a profiler.
    var onlyBase: Int? = nil

    static let bases: [(name: String, text: String)] = [
        ("tag + property filter, formula, sort, groupBy", """
            filters:
              and:
                - file.hasTag("project/rhizome")
                - 'status == "active" || status == "accepted"'
            formulas:
              age: '(now() - created).days'
            views:
              - type: table
                order: [file.name, status, created, formula.age]
                sort:
                  - property: created
                    direction: DESC
                groupBy:
                  property: type
                  direction: ASC
                summaries:
                  formula.age: Average
            """),
        ("file.backlinks in a filter, sorted by a formula", """
            filters: 'file.backlinks.length > 5'
            formulas:
              inlinks: file.backlinks.length
            views:
              - type: table
                order: [file.name, formula.inlinks]
                sort:
                  - property: formula.inlinks
                    direction: DESC
                limit: 50
            """),
        ("every note, sorted by a property, limit 50", """
            filters: file.ext == "md"
            views:
              - type: table
                order: [file.name, type, status, created]
                sort:
                  - property: created
                    direction: ASC
                limit: 50
            """),
    ]

    func run() throws {
        let generator = VaultGenerator(noteCount: noteCount)
        let (vault, _) = try BenchmarkRun.prepareVault(generator, workRoot: workRoot)
        let database = URL(fileURLWithPath: workRoot).appendingPathComponent("bases-\(noteCount).sqlite").path
        let store = try IndexStore(path: database)
        _ = try Indexer(store: store, vaultRoot: vault.path).run()
        try store.setIndexedVaultPath(vault.path)
        print("\n== Bases, \(noteCount) notes (warm, in-process; median / p95 of 30) ==")
        let clock = ContinuousClock()
        for (position, (name, text)) in Self.bases.enumerated() where onlyBase == nil || onlyBase == position + 1 {
            func once() throws -> BaseResult {
                try store.runBase(try BaseProgram.load(text: text, path: "bench.base"), viewNamed: nil, thisPath: nil)
            }
            for _ in 0..<3 { _ = try once() }
            var samples: [Double] = []
            var result: BaseResult? = nil
            for _ in 0..<30 {
                let start = clock.now
                result = try once()
                samples.append((clock.now - start).inMilliseconds)
            }
            samples.sort()
            print(String(format: "  %-50@ %6.1f ms / %6.1f ms  (%d rows of %d, %d groups)", name as NSString,
                         Measurements.median(samples), Measurements.percentile(samples, 0.95),
                         result?.rows.count ?? 0, result?.total ?? 0, result?.groups?.count ?? 0))
        }
    }
}
