import Foundation
import Testing
import RhizomeCore
@testable import RhizomeStore
import RhizomeTestSupport

/// `FOO.MD`, `Note.Md`: a `.md` extension in any letter case is a note, as in Obsidian (whose files keep
/// their extension lowercased), and `[[FOO]]` reaches it the same way whether the index was built in one
/// run or kept up to date change by change (docs/OBSIDIAN.md, "Files").
@Suite struct ExtensionCaseTests {
    private func targets(_ store: IndexStore) throws -> [String: String] {
        let rows = try store.connection.prepare("SELECT source || ' → ' || link_path, coalesce(target, '∅') FROM links").rows { ($0.text(0), $0.text(1)) }
        return Dictionary(rows, uniquingKeysWith: { first, _ in first })
    }

    @Test func `a note renamed to FOO.MD keeps its backlinks, incrementally and in a rebuild`() throws {
        let vault = try TemporaryVault()
        try vault.write("Foo.md", "# Foo\n")
        try vault.write("Home.md", "[[Foo]] and [[foo.md]]\n")
        _ = try vault.index()
        try vault.move("Foo.md", to: "FOO.MD")
        _ = try vault.index()
        let incremental = try targets(vault.store())
        #expect(incremental["Home.md → Foo"] == "FOO.MD")
        #expect(incremental["Home.md → foo.md"] == "FOO.MD")
        let fresh = vault.scratchDatabasePath()
        _ = try vault.index(database: fresh)
        #expect(try targets(vault.store(database: fresh)) == incremental)
    }

    @Test func `ASCII and accented names with an upper-case extension resolve alike`() throws {
        let vault = try TemporaryVault()
        try vault.write("FOO.MD", "# Foo\n")
        try vault.write("Café.MD", "# Café\n")
        try vault.write("Note.Md", "[[Foo]] [[Café]] [[NOTE]]\n")
        _ = try vault.index()
        let resolved = try targets(vault.store())
        #expect(resolved["Note.Md → Foo"] == "FOO.MD")
        #expect(resolved["Note.Md → Café"] == "Café.MD")
        #expect(resolved["Note.Md → NOTE"] == "Note.Md")
    }

    @Test func `an index keyed by an older parser gets the new keys, so later small changes find the file`() throws {
        let vault = try TemporaryVault()
        try vault.write("FOO.MD", "# Foo\n")
        try vault.write("Home.md", "home\n")
        _ = try vault.index()
        let store = try vault.store()
        // As an index written before parser version 6 had it: the key kept `.md`.
        try store.connection.execute("UPDATE file SET resolve_key = 'foo.md' WHERE path = 'FOO.MD'")
        try store.setMeta("parser_version", "5")
        _ = try vault.index()
        #expect(try store.connection.prepare("SELECT resolve_key FROM file WHERE path = 'FOO.MD'").rows { $0.text(0) } == ["foo"])
        try vault.write("Home.md", "now [[Foo]]\n")
        var small = IndexOptions()
        small.candidateResolutionMaximumFiles = 256
        _ = try vault.index(options: small)
        #expect(try targets(vault.store())["Home.md → Foo"] == "FOO.MD")
    }
}
