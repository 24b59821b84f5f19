import Foundation
import Testing
import RhizomeCore
import RhizomeStore
import RhizomeTestSupport

/// Dataview queries evaluated on an indexed copy of `Vault-Example/`. Every expectation was derived by
/// reading the notes (and /work/dataview-spec.md for what Dataview does with them), not by running the
/// engine.
@Suite struct DataviewEngineTests {
    let vault: DataviewVault

    init() throws {
        vault = try DataviewVault()
    }

    // MARK: Sources

    @Test func aTagSourceMatchesTheTagAndEveryTagNestedUnderIt() throws {
        let alpha = [
            "Daily/2026-11-17.md",                                   // body tag
            "Meetings/2026-11-17 Alpha sync.md", "Projects/Alpha/ADR-A01 Render PDFs on the server.md",
            "Projects/Alpha/Meeting notes.md", "Projects/Alpha/Plan - Invoice export.md",  // project/alpha/export
            "Projects/Alpha/Project Alpha.md",
        ]
        #expect(try vault.paths("LIST FROM #project/alpha").sorted() == alpha)
        #expect(try vault.paths("LIST FROM #Project/ALPHA").sorted() == alpha)  // case-insensitive
        #expect(try vault.paths("LIST FROM #daily").sorted() == VaultExampleNotes.daily)
        #expect(try vault.paths("LIST FROM #pkm") == ["Reading/How to Take Smart Notes.md"])
        #expect(try vault.paths("LIST FROM #pkm/zettelkasten") == ["Reading/How to Take Smart Notes.md"])  // body only
        #expect(try vault.paths("LIST FROM #idea").sorted() == ["Ideas/Agent-written links.md", "Ideas/Embedding-free search.md"])
        #expect(try vault.paths("LIST FROM #メモ") == ["日本語メモ.md"])
    }

    @Test func aTagSourceIsNoPrefixMatchAndIgnoresTagsThatAreNotTags() throws {
        #expect(try vault.paths("LIST FROM #project/alph").isEmpty)
        #expect(try vault.paths("LIST FROM #dail").isEmpty)
        #expect(try vault.paths("LIST FROM #fenced-tag").isEmpty)     // in a code fence
        #expect(try vault.paths("LIST FROM #hidden-tag").isEmpty)     // in an HTML comment
        #expect(try vault.paths("LIST FROM #parser/comment-tag") == ["Projects/Rhizome/Design/Parser test cases.md"])  // %% counts
    }

