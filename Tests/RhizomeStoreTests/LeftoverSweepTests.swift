/// Temporary files a killed Rhizome process left in the vault are removed by the next walk of the vault,
/// each with a finding; nothing else is ever deleted: not a fresh one (a write in progress), not a file
/// whose name only looks like one, not one a pending journaled change still needs. None is ever indexed.
import Foundation
import Testing
import RhizomeCore
import RhizomeStore
import RhizomeTestSupport

@Suite struct LeftoverSweepTests {
    static let twoMinutesAgo = Date().addingTimeInterval(-120)

    /// Writes a file and dates it.
    static func leave(_ vault: TemporaryVault, _ path: String, at date: Date = twoMinutesAgo) throws {
        try vault.write(path, "half-written copy of a note\n")
        try vault.setModificationDate(path, date)
    }

    static func exists(_ vault: TemporaryVault, _ path: String) -> Bool {
        FileManager.default.fileExists(atPath: vault.url(path).path)
    }

    @Test func `an old temporary file of Rhizome is removed by the next run, with a finding`() throws {
        let vault = try TemporaryVault()
        try vault.write("Note.md", "# Note\n")
        try Self.leave(vault, ".rhizome-4242-1x9z3k.tmp")
        try Self.leave(vault, "Projects/Deep/.rhizome-op-0mfz3a9c2q-2kd81m-3.tmp")
        let report = try vault.index()
        #expect(!Self.exists(vault, ".rhizome-4242-1x9z3k.tmp"))
        #expect(!Self.exists(vault, "Projects/Deep/.rhizome-op-0mfz3a9c2q-2kd81m-3.tmp"))
        let swept = report.findings.filter { $0.code == .leftoverTemporaryFile }
        #expect(swept.compactMap(\.path).sorted() == [".rhizome-4242-1x9z3k.tmp", "Projects/Deep/.rhizome-op-0mfz3a9c2q-2kd81m-3.tmp"])
        #expect(swept.allSatisfy { $0.message.hasPrefix("removed a leftover temporary file") && $0.severity == .info })
        #expect(report.files == 1, "a temporary file is never a vault file")
        // Said once: the next run has nothing to sweep.
        #expect(try vault.index().findings.isEmpty)
    }

    @Test func `a fresh temporary file and look-alike names are kept`() throws {
        let vault = try TemporaryVault()
        try vault.write("Note.md", "# Note\n")
        try Self.leave(vault, ".rhizome-4242-1x9z3k.tmp", at: Date().addingTimeInterval(-30))  // a write in progress, maybe
        let lookAlikes = [
            ".rhizome-notes.tmp", ".rhizome-4242-1x9z3k.tmp~", ".rhizome-4242-1X9Z3K.tmp", ".rhizome-4242-toolongname.tmp",
            ".rhizome-op-short-2kd81m-3.tmp", ".rhizome-op-0mfz3a9c2q-2kd81m-x.tmp", "rhizome-4242-1x9z3k.tmp",
            ".rhizome-4242-1x9z3k.md", "Notes/.rhizome-.tmp", ".rhizome-4242-1x9z3k-2.tmp",
        ]
        for name in lookAlikes { try Self.leave(vault, name) }
        // A folder and a symlink with Rhizome's name are not files it wrote either.
        try FileManager.default.createDirectory(at: vault.url(".rhizome-77-abc.tmp"), withIntermediateDirectories: true)
        try vault.setModificationDate(".rhizome-77-abc.tmp", Self.twoMinutesAgo)
        try vault.symlink(".rhizome-78-abc.tmp", to: vault.url("Note.md").path)
        let report = try vault.index()
        #expect(report.findings.filter { $0.code == .leftoverTemporaryFile }.isEmpty)
        for name in lookAlikes + [".rhizome-4242-1x9z3k.tmp", ".rhizome-77-abc.tmp", ".rhizome-78-abc.tmp"] {
            #expect(Self.exists(vault, name), "\(name) was deleted")
        }
        #expect(Self.exists(vault, "Note.md"))
        #expect(report.files == 2, "Note.md, and `rhizome-4242-1x9z3k.tmp`: not hidden, so a file of the vault")
    }

    @Test func `a journaled change's temporary file is kept while the change is pending`() throws {
        let vault = try TemporaryVault()
        try vault.write("Note.md", "# Note\n")
        try Self.leave(vault, ".rhizome-op-0mfz3a9c2q-2kd81m-0.tmp")
        try Self.leave(vault, ".rhizome-9-abc.tmp")
        // The journal beside the index has a change begun and not finished: its recovery needs its files.
        let pending = OperationJournalLocation.pendingRecord(databasePath: vault.databasePath)
        try FileManager.default.createDirectory(atPath: OperationJournalLocation.folder(databasePath: vault.databasePath), withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: URL(fileURLWithPath: pending))
        let report = try vault.index()
        #expect(Self.exists(vault, ".rhizome-op-0mfz3a9c2q-2kd81m-0.tmp"))
        #expect(!Self.exists(vault, ".rhizome-9-abc.tmp"), "the writer's own temporary file belongs to no change")
        #expect(report.findings.compactMap(\.path) == [".rhizome-9-abc.tmp"])
        // Once the change is done (recovered), the file goes with the next run.
        try FileManager.default.removeItem(atPath: pending)
        #expect(try vault.index().findings.compactMap(\.path) == [".rhizome-op-0mfz3a9c2q-2kd81m-0.tmp"])
        #expect(!Self.exists(vault, ".rhizome-op-0mfz3a9c2q-2kd81m-0.tmp"))
    }

    @Test func `temporary names: made and recognised by one rule`() {
        #expect(TemporaryFileName.kind(of: Array(TemporaryFileName.random().utf8)) == .writer)
        #expect(TemporaryFileName.kind(of: Array(TemporaryFileName.journaled(operation: "0mfz3a9c2q-2kd81m", step: 12).utf8))
                == .journaled(operationID: "0mfz3a9c2q-2kd81m"))
        #expect(TemporaryFileName.kind(of: Array(".rhizome".utf8)) == nil)
        #expect(TemporaryFileName.kind(of: Array(".rhizome-.tmp".utf8)) == nil)
    }
}
