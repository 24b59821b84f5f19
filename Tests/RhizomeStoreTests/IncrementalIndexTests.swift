import Foundation
import Testing
import RhizomeCore
import RhizomeStore
import RhizomeTestSupport

/// Incremental indexing on real temp vaults and real SQLite files.
@Suite struct IncrementalIndexTests {
    private func target(of linkPath: String, in source: String, _ vault: TemporaryVault) throws -> String? {
        let store = try vault.store()
        let file = try #require(try store.resolveNote(source))
        let link = try #require(try store.outgoingLinks(of: file.id).first { $0.linkPath == linkPath })
        return link.target
    }

    @Test func firstRunAddsEveryFileAndSecondRunChangesNothing() throws {
        let vault = try TemporaryVault()
        try vault.write("A.md", "# A\nSee [[B]] and [[Missing]].\n")
        try vault.write("Folder/B.md", "Back to [[A]]. #tag\n")
        try vault.write("image.png", "not really a png")
        let first = try vault.index()
        #expect(first.added == 3)
        #expect(first.notes == 2)
        #expect(first.files == 3)
        #expect(first.links == 3)
        #expect(first.unresolvedLinks == 1)
        let second = try vault.index()
        #expect(second.added == 0 && second.modified == 0 && second.removed == 0)
        #expect(second.unchanged == 3)
        #expect(second.links == 3)
    }

    @Test func editedNoteIsReparsedAndOnlyIt() throws {
        let vault = try TemporaryVault()
        try vault.write("A.md", "[[B]]\n")
        try vault.write("B.md", "nothing\n")
        try vault.index()
        try vault.write("A.md", "[[B]] and [[C]]\n")
        try vault.setModificationDate("A.md", Date().addingTimeInterval(5))
        let report = try vault.index()
        #expect(report.modified == 1)
        #expect(report.unchanged == 1)
        #expect(report.links == 2)
        #expect(report.unresolvedLinks == 1)
    }

    @Test func touchedButUnchangedNoteIsNotReparsed() throws {
        let vault = try TemporaryVault()
        try vault.write("A.md", "[[B]]\n")
        try vault.index()
        try vault.setModificationDate("A.md", Date().addingTimeInterval(60))
        let report = try vault.index()
        #expect(report.modified == 0)
        #expect(report.unchanged == 1)
        // The new mtime was recorded: the next run is a no-change run.
        let again = try vault.index()
        #expect(again.modified == 0 && again.unchanged == 1)
    }

    @Test func creatingAFileResolvesExistingLinksToIt() throws {
        let vault = try TemporaryVault()
        try vault.write("Notes/A.md", "[[Later]]\n")
        try vault.index()
        #expect(try target(of: "Later", in: "A", vault) == nil)
        try vault.write("Deep/Folder/Later.md", "now it exists\n")
        let report = try vault.index()
        #expect(report.added == 1)
        #expect(report.relinked == 1)
        #expect(try target(of: "Later", in: "A", vault) == "Deep/Folder/Later.md")
    }

    @Test func deletingAFileLeavesItsBacklinksUnresolvedButKeepsThem() throws {
        let vault = try TemporaryVault()
        try vault.write("A.md", "[[B]] [[B#Heading]]\n")
        try vault.write("B.md", "# Heading\n")
        try vault.index()
        try vault.remove("B.md")
        let report = try vault.index()
        #expect(report.removed == 1)
        #expect(report.links == 2)
        #expect(report.unresolvedLinks == 2)
        #expect(try target(of: "B", in: "A", vault) == nil)
    }

    @Test func aSecondFileWithTheSameNameChangesWhichFileABareLinkPicks() throws {
        let vault = try TemporaryVault()
        try vault.write("Projects/Deep/Source.md", "[[Topic]]\n")
        try vault.write("Projects/Other/Far/Topic.md", "far\n")
        try vault.index()
        #expect(try target(of: "Topic", in: "Source", vault) == "Projects/Other/Far/Topic.md")
        // Same folder as the source wins over the existing one.
        try vault.write("Projects/Deep/Topic.md", "near\n")
        try vault.index()
        #expect(try target(of: "Topic", in: "Source", vault) == "Projects/Deep/Topic.md")
        // Removing it falls back to the other.
        try vault.remove("Projects/Deep/Topic.md")
        try vault.index()
        #expect(try target(of: "Topic", in: "Source", vault) == "Projects/Other/Far/Topic.md")
    }

