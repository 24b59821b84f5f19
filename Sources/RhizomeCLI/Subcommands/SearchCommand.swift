import ArgumentParser
import Foundation
import RhizomeStore

/// `rhizome search QUERY`: ranked full-text search with snippets.
struct SearchCommand: RhizomeSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Full-text search over note titles and bodies, ranked (BM25, titles weigh more), with snippets.",
        discussion: "Every word must occur (diacritics and case are ignored); end a word with * for a prefix. --raw passes SQLite FTS5 syntax through (OR, NOT, \"phrases\", NEAR).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Words to search for.")
    var query: [String]

    @Option(name: .long, help: "At most this many results.")
    var limit = 20

    @Flag(name: .long, help: "Treat the query as FTS5 syntax.")
    var raw = false

    func validate() throws {
        guard limit >= 1 else { throw ValidationError("--limit must be at least 1") }
        guard query.contains(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) else {
            throw ValidationError("give at least one word to search for")
        }
    }

    func execute(in context: CommandContext) throws -> ExitStatus {
        let session = try VaultSession.open(global, context: context)
        let text = query.joined(separator: " ")
        let hits: [SearchHit]
        let total: Int
        do {
            hits = try session.store.search(text, limit: limit, raw: raw)
            total = hits.count < limit ? hits.count : try session.store.searchCount(text, raw: raw)
        } catch let error as StoreError {
            guard raw, case .sqlite(_, let message, _) = error else { throw error }
            throw CLIError.searchSyntax(query: text, reason: message)
        }
        if global.json {
            printJSON(hits, total: total, vault: session.vaultPath, context: context)
            return .success
        }
        if total > hits.count {
            context.print("showing \(hits.count.grouped) of \(total.grouped) results for \(text); --limit to see more")
        } else {
            context.print("\(hits.count) result\(hits.count == 1 ? "" : "s") for \(text)")
        }
        for hit in hits {
            context.print("  \(hit.path)")
            context.print("      \(hit.snippet)")
        }
        return .success
    }
}
