/// `IndexStore.tagCounts`: nested tags roll up into their parents, a note counts once per tag however often
/// it holds it, a tag is spelled as it first occurs, and the counts of a random vault equal those worked
/// out row by row from the tag table (the way they were computed before SQLite grouped them).
import Foundation
import Testing
@testable import RhizomeStore
import RhizomeCore
import RhizomeTestSupport

@Suite struct TagCountTests {
    @Test func `nested tags count for their parents, each note once, spelled as first written`() throws {
        let vault = try TemporaryVault()
        try vault.write("A.md", "#Project/Alpha and #project/alpha again, #inbox\n")
        try vault.write("B.md", "#project/beta/deep #PROJECT\n")
        try vault.write("C.md", "nothing tagged\n")
        try vault.index()
        let counts = try vault.store().tagCounts()
        #expect(counts.map { "\($0.tag) \($0.count) \($0.notes)" } == [
            "inbox 1 1", "Project 4 2", "Project/Alpha 2 1", "project/beta 1 1", "project/beta/deep 1 1",
        ])
        let inA = try vault.store().tagCounts(inNotes: ["A.md"])
        #expect(inA.map { "\($0.tag) \($0.count) \($0.notes)" } == ["inbox 1 1", "Project 2 1", "Project/Alpha 2 1"])
    }

    @Test func `a random vault's counts equal those worked out row by row`() throws {
        var random = SeededGenerator(state: 7)
        let names = ["a", "A", "a/b", "a/B", "a/b/c", "x", "x/y", "Zeta", "zeta/eta", "日本", "日本/語"]
        let vault = try TemporaryVault()
        for note in 0..<120 {
            let tags = (0..<Int(random.next() % 6)).map { _ in "#" + names[Int(random.next() % UInt64(names.count))] }
            try vault.write("Folder \(note % 4)/Note \(note).md", "Text " + tags.joined(separator: " ") + "\n")
        }
        try vault.index()
        let store = try vault.store()
        let somePaths = Set((0..<120).filter { $0 % 3 == 0 }.map { "Folder \($0 % 4)/Note \($0).md" })
        for paths in [nil, somePaths] {
            #expect(try store.tagCounts(inNotes: paths) == Self.rowByRow(store, inNotes: paths))
        }
    }

    /// The counts from every tag row in id order, as `tagCounts` once computed them.
    static func rowByRow(_ store: IndexStore, inNotes paths: Set<String>?) throws -> [TagCount] {
        let rows = try store.connection.prepare("SELECT t.name, t.name_key, t.file_id, f.path FROM tag t JOIN file f ON f.id = t.file_id ORDER BY t.id")
            .rows { (name: $0.text(0), key: $0.text(1), file: $0.int(2), path: $0.text(3)) }
        var spelling: [String: String] = [:], occurrences: [String: Int] = [:], notes: [String: Set<Int64>] = [:]
        for row in rows where paths?.contains(row.path) ?? true {
            let spelled = TagSyntax.selfAndAncestors(row.name)
            for (index, key) in TagSyntax.selfAndAncestors(row.key).enumerated() {
                if spelling[key] == nil { spelling[key] = index < spelled.count ? spelled[index] : key }
                occurrences[key, default: 0] += 1
                notes[key, default: []].insert(row.file)
            }
        }
        return occurrences.keys.sorted().map { TagCount(tag: spelling[$0]!, count: occurrences[$0]!, notes: notes[$0]!.count) }
    }
}
