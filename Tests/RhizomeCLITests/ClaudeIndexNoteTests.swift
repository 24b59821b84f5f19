import Foundation
import Testing
import RhizomeCLI
import RhizomeTestSupport

/// `ClaudeCode/README.md`, the index note `link` and `unlink` write: its frontmatter and tables, wikilinks
/// that resolve in Rhizome's own graph to the right files (shortest unambiguous paths when two projects
/// share a file name), a README Rhizome did not write, and no rewrite when nothing changed.
@Suite struct ClaudeIndexNoteTests {
    @Test func `the index note has frontmatter, a table of projects, the global items and the plans`() throws {
        let fixture = try ClaudeLinkFixture()
        try fixture.vault.write("ClaudeCode/Agents/global/helper.md", ClaudeLinkFixture.agent("helper", "Helps everywhere."))
        try fixture.vault.write("ClaudeCode/Skills/global/commit-helper/SKILL.md", ClaudeLinkFixture.skill("commit-helper", "Writes commit messages."))
        try fixture.vault.write("ClaudeCode/Plans/acme-launch.md", "---\ntype: plan\ntitle: Launch\nstatus: draft\n---\n")
        try #require(fixture.link(try fixture.acme()).status == 0)
        let text = try fixture.vault.read("ClaudeCode/README.md")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(Array(lines.prefix(3)) == ["---", "type: index", "title: Claude Code"], "\(text)")
        #expect(lines[3].wholeMatch(of: /updated: \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/) != nil, "\(lines[3])")
        #expect(Array(lines[4...7]) == ["tags:", "  - claude-code", "generated-by: rhizome", "---"], "\(text)")
        #expect(text.contains("\n## Projects\n\n| Project | Agents | Skills | Status |\n|---|---|---|---|\n"))
        #expect(text.contains("\n| acme | [[code-reviewer]], [[test-writer]] | [[pdf-tools/SKILL]], [[release/SKILL]] | ok |\n"), "\(text)")
        #expect(text.contains("\n## Global\n\n| | Items | Linked from |\n|---|---|---|\n"))
        #expect(text.contains("\n| Agents | [[helper]] | `~/.claude/agents`: linked |\n"), "\(text)")
        #expect(text.contains("\n| Skills | [[commit-helper/SKILL]] | `~/.claude/skills/<name>` |\n"), "\(text)")
        #expect(text.contains("\n## Plans\n\n1 plan in `ClaudeCode/Plans/` (`~/.claude/plans`: linked).\n"), "\(text)")

        // It is a typed `index` note that validates.
        let validate = fixture.run(["validate", "ClaudeCode/README.md", "--json"])
        #expect(validate.status == 0, "\(validate.output)")
        #expect(validate.findings.isEmpty, "\(validate.output)")
        #expect((validate.data["summary"] as? [String: Any])?["checkedNotes"] as? Int == 1)
        let note = fixture.run(["note", "ClaudeCode/README.md", "--json"])
        let frontmatter = try #require((note.data["frontmatter"]) as? [String: Any])
        #expect(frontmatter["type"] as? String == "index")
        #expect(frontmatter["title"] as? String == "Claude Code")
        #expect(frontmatter["tags"] as? [String] == ["claude-code"])
    }

    /// `acme` and `beta` both have `code-reviewer.md` and a `pdf-tools` skill, and so does `global`;
    /// `test-writer` is also the name of a note elsewhere in the vault.
    private func twoProjectsSharingNames() throws -> ClaudeLinkFixture {
        let fixture = try ClaudeLinkFixture()
        try fixture.vault.write("ClaudeCode/Agents/global/code-reviewer.md", ClaudeLinkFixture.agent("code-reviewer", "The global reviewer."))
        try fixture.vault.write("ClaudeCode/Agents/global/helper.md", ClaudeLinkFixture.agent("helper", "Helps everywhere."))
        try fixture.vault.write("ClaudeCode/Skills/global/pdf-tools/SKILL.md", ClaudeLinkFixture.skill("pdf-tools", "The global PDF tools."))
        try fixture.vault.write("Notes/test-writer.md", "# Who writes the tests\n")
        try #require(fixture.link(try fixture.acme()).status == 0)
        let beta = try fixture.repository("Beta", agents: ["code-reviewer.md": ClaudeLinkFixture.agent("code-reviewer", "Beta's reviewer.")],
                                          skills: ["pdf-tools": ClaudeLinkFixture.skill("pdf-tools", "Beta's PDF tools."), "deploy": ClaudeLinkFixture.skill("deploy", "Deploys.")])
        try #require(fixture.link(beta).status == 0)
        return fixture
    }

