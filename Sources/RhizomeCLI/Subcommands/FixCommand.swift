import ArgumentParser
import RhizomeCore
import RhizomeStore
import RhizomeOperations

/// `rhizome fix`: repairs frontmatter that a schema (or Obsidian's own rules) says is wrong, when the
/// repair is safe. A dry run (a diff) unless `--write`.
struct FixCommand: RhizomeSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "fix",
        abstract: "Repair frontmatter safely (dry run with a diff unless --write).",
        discussion: """
            Safe fixes: legacy tag/alias/cssclass keys renamed, a scalar where a list belongs made a list, dates \
            written as YYYY-MM-DD, unquoted [[links]] quoted, keys put in the schema's order. --populate also adds \
            missing fields that have defaults and ids the schema can infer; --unsafe also removes keys a strict \
            schema does not know. Only the frontmatter is rewritten: the body and untouched keys keep their bytes, \
            and each file is replaced atomically.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Notes or folders to fix (default: the whole vault).")
    var paths: [String] = []

    @Flag(help: "Write the changes (default: show them).")
    var write = false

    @Flag(help: "Also add missing fields that have defaults, and inferable ids.")
    var populate = false

    @Flag(help: "Also remove keys that a strict schema does not know.")
    var unsafe = false

    @Flag(help: "Put keys in the schema's order in every note (by default only notes changed for another fix are reordered).")
    var reorder = false

    func execute(in context: CommandContext) throws -> ExitStatus {
        let vault = try VaultLocator.locate(explicit: global.vault, environment: context.environment, currentDirectory: context.currentDirectory)
        let catalog = try SchemaCatalog.load(vaultRoot: vault)
        let session = try VaultSession.open(global, context: context, writes: write)
        let notePaths = try session.store.notePaths()
        let filter = try PathFilter(paths, vaultPath: session.vaultPath, context: context, knownPaths: notePaths, resolveNote: { try? session.store.resolveNote($0)?.path })
        let fix = FixOperation(vaultPath: session.vaultPath, databasePath: session.databasePath,
                               options: FixPlanner.Options(populate: populate, unsafe: unsafe, reorder: reorder), write: write)
        let report = try fix.run(store: session.store, catalog: catalog, includes: filter.includes).report
        let (changes, skipped) = (report.changes, report.skipped)
        if write && !changes.isEmpty {
            _ = try VaultSession.open(global, context: context)  // the index follows the rewritten notes
        }

        let fixCount = changes.reduce(0) { $0 + $1.fixes.count }
        if global.json {
            printJSON(report, vault: session.vaultPath, context: context)
        } else {
            for change in changes {
                context.print(change.diff, terminator: "")
                for fix in change.fixes { context.print("  · " + fix.description) }
                context.print()
            }
            for item in skipped { context.printError("warning: \(item.path): not fixed: \(item.reason)") }
            let notes = "\(changes.count) note\(changes.count == 1 ? "" : "s")"
            let fixes = "\(fixCount) fix\(fixCount == 1 ? "" : "es")"
            if changes.isEmpty {
                context.print("nothing to fix" + (skipped.isEmpty ? "" : " (\(skipped.count) skipped)"))
            } else if write {
                context.print("fixed \(notes) (\(fixes))")
            } else {
                context.print("\(notes) would change (\(fixes)). Run `rhizome fix --write\(populate ? " --populate" : "")\(unsafe ? " --unsafe" : "")` to apply.")
            }
        }
        return .success
    }
}

extension CommandContext {
    func print(_ text: String, terminator: String) { standardOutput.write(text + terminator) }
}
