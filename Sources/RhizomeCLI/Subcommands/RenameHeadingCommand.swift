import ArgumentParser
import RhizomeCore
import RhizomeOperations

/// `rhizome rename-heading`: renames a heading and every link to it. A dry run with a diff unless `--write`.
struct RenameHeadingCommand: RhizomeSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "rename-heading",
        abstract: "Rename a heading and update every link to it (dry run with a diff unless --write).",
        discussion: "Links `[[Note#Old]]`, `[[Note#Parent#Old|shown]]`, `![[Note#Old]]`, `[x](Note.md#Old)` and `[[#Old]]` in the note itself follow; only the heading's text and those subpaths change. Journaled: `rhizome undo --write` reverses it.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The note (resolved like a wikilink).", completion: NoteCompletion.kind) var note: String
    @Argument(help: "The heading's current text (without #).") var old: String
    @Argument(help: "Its new text.") var new: String
    @Flag(help: "Apply the change (default: show it).") var write = false
    @Flag(help: "Let heading links that reach no heading now reach the renamed one (refused otherwise).") var resolveLinks = false

    func execute(in context: CommandContext) throws -> ExitStatus {
        let session = try VaultSession.open(global, context: context, writes: true)
        let editor = try session.editor()
        let plan = try editor.planRenameHeading(old, to: new, in: note, resolvingLinks: resolveLinks)
        let operation = write ? try editor.apply(plan) : nil
        if global.json {
            printJSON(MoveReport(plan, operation: operation), vault: session.vaultPath, context: context)
            return .success
        }
        for change in plan.changes where operation == nil {
            context.print(UnifiedDiff.render(old: change.oldBytes, new: change.newBytes, path: change.path), terminator: "")
        }
        let links = "\(plan.linkCount) link\(plan.linkCount == 1 ? "" : "s") in \(plan.changes.count) file\(plan.changes.count == 1 ? "" : "s")"
        for link in plan.newlyResolved {
            context.print("note: \(link.path):\(link.line):\(link.column): the link to `\(link.linkPath)`, which reaches no heading now, will reach \(link.target)")
        }
        context.print(operation.map { "renamed \(plan.source) → \(plan.destination); updated \(links). Undo with `rhizome undo --write` (operation \($0.id))." }
                      ?? "would rename \(plan.source) → \(plan.destination) and update \(links). Nothing was changed: add --write to apply.")
        return .success
    }
}
