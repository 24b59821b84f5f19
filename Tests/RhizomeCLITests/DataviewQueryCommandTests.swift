import Foundation
import Testing
import RhizomeCLI
import RhizomeTestSupport

/// `rhizome query` end to end, in-process, on a copy of Vault-Example: the output formats, errors with
/// their exit statuses, and `--note` / `--render` on "Reading list.md" and its three dataview blocks.
@Suite struct DataviewQueryCommandTests {
    let cli: CLIHarness
    let vault: TemporaryVault

    init() throws {
        cli = try CLIHarness()
        vault = try TemporaryVault(copying: Fixtures.vaultExample)
    }

    func query(_ arguments: String...) -> CLIHarness.Result {
        cli.run(["query"] + arguments + ["--vault", vault.path])
    }

    static let readingTable = #"TABLE author, rating FROM "Reading" SORT rating DESC, file.name"#

    // MARK: Output formats

    @Test func aTableIsPrintedInAlignedColumnsWithLinksByName() throws {
        defer { cli.cleanUp() }
        let result = query(Self.readingTable)
        #expect(result.status == 0, "\(result.error)")
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        try #require(lines.count >= 6, "\(result.output)")
        let expected = [
            ("File", "author", "rating"),
            ("A Philosophy of Software Design", "John Ousterhout", "5"),
            ("How to Take Smart Notes", "Sönke Ahrens", "5"),
            ("Designing Data-Intensive Applications", "Martin Kleppmann", "4"),
            ("SQLite FTS5 docs", "-", "3"),
        ]
        let header = lines[0]
        let authorColumn = try #require(header.range(of: "author")).lowerBound.utf16Offset(in: header)
        let ratingColumn = try #require(header.range(of: "rating")).lowerBound.utf16Offset(in: header)
        for (line, (file, author, rating)) in zip(lines, expected) {
            let characters = Array(line)
            #expect(String(characters.prefix(file.count)) == file, "\(line)")
            #expect(String(characters.dropFirst(authorColumn).prefix(author.count)) == author, "\(line)")
            #expect(String(characters.dropFirst(ratingColumn)) == rating, "\(line)")
            #expect(characters[authorColumn - 2] == " " && characters[authorColumn - 1] == " ", "\(line)")
        }
        #expect(lines[5] == "(4 rows)")
        #expect(!result.output.contains("[["))  // names, not wikilinks
    }

