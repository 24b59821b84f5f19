import Testing
import RhizomeCore
import RhizomeOperations

/// `EditError`'s and `VaultError`'s messages as people read them, and the fix an agent gets apart in
/// JSON (`fix`, CLI and MCP): the message is the problem, then the fix; errors with nothing to do but
/// read the message have none.
@Suite struct EditErrorMessageTests {
    @Test func `a refused edit says what was refused, that nothing changed, and how to go on`() {
        let exists = EditError.destinationExists(path: "Archive/Idea.md")
        #expect(exists.description == "Archive/Idea.md already exists, and Rhizome never overwrites a file. Nothing was changed: choose another name, or move that file away first.")
        #expect(exists.fix == "choose another name, or move that file away first.")

        let outside = EditError.outsideVault(path: "../x.md")
        #expect(outside.description == "../x.md is outside the vault. Nothing was changed: give a path inside the vault, relative to its root (no `..`).")
        #expect(outside.fix == "give a path inside the vault, relative to its root (no `..`).")

        let stale = EditError.hashMismatch(path: "a.md", expected: "1", actual: "2")
        #expect(stale.description == "a.md changed since it was read (expected hash 1, it is now 2). Nothing was changed: read it again and redo the edit.")
        #expect(stale.fix == "read it again and redo the edit.")

        let busy = EditError.busy(lockPath: "/v/.lock")
        #expect(busy.description == "another Rhizome process is changing this vault (it holds /v/.lock). Nothing was changed: wait for it to finish and run the command again.")

        let blocked = EditError.undoBlocked(operation: "mv a → b", path: "b.md", reason: "was edited")
        #expect(blocked.description == "cannot undo mv a → b: b.md was edited since. Nothing was changed; undo that change by hand, or leave it.")
        #expect(blocked.fix == "undo that change by hand, or leave it.")

        let trash = EditError.trashNotLocal(option: "none")
        #expect(trash.description == "this vault's Obsidian settings delete files for good (`trashOption: none` in .obsidian/app.json), and Rhizome only moves files to the vault's .trash/ folder. Nothing was changed: pass --local-trash to use .trash/ anyway, or set \"Deleted files\" to \"Move to Obsidian trash\" in Obsidian's settings.")
        #expect(trash.fix?.hasPrefix("pass --local-trash") == true)

        #expect(EditError.changedSincePlanned(path: "a.md").description == "a.md changed on disk while the change was being made, so it was stopped and nothing was left half done. Run the command again.")
        #expect(EditError.io(path: "a.md", operation: "write", reason: "No space left on device").fix == "Check that the folder exists and is writable and that the disk has space.")
    }

    @Test func `suggestions are the fix of a source that is not found, and some errors have no fix to give`() {
        let suggested = EditError.sourceNotFound(argument: "Ide", suggestions: ["Idea", "Ideas"])
        #expect(suggested.description == "nothing in the vault matches `Ide` (a note name resolved like a wikilink, or a vault-relative path of a file or folder). Did you mean: Idea, Ideas?")
        #expect(suggested.fix == "Did you mean: Idea, Ideas?")
        let unknown = EditError.sourceNotFound(argument: "Zzz", suggestions: [])
        #expect(unknown.description == "nothing in the vault matches `Zzz` (a note name resolved like a wikilink, or a vault-relative path of a file or folder)")
        #expect(unknown.fix == nil)

        #expect(EditError.nothingToUndo.fix == nil)
        #expect(EditError.intoItself(source: "A", destination: "A/B").description == "the folder A cannot be moved into itself (A/B). Nothing was changed.")
        #expect(EditError.notANote(path: "x.png").fix == nil)
    }

    @Test func `a vault that cannot be used says where to point Rhizome`() {
        let missing = VaultError.missingFolder(path: "/nowhere")
        #expect(missing.description == "there is no folder at /nowhere. Check the vault path (--vault, $RHIZOME_VAULT, $OBSIDIAN_VAULT or ~/.obsidian-vault).")
        #expect(missing.fix == "Check the vault path (--vault, $RHIZOME_VAULT, $OBSIDIAN_VAULT or ~/.obsidian-vault).")

        let notFound = VaultError.notFound(searched: ["/a", "/b"])
        #expect(notFound.description.hasPrefix("no vault found. Tell Rhizome where your vault is in one of these ways:\n  1. --vault PATH\n"))
        #expect(notFound.description.hasSuffix("\nsearched: /a, /b"))
        #expect(notFound.fix?.hasPrefix("Tell Rhizome where your vault is") == true)

        let emptied = VaultError.emptiedVault(path: "/v", indexedFiles: 12, databasePath: "/i.sqlite")
        #expect(emptied.description == "the vault folder /v lists no files, but the index holds 12. Nothing was changed: if the vault is on a drive or in a sync folder, check that it is mounted and synced. If you really emptied the vault, delete the index (/i.sqlite).")
        #expect(VaultError.massRemoval(path: "/v", removing: 9, indexedFiles: 10).fix == nil)
    }

    /// Links that cannot be kept are the user's to fix (exit 2) unless one of them is a rewrite that did
    /// not read back as planned, which is Rhizome's bug (exit 70).
    @Test func `links that cannot be kept are the user's mistake unless a rewrite failed its own check`() {
        let users = RelinkPlanner.Problem(path: "A.md", line: 1, column: 5, message: "edit it by hand")
        let ours = RelinkPlanner.Problem(path: "B.md", line: nil, column: nil, message: "did not read back", isRhizomeFault: true)
        #expect(EditError.linksCannotBeKept(problems: [users]).isUserMistake)
        #expect(!EditError.linksCannotBeKept(problems: [users, ours]).isUserMistake)
    }
}
