import RhizomeCore
import RhizomeStore

/// `rhizome fix` as an operation: repairs the frontmatter of the indexed notes that a schema (or Obsidian's
/// own rules) says is wrong, where the repair is safe (`FixPlanner`). Without `write` it only plans: each
/// note's diff and fixes. With it, every change is one journaled operation (undo reverses it); the caller
/// brings the index up to date afterwards.
public struct FixOperation {
    public var vaultPath: String
    public var databasePath: String
    public var options: FixPlanner.Options
    public var write: Bool

    public init(vaultPath: String, databasePath: String, options: FixPlanner.Options, write: Bool) {
        self.vaultPath = vaultPath
        self.databasePath = databasePath
        self.options = options
        self.write = write
    }

    /// Fixes the notes of `store` that `includes` (vault-relative paths) and the catalog does not exclude.
    /// Notes that cannot be read or rewritten are `skipped`, with the reason; flow-style or JSON frontmatter
    /// is valid, just not editable line by line, and is left alone silently.
    public func run(store: IndexStore, catalog: SchemaCatalog, includes: (String) -> Bool = { _ in true }) throws -> (report: NoteRewrite.Report, operation: VaultOperation?) {
        var options = options
        options.takenIDs.formUnion(try store.typedNotes().compactMap(\.id))
        var rewrite = try NoteRewrite(vaultPath: vaultPath, write: write)
        for path in try store.notePaths() where includes(path) && !catalog.config.isExcluded(path) {
            guard let (diskPath, bytes) = rewrite.read(path) else { continue }
            let frontmatter = NoteParser.frontmatter(bytes, path: path)  // the body is not needed
            let typing = catalog.classify(frontmatter, path: path)
            guard frontmatter != nil || typing.schema != nil else { continue }
            var editor: FrontmatterEditor
            do {
                editor = try FrontmatterEditor(fileBytes: bytes)
            } catch {
                if error != .notBlockStyle, frontmatter != nil || options.populate { rewrite.skip(path, error.description) }
                continue
            }
            let fixes = FixPlanner.apply(to: &editor, frontmatter: frontmatter, typing: typing, path: path, options: options)
            // Two notes in this run must not be given the same inferred id either.
            if let field = typing.schema?.id?.field, let id = editor.value(forKey: field).flatMap({ $0.value.scalarText }) { options.takenIDs.insert(id) }
            guard !fixes.isEmpty else { continue }
            rewrite.apply(path: path, diskPath: diskPath, bytes: bytes, newBytes: editor.renderedBytes(), fixes: fixes)
        }
        let notes = rewrite.changes.count, fixTotal = rewrite.changes.reduce(0) { $0 + $1.fixes.count }
        let operation = try rewrite.commit(vaultPath: vaultPath, databasePath: databasePath, kind: "fix",
                                           summary: "fix \(notes) note\(notes == 1 ? "" : "s") (\(fixTotal) fix\(fixTotal == 1 ? "" : "es"))")
        return (rewrite.report, operation)
    }
}