    @Test func jsonIsTheVersionedEnvelopeWithKindColumnsAndRows() throws {
        defer { cli.cleanUp() }
        let result = query(Self.readingTable, "--json")
        #expect(result.status == 0, "\(result.error)")
        let json = try #require(AnyJSON.parse(result.output))
        #expect(json.keys == ["command", "data", "vault", "version"])
        #expect(json["command"] == "query")
        #expect(json["version"] == 1)
        #expect(json["data"]["kind"] == "table")
        #expect(json["data"]["columns"] == ["File", "author", "rating"])
        #expect(json["data"]["rows"].array?.count == 4)
        #expect(json["data"]["rows"][0] == [
            ["path": "Reading/A Philosophy of Software Design.md", "display": "A Philosophy of Software Design", "subpath": nil, "embed": false],
            "John Ousterhout", 5,
        ])
        #expect(json["data"]["rows"][3][1] == nil)  // no author
        #expect(json["data"]["tasks"] == [])
        #expect(json["data"]["plan"] == nil)  // only with --explain
        let list = try #require(AnyJSON.parse(query(#"LIST WITHOUT ID author FROM "Reading" WHERE author SORT author"#, "--json").output))
        #expect(list["data"]["kind"] == "list")
        #expect(list["data"]["rows"] == [["John Ousterhout"], ["Martin Kleppmann"], ["Sönke Ahrens"]])
        let tasks = try #require(AnyJSON.parse(query(#"TASK FROM "Daily/2026-11-18" WHERE status = ">""#, "--json").output))
        #expect(tasks["data"]["kind"] == "task")
        #expect(tasks["data"]["tasks"] == [
            ["path": "Daily/2026-11-18.md", "line": 18, "status": ">", "text": "Benchmark the 10k-note vault (moved to Friday)", "depth": 0],
        ])
    }

    @Test func groupedTasksHaveAHeadingPerKeyWithItsCount() throws {
        defer { cli.cleanUp() }
        let grouped = #"TASK FROM "Daily" WHERE !completed GROUP BY file.name LIMIT 2"#
        let text = query(grouped)
        #expect(text.status == 0, "\(text.error)")
        #expect(text.output == """
            2026-11-16 (2)
            - [ ] Write the [[Onboarding guide#Setup]] section for new contributors  (Daily/2026-11-16.md:20)
            - [ ] Book the train to Lisbon for the offsite  (Daily/2026-11-16.md:21)

            2026-11-17 (1)
            - [ ] Ask Fernhill who owns the rounding rule  (Daily/2026-11-17.md:18)
            (3 tasks)

            """)
        let markdown = query(grouped, "--markdown")
        #expect(markdown.output.hasPrefix("## 2026-11-16 (2)\n- [ ] Write the [[Onboarding guide#Setup]] section"), "\(markdown.output)")
        #expect(markdown.output.contains("\n\n## 2026-11-17 (1)\n- [ ] Ask Fernhill who owns the rounding rule"), "\(markdown.output)")
        let json = try #require(AnyJSON.parse(query(grouped, "--json").output))
        #expect(json["data"]["tasks"][2] == [
            "path": "Daily/2026-11-17.md", "line": 18, "status": " ", "text": "Ask Fernhill who owns the rounding rule", "depth": 0,
            "group": "2026-11-17",
        ])
    }

    @Test func csvQuotesFieldsWithCommasQuotesAndLineBreaks() throws {
        defer { cli.cleanUp() }
        let result = query(#"TABLE WITHOUT ID file.name, "say \"hi\", then go" AS quote, rating FROM "Reading" SORT file.name"#, "--csv")
        #expect(result.status == 0, "\(result.error)")
        let lines = result.output.components(separatedBy: "\r\n").flatMap { $0.components(separatedBy: "\n") }.filter { !$0.isEmpty }
        #expect(lines == [
            "file.name,quote,rating",
            #"A Philosophy of Software Design,"say ""hi"", then go",5"#,
            #"Designing Data-Intensive Applications,"say ""hi"", then go",4"#,
            #"How to Take Smart Notes,"say ""hi"", then go",5"#,
            #"SQLite FTS5 docs,"say ""hi"", then go",3"#,
        ])
        // Links are vault paths; lists are joined with ", " and so quoted.
        let links = query(#"TABLE file.etags FROM "Reading list""#, "--csv")
        let linkLines = links.output.components(separatedBy: "\r\n").flatMap { $0.components(separatedBy: "\n") }.filter { !$0.isEmpty }
        #expect(linkLines == ["File,file.etags", ##"Reading list.md,"#reading/queue, #reading, #lists""##])
    }

    @Test func markdownGivesATableOrAListToPasteIntoANote() throws {
        defer { cli.cleanUp() }
        let table = query(#"TABLE author, rating FROM "Reading" WHERE rating >= 4 SORT file.name"#, "--markdown")
        #expect(table.status == 0, "\(table.error)")
        #expect(table.output == """
            | File | author | rating |
            | --- | --- | --- |
            | [[Reading/A Philosophy of Software Design\\|A Philosophy of Software Design]] | John Ousterhout | 5 |
            | [[Reading/Designing Data-Intensive Applications\\|Designing Data-Intensive Applications]] | Martin Kleppmann | 4 |
            | [[Reading/How to Take Smart Notes\\|How to Take Smart Notes]] | Sönke Ahrens | 5 |

            """)
        // Outside a table a wikilink's `|` is not escaped (Dataview writes `- [[path|name]]: value`).
        let list = query(#"LIST author FROM "Reading" WHERE status = "finished""#, "--markdown")
        #expect(list.output == "- [[Reading/How to Take Smart Notes|How to Take Smart Notes]]: Sönke Ahrens\n")
        let empty = query(#"LIST FROM "Nowhere""#, "--markdown")
        #expect(empty.status == 0)
        #expect(empty.output.contains("no results"))
    }

    @Test func explainPrintsWhatRanInSQLAndWhatInSwift() throws {
        defer { cli.cleanUp() }
        let result = query(#"TABLE author FROM "Reading" WHERE file.size > 100 AND author SORT file.name LIMIT 2"#, "--explain")
        #expect(result.status == 0, "\(result.error)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "plan:")
        #expect(lines.contains { $0.hasPrefix("  SQL: SELECT") })
        #expect(lines.contains(#"  pushed down: FROM "Reading" → SQL"#))
        #expect(lines.contains { $0.hasPrefix("  pushed down: WHERE") && $0.contains("file.size") })
        #expect(lines.contains { $0.hasPrefix("  in Swift: WHERE") })
        #expect(lines.contains { $0.hasPrefix("  in Swift: SORT") })
        #expect(lines.contains { $0.hasPrefix("  candidate pages from SQL: 4") })
        #expect(lines.last == "(2 rows)")
        #expect(lines.contains { $0.hasPrefix("File ") })  // the table follows the plan
        // Rows an expression failed on are counted, with the first errors.
        let dropped = query(#"TABLE rating + pages FROM "Reading""#, "--explain")
        #expect(dropped.output.contains("  rows dropped because an expression failed on them: 1\n"), "\(dropped.output)")
        let json = try #require(AnyJSON.parse(query(#"LIST FROM "Reading" WHERE file.size > 100"#, "--json", "--explain").output))
        #expect(json["data"]["plan"]["pushedDown"].array?.count == 2)
        #expect(json["data"]["plan"]["evaluatedInSwift"] == [])
        #expect(json["data"]["plan"]["candidatePages"] == 4)
        #expect(json["data"]["plan"]["sql"].string?.hasPrefix("SELECT") == true)
    }

    // MARK: Errors

    @Test func aSyntaxErrorExitsTwoWithItsLineColumnAndACaret() throws {
        defer { cli.cleanUp() }
        let result = query("LIST WHERE rating >> 3")
        #expect(result.status == 2)
        #expect(result.output.isEmpty)
        let lines = result.error.split(separator: "\n").map(String.init)
        let message = try #require(lines.first { $0.contains("query:1:") })
        #expect(message.contains("query:1:20:"), "\(result.error)")
        let source = try #require(lines.firstIndex { $0.hasSuffix("LIST WHERE rating >> 3") })
        try #require(source + 1 < lines.count)
        let indent = lines[source].count - "LIST WHERE rating >> 3".count
        #expect(lines[source + 1] == String(repeating: " ", count: indent + 19) + "^")
        // On a later line of a multi-line query.
        let multiline = query("TABLE author\nFROM \"Reading\"\nWHERE rating >> 3")
        #expect(multiline.status == 2)
        #expect(multiline.error.contains("query:3:15:"), "\(multiline.error)")
        #expect(multiline.error.contains("WHERE rating >> 3\n"))
    }

    @Test func aSyntaxErrorInJSONHasTheCodeQuerySyntax() throws {
        defer { cli.cleanUp() }
        let result = query("TABLE author FROM \"Reading\" SORT", "--json")
        #expect(result.status == 2)
        let json = try #require(AnyJSON.parse(result.output))
        #expect(json["command"] == "query")
        #expect(json["error"]["code"] == "query-syntax")
        #expect(json["error"]["message"].string?.hasPrefix("query:1:") == true)
        #expect(json["error"]["message"].string?.contains("^") == true)
        let unknown = try #require(AnyJSON.parse(query("LIST WHERE extractmatch(file.name, \"x\")", "--json").output))
        #expect(unknown["error"]["code"] == "query-unknown-function")
        #expect(unknown["error"]["message"].string?.contains("extractmatch") == true)
    }

    @Test func anEvaluationErrorExitsTwoAndSaysWhy() throws {
        defer { cli.cleanUp() }
        let result = query(#"TABLE rating - author FROM "Reading""#)
        #expect(result.status == 2)
        #expect(result.error.contains("every row failed"))
        let json = try #require(AnyJSON.parse(query(#"LIST FROM outgoing([[Thinking in Systems]])"#, "--json").output))
        #expect(json["error"]["code"] == "query-evaluation")
    }

    // MARK: --note and --render

    @Test func noteRunsEachDataviewBlockOfTheNote() throws {
        defer { cli.cleanUp() }
        let json = try #require(AnyJSON.parse(query("--note", "Reading list", "--json").output))
        #expect(json["data"]["note"] == "Reading list.md")
        let blocks = try #require(json["data"]["blocks"].array)
        try #require(blocks.count == 3)
        #expect(blocks.map(\.["line"]) == [25, 31, 37])
        #expect(blocks[0]["query"] == "TABLE author, rating, pages\nFROM \"Reading\"\nSORT rating DESC, file.name ASC")
        #expect(blocks[0]["result"]["rows"].array?.map { $0[0]["path"].string ?? "?" } == [
            "Reading/A Philosophy of Software Design.md", "Reading/How to Take Smart Notes.md",
            "Reading/Designing Data-Intensive Applications.md", "Reading/SQLite FTS5 docs.md",
        ])
        #expect(blocks[0]["result"]["rows"][2] == [
            ["path": "Reading/Designing Data-Intensive Applications.md", "display": "Designing Data-Intensive Applications", "subpath": nil, "embed": false],
            "Martin Kleppmann", 4, 562,
        ])
        #expect(blocks[1]["result"]["kind"] == "list")
        #expect(blocks[1]["result"]["rows"].array?.map { [$0[0]["path"], $0[1]] } == [["Reading/How to Take Smart Notes.md", "Sönke Ahrens"]])
        #expect(blocks[2]["result"]["columns"] == ["status", "books", "pages"])
        #expect(blocks[2]["result"]["rows"] == [[nil, 1, nil], ["finished", 1, 176], ["reading", 2, 752]])
        #expect(blocks.allSatisfy { $0["error"] == nil })

        let text = query("--note", "Reading list")
        #expect(text.status == 0, "\(text.error)")
        #expect(text.output.contains("# block 1, line 25 of Reading list.md"))
        #expect(text.output.contains("# block 3, line 37 of Reading list.md"))
        #expect(text.output.contains("(4 rows)") && text.output.contains("(1 result)") && text.output.contains("(3 rows)"))
    }

    @Test func renderWritesACopyWithEachBlocksResultsBelowIt() throws {
        defer { cli.cleanUp() }
        let original = try Data(contentsOf: vault.url("Reading list.md"))
        let output = vault.outside.appendingPathComponent("Reading list (rendered).md")
        try FileManager.default.createDirectory(at: vault.outside, withIntermediateDirectories: true)
        let result = query("--note", "Reading list", "--render", output.path)
        #expect(result.status == 0, "\(result.error)")
        #expect(try Data(contentsOf: vault.url("Reading list.md")) == original)
        let rendered = try String(contentsOf: output, encoding: .utf8)
        let lines = rendered.components(separatedBy: "\n")
        // The note is kept whole, with the results after each closing fence.
        let originalLines = String(decoding: original, as: UTF8.self).components(separatedBy: "\n")
        #expect(lines.filter { originalLines.contains($0) }.count >= originalLines.count - 1)
        #expect(Array(lines.prefix(29)) == Array(originalLines.prefix(29)))
        let firstResult = try #require(lines.firstIndex { $0.hasPrefix("| File | author | rating | pages |") })
        #expect(firstResult > 28 && firstResult < lines.firstIndex(of: "LIST author")!)
        #expect(rendered.contains("| [[Reading/A Philosophy of Software Design\\|A Philosophy of Software Design]] | John Ousterhout | 5 | 190 |"))
        #expect(rendered.contains("| [[Reading/SQLite FTS5 docs\\|SQLite FTS5 docs]] | - | 3 | - |"))
        #expect(rendered.contains(": Sönke Ahrens"))
        let groups = try #require(lines.firstIndex { $0.hasPrefix("| status | books | pages |") })
        #expect(groups > lines.firstIndex(of: "GROUP BY status")!)
        #expect(Array(lines[(groups + 2)...(groups + 4)]) == ["| - | 1 | - |", "| finished | 1 | 176 |", "| reading | 2 | 752 |"])
        // The blocks themselves stay, so Obsidian still runs them.
        #expect(rendered.components(separatedBy: "```dataview").count == 4)
    }

    @Test func `a note saved with CRLF line endings has its blocks run, and its rendered copy keeps CRLF`() throws {
        defer { cli.cleanUp() }
        try vault.write("Windows.md", "# From Windows\r\n\r\n```dataview\r\nLIST FROM \"Reading\" WHERE rating = 5\r\n```\r\n\r\nAfter.\r\n")
        let run = query("--note", "Windows", "--json")
        let json = try #require(AnyJSON.parse(run.output), "\(run.output)\(run.error)")
        let blocks = json["data"]["blocks"].array ?? []
        #expect(blocks.count == 1, "\(json)")
        #expect(blocks.first?["line"] == 3 || blocks.first?["openingLine"] == 3, "\(blocks)")
        #expect(blocks.first?["error"] == .null, "\(blocks)")

        let output = vault.outside.appendingPathComponent("Windows (rendered).md")
        try FileManager.default.createDirectory(at: vault.outside, withIntermediateDirectories: true)
        #expect(query("--note", "Windows", "--render", output.path).status == 0)
        let rendered = try String(contentsOf: output, encoding: .utf8)
        #expect(rendered.hasPrefix("# From Windows\r\n\r\n```dataview\r\n") && rendered.hasSuffix("After.\r\n"), "\(rendered.debugDescription)")
        #expect(!rendered.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "every line ends in CRLF: \(rendered.debugDescription)")
        #expect(rendered.contains("A Philosophy of Software Design"), "\(rendered)")
    }

    @Test func renderRefusesToOverwriteTheNoteOrAnExistingFile() throws {
        defer { cli.cleanUp() }
        let note = vault.url("Reading list.md")
        let original = try Data(contentsOf: note)
        let overNote = query("--note", "Reading list", "--render", note.path)
        #expect(overNote.status == 2)
        #expect(overNote.error.contains("overwrite"))
        #expect(try Data(contentsOf: note) == original)
        // Also when written relative to the current folder.
        let relative = cli.run(["query", "--note", "Reading list", "--render", "Reading list.md", "--vault", vault.path], in: vault.path)
        #expect(relative.status == 2)
        #expect(try Data(contentsOf: note) == original)

        let existing = vault.outside.appendingPathComponent("taken.md")
        try FileManager.default.createDirectory(at: vault.outside, withIntermediateDirectories: true)
        try Data("keep me\n".utf8).write(to: existing)
        let overFile = query("--note", "Reading list", "--render", existing.path)
        #expect(overFile.status == 2)
        #expect(overFile.error.contains("already exists"))
        #expect(try String(contentsOf: existing, encoding: .utf8) == "keep me\n")
        #expect(try Data(contentsOf: note) == original)
    }

    @Test func aBlockWithAnErrorExitsOneAndBecomesAnErrorCalloutInTheCopy() throws {
        defer { cli.cleanUp() }
        try vault.write("Broken.md", """
            # Broken

            ```dataview
            LIST FROM "Reading" WHERE rating = 5
            ```

            ```dataview
            TABLE rating FROM "Reading" WHERE rating >> 3
            ```

            ```dataview
            TABLE rating - author FROM "Reading"
            ```
            """)
        let run = query("--note", "Broken")
        #expect(run.status == 1)
        #expect(run.output.contains("(2 results)"))
        #expect(run.output.contains("error: query:1:"))
        #expect(run.output.contains("every row failed"))
        let json = try #require(AnyJSON.parse(query("--note", "Broken", "--json").output))
        #expect(json["data"]["blocks"].array?.map { $0["error"]["code"] } == [nil, "query-syntax", "query-evaluation"])

        let output = vault.outside.appendingPathComponent("Broken (rendered).md")
        try FileManager.default.createDirectory(at: vault.outside, withIntermediateDirectories: true)
        let render = query("--note", "Broken", "--render", output.path)
        #expect(render.status == 1)
        let rendered = try String(contentsOf: output, encoding: .utf8)
        let lines = rendered.components(separatedBy: "\n")
        let callouts = lines.indices.filter { lines[$0] == "> [!error] Dataview query failed" }
        #expect(callouts.count == 2)
        if let first = callouts.first {
            #expect(lines[first + 1].hasPrefix("> query:1:"))
            #expect(lines[first + 3].hasPrefix(">") && lines[first + 3].hasSuffix("^"))
        }
        #expect(rendered.contains("How to Take Smart Notes"))
    }

    @Test func renderNeedsANoteAndNoQuery() throws {
        defer { cli.cleanUp() }
        #expect(query(#"LIST FROM "Reading""#, "--render", "/tmp/x.md").status == 2)
        #expect(query("--note", "Reading list", #"LIST"#, "--render", vault.outside.appendingPathComponent("x.md").path).status == 2)
        #expect(!FileManager.default.fileExists(atPath: vault.outside.appendingPathComponent("x.md").path))
    }
}
