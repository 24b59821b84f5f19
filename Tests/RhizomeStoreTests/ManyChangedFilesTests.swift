import Foundation
import Testing
import RhizomeCore
@testable import RhizomeStore
import RhizomeTestSupport

/// Re-indexing many changed files at once, as `rhizome mv` does after rewriting them: each update is made
/// by a new indexer, over several write batches, with notes renamed and removed while others link to
/// them. The index must equal a rebuild, keep its foreign keys whole (content is written with their
/// checks off) and keep the full-text index true to the notes' text (the dump compares only its lengths).
@Suite struct ManyChangedFilesTests {
    static let noteCount = 60

    /// `Notes/Note N.md` in three folders, each linking the hub, its neighbour and a Bulk note; a typed
    /// note with an id every tenth; `Bulk/` notes linking each other and out by relative path.
    static func makeVault() throws -> TemporaryVault {
        let vault = try TemporaryVault()
        try vault.write(".rhizome/schemas/memo.yaml", memoSchema(required: []))
        try vault.write("Hub.md", "# Hub\n\nThe note everyone links to. #hub\n")
        for number in 0..<noteCount {
            let frontmatter = number % 10 == 0
                ? "---\ntype: memo\ncode: m\(number)\nrelated: m\((number + 10) % noteCount)\n---\n" : "---\ntags: [t\(number % 3)]\n---\n"
            try vault.write(path(ofNote: number), frontmatter + """
                # Note \(number)

                Alpha words in note \(number). See [[Hub]] and [[Note \((number + 1) % noteCount)]].
                - [ ] a task #topic/\(number % 4)
                Also [bulk](../Bulk/Bulk%20\(number % 10).md) and [[Gone \(number % 5)]].

                """)
        }
        for number in 0..<10 {
            try vault.write("Bulk/Bulk \(number).md", "# Bulk \(number)\n\n[[Bulk \((number + 1) % 10)]] and [out](../\(path(ofNote: number).replacingOccurrences(of: " ", with: "%20")))\n")
        }
        for number in 0..<5 { try vault.write("Gone/Gone \(number).md", "# Gone \(number)\nbravo\n") }
        return vault
    }

    /// Memos have an id (`code`) and refer to each other by it (`related`).
    static func memoSchema(required: [String]) -> String {
        """
        version: 1
        type: memo
        description: A short memo.
        id:
          field: code
        references:
          related: memo
        frontmatter:
          type: object
          required: [\(required.joined(separator: ", "))]
          properties:
            type: { type: string }
            code: { type: string }
            related: { type: string }
            status: { type: string }
        """
    }

    static func path(ofNote number: Int) -> String { "Notes/\(["A", "B", "C"][number % 3])/Note \(number).md" }

    /// Small batches, so that the writes span several transactions; both ways of resolving links.
    static func options(candidateResolutionMaximumFiles: Int) -> IndexOptions {
        var options = IndexOptions()
        options.batchSize = 8
        options.candidateResolutionMaximumFiles = candidateResolutionMaximumFiles
        return options
    }