    @Test func `every agent and skill link in the index note resolves to its own file`() throws {
        let fixture = try twoProjectsSharingNames()
        let result = fixture.run(["links", "ClaudeCode/README.md", "--json"])
        #expect(result.status == 0, "\(result.output)\(result.error)")
        let links = try #require(result.json["data"] as? [[String: Any]])
        #expect(links.compactMap { $0["target"] as? String }.sorted() == [
            "ClaudeCode/Agents/acme/code-reviewer.md", "ClaudeCode/Agents/acme/test-writer.md", "ClaudeCode/Agents/beta/code-reviewer.md",
            "ClaudeCode/Agents/global/code-reviewer.md", "ClaudeCode/Agents/global/helper.md",
            "ClaudeCode/Skills/acme/pdf-tools/SKILL.md", "ClaudeCode/Skills/acme/release/SKILL.md", "ClaudeCode/Skills/beta/deploy/SKILL.md",
            "ClaudeCode/Skills/beta/pdf-tools/SKILL.md", "ClaudeCode/Skills/global/pdf-tools/SKILL.md",
        ], "\(result.output)")
        // Each is linked once, and in the right row.
        let text = try fixture.vault.read("ClaudeCode/README.md")
        let acmeRow = try #require(text.split(separator: "\n").first { $0.hasPrefix("| acme |") })
        let betaRow = try #require(text.split(separator: "\n").first { $0.hasPrefix("| beta |") })
        #expect(acmeRow.contains("test-writer]]") && acmeRow.contains("release/SKILL]]") && !acmeRow.contains("deploy"), "\(acmeRow)")
        #expect(betaRow.contains("deploy/SKILL]]") && !betaRow.contains("test-writer"), "\(betaRow)")
        // Rhizome agrees: nothing in the note is unresolved.
        let unresolved = fixture.run(["unresolved", "--json"])
        #expect(!unresolved.output.contains("ClaudeCode/README.md"), "\(unresolved.output)")
    }

    @Test func `links to files that share a name use the shortest unambiguous path`() throws {
        let fixture = try twoProjectsSharingNames()
        let result = fixture.run(["links", "ClaudeCode/README.md", "--json"])
        let links = try #require(result.json["data"] as? [[String: Any]])
        let note = try fixture.vault.read("ClaudeCode/README.md")
        let linkPaths = Dictionary(links.map { ($0["target"] as? String ?? "(unresolved)", $0["linkPath"] as? String ?? "?") }) { first, _ in first }
        // A bare `code-reviewer` or `pdf-tools/SKILL` would match three files: each needs its folder.
        #expect(linkPaths == [
            "ClaudeCode/Agents/acme/code-reviewer.md": "acme/code-reviewer",
            "ClaudeCode/Agents/beta/code-reviewer.md": "beta/code-reviewer",
            "ClaudeCode/Agents/global/code-reviewer.md": "global/code-reviewer",
            "ClaudeCode/Agents/acme/test-writer.md": "acme/test-writer",
            "ClaudeCode/Agents/global/helper.md": "helper",
            "ClaudeCode/Skills/acme/pdf-tools/SKILL.md": "acme/pdf-tools/SKILL",
            "ClaudeCode/Skills/beta/pdf-tools/SKILL.md": "beta/pdf-tools/SKILL",
            "ClaudeCode/Skills/global/pdf-tools/SKILL.md": "global/pdf-tools/SKILL",
            "ClaudeCode/Skills/acme/release/SKILL.md": "release/SKILL",
            "ClaudeCode/Skills/beta/deploy/SKILL.md": "deploy/SKILL",
        ], "\(note)")
    }

    /// Characters that end a wikilink's path (`#` heading, `^` block, `|` display text, `]`): a project
    /// named with one must either be refused or never make the index note's links unresolvable.
    @Test(arguments: ["c#-tools", "wip|old", "notes^2", "draft]]x"])
    func `a project name with wikilink syntax in it is refused or still gives links that resolve`(name: String) throws {
        let fixture = try ClaudeLinkFixture()
        try #require(fixture.link(try fixture.acme()).status == 0)
        let other = try fixture.repository("Other", agents: ["code-reviewer.md": ClaudeLinkFixture.agent("code-reviewer", "Another reviewer.")])
        let result = fixture.link(other, ["--name", name, "--json"])
        if result.status == 2 {
            #expect(result.errorCode == "invalid-project-name", "\(result.output)")
            return
        }
        #expect(result.status == 0, "\(result.output)\(result.error)")
        let links = fixture.run(["links", "ClaudeCode/README.md", "--json"])
        let data = (links.json["data"] as? [[String: Any]]) ?? []
        let note = try fixture.vault.read("ClaudeCode/README.md")
        let unresolved = data.filter { $0["target"] as? String == nil }.compactMap { $0["linkPath"] as? String }
        #expect(unresolved.isEmpty, "\(note)")
        #expect(data.compactMap { $0["target"] as? String }.sorted() == [
            "ClaudeCode/Agents/\(name)/code-reviewer.md",
            "ClaudeCode/Agents/acme/code-reviewer.md",
            "ClaudeCode/Agents/acme/test-writer.md",
            "ClaudeCode/Skills/acme/pdf-tools/SKILL.md",
            "ClaudeCode/Skills/acme/release/SKILL.md",
        ].sorted(), "\(note)")
    }

    @Test func `a README that Rhizome did not write is never overwritten`() throws {
        let fixture = try ClaudeLinkFixture()
        let mine = "# Claude Code\n\nMy own notes about the agents I use.\n"
        try fixture.vault.write("ClaudeCode/README.md", mine)
        let repository = try fixture.acme()
        let result = fixture.link(repository)
        #expect(result.status == 0, "\(result.output)\(result.error)")
        #expect(result.output.contains("index note ClaudeCode/README.md: left alone (not written by Rhizome)\n"), "\(result.output)")
        #expect(try fixture.vault.read("ClaudeCode/README.md") == mine)
        #expect(fixture.link(repository, ["--json"]).data["indexNote"] as? String == "not-ours")
        #expect(fixture.run(["unlink", "acme", "--yes", "--json"]).data["indexNote"] as? String == "not-ours")
        #expect(try fixture.vault.read("ClaudeCode/README.md") == mine)
    }

    @Test(arguments: [
        "---\ntype: index\ntitle: My hand-made index\n---\n# Index\n",
        // Mentions the marker in its body, not in its frontmatter.
        "---\ntitle: How Rhizome marks its notes\n---\nThe frontmatter line is:\n\ngenerated-by: rhizome\n\nand nothing else.\n",
        "---\ntitle: Example\n---\n```yaml\n---\ngenerated-by: rhizome\n---\n```\n",
    ])
    func `a README with frontmatter but without Rhizome's mark in it is left alone`(mine: String) throws {
        let fixture = try ClaudeLinkFixture()
        try fixture.vault.write("ClaudeCode/README.md", mine)
        let result = fixture.link(try fixture.acme(), ["--json"])
        #expect(result.status == 0, "\(result.output)\(result.error)")
        #expect(result.data["indexNote"] as? String == "not-ours")
        #expect(try fixture.vault.read("ClaudeCode/README.md") == mine)
    }

    @Test func `a symlink or a folder named README.md is left alone`() throws {
        let fixture = try ClaudeLinkFixture()
        let elsewhere = fixture.vault.outside.appendingPathComponent("Shared/README.md")
        try fixture.write(elsewhere, "# Shared readme\n")
        try FileManager.default.createDirectory(atPath: fixture.vault.path + "/ClaudeCode", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: fixture.vault.path + "/ClaudeCode/README.md", withDestinationPath: elsewhere.path)
        let result = fixture.link(try fixture.acme(), ["--json"])
        #expect(result.data["indexNote"] as? String == "not-ours")
        #expect(fixture.symlinkTarget(fixture.vault.path + "/ClaudeCode/README.md") == elsewhere.path)
        #expect(fixture.bytes(elsewhere.path) == Array("# Shared readme\n".utf8))
    }

    @Test func `the note is not rewritten when nothing changed, and is when something did`() throws {
        let fixture = try ClaudeLinkFixture()
        let repository = try fixture.acme()
        try #require(fixture.link(repository).status == 0)
        let path = fixture.vault.path + "/ClaudeCode/README.md"
        let past = Date(timeIntervalSince1970: 1_600_000_000)
        try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: path)
        let before = try fixture.vault.bytes("ClaudeCode/README.md")
        func modified() throws -> Date? { try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date }

        #expect(fixture.link(repository, ["--json"]).data["indexNote"] as? String == "unchanged")
        _ = fixture.run(["status"])
        #expect(try fixture.vault.bytes("ClaudeCode/README.md") == before)
        #expect(try modified() == past, "not even written with the same bytes")

        // A new agent in the repository: the note lists it.
        try fixture.write(repository.appendingPathComponent(".claude/agents/doc-writer.md"), ClaudeLinkFixture.agent("doc-writer", "Writes docs."))
        #expect(fixture.link(repository, ["--json"]).data["indexNote"] as? String == "written")
        #expect(try fixture.vault.read("ClaudeCode/README.md").contains("[[doc-writer]]"))
        #expect(try modified() != past)
    }

    @Test func `a broken link shows in the project's status column`() throws {
        let fixture = try ClaudeLinkFixture()
        let repository = try fixture.acme()
        try #require(fixture.link(repository).status == 0)
        try FileManager.default.removeItem(at: repository.appendingPathComponent(".claude/agents/test-writer.md"))
        #expect(fixture.link(repository, ["--json"]).data["indexNote"] as? String == "written")
        let text = try fixture.vault.read("ClaudeCode/README.md")
        #expect(text.contains("| acme | ") && text.contains(" | 1 broken link |\n"), "\(text)")
    }

    @Test func `with no project linked the note says how to link one`() throws {
        let fixture = try ClaudeLinkFixture()
        let repository = try fixture.acme()
        try #require(fixture.link(repository).status == 0)
        try #require(fixture.run(["unlink", "acme", "--yes"]).status == 0)
        let text = try fixture.vault.read("ClaudeCode/README.md")
        #expect(text.contains("## Projects\n\nNo project is linked yet: run `rhizome claude link` in a repository.\n"), "\(text)")
        #expect(!text.contains("acme"))
    }
}
