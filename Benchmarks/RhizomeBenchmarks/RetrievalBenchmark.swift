import Foundation
import RhizomeCore
import RhizomeOperations
import RhizomeStore

/// `--retrieval QUESTIONS --vault PATH [--latency N] [--misses]`: how well `explore` picks notes, with no
/// model call. Each question of QUESTIONS (`Benchmarks/retrieval-questions.json`: question, language,
/// answering notes) is asked of `IndexStore.relevantNotes` over the vault at PATH (indexed into the work
/// directory; the vault is only read). Per language: recall@5 and recall@20 (the share of questions with
/// an answering note in the top 5 or 20) and MRR (the mean of 1 / rank of the first answering note).
/// `--latency N` also times every question on the generated N-note vault (median / p95).
/// `--translations FILE` (a JSON object: question → English search words) searches each question it has
/// words for as `explore` does after its translation call (`ExploreOperation.searchedText`), so the
/// effect of that call can be measured without one (the words in the file are what a model answered).
struct RetrievalBenchmark {
    struct Question: Decodable {
        var question: String
        var language: String
        var answers: [String]
    }

    /// The quality figures of one set of questions.
    struct Quality {
        var questions = 0
        var inTop5 = 0
        var inTop20 = 0
        var reciprocalRanks = 0.0

        mutating func add(rank: Int?) {
            questions += 1
            if let rank, rank <= 5 { inTop5 += 1 }
            if let rank, rank <= 20 { inTop20 += 1 }
            reciprocalRanks += rank.map { 1 / Double($0) } ?? 0
        }

        var line: String {
            String(format: "recall@5 %5.1f%%  recall@20 %5.1f%%  MRR %.3f  (%d questions)",
                   100 * Double(inTop5) / Double(max(questions, 1)), 100 * Double(inTop20) / Double(max(questions, 1)),
                   reciprocalRanks / Double(max(questions, 1)), questions)
        }
    }

    let questionsPath: String
    let vaultPath: String
    let workRoot: String
    var latencyNotes: Int? = nil
    var showsMisses = false
    var translationsPath: String? = nil

    static func load(_ path: String) throws -> [Question] {
        try JSONDecoder().decode([Question].self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The 1-based rank of the first answering note among `ranked` paths, or nil.
    static func rank(of answers: [String], in ranked: [String]) -> Int? {
        ranked.firstIndex { answers.contains($0) }.map { $0 + 1 }
    }

    func run() throws {
        let questions = try Self.load(questionsPath)
        let translations = try translationsPath.map { try JSONDecoder().decode([String: String].self, from: Data(contentsOf: URL(fileURLWithPath: $0))) } ?? [:]
        try FileManager.default.createDirectory(atPath: workRoot, withIntermediateDirectories: true)
        let database = URL(fileURLWithPath: workRoot).appendingPathComponent("retrieval.sqlite").path
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) }
        let store = try IndexStore(path: database)
        _ = try Indexer(store: store, vaultRoot: vaultPath).run()
        print("\n== Retrieval for explore, \(URL(fileURLWithPath: vaultPath).lastPathComponent) (no model call\(translations.isEmpty ? "" : "; \(translations.count) translations from a file")) ==")
        var byLanguage: [String: Quality] = [:]
        var all = Quality()
        for question in questions {
            let searched = ExploreOperation.searchedText(question: question.question, translationWords: translations[question.question])
            let ranked = try store.relevantNotes(for: searched, limit: 20).map(\.path)
            let rank = Self.rank(of: question.answers, in: ranked)
            byLanguage[question.language, default: Quality()].add(rank: rank)
            all.add(rank: rank)
            if showsMisses, rank.map({ $0 > 5 }) ?? true {
                print("  miss (rank \(rank.map(String.init) ?? "—")): \(question.question)\n      want \(question.answers.joined(separator: ", "))\n      got  \(ranked.prefix(3).joined(separator: ", "))")
            }
        }
        for language in byLanguage.keys.sorted() { print("  \(language): " + byLanguage[language]!.line) }
        print("  all: " + all.line)
        if let latencyNotes { try measureLatency(questions, translations: translations, notes: latencyNotes) }
    }

    /// Every question on the generated vault (with its translation's words, when given): retrieval's time
    /// where the index is large.
    private func measureLatency(_ questions: [Question], translations: [String: String], notes: Int) throws {
        let (vault, _) = try BenchmarkRun.prepareVault(VaultGenerator(noteCount: notes), workRoot: workRoot)
        let database = URL(fileURLWithPath: workRoot).appendingPathComponent("retrieval-\(notes).sqlite").path
        let store = try IndexStore(path: database)
        _ = try Indexer(store: store, vaultRoot: vault.path).run()
        let clock = ContinuousClock()
        let searched = questions.map { ExploreOperation.searchedText(question: $0.question, translationWords: translations[$0.question]) }
        for text in searched.prefix(5) { _ = try store.relevantNotes(for: text) }
        var samples: [Double] = []
        for text in searched {
            let start = clock.now
            _ = try store.relevantNotes(for: text)
            samples.append((clock.now - start).inMilliseconds)
        }
        samples.sort()
        print(String(format: "  latency on %d generated notes: median %.1f ms, p95 %.1f ms, max %.1f ms (%d questions)",
                     notes, Measurements.median(samples), Measurements.percentile(samples, 0.95), samples.last ?? 0, samples.count))
    }
}
