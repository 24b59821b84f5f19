/// English words for Chinese and Japanese terms, so that a question asked in those languages finds notes
/// written in English (`同步` → sync, `バックリンク` → backlinks) without a model call.
///
/// A question in Chinese or Japanese shares no token with an English note, so `explore` found almost
/// nothing for it. The glossary (`CrossLanguageGlossary+Terms.swift`) holds the vocabulary of note-taking
/// apps and their help pages, in Japanese and in Simplified and Traditional Chinese; a question's CJK text is
/// cut into its longest known terms, left to right, and each term found adds its English words to the
/// search. Text it does not know stays searchable as before (pairs of characters, for vaults written in
/// those languages). It is a word list, not a translator: a question whose meaning lies in words it lacks
/// still finds nothing in an English vault.
enum CrossLanguageGlossary {
    /// The English words of every term, keyed by the term's characters.
    static let words: [String: [String]] = {
        var table: [String: [String]] = [:]
        for line in termsText.split(separator: "\n") {
            let fields = line.split(separator: "\t", maxSplits: 1)
            guard fields.count == 2 else { continue }
            let term = String(fields[0]), english = fields[1].split(separator: " ").map(String.init)
            table[term, default: []] += english.filter { !(table[term]?.contains($0) ?? false) }
        }
        return table
    }()

    /// The length, in characters, of the longest term.
    static let longestTerm: Int = words.keys.map(\.count).max() ?? 0

    /// The terms of `text` (one run of CJK characters), longest match first, left to right: `同步冲突怎么处理`
    /// → `同步`, `冲突`, `处理`. Characters no term starts with are skipped.
    static func terms(in text: String) -> [String] {
        let characters = Array(text)
        var found: [String] = []
        var start = 0
        while start < characters.count {
            var length = min(longestTerm, characters.count - start)
            while length >= 2, words[String(characters[start..<start + length])] == nil { length -= 1 }
            if length >= 2 {
                found.append(String(characters[start..<start + length]))
                start += length
            } else {
                start += 1
            }
        }
        return found
    }

    /// The English words of the terms of `text`, each once, in the order found.
    static func englishWords(in text: String) -> [String] {
        var seen = Set<String>()
        return terms(in: text).flatMap { words[$0] ?? [] }.filter { seen.insert($0).inserted }
    }
}
