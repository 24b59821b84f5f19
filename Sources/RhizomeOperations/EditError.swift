import RhizomeCore

/// Why a change to the vault was refused or failed. Every case leaves the vault as it was (a failure in
/// the middle of a journaled change is completed or rolled back: `OperationJournal`).
public enum EditError: ExplainedError, Equatable {
    /// No file or folder at the vault path (or no note that the argument resolves to).
    case sourceNotFound(argument: String, suggestions: [String])
    /// Something is already at the destination: Rhizome never overwrites.
    case destinationExists(path: String)
    /// A path outside the vault (`..`, an absolute path elsewhere).
    case outsideVault(path: String)
    /// A path in a folder Rhizome does not write to (`.obsidian/`, `.trash/` as a destination, hidden folders).
    case protectedPath(path: String, reason: String)
    /// A folder moved into itself or one of its own subfolders.
    case intoItself(source: String, destination: String)
    /// A name no link can reach, or that is not a file name.
    case invalidName(path: String, reason: String)
    /// A file Rhizome will not move or rewrite (a symlink leading outside the vault, a read-only file).
    case refused(path: String, reason: String)
    /// Links that no rewrite can keep reaching their files.
    case linksCannotBeKept(problems: [RelinkPlanner.Problem])
    /// A file changed on disk after the plan was made.
    case changedSincePlanned(path: String)
    /// The vault's settings say deleted files do not go to `.trash/`.
    case trashNotLocal(option: String)
    case nothingToUndo
    /// The last operation cannot be undone: one of its files changed since.
    case undoBlocked(operation: String, path: String, reason: String)
    /// Another Rhizome process is changing this vault.
    case busy(lockPath: String)
    /// A system call failed.
    case io(path: String, operation: String, reason: String)
    /// The note is not the version the caller read (`expectedHash`).
    case hashMismatch(path: String, expected: String, actual: String)
    /// A note was expected (an attachment or folder was named).
    case notANote(path: String)
    /// No heading of that text in the note.
    case headingNotFound(path: String, heading: String, headings: [String])
    /// A new heading name links cannot reach, or one that would take links to another heading of the note.
    case invalidHeading(path: String, heading: String, reason: String)
    /// Links that reach nothing now would reach a file (or heading) after the change; allowed only when asked.
    case wouldResolveLinks(links: [RelinkPlanner.NewlyResolved])
    /// The edit would make the note invalid against its schema.
    case invalidResult(path: String, findings: [Finding])
    /// The frontmatter cannot be edited line by line (invalid YAML, flow style, unclosed).
    case frontmatterNotEditable(path: String, reason: String)
    /// A property key or value that cannot be written.
    case invalidProperty(key: String, reason: String)

    public var code: String {
        switch self {
        case .sourceNotFound: return "not-found"
        case .destinationExists: return "destination-exists"
        case .outsideVault: return "outside-vault"
        case .protectedPath: return "protected-path"
        case .intoItself: return "move-into-itself"
        case .invalidName: return "invalid-name"
        case .refused: return "refused"
        case .linksCannotBeKept: return "links-cannot-be-kept"
        case .changedSincePlanned: return "changed-on-disk"
        case .trashNotLocal: return "trash-not-local"
        case .nothingToUndo: return "nothing-to-undo"
        case .undoBlocked: return "undo-blocked"
        case .busy: return "vault-busy"
        case .io: return "io-error"
        case .hashMismatch: return "changed-since-read"
        case .notANote: return "not-a-note"
        case .headingNotFound: return "heading-not-found"
        case .invalidResult: return "schema-violation"
        case .frontmatterNotEditable: return "frontmatter-not-editable"
        case .invalidProperty: return "invalid-property"
        case .invalidHeading: return "invalid-heading"
        case .wouldResolveLinks: return "would-resolve-links"
        }
    }

    public var isUserMistake: Bool {
        switch self {
        case .io: return false
        // Exit 2 when every problem is the user's to fix; 70 when a rewrite did not read back as planned.
        case .linksCannotBeKept(let problems): return !problems.contains(where: \.isRhizomeFault)
        default: return true
        }
    }

