import Foundation
import Testing
import RhizomeCLI
import RhizomeTestSupport

/// `rhizome base` end to end, in-process, over `BaseVaultFixture`: views as tables, JSON with typed
/// values, groups, limits and summaries, `this`, bases in a note, output formats, and the errors a user
/// meets (unknown base or view, a broken expression, invalid YAML) with their locations and exit statuses.
@Suite struct BaseCommandTests {
    let cli: CLIHarness
    let vault: TemporaryVault

    init() throws {
        cli = try CLIHarness()
        vault = try BaseVaultFixture.make()
    }

    func base(_ arguments: String...) -> CLIHarness.Result {
        cli.run(["base"] + arguments + ["--vault", vault.path])
    }

    func json(_ arguments: String...) throws -> AnyJSON {
        let result = cli.run(["base"] + arguments + ["--json", "--vault", vault.path])
        #expect(result.status == 0, "\(result.error)")
        return try #require(AnyJSON.parse(result.output), "\(result.output)")
    }

    // MARK: Views

    @Test func theFirstViewPrintsAsATableSortedWithEmptyValuesLastAndItsSummaries() throws {
        defer { cli.cleanUp() }
        let result = base("Books")
        #expect(result.status == 0, "\(result.error)")
        let lines = result.output.split(separator: "\n").map(String.init)
        try #require(lines.count == 7, "\(result.output)")
        #expect(lines[0].hasPrefix("file.name") && lines[0].contains("Stars") && lines[0].contains("Years old"))
        #expect(lines[1].hasPrefix("Dune.md ") && lines[1].contains("Frank Herbert") && lines[1].contains("1965-08-01"))
        #expect(lines[2].hasPrefix("Neuromancer.md ") && lines[2].contains("William Gibson"))
        #expect(lines[3].hasPrefix("Emma.md ") && lines[3].hasSuffix("209"))
        #expect(lines[4].trimmingCharacters(in: .whitespaces) == "Untitled draft.md")  // no rating: last
        #expect(lines[5] == "summaries: note.pages Sum = 1157; note.rating Average = 4")
        #expect(lines[6] == "(4 rows)")
    }

