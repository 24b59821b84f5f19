import Foundation
import RhizomeCore

extension IndexStore {
    /// A note chosen to answer a question, with the parts of its score.
    public struct RelevantNote: Sendable, Encodable {
        public var path: String
        public var name: String
        /// Modification time, nanoseconds since 1970.
        @NullEncoded public var modified: Int64?
        /// The note's own date: its `created` or `date` property when it has one (`2026-11-18`).
        @NullEncoded public var date: String?
        /// text + graph + recency.
        public var score: Double
        /// Full-text relevance: BM25 relative to the best match (0…1), plus up to 0.4 as the question
        /// names the note's title (`titleMatchWeight`).
        public var textScore: Double
        /// Links to or from the best matches.
        public var graphScore: Double
        /// Newer notes a little higher.
        public var recencyScore: Double

    }

    /// The notes most relevant to a question: full-text rank (BM25 over title and body, any of the
    /// question's words), raised by how much of the title the question names (`titleMatchWeight`),
    /// boosted by graph proximity (links to or from the five best matches: +0.1 each, at most +0.3) and
    /// recency (+0.1 for a note changed today, halving every 30 days).
    public func relevantNotes(for question: String, limit: Int = 20, now: Date = Date()) throws -> [RelevantNote] {
        let terms = Self.questionTerms(question)
        guard !terms.isEmpty else { return [] }
        let expression = terms.joined(separator: " OR ")
        let statement = try connection.prepare("""
            SELECT f.id, f.path, f.name, f.mtime_ns, bm25(note_fts, 10.0, 1.0) AS rank,
                   (SELECT json_extract(p.value_json, '$') FROM property p
                    WHERE \(FileRows.of("f.id", in: "p")) AND p.key IN ('created', 'date') AND p.type IN ('date', 'string') ORDER BY p.key = 'date' LIMIT 1)
            FROM note_fts JOIN file f ON f.id = note_fts.rowid
            WHERE note_fts MATCH ? AND f.kind = 'note' ORDER BY rank LIMIT ?
            """)
        statement.bind(.text(expression), .integer(Int64(max(limit * 3, 30))))
        var candidates: [(id: Int64, note: RelevantNote)] = []
        while try statement.step() {
            let relevance = -statement.double(4)  // bm25: lower is better
            candidates.append((statement.int(0), RelevantNote(
                path: statement.text(1), name: statement.text(2), modified: statement.optionalInt(3),
                date: statement.optionalText(5).map { String($0.prefix(10)) },
                score: 0, textScore: relevance, graphScore: 0, recencyScore: 0)))
        }
        guard let best = candidates.map(\.note.textScore).max(), best > 0 else { return [] }
        // Links between the best matches and the other candidates.
        let top = Set(candidates.prefix(5).map(\.id))
        let ids = candidates.map { String($0.id) }.joined(separator: ",")
        let links = try connection.prepare("""
            SELECT source_id, target_id FROM link WHERE source_id IN (\(ids)) AND target_id IN (\(ids)) AND source_id != target_id
            """)
        var linkCounts: [Int64: Int] = [:]
        while try links.step() {
            let (source, target) = (links.int(0), links.int(1))
            if top.contains(source) { linkCounts[target, default: 0] += 1 }
            if top.contains(target) { linkCounts[source, default: 0] += 1 }
        }
        let nowNanoseconds = now.timeIntervalSince1970 * 1e9
        let questionStems = Set(Self.words(ofTerms: terms).map(Self.lightStem))
        let notes = candidates.map { candidate -> RelevantNote in
            var note = candidate.note
            note.textScore = max(0, note.textScore) / best
            let coverage = Self.titleCoverage(note.name, by: questionStems)
            note.textScore += Self.titleMatchWeight * coverage * coverage
            note.graphScore = min(0.3, 0.1 * Double(linkCounts[candidate.id] ?? 0))
            if let modified = note.modified {
                let days = max(0, (nowNanoseconds - Double(modified)) / 86_400e9)
                note.recencyScore = 0.1 * pow(0.5, days / 30)
            }
            note.score = note.textScore + note.graphScore + note.recencyScore
            return note
        }
        return Array(notes.sorted { $0.score != $1.score ? $0.score > $1.score : $0.path < $1.path }.prefix(limit))
    }