    @Test func renamingANoteMovesItsLinksAndReResolvesLinksToBothNames() throws {
        let vault = try TemporaryVault()
        try vault.write("A.md", "[[Old]] [[New]]\n")
        try vault.write("Old.md", "[[A]]\n")
        try vault.index()
        try vault.move("Old.md", to: "Sub/New.md")
        let report = try vault.index()
        #expect(report.added == 1 && report.removed == 1)
        #expect(try target(of: "Old", in: "A", vault) == nil)
        #expect(try target(of: "New", in: "A", vault) == "Sub/New.md")
        #expect(try target(of: "A", in: "Sub/New", vault) == "A.md")
    }

    /// A dangling symlink is not part of the vault: its note leaves the index, as a rebuild would leave it out.
    @Test func brokenSymlinkIsReportedAndItsNoteLeavesTheIndex() throws {
        let (vault, outsideNote) = try vaultWithASymlinkedNote()
        let first = try vault.index()
        #expect(first.notes == 2)
        #expect(try target(of: "Shared", in: "A", vault) == "Shared.md")
        let store = try vault.store()
        let shared = try #require(try store.resolveNote("Shared"))
        #expect(shared.realPath == URL(fileURLWithPath: outsideNote.path).resolvingSymlinksInPath().path)

        try FileManager.default.removeItem(at: outsideNote)
        let second = try vault.index()
        #expect(second.removed == 1)
        #expect(second.notes == 1)
        #expect(second.findings.contains { $0.code == .brokenSymlink && $0.path == "Shared.md" })
        #expect(try target(of: "Shared", in: "A", vault) == nil)
        #expect(try vault.store().resolveNote("Shared") == nil)
        // The target back: the note is back.
        try Data("[[A]]\n".utf8).write(to: outsideNote)
        let third = try vault.index()
        #expect(third.added == 1)
        #expect(try target(of: "Shared", in: "A", vault) == "Shared.md")
        #expect(!third.findings.contains { $0.code == .brokenSymlink })
    }

    /// Only a symlink whose target does not exist loses its note. One that cannot be followed for another
    /// reason keeps what was indexed: here a target whose name is too long to look up (ENAMETOOLONG, which
    /// root meets too; permission denied and I/O errors take the same path).
    @Test func aSymlinkThatCannotBeFollowedKeepsItsEntry() throws {
        let (vault, outsideNote) = try vaultWithASymlinkedNote()
        #expect(try vault.index().notes == 2)
        try vault.remove("Shared.md")
        try vault.symlink("Shared.md", to: vault.outside.path + "/" + String(repeating: "n", count: 300) + ".md")
        let second = try vault.index()
        #expect(second.removed == 0)
        #expect(second.notes == 2)
        #expect(second.findings.contains { $0.code == .unreadableFile && $0.path == "Shared.md" && $0.message.contains("is kept") })
        #expect(try target(of: "Shared", in: "A", vault) == "Shared.md")
    }

