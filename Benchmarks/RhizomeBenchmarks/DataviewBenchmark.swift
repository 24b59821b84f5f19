import Foundation
import RhizomeCore
import RhizomeStore

/// `--dataview N`: Dataview queries on an indexed generated vault, warm and in-process (parse + plan +
/// SQL + page loading + evaluation + result), median and p95 of 30 runs each.
struct DataviewBenchmark {
    let noteCount: Int
    let workRoot: String
    /// Runs only the query at this position (1-based) when set, e.g. under a profiler.
    var onlyQuery: Int? = nil

    static let queries: [(name: String, text: String)] = [
        ("TABLE FROM #tag WHERE SORT LIMIT 50",
         #"TABLE status, created, type FROM #project/rhizome WHERE status = "active" OR status = "accepted" SORT created DESC LIMIT 50"#),
        ("TABLE … GROUP BY over every note",
         "TABLE length(rows) AS notes, min(rows.created) AS first, max(rows.file.size) AS largest GROUP BY type"),
        ("LIST FROM #tag WHERE file.size SORT file.name LIMIT 50 (all in SQL)",
         "LIST FROM #idea WHERE file.size > 2000 SORT file.name LIMIT 50"),
        ("TABLE file.inlinks, file.tags FROM #tag WHERE contains SORT LIMIT 20",
         ##"TABLE length(file.inlinks) AS inlinks, file.tags FROM #review WHERE contains(file.tags, "#area") SORT length(file.inlinks) DESC LIMIT 20"##),
        ("TASK WHERE !completed (every note's tasks)", "TASK WHERE !completed"),
    ]

    func run() throws {
        let generator = VaultGenerator(noteCount: noteCount)
        let (vault, _) = try BenchmarkRun.prepareVault(generator, workRoot: workRoot)
        let database = URL(fileURLWithPath: workRoot).appendingPathComponent("dataview-\(noteCount).sqlite").path
        let store = try IndexStore(path: database)
        _ = try Indexer(store: store, vaultRoot: vault.path).run()
        try store.setIndexedVaultPath(vault.path)
        print("\n== Dataview queries, \(noteCount) notes (warm, in-process; median / p95 of 30) ==")
        let clock = ContinuousClock()
        for (position, (name, text)) in Self.queries.enumerated() where onlyQuery == nil || onlyQuery == position + 1 {
            var rows = 0
            var candidates = 0
            var stages = ""
            for _ in 0..<3 { _ = try store.runDataview(try DataviewParser.parse(text)) }
            var samples: [Double] = []
            for _ in 0..<30 {
                let start = clock.now
                let result = try store.runDataview(try DataviewParser.parse(text))
                samples.append((clock.now - start).inMilliseconds)
                rows = result.kind == .task ? result.tasks.count : result.rows.count
                candidates = result.candidatePages
                stages = result.timings.map { String(format: "%@ %.1f", $0.stage, $0.milliseconds) }.joined(separator: ", ")
            }
            samples.sort()
            print(String(format: "  %-62@ %6.1f ms / %6.1f ms  (%d rows or tasks from %d candidate pages)", name as NSString,
                         Measurements.median(samples), Measurements.percentile(samples, 0.95), rows, candidates))
            print("      last run, ms: " + stages)
        }
    }
}