    /// The share of notes whose name holds a Chinese, Japanese or Korean character, from at most 2,000
    /// named notes (nil for a vault without them): a vault written in English has almost none. Names
    /// without a letter in any script (`2026-11-28`, the daily notes) say nothing of the vault's
    /// language and are left out.
    public func cjkNoteNameShare() throws -> Double? {
        let names = try connection.prepare("SELECT name FROM file WHERE kind = 'note' ORDER BY id LIMIT 20000").rows { $0.text(0) }
        let named = names.filter { $0.unicodeScalars.contains(where: \.properties.isAlphabetic) }.prefix(2000)
        guard !named.isEmpty else { return nil }
        let cjk = named.filter(Self.holdsCJK).count
        return Double(cjk) / Double(named.count)
    }

    /// Whether `text` holds a Chinese, Japanese or Korean character.
    public static func holdsCJK(_ text: String) -> Bool {
        text.unicodeScalars.contains(where: FullTextSegmenter.isCJK)
    }

    /// The notes created or changed in a period, newest first: changed (modification time) between
    /// `from` and `to`, or with a `created` or `date` property in `fromDay…toDay` (`YYYY-MM-DD`). Notes
    /// under `excludingFolder` (earlier reflections) are left out.
    public func notesInPeriod(from: Date, to: Date, fromDay: String, toDay: String, excludingFolder: String?) throws -> [RelevantNote] {
        let statement = try connection.prepare("""
            SELECT f.path, f.name, f.mtime_ns,
                   (SELECT json_extract(p.value_json, '$') FROM property p
                    WHERE \(FileRows.of("f.id", in: "p")) AND p.key IN ('created', 'date') AND p.type IN ('date', 'string') ORDER BY p.key = 'date' LIMIT 1) AS day
            FROM file f
            WHERE f.kind = 'note' AND (? = '' OR (f.path NOT LIKE ? ESCAPE '\\'))
              AND ((f.mtime_ns BETWEEN ? AND ?) OR (substr(day, 1, 10) BETWEEN ? AND ?))
            ORDER BY coalesce(substr(day, 1, 10), '') DESC, f.mtime_ns DESC, f.path
            """)
        let folder = excludingFolder ?? ""
        statement.bind(
            .text(folder), .text(Self.escapeLike(folder) + "/%"),
            .integer(Int64(from.timeIntervalSince1970 * 1e9)), .integer(Int64(to.timeIntervalSince1970 * 1e9)),
            .text(fromDay), .text(toDay))
        var notes: [RelevantNote] = []
        while try statement.step() {
            notes.append(RelevantNote(
                path: statement.text(0), name: statement.text(1), modified: statement.optionalInt(2),
                date: statement.optionalText(3).map { String($0.prefix(10)) }, score: 0, textScore: 0, graphScore: 0, recencyScore: 0))
        }
        return notes
    }

    /// Added to the text score times the square of the share of the title's words the question names:
    /// +0.4 for a title made of the question's words (`Import HTML files` asked "how do I import html
    /// files"), +0.18 for two words of three ("import saved html pages"), +0.1 for one word of two.
    /// BM25 counts a title word like any other occurrence, only weighted ×10, so a long note repeating
    /// one of the question's words outranked the note whose title is the question's subject.
    /// Chosen on the first question set (0, 0.2, 0.4, 0.6, 0.8 tried) and checked on the held-out one:
    /// recall@20 en 96.6 → 97.1%, ja 100%, zh 95.5 → 100%; recall@5 ja 81.8 → 86.4%, zh 77.3 → 81.8%;
    /// held-out ja recall@5 95.0 → 97.5%, the rest unchanged. Higher weights gained recall@5 in Japanese
    /// but lost mean reciprocal rank on the held-out questions.
    static let titleMatchWeight = 0.4

    /// The share of a title's words that are among `stems`, the title cut into words as a question is
    /// (`searchWords`: words of three letters or more without the commonest ones, stemmed; Chinese,
    /// Japanese or Korean text as pairs of characters), so that a word the question could not have kept
    /// (`Go`, `'s`) does not count against it.
    static func titleCoverage(_ title: String, by stems: Set<String>) -> Double {
        var words = Set<String>()
        for word in title.lowercased().split(whereSeparator: { !($0.isLetter || $0.isNumber) }) {
            if word.unicodeScalars.contains(where: FullTextSegmenter.isCJK) {
                // Its pairs of characters and its glossary words, as a question's (one stem each).
                for term in searchWords(for: String(word)) { words.insert(lightStem(term)) }
            } else if word.count >= 3, !stopWords.contains(String(word)) {
                words.insert(lightStem(String(word)))
            }
        }
        guard !words.isEmpty else { return 0 }
        return Double(words.filter(stems.contains).count) / Double(words.count)
    }

