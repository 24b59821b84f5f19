import Foundation
import Testing
import RhizomeCore
import RhizomeOperations
import RhizomeStore
import RhizomeTestSupport

/// `rename-heading` in notes with headings of the same name and links through heading paths: only links
/// that reach the renamed heading change, the others keep reaching theirs, and a new name that would
/// move a link to another heading is refused with nothing written.
@Suite struct HeadingRenameScenarioTests {
    static let note = "# A\n## Dup\n# B\n## Dup\n### Sub\n"
    static let links = "- [[N#Dup]]\n- [[N#B#Dup]]\n- [[N#A#Dup]]\n- [[N#B]]\n- [x](N.md#B#Dup#Sub)\n- [[N#Dup#Sub]]\n- [[N#Nope]]\n"

    func editor(_ vault: TemporaryVault) throws -> VaultEditor {
        _ = try vault.index()
        return try VaultEditor(vaultPath: vault.path, databasePath: vault.databasePath, store: try vault.store())
    }

    func vault() throws -> TemporaryVault {
        let vault = try TemporaryVault()
        try vault.write("N.md", Self.note)
        try vault.write("L.md", Self.links)
        return vault
    }

    @Test func `renaming the first of two headings of one name changes only the links that reach it`() throws {
        let vault = try vault()
        let editor = try editor(vault)
        try editor.apply(try editor.planRenameHeading("Dup", to: "First", in: "N"))
        #expect(try vault.read("N.md") == "# A\n## First\n# B\n## Dup\n### Sub\n")
        // `#B#Dup` reaches the second Dup and keeps its text; `#Dup#Sub` names the first on the way.
        #expect(try vault.read("L.md") == "- [[N#First]]\n- [[N#B#Dup]]\n- [[N#A#First]]\n- [[N#B]]\n- [x](N.md#B#Dup#Sub)\n- [[N#First#Sub]]\n- [[N#Nope]]\n")
    }

    @Test func `canvas cards showing a heading follow it`() throws {
        let vault = try vault()
        let card = { (subpath: String) in #"{"id":"\#(subpath.count)","type":"file","file":"N.md","subpath":"\#(subpath)","x":0,"y":0,"width":1,"height":1}"# }
        try vault.write("C.canvas", "{\"nodes\":[\n\t\t" + ["#B", "#Dup", "#B#Dup"].map(card).joined(separator: ",\n\t\t") + "\n\t],\"edges\":[]}")
        let editor = try editor(vault)
        try editor.apply(try editor.planRenameHeading("B#Dup", to: "Second", in: "N"))
        let canvas = try vault.read("C.canvas")
        #expect(canvas.contains(##""subpath":"#B","##) && canvas.contains(##""subpath":"#Dup","##) && canvas.contains(##""subpath":"#B#Second","##), "\(canvas)")
    }

    @Test func `the second heading of a name is picked by its heading path`() throws {
        let vault = try vault()
        let editor = try editor(vault)
        try editor.apply(try editor.planRenameHeading("B#Dup", to: "Second", in: "N"))
        #expect(try vault.read("N.md") == "# A\n## Dup\n# B\n## Second\n### Sub\n")
        #expect(try vault.read("L.md") == "- [[N#Dup]]\n- [[N#B#Second]]\n- [[N#A#Dup]]\n- [[N#B]]\n- [x](N.md#B#Second#Sub)\n- [[N#Dup#Sub]]\n- [[N#Nope]]\n")
    }

    @Test func `a new name that would move other links to another heading is refused`() throws {
        let vault = try vault()
        let editor = try editor(vault)
        for (old, new) in [("A", "B"), ("B", "A"), ("Sub", "Dup")] {
            do {
                _ = try editor.planRenameHeading(old, to: new, in: "N")
                Issue.record("\(old) → \(new) was planned")
            } catch {
                #expect((error as? EditError)?.code == "invalid-heading", "\(old) → \(new): \(error)")
            }
        }
        #expect(try vault.read("N.md") == Self.note)
        #expect(try vault.read("L.md") == Self.links)
        // A name another heading has is fine when every link keeps its heading: `#Dup#Sub` becomes
        // `#Sub#Sub`, which still reaches the first Dup, then the Sub after it.
        try editor.apply(try editor.planRenameHeading("Dup", to: "Sub", in: "N"))
        #expect(try vault.read("L.md").contains("- [[N#Sub#Sub]]\n- [[N#Nope]]"))
    }

    @Test func `a heading link that reached no heading is not given one unless asked`() throws {
        let vault = try vault()
        let editor = try editor(vault)
        #expect(throws: EditError.wouldResolveLinks(links: [RelinkPlanner.NewlyResolved(path: "L.md", line: 7, column: 3, linkPath: "N#Nope", target: "N.md#Nope")])) {
            try editor.planRenameHeading("Sub", to: "Nope", in: "N")
        }
        let plan = try editor.planRenameHeading("Sub", to: "Nope", in: "N", resolvingLinks: true)
        #expect(plan.newlyResolved.map(\.path) == ["L.md"])
    }

    @Test func `a rename that only changes letter case counts and rewrites only the links spelled the old way`() throws {
        let vault = try TemporaryVault()
        try vault.write("N.md", "# Setup\nText.\n")
        try vault.write("L.md", "[[N#Setup]] and [[N#setup]] and [[N#SETUP]]\n")
        let editor = try editor(vault)
        let plan = try editor.planRenameHeading("Setup", to: "setup", in: "N")
        // The middle link already reads `setup`: no edit for it, and none in the count (the files are L.md
        // and the note itself, whose heading changes).
        #expect(plan.changes.flatMap(\.edits).map(\.oldText).sorted() == ["SETUP", "Setup"])
        #expect(plan.operation.summary.hasSuffix("(2 links in 2 files)"), "\(plan.operation.summary)")
        try editor.apply(plan)
        #expect(try vault.read("N.md") == "# setup\nText.\n")
        #expect(try vault.read("L.md") == "[[N#setup]] and [[N#setup]] and [[N#setup]]\n")
    }
}
