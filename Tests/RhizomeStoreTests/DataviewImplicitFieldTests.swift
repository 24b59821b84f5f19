import Foundation
import Testing
import RhizomeCore
import RhizomeStore
import RhizomeTestSupport

/// One test per implicit `file.*` field, on an indexed copy of `Vault-Example/` (with a few notes added
/// to the copy where the vault has no example). Expected values come from reading the notes and the
/// field's definition in /work/dataview-spec.md §3.
@Suite struct DataviewImplicitFieldTests {
    /// A note with nested lists, a task with its own field, a block id and a date in its name and in a field.
    static let outline = """
        ---
        type: outline
        date: 2026-02-01
        ---
        # Outline

        Intro with [[Home]].

        ## First
        - parent item [p:: 1]
            - child one
            - [ ] child task [due:: 2026-12-01]
                - grandchild
        - second root

        ## Second
        1. numbered
            continuation line ^blk
        - mood:: calm
        """
    static let outlinePath = "Notes/2026-01-05 Outline.md"
    /// 2025-03-04T10:20:30.250Z, the modification time given to Inbox.md.
    static let inboxModified = Date(timeIntervalSince1970: 1_741_083_630.25)

    let vault: DataviewVault

    init() throws {
        vault = try DataviewVault { copy in
            try copy.write(Self.outlinePath, Self.outline)
            try copy.write("Notes/2026-03-07 Standup.md", "# Standup\n")
            try copy.write("Notes/Standup 20260308.md", "# Standup\n")
            try copy.setModificationDate("Inbox.md", Self.inboxModified)
        }
    }

