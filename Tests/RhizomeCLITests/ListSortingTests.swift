import Foundation
import Testing
import RhizomeCLI
import RhizomeTestSupport

/// `--sort FIELD[:asc|:desc]` on every list command, and the list options on the lists that got them last
/// (`tags`, `neighbors`, `search`, `validate`, `types`): narrowed before they are cut, totals of what was
/// narrowed, and unknown fields refused with the fields there are.
@Suite struct ListSortingTests {
    /// Three folders of notes with tags, types, tasks and links, with modification times one day apart.
    func vault() throws -> TemporaryVault {
        let vault = try TemporaryVault()
        try vault.write("Garden/Apple.md", "---\ntype: plant\ntags: [garden/fruit]\n---\nA turtle in the apple tree. #garden/fruit\n- [ ] prune [due:: 2026-03-01]\n")
        try vault.write("Garden/banana.md", "---\ntype: plant\n---\nA turtle eats a banana. #garden\n- [ ] water\n")
        try vault.write("Garden/Cherry.md", "---\ntype: plant\n---\nTurtle and cherry. #garden #garden/fruit\n- [ ] pick 📅 2026-01-15\n")
        try vault.write("Zoo/Turtle.md", "---\ntype: animal\n---\nThe turtle itself. [[Apple]] [[Lost]] [[Lost]] [[Gone]] #zoo\n")
        try vault.write("Zoo/Keeper.md", "---\ntype: person\nstatus: [unexpected\n---\nFeeds the turtle. [[Turtle]] [[Lost]]\n")
        let day: TimeInterval = 86_400
        for (index, path) in ["Garden/Apple.md", "Garden/banana.md", "Garden/Cherry.md", "Zoo/Turtle.md", "Zoo/Keeper.md"].enumerated() {
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * day)],
                                                  ofItemAtPath: vault.path + "/" + path)
        }
        return vault
    }

    @Test func `orphans sort by name, by modified (newest first) and ascending when asked`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try vault()
        let arguments = ["orphans", "--folder", "Garden", "--format", "paths", "--vault", vault.path]
        // By path (the default) `Garden/Apple` < `Garden/Cherry` < `Garden/banana` byte for byte; by name, case is ignored.
        #expect(cli.run(arguments).output == "Garden/banana.md\nGarden/Cherry.md\n" || cli.run(arguments).output == "Garden/Cherry.md\nGarden/banana.md\n")
        #expect(cli.run(arguments + ["--sort", "name"]).output == "Garden/banana.md\nGarden/Cherry.md\n")
        #expect(cli.run(arguments + ["--sort", "name:desc"]).output == "Garden/Cherry.md\nGarden/banana.md\n")
        #expect(cli.run(arguments + ["--sort", "modified"]).output == "Garden/Cherry.md\nGarden/banana.md\n")
        #expect(cli.run(arguments + ["--sort", "modified:asc"]).output == "Garden/banana.md\nGarden/Cherry.md\n")
    }

    @Test func `an unknown sort field is a usage error naming the fields there are`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try vault()
        let wrong = cli.run(["orphans", "--sort", "modfied", "--vault", vault.path])
        #expect(wrong.status == 2)
        #expect(wrong.error.contains("sorts by path, name, modified, size, not `modfied`"), "\(wrong.error)")
        #expect(wrong.error.contains("did you mean `modified`?"), "\(wrong.error)")
        let malformed = cli.run(["orphans", "--sort", "name:up", "--vault", vault.path])
        #expect(malformed.status == 2)
        #expect(malformed.error.contains("--sort takes FIELD, FIELD:asc or FIELD:desc"), "\(malformed.error)")
        let search = cli.run(["search", "turtle", "--sort", "pat", "--vault", vault.path])
        #expect(search.status == 2)
        #expect(search.error.contains("sorts by relevance, path, modified, not `pat` (did you mean `path`?)"), "\(search.error)")
    }

    @Test func `unresolved sorted by count puts the most wanted missing note first`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try vault()
        let result = cli.run(["unresolved", "--sort", "count", "--format", "csv", "--vault", vault.path])
        let targets = result.output.split(separator: "\n").dropFirst().map { $0.split(separator: ",").map(String.init) }
        let linkPaths = targets.compactMap { row in row.first(where: { $0 == "Lost" || $0 == "Gone" }) }
        #expect(linkPaths == ["Lost", "Lost", "Lost", "Gone"], "\(result.output)")
    }

    @Test func `tasks sorted by due date put undated tasks last in either direction`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try vault()
        let ascending = cli.run(["tasks", "--sort", "due", "--format", "tsv", "--vault", vault.path]).output
        #expect(ascending.split(separator: "\n").dropFirst().map { $0.split(separator: "\t")[3] } == ["pick 📅 2026-01-15", "prune [due:: 2026-03-01]", "water"])
        let descending = cli.run(["tasks", "--sort", "due:desc", "--format", "tsv", "--vault", vault.path]).output
        #expect(descending.split(separator: "\n").dropFirst().map { $0.split(separator: "\t")[3] } == ["prune [due:: 2026-03-01]", "pick 📅 2026-01-15", "water"])
    }

    @Test func `tags count only the notes the options keep, sort by count, and page`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try vault()
        let zoo = cli.run(["tags", "--folder", "Zoo", "--format", "csv", "--vault", vault.path])
        #expect(zoo.output == "tag,count,notes\nzoo,1,1\n", "\(zoo.output)")
        let byCount = cli.run(["tags", "--sort", "notes", "--limit", "2", "--vault", vault.path])
        #expect(byCount.output.hasPrefix("TAG"), "\(byCount.output)")
        let lines = byCount.output.split(separator: "\n")
        #expect(lines[1].hasPrefix("#garden "), "\(byCount.output)")  // 3 notes, not indented under a parent
        #expect(lines[2].hasPrefix("#garden/fruit "), "\(byCount.output)")
        #expect(lines.last == "showing 2 of 3; --limit and --offset to see more")
        let json = cli.run(["tags", "--type", "animal", "--json", "--vault", vault.path]).json
        #expect(json["total"] as? Int == 1)
        // With TAG: its notes, with the list options.
        #expect(cli.run(["tags", "garden", "--sort", "name:desc", "--format", "paths", "--vault", vault.path]).output
                == "Garden/Cherry.md\nGarden/banana.md\nGarden/Apple.md\n")
    }

    @Test func `search narrows in SQL before the limit, so the page and the total are the folder's`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try vault()
        let garden = cli.run(["search", "turtle", "--folder", "Garden", "--limit", "2", "--json", "--vault", vault.path]).json
        #expect(garden["total"] as? Int == 3)
        let paths = (garden["data"] as? [[String: Any]])?.compactMap { $0["path"] as? String } ?? []
        #expect(paths.count == 2 && paths.allSatisfy { $0.hasPrefix("Garden/") }, "\(paths)")
        let byPath = cli.run(["search", "turtle", "--sort", "path:desc", "--offset", "1", "--format", "paths", "--vault", vault.path])
        #expect(byPath.output == "Zoo/Keeper.md\nGarden/banana.md\nGarden/Cherry.md\nGarden/Apple.md\n", "\(byPath.output)")
        let newest = cli.run(["search", "turtle", "--sort", "modified", "--limit", "1", "--format", "paths", "--vault", vault.path])
        #expect(newest.output == "Zoo/Keeper.md\n")
        #expect(cli.run(["search", "turtle", "--tag", "garden/fruit", "--format", "paths", "--sort", "path", "--vault", vault.path]).output
                == "Garden/Apple.md\nGarden/Cherry.md\n")
        #expect(cli.run(["search", "turtle", "--type", "animal", "--format", "paths", "--vault", vault.path]).output == "Zoo/Turtle.md\n")
        let text = cli.run(["search", "turtle", "--limit", "2", "--offset", "2", "--vault", vault.path])
        #expect(text.output.hasPrefix("showing 2 of 5 results for turtle from 2; --limit and --offset to see more\n"), "\(text.output)")
        // Captured output is not a terminal: matches stay in markdown bold, never terminal styles.
        #expect(text.output.contains("**") && !text.output.contains("\u{1B}["))
    }

    @Test func `neighbors page and sort, validate pages findings but counts them all, types narrow`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try vault()
        let neighbors = cli.run(["neighbors", "Turtle", "--depth", "2", "--sort", "path:desc", "--limit", "1", "--json", "--vault", vault.path]).json
        #expect(neighbors["total"] as? Int == 2)
        #expect((neighbors["data"] as? [[String: Any]])?.first?["path"] as? String == "Zoo/Keeper.md")

        let validate = cli.run(["validate", "--folder", "Zoo", "--limit", "1", "--json", "--vault", vault.path])
        #expect(validate.status == 1)
        let data = try #require(validate.json["data"] as? [String: Any])
        #expect((data["findings"] as? [Any])?.count == 1)
        #expect(validate.json["truncated"] as? Bool == true)
        #expect((validate.json["total"] as? Int ?? 0) >= 2)
        let garden = cli.run(["validate", "--folder", "Garden", "--json", "--vault", vault.path])
        let gardenFindings = ((garden.json["data"] as? [String: Any])?["findings"] as? [[String: Any]]) ?? []
        #expect(gardenFindings.count == 3 && gardenFindings.allSatisfy { ($0["path"] as? String)?.hasPrefix("Garden/") == true }, "\(garden.output)")

        let types = cli.run(["types", "--folder", "Garden", "--format", "csv", "--vault", vault.path])
        #expect(types.output == "type,notes,schema\nplant,3,\n", "\(types.output)")
        let sorted = cli.run(["types", "--sort", "type", "--format", "paths", "--vault", vault.path])
        #expect(sorted.output == "animal\nplant\n", "\(sorted.output)")
        #expect(cli.run(["types", "migrate", "--from", "a", "--to", "b", "--limit", "1", "--vault", vault.path]).status == 2)
    }
}

