import ArgumentParser
import RhizomeCore
import RhizomeOperations

/// `rhizome rm`: moves notes, files or folders to the vault's `.trash/` folder (Obsidian's "Move to
/// Obsidian trash"), never deleting anything. A dry run unless `--write`.
struct TrashCommand: RhizomeSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Move notes, files or folders to the vault's .trash/ (dry run unless --write).",
        discussion: """
            Nothing is deleted: files go to .trash/ (a name taken there gets " 1", " 2" …), and `rhizome undo --write` \
            brings them back. Lists the links elsewhere that will no longer reach a file. When .obsidian/app.json \
            sends deleted files to the system trash or deletes them for good, rm refuses unless --local-trash.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Notes (resolved like wikilinks), or vault-relative paths of files or folders.")
    var paths: [String]

    @Flag(help: "Apply the change (default: show it).")
    var write = false

    @Flag(help: "Use .trash/ even when the vault's Obsidian settings delete files elsewhere.")
    var localTrash = false

    func execute(in context: CommandContext) throws -> ExitStatus {
        guard !paths.isEmpty else { throw CLIError.invalidArgument("name at least one note, file or folder to move to the trash") }
        let session = try VaultSession.open(global, context: context, writes: true)
        let editor = try session.editor()
        let plan = try editor.planTrash(paths, allowLocalTrash: localTrash)
        let operation = write ? try editor.apply(plan) : nil
        if global.json {
            printJSON(TrashReport(plan, operation: operation), vault: session.vaultPath, context: context)
            return .success
        }
        for move in plan.moves { context.print("\(move.from) → \(move.to)") }
        for link in plan.brokenLinks {
            let now = link.target.isEmpty ? "will be unresolved" : "will reach \(link.target) instead"
            context.print("  \(link.source):\(link.line):\(link.column): `\(link.linkPath)` \(now)")
        }
        let count = plan.moves.count
        if let operation {
            context.print("moved \(count) item\(count == 1 ? "" : "s") to .trash/. Undo with `rhizome undo --write` (operation \(operation.id)).")
        } else {
            context.print("would move \(count) item\(count == 1 ? "" : "s") to .trash/. Nothing was changed: add --write to apply.")
        }
        return .success
    }
}
