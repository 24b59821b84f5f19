import RhizomeCore
import RhizomeStore

/// `rhizome types migrate FROM TO` as an operation: every note whose type property says `from` gets `to`,
/// only that line rewritten. Without `write` it only plans (each note's diff); with it, one journaled
/// operation (undo reverses it). The caller brings the index up to date afterwards.
public struct TypeMigration {
    public var vaultPath: String
    public var databasePath: String
    public var typeKey: String
    public var write: Bool

    public init(vaultPath: String, databasePath: String, typeKey: String, write: Bool) {
        self.vaultPath = vaultPath
        self.databasePath = databasePath
        self.typeKey = typeKey
        self.write = write
    }

    public func run(from: String, to: String, store: IndexStore) throws -> (report: NoteRewrite.Report, operation: VaultOperation?) {
        var rewrite = try NoteRewrite(vaultPath: vaultPath, write: write)
        for path in try store.notes(withTypeValue: from, key: typeKey) {
            guard let (diskPath, bytes) = rewrite.read(path) else { continue }
            var editor: FrontmatterEditor
            do {
                editor = try FrontmatterEditor(fileBytes: bytes)
            } catch {
                rewrite.skip(path, error.description)
                continue
            }
            guard editor.setValue(.string(to), forKey: typeKey) else {
                rewrite.skip(path, "the `\(typeKey)` line could not be rewritten")
                continue
            }
            let fix = FixPlanner.AppliedFix(code: "type-migration", key: typeKey, description: "\(typeKey): \(from) → \(to)")
            rewrite.apply(path: path, diskPath: diskPath, bytes: bytes, newBytes: editor.renderedBytes(), fixes: [fix])
        }
        let notes = rewrite.changes.count
        let operation = try rewrite.commit(vaultPath: vaultPath, databasePath: databasePath, kind: "types migrate",
                                           summary: "types migrate \(from) → \(to) (\(notes) note\(notes == 1 ? "" : "s"))")
        return (rewrite.report, operation)
    }
}