    /// What went wrong, then how to fix it where that can be said apart (`RhizomeError.fix`).
    public var message: ErrorMessage {
        switch self {
        case .sourceNotFound(let argument, let suggestions):
            let problem = "nothing in the vault matches `\(argument)` (a note name resolved like a wikilink, or a vault-relative path of a file or folder)"
            return suggestions.isEmpty ? ErrorMessage(problem) : ErrorMessage(problem, ". ", "Did you mean: " + suggestions.joined(separator: ", ") + "?")
        case .destinationExists(let path):
            return ErrorMessage("\(path) already exists, and Rhizome never overwrites a file. Nothing was changed", ": ", "choose another name, or move that file away first.")
        case .outsideVault(let path):
            return ErrorMessage("\(path) is outside the vault. Nothing was changed", ": ", "give a path inside the vault, relative to its root (no `..`).")
        case .protectedPath(let path, let reason):
            return ErrorMessage("\(path): \(reason). Nothing was changed.")
        case .intoItself(let source, let destination):
            return ErrorMessage("the folder \(source) cannot be moved into itself (\(destination)). Nothing was changed.")
        case .invalidName(let path, let reason):
            return ErrorMessage("\(path) is not a name Rhizome will give a file: \(reason). Nothing was changed.")
        case .refused(let path, let reason):
            return ErrorMessage("\(path) was left as it was: \(reason). Nothing was changed.")
        case .linksCannotBeKept(let problems):
            let listed = problems.prefix(10).map { "  " + $0.description }.joined(separator: "\n")
            let more = problems.count > 10 ? "\n  … and \(problems.count - 10) more" : ""
            return ErrorMessage("the change would break links that Rhizome cannot rewrite safely, so nothing was changed:\n\(listed)\(more)")
        case .changedSincePlanned(let path):
            return ErrorMessage("\(path) changed on disk while the change was being made, so it was stopped and nothing was left half done", ". ", "Run the command again.")
        case .trashNotLocal(let option):
            return ErrorMessage(
                "this vault's Obsidian settings delete files \(option == "none" ? "for good" : "to the system trash") (`trashOption: \(option)` in .obsidian/app.json), and Rhizome only moves files to the vault's .trash/ folder. Nothing was changed",
                ": ", "pass --local-trash to use .trash/ anyway, or set \"Deleted files\" to \"Move to Obsidian trash\" in Obsidian's settings.")
        case .nothingToUndo:
            return ErrorMessage("there is nothing to undo: every change Rhizome recorded for this vault's index is undone already, or none was made (see `rhizome history`).")
        case .undoBlocked(let operation, let path, let reason):
            return ErrorMessage("cannot undo \(operation): \(path) \(reason) since. Nothing was changed", "; ", "undo that change by hand, or leave it.")
        case .busy(let lockPath):
            return ErrorMessage("another Rhizome process is changing this vault (it holds \(lockPath)). Nothing was changed", ": ", "wait for it to finish and run the command again.")
        case .io(let path, let operation, let reason):
            return ErrorMessage("could not \(operation) \(path): \(reason)", ". ", "Check that the folder exists and is writable and that the disk has space.")
        case .hashMismatch(let path, let expected, let actual):
            return ErrorMessage("\(path) changed since it was read (expected hash \(expected), it is now \(actual)). Nothing was changed", ": ", "read it again and redo the edit.")
        case .notANote(let path):
            return ErrorMessage("\(path) is not a note (a markdown file); this edit only applies to notes. Nothing was changed.")
        case .headingNotFound(let path, let heading, let headings):
            let known = headings.isEmpty ? "it has no headings" : "its headings: " + headings.prefix(20).map { "`\($0)`" }.joined(separator: ", ")
            return ErrorMessage("\(path) has no heading `\(heading)` (\(known)). Nothing was changed.")
        case .invalidResult(let path, let findings):
            let listed = findings.prefix(10).map { "  " + $0.message + ($0.fix.map { " (fix: \($0))" } ?? "") }.joined(separator: "\n")
            return ErrorMessage("the change would make \(path) invalid against its schema, so nothing was changed:\n\(listed)", "\n", "Give a valid value, or pass --force to write it anyway.")
        case .frontmatterNotEditable(let path, let reason):
            return ErrorMessage("\(path): \(reason)")
        case .invalidHeading(let path, let heading, let reason):
            return ErrorMessage("`\(heading)` cannot be the new name of the heading in \(path): \(reason). Nothing was changed.")
        case .wouldResolveLinks(let links):
            let listed = links.prefix(10).map { "  \($0.path):\($0.line):\($0.column): `\($0.linkPath)` would reach \($0.target)" }.joined(separator: "\n")
            let more = links.count > 10 ? "\n  … and \(links.count - 10) more" : ""
            return ErrorMessage(
                "the change would give \(links.count == 1 ? "a link that reaches" : "\(links.count) links that reach") nothing now a target, so nothing was changed:\n\(listed)\(more)",
                "\n", "choose another name, or allow it (`--resolve-links`; `resolveLinks: true` over MCP) if those links mean the new name.")
        case .invalidProperty(let key, let reason):
            return ErrorMessage("the property `\(key)` cannot be written: \(reason). Nothing was changed.")
        }
    }
}
