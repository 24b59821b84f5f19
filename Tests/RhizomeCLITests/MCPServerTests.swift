import Foundation
import Testing
import RhizomeTestSupport

/// `rhizome mcp` end to end: an MCP client speaks newline-delimited JSON-RPC to the real process over pipes,
/// on a copy of Vault-Example (whose notes the expected answers were read from).
///
/// The server answers requests concurrently, so answers are matched by id; requests are sent without
/// waiting for earlier answers, and standard input stays open until every answer arrived.
@Suite(.serialized, .timeLimit(.minutes(2))) struct MCPServerTests {
    static let toolNames: Set<String> = [
        "search", "note", "backlinks", "links", "neighbors", "path", "unresolved", "orphans", "tags", "tasks",
        "properties", "query", "dataview", "base", "validate", "schema", "read_note", "recent_changes", "status", "relevant_notes", "explore",
    ]

    @Test func withReadOnlyToolsListDescribesOnlyReadTools() throws {
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        let session = try MCPSession(vault: vault, arguments: ["--read-only"])
        defer { session.child.stop() }

        let initialized = try session.initialize()
        #expect(initialized["serverInfo"]["name"] == "rhizome")
        #expect(initialized["serverInfo"]["version"].string?.isEmpty == false)
        #expect(initialized["capabilities"]["tools"].object != nil, "the server must announce tools: \(initialized)")
        #expect(initialized["protocolVersion"] == .string(MCPSession.protocolVersion))

        let listed = try session.result(of: session.request("tools/list"))
        let tools = listed["tools"].array ?? []
        #expect(Set(tools.compactMap { $0["name"].string }) == Self.toolNames)
        #expect(tools.count == Self.toolNames.count)
        for tool in tools {
            let name = tool["name"].string ?? "?"
            #expect((tool["description"].string?.count ?? 0) > 20, "\(name) needs a description an agent can choose by")
            #expect(tool["inputSchema"]["type"] == "object", "\(name)")
            #expect(tool["annotations"]["readOnlyHint"] == true, "\(name) must say it only reads")
            #expect(tool["annotations"]["destructiveHint"] != true, "\(name)")
            // Every required argument is a declared property.
            let properties = Set(tool["inputSchema"]["properties"].keys)
            for required in tool["inputSchema"]["required"].array ?? [] {
                #expect(properties.contains(required.string ?? ""), "\(name) requires undeclared \(required)")
            }
        }
        let byName = Dictionary(tools.map { ($0["name"].string ?? "", $0) }, uniquingKeysWith: { first, _ in first })
        #expect(byName["path"]?["inputSchema"]["required"] == ["from", "to"])
        #expect(byName["note"]?["inputSchema"]["required"] == ["note"])
        #expect(byName["neighbors"]?["inputSchema"]["properties"]["depth"]["maximum"] == 3)

        #expect(session.finish() == .exited(0), "stderr: \(session.child.errorText)")
        #expect(session.strayOutput.isEmpty, "stdout must carry JSON-RPC only: \(session.strayOutput)")
    }

    @Test func everyToolAnswersFromTheExampleVaultsGraph() throws {
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        let session = try MCPSession(vault: vault)
        defer { session.child.stop() }
        _ = try session.initialize()
        try session.waitUntilIndexed()

        // All calls go out at once; the answers may come back in any order.
        let calls: [(String, AnyJSON)] = [
            ("search", ["query": "trigram"]),
            ("search", ["query": "trigram", "limit": 2]),
            ("note", ["note": "ADR-001 Use SQLite"]),
            ("note", ["note": "ADR-001 Use SQLite", "includeBody": true, "maxBodyCharacters": 100]),
            ("note", ["note": "ADR-001 Use SQLite", "includeBody": true]),
            ("backlinks", ["note": "SQLite FTS5 docs"]),
            ("backlinks", ["note": "SQLite FTS5 docs", "limit": 1]),
            ("links", ["note": "Reading/SQLite FTS5 docs"]),
            ("neighbors", ["note": "SQLite FTS5 docs"]),
            ("neighbors", ["note": "SQLite FTS5 docs", "depth": 3, "limit": 5]),
            ("path", ["from": "SQLite FTS5 docs", "to": "ADR-001 Use SQLite"]),
            ("path", ["from": "SQLite FTS5 docs", "to": "README"]),
            ("unresolved", [:]),
            ("unresolved", ["limit": 1]),
            ("orphans", [:]),
            ("tags", ["limit": 3]),
            ("tags", ["tag": "reading"]),
            ("tags", ["tag": "#project/rhizome"]),
            ("tasks", [:]),
            ("tasks", ["status": "done", "limit": 2]),
            ("properties", [:]),
            ("properties", ["key": "deciders"]),
            ("query", ["sql": "SELECT path FROM notes WHERE folder = 'People' ORDER BY path"]),
            ("query", ["sql": "SELECT path FROM notes ORDER BY path", "limit": 2]),
            ("validate", ["path": "Ideas"]),
            ("schema", [:]),
            ("schema", ["type": "person"]),
        ]
        let ids = try calls.map { try session.callTool($0.0, $0.1) }
        let answers = try session.toolAnswers(ids)
        func answer(_ index: Int) -> ToolAnswer { answers[ids[index]]! }
        for (index, call) in calls.enumerated() {
            let reply = answer(index)
            #expect(!reply.isError, "\(call.0) \(call.1) failed: \(reply.body)")
            #expect(reply.body["tool"] == .string(call.0))
            #expect(reply.body["version"] == 1)
            #expect(reply.body["freshness"]["state"] == "current", "\(call.0): \(reply.body["freshness"])")
            #expect(reply.body["freshness"]["watchedBy"] == "this server")
            #expect(reply.body["freshness"]["indexedAt"].string != nil)
        }

        // search: "trigram" occurs in four notes; the FTS5 note ranks first (the word is in its body twice).
        let search = answer(0).body
        #expect(search["data"].array?.compactMap { $0["path"].string }.sorted()
            == ["Daily/2026-11-19.md", "Ideas/Backlog.md", "Ideas/Embedding-free search.md", "Reading/SQLite FTS5 docs.md"])
        #expect(search["data"][0]["path"] == "Reading/SQLite FTS5 docs.md")
        #expect(search["data"][0]["snippet"].string?.contains("**trigram**") == true)
        #expect(search["truncated"] == false)
        let cappedSearch = answer(1).body
        #expect(cappedSearch["data"].array?.count == 2)
        #expect(cappedSearch["truncated"] == true)
        // Search looks one hit past the limit: it knows there are more, not how many.
        #expect(cappedSearch["total"].isNull || cappedSearch["total"] == 4, "a total must count every hit: \(cappedSearch["total"])")

        // note: ADR-001 is linked from the design note's `related` property, the project index and home page,
        // the canvas, and the DDIA reading note (to its block ^decision-sqlite).
        let note = answer(2).body["data"]
        #expect(note["note"]["file"]["path"] == "Projects/Rhizome/Decisions/ADR-001 Use SQLite.md")
        #expect(note["note"]["frontmatter"]["id"] == "ADR-001")
        #expect(note["note"]["frontmatter"]["deciders"] == ["Maya", "[[Tomás Ferreira]]"])
        #expect(note["note"]["blocks"][0]["id"] == "decision-sqlite")
        #expect(Set(note["note"]["backlinks"].array?.compactMap { $0["source"].string } ?? []) == [
            "Projects/Rhizome/Design/Storage schema.md", "Projects/Rhizome/Index.md", "Projects/Rhizome/Rhizome map.canvas",
            "Projects/Rhizome/Rhizome.md", "Reading/Designing Data-Intensive Applications.md",
        ])
        #expect(note["note"]["backlinks"].array?.first { $0["source"] == "Reading/Designing Data-Intensive Applications.md" }?["subpath"]
            == "^decision-sqlite")
        #expect(note["body"].isNull, "no body unless asked for")
        #expect(answer(2).body["truncated"] == false)
        let noteText = try vault.read("Projects/Rhizome/Decisions/ADR-001 Use SQLite.md")
        let cappedBody = answer(3).body["data"]["body"]
        #expect(cappedBody["text"].string == String(noteText.prefix(100)))
        #expect(cappedBody["characters"] == .number(Double(noteText.count)))
        #expect(cappedBody["truncated"] == true)
        #expect(answer(3).body["truncated"] == true, "a capped body marks the answer truncated")
        #expect(answer(4).body["data"]["body"]["text"].string == noteText)
        #expect(answer(4).body["data"]["body"]["truncated"] == false)

        // backlinks: Storage schema line 38, Reading list line 17, and the `related` property of Embedding-free search.
        let backlinks = answer(5).body
        let sources = backlinks["data"].array?.map { "\($0["source"].string ?? "?"):\($0["line"].int ?? 0):\($0["kind"].string ?? "?")" }
        #expect(sources?.sorted() == [
            "Ideas/Embedding-free search.md:8:property", "Projects/Rhizome/Design/Storage schema.md:38:wikilink", "Reading list.md:17:wikilink",
        ])
        #expect(backlinks["data"].array?.allSatisfy { $0["target"] == "Reading/SQLite FTS5 docs.md" } == true)
        #expect(backlinks["total"] == 3)
        #expect(backlinks["truncated"] == false)
        let cappedBacklinks = answer(6).body
        #expect(cappedBacklinks["data"].array?.count == 1)
        #expect(cappedBacklinks["total"] == 3)
        #expect(cappedBacklinks["truncated"] == true)

        // links, in order: the `see_also` markdown property link, two wikilinks, the markdown link back to the list.
        let links = answer(7).body
        #expect(links["data"].array?.map { $0["target"] } == [
            "Projects/Rhizome/Design/Storage schema.md", "Ideas/Embedding-free search.md", "Projects/Rhizome/Design/Storage schema.md", "Reading list.md",
        ])
        #expect(links["data"].array?.map { $0["kind"] } == ["property", "wikilink", "wikilink", "markdown"])
        #expect(links["data"][0]["propertyKey"] == "see_also")
        #expect(links["total"] == 4)

        // neighbors: one link away both ways; three links away is most of the vault, capped at 5.
        let near = answer(8).body
        #expect(Set(near["data"].array?.compactMap { $0["path"].string } ?? [])
            == ["Ideas/Embedding-free search.md", "Projects/Rhizome/Design/Storage schema.md", "Reading list.md"])
        #expect(near["data"].array?.allSatisfy { $0["distance"] == 1 } == true)
        let far = answer(9).body
        let distances = far["data"].array?.compactMap { $0["distance"].int } ?? []
        #expect(distances.count == 5)
        #expect(distances == distances.sorted(), "nearest first")
        #expect(distances.allSatisfy { (1...3).contains($0) })
        #expect(far["truncated"] == true)
        #expect((far["total"].int ?? 0) > 5)

        // path: the FTS5 note links the storage schema, which lists ADR-001 in `related`; nothing links to README.
        #expect(answer(10).body["data"] == [
            "Reading/SQLite FTS5 docs.md", "Projects/Rhizome/Design/Storage schema.md", "Projects/Rhizome/Decisions/ADR-001 Use SQLite.md",
        ])
        #expect(answer(11).body["data"].isNull, "no chain of links leads to README")

        // unresolved: eleven, among them [[DDIA]] in the DDIA reading note (an alias, which never resolves).
        let unresolved = answer(12).body
        #expect(unresolved["total"] == 11)
        #expect(unresolved["data"].array?.count == 11)
        #expect(unresolved["data"].array?.allSatisfy { $0["target"].isNull } == true)
        #expect(unresolved["data"].array?.contains { $0["linkPath"] == "DDIA" && $0["source"] == "Reading/Designing Data-Intensive Applications.md" } == true)
        #expect(answer(13).body["data"].array?.count == 1)
        #expect(answer(13).body["total"] == 11)
        #expect(answer(13).body["truncated"] == true)

        #expect(answer(14).body["data"] == ["Daily/2026-11-20.md", "README.md"])

        // tags: counts without a tag; with one, the notes carrying it or a tag nested under it.
        let tags = answer(15).body
        #expect(tags["data"].array?.count == 3)
        #expect(tags["truncated"] == true)
        #expect((tags["total"].int ?? 0) > 3)
        #expect(tags["data"][0].keys == ["count", "notes", "tag"])
        #expect(answer(16).body["data"] == [
            "Reading list.md", "Reading/A Philosophy of Software Design.md", "Reading/How to Take Smart Notes.md", "Reading/SQLite FTS5 docs.md",
        ])
        let rhizomeTagged = answer(17).body["data"].array ?? []
        #expect(rhizomeTagged.contains("Projects/Rhizome/Decisions/ADR-001 Use SQLite.md"), "project/rhizome/decisions rolls up into project/rhizome")
        #expect(rhizomeTagged.contains("Projects/Rhizome/Rhizome.md"))
        #expect(!rhizomeTagged.contains("Reading/SQLite FTS5 docs.md"))

        // tasks: open by default; the first done one is Monday's review of Tomás's PR.
        let openTasks = answer(18).body["data"].array ?? []
        #expect(!openTasks.isEmpty)
        #expect(openTasks.allSatisfy { $0["done"] == false })
        #expect(openTasks.contains { $0["path"] == "Daily/2026-11-16.md" && $0["text"] == "Book the train to Lisbon for the offsite" })
        let doneTasks = answer(19).body
        #expect(doneTasks["data"][0] == ["done": true, "line": 19, "path": "Daily/2026-11-16.md", "status": "x", "text": "Review Tomás's PR for the link tokenizer"])
        #expect(doneTasks["truncated"] == true)
        #expect((doneTasks["total"].int ?? 0) > 2)

        // properties: `deciders` is a list in the five decision notes.
        #expect(answer(20).body["data"].array?.first { $0["key"] == "deciders" } == ["key": "deciders", "notes": 5, "types": ["list"]])
        let deciders = answer(21).body
        #expect(deciders["total"] == 5)
        #expect(deciders["data"].array?.first { $0["path"] == "Projects/Rhizome/Decisions/ADR-001 Use SQLite.md" }?["value"] == ["Maya", "[[Tomás Ferreira]]"])

        // query: read-only SQL over the documented views.
        #expect(answer(22).body["data"] == [
            "columns": ["path"], "rows": [["People/Jonah Weiss.md"], ["People/Priya Raman.md"], ["People/Tomás Ferreira.md"]],
        ])
        #expect(answer(23).body["data"]["rows"].array?.count == 2)
        #expect(answer(23).body["truncated"] == true)

        // validate: Tag garden writes `tags: tagging, maintenance`, a string where a list belongs.
        let findings = answer(24).body["data"].array ?? []
        #expect(Set(findings.compactMap { $0["code"].string }) == ["wrong-type", "invalid-tag-value"])
        #expect(findings.allSatisfy { $0["path"] == "Ideas/Tag garden.md" && $0["line"] == 6 && $0["fix"].string != nil })

        // schema: built-in types and the vault's own (.rhizome/schemas/person.yaml, meeting.yaml).
        let schemas = answer(25).body["data"].array ?? []
        let types = schemas.compactMap { $0["type"].string }
        #expect(Set(["person", "meeting", "project", "decision"]).isSubset(of: Set(types)), "\(types)")
        #expect(answer(25).body["total"] == .number(Double(schemas.count)))
        let person = answer(26).body["data"]
        #expect(person["builtIn"] == false, "person comes from the vault's .rhizome/schemas")
        #expect(person["fields"].array?.first { $0["name"] == "title" }?["required"] == true)

        #expect(session.finish() == .exited(0), "stderr: \(session.child.errorText)")
        #expect(session.strayOutput.isEmpty, "stdout must carry JSON-RPC only: \(session.strayOutput)")
    }

    @Test func mistakesComeBackAsErrorResultsTheAgentCanActOn() throws {
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        let session = try MCPSession(vault: vault)
        defer { session.child.stop() }
        _ = try session.initialize()
        try session.waitUntilIndexed()

        let calls: [(String, AnyJSON, code: String, says: String)] = [
            ("note", ["note": "Storage schma"], "note-not-found", "did you mean: Projects/Rhizome/Design/Storage schema.md"),
            ("backlinks", ["note": "Rhizom"], "note-not-found", "Projects/Rhizome/Rhizome.md"),
            ("path", ["from": "SQLite FTS5 docs", "to": "Nowhere at all"], "note-not-found", "Nowhere at all"),
            ("rename_everything", ["note": "Home"], "unknown-tool", "tools/list"),
            ("neighbors", ["note": "SQLite FTS5 docs", "depth": 4], "invalid-argument", "depth"),
            ("search", [:], "invalid-argument", "query"),
            ("search", ["query": "trigram", "limit": 0], "invalid-argument", "limit"),
            ("tasks", ["status": "someday"], "invalid-argument", "open, done, all"),
            ("schema", ["type": "nonesuch"], "invalid-argument", "person"),
            ("query", ["sql": "INSERT INTO tags(path, tag) VALUES ('x', 'y')"], "", ""),
            ("query", ["sql": "DELETE FROM files"], "", ""),
        ]
        let ids = try calls.map { try session.callTool($0.0, $0.1) }
        // A method the server does not offer is a JSON-RPC error, not a crash.
        let unknownMethod = try session.request("resources/templates/list")
        let answers = try session.toolAnswers(ids)
        for (index, call) in calls.enumerated() {
            let reply = answers[ids[index]]!
            #expect(reply.isError, "\(call.0) \(call.1) should fail: \(reply.body)")
            #expect(reply.body["tool"] == .string(call.0))
            #expect(reply.body["freshness"]["state"] == "current")
            let message = reply.body["error"]["message"].string ?? ""
            #expect(!message.isEmpty)
            if !call.code.isEmpty {
                #expect(reply.body["error"]["code"] == .string(call.code), "\(call.0) \(call.1): \(reply.body)")
                #expect(message.contains(call.says), "\(call.0) \(call.1): \(message)")
            }
        }
        // Writing SQL is refused (whatever the code says, it is an error and nothing changed).
        for index in [9, 10] {
            #expect(answers[ids[index]]!.body["error"]["code"].string?.isEmpty == false)
            // How to fix it, apart from the message, for the agent to act on.
            #expect(answers[ids[index]]!.body["error"]["fix"].string?.contains("documented views") == true, "\(answers[ids[index]]!.body)")
        }
        #expect(answers[ids[0]]!.body["error"]["fix"] == "did you mean: Projects/Rhizome/Design/Storage schema.md", "\(answers[ids[0]]!.body)")
        #expect(answers[ids[3]]!.body["error"]["fix"] == "`tools/list` lists them", "\(answers[ids[3]]!.body)")
        #expect(answers[ids[4]]!.body["error"]["fix"].isNull, "an error without a separate fix has `fix: null`")
        let unknown = try session.message(unknownMethod)
        #expect(unknown["error"]["code"].int != nil, "\(unknown)")

        // The server still serves, and the refused statements wrote nothing.
        let count = try session.call("query", ["sql": "SELECT count(*) FROM files"])
        #expect(count.body["data"]["rows"] == [[66]])
        #expect(try session.call("tags", ["tag": "y"]).body["data"] == [])

        #expect(session.finish() == .exited(0), "stderr: \(session.child.errorText)")
    }

    @Test func anEditToTheVaultShowsUpInLaterAnswers() throws {
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        let session = try MCPSession(vault: vault)
        defer { session.child.stop() }
        _ = try session.initialize()
        try session.waitUntilIndexed()
        #expect(try session.call("search", ["query": "zebracorn"]).body["data"] == [])
        // No note has both words: notes with either, and a note saying so.
        let fallback = try session.call("search", ["query": "zebracorn trigram"]).body
        #expect(fallback["data"].array?.isEmpty == false && fallback["note"].string?.contains("no note has every word") == true, "\(fallback)")
        #expect(try session.call("search", ["query": "trigram"]).body["note"] == nil)

        // A new note links the FTS5 note: the server's own watcher picks it up.
        try vault.write("Ideas/Fresh idea.md", "# Fresh idea\n\nA zebracorn index, see [[SQLite FTS5 docs]].\n")
        let sawNewLink = try session.poll(within: .seconds(10)) {
            let sources = try session.call("backlinks", ["note": "SQLite FTS5 docs"]).body["data"].array ?? []
            return sources.contains { $0["source"] == "Ideas/Fresh idea.md" }
        }
        #expect(sawNewLink, "the new backlink never showed up; stderr: \(session.child.errorText)")
        let found = try session.call("search", ["query": "zebracorn"])
        #expect(found.body["data"].array?.compactMap { $0["path"].string } == ["Ideas/Fresh idea.md"])
        #expect(found.body["freshness"]["state"] == "current")

        // Editing the link away removes the backlink; deleting the note removes the search hit.
        try vault.write("Ideas/Fresh idea.md", "# Fresh idea\n\nA zebracorn index, no links any more.\n")
        let sawLinkGone = try session.poll(within: .seconds(10)) {
            try session.call("backlinks", ["note": "SQLite FTS5 docs"]).body["total"] == 3
        }
        #expect(sawLinkGone, "the removed backlink stayed; stderr: \(session.child.errorText)")
        try vault.remove("Ideas/Fresh idea.md")
        let sawNoteGone = try session.poll(within: .seconds(10)) {
            try session.call("search", ["query": "zebracorn"]).body["data"] == []
        }
        #expect(sawNoteGone, "the deleted note is still found; stderr: \(session.child.errorText)")
        let gone = try session.call("note", ["note": "Fresh idea"])
        #expect(gone.isError)
        #expect(gone.body["error"]["code"] == "note-not-found")

        #expect(session.finish() == .exited(0), "stderr: \(session.child.errorText)")
    }

    @Test func initializeIsAnsweredWhileTheFirstIndexOfALargeVaultRuns() throws {
        let vault = try TemporaryVault()
        let filler = String(repeating: "Words about notes, links and graphs. ", count: 8)
        for index in 0..<3_000 {
            try vault.write("Folder \(index % 10)/Note \(index).md", "# Note \(index)\n[[Note \((index * 7 + 3) % 3_000)]] #t\(index % 5)\n\(filler)\n- [ ] task \(index)\n")
        }
        let clock = ContinuousClock()
        let started = clock.now
        let session = try MCPSession(vault: vault)
        defer { session.child.stop() }
        let initializeID = try session.request("initialize", params: MCPSession.initializeParameters)
        try session.notify("notifications/initialized")
        // Tool calls right behind initialize, while the index is being built.
        let earlyIDs = try [
            session.callTool("query", ["sql": "SELECT count(*) FROM notes"]),
            session.callTool("backlinks", ["note": "Note 3"]),
            session.callTool("search", ["query": "graphs"]),
        ]
        let initialized = try session.message(initializeID, within: .seconds(5))
        let initializeTime = clock.now - started
        let indexDoneAtInitialize = session.child.errorText.contains("index ready")
        #expect(initialized["result"]["serverInfo"]["name"] == "rhizome")
        #expect(initializeTime < .seconds(3), "initialize took \(initializeTime)")
        #expect(!indexDoneAtInitialize, "initialize should not wait for the first index")

        for (id, reply) in try session.toolAnswers(earlyIDs, within: .seconds(20)) {
            if reply.isError {
                #expect(reply.body["error"]["code"] == "index-not-ready", "call \(id): \(reply.body)")
                #expect(["starting", "indexing"].contains(reply.body["freshness"]["state"].string ?? ""), "\(reply.body["freshness"])")
            } else {
                #expect(reply.body["freshness"]["state"] == "current", "an answer is only given from a complete index")
            }
        }

        try session.waitUntilIndexed(within: .seconds(60))
        let count = try session.call("query", ["sql": "SELECT count(*) FROM notes"])
        #expect(count.body["data"]["rows"] == [[3_000]])
        #expect(count.body["freshness"]["state"] == "current")
        // Note 3 is linked from Note 0 (0·7+3) and no other.
        let backlinks = try session.call("backlinks", ["note": "Note 3"])
        #expect(backlinks.body["data"].array?.compactMap { $0["source"].string } == ["Folder 0/Note 0.md"])

        #expect(session.finish() == .exited(0), "stderr: \(session.child.errorText)")
    }

    @Test func aVaultAlreadyWatchedByRhizomeWatchIsServedFromThatWatchersIndex() throws {
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        let watcher = try ChildProcess(
            executable: try #require(RhizomeBinary.url), arguments: ["watch", "--vault", vault.path, "--db", vault.databasePath],
            environment: MCPSession.environment(vault))
        defer { watcher.stop() }
        let ready = watcher.outputLine(within: .seconds(20)) { $0.contains("ready") }
        try #require(ready != nil, "rhizome watch never got ready: \(watcher.errorText)")

        let session = try MCPSession(vault: vault)
        defer { session.child.stop() }
        _ = try session.initialize()
        let backlinks = try session.call("backlinks", ["note": "SQLite FTS5 docs"])
        #expect(!backlinks.isError, "\(backlinks.body)")
        #expect(backlinks.body["total"] == 3)
        #expect(backlinks.body["freshness"]["state"] == "watched-by-other-process")
        #expect(backlinks.body["freshness"]["watchedBy"] == .string("process \(watcher.processIdentifier)"))
        #expect(backlinks.body["freshness"]["indexedAt"].string != nil)
        #expect(session.child.waitForError(containing: "already watched by process \(watcher.processIdentifier)", within: .seconds(2)))

        // The other process keeps the index current; this server sees its writes.
        try vault.write("Ideas/Fresh idea.md", "# Fresh idea\n\nSee [[SQLite FTS5 docs]].\n")
        let sawNewLink = try session.poll(within: .seconds(10)) {
            try session.call("backlinks", ["note": "SQLite FTS5 docs"]).body["total"] == 4
        }
        #expect(sawNewLink, "the watcher's update never reached the server; watch: \(watcher.outputLines)")

        #expect(session.finish() == .exited(0), "stderr: \(session.child.errorText)")
        watcher.send(signal: SIGTERM)
        #expect(watcher.waitForExit(within: .seconds(10)) == .exited(0), "watch stderr: \(watcher.errorText)")
    }

    @Test func largeAnswersToConcurrentCallsArriveWhole() throws {
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        // About 100,000 characters: one answer is larger than a pipe's buffer (64 KiB).
        let text = "# Big\n" + String(repeating: "Lorem ipsum dolor sit amet [[Home]]. ", count: 2_700)
        try vault.write("Big.md", text)
        let session = try MCPSession(vault: vault)
        defer { session.child.stop() }
        _ = try session.initialize()
        try session.waitUntilIndexed()

        let linesBefore = session.child.outputLines.count
        let ids = try (0..<4).map { _ in try session.callTool("note", ["note": "Big", "includeBody": true, "maxBodyCharacters": 100_000]) }
        // Each answer is one line: wait for as many lines, then read them.
        session.child.waitForOutput(within: .seconds(15)) { $0.count >= linesBefore + ids.count }
        // The SDK's own stdio transport interleaved such answers (it suspends mid-message on a full pipe);
        // StdioLineTransport writes each whole.
        let answers = try session.toolAnswers(ids, within: .seconds(1))
        for id in ids {
            #expect(answers[id]?.body["data"]["body"]["characters"] == .number(Double(text.count)))
            #expect(answers[id]?.body["data"]["body"]["truncated"] == false)
        }
        #expect(session.strayOutput.isEmpty, "\(session.strayOutput.count) corrupted line(s) on stdout")
        #expect(session.finish() == .exited(0), "stderr: \(session.child.errorText)")
    }

    @Test func whenTheOtherWatcherStopsTheServerTakesOverWatching() throws {
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        let (watcher, session) = try Self.servedBesideAWatcher(vault)
        defer { watcher.stop() }
        defer { session.child.stop() }

        watcher.send(signal: SIGTERM)
        #expect(watcher.waitForExit(within: .seconds(10)) == .exited(0))
        try vault.write("Ideas/Fresh idea.md", "# Fresh idea\n\nSee [[SQLite FTS5 docs]].\n")

        // Nobody keeps the index current any more: the server takes over watching, so the new backlink shows
        // up and freshness says this server keeps the index current.
        var last = AnyJSON.null
        let tookOver = try session.poll(within: .seconds(10), every: .milliseconds(100)) {
            last = try session.call("backlinks", ["note": "SQLite FTS5 docs"]).body
            return last["total"] == 4 && last["freshness"]["state"] == "current" && last["freshness"]["watchedBy"] == "this server"
        }
        #expect(tookOver, "after the watcher exited: total \(last["total"]), freshness \(last["freshness"])")
        #expect(session.finish() == .exited(0), "stderr: \(session.child.errorText)")
    }

    /// Issue 18, item 3: when the watching process exits, the server takes over within a second, without
    /// waiting for a call, and its first answer after that already holds what changed while nobody
    /// watched (the new watcher's catch-up is waited for). A watching process that is stopped (SIGSTOP)
    /// is reported as `unresponsive`, not as keeping the index current.
    @Test func afterATakeoverTheFirstAnswerHoldsTheChangesMadeWhileNobodyWatched() throws {
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        let (watcher, session) = try Self.servedBesideAWatcher(vault)
        defer { watcher.stop() }
        defer { session.child.stop() }

        watcher.send(signal: SIGSTOP)
        usleep(2_500_000)
        let stopped = try session.call("backlinks", ["note": "SQLite FTS5 docs"]).body["freshness"]
        #expect(stopped["state"] == "unresponsive", "\(stopped)")
        #expect(stopped["reason"].string?.contains("not responding (no heartbeat for") == true, "\(stopped)")
        watcher.send(signal: SIGCONT)

        // Changed while nobody watches: the watcher exits, then two notes are saved.
        watcher.send(signal: SIGTERM)
        #expect(watcher.waitForExit(within: .seconds(10)) == .exited(0))
        try vault.write("Ideas/Fresh idea.md", "# Fresh idea\n\nSee [[SQLite FTS5 docs]].\n")
        try vault.write("Ideas/Second idea.md", "# Second idea\n\nSee [[SQLite FTS5 docs]] too.\n")
        // Taken over with no call: the server says so on standard error within a few seconds.
        #expect(session.child.waitForError(containing: "now keeps the index current", within: .seconds(5)), "stderr: \(session.child.errorText)")
        let first = try session.call("backlinks", ["note": "SQLite FTS5 docs"]).body
        #expect(first["total"] == 5, "the first answer after the takeover missed changes: \(first)")
        #expect(first["freshness"]["state"] == "current", "\(first["freshness"])")
        #expect(first["freshness"]["watchedBy"] == "this server")
        #expect(session.finish() == .exited(0), "stderr: \(session.child.errorText)")
    }

    /// A note saved just before a call is in its answer: the call waits for the watcher to apply what it has
    /// seen (its debounce, then the batch), so `current` is never said of an index a batch behind.
    @Test func aNoteSavedJustBeforeACallIsInItsAnswer() throws {
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        let session = try MCPSession(vault: vault)
        defer { session.child.stop() }
        _ = try session.initialize()
        #expect(try session.poll(within: .seconds(20)) { try session.call("stats", [:]).body["freshness"]["state"] == "current" })
        for round in 0..<5 {
            try vault.write("Ideas/Saved \(round).md", "# Saved \(round)\n\nSee [[SQLite FTS5 docs]].\n")
            let answer = try session.call("backlinks", ["note": "SQLite FTS5 docs", "limit": 100]).body
            let sources = (answer["data"].array ?? []).compactMap { $0["source"].string }
            #expect(sources.contains("Ideas/Saved \(round).md"), "round \(round): \(sources)")
        }
        #expect(session.finish() == .exited(0), "stderr: \(session.child.errorText)")
    }

    /// `rhizome watch` on the vault, ready, and an initialized MCP server beside it, which answers from that
    /// watcher's index and says so.
    private static func servedBesideAWatcher(_ vault: TemporaryVault) throws -> (watcher: ChildProcess, session: MCPSession) {
        let watcher = try ChildProcess(
            executable: try #require(RhizomeBinary.url), arguments: ["watch", "--vault", vault.path, "--db", vault.databasePath],
            environment: MCPSession.environment(vault))
        do {
            try #require(watcher.outputLine(within: .seconds(20)) { $0.contains("ready") } != nil, "rhizome watch never got ready: \(watcher.errorText)")
            let session = try MCPSession(vault: vault)
            _ = try session.initialize()
            #expect(try session.call("backlinks", ["note": "SQLite FTS5 docs"]).body["freshness"]["state"] == "watched-by-other-process")
            return (watcher, session)
        } catch {
            watcher.stop()
            throw error
        }
    }
}
