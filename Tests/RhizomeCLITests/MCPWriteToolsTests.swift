import Foundation
import Testing
import RhizomeTestSupport

/// The MCP write tools through a real client session with the `rhizome mcp` process: each change lands in
/// the vault, keeps links, says what changed, refuses stale hashes and paths that leave the vault, and can be
/// undone; `--read-only` offers none of them.
@Suite(.serialized, .timeLimit(.minutes(2))) struct MCPWriteToolsTests {
    static let writeTools: Set<String> = ["create_note", "append_to_note", "set_properties", "move_note", "delete_note", "fix_frontmatter", "undo"]

    func session(_ vault: TemporaryVault, arguments: [String] = []) throws -> MCPSession {
        let session = try MCPSession(vault: vault, arguments: arguments)
        _ = try session.initialize()
        try session.waitUntilIndexed()
        return session
    }

    @Test func writeToolsAreListedUnlessReadOnly() throws {
        let vault = try TemporaryVault()
        try vault.write("A.md", "a\n")
        let writable = try session(vault)
        defer { writable.child.stop() }
        let tools = try writable.result(of: writable.request("tools/list"))["tools"].array ?? []
        let names = Set(tools.compactMap { $0["name"].string })
        #expect(names.isSuperset(of: Self.writeTools))
        for tool in tools where Self.writeTools.contains(tool["name"].string ?? "") {
            #expect(tool["annotations"]["readOnlyHint"] == false, "\(tool["name"])")
        }
        #expect(writable.finish() == .exited(0))

        let readOnly = try session(vault, arguments: ["--read-only"])
        defer { readOnly.child.stop() }
        let listed = Set((try readOnly.result(of: readOnly.request("tools/list"))["tools"].array ?? []).compactMap { $0["name"].string })
        #expect(listed.isDisjoint(with: Self.writeTools))
        let refused = try readOnly.call("append_to_note", ["note": "A", "text": "x"])
        #expect(refused.isError)
        #expect(try vault.read("A.md") == "a\n")
        #expect(readOnly.finish() == .exited(0))
    }

    @Test func readAppendSetMoveDeleteAndUndo() throws {
        let vault = try TemporaryVault()
        try vault.write("Projects/Plan.md", "---\nstatus: draft # keep this comment\n---\n# Plan\n\n## Log\n- started\n\n## Next\n- ship\n")
        try vault.write("Home.md", "See [[Plan]] and [[Projects/Plan#Log|the log]].\n")
        let session = try session(vault)
        defer { session.child.stop() }

        // read_note gives the text and its hash; a section on its own.
        let read = try session.call("read_note", ["note": "Plan"])
        #expect(!read.isError, "\(read.body)")
        let hash = try #require(read.body["data"]["hash"].string)
        #expect(read.body["data"]["text"].string?.hasPrefix("---\nstatus: draft") == true)
        let section = try session.call("read_note", ["note": "Plan", "heading": "Log"])
        #expect(section.body["data"]["text"] == "## Log\n- started\n")

        // A stale hash is refused and nothing changes.
        let stale = try session.call("append_to_note", ["note": "Plan", "text": "- nope", "expectedHash": "0000000000000000"])
        #expect(stale.isError)
        #expect(stale.body["error"]["code"] == "changed-since-read")

        // Append to a section, with the hash read.
        let appended = try session.call("append_to_note", ["note": "Plan", "text": "- wrote tests", "heading": "Log", "expectedHash": .string(hash)])
        #expect(!appended.isError, "\(appended.body)")
        let afterAppend = "---\nstatus: draft # keep this comment\n---\n# Plan\n\n## Log\n- started\n- wrote tests\n\n## Next\n- ship\n"
        #expect(try vault.read("Projects/Plan.md") == afterAppend)
        let newHash = try #require(appended.body["data"]["hash"].string)
        #expect(newHash != hash)

        // Set and remove properties: only those lines change.
        let set = try session.call("set_properties", ["note": "Plan", "properties": ["status": "active", "due": "2026-12-01", "owner": "[[Home]]"], "expectedHash": .string(newHash)])
        #expect(!set.isError, "\(set.body)")
        let text = try vault.read("Projects/Plan.md")
        #expect(text.contains("status: active # keep this comment") || text.contains("status: active"), "\(text)")
        #expect(text.contains("due: 2026-12-01\n"), "\(text)")
        #expect(text.contains("owner: \"[[Home]]\""), "\(text)")
        #expect(text.hasSuffix("# Plan\n\n## Log\n- started\n- wrote tests\n\n## Next\n- ship\n"), "the body keeps its bytes")

        // Move: the links in Home follow.
        let moved = try session.call("move_note", ["source": "Plan", "destination": "Archive/"])
        #expect(!moved.isError, "\(moved.body)")
        #expect(moved.body["data"]["linkCount"] == 1, "only the link with a folder in it needs new text: \(moved.body)")
        #expect(try vault.read("Home.md") == "See [[Plan]] and [[Plan#Log|the log]].\n")
        #expect(FileManager.default.fileExists(atPath: vault.url("Archive/Plan.md").path))

        // Paths that leave the vault are refused.
        for destination in ["../Escaped.md", "/tmp/Escaped.md", ".obsidian/Plan.md"] {
            let escape = try session.call("move_note", ["source": "Plan", "destination": .string(destination)])
            #expect(escape.isError, "\(destination): \(escape.body)")
        }
        // So are paths through a folder that is a symlink to elsewhere, for moves and new notes alike.
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("rhizome-mcp-outside-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: outside) }
        try vault.symlink("Shared", to: outside.path)
        let throughLink = try session.call("move_note", ["source": "Plan", "destination": "Shared/Plan.md"])
        #expect(throughLink.body["error"]["code"] == "protected-path", "\(throughLink.body)")
        let throughLinkNew = try session.call("create_note", ["path": "Shared/Deeper/New", "content": "n\n"])
        #expect(throughLinkNew.body["error"]["code"] == "protected-path", "\(throughLinkNew.body)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty)
        // A refusal carries its fix apart, for the agent to act on.
        let taken = try session.call("move_note", ["source": "Home", "destination": "Archive/Plan.md"])
        #expect(taken.isError)
        #expect(taken.body["error"]["code"] == "destination-exists", "\(taken.body)")
        #expect(taken.body["error"]["fix"] == "choose another name, or move that file away first.", "\(taken.body)")

        // Create, then trash it; undo brings it back.
        let created = try session.call("create_note", ["path": "Inbox/Idea", "properties": ["tags": ["idea"]], "body": "# Idea\n"])
        #expect(!created.isError, "\(created.body)")
        #expect(try vault.read("Inbox/Idea.md") == "---\ntags:\n  - idea\n---\n# Idea\n" || (try vault.read("Inbox/Idea.md")).contains("idea"))
        // A typed note, from its schema's scaffold: valid by construction.
        let typed = try session.call("create_note", ["type": "idea", "title": "Faster undo"])
        #expect(!typed.isError, "\(typed.body)")
        let typedPath = try #require(typed.body["data"]["path"].string)
        #expect(try vault.read(typedPath).contains("type: idea"), "\(typedPath)")
        let validated = try session.call("validate", ["path": .string(typedPath)])
        #expect(validated.body["data"].array?.filter { $0["severity"] == "error" }.isEmpty != false, "\(validated.body)")
        let unknownType = try session.call("create_note", ["type": "nonesuch", "title": "X"])
        #expect(unknownType.isError)
        // A body whose own frontmatter cannot take the properties is the agent's to fix, not an internal error.
        let badBody = try session.call("create_note", ["path": "Inbox/Broken", "properties": ["tags": ["idea"]], "body": "---\ntitle: [unclosed\n---\n# Broken\n"])
        #expect(badBody.isError)
        #expect(badBody.body["error"]["code"] == "frontmatter-not-editable", "\(badBody.body)")
        #expect(badBody.body["error"]["fix"].string?.contains("Fix the YAML by hand") == true, "\(badBody.body)")
        #expect(!FileManager.default.fileExists(atPath: vault.url("Inbox/Broken.md").path))
        let deleted = try session.call("delete_note", ["note": "Inbox/Idea"])
        #expect(!deleted.isError, "\(deleted.body)")
        #expect(FileManager.default.fileExists(atPath: vault.url(".trash/Idea.md").path))
        let undone = try session.call("undo", [:])
        #expect(!undone.isError, "\(undone.body)")
        #expect(FileManager.default.fileExists(atPath: vault.url("Inbox/Idea.md").path))

        // The index follows every change at once: backlinks of the moved note.
        let backlinks = try session.call("backlinks", ["note": "Archive/Plan"])
        #expect(backlinks.body["data"].array?.count == 2, "\(backlinks.body)")
        #expect(session.finish() == .exited(0), "stderr: \(session.child.errorText)")
    }
    @Test func `an agent checks the vault's health, fixes frontmatter after a dry run, and undoes the fix`() throws {
        let vault = try TemporaryVault()
        let body = "# Idea\r\nSee [[Other]].\r\n"
        try vault.write("Ideas/Idea.md", "---\ntag: idea\ntitle: Idea\n---\n" + body)
        try vault.write("Other.md", "---\ntags:\n  - fine\n---\nNothing to fix.\n")
        let session = try session(vault)
        defer { session.child.stop() }

        let status = try session.call("status", [:])
        #expect(!status.isError, "\(status.body)")
        #expect(status.body["data"]["index"]["staleFiles"] == 0, "\(status.body["data"])")
        #expect(status.body["data"]["watcher"]["watched"] == true && status.body["data"]["healthy"] == true, "\(status.body["data"])")

        // A dry run says what would change and changes nothing.
        let original = try vault.read("Ideas/Idea.md")
        let planned = try session.call("fix_frontmatter", ["dryRun": true])
        #expect(!planned.isError, "\(planned.body)")
        #expect(planned.body["data"]["written"] == false && planned.body["data"]["operation"] == .null)
        #expect(planned.body["data"]["changes"].array?.compactMap { $0["path"].string } == ["Ideas/Idea.md"], "\(planned.body)")
        #expect(planned.body["data"]["changes"][0]["diff"].string?.contains("+tags:") == true, "\(planned.body)")
        #expect(try vault.read("Ideas/Idea.md") == original)

        // Scoped to a note that needs nothing: nothing; to a name that is nowhere, or a path leaving the vault: refused.
        let scoped = try session.call("fix_frontmatter", ["notes": ["Other"], "dryRun": true])
        #expect(scoped.body["data"]["changes"].array?.isEmpty == true, "\(scoped.body)")
        for notes: AnyJSON in [["Nowhere"], ["../outside"]] {
            let refused = try session.call("fix_frontmatter", ["notes": notes])
            #expect(refused.isError && refused.body["error"]["code"] == "invalid-argument", "\(notes): \(refused.body)")
        }

        // Written: only the frontmatter changed; the body (CRLF lines) keeps its bytes; the index follows.
        let fixed = try session.call("fix_frontmatter", ["notes": ["Ideas/"]])
        #expect(!fixed.isError && fixed.body["data"]["written"] == true, "\(fixed.body)")
        #expect(fixed.body["data"]["operation"].string?.isEmpty == false)
        let text = try vault.read("Ideas/Idea.md")
        #expect(text.hasSuffix("---\n" + body) && text.contains("tags:") && !text.contains("tag: idea"), "\(text)")
        let properties = try session.call("note", ["note": "Idea"])
        #expect(properties.body["data"]["note"]["frontmatter"]["tags"] == ["idea"], "\(properties.body["data"]["note"]["frontmatter"])")
        #expect(properties.body["data"]["note"]["frontmatter"]["tag"] == .null)

        let undone = try session.call("undo", [:])
        #expect(!undone.isError, "\(undone.body)")
        #expect(try vault.read("Ideas/Idea.md") == original)
        #expect(session.finish() == .exited(0), "stderr: \(session.child.errorText)")
    }
}
