import Foundation
import RhizomeCore

/// Full-text search (FTS5, BM25 with titles first), note-name completion and the any-word fallback.
extension IndexStore {
    /// Full-text search, best first. Plain words are all required (prefix with `*`), or with `anyWord` any
    /// of them; `raw` passes FTS5 syntax. Notes whose name contains every word (with `anyWord`, the most
    /// words) rank first (BM25 gives almost no weight to words that occur in most notes, so it cannot lift
    /// an exact title match alone), then by BM25 with titles weighted ×10 (which sums over the words a
    /// note holds, so notes with more of them rank higher).
    public func search(
        _ query: String, limit: Int = 20, offset: Int = 0, raw: Bool = false, anyWord: Bool = false,
        scope: SearchScope = SearchScope(), order: SearchScope.Order = .relevance, highlight: SearchScope.Highlight = .markdown
    ) throws -> [SearchHit] {
        let expression = raw ? query : Self.ftsExpression(query, anyWord: anyWord)
        guard !expression.isEmpty else { return [] }
        var words = raw ? [] : query.split(whereSeparator: { $0.isWhitespace }).map { String($0).trimmingCharacters(in: CharacterSet(charactersIn: "*\"")) }
        // A word longer than a file name (255 bytes) is in no note's name; past 500 words the name check would
        // exceed SQLite's expression depth (1,000). Either way the hits rank by BM25 alone, instead of SQLite
        // failing ("LIKE or GLOB pattern too complex", "Expression tree is too large").
        if words.contains(where: { $0.utf8.count > Self.longestFileNameBytes }) || words.count > 500 { words = [] }
        let nameCondition = words.isEmpty ? "0" : words.map { _ in "(f.name LIKE '%' || ? || '%' ESCAPE '\\')" }.joined(separator: anyWord ? " + " : " AND ")
        let (scopeCondition, scopeValues) = scope.condition
        let statement = try connection.prepare("""
            SELECT f.path, snippet(note_fts, 1, '\(FullTextSegmenter.matchStart)', '\(FullTextSegmenter.matchEnd)', '…', 16), bm25(note_fts, 10.0, 1.0) AS score, (\(nameCondition)) AS name_hit
            FROM note_fts JOIN file f ON f.id = note_fts.rowid
            WHERE note_fts MATCH ? AND \(scopeCondition) ORDER BY \(order.sql) LIMIT ? OFFSET ?
            """)
        statement.bind(words.map { .text(Self.escapeLike($0)) } + [.text(expression)] + scopeValues + [.integer(Int64(limit)), .integer(Int64(offset))])
        return try statement.rows {
            SearchHit(path: $0.text(0), snippet: Self.oneLine(FullTextSegmenter.readable($0.text(1), highlight: highlight)), score: $0.double(2))
        }
    }

    /// Note names (or, when `prefix` holds a `/`, vault paths without `.md`) starting with `prefix`, ignoring
    /// ASCII case, shortest first: what a shell completes a NOTE argument with.
    public func noteNames(startingWith prefix: String, limit: Int) throws -> [String] {
        let byPath = prefix.contains("/")
        let column = byPath ? "substr(path, 1, length(path) - 3)" : "name"
        let statement = try connection.prepare("""
            SELECT DISTINCT \(column) AS candidate FROM file WHERE kind = 'note' AND lower(path) LIKE '%.md'
            AND candidate LIKE ? || '%' ESCAPE '\\' ORDER BY length(candidate), candidate LIMIT ?
            """)
        statement.bind(.text(Self.escapeLike(prefix)), .integer(Int64(limit)))
        return try statement.rows { $0.text(0) }
    }

    /// How many notes `search` would find without a limit.
    public func searchCount(_ query: String, raw: Bool = false, anyWord: Bool = false, scope: SearchScope = SearchScope()) throws -> Int {
        let expression = raw ? query : Self.ftsExpression(query, anyWord: anyWord)
        guard !expression.isEmpty else { return 0 }
        guard !scope.isEmpty else {
            return try connection.prepare("SELECT count(*) FROM note_fts WHERE note_fts MATCH ?").bind(.text(expression)).rows { Int($0.int(0)) }.first ?? 0
        }
        let (condition, values) = scope.condition
        return try connection.prepare("SELECT count(*) FROM note_fts JOIN file f ON f.id = note_fts.rowid WHERE note_fts MATCH ? AND \(condition)")
            .bind([.text(expression)] + values).rows { Int($0.int(0)) }.first ?? 0
    }

    /// Plain words → an FTS5 expression where every word must occur: `"w1" "w2"`; `w*` is a prefix query.
    static func ftsExpression(_ query: String, anyWord: Bool = false) -> String {
        query.split(whereSeparator: { $0.isWhitespace }).map { word -> String in
            var token = String(word)
            let isPrefix = token.hasSuffix("*") && token.count > 1
            if isPrefix { token.removeLast() }
            let quoted = FullTextSegmenter.term(token)
            return isPrefix ? quoted + "*" : quoted
        }.joined(separator: anyWord ? " OR " : " ")
    }

    /// `search` as people and agents want it: every word, or, when no note has every word of a query of
    /// several, any of them (`anyWord` in the result says which answered).
    public func searchFallingBack(_ query: String, limit: Int) throws -> (hits: [SearchHit], anyWord: Bool) {
        let hits = try search(query, limit: limit)
        guard hits.isEmpty, query.split(whereSeparator: { $0.isWhitespace }).count > 1 else { return (hits, false) }
        return (try search(query, limit: limit, anyWord: true), true)
    }

    /// A snippet on one line: each line break (`\r\n`, `\n` or `\r`) a space.
    static func oneLine(_ snippet: String) -> String {
        String(snippet.map { $0.isNewline ? " " : $0 })
    }
}
