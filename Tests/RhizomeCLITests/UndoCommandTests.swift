import Foundation
import Testing
import RhizomeTestSupport

/// `rhizome undo` after each kind of change the CLI makes (mv, rm, set, append, fix, types migrate, new):
/// the vault is byte for byte as before, and `history` lists the changes newest first.
@Suite struct UndoCommandTests {
    @Test func everyChangeTheCLIMakesCanBeUndone() throws {
        let harness = try CLIHarness()
        defer { harness.cleanUp() }
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        let original = try snapshot(vault.root)
        let base = ["--vault", vault.path, "--db", vault.databasePath]
        let changes: [[String]] = [
            ["mv", "SQLite FTS5 docs", "Reading/Databases/", "--write"],
            ["rm", "Quick Note", "--write"],
            ["set", "Project Alpha", "status=paused"],
            ["append", "Inbox", "- [ ] undo me", "--heading", "Inbox"],
            ["fix", "--write"],
            ["types", "migrate", "--from", "meeting", "--to", "session", "--write"],
            ["new", "person", "--title", "Ada Lovelace"],
        ]
        for arguments in changes {
            let result = harness.run(arguments + base)
            #expect(result.status == 0, "\(arguments): \(result.error)")
        }
        let applied = changes.count
        let history = harness.run(["history"] + base)
        #expect(history.output.split(separator: "\n").count == applied, "\(history.output)")
        for _ in 0..<applied {
            let undo = harness.run(["undo", "--write"] + base)
            #expect(undo.status == 0, "\(undo.error)")
        }
        #expect(harness.run(["undo"] + base).status == 2, "nothing left to undo")
        let now = try snapshot(vault.root)
        // Undone creations are in the trash, never deleted; everything else is as it was.
        #expect(now.filter { !$0.key.hasPrefix(".trash/") } == original.filter { !$0.key.hasPrefix(".trash/") })
    }

    func snapshot(_ root: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        while let relative = enumerator?.nextObject() as? String {
            var isFolder: ObjCBool = false
            let path = root.appendingPathComponent(relative).path
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
                files[relative] = FileManager.default.contents(atPath: path)
            }
        }
        return files
    }
}
