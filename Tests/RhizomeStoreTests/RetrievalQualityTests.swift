/// How `explore` picks notes (`IndexStore.relevantNotes`), with no model call: inflected question words
/// find their stems, Chinese and Japanese questions find English notes through the glossary, and on the
/// Obsidian help vault the question sets of the retrieval benchmark (`Benchmarks/retrieval-questions*.json`)
/// keep at least the recall they have today.
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

    @Test func `a note whose title the question names outranks a long note repeating its words`() throws {
        let vault = try TemporaryVault()
        try vault.write("Import HTML files.md", "Obsidian can convert a folder of HTML files into notes.\n")
        let clipping = (1...3).map { _ in "Clip web pages: the HTML of each page becomes markdown, and saved pages keep their HTML. " }.joined()
        try vault.write("Clippings.md", clipping + "\n")
        try vault.write("Other.md", "Nothing about that here.\n")
        try vault.index()
        let found = try vault.store().relevantNotes(for: "import html files saved from web pages")
        #expect(found.map(\.path).prefix(2) == ["Import HTML files.md", "Clippings.md"])
        #expect(IndexStore.titleCoverage("Import HTML files", by: ["import", "html", "file"]) == 1)
        #expect(IndexStore.titleCoverage("The sync settings", by: ["sync"]) == 0.5)  // `the` is not counted
        #expect(IndexStore.titleCoverage("Go modules", by: ["module"]) == 1)  // nor a word a question drops
        let chinese = Set(IndexStore.searchWords(for: "同步冲突怎么处理").map(IndexStore.lightStem))
        #expect(IndexStore.titleCoverage("同步冲突", by: chinese) == 1)
    }

    @Test func `stems drop one inflection and keep at least three letters`() {
        let cases = [
            ("folders", "folder"), ("copies", "copi"), ("exported", "export"), ("syncing", "sync"), ("boxes", "box"),
            ("class", "class"), ("uses", "uses"), ("sing", "sing"), ("notes", "note"), ("caches", "cach"),
        ]
        for (word, stem) in cases { #expect(IndexStore.lightStem(word) == stem, "\(word)") }
        // `同步` is kept as a pair of characters (for vaults in Chinese) and gives its English words.
        #expect(IndexStore.questionTerms("Syncing 同步") == [#""syncing""#, #""sync""#, #""同 步""#, #""synchronize""#])
    }

    @Test func `a question in Chinese or Japanese finds English notes through the glossary`() throws {
        let vault = try TemporaryVault()
        try vault.write("Sync settings.md", "Choose which folders sync to each device, and how conflicts are resolved.\n")
        try vault.write("Templates.md", "Insert a template into the current note.\n")
        try vault.write("Other.md", "Nothing about that here.\n")
        try vault.index()
        let store = try vault.store()
        #expect(try store.relevantNotes(for: "两台设备同时改了同一篇笔记，同步冲突怎么处理").first?.path == "Sync settings.md")
        #expect(try store.relevantNotes(for: "兩台裝置的同步衝突").first?.path == "Sync settings.md")
        #expect(try store.relevantNotes(for: "テンプレートを挿入したい").first?.path == "Templates.md")
        // Unknown CJK text still searches pairs of characters, for vaults written in those languages.
        #expect(try store.relevantNotes(for: "量子色力学").isEmpty)
    }

    @Test func `the glossary cuts CJK text into its longest known terms`() {
        #expect(CrossLanguageGlossary.terms(in: "同步冲突怎么处理").starts(with: ["同步", "冲突"]))
        #expect(CrossLanguageGlossary.terms(in: "ショートカットキーを設定").contains("ショートカットキー"))
        #expect(CrossLanguageGlossary.englishWords(in: "同步").contains("sync"))
        #expect(CrossLanguageGlossary.terms(in: "量子色力学").isEmpty)
        #expect(IndexStore.searchWords(for: "同步冲突 syncing") == ["同步", "步冲", "冲突", "sync", "synchronize", "conflict", "syncing"])
        // Every entry is well formed: a term of at least two characters, lowercase English words.
        for (term, words) in CrossLanguageGlossary.words {
            #expect(term.count >= 2 && !term.contains(" ") && !words.isEmpty, "\(term)")
            #expect(words.allSatisfy { $0 == $0.lowercased() && $0.unicodeScalars.allSatisfy(\.isASCII) }, "\(term)")
        }
    }

    @Test(.enabled(if: Fixtures.corpus("obsidian-help-en") != nil, "../shared/corpora/obsidian-help-en is absent (only CI and developers have it)"))
    func `questions on the help vault find an answering note as often as they do today`() throws {
        let vault = try TemporaryVault(copying: Fixtures.corpus("obsidian-help-en")!)
        try vault.index()
        let store = try vault.store()
        // 28 November 2026, with the title match (counts of the top 5 and top 20): English 161 and 170 of
        // 175 (92.0%, 97.1%); with the glossary, Japanese 19 and 22 of 22, Chinese 18 and 22 of 22; on the
        // held-out set written after the glossary, Japanese 39 and 40 of 40, Chinese 36 and 39 of 40; on the
        // second held-out set (written by a session that saw no code, glossary or question), Japanese 26 and
        // 26 of 30, Chinese 24 and 28 of 30; on the third, Japanese 26 and 27, Chinese 23 and 29 of 30; on the
        // fourth (29 November, written the same way), Japanese 22 and 24, Chinese 23 and 29 of 30; on an
        // English held-out set (29 November, 80 questions), 70 and 76; on the fifth (29 November, written the
        // same way, in three languages), English 54 and 58 of 60, Japanese 21 and 30, Chinese 23 and 28 of 30;
        // on the sixth (the same day, aimed at less obvious notes), English 31 and 36 of 40, Japanese 25 and
        // 28, Chinese 23 and 27 of 30. The issue asks for 90% and 97%.
        let floors: [(file: String, language: String, count: Int, top5: Int, top20: Int)] = [
            ("retrieval-questions.json", "en", 175, 161, 170),
            ("retrieval-questions.json", "ja", 22, 19, 22),
            ("retrieval-questions.json", "zh", 22, 18, 22),
            ("retrieval-questions-heldout.json", "ja", 40, 39, 40),
            ("retrieval-questions-heldout.json", "zh", 40, 36, 39),
            ("retrieval-questions-heldout2.json", "ja", 30, 26, 26),
            ("retrieval-questions-heldout2.json", "zh", 30, 24, 28),
            ("retrieval-questions-heldout3.json", "ja", 30, 26, 27),
            ("retrieval-questions-heldout3.json", "zh", 30, 23, 29),
            ("retrieval-questions-heldout4.json", "ja", 30, 22, 24),
            ("retrieval-questions-heldout4.json", "zh", 30, 23, 29),
            ("retrieval-questions-heldout-en.json", "en", 80, 70, 76),
            ("retrieval-questions-heldout5.json", "en", 60, 54, 58),
            ("retrieval-questions-heldout5.json", "ja", 30, 21, 30),
            ("retrieval-questions-heldout5.json", "zh", 30, 23, 28),
            ("retrieval-questions-heldout6.json", "en", 40, 31, 36),
            ("retrieval-questions-heldout6.json", "ja", 30, 25, 28),
            ("retrieval-questions-heldout6.json", "zh", 30, 23, 27),
        ]
        for floor in floors {
            let url = Fixtures.repositoryRoot.appendingPathComponent("Benchmarks/" + floor.file)
            let questions = try JSONDecoder().decode([Question].self, from: Data(contentsOf: url)).filter { $0.language == floor.language }
            var top5 = 0, top20 = 0
            for question in questions {
                let ranked = try store.relevantNotes(for: question.question, limit: 20).map(\.path)
                guard let rank = ranked.firstIndex(where: question.answers.contains) else { continue }
                if rank < 5 { top5 += 1 }
                top20 += 1
            }
            let set = "\(floor.file), \(floor.language)"
            #expect(questions.count == floor.count, "\(set)")
            #expect(top5 >= floor.top5, "\(set): \(top5) of \(questions.count) in the top 5")
            #expect(top20 >= floor.top20, "\(set): \(top20) of \(questions.count) in the top 20")
        }
    }

    struct Question: Decodable {
        var question: String
        var language: String
        var answers: [String]
    }
}