    /// The FTS5 terms of a question, any of which may match: its words (lowercased, without the commonest
    /// English words), and for Chinese, Japanese or Korean text, which has no spaces between words, each
    /// pair of neighbouring characters (as a phrase: the index holds one token per CJK character) and the
    /// English words of the terms `CrossLanguageGlossary` knows in it.
    static func questionTerms(_ question: String) -> [String] {
        var seen = Set<String>()
        var terms: [String] = []
        func add(_ term: String) { if seen.insert(term).inserted { terms.append(term) } }
        for word in question.lowercased().split(whereSeparator: { !($0.isLetter || $0.isNumber) }) {
            // Split the word into CJK runs and the rest (`选择sqlite作为` → 选择, sqlite, 作为).
            var runs: [(text: String, isCJK: Bool)] = []
            for character in word {
                let isCJK = character.unicodeScalars.contains(where: FullTextSegmenter.isCJK)
                if let last = runs.last, last.isCJK == isCJK { runs[runs.count - 1].text.append(character) } else { runs.append((String(character), isCJK)) }
            }
            for run in runs {
                if run.isCJK {
                    let characters = Array(run.text)
                    if characters.count == 1 { add(FullTextSegmenter.term(run.text)) }
                    for index in characters.indices.dropLast() { add(FullTextSegmenter.term(String(characters[index...index + 1]))) }
                    // In English, for a vault written in English: `同步冲突` → sync, conflict.
                    for english in CrossLanguageGlossary.englishWords(in: run.text) where english.count >= 3 && !stopWords.contains(english) {
                        for term in englishTerms(english) { add(term) }
                    }
                } else if run.text.count >= 3 && !stopWords.contains(run.text) {
                    for term in englishTerms(run.text) { add(term) }
                }
            }
        }
        return terms
    }

    /// The words `relevantNotes` searches a question for, as a person reads them (`同步冲突` → 同步, 步冲, 冲突,
    /// sync, synchronize, conflict).
    public static func searchWords(for question: String) -> [String] {
        words(ofTerms: questionTerms(question))
    }

    /// `questionTerms` as words: unquoted, a CJK pair without the space between its characters.
    static func words(ofTerms terms: [String]) -> [String] {
        terms.map { term in
            let word = term.dropFirst().dropLast().replacingOccurrences(of: "\"\"", with: "\"")
            return holdsCJK(word) ? word.replacingOccurrences(of: " ", with: "") : word
        }
    }

    /// A word as FTS5 terms: the word, and its stem when it is inflected (`syncing` → `syncing`, `sync`).
    /// Words of other scripts stay as they are.
    static func englishTerms(_ word: String) -> [String] {
        guard word.unicodeScalars.allSatisfy({ $0.isASCII }) else { return [FullTextSegmenter.term(word)] }
        let stem = lightStem(word)
        return (stem == word ? [word] : [word, stem]).map(FullTextSegmenter.term)
    }

    /// The word without an inflection ending (`folders` → `folder`, `copies` → `copi`, `exported` →
    /// `export`), when at least three letters remain.
    static func lightStem(_ word: String) -> String {
        for (suffix, replacement) in [("ies", "i"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")] where word.hasSuffix(suffix) {
            if suffix == "s" && word.hasSuffix("ss") { return word }
            if suffix == "es" && !["s", "x", "ch", "sh"].contains(where: { word.dropLast(2).hasSuffix($0) }) { continue }
            let stem = String(word.dropLast(suffix.count)) + replacement
            return stem.count >= 3 ? stem : word
        }
        return word
    }

    private static let stopWords: Set<String> = [
        "the", "and", "for", "are", "but", "not", "you", "all", "any", "can", "had", "her", "was", "one", "our", "out",
        "has", "have", "how", "its", "did", "does", "what", "when", "where", "which", "who", "whom", "why", "with",
        "this", "that", "these", "those", "from", "about", "into", "over", "than", "then", "there", "their", "they",
        "them", "were", "will", "would", "should", "could", "been", "being", "some", "such", "only", "also", "just",
        "more", "most", "much", "very", "your", "yours", "mine", "my", "me", "we", "us", "is", "it", "of", "to", "in",
        "on", "at", "by", "or", "as", "be", "do", "so", "if", "an", "a", "i", "tell", "know", "say", "said", "notes", "note",
    ]
}
