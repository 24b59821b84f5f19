/// How `explore` picks notes (`IndexStore.relevantNotes`), with no model call: inflected question words
/// find their stems, and on the Obsidian help vault the question set of the retrieval benchmark
/// (`Benchmarks/retrieval-questions.json`) keeps at least the recall it has today.
import Foundation
import Testing
@testable import RhizomeStore
import RhizomeTestSupport

@Suite struct RetrievalQualityTests {
    @Test func `an inflected word of a question also looks for its stem`() throws {
        let vault = try TemporaryVault()
        try vault.write("Sync settings.md", "Choose which folders sync to each device.\n")
        try vault.write("Other.md", "Nothing about that here.\n")
        try vault.index()
        let found = try vault.store().relevantNotes(for: "stop syncing my vault").map(\.path)
        #expect(found == ["Sync settings.md"])
    }

    @Test func `stems drop one inflection and keep at least three letters`() {
        let cases = [
            ("folders", "folder"), ("copies", "copi"), ("exported", "export"), ("syncing", "sync"), ("boxes", "box"),
            ("class", "class"), ("uses", "uses"), ("sing", "sing"), ("notes", "note"), ("caches", "cach"),
        ]
        for (word, stem) in cases { #expect(IndexStore.lightStem(word) == stem, "\(word)") }
        #expect(IndexStore.questionTerms("Syncing 同步") == [#""syncing""#, #""sync""#, #""同 步""#])
    }

    @Test(.enabled(if: Fixtures.corpus("obsidian-help-en") != nil, "../shared/corpora/obsidian-help-en is absent (only CI and developers have it)"))
    func `English questions on the help vault find an answering note as often as they do today`() throws {
        let url = Fixtures.repositoryRoot.appendingPathComponent("Benchmarks/retrieval-questions.json")
        let questions = try JSONDecoder().decode([Question].self, from: Data(contentsOf: url)).filter { $0.language == "en" }
        let vault = try TemporaryVault(copying: Fixtures.corpus("obsidian-help-en")!)
        try vault.index()
        let store = try vault.store()
        var top5 = 0, top20 = 0
        for question in questions {
            let ranked = try store.relevantNotes(for: question.question, limit: 20).map(\.path)
            guard let rank = ranked.firstIndex(where: question.answers.contains) else { continue }
            if rank < 5 { top5 += 1 }
            top20 += 1
        }
        // 27 November 2026: 161 and 169 of 175 (92.0% and 96.6%); the issue asks for 90% and 97%.
        #expect(questions.count >= 175)
        #expect(Double(top5) / Double(questions.count) >= 0.92, "\(top5) of \(questions.count) in the top 5")
        #expect(Double(top20) / Double(questions.count) >= 0.965, "\(top20) of \(questions.count) in the top 20")
    }

    struct Question: Decodable {
        var question: String
        var language: String
        var answers: [String]
    }
}
