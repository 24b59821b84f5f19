import Foundation
import Testing
import RhizomeCore
import RhizomeStore
import RhizomeTestSupport

/// End-to-end on `Vault-Example/` (copied to a temp dir): every expectation here was derived by reading
/// the notes (see Vault-Example/README.md, "Edge cases").
@Suite struct VaultExampleIndexTests {
    let vault: TemporaryVault
    let store: IndexStore
    let links: IndexedLinks

    init() throws {
        vault = try TemporaryVault(copying: Fixtures.vaultExample)
        try vault.index()
        store = try vault.store()
        links = try IndexedLinks(store)
    }

    @Test func resolvesLinksAsObsidianDoes() throws {
        let expectations: [(String, Int, String, String?)] = [
            ("Home.md", 14, "project alpha", "Projects/Alpha/Project Alpha.md"),          // case differs
            ("Home.md", 19, "Backlog", "Ideas/Backlog.md"),                               // equal length: alphabetical
            ("Home.md", 20, "Reading list.md", "Reading list.md"),                        // <angle brackets>
            ("Home.md", 26, "Quick Note", "Quick Note.md"),                               // embed
            ("Daily/2026-11-16.md", 15, "Meeting notes", "Meetings/Meeting notes.md"),    // shortest of three
            ("Daily/2026-11-16.md", 15, "Priya Raman", "People/Priya Raman.md"),
            ("Daily/2026-11-16.md", 20, "Onboarding guide", nil),
            ("Projects/Rhizome/Rhizome.md", 29, "Meeting notes", "Projects/Rhizome/Meeting notes.md"),  // same folder
            ("Projects/Alpha/Project Alpha.md", 28, "Meeting notes", "Projects/Alpha/Meeting notes.md"),
            ("Meetings/Meeting notes.md", 8, "Projects/Rhizome/Meeting notes", "Projects/Rhizome/Meeting notes.md"),
            ("Daily/2026-11-19.md", 11, "Index", "Index.md"),                             // exact vault path
            ("Projects/Rhizome/Design/Link resolution.md", 20, "diagram", nil),           // attachments need their extension
            ("Projects/Rhizome/Design/Link resolution.md", 20, "diagram.png", "Attachments/diagram.png"),
            ("Projects/Rhizome/Design/Link resolution.md", 31, "Projects/Alpha/Meeting notes", "Projects/Alpha/Meeting notes.md"),
            ("Projects/Rhizome/Design/Link resolution.md", 36, "", "Projects/Rhizome/Design/Link resolution.md"),
            ("Projects/Rhizome/Design/Link resolution.md", 40, "../Rhizome.md", "Projects/Rhizome/Rhizome.md"),
            ("Daily/2026-11-19.md", 9, "Link resolution", "Projects/Rhizome/Design/Link resolution.md"),
            ("Daily/2026-11-19.md", 16, "rhizome", "Projects/Rhizome/Rhizome.md"),
            ("Meetings/2026-11-17 Alpha sync.md", 14, "Priya", nil),                      // an alias does not resolve
            ("Meetings/2026-11-17 Alpha sync.md", 23, "../Attachments/spec.pdf", "Attachments/spec.pdf"),
            ("Daily/2026-11-18.md", 12, "Projects/Rhizome/Design/Storage schema.md", "Projects/Rhizome/Design/Storage schema.md"),
            ("Projects/Rhizome/Rhizome.md", 30, "Design/Link resolution.md", "Projects/Rhizome/Design/Link resolution.md"),
            ("Daily/2026-11-17.md", 14, "../Attachments/spec.pdf", "Attachments/spec.pdf"),
            ("Projects/Rhizome/Design/Watcher.md", 11, "../Rhizome", "Projects/Rhizome/Rhizome.md"),
            ("Ideas/Weekly review ritual.md", 10, "Backlog", "Ideas/Backlog.md"),
            ("Projects/Rhizome/Design/Parser test cases.md", 30, "Storage schema", "Projects/Rhizome/Design/Storage schema.md"),  // in %% %%
            ("Projects/Rhizome/Design/Parser test cases.md", 31, "Quick Note", "Quick Note.md"),          // trailing space trimmed
            ("Projects/Rhizome/Design/Parser test cases.md", 32, "|alias", nil),
            ("Projects/Rhizome/Design/Parser test cases.md", 32, "|", nil),
            ("Projects/Rhizome/Design/Parser test cases.md", 34, "Link resolution", "Projects/Rhizome/Design/Link resolution.md"),
            ("Projects/Rhizome/Design/Parser test cases.md", 41, "Priya Raman", "People/Priya Raman.md"),  // \| in a table
            ("Ideas/Agent-written links.md", 21, "Don’t repeat yourself", "Don’t repeat yourself.md"),
            ("Daily/2026-11-21.md", 14, "日本語メモ", "日本語メモ.md"),
            ("Index.md", 12, "Rhizome map.canvas", "Projects/Rhizome/Rhizome map.canvas"),
        ]
        for (source, line, linkPath, expected) in expectations {
            let found = links.target(source, line: line, linkPath)
            #expect(found == .some(expected), "\(source):\(line) [[\(linkPath)]]")
        }
    }

