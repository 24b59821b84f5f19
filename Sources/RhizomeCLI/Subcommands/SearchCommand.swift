import ArgumentParser
import Foundation
import RhizomeCore
import RhizomeStore

/// `rhizome search QUERY`: ranked full-text search with snippets.
struct SearchCommand: RhizomeSubcommand {
    static let pagesOutput = true  // a list a terminal may page

    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Full-text search over note titles and bodies, ranked (BM25, titles weigh more), with snippets.",
        discussion: "Every word must occur (diacritics and case are ignored); end a word with * for a prefix. --raw passes SQLite FTS5 syntax through (OR, NOT, \"phrases\", NEAR).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Words to search for.")
    var query: [String]

    @Flag(name: .long, help: "Treat the query as FTS5 syntax.")
    var raw = false

    @Option(name: .long, help: "Print each matching line with its number and N lines around it, grouped by note (like rg -C N).")
    var context: Int?

    /// The list options, applied in SQL before the limit: `--folder`, `--tag`, `--type`; `--limit` (20 by
    /// default), `--offset`; `--sort relevance` (the default), `path` or `modified`; `--format`.
    @OptionGroup var shaping: ListShaping

    private var limit: Int { shaping.limit ?? 20 }

    func validate() throws {
        if let context, !(0...20).contains(context) { throw ValidationError("--context must be from 0 to 20 lines") }
        guard query.contains(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) else {
            throw ValidationError("give at least one word to search for")
        }
    }

    func execute(in context: CommandContext) throws -> ExitStatus {
        let session = try VaultSession.open(global, context: context)
        let text = query.joined(separator: " ")
        let scope = SearchScope(folders: shaping.folders, tag: shaping.tag, type: shaping.type)
        let order = try Self.order(shaping.sort)
        let offset = shaping.offset
        // Matches in terminal bold red (as ripgrep shows them) where the text goes to a terminal; in
        // markdown bold everywhere else, and always in JSON.
        let styled = context.stylesOutput && !global.json && (shaping.format ?? .text) == .text && self.context == nil
        let highlight: SearchScope.Highlight = styled ? .terminal : .markdown
        var hits: [SearchHit]
        var total: Int
        var anyWord = false
        do {
            hits = try session.store.search(text, limit: limit, offset: offset, raw: raw, scope: scope, order: order, highlight: highlight)
            total = offset == 0 && hits.count < limit ? hits.count : try session.store.searchCount(text, raw: raw, scope: scope)
            // No note has every word of several: notes with any of them, those with more first.
            if total == 0, !raw, text.split(whereSeparator: { $0.isWhitespace }).count > 1 {
                anyWord = true
                hits = try session.store.search(text, limit: limit, offset: offset, anyWord: true, scope: scope, order: order, highlight: highlight)
                total = offset == 0 && hits.count < limit ? hits.count : try session.store.searchCount(text, anyWord: true, scope: scope)
            }
        } catch let error as StoreError {
            guard raw, case .sqlite(_, let message, _) = error else { throw error }
            throw CLIError.searchSyntax(query: text, reason: message)
        }
        let note = anyWord ? "no note has every word; these notes have some of them, those with more first" : nil
        if note != nil, !global.json, !hits.isEmpty {
            // Said beside the list, never inside output meant for a program (paths, CSV, JSON lines).
            let message = "No note has every word of \(text); notes with some of them:"
            if (shaping.format ?? .text) == .text { context.print(message) } else if shaping.format != .json { context.printError(message) }
        }
        if let around = self.context {
            return try printLines(of: hits, total: total, around: around, session: session, context: context, note: note)
        }
        switch shaping.format ?? (global.json ? .json : .text) {
        case .json:
            printJSON(hits, total: total, vault: session.vaultPath, context: context, note: note)
        case .text:
            if total > hits.count {
                context.print("showing \(hits.count.grouped) of \(total.grouped) results for \(text)\(offset > 0 ? " from \(offset.grouped)" : ""); --limit and --offset to see more")
            } else {
                context.print("\(hits.count) result\(hits.count == 1 ? "" : "s") for \(text)")
            }
            for hit in hits {
                context.print("  \(hit.path)")
                context.print("      \(hit.snippet)")
            }
        default:
            let columns: [(name: String, value: (SearchHit) -> String)] = [("path", \.path), ("score", { String($0.score) }), ("snippet", \.snippet)]
            shaping.print(hits, total: total, columns: columns, path: \.path, command: self, session: session, context: context) {}
        }
        return .success
    }

    /// `--sort`: relevance (or score), path or modified, as the store orders hits.
    static func order(_ sort: String?) throws -> SearchScope.Order {
        guard let sort, let request = SortRequest(sort) else { return .relevance }
        switch request.field {
        case "relevance", "score": return .relevance
        case "path": return .path(descending: request.descending ?? false)
        case "modified": return .modified(descending: request.descending ?? true)
        default:
            throw request.unknownField(among: ["relevance", "path", "modified"])
        }
    }

    /// `--context N`: the lines of each hit that hold a query word, with N lines around (`MatchingLines`).
    private func printLines(
        of hits: [SearchHit], total: Int, around: Int, session: VaultSession, context: CommandContext, note: String?
    ) throws -> ExitStatus {
        let words = MatchingLines.words(of: query, raw: raw)
        var results: [LinesHit] = []
        for hit in hits {
            guard case .success(let bytes) = FileReader.read(DiskPath(session.vaultPath + "/" + hit.path), maxBytes: 16 << 20) else { continue }
            let found = MatchingLines(in: bytes, words: words, around: around)
            results.append(LinesHit(path: hit.path, score: hit.score, snippet: hit.snippet, matchingLines: found.matchingLines, lines: found.lines))
        }
        if global.json {
            printJSON(results, total: total, vault: session.vaultPath, context: context, note: note)
            return .success
        }
        let styled = context.stylesOutput
        for result in results {
            context.print(result.path)
            var previous: Int? = nil
            for line in result.lines {
                if let previous, line.line > previous + 1 { context.print("--") }
                let text = styled && line.match ? MatchingLines.highlighted(line.text, words: words, open: "\u{1B}[1;31m", close: "\u{1B}[0m") : line.text
                context.print("\(line.line)\(line.match ? ":" : "-")\(text)")
                previous = line.line
            }
            context.print("")
        }
        let matchingLines = results.reduce(0) { $0 + $1.matchingLines }
        var summary = "\(matchingLines.grouped) matching line\(matchingLines == 1 ? "" : "s") in \(results.count.grouped) note\(results.count == 1 ? "" : "s")"
        if total > hits.count { summary += " (of \(total.grouped) matching notes; --limit to see more)" }
        context.print(summary)
        return .success
    }

    /// A hit with the lines `--context` prints.
    struct LinesHit: Encodable {
        var path: String
        var score: Double
        var snippet: String
        var matchingLines: Int
        var lines: [MatchingLines.Line]
    }
}