    @Test func jsonHasTheViewColumnsAndTypedValuesKeyedByColumn() throws {
        defer { cli.cleanUp() }
        let json = try json("Books.base")
        #expect(json["command"] == "base")
        let data = json["data"]
        #expect(data["view"] == ["name": "Shelf", "type": "table"])
        #expect(data["columns"][2] == ["property": "note.rating", "displayName": "Stars"])
        #expect(data["columns"][5] == ["property": "formula.years", "displayName": "Years old"])
        let dune = data["rows"][0]
        #expect(dune["path"] == "Books/Dune.md")
        #expect(dune["values"]["file.name"] == "Dune.md")
        #expect(dune["values"]["note.author"] == ["path": "People/Frank Herbert.md", "display": "Frank Herbert", "resolved": true])
        #expect(dune["values"]["note.rating"] == 5)
        #expect(dune["values"]["note.published"] == "1965-08-01")
        #expect(dune["values"]["formula.years"] == 59)
        #expect(data["rows"][1]["values"]["note.author"] == ["path": "William Gibson", "display": "William Gibson", "resolved": false])
        #expect(data["rows"][3]["values"]["note.rating"] == nil)
        #expect(data["total"] == 4)
        #expect(data["truncated"] == false)
        #expect(data["summaries"] == [
            ["property": "note.pages", "name": "Sum", "value": 1157],
            ["property": "note.rating", "name": "Average", "value": 4],
        ])
        #expect(data["groups"] == nil)
    }

    @Test func aGroupedViewHasGroupsInTheirDirectionEachWithItsSummary() throws {
        defer { cli.cleanUp() }
        let data = try json("Books", "--view", "By status")["data"]
        let groups = try #require(data["groups"].array)
        #expect(groups.map { $0["key"] } == ["finished", "reading", "to-read", nil])
        #expect(groups[0]["rows"][0]["path"] == "Books/Dune.md")
        #expect(groups[2]["summaries"][0] == ["property": "note.pages", "name": "pagesPerBook", "value": 474])
        #expect(data["summaries"][0]["value"] == 385.7)  // the custom summary over all rows: mean rounded to 1
        #expect(data["rows"].array?.count == 4)
    }

    @Test func aLimitCutsRowsAfterSortingAndTheTotalSaysHowManyPassed() throws {
        defer { cli.cleanUp() }
        let data = try json("Books", "--view", "Long reads")["data"]
        #expect(data["rows"].array?.map { $0["path"] } == ["Books/Emma.md"])
        #expect(data["total"] == 2)
        #expect(data["truncated"] == true)
        let text = base("Books", "--view", "Long reads").output
        #expect(text.contains("(1 row of 2; the view's limit cuts the rest)"))
    }

    @Test func viewsListsEachViewWithItsLayoutAndRowCount() throws {
        defer { cli.cleanUp() }
        let data = try json("Books", "--views")["data"]
        #expect(data == [
            ["name": "Shelf", "type": "table", "total": 4],
            ["name": "By status", "type": "table", "total": 4],
            ["name": "Long reads", "type": "table", "total": 2],
            ["name": "Covers", "type": "cards", "total": 1],
        ])
    }

    @Test func backlinksAndFileFunctionsWorkInFormulasAndFilters() throws {
        defer { cli.cleanUp() }
        let people = try json("People")["data"]
        #expect(people["rows"].array?.map { $0["path"] } == ["People/Jane Austen.md", "People/Frank Herbert.md"])
        #expect(people["rows"][1]["values"]["formula.mentions"] == 2)  // Dune and the meeting
        #expect(people["rows"][1]["values"]["formula.books"] == 1)
        let meetings = try json("People", "--view", "Meetings with them")["data"]
        #expect(meetings["total"] == 2)
    }

    @Test func thisIsTheBaseFileOrTheNoteGivenWithThis() throws {
        defer { cli.cleanUp() }
        let related = try json("Related", "--this", "Dune")["data"]
        #expect(related["view"]["type"] == "list")
        // By name, digits as numbers: "2025-05-20 Book club" before "2025-05-27".
        #expect(related["rows"].array?.map { $0["path"] } == [
            "Meetings/2025-05-20 Book club.md", "Daily/2025-05-27.md", "People/Frank Herbert.md",
        ])
        let itself = try json("Related")["data"]  // `this` is Bases/Related.base: nothing links to it
        #expect(itself["total"] == 0)
    }

    @Test func noteRunsItsBaseBlocksAndEmbeddedBasesWithThisAsTheNote() throws {
        defer { cli.cleanUp() }
        let result = cli.run(["base", "--note", "2025-05-27", "--json", "--vault", vault.path])
        #expect(result.status == 0, "\(result.error)")
        let data = try #require(AnyJSON.parse(result.output))["data"]
        #expect(data["note"] == "Daily/2025-05-27.md")
        let bases = try #require(data["bases"].array)
        try #require(bases.count == 2)
        #expect(bases[0]["source"] == "base block")
        #expect(bases[0]["line"] == 8)
        #expect(bases[0]["result"]["rows"].array?.map { $0["path"] } == ["Bases/Books.base", "Books/Dune.md"])
        #expect(bases[1]["source"] == "Bases/Books.base#Long reads")
        #expect(bases[1]["result"]["view"]["name"] == "Long reads")
        let text = base("--note", "2025-05-27").output
        #expect(text.contains("# base block, line 8 of Daily/2025-05-27.md"))
    }

    // MARK: Formats

    @Test func csvAndMarkdownShowWhatTheTableShows() throws {
        defer { cli.cleanUp() }
        let csv = base("Books", "--csv").output
        #expect(csv.hasPrefix("file.name,author,Stars,pages,published,Years old\r\nDune.md,Frank Herbert,5,412,1965-08-01,59\r\n"))
        let markdown = base("Books", "--view", "Covers", "--markdown").output
        #expect(markdown == "| file.name | cover |\n| --- | --- |\n| Emma.md | [[emma.png]] |\n")
        // A grouped view: the group's key first in CSV, a heading per group in markdown, in group order.
        let groupedCSV = base("Books", "--view", "By status", "--csv").output
        #expect(groupedCSV.hasPrefix("group,file.name,status,pages\r\nfinished,Dune.md,finished,412\r\nreading,Neuromancer.md,reading,271\r\n"))
        #expect(groupedCSV.contains(",Untitled draft.md,,"))
        let groupedMarkdown = base("Books", "--view", "By status", "--markdown").output
        #expect(groupedMarkdown.hasPrefix("### finished\n\n| file.name | status | pages |\n| --- | --- | --- |\n| Dune.md | finished | 412 |\n\n### reading"))
        #expect(groupedMarkdown.contains("### (none)"))
    }

    // MARK: Property types

    @Test func propertiesAreTypedAsObsidianTypesThem() throws {
        defer { cli.cleanUp() }
        try vault.write("Bases/Types.base", """
            filters: file.name == "Dune.md"
            formulas:
              published_type: 'published.isType("date")'
              isbn_type: 'isbn.isType("string")'
              year: published.year
              genre_count: genres.length
            views:
              - type: table
                order: [formula.published_type, formula.isbn_type, formula.year, formula.genre_count, author]
            """)
        let row = try json("Types")["data"]["rows"][0]["values"]
        #expect(row["formula.published_type"] == true)
        #expect(row["formula.isbn_type"] == true)  // types.json says text: not a date
        #expect(row["formula.year"] == 1965)
        #expect(row["formula.genre_count"] == 2)
    }

    @Test func aBaseWithoutFiltersOrViewsListsEveryFileIncludingAttachments() throws {
        defer { cli.cleanUp() }
        try vault.write("Everything.base", "")
        let data = try json("Everything")["data"]
        #expect(data["view"] == ["name": "Table", "type": "table"])
        let paths = data["rows"].array?.compactMap { $0["path"].string } ?? []
        #expect(paths.contains("Attachments/emma.png"))
        #expect(paths.contains("Everything.base"))
        #expect(paths.count == 13)
    }

    @Test func aMapViewReturnsItsCoordinatesIconAndColorWithTheRows() throws {
        defer { cli.cleanUp() }
        try vault.write("Places/Café.md", "---\ncoordinates: [48.85837, 2.294481]\nicon: coffee\n---\n")
        try vault.write("Bases/Places.base", """
            filters: file.inFolder("Places")
            views:
              - type: map
                name: Map
                order: [file.basename]
                coordinates: note.coordinates
                markerIcon: note.icon
            """)
        let data = try json("Places")["data"]
        #expect(data["view"] == ["name": "Map", "type": "map"])
        #expect(data["columns"].array?.map { $0["property"] } == ["file.basename", "note.coordinates", "note.icon"])
        #expect(data["rows"][0]["values"]["note.coordinates"] == [48.85837, 2.294481])
        #expect(data["rows"][0]["values"]["note.icon"] == "coffee")
    }

    // MARK: Errors

    @Test func aFormulaThatFailsShowsItsErrorInItsCellOnly() throws {
        defer { cli.cleanUp() }
        try vault.write("Bases/Broken cell.base", """
            filters: 'type == "book"'
            formulas:
              bad: 'if(rating > 4, "x" - 1, rating)'
            views:
              - type: table
                order: [file.name, formula.bad]
            """)
        let result = base("Broken cell", "--json")
        #expect(result.status == 0, "\(result.error)")
        let rows = try #require(AnyJSON.parse(result.output))["data"]["rows"]
        #expect(rows.array?.map { $0["path"] } == ["Books/Dune.md", "Books/Emma.md", "Books/Neuromancer.md"])
        #expect(rows[0]["values"]["formula.bad"]["error"].string?.contains("cannot subtract") == true)
        #expect(rows[1]["values"]["formula.bad"] == 3)
        #expect(rows[2]["values"]["formula.bad"] == 4)
    }

    @Test func aFilterThatFailsStopsTheBaseWithItsLocationInTheFile() throws {
        defer { cli.cleanUp() }
        try vault.write("Bases/Bad filter.base", """
            filters:
              and:
                - 'type == "book"'
                - 'pages - "x" > 1'
            views:
              - type: table
            """)
        let result = base("Bad filter")
        #expect(result.status == 2)
        #expect(result.error.contains("Bases/Bad filter.base:4:"), "\(result.error)")
        #expect(result.error.contains("cannot subtract number 412 and text \"x\""), "\(result.error)")
        let json = try #require(AnyJSON.parse(cli.run(["base", "Bad filter", "--json", "--vault", vault.path]).output))
        #expect(json["error"]["code"] == "base-evaluation")
    }

    @Test func anUnknownFunctionIsReportedWhereItIsWrittenBeforeAnyNoteIsRead() throws {
        defer { cli.cleanUp() }
        try vault.write("Bases/Typo.base", """
            formulas:
              shout: 'title.uper()'
            views:
              - type: table
            """)
        let result = base("Typo")
        #expect(result.status == 2)
        #expect(result.error.contains("Bases/Typo.base:2:"), "\(result.error)")
        #expect(result.error.contains("did you mean `.upper()`") || result.error.contains("unknown function `.uper()`"), "\(result.error)")
    }

    @Test func invalidYAMLAndCircularFormulasAreClearErrors() throws {
        defer { cli.cleanUp() }
        try vault.write("Bases/Broken.base", "views:\n  - type: table\n    name: [unclosed\n")
        let yaml = base("Broken")
        #expect(yaml.status == 2)
        #expect(yaml.error.contains("Bases/Broken.base:"), "\(yaml.error)")
        try vault.write("Bases/Circle.base", "formulas:\n  a: formula.b + 1\n  b: formula.a * 2\n")
        let circle = cli.run(["base", "Circle", "--json", "--vault", vault.path])
        #expect(circle.status == 2)
        let json = try #require(AnyJSON.parse(circle.output))
        #expect(json["error"]["code"] == "base-circular-formula")
        #expect(json["error"]["message"].string?.contains("formula.a → formula.b → formula.a") == true, "\(circle.output)")
    }

    @Test func anUnknownBaseOrViewSaysWhatExists() throws {
        defer { cli.cleanUp() }
        let missing = base("Bookz")
        #expect(missing.status == 2)
        #expect(missing.error.contains("no .base file matches `Bookz`"))
        #expect(missing.error.contains("Bases/Books.base"))
        let view = base("Books", "--view", "shelf")
        #expect(view.status == 2)
        #expect(view.error.contains("did you mean \"Shelf\"?"), "\(view.error)")
        #expect(view.error.contains(#"its views: "Shelf", "By status", "Long reads", "Covers""#), "\(view.error)")
        #expect(base("Books", "--note", "Dune").status == 2)  // FILE and --note together
    }

    @Test func errorsPointAtTheFunctionNameWithACaretAndUseValidatesCodes() throws {
        defer { cli.cleanUp() }
        try vault.write("Bases/Caret.base", "formulas:\n  a: 'title.upper()'\n")
        let result = base("Caret")
        #expect(result.status == 2)
        #expect(result.error.contains("Bases/Caret.base:2:13:"), "\(result.error)")  // `upper`, not `title`
        #expect(result.error.contains("    title.upper()\n          ^"), "\(result.error)")
        try vault.write("Bases/Views.base", "views: {}\n")
        let views = try #require(AnyJSON.parse(cli.run(["base", "Views", "--json", "--vault", vault.path]).output))
        #expect(views["error"]["code"] == "base-invalid-views")
        #expect(base("Books", "--csv", "--json").status == 2)
        #expect(base("Books", "--views", "--view", "Shelf").status == 2)
    }

    @Test func tiesKeepNameOrderAndLineBreaksStayInsideTheirCell() throws {
        defer { cli.cleanUp() }
        for name in ["Note 10", "Note 2", "Émile"] { try vault.write("Ties/\(name).md", "---\ndone: false\nnote: \"one\\ntwo\"\n---\n") }
        try vault.write("Bases/Ties.base", "filters: file.inFolder(\"Ties\")\nviews:\n  - type: table\n    order: [file.basename, note]\n    sort:\n      - property: done\n        direction: ASC\n")
        let data = try json("Ties")["data"]
        #expect(data["rows"].array?.map { $0["path"] } == ["Ties/Émile.md", "Ties/Note 2.md", "Ties/Note 10.md"])
        let lines = base("Ties").output.split(separator: "\n")
        #expect(lines.count == 5, "\(lines)")
        #expect(lines[1].hasSuffix("one two"))
    }

    @Test func anEmbeddedBaseThatDoesNotExistIsAFailureOfTheNote() throws {
        defer { cli.cleanUp() }
        try vault.write("Dashboard.md", "# Dashboard\n\n![[Missing.base]]\n")
        let result = cli.run(["base", "--note", "Dashboard", "--json", "--vault", vault.path])
        #expect(result.status == 1)
        let bases = try #require(AnyJSON.parse(result.output))["data"]["bases"]
        #expect(bases[0]["error"]["code"] == "base-not-found")
        #expect(bases[0]["line"] == 3)
    }

    @Test func validateReportsProblemsInBaseFilesWithTheirLocations() throws {
        defer { cli.cleanUp() }
        try vault.write("Bases/Typo.base", """
            formulas:
              shout: 'title.uper()'
            views:
              - type: table
                sort:
                  - property: title
                    direction: UP
            """)
        let result = cli.run(["validate", "--json", "--vault", vault.path])
        let findings = try #require(AnyJSON.parse(result.output))["data"]["findings"].array ?? []
        let typo = findings.filter { $0["path"] == "Bases/Typo.base" }
        #expect(typo.contains { $0["code"] == "base-unknown-function" && $0["line"] == 2 }, "\(typo)")
        #expect(typo.contains { $0["code"] == "base-invalid-sort" }, "\(typo)")
        try vault.write("Bases/Missing formula.base", "views:\n  - type: table\n    sort:\n      - column: formula.test\n        direction: DESC\n")
        let again = try #require(AnyJSON.parse(cli.run(["validate", "--json", "--vault", vault.path]).output))["data"]["findings"].array ?? []
        #expect(again.contains { $0["path"] == "Bases/Missing formula.base" && $0["code"] == "base-unknown-formula" && $0["severity"] == "warning" && $0["line"] == 4 }, "\(again)")
        #expect(result.status == 1)
        #expect(!findings.contains { $0["path"] == "Bases/Books.base" })
    }
}
