import Foundation
import Testing
import RhizomeCore
@testable import RhizomeOperations
import RhizomeTestSupport

/// What the next command's recovery does with the temporary files of a change a kill interrupted.
@Suite struct JournalRecoveryTests {
    /// A rewrite through a symlink writes its temporary file beside the target, in another folder: the
    /// recovery removes it there too. (It looked only beside the symlink: a recovery that completes the
    /// change writes the same name again and consumes it, but one that reverses it, because the note
    /// was edited meanwhile, left it for good.)
    @Test func `a rewrite through a symlink killed mid-way and then reversed leaves no temporary file beside its target`() throws {
        let vault = try TemporaryVault()
        let old = Array("---\ntag: a, b\n---\nBody\n".utf8), new = Array("---\ntags: [a, b]\n---\nBody\n".utf8)
        try vault.write("Real/Target.md", bytes: old)
        try vault.symlink("Links/Alias.md", to: "../Real/Target.md")
        let journal = OperationJournal(vaultPath: vault.path, databasePath: vault.databasePath)
        let after = VaultOperation.FileState(bytes: new)
        let operation = VaultOperation(
            kind: "fix", summary: "fix 1 note", steps: [.write(path: "Links/Alias.md", before: VaultOperation.FileState(bytes: old), after: after)],
            result: ["Links/Alias.md": after])
        // As a kill leaves it: the change journaled, its temporary file written beside the target, not renamed.
        try FileManager.default.createDirectory(atPath: journal.folder, withIntermediateDirectories: true)
        _ = try journal.storePack([old, new], for: operation)
        try journal.writeRecord(operation, to: journal.pendingPath)
        let temporary = "Real/" + TemporaryFileName.journaled(operation: operation.id, step: 0)
        try vault.write(temporary, bytes: Array(new.prefix(7)))
        // Edited meanwhile (in Obsidian, say): the change is reversed, the edit kept.
        let edited = Array("---\ntag: a, b\n---\nBody, edited meanwhile\n".utf8)
        try vault.write("Real/Target.md", bytes: edited)
        let report = try #require(try journal.recover())
        #expect(!report.completed)
        #expect(Array(try Data(contentsOf: vault.url("Real/Target.md"))) == edited)
        #expect(!FileManager.default.fileExists(atPath: vault.url(temporary).path), "the temporary file beside the target was left")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: vault.url("Links/Alias.md").path) == "../Real/Target.md")
    }
}