    @Test func editsToASymlinkedFilesTargetAreSeen() throws {
        let vault = try TemporaryVault()
        try FileManager.default.createDirectory(at: vault.outside, withIntermediateDirectories: true)
        let outsideNote = vault.outside.appendingPathComponent("Agent.md")
        try Data("v1\n".utf8).write(to: outsideNote)
        try vault.symlink("Agents/Agent.md", to: outsideNote.path)
        try vault.index()
        try Data("v2 links to [[Agent]]\n".utf8).write(to: outsideNote)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(10)], ofItemAtPath: outsideNote.path)
        let report = try vault.index()
        #expect(report.modified == 1)
        #expect(report.links == 1)
    }

    @Test func symlinkLoopIsAFindingNotAHang() throws {
        let vault = try TemporaryVault()
        try vault.write("Folder/A.md", "a\n")
        try vault.symlink("Folder/Loop", to: vault.url("Folder").path)
        let report = try vault.index()
        #expect(report.notes == 1)
        #expect(report.findings.contains { $0.code == .symlinkLoop && $0.path == "Folder/Loop" })
    }

    @Test func unreadableVaultRootAbortsAndChangesNothing() throws {
        let vault = try TemporaryVault()
        try vault.write("A.md", "[[B]]\n")
        try vault.index()
        let before = try vault.store().canonicalDump()
        let store = try vault.store()
        #expect(throws: VaultError.self) {
            try Indexer(store: store, vaultRoot: vault.path + "/does-not-exist").run()
        }
        #expect(try vault.store().canonicalDump() == before)
    }

    @Test func binaryOversizedAndNonUTF8NotesAreFindingsNotCrashes() throws {
        let vault = try TemporaryVault()
        try vault.write("Binary.md", bytes: [0x23, 0x20, 0x00, 0x01, 0x02])
        try vault.write("Latin1.md", bytes: Array("caf".utf8) + [0xE9] + Array(" [[Target]]\n".utf8))
        try vault.write("Huge.md", String(repeating: "word ", count: 400) + "[[Target]]\n")
        try vault.write("Target.md", "t\n")
        var options = IndexOptions()
        options.maxNoteBytes = 1_000
        let report = try vault.index(options: options)
        #expect(report.notes == 4)
        #expect(report.findings.contains { $0.code == .binaryFile && $0.path == "Binary.md" })
        #expect(report.findings.contains { $0.code == .fileTooLarge && $0.path == "Huge.md" })
        let store = try vault.store()
        let latin = try #require(try store.resolveNote("Latin1"))
        let detail = try store.note(latin)
        #expect(detail.links.map(\.target) == ["Target.md"])
        #expect(detail.findings.contains { $0.code == .invalidUTF8 && $0.line == 1 && $0.column == 4 })
    }

    @Test func invalidYAMLStillIndexesTheBody() throws {
        let vault = try TemporaryVault()
        try vault.write("Bad.md", "---\ntitle: a: b\ntags: [x]\n---\nBody links to [[Good]] #bodytag\n")
        try vault.write("Good.md", "g\n")
        try vault.index()
        let store = try vault.store()
        let detail = try store.note(try #require(try store.resolveNote("Bad")))
        #expect(detail.frontmatter == nil)
        #expect(detail.links.map(\.target) == ["Good.md"])
        #expect(detail.tags.map(\.name) == ["bodytag"])
        let finding = try #require(detail.findings.first { $0.code == .invalidYAML })
        #expect(finding.path == "Bad.md")
        #expect(finding.line == 2)
        #expect(finding.column == 9)
    }

    @Test func unicodeNamesAreComparedInNFC() throws {
        let vault = try TemporaryVault()
        try vault.write("Cafe\u{301} culture.md", "decomposed on disk\n")  // NFD file name
        try vault.write("Links.md", "[[Café culture]] [[CAFÉ CULTURE]] [[日本語メモ]]\n")
        try vault.write("日本語メモ.md", "メモ #日本語\n")
        let report = try vault.index()
        #expect(report.unresolvedLinks == 0)
        let store = try vault.store()
        #expect(try store.resolveNote("Café culture")?.path == "Café culture.md")
        #expect(try store.tagCounts().map(\.tag) == ["日本語"])
    }

    @Test func anIndexKeptInsideTheVaultIsNotIndexedItself() throws {
        let vault = try TemporaryVault()
        try vault.write("A.md", "a\n")
        let database = vault.url("rhizome.sqlite").path
        var options = IndexOptions()
        options.excludedPaths = IndexLocation.excludedPaths(databasePath: database, vaultPath: vault.path)
        try vault.index(database: database, options: options)
        let report = try vault.index(database: database, options: options)
        #expect(report.files == 1)
        #expect(report.added == 0 && report.modified == 0)
    }

    @Test func rebuildRequestReparsesEveryFile() throws {
        let vault = try TemporaryVault()
        try vault.write("A.md", "[[B]]\n")
        try vault.write("B.md", "b\n")
        try vault.index()
        try vault.store().requestFullReparse()
        let report = try vault.index()
        #expect(report.modified == 2)
        #expect(try vault.index().modified == 0)
    }
}

/// Regressions found in review: each reproduces the input that broke an earlier version.
@Suite struct IndexRobustnessTests {
    @Test func aFarFutureModificationTimeDoesNotStopTheScan() throws {
        let vault = try TemporaryVault()
        try vault.write("Future.md", "[[Past]]\n")
        try vault.write("Past.md", "p\n")
        try vault.setModificationDate("Future.md", Date(timeIntervalSince1970: 10_413_792_000))  // year 2300
        try vault.setModificationDate("Past.md", Date(timeIntervalSince1970: -9_500_000_000))     // year 1669
        let report = try vault.index()
        #expect(report.notes == 2 && report.unresolvedLinks == 0)
        #expect(try vault.index().unchanged == 2)
    }