    @Test func aLinkWrittenInNFDResolvesToTheNFCFile() throws {
        let home = links.occurrences(in: "Home.md").filter { $0.line == 23 && $0.linkPath.hasPrefix("Caf") }
        #expect(home.map(\.target) == ["Café culture.md"])
        #expect(home.first?.linkPath == "Café culture")  // stored in NFC
    }

    @Test func subpathsAndDisplayTextAreKept() throws {
        let nested = try #require(links.occurrences(in: "Daily/2026-11-19.md").first { $0.line == 9 && $0.linkPath == "Link resolution" })
        #expect(nested.subpath == "Rules#Shortest path")
        let block = try #require(links.occurrences(in: "Projects/Rhizome/Design/Parser test cases.md").first { $0.line == 35 })
        #expect(block.kind == "embed")
        #expect(block.subpath == "^rule-table")
        let table = try #require(links.occurrences(in: "Projects/Rhizome/Design/Link resolution.md").first { $0.line == 31 })
        #expect(table.display == "Alpha's log")
    }

    @Test func fakeLinksInCodeCommentsAndEscapesAreNotCounted() throws {
        let parserNote = "Projects/Rhizome/Design/Parser test cases.md"
        for line in [16, 20, 23, 24, 25, 26] {
            #expect(!links.lines(in: parserNote).contains(line), "line \(line) must have no links")
        }
        #expect(!links.lines(in: "Sessions/2026-11-18 Watcher debounce.md").contains(29))
        #expect(links.occurrences(in: "README.md").map(\.linkPath).sorted() == ["Home", "Rhizome"])
    }

