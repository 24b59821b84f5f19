import Foundation
import Testing
import RhizomeCore
import RhizomeOperations
import RhizomeStore
import RhizomeTestSupport

/// Writes stay inside the vault when symlinks lead out of it: a destination folder, the trash, a moved
/// symlink or a folder holding one. Real folders and symlinks in temporary directories; every refusal
/// leaves both the vault and the folder outside as they were.
@Suite struct VaultBoundaryTests {
    /// A vault with `Target.md` linked from `A.md`, and a folder outside it holding one file.
    func vaultAndOutside() throws -> (vault: TemporaryVault, outside: URL, editor: VaultEditor) {
        let vault = try TemporaryVault()
        try vault.write("A.md", "see [[Target]]\n")
        try vault.write("Target.md", "t\n")
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("rhizome-outside-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: outside.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try Data("o\n".utf8).write(to: outside.appendingPathComponent("sub/o.md"))
        return (vault, outside, try VaultEditor(vaultPath: vault.path, databasePath: vault.databasePath, store: try indexed(vault)))
    }

    func indexed(_ vault: TemporaryVault) throws -> IndexStore {
        _ = try vault.index()
        return try vault.store()
    }

    /// The error a plan is refused with; nil when it is allowed.
    func refusal(_ make: () throws -> MovePlan) -> EditError? {
        do {
            _ = try make()
            return nil
        } catch {
            return error as? EditError
        }
    }

    func contents(_ folder: URL) -> [String] {
        (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).sorted()
    }

    @Test func `a move into a folder that is a symlink to elsewhere is refused, however deep the new path`() throws {
        let (vault, outside, editor) = try vaultAndOutside()
        defer { try? FileManager.default.removeItem(at: outside) }
        try vault.symlink("ext", to: outside.path)
        for destination in ["ext/T.md", "ext/", "ext/new/deeper/T.md", "ext/sub/"] {
            let error = refusal { try editor.planMove("Target", to: destination) }
            #expect(error?.code == "protected-path", "\(destination)")
            #expect(error?.description.contains("outside the vault") == true, "\(String(describing: error))")
        }
        #expect(contents(outside) == ["sub", "sub/o.md"])
        #expect(try vault.read("Target.md") == "t\n")
    }

    @Test func `a note reached through a folder symlinked to elsewhere is not moved or trashed out of it`() throws {
        let (vault, outside, _) = try vaultAndOutside()
        defer { try? FileManager.default.removeItem(at: outside) }
        try vault.symlink("ext", to: outside.path)
        // And the vault's own parent, reached through `up`.
        try vault.symlink("up", to: "..")
        let editor = try VaultEditor(vaultPath: vault.path, databasePath: vault.databasePath, store: try indexed(vault))
        #expect(refusal { try editor.planMove("ext/sub/o.md", to: "Stolen.md") }?.code == "refused")
        #expect(refusal { try editor.planMove("o", to: "Stolen.md") }?.code == "refused")
        #expect(throws: EditError.self) { try editor.planTrash(["ext/sub/o.md"]) }
        #expect(contents(outside) == ["sub", "sub/o.md"])
        #expect(FileSystemEntry.at(vault.path + "/Stolen.md") == .missing)
    }

    @Test func `a symlink put in a planned folder's place before the write stops it, with nothing made outside`() throws {
        let (vault, outside, editor) = try vaultAndOutside()
        defer { try? FileManager.default.removeItem(at: outside) }
        let plan = try editor.planMove("Target", to: "nd/new/T.md")
        try vault.symlink("nd", to: outside.path)
        #expect(throws: EditError.self) { try editor.apply(plan) }
        #expect(contents(outside) == ["sub", "sub/o.md"], "no folder or file was made outside")
        #expect(try vault.read("Target.md") == "t\n")
        #expect(try vault.read("A.md") == "see [[Target]]\n")
    }

    @Test func `a folder symlinked inside the vault is a fine destination`() throws {
        let (vault, outside, editor) = try vaultAndOutside()
        defer { try? FileManager.default.removeItem(at: outside) }
        try vault.write("Real/x.md", "x\n")
        try vault.symlink("Alias", to: "Real")
        let plan = try editor.planMove("Target", to: "Alias/New/T.md")
        #expect(plan.destination == "Alias/New/T.md")
    }

    @Test func `new notes are not created through a symlink that leads out`() throws {
        let (vault, outside, editor) = try vaultAndOutside()
        defer { try? FileManager.default.removeItem(at: outside) }
        try vault.symlink("ext", to: outside.path)
        #expect(throws: (any Error).self) { try editor.planCreate(at: "ext/Made.md", text: "m\n") }
        #expect(throws: (any Error).self) { try editor.planCreate(at: "ext/sub/deeper/Made", text: "m\n") }
        #expect(contents(outside) == ["sub", "sub/o.md"])
    }

    @Test func `a trash folder that is a symlink to elsewhere refuses rm`() throws {
        let (vault, outside, editor) = try vaultAndOutside()
        defer { try? FileManager.default.removeItem(at: outside) }
        try vault.symlink(".trash", to: outside.path)
        #expect(throws: (any Error).self) { try editor.planTrash(["Target"]) }
        #expect(try vault.read("Target.md") == "t\n")
        #expect(contents(outside) == ["sub", "sub/o.md"])
    }

    @Test func `a symlink leading out, or a folder holding one, does not move`() throws {
        let (vault, outside, _) = try vaultAndOutside()
        defer { try? FileManager.default.removeItem(at: outside) }
        try vault.symlink("linkout", to: outside.path)
        try vault.write("Folder/f.md", "f\n")
        try vault.symlink("Folder/inner", to: outside.path + "/sub")
        try vault.write("Other/g.md", "g\n")
        try vault.symlink("Other/rel", to: "../A.md")
        let editor = try VaultEditor(vaultPath: vault.path, databasePath: vault.databasePath, store: try indexed(vault))
        for source in ["linkout", "Folder", "Other"] {
            let error = refusal { try editor.planMove(source, to: "Moved/") }
            #expect(error?.code == "refused", "\(source): \(String(describing: error))")
            #expect(throws: (any Error).self, "rm \(source)") { try editor.planTrash([source]) }
        }
        #expect(FileSystemEntry.at(vault.path + "/linkout") == .symlink(target: outside.path, resolves: true))
        #expect(contents(outside) == ["sub", "sub/o.md"])
    }
}