    @Test func aVaultThatSuddenlyListsNothingIsNotEmptiedFromTheIndex() throws {
        let vault = try TemporaryVault()
        for index in 0..<12 { try vault.write("N\(index).md", "[[N\((index + 1) % 12)]]\n") }
        try vault.index()
        let before = try vault.store().canonicalDump()
        for index in 0..<12 { try vault.remove("N\(index).md") }
        #expect(throws: VaultError.self) { try vault.index() }
        #expect(try vault.store().canonicalDump() == before)
        // Below the guard's minimum, emptying is allowed (a small vault really emptied).
        var options = IndexOptions()
        options.emptyVaultGuardMinimumFiles = 100
        #expect(try vault.index(options: options).notes == 0)
    }

    @Test func aWalkThatWouldRemoveMoreThanTheGuardFractionChangesNothingAScopedUpdateIncluded() throws {
        let vault = try TemporaryVault()
        for index in 0..<12 { try vault.write("N\(index).md", "[[N\((index + 1) % 12)]]\n") }
        try vault.index()
        let before = try vault.store().canonicalDump()
        // A folder being copied into place, a third of the way.
        for index in 4..<12 { try vault.remove("N\(index).md") }
        var guarded = IndexOptions()
        guarded.removalGuardFraction = 0.25
        let indexer = Indexer(store: try vault.store(), vaultRoot: vault.path, options: guarded)
        #expect(throws: VaultError.massRemoval(path: vault.path, removing: 8, indexedFiles: 12)) { try indexer.run() }
        // The watcher's scoped update hands a large removal to the walk, which refuses it alike.
        #expect(throws: VaultError.massRemoval(path: vault.path, removing: 8, indexedFiles: 12)) {
            try indexer.update(changedPaths: (4..<12).map { Array("N\($0).md".utf8) })
        }
        #expect(try vault.store().canonicalDump() == before)
        // Up to the fraction, removals go through; without the guard (`rhizome index`), all of them.
        try vault.write("N4.md", "[[N5]]\n")
        for index in 5..<12 { try vault.write("N\(index).md", "[[N0]]\n") }
        try vault.remove("N11.md")
        try vault.remove("N10.md")
        #expect(try indexer.update(changedPaths: [Array("N10.md".utf8), Array("N11.md".utf8)]).removed == 2)
        for index in 4..<10 { try vault.remove("N\(index).md") }
        #expect(try vault.index().removed == 6)
    }

    @Test func propertyLinksPointAtTheLinkTextThroughEscapesQuotesAndFolding() throws {
        let vault = try TemporaryVault()
        let text = "---\na: \"x \\u00e9\\t [[Target]]\"\nc: 'it''s [[Target]]'\nb: >\n  folded text\n  with [[Target]] and ![[Target]]\n---\n"
        try vault.write("P.md", text)
        try vault.write("Target.md", "t\n")
        try vault.index()
        let store = try vault.store()
        let links = try store.outgoingLinks(of: try #require(try store.resolveNote("P")).id)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(links.count == 4)
        for link in links {
            let rest = String(lines[link.line - 1].unicodeScalars.dropFirst(link.column - 1))
            #expect(rest.hasPrefix("[[Target]]") || rest.hasPrefix("![[Target]]"), "\(link.propertyKey ?? "") at \(link.line):\(link.column)")
        }
    }

    @Test func suggestionsForgiveTyposAndMissingAccents() throws {
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        try vault.index()
        let store = try vault.store()
        #expect(try store.suggestions(for: "Qick Note").first == "Quick Note.md")
        #expect(try store.suggestions(for: "Cafe culture").first == "Café culture.md")
    }

    @Test func tagsHaveNoEmptyNestedParts() throws {
        let vault = try TemporaryVault()
        try vault.write("Tags.md", "#/x #a//b #c/ #d/e\n---\n")
        try vault.index()
        let store = try vault.store()
        #expect(try store.note(try #require(try store.resolveNote("Tags"))).tags.map(\.name) == ["a", "c", "d/e"])
        #expect(try store.tagCounts().map(\.tag) == ["a", "c", "d", "d/e"])
    }

    @Test func markdownLinksInPropertiesResolveRelativeToTheNoteFirst() throws {
        let vault = try TemporaryVault()
        try vault.write("A/n.md", "---\nrelated: \"[x](Sub/Note.md)\"\n---\n")
        try vault.write("A/Sub/Note.md", "near\n")
        try vault.write("Sub/Note.md", "root\n")
        try vault.index()
        let store = try vault.store()
        let links = try store.outgoingLinks(of: try #require(try store.resolveNote("A/n")).id)
        #expect(links.map(\.target) == ["A/Sub/Note.md"])
        #expect(links.map(\.kind) == ["property"])
    }

    @Test func crashedBulkLoadDoesNotLeaveFullTextMergingOff() throws {
        let vault = try TemporaryVault()
        try vault.write("A.md", "a\n")
        try vault.index()
        _ = try vault.store().readOnlyQuery("SELECT 1")  // open once
        let writer = try SQLiteWriterForTests(path: vault.databasePath)
        try writer.execute("INSERT INTO note_fts(note_fts, rank) VALUES ('automerge', 0)")
        let store = try vault.store()
        #expect(try store.readOnlyQuery("SELECT v FROM note_fts_config WHERE k = 'automerge'").rows == [[.integer(4)]])
    }

    @Test func pathologicalFrontmatterIsAFindingAndTheBodyIsStillIndexed() throws {
        let vault = try TemporaryVault()
        var bomb = "---\na: &a [\"[[x]]\", \"[[x]]\", \"[[x]]\", \"[[x]]\", \"[[x]]\", \"[[x]]\", \"[[x]]\", \"[[x]]\", \"[[x]]\", \"[[x]]\"]\n"
        for (previous, name) in zip("abcdefgh", "bcdefghi") {
            bomb += "\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 10).joined(separator: ", ") + "]\n"
        }
        try vault.write("Bomb.md", bomb + "---\nBody links to [[Target]].\n")
        try vault.write("Deep.md", "---\nk: " + String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000) + "\n---\n[[Target]]\n")
        try vault.write("Target.md", "t\n")
        try vault.index()
        let store = try vault.store()
        for name in ["Bomb", "Deep"] {
            let detail = try store.note(try #require(try store.resolveNote(name)))
            #expect(detail.links.map(\.target) == ["Target.md"], "\(name)")
            #expect(detail.findings.contains { $0.code == .invalidYAML }, "\(name)")
        }
    }

    @Test func pathologicalLinesParseWithoutCrashing() throws {
        let vault = try TemporaryVault()
        let nested = String(repeating: "[a", count: 5_000) + String(repeating: "](x)", count: 5_000)
        let brackets = String(repeating: "[", count: 100_000)
        try vault.write("Openers.md", String(repeating: "[a](", count: 50_000) + " [[Target]]\n" + String(repeating: "![a](<", count: 30_000) + "\n")
        try vault.write("Nested.md", nested + "\n")
        try vault.write("Brackets.md", brackets + " [[Target]]\n")
        try vault.write("Target.md", "t\n")
        // A `[[` without `]]` inside link text must not hide a later wikilink on the line.
        try vault.write("Memo.md", "[x [[y](Target.md) then [[Target]]\n")
        try vault.index()
        let store = try vault.store()
        let memo = try store.outgoingLinks(of: try #require(try store.resolveNote("Memo")).id)
        #expect(memo.map(\.kind) == ["markdown", "wikilink"])
        #expect(memo.map(\.target) == ["Target.md", "Target.md"])
        #expect(try store.note(try #require(try store.resolveNote("Nested"))).links.count >= 1)
        #expect(try store.outgoingLinks(of: try #require(try store.resolveNote("Openers")).id).map(\.target) == ["Target.md"])
    }
}

/// `A.md` linking `[[Shared]]`, and `Shared.md`, a symlink to a note outside the vault that links back.
private func vaultWithASymlinkedNote() throws -> (vault: TemporaryVault, outsideNote: URL) {
    let vault = try TemporaryVault()
    try FileManager.default.createDirectory(at: vault.outside, withIntermediateDirectories: true)
    let outsideNote = vault.outside.appendingPathComponent("Shared.md")
    try Data("[[A]]\n".utf8).write(to: outsideNote)
    try vault.write("A.md", "[[Shared]]\n")
    try vault.symlink("Shared.md", to: outsideNote.path)
    return (vault, outsideNote)
}