    @Test func propertyLinksCarryTheirKeyAndUnquotedOnesAreNotLinks() throws {
        let rhizome = links.occurrences(in: "Projects/Rhizome/Rhizome.md").filter { $0.kind == "property" }
        #expect(rhizome.map(\.propertyKey) == ["related", "related", "related"])
        #expect(rhizome.map(\.target) == [
            "Projects/Rhizome/Design/Link resolution.md", "Projects/Rhizome/Plans/Plan - Incremental indexing.md", "People/Tomás Ferreira.md",
        ])
        let json = links.occurrences(in: "Ideas/Embedding-free search.md").filter { $0.kind == "property" }
        #expect(json.map(\.target) == ["Reading/SQLite FTS5 docs.md"])
        let markdownProperty = links.occurrences(in: "Reading/SQLite FTS5 docs.md").filter { $0.kind == "property" }
        #expect(markdownProperty.map(\.propertyKey) == ["see_also"])
        #expect(markdownProperty.map(\.target) == ["Projects/Rhizome/Design/Storage schema.md"])
        let session = links.occurrences(in: "Sessions/2026-11-18 Watcher debounce.md").filter { $0.kind == "property" }
        #expect(session.map(\.propertyKey) == ["project"])  // quoted; `parent: [[…]]` unquoted is a nested list
        // Invalid YAML: no properties, so no property links.
        #expect(links.occurrences(in: "Sessions/2026-11-19 Link resolver refactor.md").allSatisfy { $0.kind != "property" })
    }

    @Test func canvasFilesAreLinkSources() throws {
        let canvas = links.occurrences(in: "Projects/Rhizome/Rhizome map.canvas")
        #expect(Set(canvas.filter { $0.kind == "canvas-file" }.compactMap(\.target)) == ["Projects/Rhizome/Design/Link resolution.md", "Attachments/diagram.png"])
        #expect(Set(canvas.filter { $0.kind == "wikilink" }.map(\.linkPath)) == ["Rhizome", "Link resolution", "Storage schema", "ADR-001 Use SQLite"])
        #expect(canvas.allSatisfy { $0.target != nil })
        // Positions are in the .canvas file: each points at the link text (or the file node's path).
        let lines = try vault.read("Projects/Rhizome/Rhizome map.canvas").split(separator: "\n", omittingEmptySubsequences: false)
        for link in canvas {
            let rest = String(lines[link.line - 1].unicodeScalars.dropFirst(link.column - 1))
            #expect(rest.hasPrefix(link.kind == "canvas-file" ? link.linkPath : "[[" + link.linkPath), "\(link.linkPath) at \(link.line):\(link.column)")
        }
    }

    @Test func tagsFollowObsidiansRules() throws {
        func tags(_ note: String) throws -> Set<String> {
            let file = try #require(try store.resolveNote(note))
            return Set(try store.note(file).tags.map { $0.name.lowercased() })
        }
        #expect(try tags("Projects/Rhizome/Design/Parser test cases") == ["project/rhizome/design/parser", "testing", "parser/comment-tag", "y1984", "parser/edge-cases"])
        #expect(try tags("Projects/Rhizome/Rhizome") == ["project", "project/rhizome", "swift"])
        #expect(try tags("Tag garden") == ["maintenance/tags"])
        #expect(try tags("日本語メモ") == ["日本語", "language/japanese", "メモ", "language/japanese/phrases"])
        let rollup = try #require(try store.tagCounts().first { $0.tag == "project" })
        let children = try store.files(withTag: "#project")
        #expect(rollup.notes == children.count)
        #expect(children.contains { $0.path == "Projects/Rhizome/Rhizome.md" })
    }

    @Test func tasksKeepTheirStatusCharacter() throws {
        let tasks = try store.tasks().filter { $0.path == "Daily/2026-11-18.md" }
        #expect(tasks.map(\.line) == Array(15...24))
        #expect(tasks.map(\.status) == [" ", "x", "X", ">", "-", "?", " ", "x", " ", "x"])
        #expect(try store.tasks(.open).filter { $0.path == "Daily/2026-11-18.md" }.count == 3)
        #expect(try store.tasks(.done).filter { $0.path == "Daily/2026-11-18.md" }.count == 4)
    }

    @Test func orphansDeadEndsAndUnresolvedMatchTheVault() throws {
        #expect(try store.orphans().map(\.path) == ["Daily/2026-11-20.md", "README.md"])
        #expect(try store.deadEnds().map(\.path) == ["Quick Note.md"])
        let unresolved = try store.unresolvedLinks().map(\.linkPath)
        #expect(unresolved.sorted() == ["DDIA", "Git-backed history", "Onboarding guide", "Onboarding guide", "Onboarding guide", "Priya",
                                        "Thinking in Systems", "Thinking in Systems", "diagram", "|", "|alias"].sorted())
    }

    @Test func invalidFrontmatterIsAFindingWithItsLocation() throws {
        let findings = try store.findings()
        let yaml = try #require(findings.first { $0.code == .invalidYAML })
        #expect(yaml.path == "Sessions/2026-11-19 Link resolver refactor.md")
        #expect(yaml.line == 7 && yaml.column == 16)
        #expect(findings.contains { $0.code == .invalidTagValue && $0.path == "Ideas/Tag garden.md" })
    }

    @Test func searchRanksTitlesAndIgnoresDiacritics() throws {
        let hits = try store.search("cafe")
        #expect(hits.first?.path == "Café culture.md")
        let prefix = try store.search("resolv*")
        #expect(prefix.contains { $0.path == "Projects/Rhizome/Design/Link resolution.md" })
        #expect(try store.search("zzzz-no-such-word").isEmpty)
        // Japanese words inside longer runs of kana and kanji are found, and snippets read as written.
        let cafe = try #require(try store.search("カフェ").first)
        #expect(cafe.path == "日本語メモ.md")
        #expect(cafe.snippet.contains("**カフェ**で作業する"))
        #expect(try store.search("フレーズ").contains { $0.path == "日本語メモ.md" })
        #expect(try store.search("日本語").first?.path == "日本語メモ.md")
        // An exact title match ranks first even when its words occur in most notes.
        #expect(try store.search("link resolution").first?.path == "Projects/Rhizome/Design/Link resolution.md")
    }

    @Test func neighborsAndPathsFollowResolvedLinks() throws {
        let home = try #require(try store.resolveNote("Home"))
        let near = try store.neighbors(of: home.id, depth: 1, direction: .outgoing)
        #expect(near.contains { $0.path == "Projects/Alpha/Project Alpha.md" && $0.distance == 1 })
        #expect(near.allSatisfy { $0.distance == 1 })
        let quick = try #require(try store.resolveNote("Quick Note"))
        let chain = try #require(try store.shortestPath(from: home.id, to: quick.id))
        #expect(chain.map(\.path) == ["Home.md", "Quick Note.md"])
        #expect(try store.shortestPath(from: quick.id, to: home.id) == nil)  // Quick Note is a dead end
    }

    @Test func sqlIsReadOnly() throws {
        let readOnly = try IndexStore(readOnlyPath: vault.databasePath)
        let result = try readOnly.readOnlyQuery("SELECT count(*) AS n FROM notes")
        #expect(result.columns == ["n"])
        #expect(result.rows == [[.integer(60)]])
        #expect(throws: StoreError.self) { try readOnly.readOnlyQuery("DELETE FROM file") }
        #expect(throws: StoreError.notReadOnly) { try store.readOnlyQuery("DELETE FROM file") }
        #expect(throws: StoreError.multipleStatements) { try readOnly.readOnlyQuery("SELECT 1; DELETE FROM file") }
        #expect(throws: StoreError.multipleStatements) { try readOnly.readOnlyQuery("SELECT 1; SELECT 2") }
        #expect(try readOnly.readOnlyQuery("SELECT 1; -- a comment").rows == [[.integer(1)]])
        #expect(throws: StoreError.emptyQuery) { try readOnly.readOnlyQuery("  -- nothing ") }
        // 64-bit values stay exact.
        let times = try readOnly.readOnlyQuery("SELECT mtime_ns FROM file WHERE mtime_ns > 9007199254740993 LIMIT 1")
        if case .integer(let value)? = times.rows.first?.first { #expect(value > 9_007_199_254_740_993) } else { Issue.record("no exact integer") }
    }
}