    @Test func aFolderSourceIsTheFolderAndEverythingBelowIt() throws {
        #expect(try vault.paths(#"LIST FROM "Reading""#).sorted() == VaultExampleNotes.reading)  // not "Reading list.md"
        #expect(try vault.paths(#"LIST FROM "Projects/Rhizome/Plans""#).sorted() == VaultExampleNotes.rhizomePlans)
        let rhizome = try vault.paths(#"LIST FROM "Projects/Rhizome""#)
        #expect(rhizome.count == 18)  // 4 decisions, 6 design, 4 plans, Index, Meeting notes, Rhizome, release notes
        #expect(rhizome.contains("Projects/Rhizome/Design/Research/Obsidian resolution experiments.md"))
        #expect(!rhizome.contains("Projects/Rhizome/Rhizome map.canvas"))  // notes only
        #expect(try vault.paths(#"LIST FROM """#).count == VaultExampleNotes.noteCount)
        #expect(try vault.paths("LIST").count == VaultExampleNotes.noteCount)
    }

    @Test func aFolderSourceNamingANoteIsThatNoteWithOrWithoutItsExtension() throws {
        #expect(try vault.paths(#"LIST FROM "Projects/Rhizome/Index""#) == ["Projects/Rhizome/Index.md"])
        #expect(try vault.paths(#"LIST FROM "Projects/Rhizome/Index.md""#) == ["Projects/Rhizome/Index.md"])
        #expect(try vault.paths(#"LIST FROM "Daily/2026-11-16""#) == ["Daily/2026-11-16.md"])
    }

    @Test func aFolderSourceThatIsNoFolderOrNoteIsEmptyNotAnError() throws {
        #expect(try vault.paths(#"LIST FROM "Projects/Rhiz""#).isEmpty)  // a prefix of a folder name is not the folder
        #expect(try vault.paths(#"LIST FROM "Nowhere""#).isEmpty)
        #expect(try vault.paths(#"LIST FROM "Attachments""#).isEmpty)  // a folder of attachments only
    }

    @Test func aFolderSourceIsAnExactPathNotACaseInsensitiveOne() throws {
        // Obsidian looks folders up by exact path. Whatever the answer for another case, it must not be
        // the subfolders of Projects/Rhizome without the notes directly in it.
        let lowerCase = try vault.paths(#"LIST FROM "projects/rhizome""#)
        #expect(lowerCase.isEmpty, "got \(lowerCase.count) notes, e.g. \(lowerCase.prefix(3))")
    }

    @Test func aLinkSourceIsTheNotesLinkingToTheNote() throws {
        // Wikilinks, the markdown links from Home.md and SQLite FTS5 docs.md, not ADR-001's plain text.
        #expect(try vault.paths("LIST FROM [[Reading list]]").sorted() == [
            "Home.md", "Inbox.md", "Index.md", "Reading/A Philosophy of Software Design.md", "Reading/SQLite FTS5 docs.md",
        ])
        // Embeds count (Home.md embeds it); inline code in Link resolution.md does not.
        #expect(try vault.paths("LIST FROM [[Quick Note]]").sorted() == [
            "Daily/2026-11-20.md", "Home.md", "Projects/Rhizome/Design/Parser test cases.md",
        ])
        // Property links and differently cased links count; ADR-A01's id reference adds nothing of its own.
        let alpha = [
            "Daily/2026-11-16.md", "Home.md", "Ideas/Weekly review ritual.md", "Index.md", "Meetings/2026-11-17 Alpha sync.md",
            "People/Priya Raman.md", "Plans/2026 Q4 goals.md", "Projects/Alpha/ADR-A01 Render PDFs on the server.md",
            "Projects/Alpha/Meeting notes.md", "Projects/Alpha/Plan - Invoice export.md",
        ]
        #expect(try vault.paths("LIST FROM [[Project Alpha]]").sorted() == alpha)
        #expect(try vault.paths("LIST FROM [[project alpha]]").sorted() == alpha)
    }

    @Test func aLinkSourceForAMissingNoteIsTheNotesHoldingTheSameUnresolvedLink() throws {
        #expect(try vault.paths("LIST FROM [[Thinking in Systems]]").sorted() == ["People/Jonah Weiss.md", "Reading list.md"])
        // Daily/2026-11-16.md writes it with a heading: [[Onboarding guide#Setup]].
        #expect(try vault.paths("LIST FROM [[Onboarding guide]]").sorted() == [
            "Daily/2026-11-16.md", "Ideas/Agent-written links.md", "Plans/Backlog.md",
        ])
        #expect(try vault.paths("LIST FROM [[Never mentioned anywhere]]").isEmpty)
    }

    @Test func outgoingIsTheNotesTheNoteLinksToResolvedNotesOnly() throws {
        // Thinking in Systems is unresolved, the SQLite and JSON Canvas links are external.
        #expect(try vault.paths("LIST FROM outgoing([[Reading list]])").sorted() == VaultExampleNotes.reading)
        // The frontmatter link to Rhizome counts; [[Home|demo vault]] and [[v0.1 release notes|v0.1]] by their target.
        #expect(try vault.paths("LIST FROM outgoing([[Plan - Initial indexer]])").sorted() == [
            "Home.md", "Projects/Rhizome/Design/Link resolution.md", "Projects/Rhizome/Design/Storage schema.md",
            "Projects/Rhizome/Rhizome.md", "Projects/Rhizome/v0.1 release notes.md",
        ])
        // Index.md also links diagram.png, spec.pdf and the canvas: not pages.
        let index = try vault.paths("LIST FROM outgoing([[Index]])")
        #expect(index.count == 16)
        #expect(!index.contains { !$0.hasSuffix(".md") })
        #expect(vault.failure("LIST FROM outgoing([[Thinking in Systems]])") != nil)
    }

    @Test func sourcesCombineWithAndOrNegationAndParentheses() throws {
        #expect(try vault.paths(#"LIST FROM "Projects/Alpha" and #plan"#) == ["Projects/Alpha/Plan - Invoice export.md"])
        #expect(try vault.paths(#"LIST FROM #project/alpha and -"Projects""#).sorted() == [
            "Daily/2026-11-17.md", "Meetings/2026-11-17 Alpha sync.md",
        ])
        // Daily/2026-11-17 has #project/alpha, Daily/2026-11-18 #project/rhizome/watcher.
        #expect(try vault.paths(#"LIST FROM "Daily" and !#project"#).sorted() == [
            "Daily/2026-11-16.md", "Daily/2026-11-19.md", "Daily/2026-11-20.md", "Daily/2026-11-21.md", "Daily/2026-11-22.md",
        ])
        #expect(try vault.paths("LIST FROM [[Thinking in Systems]] or [[Onboarding guide]]").sorted() == [
            "Daily/2026-11-16.md", "Ideas/Agent-written links.md", "People/Jonah Weiss.md", "Plans/Backlog.md", "Reading list.md",
        ])
        #expect(try vault.paths(#"LIST FROM (#daily or "Meetings") and [[Priya Raman]]"#).sorted() == [
            "Daily/2026-11-16.md", "Meetings/2026-11-17 Alpha sync.md",
        ])
        #expect(try vault.paths("LIST FROM -#daily").count == VaultExampleNotes.noteCount - 7)
        #expect(try vault.paths(#"LIST FROM -("Daily" or "Projects" or "Meetings")"#).count == VaultExampleNotes.noteCount - 7 - 23 - 3)
    }

    @Test func andAndOrShareOnePrecedenceLevelAsInDataview() throws {
        // Dataview reads `a or b and c` as `(a or b) and c` (spec §5 and §6.1), in sources and expressions.
        let priya = ["Daily/2026-11-16.md", "Meetings/2026-11-17 Alpha sync.md"]
        #expect(try vault.paths(#"LIST FROM "Meetings" or #daily and [[Priya Raman]]"#).sorted() == priya)
        #expect(try vault.paths(#"LIST FROM "Projects/Rhizome/Plans" WHERE status = "done" or status = "draft" and created > date(2026-11-20)"#)
            == ["Projects/Rhizome/Plans/Plan - Schema validation.md"])
    }

    // MARK: WHERE

    @Test func whereFiltersOnFrontmatterFields() throws {
        let plans = #"LIST FROM "Projects/Rhizome/Plans""#
        #expect(try vault.paths(plans + #" WHERE status = "draft""#) == [
            "Projects/Rhizome/Plans/Plan - MCP server.md", "Projects/Rhizome/Plans/Plan - Schema validation.md",
        ])
        #expect(try vault.paths(plans + #" WHERE status != "draft""#).count == 2)
        // Dates compare as dates.
        #expect(try vault.paths("LIST FROM #plan WHERE created >= date(2026-11-01)").sorted() == [
            "Projects/Alpha/Plan - Invoice export.md", "Projects/Rhizome/Plans/Plan - Incremental indexing.md",
            "Projects/Rhizome/Plans/Plan - MCP server.md", "Projects/Rhizome/Plans/Plan - Schema validation.md",
        ])
        // Quoted wikilinks in frontmatter are links, compared by the note they resolve to.
        #expect(try vault.paths("LIST FROM #plan WHERE contains(projects, [[Kettle]])") == ["Projects/Rhizome/Plans/Plan - MCP server.md"])
        #expect(try vault.paths("LIST FROM #plan WHERE owner = [[Tomás Ferreira]]") == ["Projects/Rhizome/Plans/Plan - Incremental indexing.md"])
    }

    @Test func aNoteWithInvalidYAMLHasNoFrontmatterFields() throws {
        // Link resolver refactor's frontmatter does not parse: its duration_min 140 and type are no fields.
        #expect(try vault.paths(#"LIST FROM "Sessions" WHERE duration_min > 70"#) == ["Sessions/2026-11-18 Watcher debounce.md"])
        #expect(try vault.paths(#"LIST FROM "Sessions" WHERE type = "session""#).sorted() == [
            "Sessions/2026-11-18 Watcher debounce.md", "Sessions/2026-11-21 Schema validator spike.md",
        ])
        #expect(try vault.rows(#"TABLE WITHOUT ID typeof(duration_min) FROM "Sessions" SORT file.name"#) == [["number"], ["null"], ["number"]])
    }

    @Test func inlineFieldsAreFieldsWithTypedValues() throws {
        #expect(try vault.rows(#"TABLE rating, pages, typeof(rating) AS type FROM "Reading" SORT file.name"#) == [
            ["Reading/A Philosophy of Software Design.md", "5", "190", "number"],
            ["Reading/Designing Data-Intensive Applications.md", "4", "562", "number"],
            ["Reading/How to Take Smart Notes.md", "5", "176", "number"],
            ["Reading/SQLite FTS5 docs.md", "3", "-", "number"],
        ])
        #expect(try vault.paths(#"LIST FROM "Reading" WHERE pages > 180"#).sorted() == [
            "Reading/A Philosophy of Software Design.md", "Reading/Designing Data-Intensive Applications.md",
        ])
        // `[when:: 2027-01]` is a date, `(format:: paperback)` a string; both in one sentence.
        #expect(try vault.rows(#"TABLE when, typeof(when) AS type, format FROM "Reading" WHERE format"#) == [
            ["Reading/How to Take Smart Notes.md", "2027-01-01", "date", "paperback"],
        ])
    }

    @Test func anInlineFieldIsReachableByItsCanonicalKeyAndAsWritten() throws {
        // `Chapters read:: 3, 11` is a list of two numbers, under `chapters-read` and `row["Chapters read"]`.
        #expect(try vault.rows(#"TABLE chapters-read, row["Chapters read"] AS written, length(chapters-read) AS n FROM "Reading" WHERE chapters-read"#) == [
            ["Reading/Designing Data-Intensive Applications.md", "[3, 11]", "[3, 11]", "2"],
        ])
    }

    // MARK: SORT, GROUP BY, FLATTEN, LIMIT

    @Test func sortTakesSeveralKeysEachAscendingOrDescending() throws {
        #expect(try vault.rows("TABLE status, created FROM #plan SORT status ASC, created DESC").map { $0[0] } == [
            "Projects/Rhizome/Plans/Plan - Incremental indexing.md",  // approved 2026-11-09
            "Projects/Alpha/Plan - Invoice export.md",                // approved 2026-11-03
            "Plans/2026 Q4 goals.md",                                 // approved 2026-10-01
            "Projects/Rhizome/Plans/Plan - Initial indexer.md",       // done
            "Projects/Rhizome/Plans/Plan - Schema validation.md",     // draft 2026-11-21
            "Projects/Rhizome/Plans/Plan - MCP server.md",            // draft 2026-11-14
        ])
        // Nulls sort first ascending, last descending.
        #expect(try vault.paths(#"LIST FROM "Reading" SORT author DESC"#) == [
            "Reading/How to Take Smart Notes.md", "Reading/Designing Data-Intensive Applications.md",
            "Reading/A Philosophy of Software Design.md", "Reading/SQLite FTS5 docs.md",
        ])
    }

    @Test func sortOrdersTextAsLocaleCompareDoesPunctuationAndSymbolsBeforeDigitsBeforeLetters() throws {
        // Dataview sorts strings with localeCompare (ICU root collation): punctuation and symbols, then
        // digits, then letters, lower case before upper case.
        let result = try vault.rows(#"TABLE WITHOUT ID x FROM "Reading list" FLATTEN ["b", "~x", "3", "B", "[[b]]", "a", "_y"] AS x SORT x"#)
        #expect(result.map { $0[0] } == ["_y", "[[b]]", "~x", "3", "a", "b", "B"])
    }

    @Test func groupByMakesOneRowPerKeyWithItsRowsAndNamesTheIdColumnAfterTheGroup() throws {
        let result = try vault.run("TABLE length(rows) AS n, rows.file.name AS names FROM #plan GROUP BY status")
        #expect(result.columns == ["status", "n", "names"])
        #expect(result.textRows == [
            ["approved", "3", "[2026 Q4 goals, Plan - Invoice export, Plan - Incremental indexing]"],
            ["done", "1", "[Plan - Initial indexer]"],
            ["draft", "2", "[Plan - MCP server, Plan - Schema validation]"],
        ])
        let named = try vault.run(#"TABLE key, length(rows) AS n FROM "Projects/Rhizome" WHERE type GROUP BY type AS kind"#)
        #expect(named.columns == ["kind", "key", "n"])
        #expect(named.textRows == [
            ["decision", "decision", "4"], ["design", "design", "5"], ["plan", "plan", "4"],
            ["project", "project", "1"], ["release", "release", "1"], ["research", "research", "1"],
        ])
        let folders = try vault.run(#"LIST FROM "Projects" GROUP BY file.folder"#)
        #expect(folders.columns == ["file.folder"])
        #expect(folders.textRows.map { $0[0] } == [
            "Projects/Alpha", "Projects/Archive", "Projects/Rhizome", "Projects/Rhizome/Decisions", "Projects/Rhizome/Design",
            "Projects/Rhizome/Design/Research", "Projects/Rhizome/Plans",
        ])
    }

    @Test func aGroupedListShowsEachKeyWithItsValueAndNullKeysComeFirst() throws {
        let result = try vault.run(#"LIST rows.file.name FROM "Reading" GROUP BY status"#)
        #expect(result.kind == .list)
        #expect(result.textRows == [
            ["-", "[SQLite FTS5 docs]"],
            ["finished", "[How to Take Smart Notes]"],
            ["reading", "[A Philosophy of Software Design, Designing Data-Intensive Applications]"],
        ])
    }

    @Test func flattenMakesOneRowPerElement() throws {
        #expect(try vault.rows(#"TABLE WITHOUT ID file.name AS plan, p FROM "Projects/Rhizome/Plans" FLATTEN projects AS p"#) == [
            ["Plan - Incremental indexing", "Projects/Rhizome/Rhizome.md"],
            ["Plan - Initial indexer", "Projects/Rhizome/Rhizome.md"],
            ["Plan - MCP server", "Projects/Rhizome/Rhizome.md"],
            ["Plan - MCP server", "Projects/Archive/Kettle.md"],
            ["Plan - Schema validation", "Projects/Rhizome/Rhizome.md"],
        ])
        #expect(try vault.rows(#"TABLE c FROM "Reading" FLATTEN chapters-read AS c WHERE c"#) == [
            ["Reading/Designing Data-Intensive Applications.md", "3"],
            ["Reading/Designing Data-Intensive Applications.md", "11"],
        ])
    }

    @Test func flattenOfAnEmptyListDropsTheRowAndOfNullKeepsIt() throws {
        // Only Plan - Invoice export has tasks in Projects/Alpha; the other three notes disappear.
        #expect(try vault.rows(#"TABLE t.text FROM "Projects/Alpha" FLATTEN file.tasks AS t"#).map { $0[1] } == [
            "Agree the column list with [[Priya Raman|Priya]]",
            "CSV endpoint, streamed, with the rounding rule from [[Projects/Alpha/Meeting notes#^rounding-question]]",
            "PDF rendering, see [[ADR-A01 Render PDFs on the server]]",
            "Acceptance test against last month's real data",
        ])
        #expect(try vault.rows(#"TABLE a FROM "Reading" FLATTEN author AS a SORT file.name"#).map { $0[1] } == [
            "John Ousterhout", "Martin Kleppmann", "Sönke Ahrens", "-",
        ])
    }

    @Test func limitKeepsTheFirstRowsInOrder() throws {
        #expect(try vault.paths("LIST FROM #daily SORT file.name DESC LIMIT 3") == [
            "Daily/2026-11-22.md", "Daily/2026-11-21.md", "Daily/2026-11-20.md",
        ])
        #expect(try vault.paths("LIST FROM #daily LIMIT 0").isEmpty)
        #expect(try vault.paths("LIST FROM #daily LIMIT 100").count == 7)
    }

    @Test func limitTakesAnExpressionEvaluatedOnceWithOnlyThisInScope() throws {
        let vault = try DataviewVault { vault in
            try vault.write("Dashboard.md", "---\nshow: 2\n---\n")
        }
        #expect(try vault.paths("LIST FROM #daily SORT file.name DESC LIMIT this.show", in: "Dashboard.md") == [
            "Daily/2026-11-22.md", "Daily/2026-11-21.md",
        ])
        #expect(try vault.paths("LIST FROM #daily SORT file.name DESC LIMIT this.show + 1", in: "Dashboard.md").count == 3)
        // A field of the rows is not in scope: `file` is null there, so the query fails, saying why.
        #expect(vault.failure("LIST FROM #daily LIMIT file.size") == "query: LIMIT should be a whole number, but `file.size` is null `-`")
        #expect(vault.failure("LIST FROM #daily LIMIT this.show - 3", in: "Dashboard.md")
            == "query: LIMIT should be a whole number, but `(this.show - 3)` is number `-1`")
    }

    @Test func dataCommandsRunInTheOrderWritten() throws {
        // LIMIT before WHERE cuts first: of the first two dailies by name, only 17 mentions Alpha.
        #expect(try vault.paths("LIST FROM #daily SORT file.name LIMIT 2 WHERE contains(file.etags, \"#project/alpha\")")
            == ["Daily/2026-11-17.md"])
        #expect(try vault.paths("LIST FROM #daily WHERE contains(file.etags, \"#project/alpha\") SORT file.name LIMIT 2")
            == ["Daily/2026-11-17.md"])
        // A second SORT wins.
        #expect(try vault.paths(#"LIST FROM "Reading" SORT pages DESC SORT file.name LIMIT 1"#) == ["Reading/A Philosophy of Software Design.md"])
    }

    // MARK: LIST and TABLE

    @Test func listWithAnExpressionShowsTheLinkAndTheValue() throws {
        let result = try vault.run(#"LIST author FROM "Reading" WHERE author SORT author"#)
        #expect(result.kind == .list)
        #expect(result.textRows == [
            ["Reading/A Philosophy of Software Design.md", "John Ousterhout"],
            ["Reading/Designing Data-Intensive Applications.md", "Martin Kleppmann"],
            ["Reading/How to Take Smart Notes.md", "Sönke Ahrens"],
        ])
        let withoutID = try vault.run(#"LIST WITHOUT ID author FROM "Reading" WHERE author SORT author"#)
        #expect(withoutID.rows.allSatisfy { $0.id == nil })
        #expect(withoutID.textRows == [["John Ousterhout"], ["Martin Kleppmann"], ["Sönke Ahrens"]])
        let plain = try vault.run(#"LIST FROM "Reading""#)
        #expect(plain.rows.allSatisfy { $0.values.isEmpty && $0.id != nil })
    }

    @Test func tableWithoutIDHasOnlyTheNamedColumns() throws {
        let result = try vault.run(#"TABLE WITHOUT ID file.name, status AS "Plan status" FROM "Projects/Rhizome/Plans" SORT file.name"#)
        #expect(result.columns == ["file.name", "Plan status"])
        #expect(result.textRows == [
            ["Plan - Incremental indexing", "approved"], ["Plan - Initial indexer", "done"],
            ["Plan - MCP server", "draft"], ["Plan - Schema validation", "draft"],
        ])
        let withID = try vault.run(#"TABLE file.name, status FROM "Projects/Rhizome/Plans""#)
        #expect(withID.columns == ["File", "file.name", "status"])
    }

    @Test func theReadingListNotesThreeBlocksGiveWhatTheNotesSay() throws {
        let text = try vault.vault.read("Reading list.md")
        let blocks = DataviewBlock.find(in: text)
        try #require(blocks.count == 3)
        let table = try vault.run(blocks[0].query, in: "Reading list.md")
        #expect(table.columns == ["File", "author", "rating", "pages"])
        #expect(table.textRows == [
            ["Reading/A Philosophy of Software Design.md", "John Ousterhout", "5", "190"],
            ["Reading/How to Take Smart Notes.md", "Sönke Ahrens", "5", "176"],
            ["Reading/Designing Data-Intensive Applications.md", "Martin Kleppmann", "4", "562"],
            ["Reading/SQLite FTS5 docs.md", "-", "3", "-"],
        ])
        let list = try vault.run(blocks[1].query, in: "Reading list.md")
        #expect(list.textRows == [["Reading/How to Take Smart Notes.md", "Sönke Ahrens"]])
        // sum([null]) is null (one element, nothing to add), so the group without a status stays.
        let groups = try vault.run(blocks[2].query, in: "Reading list.md")
        #expect(groups.columns == ["status", "books", "pages"])
        #expect(groups.textRows == [["-", "1", "-"], ["finished", "1", "176"], ["reading", "2", "752"]])
    }

    // MARK: TASK

    @Test func taskQueriesListTheTasksOfTheMatchingNotes() throws {
        let result = try vault.run(#"TASK FROM "Projects/Rhizome/Plans""#)
        #expect(result.kind == .task)
        // Numbered tasks count; MCP server has none.
        #expect(result.tasks.map { "\($0.path):\($0.line) [\($0.status)]" } == [
            "Projects/Rhizome/Plans/Plan - Incremental indexing.md:18 [x]",
            "Projects/Rhizome/Plans/Plan - Incremental indexing.md:19 [ ]",
            "Projects/Rhizome/Plans/Plan - Incremental indexing.md:20 [ ]",
            "Projects/Rhizome/Plans/Plan - Incremental indexing.md:21 [ ]",
        ] + (17...21).map { "Projects/Rhizome/Plans/Plan - Initial indexer.md:\($0) [x]" }
          + (17...20).map { "Projects/Rhizome/Plans/Plan - Schema validation.md:\($0) [ ]" })
        #expect(result.tasks.first?.text == "Store mtime, size and a content hash per file")
        #expect(result.tasks.allSatisfy { $0.depth == 0 })
    }

    @Test func taskQueriesFilterTaskByTaskOnCompletedAndStatus() throws {
        let plans = #"TASK FROM "Projects/Rhizome/Plans""#
        #expect(try vault.run(plans + " WHERE completed").tasks.count == 6)
        #expect(try vault.run(plans + " WHERE !completed").tasks.count == 7)
        #expect(try vault.run(plans + #" WHERE status = " ""#).tasks.count == 7)
        let daily = #"TASK FROM "Daily/2026-11-18""#
        #expect(try vault.run(daily).tasks.count == 10)
        #expect(try vault.run(daily + " WHERE completed").tasks.map(\.line) == [16, 17, 22, 24])  // x, X, 2. [x], + [x]
        #expect(try vault.run(daily + " WHERE checked").tasks.map(\.status) == ["x", "X", ">", "-", "?", "x", "x"])
        #expect(try vault.run(daily + #" WHERE status = "-""#).tasks.map(\.text) == ["Port the watcher to kqueue (not needed, FSEvents is fine)"])
    }

    @Test func taskRowsSeeThePageFieldsTheTaskDoesNotHave() throws {
        let plans = #"TASK FROM "Projects/Rhizome/Plans""#
        #expect(try vault.run(plans + #" WHERE title = "Schema validation""#).tasks.count == 4)
        #expect(try vault.run(plans + #" WHERE file.name = "Plan - Initial indexer""#).tasks.count == 5)
        // A task's own status wins over the page's `status: draft`.
        #expect(try vault.run(plans + #" WHERE status = "draft""#).tasks.isEmpty)
        #expect(try vault.run("TASK FROM #plan WHERE !completed SORT created DESC LIMIT 1").tasks.map(\.path)
            == ["Projects/Rhizome/Plans/Plan - Schema validation.md"])
    }

    @Test func taskQueriesGroupedByFileKeepEveryTaskInKeyOrder() throws {
        // Dataview has no implicit grouping by file; `GROUP BY file.link` is how a TASK query gets it
        // (spec §10.1), rendering each group's tasks under its key.
        let grouped = try vault.run(#"TASK FROM "Projects/Rhizome/Plans" WHERE !completed GROUP BY file.name"#)
        #expect(grouped.tasks.map(\.path) == [String](repeating: "Projects/Rhizome/Plans/Plan - Incremental indexing.md", count: 3)
            + [String](repeating: "Projects/Rhizome/Plans/Plan - Schema validation.md", count: 4))
        #expect(try vault.run(#"TASK FROM "Projects/Rhizome/Plans" GROUP BY file.link"#).tasks.count == 13)
    }

    // MARK: this, links

    @Test func thisIsTheNoteTheQueryRunsIn() throws {
        let origin = "Projects/Rhizome/Plans/Plan - MCP server.md"
        #expect(try vault.paths("LIST FROM #plan WHERE status = this.status", in: origin).sorted() == [
            "Projects/Rhizome/Plans/Plan - MCP server.md", "Projects/Rhizome/Plans/Plan - Schema validation.md",
        ])
        #expect(try vault.rows("TABLE WITHOUT ID this.file.name, length(this.file.tasks) LIMIT 1", in: origin) == [["Plan - MCP server", "0"]])
        // [[]] is the note itself; outgoing([[]]) what it links to.
        #expect(try vault.paths("LIST FROM [[]]", in: "Reading list.md").count == 5)
        #expect(try vault.paths("LIST FROM outgoing([[]])", in: "Reading list.md").sorted() == VaultExampleNotes.reading)
        // Outside a note `this` is null: no rows, no error.
        #expect(try vault.paths(#"LIST FROM "Reading" WHERE this.status"#).isEmpty)
        #expect(vault.failure("LIST FROM [[]]") != nil)
    }

    @Test func fieldsOfLinkedNotesCanBeFollowed() throws {
        #expect(try vault.rows(#"TABLE project.id FROM "Meetings" WHERE project SORT file.name"#) == [
            ["Meetings/2026-11-17 Alpha sync.md", "PRJ-ALPHA"], ["Meetings/2026-11-20 Rhizome review.md", "PRJ-RHIZOME"],
        ])
        #expect(try vault.rows("TABLE WITHOUT ID [[Project Alpha]].client, [[Project Alpha]].status, [[Thinking in Systems]].status LIMIT 1")
            == [["Fernhill Logistics", "active", "-"]])
        #expect(try vault.rows(#"TABLE owner.location FROM "Projects/Rhizome/Plans" WHERE owner"#) == [
            ["Projects/Rhizome/Plans/Plan - Incremental indexing.md", "Porto"],
        ])
        // A link literal resolves from the note the query runs in (same folder first), else from the vault root.
        #expect(try vault.rows("TABLE WITHOUT ID [[Meeting notes]].title LIMIT 1", in: "Projects/Rhizome/Rhizome.md") == [["Rhizome meeting notes"]])
        #expect(try vault.rows("TABLE WITHOUT ID [[Meeting notes]].title LIMIT 1") == [["Meeting notes"]])
    }

    // MARK: Errors in rows

    @Test func aRowWhoseExpressionFailsIsDropped() throws {
        // SQLite FTS5 docs has no pages: 3 + null is an error there.
        let result = try vault.run(#"TABLE rating + pages AS total FROM "Reading" SORT file.name"#)
        #expect(result.textRows == [
            ["Reading/A Philosophy of Software Design.md", "195"],
            ["Reading/Designing Data-Intensive Applications.md", "566"],
            ["Reading/How to Take Smart Notes.md", "181"],
        ])
        #expect(result.droppedRows == 1)
        #expect(try vault.paths(#"LIST FROM "Reading" WHERE pages - 100 > 100"#) == ["Reading/Designing Data-Intensive Applications.md"])
        #expect(try vault.paths(#"LIST FROM "Reading" SORT pages * 2"#) == [
            "Reading/How to Take Smart Notes.md", "Reading/A Philosophy of Software Design.md",
            "Reading/Designing Data-Intensive Applications.md",
        ])
    }

    @Test func whenEveryRowFailsTheQueryFails() throws {
        let extraction = try #require(vault.failure(#"TABLE rating - author FROM "Reading""#))
        #expect(extraction.contains("every row failed"))
        let filter = try #require(vault.failure(#"LIST FROM "Reading" WHERE rating - "x""#))
        #expect(filter.contains("every row failed") && filter.contains("WHERE"))
        // No rows at all is not a failure.
        #expect(try vault.paths(#"LIST FROM "Nowhere" WHERE rating - "x""#).isEmpty)
    }
}
