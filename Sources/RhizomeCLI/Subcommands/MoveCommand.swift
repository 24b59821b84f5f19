import ArgumentParser
import RhizomeCore
import RhizomeOperations

/// `rhizome mv`: renames or moves a note, file or folder and rewrites the links that would otherwise stop
/// reaching their files. A dry run with a diff unless `--write`.
struct MoveCommand: RhizomeSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "mv",
        abstract: "Rename or move a note, file or folder, keeping every link (dry run with a diff unless --write).",
        discussion: """
            SOURCE is a note (resolved like a wikilink), or a vault-relative path of a file or folder. DEST is a \
            vault-relative path; an existing folder, or a path ending in /, means "into this folder". A note keeps \
            its .md. Every link in the vault keeps reaching the file it reached (wikilinks, embeds, markdown links, \
            property links, canvas nodes), with new text written as .obsidian/app.json's newLinkFormat says; \
            links that still reach their file keep their text, and nothing else in any file changes. A link that \
            reaches nothing stays that way: a new name that would give it a target is refused unless \
            --resolve-links. The change \
            is journaled: a killed run is completed or reversed by the next command, and `rhizome undo --write` \
            reverses it.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The note, file or folder to move.", completion: NoteCompletion.kind)
    var source: String

    @Argument(help: "Where to: a new vault-relative path, or a folder (ending in / or existing).")
    var destination: String

    @Flag(help: "Apply the change (default: show it).")
    var write = false

    @Flag(help: "Let links that reach nothing now reach the moved file when its new name is theirs (refused otherwise).")
    var resolveLinks = false

    func execute(in context: CommandContext) throws -> ExitStatus {
        let session = try VaultSession.open(global, context: context, writes: true)
        let editor = try session.editor()
        let plan = try editor.planMove(source, to: destination, resolvingLinks: resolveLinks)
        let operation = write ? try editor.apply(plan) : nil
        if global.json {
            printJSON(MoveReport(plan, operation: operation), vault: session.vaultPath, context: context)
            return .success
        }
        // The diff is the dry run's answer; once written, one line per rewritten file is enough.
        for change in plan.changes {
            if operation == nil {
                context.print(UnifiedDiff.render(old: change.oldBytes, new: change.newBytes, path: change.path), terminator: "")
            } else {
                context.print("rewrote \(change.path): \(change.edits.count) link\(change.edits.count == 1 ? "" : "s")")
            }
        }
        let moved = plan.isFolder ? "\(plan.source)/ → \(plan.destination)/ (\(plan.moves.count) file\(plan.moves.count == 1 ? "" : "s"))" : "\(plan.source) → \(plan.destination)"
        let links = "\(plan.linkCount) link\(plan.linkCount == 1 ? "" : "s") in \(plan.changes.count) file\(plan.changes.count == 1 ? "" : "s")"
        for link in plan.newlyResolved {
            context.print("note: \(link.path):\(link.line):\(link.column): the unresolved link `\(link.linkPath)` will reach \(link.target)")
        }
        if let operation {
            context.print("moved \(moved); rewrote \(links). Undo with `rhizome undo --write` (operation \(operation.id)).")
        } else {
            context.print("would move \(moved) and rewrite \(links). Nothing was changed: add --write to apply.")
        }
        return .success
    }
}
