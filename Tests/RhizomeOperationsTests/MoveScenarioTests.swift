import Foundation
import Testing
import RhizomeCore
import RhizomeStore
import RhizomeOperations
import RhizomeTestSupport

/// `VaultEditor.planMove` and `apply` on small real vaults: what moves, which link text changes, and
/// that everything else keeps its bytes.
@Suite struct MoveScenarioTests {
    func editor(_ vault: TemporaryVault) throws -> VaultEditor {
        _ = try vault.index()
        return try VaultEditor(vaultPath: vault.path, databasePath: vault.databasePath, store: try vault.store())
    }

    @Test func renamingANoteRewritesOnlyThePathOfEachLinkToIt() throws {
        let vault = try TemporaryVault()
        try vault.write("Old.md", "# Old\n\nText ^b1\n")
        let source = "---\nrelated: \"[[Old]]\"\n---\nSee [[Old]], [[Old#Old|the old one]], ![[Old#^b1]] and [x](Old.md).\n`[[Old]]` in code stays.\r\n"
        try vault.write("Notes/Source.md", source)
        let editor = try editor(vault)
        let before = try GraphSnapshot(editor.store)

        let plan = try editor.planMove("Old", to: "New name")
        #expect(plan.moves == [MovePlan.Move(from: "Old.md", to: "New name.md")])
        #expect(plan.changes.map(\.path) == ["Notes/Source.md"])
        #expect(plan.linkCount == 5)
        #expect(try vault.read("Notes/Source.md") == source, "a plan writes nothing")

        try editor.apply(plan)
        #expect(try vault.read("Notes/Source.md") == """
            ---\nrelated: "[[New name]]"\n---\nSee [[New name]], [[New name#Old|the old one]], ![[New name#^b1]] and [x](New%20name.md).\n`[[Old]]` in code stays.\r\n
            """)
        #expect(!FileManager.default.fileExists(atPath: vault.url("Old.md").path))
        #expect(try GraphSnapshot(editor.store) == before.moved(["Old.md": "New name.md"]))
    }

    @Test func aLinkThatStillReachesItsFileKeepsItsText() throws {
        let vault = try TemporaryVault()
        try vault.write("Inbox/Idea.md", "idea\n")
        try vault.write("Index.md", "[[Idea]] and [[Inbox/Idea]]\n")
        let editor = try editor(vault)
        let plan = try editor.planMove("Inbox/Idea.md", to: "Projects/")
        #expect(plan.destination == "Projects/Idea.md")
        #expect(plan.changes.count == 1)
        #expect(plan.changes.first?.edits.map(\.oldText) == ["Inbox/Idea"], "the bare name still reaches the file")
        try editor.apply(plan)
        // Written as Obsidian's default `shortest` format writes it: the name, unique in the vault.
        #expect(try vault.read("Index.md") == "[[Idea]] and [[Idea]]\n")
    }

    @Test func aNewNameThatWouldTakeOverAnotherFilesLinksRewritesThoseLinks() throws {
        let vault = try TemporaryVault()
        try vault.write("Archive/Note.md", "the original\n")
        try vault.write("Draft.md", "draft\n")
        try vault.write("Reader.md", "[[Note]] is the archived one\n")
        let editor = try editor(vault)
        let before = try GraphSnapshot(editor.store)
        // A root-level Note.md would be the exact match for [[Note]].
        try editor.apply(try editor.planMove("Draft", to: "Note"))
        #expect(try vault.read("Reader.md") == "[[Archive/Note]] is the archived one\n")
        #expect(try GraphSnapshot(editor.store) == before.moved(["Draft.md": "Note.md"]))
    }

    @Test func relativeMarkdownLinksInsideAMovedNoteFollowIt() throws {
        let vault = try TemporaryVault()
        try vault.write("A/Deep/Note.md", "[up](../Sibling.md) [same](Other.md) [missing](../Nope.md)\n")
        try vault.write("A/Sibling.md", "s\n")
        try vault.write("A/Deep/Other.md", "o\n")
        try vault.write("B/Other.md", "the other Other\n")
        let editor = try editor(vault)
        let before = try GraphSnapshot(editor.store)
        try editor.apply(try editor.planMove("A/Deep/Note.md", to: "B/Note.md"))
        let text = try vault.read("B/Note.md")
        #expect(text.contains("[missing](../Nope.md)"), "an unresolved link keeps its text")
        #expect(try GraphSnapshot(editor.store) == before.moved(["A/Deep/Note.md": "B/Note.md"]))
    }

    @Test func movingAFolderKeepsLinksInsideItAndToIt() throws {
        let vault = try TemporaryVault()
        try vault.write("Projects/Alpha/Plan.md", "[[Alpha/Tasks]] [[Tasks#Now]] [t](Tasks.md)\n")
        try vault.write("Projects/Alpha/Tasks.md", "## Now\n[[Plan]]\n")
        try vault.write("Projects/Alpha/image.png", "png")
        try vault.write("Home.md", "[[Projects/Alpha/Plan]] ![[image.png]] [p](Projects/Alpha/Plan.md)\n")
        let editor = try editor(vault)
        let before = try GraphSnapshot(editor.store)
        let plan = try editor.planMove("Projects/Alpha", to: "Archive/2026/")
        #expect(plan.isFolder)
        #expect(plan.destination == "Archive/2026/Alpha")
        #expect(plan.moves.count == 3)
        try editor.apply(plan)
        let moves = Dictionary(uniqueKeysWithValues: plan.moves.map { ($0.from, $0.to) })
        #expect(try GraphSnapshot(editor.store) == before.moved(moves))
        #expect(try vault.read("Home.md") == "[[Plan]] ![[image.png]] [p](Plan.md)\n")
    }

    @Test func undoPutsEveryByteBack() throws {
        let vault = try TemporaryVault()
        try vault.write("Old.md", "old\n")
        try vault.write("Links.md", "[[Old]]\n")
        let editor = try editor(vault)
        try editor.apply(try editor.planMove("Old", to: "Folder/New"))
        #expect(try vault.read("Links.md") == "[[New]]\n")
        let undo = try editor.planUndo()
        #expect(undo.original.kind == "mv")
        try editor.apply(undo)
        #expect(try vault.read("Links.md") == "[[Old]]\n")
        #expect(try vault.read("Old.md") == "old\n")
        #expect(!FileManager.default.fileExists(atPath: vault.url("Folder").path), "the folder the move made is gone again")
        #expect(editor.history().map(\.kind) == ["undo", "mv"])
        #expect(editor.history().last?.state == .undone)
        #expect(throws: EditError.nothingToUndo) { try editor.planUndo() }
    }

    @Test func undoRefusesWhenAFileChangedSince() throws {
        let vault = try TemporaryVault()
        try vault.write("Old.md", "old\n")
        try vault.write("Links.md", "[[Old]]\n")
        let editor = try editor(vault)
        try editor.apply(try editor.planMove("Old", to: "New"))
        try vault.write("Links.md", "[[New]] edited by hand\n")
        #expect {
            try editor.planUndo()
        } throws: { error in
            guard case EditError.undoBlocked(_, let path, _) = error else { return false }
            return path == "Links.md"
        }
    }

    @Test func `a new name that would give unresolved links a target is refused unless asked`() throws {
        let vault = try TemporaryVault()
        try vault.write("Drafts/Target.md", "t\n")
        try vault.write("Wish.md", "One day [[Cafe]], see [[Target]].\n")
        let editor = try editor(vault)
        let waiting = RelinkPlanner.NewlyResolved(path: "Wish.md", line: 1, column: 9, linkPath: "Cafe", target: "Cafe.md")
        #expect(throws: EditError.wouldResolveLinks(links: [waiting])) { try editor.planMove("Target", to: "Cafe.md") }
        #expect(try vault.read("Wish.md") == "One day [[Cafe]], see [[Target]].\n")
        let plan = try editor.planMove("Target", to: "Cafe.md", resolvingLinks: true)
        #expect(plan.newlyResolved == [waiting])
        try editor.apply(plan)
        #expect(try vault.read("Wish.md") == "One day [[Cafe]], see [[Cafe]].\n")
    }

    @Test func `a rename that only changes letter case gives canvas nodes the exact new path`() throws {
        let vault = try TemporaryVault()
        try vault.write("Target.md", "t\n")
        try vault.write("Links.md", "[[Target]] and [x](Target.md)\n")
        try vault.write("Board.canvas", #"{"nodes":[{"id":"a","type":"file","file":"Target.md","x":0,"y":0,"width":1,"height":1}],"edges":[]}"#)
        let editor = try editor(vault)
        let plan = try editor.planMove("Target", to: "target")
        try editor.apply(plan)
        #expect(try vault.read("target.md") == "t\n")
        // Links resolve by name in any letter case and keep their text; a canvas names the file exactly.
        #expect(try vault.read("Links.md") == "[[Target]] and [x](Target.md)\n")
        #expect(try vault.read("Board.canvas").contains(#""file":"target.md""#))
    }

    @Test func refusals() throws {
        let vault = try TemporaryVault()
        try vault.write("A.md", "a\n")
        try vault.write("B.md", "b\n")
        try vault.write("Folder/C.md", "c\n")
        let editor = try editor(vault)
        #expect(throws: EditError.destinationExists(path: "B.md")) { try editor.planMove("A", to: "B") }
        #expect(throws: EditError.outsideVault(path: "../A.md")) { try editor.planMove("A", to: "../A.md") }
        #expect(throws: EditError.intoItself(source: "Folder", destination: "Folder/Sub/Folder")) { try editor.planMove("Folder", to: "Folder/Sub/") }
        #expect(throws: (any Error).self) { try editor.planMove("A", to: ".obsidian/A.md") }
        #expect(throws: (any Error).self) { try editor.planMove("A", to: "Bad#name") }
        #expect(throws: (any Error).self) { try editor.planMove("Nothing here", to: "X") }
        // A folder argument with a stray space after its `/` is still a folder.
        #expect(try editor.planMove("A", to: "Into/ ").destination == "Into/A.md")
        #expect(try vault.read("A.md") == "a\n")
    }

    @Test func trashMovesToDotTrashAndReportsBrokenLinks() throws {
        let vault = try TemporaryVault()
        try vault.write("Gone.md", "g\n")
        try vault.write("Links.md", "[[Gone]]\n")
        try vault.write(".trash/Gone.md", "an older one\n")
        let editor = try editor(vault)
        let plan = try editor.planTrash(["Gone"])
        #expect(plan.moves == [MovePlan.Move(from: "Gone.md", to: ".trash/Gone 1.md")])
        #expect(plan.brokenLinks.map(\.source) == ["Links.md"])
        try editor.apply(plan)
        #expect(try vault.read(".trash/Gone 1.md") == "g\n")
        #expect(try vault.read(".trash/Gone.md") == "an older one\n")
        try editor.apply(try editor.planUndo())
        #expect(try vault.read("Gone.md") == "g\n")
    }

    @Test func trashRefusesWhenObsidianDeletesElsewhere() throws {
        let vault = try TemporaryVault()
        try vault.write("Gone.md", "g\n")
        try vault.write(".obsidian/app.json", #"{"trashOption": "system"}"#)
        let editor = try editor(vault)
        #expect(throws: EditError.trashNotLocal(option: "system")) { try editor.planTrash(["Gone"]) }
        #expect(try editor.planTrash(["Gone"], allowLocalTrash: true).moves.count == 1)
    }

    @Test func aNameThatDiffersOnlyInUnicodeFormIsTaken() throws {
        let vault = try TemporaryVault()
        try vault.write("Cafe\u{301}.md", "an NFD name, as macOS writes it\n")
        try vault.write("Draft.md", "d\n")
        let editor = try editor(vault)
        #expect(throws: EditError.destinationExists(path: "Café.md")) { try editor.planMove("Draft", to: "Caf\u{E9}") }
    }

    @Test func aFolderWithAnNFDNameMovesWithItsNotes() throws {
        let vault = try TemporaryVault()
        try vault.write("Re\u{301}sume\u{301}s/Cafe\u{301}.md", "[[Other]]\n")
        try vault.write("Other.md", "[[Résumés/Café]]\n")
        let editor = try editor(vault)
        let before = try GraphSnapshot(editor.store)
        let plan = try editor.planMove("Résumés", to: "Archive/")
        try editor.apply(plan)
        #expect(try GraphSnapshot(editor.store) == before.moved(Dictionary(uniqueKeysWithValues: plan.moves.map { ($0.from, $0.to) })))
        #expect(try vault.read("Other.md") == "[[Résumés/Café]]\n", "a path suffix still reaches the note: not rewritten")
        // The moved folder is named as Rhizome writes names (NFC); the files in it keep their own spelling.
        #expect(FileManager.default.fileExists(atPath: vault.url("Archive/R\u{E9}sum\u{E9}s/Cafe\u{301}.md").path))
    }
}
