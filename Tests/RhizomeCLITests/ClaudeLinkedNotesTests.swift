import Foundation
import Testing
import RhizomeCLI
import RhizomeStore
import RhizomeTestSupport

/// Linked agents and skills are notes like any other: indexed through their symlinks (with their real
/// paths), typed `agent` and `skill`, validated (invalid YAML is a finding, not a crash), searchable, and
/// fresh after an edit in the repository. Also a real skills collection, `claude-skills`.
@Suite struct ClaudeLinkedNotesTests {
    @Test func `an agent with invalid YAML is an invalid-yaml finding, not a crash`() throws {
        let fixture = try ClaudeLinkFixture()
        let repository = try fixture.repository("Acme", agents: [
            "code-reviewer.md": "---\nname: code-reviewer\ndescription: Reviews code: carefully\n---\n\nReview the diff.\n",
            "test-writer.md": ClaudeLinkFixture.agent("test-writer", "Writes focused unit tests."),
        ])
        let link = fixture.link(repository)
        #expect(link.status == 0, "\(link.output)\(link.error)")
        let result = fixture.run(["validate", "--json"])
        #expect(result.status == 1, "\(result.output)\(result.error)")
        #expect(result.findingCodes == ["ClaudeCode/Agents/acme/code-reviewer.md: invalid-yaml"], "\(result.output)")
        let finding = try #require(result.findings.first)
        #expect(finding["line"] as? Int == 3, "the line of the bad value")
        // The rest of the vault is indexed all the same, the bad agent's body included.
        let search = fixture.run(["search", "review", "the", "diff", "--json"])
        #expect((search.json["data"] as? [[String: Any]])?.compactMap { $0["path"] as? String } == ["ClaudeCode/Agents/acme/code-reviewer.md"], "\(search.output)")
        #expect(fixture.run(["validate", "ClaudeCode/Agents/acme/test-writer.md"]).status == 0)
    }

    @Test func `a skill whose name differs from its folder is an id-mismatch`() throws {
        let fixture = try ClaudeLinkFixture()
        let repository = try fixture.repository("Acme", skills: [
            "pdf-tools": ClaudeLinkFixture.skill("pdf", "Fills and merges PDF files."),
            "release": ClaudeLinkFixture.skill("release", "Cuts a release."),
        ])
        try #require(fixture.link(repository).status == 0)
        let result = fixture.run(["validate", "--json"])
        #expect(result.status == 1, "\(result.output)")
        #expect(result.findingCodes == ["ClaudeCode/Skills/acme/pdf-tools/SKILL.md: id-mismatch"], "\(result.output)")
        let message = result.findings.first?["message"] as? String ?? ""
        #expect(message.contains("pdf-tools") && message.contains("pdf"), "\(message)")
    }

    @Test func `linked agents are typed agent and skills typed skill, with their real paths`() throws {
        let fixture = try ClaudeLinkFixture()
        let repository = try fixture.acme()
        try #require(fixture.link(repository).status == 0)
        let types = try fixture.vault.store().typedNotes().reduce(into: [String: String]()) { $0[$1.path] = $1.type ?? "-" }
        #expect(types["ClaudeCode/Agents/acme/code-reviewer.md"] == "agent")
        #expect(types["ClaudeCode/Agents/acme/test-writer.md"] == "agent")
        #expect(types["ClaudeCode/Skills/acme/pdf-tools/SKILL.md"] == "skill")
        #expect(types["ClaudeCode/Skills/acme/release/SKILL.md"] == "skill")
        #expect(types["ClaudeCode/Skills/acme/pdf-tools/reference.md"] == nil, "only SKILL.md is a skill")
        #expect(fixture.run(["validate", "--type", "agent", "--json"]).data["summary"].flatMap { ($0 as? [String: Any])?["checkedNotes"] as? Int } == 2)
        #expect(fixture.run(["validate", "--type", "skill", "--json"]).data["summary"].flatMap { ($0 as? [String: Any])?["checkedNotes"] as? Int } == 2)
        #expect(fixture.run(["validate"]).status == 0)

        let note = fixture.run(["note", "ClaudeCode/Agents/acme/code-reviewer.md", "--json"])
        let file = try #require(note.data["file"] as? [String: Any], "\(note.output)")
        #expect(file["realPath"] as? String == repository.path + "/.claude/agents/code-reviewer.md")
        let skillNote = fixture.run(["note", "ClaudeCode/Skills/acme/pdf-tools/reference.md", "--json"])
        #expect((skillNote.data["file"] as? [String: Any])?["realPath"] as? String == repository.path + "/.claude/skills/pdf-tools/reference.md")
    }

    @Test func `search finds text in a linked agent`() throws {
        let fixture = try ClaudeLinkFixture()
        let repository = try fixture.repository("Acme", agents: [
            "code-reviewer.md": ClaudeLinkFixture.agent("code-reviewer", "Reviews code.", body: "Check every zanzibar before approving."),
        ])
        try #require(fixture.link(repository).status == 0)
        let result = fixture.run(["search", "zanzibar", "--json"])
        #expect(result.status == 0, "\(result.output)\(result.error)")
        #expect((result.json["data"] as? [[String: Any]])?.compactMap { $0["path"] as? String } == ["ClaudeCode/Agents/acme/code-reviewer.md"], "\(result.output)")
        #expect(fixture.run(["search", "zanzibar"]).output.contains("  ClaudeCode/Agents/acme/code-reviewer.md\n"))
    }

