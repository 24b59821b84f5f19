import ArgumentParser
import RhizomeCore
import RhizomeStore

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
        var options = FixPlanner.Options(populate: populate, unsafe: unsafe, reorder: reorder)
        options.takenIDs = Set(try session.store.typedNotes().compactMap(\.id))

        var rewrite = try NoteRewrite(vaultPath: session.vaultPath, write: write)
        for path in notePaths where filter.includes(path) && !catalog.config.isExcluded(path) {
            guard let (diskPath, bytes) = rewrite.read(path) else { continue }
            let frontmatter = NoteParser.frontmatter(bytes, path: path)  // the body is not needed
            let typing = catalog.classify(frontmatter, path: path)
            guard frontmatter != nil || typing.schema != nil else { continue }
            var editor: FrontmatterEditor
            do {
                editor = try FrontmatterEditor(fileBytes: bytes)
            } catch {
                // Flow-style or JSON frontmatter is valid, just not editable line by line: nothing to report.
                if error != .notBlockStyle, frontmatter != nil || options.populate { rewrite.skip(path, error.description) }
                continue
            }
            let fixes = FixPlanner.apply(to: &editor, frontmatter: frontmatter, typing: typing, path: path, options: options)
            // Two notes in this run must not be given the same inferred id either.
            if let field = typing.schema?.id?.field, let id = editor.value(forKey: field).flatMap({ $0.value.scalarText }) { options.takenIDs.insert(id) }
            guard !fixes.isEmpty else { continue }
            rewrite.apply(path: path, diskPath: diskPath, bytes: bytes, newBytes: editor.renderedBytes(), fixes: fixes)
        }
        let fixTotal = rewrite.changes.reduce(0) { $0 + $1.fixes.count }
        try rewrite.commit(vaultPath: session.vaultPath, databasePath: session.databasePath, kind: "fix",
                           summary: "fix \(rewrite.changes.count) note\(rewrite.changes.count == 1 ? "" : "s") (\(fixTotal) fix\(fixTotal == 1 ? "" : "es"))")
        let (changes, skipped) = (rewrite.changes, rewrite.skipped)
        if write && !changes.isEmpty {
            _ = try VaultSession.open(global, context: context)  // the index follows the rewritten notes
        }

        let fixCount = changes.reduce(0) { $0 + $1.fixes.count }
        if global.json {
            printJSON(rewrite.report, vault: session.vaultPath, context: context)
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
