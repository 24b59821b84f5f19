import Foundation
import Testing
import RhizomeCLI
import RhizomeTestSupport

/// `search` says how many notes match, not only how many it shows: "20 results" when 2,405 match was a lie
/// by omission. Text ends the header with the total when `--limit` cut the list; JSON has `total` and
/// `truncated` beside `data`.
@Suite struct SearchTotalTests {
    func vault() throws -> TemporaryVault {
        let vault = try TemporaryVault()
        for index in 1...3 { try vault.write("Turtle \(index).md", "A turtle, number \(index).\n") }
        try vault.write("Other.md", "Nothing here.\n")
        return vault
    }

    @Test func `a cut list says how many match and how to see more`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try vault()
        let text = cli.run(["search", "turtle", "--limit", "2", "--vault", vault.path])
        #expect(text.status == 0, "\(text.error)")
        #expect(text.output.hasPrefix("showing 2 of 3 results for turtle; --limit and --offset to see more\n"), "\(text.output)")
        let json = cli.run(["search", "turtle", "--limit", "2", "--json", "--vault", vault.path]).json
        #expect(json["total"] as? Int == 3)
        #expect(json["truncated"] as? Bool == true)
        #expect((json["data"] as? [Any])?.count == 2)
    }

    /// Issue 21: when no note has every word, notes with any of them, those with more first, and the
    /// answer says it fell back (text and JSON `note`). A single word, or a raw query, does not fall back.
    @Test func `no note with every word falls back to notes with some of them, and says so`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try vault()
        try vault.write("Turtle and tortoise.md", "A turtle is not a tortoise.\n")
        let text = cli.run(["search", "turtle", "tortoise", "zebracorn", "--vault", vault.path])
        #expect(text.status == 0, "\(text.error)")
        #expect(text.output.hasPrefix("No note has every word of turtle tortoise zebracorn; notes with some of them:\n4 results"), "\(text.output)")
        let json = cli.run(["search", "turtle", "tortoise", "zebracorn", "--json", "--vault", vault.path]).json
        let paths = (json["data"] as? [[String: Any]])?.compactMap { $0["path"] as? String } ?? []
        #expect(paths.first == "Turtle and tortoise.md", "the note with more of the words comes first: \(paths)")
        #expect(paths.count == 4 && json["total"] as? Int == 4)
        #expect((json["note"] as? String)?.contains("no note has every word") == true)
        let exact = cli.run(["search", "turtle", "tortoise", "--json", "--vault", vault.path]).json
        #expect(exact["note"] == nil && (exact["data"] as? [Any])?.count == 1)
        #expect(cli.run(["search", "zebracorn", "--vault", vault.path]).output.hasPrefix("0 results"))
    }

    @Test func `a whole list gives its count and is not truncated`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try vault()
        #expect(cli.run(["search", "turtle", "--vault", vault.path]).output.hasPrefix("3 results for turtle\n"))
        let json = cli.run(["search", "turtle", "--json", "--vault", vault.path]).json
        #expect(json["total"] as? Int == 3)
        #expect(json["truncated"] as? Bool == false)
    }
}

/// Snippets mark each match in `**bold**`, but never inside emphasis the note already has.
@Suite struct SearchSnippetTests {
    @Test func `a match already in bold is not wrapped again`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TemporaryVault()
        try vault.write("Testing.md", "Prefer a **Mock** over a real server, and a mock only when needed.\n")
        let json = cli.run(["search", "mock", "--json", "--vault", vault.path]).json
        let snippet = ((json["data"] as? [[String: Any]])?.first?["snippet"] as? String) ?? ""
        #expect(snippet.contains("a **Mock** over"), "\(snippet)")
        #expect(snippet.contains("a **mock** only"), "\(snippet)")
        #expect(!snippet.contains("***"), "\(snippet)")
    }
}

/// A property key or tag that matches nothing gets a suggestion, as NOTE arguments do.
@Suite struct PropertyAndTagSuggestionTests {
    @Test func `a key in the wrong case or with a typo is answered with the key the vault uses`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TemporaryVault()
        try vault.write("Book.md", "---\nrating: 4\ntags: [reading/books]\n---\n")
        let wrongCase = cli.run(["properties", "Rating", "--vault", vault.path])
        #expect(wrongCase.output == "0 notes with `Rating`\n")
        #expect(wrongCase.error.contains("Did you mean `rating`?"), "\(wrongCase.error)")
        #expect(cli.run(["properties", "ratng", "--vault", vault.path]).error.contains("Did you mean `rating`?"))
        #expect(cli.run(["tags", "#reading/book", "--vault", vault.path]).error.contains("Did you mean #reading/books?"))
        #expect(cli.run(["properties", "zzzzzz", "--vault", vault.path]).error.isEmpty)
    }
}

/// `tasks` narrowed to notes or folders, a status character, and what is due by a day.
@Suite struct TaskFilterTests {
    @Test func `tasks of one note, one folder, one status, or due by a date`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TemporaryVault()
        try vault.write("Work/Plan.md", "- [ ] file taxes 📅 2024-04-15\n- [-] dropped idea\n- [ ] review [due:: 2024-04-01]\n")
        try vault.write("Work/Later.md", "- [ ] someday\n")
        try vault.write("Home.md", "- [x] done thing 📅 2024-01-01\n")
        #expect(cli.run(["tasks", "Plan", "--vault", vault.path]).output.hasPrefix("3 tasks\n"))
        #expect(cli.run(["tasks", "Work", "--vault", vault.path]).output.hasPrefix("4 tasks\n"))
        #expect(cli.run(["tasks", "--status", "-", "--vault", vault.path]).output == "1 task\n  [-] dropped idea  — Work/Plan.md:2\n")
        let due = cli.run(["tasks", "--due", "2024-04-30", "--open", "--vault", vault.path])
        #expect(due.output == """
            2 tasks
              [ ] review [due:: 2024-04-01]  (due 2024-04-01)  — Work/Plan.md:3
              [ ] file taxes 📅 2024-04-15  (due 2024-04-15)  — Work/Plan.md:1

            """, "\(due.output)")
        #expect(cli.run(["tasks", "--due", "soon", "--vault", vault.path]).status == 2)
    }
}

/// `search --context N`: matching lines with their numbers and N lines around, grouped by note.
@Suite struct SearchContextTests {
    @Test func `matching lines are printed as ripgrep prints them, with a real count`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TemporaryVault()
        try vault.write("Reef.md", "# Reef\n\nOne line.\nA Turtle swims.\nAnother line.\nThird.\nFourth.\nFifth.\nturtles again here.\n")
        let result = cli.run(["search", "turtle*", "--context", "1", "--vault", vault.path])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == """
            Reef.md
            3-One line.
            4:A Turtle swims.
            5-Another line.
            --
            8-Fifth.
            9:turtles again here.
            10-

            2 matching lines in 1 note

            """, "\(result.output)")
        let json = cli.run(["search", "turtle*", "--context", "0", "--json", "--vault", vault.path]).json
        let hit = (json["data"] as? [[String: Any]])?.first
        #expect(hit?["matchingLines"] as? Int == 2)
        #expect((hit?["lines"] as? [[String: Any]])?.map { $0["line"] as? Int } == [4, 9])
    }
}