    @Test func `an edit to the agent in the repository shows up on the next command`() throws {
        let fixture = try ClaudeLinkFixture()
        let agent = "code-reviewer.md"
        let repository = try fixture.repository("Acme", agents: [
            agent: ClaudeLinkFixture.agent("code-reviewer", "Reviews code.", body: "Check every zanzibar before approving."),
        ])
        try #require(fixture.link(repository).status == 0)
        func hits(_ word: String) -> [String] {
            (fixture.run(["search", word, "--json"]).json["data"] as? [[String: Any]])?.compactMap { $0["path"] as? String } ?? ["<no json>"]
        }
        #expect(hits("zanzibar") == ["ClaudeCode/Agents/acme/code-reviewer.md"])
        // The same size, so only the target's modification time says it changed.
        let file = repository.appendingPathComponent(".claude/agents/" + agent)
        let before = try #require(fixture.bytes(file.path))
        try fixture.write(file, ClaudeLinkFixture.agent("code-reviewer", "Reviews code.", body: "Check every marzipan before approving."))
        #expect(fixture.bytes(file.path)?.count == before.count)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(5)], ofItemAtPath: file.path)
        #expect(hits("marzipan") == ["ClaudeCode/Agents/acme/code-reviewer.md"])
        #expect(hits("zanzibar") == [])
        // The symlink itself was not touched: only its target's time changed.
        #expect(fixture.symlinkTarget(fixture.vault.path + "/ClaudeCode/Agents/acme/" + agent) == file.path)

        // A new skill file inside a linked skill folder shows up too.
        try fixture.write(repository.appendingPathComponent(".claude/skills/notes/SKILL.md"), ClaudeLinkFixture.skill("notes", "Takes notes."))
        try #require(fixture.link(repository).status == 0)
        try fixture.write(repository.appendingPathComponent(".claude/skills/notes/extra.md"), "# Extra\n\nA quetzal appears.\n")
        #expect(hits("quetzal") == ["ClaudeCode/Skills/acme/notes/extra.md"])
    }

    @Test func `a symlink loop inside a linked skill is reported, not followed`() throws {
        let fixture = try ClaudeLinkFixture()
        let repository = try fixture.repository("Acme", skills: ["looping": ClaudeLinkFixture.skill("looping", "Loops.")])
        try FileManager.default.createSymbolicLink(
            atPath: repository.appendingPathComponent(".claude/skills/looping/again").path,
            withDestinationPath: repository.appendingPathComponent(".claude/skills/looping").path)
        let link = fixture.link(repository)
        #expect(link.status == 0, "\(link.output)\(link.error)")
        let findings = fixture.run(["findings", "--json"])
        #expect(findings.output.contains("symlink-loop"), "\(findings.output)")
        let notes = try fixture.vault.store().notePaths().filter { $0.contains("looping") }
        #expect(notes == ["ClaudeCode/Skills/acme/looping/SKILL.md"])
    }

    // MARK: A real skills collection

    @Test func `the claude-skills collection links as skills that validate as type skill`() throws {
        guard let corpus = Fixtures.corpus("claude-skills")?.appendingPathComponent("skills") else {
            print("skipped: ../shared/corpora/claude-skills is not here")
            return
        }
        let fixture = try ClaudeLinkFixture()
        let repository = try fixture.repository("Skills-Collection")
        try FileManager.default.copyItem(at: corpus, to: repository.appendingPathComponent(".claude/skills"))
        let skillFolders = try FileManager.default.contentsOfDirectory(atPath: corpus.path)
            .filter { !$0.hasPrefix(".") && FileManager.default.fileExists(atPath: corpus.appendingPathComponent($0 + "/SKILL.md").path) }
            .sorted()
        try #require(!skillFolders.isEmpty)

        let result = fixture.link(repository, ["--json"])
        #expect(result.status == 0, "\(result.output)\(result.error)")
        let skillLinks = result.linkResults.filter { ($0["path"] as? String)?.hasPrefix("ClaudeCode/Skills/skills-collection/") == true }
        #expect(skillLinks.count == skillFolders.count)
        #expect(skillLinks.allSatisfy { $0["outcome"] as? String == "created" })

        let status = fixture.run(["status", "--json"])
        let project = (status.data["projects"] as? [[String: Any]])?.first
        #expect(project?["name"] as? String == "skills-collection")
        #expect(project?["skills"] as? Int == skillFolders.count)
        #expect(project?["agents"] as? Int == 0)

        // Every SKILL.md is typed `skill`, and nothing else is.
        let skills = try fixture.vault.store().typedNotes().filter { $0.type == "skill" }.map(\.path).sorted()
        #expect(skills == skillFolders.map { "ClaudeCode/Skills/skills-collection/\($0)/SKILL.md" })
        let validate = fixture.run(["validate", "--type", "skill", "--json"])
        #expect((validate.data["summary"] as? [String: Any])?["checkedNotes"] as? Int == skillFolders.count, "\(validate.output)")
        // Their names match their folders.
        #expect(!validate.findingCodes.contains { $0.hasSuffix(": id-mismatch") }, "\(validate.findingCodes)")

        // The index note lists every skill, and each link resolves to its SKILL.md.
        let links = fixture.run(["links", "ClaudeCode/README.md", "--json"])
        let targets = ((links.json["data"] as? [[String: Any]]) ?? []).compactMap { $0["target"] as? String }.sorted()
        #expect(targets == skills, "\(links.output)")

        // Linking again changes nothing.
        let again = fixture.link(repository, ["--json"])
        #expect(again.outcomeCounts == ["already-linked": skillFolders.count + 2])
        #expect(again.data["indexNote"] as? String == "unchanged")
    }
}
