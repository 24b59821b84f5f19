import RhizomeCore

/// Errors of the command-line layer, with stable codes for `--json`.
enum CLIError: RhizomeError {
    case noteNotFound(argument: String, suggestions: [String])
    case invalidArgument(String)
    case searchSyntax(query: String, reason: String)
    case baseNotFound(argument: String, suggestions: [String])

    var code: String {
        switch self {
        case .noteNotFound: return "note-not-found"
        case .invalidArgument: return "invalid-argument"
        case .searchSyntax: return "search-syntax"
        case .baseNotFound: return "base-not-found"
        }
    }

    var description: String {
        switch self {
        case .noteNotFound(let argument, let suggestions):
            var text = "no note matches `\(argument)` (a NOTE resolves like a wikilink: `Note`, `Folder/Note` or `Note.md`)"
            if !suggestions.isEmpty { text += ". Did you mean: " + suggestions.joined(separator: ", ") + "?" }
            return text
        case .invalidArgument(let message):
            return message
        case .searchSyntax(let query, let reason):
            return "the search `\(query)` is not valid FTS5 syntax (\(reason)). Drop --raw to search for plain words."
        case .baseNotFound(let argument, let suggestions):
            var text = "no .base file matches `\(argument)` (FILE resolves like a wikilink, with or without `.base`)"
            text += suggestions.isEmpty ? ". This vault has no .base files" : ". Did you mean: " + suggestions.joined(separator: ", ") + "?"
            return text
        }
    }
}

extension CLIError {
    /// Every CLI error is about what was asked.
    var isUserMistake: Bool { true }
}
