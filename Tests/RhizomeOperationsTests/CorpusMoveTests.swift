import Foundation
import Testing
import RhizomeCore
import RhizomeStore
import RhizomeOperations
import RhizomeTestSupport

/// `mv` on copies of real vaults (`../shared/corpora`): the notes with the most backlinks and whole folders
/// move, and after each the index's graph equals the one before with the moved files at their new paths.
/// Skipped where the corpora are absent (a user's clone).
@Suite(.serialized) struct CorpusMoveTests {
    /// Moves the `count` notes with the most backlinks into a new folder (renamed), then one folder, then
    /// undoes the last move; the graph must be kept after each.
    func checkMoves(corpus name: String, notes count: Int) throws {
        guard let corpus = Fixtures.corpus(name) else { return }
        let vault = try TemporaryVault(copying: corpus)
        _ = try vault.index()
        let store = try vault.store()
        let editor = try VaultEditor(vaultPath: vault.path, databasePath: vault.databasePath, store: store)
        let mostLinked = try store.readOnlyQuery("""
            SELECT t.path FROM links l JOIN files t ON t.path = l.target WHERE t.path LIKE '%.md'
            GROUP BY t.path ORDER BY count(*) DESC, t.path LIMIT \(count)
            """).rows.compactMap { row -> String? in if case .string(let path) = row[0] { return path } else { return nil } }
        try #require(mostLinked.count == count, "\(name): expected \(count) linked notes")
        var moved = 0
        for (index, path) in mostLinked.enumerated() {
            let before = try GraphSnapshot(store)
            let destination = "Moved \(index)/\(VaultPath.displayName(of: path)) (moved)"
            let plan = try editor.planMove(path, to: destination)
            try editor.apply(plan)
            let expected = before.moved(Dictionary(uniqueKeysWithValues: plan.moves.map { ($0.from, $0.to) }))
            let after = try GraphSnapshot(store)
            #expect(after == expected, "\(name): moving \(path) changed the graph:\n\(after.differences(from: expected).prefix(10).joined(separator: "\n"))")
            moved += plan.linkCount
        }
        #expect(moved > 0, "\(name): the moves rewrote no link")
        // A folder: the one holding the most notes.
        let folder = try store.readOnlyQuery("SELECT folder FROM files WHERE folder != '' GROUP BY folder ORDER BY count(*) DESC, folder LIMIT 1").rows.first
        if case .string(let folderPath)? = folder?.first {
            let before = try GraphSnapshot(store)
            let plan = try editor.planMove(folderPath, to: "Archive/Moved folder")
            try editor.apply(plan)
            let expected = before.moved(Dictionary(uniqueKeysWithValues: plan.moves.map { ($0.from, $0.to) }))
            let after = try GraphSnapshot(store)
            #expect(after == expected, "\(name): moving the folder \(folderPath) changed the graph:\n\(after.differences(from: expected).prefix(10).joined(separator: "\n"))")
            try editor.apply(try editor.planUndo())
            #expect(try GraphSnapshot(store) == before, "\(name): undoing the folder move did not restore the graph")
        }
    }

    @Test func theObsidianHelpVault() throws { try checkMoves(corpus: "obsidian-help-en", notes: 8) }

    @Test func theCommunityHub() throws { try checkMoves(corpus: "obsidian-hub", notes: 3) }

    @Test func aSkillsCollection() throws { try checkMoves(corpus: "claude-skills", notes: 4) }
}
