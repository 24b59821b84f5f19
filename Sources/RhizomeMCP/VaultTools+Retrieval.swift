import Foundation
import MCP
import RhizomeCore
import RhizomeStore

/// The `relevant_notes` tool: the notes `rhizome explore` would quote for a question, without asking a
/// model. Where `search` wants words that occur in the notes, this takes a question as a person asks it.
extension VaultTools {
    static let retrievalCatalog: [Entry] = [
        Entry(
            tool: tool("relevant_notes", title: "Notes that answer a question",
                       """
                       The notes most likely to answer a question asked in natural language (English, Chinese or Japanese), best first: \
                       the retrieval `rhizome explore` uses before it asks a model, without the model. Words are matched by their stems \
                       and a glossary of Obsidian's terms; a note ranks higher as the question names its title, as it links to or from \
                       the best matches, and as it is newer. Returns each note's path, name, score (text + graph + recency, higher is \
                       better), the three parts, modified (ns since 1970) and its date property. Use `search` for exact words, \
                       `read_note` to read what this finds.
                       """,
                       properties: ["question": string("The question, as you would ask it."), "limit": limit(default: 10, maximum: 50, what: "notes")],
                       required: ["question"]),
            run: { _, arguments, store in
                let limit = try arguments.int("limit", default: 10, in: 1...50)
                let question = try arguments.string("question")
                guard !question.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                    throw ToolError.invalidArgument("`question` is empty")
                }
                // One more than asked says whether there are more.
                let notes = try store.relevantNotes(for: question, limit: limit + 1)
                return ToolOutput(Array(notes.prefix(limit)), total: nil, truncated: notes.count > limit,
                                  note: notes.isEmpty ? "no note has any word of the question; try other words" : nil)
            }),
    ]
}
