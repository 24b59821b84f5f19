/// `FixOperation` and `TypeMigration`, the operations behind `rhizome fix` and `rhizome types migrate`,
/// driven directly on real files: a dry run changes nothing, a write changes only the frontmatter lines a
/// fix names (the body and line endings keep every byte), and `undo` brings back the notes as they were.
import Foundation
import Testing
import RhizomeCore
import RhizomeStore
import RhizomeOperations
import RhizomeTestSupport

@Suite struct NoteRewriteOperationTests {
    static let idea = "---\r\ntype: idea\r\ntitle: Compost\r\nstatus: seed\r\ntag: garden\r\n---\r\n# Compost\r\nBody with `tag: code` and [[Links]].\r\n"

    @Test func `fix plans without writing, then writes only the frontmatter, and undo restores the bytes`() throws {
        let vault = try TemporaryVault()
        try vault.write("Ideas/Compost.md", Self.idea)
        try vault.write("Plain.md", "No frontmatter here.\n")
        _ = try vault.index()
        let catalog = try SchemaCatalog.load(vaultRoot: vault.path)

        let dryRun = try FixOperation(vaultPath: vault.path, databasePath: vault.databasePath, options: .init(), write: false)
            .run(store: try vault.store(), catalog: catalog)
        #expect(dryRun.operation == nil && !dryRun.report.wrote)
        #expect(dryRun.report.changes.map(\.path) == ["Ideas/Compost.md"])
        #expect(dryRun.report.changes.first?.fixes.contains { $0.code == "legacy-key" } == true, "\(dryRun.report.changes)")
        #expect(dryRun.report.changes.first?.diff.contains("-tag: garden") == true)
        #expect(try vault.read("Ideas/Compost.md") == Self.idea, "a dry run writes nothing")

        let written = try FixOperation(vaultPath: vault.path, databasePath: vault.databasePath, options: .init(), write: true)
            .run(store: try vault.store(), catalog: catalog)
        #expect(written.operation != nil && written.report.changes.allSatisfy(\.written))
        let after = try vault.read("Ideas/Compost.md")
        #expect(after.contains("tags:") && !after.contains("\ntag: garden"))
        #expect(after.hasSuffix("---\r\n# Compost\r\nBody with `tag: code` and [[Links]].\r\n"), "the body keeps every byte: \(after.debugDescription)")
        #expect(try vault.read("Plain.md") == "No frontmatter here.\n")

        let editor = try VaultEditor(vaultPath: vault.path, databasePath: vault.databasePath, store: try vault.store())
        try editor.apply(try editor.planUndo())
        #expect(try vault.read("Ideas/Compost.md") == Self.idea)
    }

    @Test func `fix leaves out the notes the caller excludes`() throws {
        let vault = try TemporaryVault()
        try vault.write("Ideas/Compost.md", Self.idea)
        try vault.write("Other/Worms.md", Self.idea.replacingOccurrences(of: "Compost", with: "Worms"))
        _ = try vault.index()
        let report = try FixOperation(vaultPath: vault.path, databasePath: vault.databasePath, options: .init(), write: false)
            .run(store: try vault.store(), catalog: try SchemaCatalog.load(vaultRoot: vault.path), includes: { $0.hasPrefix("Other/") }).report
        #expect(report.changes.map(\.path) == ["Other/Worms.md"])
    }

    @Test func `a type migration rewrites only the type line of the notes of that type`() throws {
        let vault = try TemporaryVault()
        try vault.write("Ideas/Compost.md", Self.idea)
        try vault.write("Plans/Dig.md", "---\ntype: plan\ntitle: Dig\n---\nDig the bed.\n")
        _ = try vault.index()
        let migration = TypeMigration(vaultPath: vault.path, databasePath: vault.databasePath, typeKey: "type", write: true)
        let result = try migration.run(from: "idea", to: "thought", store: try vault.store())
        #expect(result.report.changes.map(\.path) == ["Ideas/Compost.md"])
        #expect(try vault.read("Ideas/Compost.md") == Self.idea.replacingOccurrences(of: "type: idea", with: "type: thought"))
        #expect(try vault.read("Plans/Dig.md") == "---\ntype: plan\ntitle: Dig\n---\nDig the bed.\n")
    }
}