    @Test func fileNameIsTheLastPathSegmentWithoutMd() throws {
        #expect(try vault.rows(#"TABLE file.name FROM "Projects/Rhizome" WHERE contains(file.name, ".")"#) == [
            ["Projects/Rhizome/v0.1 release notes.md", "v0.1 release notes"],
        ])
        #expect(try vault.paths(#"LIST WHERE file.name = "Index""#).sorted() == ["Index.md", "Projects/Rhizome/Index.md"])
        #expect(try vault.paths(#"LIST WHERE file.name = "🚀 Launch checklist""#) == ["🚀 Launch checklist.md"])
        #expect(try vault.paths(#"LIST WHERE file.name = "Café culture""#) == ["Café culture.md"])
        #expect(try vault.paths(#"LIST WHERE file.name = "日本語メモ""#) == ["日本語メモ.md"])
    }

    @Test func fileFolderIsThePathWithoutTheNameAndEmptyAtTheRoot() throws {
        #expect(try vault.rows(#"TABLE file.folder FROM "Projects/Rhizome/Design/Research""#) == [
            ["Projects/Rhizome/Design/Research/Obsidian resolution experiments.md", "Projects/Rhizome/Design/Research"],
        ])
        #expect(try vault.paths(#"LIST WHERE file.folder = """#).sorted() == [
            "Café culture.md", "Don’t repeat yourself.md", "Home.md", "Inbox.md", "Index.md", "Quick Note.md", "README.md",
            "Reading list.md", "日本語メモ.md", "🚀 Launch checklist.md",
        ].sorted())
    }

    @Test func filePathIsTheVaultPathWithTheExtension() throws {
        #expect(try vault.paths(#"LIST WHERE file.path = "Projects/Rhizome/Index.md""#) == ["Projects/Rhizome/Index.md"])
        let rows = try vault.rows(#"TABLE file.path FROM "Reading""#)
        #expect(rows.allSatisfy { $0[0] == $0[1] })
        #expect(try vault.paths(#"LIST WHERE file.path = "Projects/Rhizome/Index""#).isEmpty)
    }

    @Test func fileExtIsMd() throws {
        #expect(try vault.paths(#"LIST WHERE file.ext != "md""#).isEmpty)
        #expect(try vault.rows(#"TABLE WITHOUT ID file.ext FROM "Reading" LIMIT 1"#) == [["md"]])
    }

    @Test func fileLinkIsALinkToTheNoteShownByItsName() throws {
        let result = try vault.run(#"TABLE file.link FROM "Reading" SORT file.name LIMIT 1"#)
        guard case .link(let link)? = result.rows.first?.values.first else {
            Issue.record("file.link is not a link: \(result.textRows)")
            return
        }
        #expect(link.path == "Reading/A Philosophy of Software Design.md")
        #expect(link.subpath == nil && !link.isEmbed)
        #expect(link.shownText == "A Philosophy of Software Design")
        #expect(link.markdown == "[[Reading/A Philosophy of Software Design|A Philosophy of Software Design]]")
        #expect(try vault.paths("LIST WHERE file.link = [[How to Take Smart Notes]]") == ["Reading/How to Take Smart Notes.md"])
        #expect(try vault.rows(#"TABLE WITHOUT ID typeof(file.link) FROM "Reading" LIMIT 1"#) == [["link"]])
    }

    @Test func fileSizeIsTheNumberOfBytesOnDisk() throws {
        for row in try vault.rows(#"TABLE file.size FROM "Reading""#) {
            let attributes = try FileManager.default.attributesOfItem(atPath: vault.vault.url(row[0]).path)
            #expect(row[1] == String(try #require(attributes[.size] as? Int)), "\(row[0])")
        }
        let philosophy = try FileManager.default.attributesOfItem(atPath: vault.vault.url(VaultExampleNotes.reading[0]).path)[.size] as? Int
        #expect(try vault.paths(#"LIST FROM "Reading" WHERE file.size = \#(try #require(philosophy))"#) == [VaultExampleNotes.reading[0]])
    }

    @Test func fileMtimeIsTheModificationTimeAndMdayItsDay() throws {
        // The time as the file system keeps it (setting it may lose a nanosecond or so).
        let attributes = try FileManager.default.attributesOfItem(atPath: vault.vault.url("Inbox.md").path)
        let expected = DataviewDate(instant: try #require(attributes[.modificationDate] as? Date))
        #expect(abs((attributes[.modificationDate] as? Date ?? .distantPast).timeIntervalSince(Self.inboxModified)) < 0.001)
        let result = try vault.run(#"TABLE file.mtime, file.mday, typeof(file.mtime) FROM "Inbox""#)
        #expect(result.textRows == [["Inbox.md", expected.isoText, expected.startOfDay.isoText, "date"]])
        if case .date(let modified)? = result.rows.first?.values.first { #expect(modified.hasTime) }
        let day = "\(expected.year)-\(String(format: "%02d", expected.month))-\(String(format: "%02d", expected.day))"
        #expect(try vault.paths("LIST WHERE file.mday = date(\(day))") == ["Inbox.md"])
        #expect(try vault.paths("LIST WHERE file.mtime < date(\(day)) + dur(1 day) SORT file.mtime") == ["Inbox.md"])
    }

    @Test func fileCtimeIsTheCreationTimeAndCdayItsDay() throws {
        let result = try vault.run(#"TABLE file.ctime, file.cday FROM "Quick Note.md""#)
        guard case .date(let created)? = result.rows.first?.values.first, case .date(let day)? = result.rows.first?.values.last else {
            Issue.record("file.ctime / file.cday are not dates: \(result.textRows)")
            return
        }
        #expect(created.hasTime && !day.hasTime)
        #expect(day == created.startOfDay)
        // The file's birth time where the file system records one, else (as Dataview on such systems) its mtime.
        let attributes = try FileManager.default.attributesOfItem(atPath: vault.vault.url("Quick Note.md").path)
        let source = (attributes[.creationDate] as? Date) ?? (attributes[.modificationDate] as? Date)
        #expect(created.isoText == DataviewDate(instant: try #require(source)).isoText)
    }

    @Test func fileTagsHaveEveryParentAndFileEtagsOnlyTheTagsAsWritten() throws {
        // Body tag first, then the frontmatter's (one written with a quoted `#`).
        #expect(try vault.rows(#"TABLE file.etags, file.tags FROM "Reading/A Philosophy of Software Design""#) == [[
            "Reading/A Philosophy of Software Design.md",
            "[#reading/notes, #reading/books, #engineering/design]",
            "[#reading/notes, #reading, #reading/books, #engineering/design, #engineering]",
        ]])
        // `#1984` in the prose is no tag; `#reading/queue` is, and adds its parent once.
        #expect(try vault.rows(#"TABLE file.etags, file.tags FROM "Reading list""#) == [[
            "Reading list.md", "[#reading/queue, #reading, #lists]", "[#reading/queue, #reading, #lists]",
        ]])
        #expect(try vault.rows(#"TABLE file.etags FROM "Quick Note""#) == [["Quick Note.md", "[]"]])
        #expect(try vault.paths("LIST WHERE contains(file.tags, \"#life\")") == ["Café culture.md"])
    }

    @Test func legacyAndCommaSeparatedFrontmatterTagsAndAliasesCountAsDataviewReadsThem() throws {
        // Dataview reads `tag:`/`tags:` in any case, splits strings on commas and spaces, and reads
        // `alias:` as well (spec §2), where Obsidian 1.9 reads none of these.
        #expect(try vault.rows(#"TABLE file.etags, file.aliases FROM "Reading/Designing Data-Intensive Applications""#) == [[
            "Reading/Designing Data-Intensive Applications.md", "[#reading/books]", "[DDIA]",
        ]])
        #expect(try vault.rows(#"TABLE file.etags FROM "Ideas/Tag garden""#) == [[
            "Ideas/Tag garden.md", "[#maintenance/tags, #tagging, #maintenance]",
        ]])
        #expect(try vault.rows(#"TABLE file.etags FROM "Ideas/Agent-written links""#) == [[
            "Ideas/Agent-written links.md", "[#idea/later, #ideas]",
        ]])
        #expect(try vault.paths("LIST FROM #reading/books").sorted() == [
            "Reading/A Philosophy of Software Design.md", "Reading/Designing Data-Intensive Applications.md",
            "Reading/How to Take Smart Notes.md",
        ])
    }

    @Test func fileInlinksAreTheNotesLinkingHereOnceEach() throws {
        #expect(try vault.rows(#"TABLE file.inlinks FROM "Reading list""#) == [[
            "Reading list.md",
            "[Home.md, Inbox.md, Index.md, Reading/A Philosophy of Software Design.md, Reading/SQLite FTS5 docs.md]",
        ]])
        // Plans/2026 Q4 goals links Project Alpha three times (property and body): one inlink.
        let alpha = try vault.run(#"TABLE length(file.inlinks) AS n FROM "Projects/Alpha/Project Alpha""#)
        #expect(alpha.textRows == [["Projects/Alpha/Project Alpha.md", "10"]])
        #expect(try vault.rows(#"TABLE file.inlinks FROM "Daily/2026-11-20""#) == [["Daily/2026-11-20.md", "[]"]])  // an orphan
        // Backlinks in a WHERE: notes that link to the note the query runs in.
        #expect(try vault.paths("LIST WHERE contains(file.outlinks, this.file.link)", in: "Reading list.md").count == 5)
    }

    @Test func fileOutlinksAreEveryLinkOnceResolvedOrNot() throws {
        // Two links to the incremental-indexing plan (one with a heading) give one; the unresolved
        // [[Onboarding guide#Setup]] keeps its text.
        let daily = try vault.run(#"TABLE file.outlinks FROM "Daily/2026-11-16""#)
        guard case .list(let links)? = daily.rows.first?.values.first else {
            Issue.record("file.outlinks is not a list: \(daily.textRows)")
            return
        }
        #expect(links.map(brief).sorted() == [
            "Ideas/Backlog.md", "Inbox.md", "Meetings/Meeting notes.md", "Onboarding guide", "People/Priya Raman.md",
            "Projects/Alpha/Project Alpha.md", "Projects/Rhizome/Plans/Plan - Incremental indexing.md",
            "Reading/A Philosophy of Software Design.md",
        ])
        #expect(links.allSatisfy { if case .link(let link) = $0 { link.subpath == nil && link.display == nil } else { false } })
        // Embeds, markdown links, an NFD-written link and attachments count.
        let home = try vault.rows(#"TABLE file.outlinks FROM "Home""#)[0][1]
        for target in ["Quick Note.md", "Daily/2026-11-18.md", "Reading list.md", "Café culture.md", "Plans/Backlog.md", "Ideas/Backlog.md"] {
            #expect(home.contains(target), "\(target)")
        }
        // Frontmatter links count.
        let plan = try vault.rows(#"TABLE file.outlinks FROM "Projects/Rhizome/Plans/Plan - Incremental indexing""#)[0][1]
        #expect(plan.contains("Projects/Rhizome/Rhizome.md") && plan.contains("People/Tomás Ferreira.md"))
        #expect(try vault.rows(#"TABLE file.outlinks FROM "Quick Note""#) == [["Quick Note.md", "[]"]])  // a dead end
        #expect(try vault.rows(#"TABLE file.outlinks FROM "Reading list""#) == [[
            "Reading list.md",
            "[Reading/A Philosophy of Software Design.md, Reading/How to Take Smart Notes.md, Reading/Designing Data-Intensive Applications.md, Thinking in Systems, Reading/SQLite FTS5 docs.md]",
        ]])
    }

    @Test func fileAliasesAreTheAliasesProperty() throws {
        #expect(try vault.rows(#"TABLE file.aliases FROM "People""#) == [
            ["People/Jonah Weiss.md", "[]"], ["People/Priya Raman.md", "[Priya, P. Raman]"], ["People/Tomás Ferreira.md", "[Tomás, Tomas]"],
        ])
        #expect(try vault.paths(#"LIST WHERE contains(file.aliases, "DRY")"#) == ["Don’t repeat yourself.md"])
    }

    @Test func fileTasksAreTheTasksOfTheNote() throws {
        #expect(try vault.rows(#"TABLE length(file.tasks) AS n, file.tasks.status AS statuses FROM "Daily/2026-11-18""#) == [[
            "Daily/2026-11-18.md", "10", "[ , x, X, >, -, ?,  , x,  , x]",
        ]])
        #expect(try vault.rows(#"TABLE file.tasks.completed FROM "Plans/2026 Q4 goals""#) == [[
            "Plans/2026 Q4 goals.md", "[true, false, false, false, false, false, false]",
        ]])
        // Plain list items are not tasks.
        #expect(try vault.rows(#"TABLE length(file.tasks) AS tasks, length(file.lists) AS items FROM "Quick Note""#) == [["Quick Note.md", "0", "4"]])
        #expect(try vault.rows(#"TABLE file.tasks.text FROM "Notes/2026-01-05 Outline""#) == [[
            Self.outlinePath, "[child task [due:: 2026-12-01]]",
        ]])
    }

    @Test func fileListsAreEveryListItemWithLinesSectionsAndNesting() throws {
        let base = #"TABLE WITHOUT ID "# + "%@" + #" FROM "Notes/2026-01-05 Outline""#
        func value(_ expression: String) throws -> String {
            try vault.rows(base.replacingOccurrences(of: "%@", with: expression)).first?.first ?? "<no row>"
        }
        #expect(try value("file.lists.line") == "[9, 10, 11, 12, 13, 16, 18]")  // 0-based, frontmatter counted
        #expect(try value("file.lists.task") == "[false, false, true, false, false, false, false]")
        #expect(try value("file.lists.parent") == "[-, 9, 9, 11, -, -, -]")
        #expect(try value("map(file.lists, (l) => length(l.children))") == "[2, 0, 1, 0, 0, 0, 0]")
        #expect(try value("file.lists[0].children.text") == "[child one, child task [due:: 2026-12-01]]")
        #expect(try value("file.lists[0].children[1].children.text") == "[grandchild]")
        #expect(try value("file.lists.section") == "[" + [String](repeating: Self.outlinePath + "#First", count: 5).joined(separator: ", ")
            + ", \(Self.outlinePath)#Second, \(Self.outlinePath)#Second]")
        #expect(try value("file.lists[5].link") == Self.outlinePath + "#^blk")
        #expect(try value("file.lists[5].blockId") == "blk")
        #expect(try value("file.lists[5].lineCount") == "2")
        #expect(try value("file.lists.symbol") == "[-, -, -, -, -, 1., -]")
        #expect(try value("file.lists.annotated") == "[true, false, true, false, false, false, true]")
        #expect(try value("file.lists[0].p") == "1")
        #expect(try value("file.lists[0].text") == "parent item [p:: 1]")
        // On Vault-Example: numbered tasks and plain items under their headings.
        let plan = #"TABLE WITHOUT ID file.lists.line, file.lists.section FROM "Projects/Rhizome/Plans/Plan - Incremental indexing""#
        let path = "Projects/Rhizome/Plans/Plan - Incremental indexing.md"
        #expect(try vault.rows(plan) == [[
            "[17, 18, 19, 20, 23, 24]",
            "[" + [path + "#Steps", path + "#Steps", path + "#Steps", path + "#Steps", path + "#Open risks", path + "#Open risks"]
                .joined(separator: ", ") + "]",
        ]])
    }

    @Test func fieldsOfPlainListItemsBelongToThePageAndFieldsOfTasksToTheTask() throws {
        #expect(try vault.rows(#"TABLE p, mood, due FROM "Notes/2026-01-05 Outline""#) == [[Self.outlinePath, "1", "calm", "-"]])
        let tasks = try vault.run(#"TASK FROM "Notes" WHERE due = date(2026-12-01)"#)
        #expect(tasks.tasks.map(\.text) == ["child task [due:: 2026-12-01]"])
        // Task rows also see the page's fields.
        #expect(try vault.run(#"TASK FROM "Notes" WHERE mood = "calm" AND p = 1"#).tasks.count == 1)
    }

    @Test func fileFrontmatterIsTheRawFrontmatter() throws {
        // Quoted wikilinks stay text in the raw frontmatter; as fields they are links.
        #expect(try vault.rows(#"TABLE WITHOUT ID file.frontmatter.related, typeof(file.frontmatter.related[0]), typeof(related[0]) FROM "Projects/Alpha/Project Alpha""#) == [[
            "[[[Plan - Invoice export]], [[ADR-A01 Render PDFs on the server]]]", "string", "link",
        ]])
        #expect(try vault.rows(#"TABLE WITHOUT ID length(file.frontmatter), file.frontmatter.client FROM "Projects/Alpha/Project Alpha""#)
            == [["9", "Fernhill Logistics"]])
        // JSON frontmatter is frontmatter too; no frontmatter and invalid YAML give an empty object.
        #expect(try vault.rows(#"TABLE WITHOUT ID file.frontmatter.status FROM "Ideas/Embedding-free search""#) == [["seed"]])
        #expect(try vault.rows(#"TABLE WITHOUT ID length(file.frontmatter) FROM "Inbox" or "Sessions/2026-11-19 Link resolver refactor""#)
            == [["0"], ["0"]])
    }

    @Test func fileDayIsADateFieldElseTheDateInTheName() throws {
        #expect(try vault.rows(#"TABLE file.day FROM "Daily/2026-11-16""#) == [["Daily/2026-11-16.md", "2026-11-16"]])
        // A `date:` field without a date in the name; a date field wins over the name's date.
        #expect(try vault.rows(#"TABLE file.day FROM "Projects/Rhizome/v0.1 release notes""#) == [["Projects/Rhizome/v0.1 release notes.md", "2026-11-02"]])
        #expect(try vault.rows(#"TABLE file.day FROM "Notes/2026-01-05 Outline""#) == [[Self.outlinePath, "2026-02-01"]])
        // Only a date in the name, in either form; neither gives null.
        #expect(try vault.rows(#"TABLE file.day FROM "Notes/2026-03-07 Standup""#) == [["Notes/2026-03-07 Standup.md", "2026-03-07"]])
        #expect(try vault.rows(#"TABLE file.day FROM "Notes/Standup 20260308""#) == [["Notes/Standup 20260308.md", "2026-03-08"]])
        #expect(try vault.rows(#"TABLE file.day FROM "Home""#) == [["Home.md", "-"]])
        #expect(try vault.paths(#"LIST FROM "Daily" WHERE file.day >= date(today) - dur(2 days)"#) == [
            "Daily/2026-11-20.md", "Daily/2026-11-21.md", "Daily/2026-11-22.md",
        ])
    }
}