    @Test(arguments: [0, 256])
    func `many notes rewritten, renamed and removed, each update by a new indexer, equal a rebuild`(candidateResolutionMaximumFiles: Int) throws {
        let vault = try Self.makeVault()
        let options = Self.options(candidateResolutionMaximumFiles: candidateResolutionMaximumFiles)
        try vault.index(options: options)
        func update(_ paths: [String]) throws -> IndexReport {
            try Indexer(store: try vault.store(), vaultRoot: vault.path, options: options).update(changedPaths: paths.map { Array($0.utf8) })
        }
        func edit(_ path: String, _ text: String, _ replacement: String) throws {
            try vault.write(path, try vault.read(path).replacingOccurrences(of: text, with: replacement))
        }
        let notes = (0..<Self.noteCount).map(Self.path(ofNote:))

        // The hub renamed into another folder and every note relinked to it, as `rhizome mv` does.
        try vault.move("Hub.md", to: "Archive/Hub renamed.md")
        for path in notes { try edit(path, "[[Hub]]", "[[Hub renamed]]") }
        var report = try update(["Hub.md", "Archive/Hub renamed.md"] + notes)
        #expect(!report.walkedVault)
        #expect(report.modified == Self.noteCount && report.added == 1 && report.removed == 1)
        try expectEqualsRebuild(vault, "after the hub's rename")

        // Every note's text changed: the full-text index has the new words, and none of the old.
        for path in notes { try edit(path, "Alpha words", "Omega words") }
        report = try update(notes)
        #expect(!report.walkedVault && report.modified == Self.noteCount)
        try expectEqualsRebuild(vault, "after every note was edited")
        #expect(try vault.store().search("omega", limit: 100).count == Self.noteCount)
        #expect(try vault.store().search("alpha", limit: 100).isEmpty)

        // Notes that others link to removed (their links become unresolved), a typed note among them.
        let removed = ["Gone/Gone 0.md", "Gone/Gone 1.md", notes[10], notes[11]]
        for path in removed { try vault.remove(path) }
        report = try update(removed)
        #expect(!report.walkedVault && report.removed == removed.count)
        try expectEqualsRebuild(vault, "after the removals")
        #expect(try vault.store().search("bravo", limit: 100).count == 3)

        // A folder moved, with the notes linking into it rewritten: the folder's paths make it a walk.
        try vault.move("Bulk", to: "Archive/Bulk")
        for path in notes where !removed.contains(path) { try edit(path, "../Bulk/", "../../Archive/Bulk/") }
        report = try update(["Bulk", "Archive/Bulk"] + notes)
        #expect(report.walkedVault)
        try expectEqualsRebuild(vault, "after the folder move")
    }

    @Test func `an update by a new indexer needs no walk, unless the schemas changed since the last run`() throws {
        let vault = try Self.makeVault()
        try vault.index()
        try vault.write("Notes/A/Note 0.md", "---\ntype: memo\ncode: m0\n---\n# Note 0\n")
        var report = try Indexer(store: try vault.store(), vaultRoot: vault.path).update(changedPaths: [Array("Notes/A/Note 0.md".utf8)])
        #expect(!report.walkedVault && report.modified == 1)
        try expectEqualsRebuild(vault, "after one note's edit")

        // A schema changed on disk while nothing watched: the update checks every note again.
        try vault.write(".rhizome/schemas/memo.yaml", Self.memoSchema(required: ["status"]))
        try vault.write("Hub.md", "# Hub\n\nEdited.\n")
        report = try Indexer(store: try vault.store(), vaultRoot: vault.path).update(changedPaths: [Array("Hub.md".utf8)])
        #expect(report.walkedVault)
        try expectEqualsRebuild(vault, "after the schema change")
        let missing = try vault.store().readOnlyQuery("SELECT count(*) FROM findings WHERE code = 'missing-required'").rows
        #expect(missing.first?.first?.displayText == String(Self.noteCount / 10))
    }

    /// The index equals a rebuild, no row names a missing parent, and FTS5 finds its index consistent
    /// with the stored text.
    private func expectEqualsRebuild(_ vault: TemporaryVault, _ step: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let fresh = vault.scratchDatabasePath()
        defer { for suffix in ["", "-wal", "-shm", ".lock"] { try? FileManager.default.removeItem(atPath: fresh + suffix) } }
        try vault.index(database: fresh)
        let updated = try vault.store().canonicalDump()
        let rebuilt = try vault.store(database: fresh).canonicalDump()
        let equal = updated == rebuilt  // compared outside #expect, which would print both whole dumps
        #expect(equal, "\(step): only updated \(Set(updated).subtracting(rebuilt).sorted().prefix(8)); only rebuilt \(Set(rebuilt).subtracting(updated).sorted().prefix(8))",
                sourceLocation: sourceLocation)
        let store = try vault.store()
        #expect(try store.connection.prepare("PRAGMA foreign_key_check").rows { $0.text(0) }.isEmpty, "\(step)", sourceLocation: sourceLocation)
        #expect(throws: Never.self, "\(step)", sourceLocation: sourceLocation) {
            try store.connection.execute("INSERT INTO note_fts(note_fts, rank) VALUES ('integrity-check', 1)")
        }
    }
}
