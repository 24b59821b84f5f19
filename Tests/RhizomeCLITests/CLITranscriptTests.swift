import Foundation
import Testing
import RhizomeCLI
import RhizomeTestSupport

/// The command line as a user and an agent see it: output, JSON envelopes, exit statuses, errors.
@Suite struct CLITranscriptTests {
    @Test func indexPrintsWhatChangedAndTotals() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        let first = cli.run(["index", "--vault", vault.path])
        #expect(first.status == 0)
        #expect(first.output.contains("added 66 · modified 0 · removed 0 · unchanged 0"))
        #expect(first.output.contains("60 notes, 66 files · 313 links (11 unresolved)"))
        let second = cli.run(["index", "--vault", vault.path, "--json"])
        let data = try #require(second.json["data"] as? [String: Any])
        #expect(second.json["version"] as? Int == 1)
        #expect(second.json["command"] as? String == "index")
        #expect(data["added"] as? Int == 0)
        #expect(data["unchanged"] as? Int == 66)
        #expect(data["links"] as? Int == 313)
        // The index lives in the user's cache folder, not in the vault.
        let database = try #require(data["database"] as? String)
        #expect(database.hasPrefix(cli.home.appendingPathComponent(".cache/rhizome/").path))
        #expect(!FileManager.default.fileExists(atPath: vault.path + "/index.sqlite"))
    }

    @Test func jsonEnvelopesHaveSortedKeysAndAVersion() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        let result = cli.run(["backlinks", "Rhizome", "--vault", vault.path, "--json"])
        #expect(result.status == 0)
        let keys = result.output.split(separator: "\n").filter { $0.hasPrefix("  \"") }.map { $0.split(separator: "\"")[1] }
        #expect(keys == ["command", "data", "total", "truncated", "vault", "version"])
        let links = try #require(result.json["data"] as? [[String: Any]])
        #expect(!links.isEmpty)
        #expect(links.allSatisfy { $0["target"] as? String == "Projects/Rhizome/Rhizome.md" })
    }

    @Test func linksAllIsTheFidelityContract() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        let result = cli.run(["links", "--all", "--json", "--vault", vault.path])
        let links = try #require(result.json["data"] as? [[String: Any]])
        #expect(links.count == 313)
        for link in links {
            #expect(Set(link.keys) == ["source", "target", "linkPath", "subpath", "display", "kind", "propertyKey", "line", "column", "reference"])
            #expect(link["source"] is String && link["linkPath"] is String && link["kind"] is String)
            #expect(link["line"] is Int && link["column"] is Int)
        }
        // Unresolved links have a null target; property links carry their key.
        #expect(links.contains { $0["linkPath"] as? String == "Onboarding guide" && $0["target"] is NSNull })
        #expect(links.contains { $0["kind"] as? String == "property" && $0["propertyKey"] as? String == "related" })
        try Self.expectSnapshot("vault-example-links.json", result.output.replacingOccurrences(of: vault.path, with: "<vault>"))
    }

    @Test func `graph --json is pinned by a snapshot: every resolved edge with its count`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        let result = cli.run(["graph", "--json", "--vault", vault.path])
        #expect(result.status == 0, "\(result.error)")
        let edges = try #require((result.json["data"] as? [String: Any])?["edges"] as? [[String: Any]])
        #expect(edges.allSatisfy { Set($0.keys) == ["source", "target", "count"] })
        try Self.expectSnapshot("vault-example-graph.json", result.output.replacingOccurrences(of: vault.path, with: "<vault>"))
    }

    /// Compares `output` with the reviewed file in `Snapshots/` (regenerate with `RHIZOME_UPDATE_SNAPSHOTS=1`
    /// after a deliberate change, and read the diff).
    static func expectSnapshot(_ name: String, _ output: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let snapshot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots/\(name)")
        if ProcessInfo.processInfo.environment["RHIZOME_UPDATE_SNAPSHOTS"] == "1" {
            try FileManager.default.createDirectory(at: snapshot.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(output.utf8).write(to: snapshot)
        }
        #expect(output == (try String(contentsOf: snapshot, encoding: .utf8)), sourceLocation: sourceLocation)
    }

    @Test func unresolvedExitsOneWhenItFindsAny() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        let result = cli.run(["unresolved", "--vault", vault.path])
        #expect(result.status == 1)
        #expect(result.output.hasPrefix("11 unresolved links to 8 missing files"))
        #expect(result.output.contains("      Daily/2026-11-16.md:20:17"))
        let clean = try TemporaryVault()
        try clean.write("A.md", "[[B]]")
        try clean.write("B.md", "[[A]]")
        #expect(cli.run(["unresolved", "--vault", clean.path]).status == 0)
    }

    @Test func unknownNoteIsAUsageErrorWithSuggestions() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        let result = cli.run(["backlinks", "Rhizom", "--vault", vault.path])
        #expect(result.status == 2)
        #expect(result.error.contains("no note matches `Rhizom`"))
        #expect(result.error.contains("Did you mean: Projects/Rhizome/Rhizome.md"))
        let json = cli.run(["note", "Nope", "--vault", vault.path, "--json"])
        #expect(json.status == 2)
        #expect((json.json["error"] as? [String: Any])?["code"] as? String == "note-not-found")
    }

    @Test func aNoteArgumentResolvesLikeAWikilink() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        for argument in ["project alpha", "Projects/Alpha/Project Alpha", "Project Alpha.md", "Project Alpha#Goals"] {
            let result = cli.run(["note", argument, "--vault", vault.path, "--json"])
            let file = (result.json["data"] as? [String: Any])?["file"] as? [String: Any]
            #expect(file?["path"] as? String == "Projects/Alpha/Project Alpha.md", "\(argument)")
        }
    }

    @Test func usageErrorsExitTwo() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        #expect(cli.run(["frobnicate"]).status == 2)
        #expect(cli.run(["neighbors", "X", "--depth", "0", "--vault", cli.home.path]).status == 2)
        #expect(cli.run(["tasks", "--open", "--done"]).status == 2)
        #expect(cli.run(["links"]).status == 2)
        let help = cli.run(["--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("backlinks"))
    }

    @Test func sqlRefusesWritesAndAnswersReads() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        let write = cli.run(["sql", "DELETE FROM file", "--vault", vault.path, "--json"])
        #expect(write.status == 2)
        #expect((write.json["error"] as? [String: Any])?["code"] as? String == "sql-not-read-only")
        // How to fix it, apart from the message (which says it too), for agents that act on it.
        #expect((write.json["error"] as? [String: Any])?["fix"] as? String == "Use the documented views listed in docs/INDEX.md.")
        #expect(write.error == "error: `rhizome sql` runs read-only queries only (SELECT, WITH …). Use the documented views listed in docs/INDEX.md.\n", "\(write.error)")
        let unknown = cli.run(["note", "Nowhere at all", "--vault", vault.path, "--json"])
        #expect((unknown.json["error"] as? [String: Any]).map { $0.keys.contains("fix") && $0["fix"] is NSNull } == true, "a key without a separate fix is null")
        let read = cli.run(["sql", "SELECT tag, count(*) AS n FROM tags WHERE tag_lower = 'meetings' GROUP BY tag_lower", "--vault", vault.path])
        #expect(read.status == 0)
        #expect(read.output.contains("(1 row)"))
    }

    @Test func noRefreshOnAVaultNeverIndexedSaysWhatToDo() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TemporaryVault()
        let result = cli.run(["stats", "--no-refresh", "--vault", vault.path])
        #expect(result.status == 2)
        #expect(result.error.contains("Run `rhizome index` first"))
    }

    @Test func globalOptionsMayComeBeforeTheSubcommand() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        let result = cli.run(["--vault", vault.path, "--json", "stats"])
        #expect(result.status == 0)
        #expect((result.json["data"] as? [String: Any])?["notes"] as? Int == 60)
    }

    @Test func queryCommandsRefreshTheIndexFirst() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TemporaryVault()
        try vault.write("A.md", "[[B]]\n")
        #expect(cli.run(["unresolved", "--vault", vault.path]).status == 1)
        try vault.write("B.md", "now here\n")
        #expect(cli.run(["unresolved", "--vault", vault.path]).status == 0)
        #expect(cli.run(["backlinks", "B", "--vault", vault.path]).output.contains("A.md  ×1  (line 1)"))
        // --no-refresh answers from the index as it is.
        try vault.remove("B.md")
        #expect(cli.run(["unresolved", "--vault", vault.path, "--no-refresh"]).status == 0)
        #expect(cli.run(["unresolved", "--vault", vault.path]).status == 1)
    }

    @Test func tagsRollUpAndFilterByParent() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TemporaryVault()
        try vault.write("A.md", "#inbox/to-read and #Inbox\n")
        try vault.write("B.md", "---\ntags: [inbox/later]\n---\n")
        let list = cli.run(["tags", "--vault", vault.path, "--json"])
        let counts = try #require(list.json["data"] as? [[String: Any]])
        let inbox = try #require(counts.first { ($0["tag"] as? String)?.lowercased() == "inbox" })
        #expect(inbox["count"] as? Int == 3)
        #expect(inbox["notes"] as? Int == 2)
        let files = cli.run(["tags", "#inbox", "--vault", vault.path, "--json"])
        #expect(files.json["data"] as? [String] == ["A.md", "B.md"])
    }

    @Test func searchNeighborsPathAndGraph() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        let search = cli.run(["search", "café", "--vault", vault.path])
        #expect(search.output.contains("Café culture.md"))
        let neighbors = cli.run(["neighbors", "Home", "--depth", "2", "--vault", vault.path, "--json"])
        let near = try #require(neighbors.json["data"] as? [[String: Any]])
        #expect(near.contains { $0["distance"] as? Int == 2 })
        let path = cli.run(["path", "Home", "Quick Note", "--vault", vault.path])
        #expect(path.output.contains("1 link: Home.md → Quick Note.md"))
        let dot = cli.run(["graph", "--format", "dot", "--vault", vault.path])
        #expect(dot.output.hasPrefix("digraph vault {"))
        #expect(dot.output.contains("\"Home.md\" -> \"Quick Note.md\""))
    }

    @Test func usageErrorsAreJSONWhenJSONWasAskedFor() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        for arguments in [["neighbors", "Home", "--depth", "11", "--json"], ["search", "--json"], ["links", "--json"], ["frobnicate", "--json"]] {
            let result = cli.run(arguments)
            #expect(result.status == 2, "\(arguments)")
            let error = result.json["error"] as? [String: Any]
            #expect(error?["code"] as? String == "invalid-argument", "\(arguments)")
            #expect((error?["message"] as? String)?.isEmpty == false)
        }
        #expect(cli.run(["neighbors", "Home", "--depth", "11", "--json"]).json["command"] as? String == "neighbors")
    }

    @Test func sqlMistakesAreUsageErrorsNotInternalFailures() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        let view = cli.run(["sql", "DELETE FROM files", "--vault", vault.path, "--json"])
        #expect(view.status == 2)
        #expect((view.json["error"] as? [String: Any])?["code"] as? String == "sql-not-read-only")
        for query in ["SELEC 1", "SELECT * FROM no_such_view"] {
            let result = cli.run(["sql", query, "--vault", vault.path, "--json"])
            #expect(result.status == 2, "\(query)")
            #expect((result.json["error"] as? [String: Any])?["code"] as? String == "sql-invalid", "\(query)")
        }
    }

    @Test func aNoteWithAHashInItsNameCanBeQueried() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TemporaryVault()
        try vault.write("C# notes.md", "[[Other]]\n")
        try vault.write("Other.md", "# Heading\n")
        for argument in ["C# notes", "C# notes.md"] {
            #expect(cli.run(["links", argument, "--vault", vault.path]).status == 0, "\(argument)")
        }
        #expect(cli.run(["backlinks", "Other#Heading", "--vault", vault.path]).output.contains("C# notes.md"))
    }

    @Test func anUndirectedPathShowsTheRealDirectionOfEachLink() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        let result = cli.run(["path", "Quick Note", "Home", "--undirected", "--vault", vault.path])
        #expect(result.output.contains("1 link: Quick Note.md ← Home.md"))
    }

    @Test func statsCountsTasksWithCustomStatuses() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        let stats = cli.run(["stats", "--vault", vault.path, "--json"]).json["data"] as? [String: Any]
        let total = (cli.run(["tasks", "--vault", vault.path, "--json"]).json["data"] as? [Any])?.count ?? -1
        #expect((stats?["openTasks"] as? Int ?? 0) + (stats?["doneTasks"] as? Int ?? 0) + (stats?["otherTasks"] as? Int ?? 0) == total)
        #expect(stats?["otherTasks"] as? Int ?? 0 > 0)
    }

    @Test func noRefreshOnAnIndexWhoseFirstRunNeverFinishedSaysSo() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TemporaryVault()
        try vault.write("A.md", "a")
        _ = try vault.store()  // created and migrated, never indexed (as after a kill during the first run)
        let result = cli.run(["stats", "--no-refresh", "--vault", vault.path, "--db", vault.databasePath])
        #expect(result.status == 2)
        #expect(result.error.contains("has not been indexed yet"))
    }

    @Test func anIndexBuiltForAnotherVaultIsReindexedWithAWarning() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let first = try TemporaryVault()
        let second = try TemporaryVault()
        try first.write("A.md", "a")
        try second.write("B.md", "b")
        #expect(cli.run(["index", "--vault", first.path, "--db", first.databasePath]).error.isEmpty)
        let result = cli.run(["index", "--vault", second.path, "--db", first.databasePath])
        #expect(result.error.contains("was built for the vault \(first.path)"))
        #expect(result.output.contains("added 1 · modified 0 · removed 1"))
    }
}
