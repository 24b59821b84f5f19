import Foundation
import Testing
import RhizomeCLI
import RhizomeTestSupport

/// `rhizome link` end to end, with a temp `HOME` and temp git repositories: the first link, the second
/// (idempotent), a moved repository, things in the way (real files, foreign folders and symlinks), the
/// project name, and the configurable folder.
@Suite struct ClaudeLinkTests {
    // MARK: The first link

    @Test func `the first link makes file symlinks for agents and folder symlinks for skills`() throws {
        let fixture = try ClaudeLinkFixture()
        let repository = try fixture.acme()
        // Not agents or skills: a non-markdown file, a hidden file, a loose file among the skill folders.
        try fixture.write(repository.appendingPathComponent(".claude/agents/notes.txt"), "scratch\n")
        try fixture.write(repository.appendingPathComponent(".claude/agents/.hidden.md"), "---\nname: hidden\n---\n")
        try fixture.write(repository.appendingPathComponent(".claude/skills/README.md"), "# Skills\n")
        try fixture.write(repository.appendingPathComponent(".claude/skills/.cache/SKILL.md"), "---\nname: cache\n---\n")
        let result = fixture.link(repository)
        #expect(result.status == 0, "\(result.output)\(result.error)")

        let vault = fixture.vault.path
        let claude = repository.path + "/.claude"
        #expect(fixture.symlinkTarget(vault + "/ClaudeCode/Agents/acme/code-reviewer.md") == claude + "/agents/code-reviewer.md")
        #expect(fixture.symlinkTarget(vault + "/ClaudeCode/Agents/acme/test-writer.md") == claude + "/agents/test-writer.md")
        #expect(fixture.symlinkTarget(vault + "/ClaudeCode/Skills/acme/pdf-tools") == claude + "/skills/pdf-tools")
        #expect(fixture.symlinkTarget(vault + "/ClaudeCode/Skills/acme/release") == claude + "/skills/release")
        #expect(try FileManager.default.contentsOfDirectory(atPath: vault + "/ClaudeCode/Agents/acme").sorted() == ["code-reviewer.md", "test-writer.md"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: vault + "/ClaudeCode/Skills/acme").sorted() == ["pdf-tools", "release"])
        // Through the folder link, the skill's files are the repository's.
        #expect(fixture.bytes(vault + "/ClaudeCode/Skills/acme/pdf-tools/reference.md") == fixture.bytes(claude + "/skills/pdf-tools/reference.md"))

        // The layout's real folders, and ~/.claude's links to them.
        for folder in ["Agents/global", "Skills/global", "Plans"] {
            #expect(fixture.isRealFolder(vault + "/ClaudeCode/" + folder), "\(folder)")
        }
        #expect(fixture.symlinkTarget(fixture.claudeHome + "/agents") == vault + "/ClaudeCode/Agents/global")
        #expect(fixture.symlinkTarget(fixture.claudeHome + "/plans") == vault + "/ClaudeCode/Plans")
        #expect(fixture.isRealFile(vault + "/ClaudeCode/README.md"))

        #expect(result.outputLines.first == "Linked acme into ClaudeCode/: 6 new, 0 already linked, 0 updated, 0 skipped")
        #expect(result.output.contains("  + ClaudeCode/Agents/acme/code-reviewer.md → \(claude)/agents/code-reviewer.md\n"))
        #expect(result.output.contains("  + ClaudeCode/Skills/acme/pdf-tools → \(claude)/skills/pdf-tools\n"))
        #expect(result.output.contains("  + \(fixture.claudeHome)/agents → \(vault)/ClaudeCode/Agents/global\n"))
        #expect(result.output.contains("~/.claude/plans: linked to ClaudeCode/Plans\n"))
        #expect(result.output.contains("index note ClaudeCode/README.md: written\n"))
        #expect(result.error.isEmpty, "\(result.error)")
    }

    @Test func `global skills in the vault are linked into ~/.claude/skills by name`() throws {
        let fixture = try ClaudeLinkFixture()
        try fixture.vault.write("ClaudeCode/Skills/global/commit-helper/SKILL.md", ClaudeLinkFixture.skill("commit-helper", "Writes commit messages."))
        try fixture.vault.write("ClaudeCode/Skills/global/triage/SKILL.md", ClaudeLinkFixture.skill("triage", "Sorts issues."))
        try fixture.vault.write("ClaudeCode/Skills/global/loose-note.md", "# Not a skill folder\n")
        let repository = try fixture.acme()
        let result = fixture.link(repository, ["--json"])
        #expect(result.status == 0, "\(result.output)\(result.error)")
        let global = fixture.vault.path + "/ClaudeCode/Skills/global"
        #expect(fixture.symlinkTarget(fixture.claudeHome + "/skills/commit-helper") == global + "/commit-helper")
        #expect(fixture.symlinkTarget(fixture.claudeHome + "/skills/triage") == global + "/triage")
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.claudeHome + "/skills").sorted() == ["commit-helper", "triage"])
        // The global skills stay real folders in the vault: one true copy.
        #expect(fixture.isRealFolder(global + "/commit-helper"))
        #expect(fixture.isRealFile(global + "/commit-helper/SKILL.md"))
        let link = try #require(result.linkResult(fixture.claudeHome + "/skills/triage"))
        #expect(link["outcome"] as? String == "created")
        #expect(link["target"] as? String == global + "/triage")
        #expect(result.outcomeCounts == ["created": 8])
    }

    @Test func `the json report lists every link with its target and outcome`() throws {
        let fixture = try ClaudeLinkFixture()
        let repository = try fixture.acme()
        let result = fixture.link(repository, ["--json"])
        #expect(result.status == 0, "\(result.output)\(result.error)")
        #expect(result.json["command"] as? String == "link")
        #expect(result.json["version"] as? Int == 1)
        #expect(result.json["vault"] as? String == fixture.vault.path)
        #expect(result.data["indexNote"] as? String == "written")
        let report = try #require(result.data["report"] as? [String: Any])
        #expect(report["project"] as? String == "acme")
        #expect((report["broken"] as? [Any])?.isEmpty == true)
        // Vault links are vault-relative; links in ~/.claude are absolute.
        let paths = result.linkResults.compactMap { $0["path"] as? String }.sorted()
        #expect(paths == [
            "ClaudeCode/Agents/acme/code-reviewer.md", "ClaudeCode/Agents/acme/test-writer.md",
            "ClaudeCode/Skills/acme/pdf-tools", "ClaudeCode/Skills/acme/release",
            fixture.claudeHome + "/agents", fixture.claudeHome + "/plans",
        ].sorted())
        #expect(result.outcomeCounts == ["created": 6])
        let agent = try #require(result.linkResult("ClaudeCode/Agents/acme/code-reviewer.md"))
        #expect(agent["target"] as? String == repository.path + "/.claude/agents/code-reviewer.md")
        let plans = try #require(result.linkResult(fixture.claudeHome + "/plans"))
        #expect(plans["target"] as? String == fixture.vault.path + "/ClaudeCode/Plans")
        // Human output is not mixed into the JSON.
        #expect(result.output.hasPrefix("{"))
    }

    // MARK: Idempotence

    @Test func `linking twice changes nothing and reports everything as already linked`() throws {
        let fixture = try ClaudeLinkFixture()
        try fixture.vault.write("ClaudeCode/Skills/global/commit-helper/SKILL.md", ClaudeLinkFixture.skill("commit-helper", "Writes commit messages."))
        let repository = try fixture.acme()
        let first = fixture.link(repository)
        #expect(first.status == 0, "\(first.output)\(first.error)")
        let before = fixture.snapshotAll()
        let readme = try fixture.vault.bytes("ClaudeCode/README.md")
        #expect(before["vault/ClaudeCode/Agents/acme/code-reviewer.md"] == "link → " + repository.path + "/.claude/agents/code-reviewer.md")
        #expect(before["~/.claude/skills/commit-helper"] != nil)

        let second = fixture.link(repository)
        #expect(second.status == 0, "\(second.output)\(second.error)")
        #expect(second.outputLines.first == "Linked acme into ClaudeCode/: 0 new, 7 already linked, 0 updated, 0 skipped")
        #expect(!second.output.contains("  + ") && !second.output.contains("  ~ "), "\(second.output)")
        #expect(second.output.contains("index note ClaudeCode/README.md: unchanged"))
        #expect(second.error.isEmpty, "\(second.error)")

        let third = fixture.link(repository, ["--json"])
        #expect(third.outcomeCounts == ["already-linked": 7])
        #expect(third.data["indexNote"] as? String == "unchanged")

        // The whole tree: every symlink target, every real file's bytes, README.md included.
        #expect(fixture.snapshotAll() == before)
        #expect(try fixture.vault.bytes("ClaudeCode/README.md") == readme)
    }

    // MARK: A moved repository

    @Test func `a moved repository leaves broken links that are reported with their targets and never deleted`() throws {
        let fixture = try ClaudeLinkFixture()
        let old = try fixture.acme(at: "old/Acme")
        try #require(fixture.link(old).status == 0)
        try fixture.moveOutside("old/Acme", to: "new/Acme")
        let moved = fixture.vault.outside.appendingPathComponent("new/Acme")

        // Linking another project reports acme's broken links, and leaves them where they are.
        let other = try fixture.repository("Beta", agents: ["planner.md": ClaudeLinkFixture.agent("planner", "Plans work.")])
        let result = fixture.link(other, ["--json"])
        #expect(result.status == 0, "\(result.output)\(result.error)")
        let broken = Dictionary(uniqueKeysWithValues: result.linkBroken.map { ($0["path"] as? String ?? "?", $0["target"] as? String ?? "?") })
        #expect(broken == [
            "ClaudeCode/Agents/acme/code-reviewer.md": old.path + "/.claude/agents/code-reviewer.md",
            "ClaudeCode/Agents/acme/test-writer.md": old.path + "/.claude/agents/test-writer.md",
            "ClaudeCode/Skills/acme/pdf-tools": old.path + "/.claude/skills/pdf-tools",
            "ClaudeCode/Skills/acme/release": old.path + "/.claude/skills/release",
        ])
        for (path, target) in broken {
            #expect(fixture.symlinkTarget(fixture.vault.path + "/" + path) == target, "\(path) was deleted or changed")
        }
        let human = fixture.link(other)
        #expect(human.output.contains("4 broken links (left in place; relink, or remove them yourself):"))
        #expect(human.output.contains("  ! ClaudeCode/Agents/acme/code-reviewer.md → \(old.path)/.claude/agents/code-reviewer.md (missing)"))
        #expect(human.output.contains("  ! ClaudeCode/Skills/acme/release → \(old.path)/.claude/skills/release (missing)"))

        // Linking from the new place points the same links at it.
        let relinked = fixture.link(moved, ["--json"])
        #expect(relinked.status == 0, "\(relinked.output)\(relinked.error)")
        #expect(relinked.outcomeCounts == ["updated": 4, "already-linked": 2])
        let agent = try #require(relinked.linkResult("ClaudeCode/Agents/acme/code-reviewer.md"))
        #expect(agent["outcome"] as? String == "updated")
        #expect(agent["previousTarget"] as? String == old.path + "/.claude/agents/code-reviewer.md")
        #expect(agent["target"] as? String == moved.path + "/.claude/agents/code-reviewer.md")
        #expect(fixture.symlinkTarget(fixture.vault.path + "/ClaudeCode/Agents/acme/code-reviewer.md") == moved.path + "/.claude/agents/code-reviewer.md")
        #expect(fixture.symlinkTarget(fixture.vault.path + "/ClaudeCode/Skills/acme/pdf-tools") == moved.path + "/.claude/skills/pdf-tools")
        #expect(relinked.linkBroken.isEmpty)
        // No stray temporary links are left beside the updated ones.
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.vault.path + "/ClaudeCode/Agents/acme").sorted() == ["code-reviewer.md", "test-writer.md"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.vault.path + "/ClaudeCode/Skills/acme").sorted() == ["pdf-tools", "release"])
    }

    @Test func `the human report shows an updated link with its previous target`() throws {
        let fixture = try ClaudeLinkFixture()
        let old = try fixture.acme(at: "old/Acme")
        try #require(fixture.link(old).status == 0)
        try fixture.moveOutside("old/Acme", to: "new/Acme")
        let moved = fixture.vault.outside.appendingPathComponent("new/Acme")
        let result = fixture.link(moved)
        #expect(result.status == 0, "\(result.output)\(result.error)")
        #expect(result.outputLines.first == "Linked acme into ClaudeCode/: 0 new, 2 already linked, 4 updated, 0 skipped")
        #expect(result.output.contains(
            "  ~ ClaudeCode/Agents/acme/test-writer.md → \(moved.path)/.claude/agents/test-writer.md (was \(old.path)/.claude/agents/test-writer.md)\n"))
    }

    @Test func `an agent deleted from the repository stays a broken link after relinking`() throws {
        let fixture = try ClaudeLinkFixture()
        let repository = try fixture.acme()
        try #require(fixture.link(repository).status == 0)
        try FileManager.default.removeItem(at: repository.appendingPathComponent(".claude/agents/test-writer.md"))
        let result = fixture.link(repository, ["--json"])
        #expect(result.status == 0, "\(result.output)\(result.error)")
        #expect(result.outcomeCounts == ["already-linked": 5])
        let broken = result.linkBroken.compactMap { $0["path"] as? String }
        #expect(broken == ["ClaudeCode/Agents/acme/test-writer.md"])
        #expect(fixture.symlinkTarget(fixture.vault.path + "/ClaudeCode/Agents/acme/test-writer.md") == repository.path + "/.claude/agents/test-writer.md")
    }

    // MARK: Things in the way

    @Test func `a real file where an agent link would go is skipped, reported and left untouched`() throws {
        let fixture = try ClaudeLinkFixture()
        let mine = "---\nname: code-reviewer\ndescription: My own copy, edited in the vault.\n---\n\nKeep me.\n"
        try fixture.vault.write("ClaudeCode/Agents/acme/code-reviewer.md", mine)
        try fixture.vault.write("ClaudeCode/Skills/acme/release/SKILL.md", ClaudeLinkFixture.skill("release", "My own release notes."))
        let repository = try fixture.acme()
        let result = fixture.link(repository)
        #expect(result.status == 0, "\(result.output)\(result.error)")
        #expect(result.outputLines.first == "Linked acme into ClaudeCode/: 4 new, 0 already linked, 0 updated, 2 skipped")
        #expect(result.errorLines.contains("warning: ClaudeCode/Agents/acme/code-reviewer.md: a real file is already there; left alone"), "\(result.error)")
        #expect(result.errorLines.contains("warning: ClaudeCode/Skills/acme/release: a real folder is already there; left alone"), "\(result.error)")
        #expect(fixture.isRealFile(fixture.vault.path + "/ClaudeCode/Agents/acme/code-reviewer.md"))
        #expect(try fixture.vault.read("ClaudeCode/Agents/acme/code-reviewer.md") == mine)
        #expect(fixture.isRealFolder(fixture.vault.path + "/ClaudeCode/Skills/acme/release"))
        #expect(try fixture.vault.read("ClaudeCode/Skills/acme/release/SKILL.md") == ClaudeLinkFixture.skill("release", "My own release notes."))
        // The others are linked all the same.
        #expect(fixture.symlinkTarget(fixture.vault.path + "/ClaudeCode/Agents/acme/test-writer.md") != nil)

        let json = fixture.link(repository, ["--json"])
        let skipped = try #require(json.linkResult("ClaudeCode/Agents/acme/code-reviewer.md"))
        #expect(skipped["outcome"] as? String == "skipped")
        #expect(skipped["reason"] as? String == "a real file is already there; left alone")
        #expect(try fixture.vault.read("ClaudeCode/Agents/acme/code-reviewer.md") == mine)
    }

    @Test func `a foreign ~/.claude/agents folder is left untouched and reported`() throws {
        let fixture = try ClaudeLinkFixture()
        let ownAgent = URL(fileURLWithPath: fixture.claudeHome + "/agents/my-agent.md")
        try fixture.write(ownAgent, ClaudeLinkFixture.agent("my-agent", "Claude Code's own global agent."))
        let before = fixture.snapshot(fixture.claudeHome + "/agents")
        let repository = try fixture.acme()
        let result = fixture.link(repository)
        #expect(result.status == 0, "\(result.output)\(result.error)")
        #expect(result.errorLines.contains("warning: \(fixture.claudeHome)/agents: a real folder is already there; left alone"), "\(result.error)")
        #expect(fixture.isRealFolder(fixture.claudeHome + "/agents"))
        #expect(fixture.snapshot(fixture.claudeHome + "/agents") == before)
        // Plans, which were absent, are linked.
        #expect(fixture.symlinkTarget(fixture.claudeHome + "/plans") == fixture.vault.path + "/ClaudeCode/Plans")
        let again = fixture.link(repository, ["--json"])
        #expect(again.linkResult(fixture.claudeHome + "/agents")?["outcome"] as? String == "skipped")
        #expect(fixture.snapshot(fixture.claudeHome + "/agents") == before)
    }

    @Test func `a foreign symlink in ~/.claude is left untouched and reported`() throws {
        let fixture = try ClaudeLinkFixture()
        let elsewhere = fixture.vault.outside.appendingPathComponent("dotfiles/plans").path
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: fixture.claudeHome + "/skills", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: fixture.claudeHome + "/plans", withDestinationPath: elsewhere)
        // A global skill whose place in ~/.claude/skills is taken by someone else's link (even a broken one).
        try fixture.vault.write("ClaudeCode/Skills/global/commit-helper/SKILL.md", ClaudeLinkFixture.skill("commit-helper", "Writes commit messages."))
        try FileManager.default.createSymbolicLink(atPath: fixture.claudeHome + "/skills/commit-helper", withDestinationPath: "/nonexistent/commit-helper")
        let repository = try fixture.acme()
        let result = fixture.link(repository)
        #expect(result.status == 0, "\(result.output)\(result.error)")
        #expect(fixture.symlinkTarget(fixture.claudeHome + "/plans") == elsewhere)
        #expect(fixture.symlinkTarget(fixture.claudeHome + "/skills/commit-helper") == "/nonexistent/commit-helper")
        #expect(result.errorLines.contains("warning: \(fixture.claudeHome)/plans: a symlink to \(elsewhere) is already there, not made by Rhizome; left alone"), "\(result.error)")
        #expect(result.error.contains("warning: \(fixture.claudeHome)/skills/commit-helper: a symlink to /nonexistent/commit-helper"))
        #expect(result.output.contains("~/.claude/plans: a symlink to \(elsewhere), not Rhizome's: left alone"))
        // Someone else's broken link in ~/.claude is not Rhizome's to report as broken.
        let json = fixture.link(repository, ["--json"])
        #expect(json.linkBroken.isEmpty)
        #expect(json.outcomeCounts == ["already-linked": 5, "skipped": 2])
    }

    // MARK: The project name

    @Test func `the project name is the repository folder's name, lowercased, from the current folder`() throws {
        let fixture = try ClaudeLinkFixture()
        let repository = try fixture.repository("MyService", agents: ["planner.md": ClaudeLinkFixture.agent("planner", "Plans work.")])
        let result = fixture.run(["link"], in: repository.path)
        #expect(result.status == 0, "\(result.output)\(result.error)")
        #expect(result.outputLines.first?.hasPrefix("Linked myservice into ClaudeCode/:") == true)
        #expect(fixture.symlinkTarget(fixture.vault.path + "/ClaudeCode/Agents/myservice/planner.md") == repository.path + "/.claude/agents/planner.md")
        // A relative folder argument is taken from the current folder.
        let relative = fixture.run(["link", "MyService", "--json"], in: fixture.vault.outside.path)
        #expect(relative.status == 0, "\(relative.output)\(relative.error)")
        #expect((relative.data["report"] as? [String: Any])?["project"] as? String == "myservice")
        #expect(relative.outcomeCounts["already-linked"] == 3)
    }

    @Test func `--name names the project in the vault`() throws {
        let fixture = try ClaudeLinkFixture()
        let repository = try fixture.acme()
        let result = fixture.link(repository, ["--name", "client-work"])
        #expect(result.status == 0, "\(result.output)\(result.error)")
        #expect(fixture.symlinkTarget(fixture.vault.path + "/ClaudeCode/Agents/client-work/code-reviewer.md") == repository.path + "/.claude/agents/code-reviewer.md")
        #expect(!fixture.exists(fixture.vault.path + "/ClaudeCode/Agents/acme"))
    }

    @Test func `outside a git repository --name is required`() throws {
        let fixture = try ClaudeLinkFixture()
        let folder = fixture.vault.outside.appendingPathComponent("Scratch")
        try fixture.write(folder.appendingPathComponent(".claude/agents/helper.md"), ClaudeLinkFixture.agent("helper", "Helps."))
        let human = fixture.link(folder)
        #expect(human.status == 2)
        #expect(human.error.contains("--name"), "\(human.error)")
        #expect(human.error.contains(folder.path))
        let json = fixture.link(folder, ["--json"])
        #expect(json.status == 2)
        #expect(json.errorCode == "project-name-needed")
        #expect(!fixture.exists(fixture.vault.path + "/ClaudeCode"), "nothing is created before the name is known")
        #expect(!fixture.exists(fixture.claudeHome + "/agents"))

        let named = fixture.link(folder, ["--name", "scratch"])
        #expect(named.status == 0, "\(named.output)\(named.error)")
        #expect(fixture.symlinkTarget(fixture.vault.path + "/ClaudeCode/Agents/scratch/helper.md") == folder.path + "/.claude/agents/helper.md")
    }

    @Test(arguments: ["global", "a/b", ".hidden", ""])
    func `an invalid project name is a usage error and changes nothing`(name: String) throws {
        let fixture = try ClaudeLinkFixture()
        let repository = try fixture.acme()
        let result = fixture.link(repository, ["--name", name, "--json"])
        #expect(result.status == 2, "\(result.output)")
        #expect(result.errorCode == "invalid-project-name")
        #expect(result.errorMessage?.contains("`\(name)`") == true)
        #expect(!fixture.exists(fixture.vault.path + "/ClaudeCode"))
        #expect(!fixture.exists(fixture.claudeHome))
    }

    @Test func `a folder that does not exist is a usage error`() throws {
        let fixture = try ClaudeLinkFixture()
        let missing = fixture.vault.outside.appendingPathComponent("Nowhere")
        let result = fixture.link(missing, ["--name", "nowhere", "--json"])
        #expect(result.status == 2)
        #expect(result.errorCode == "project-not-found")
        #expect(!fixture.exists(fixture.vault.path + "/ClaudeCode"))
    }

    // MARK: Configuration

    @Test func `the layout folder follows claudeCode in the vault config`() throws {
        let fixture = try ClaudeLinkFixture()
        try fixture.vault.write(".rhizome/config.yaml", "version: 1\nclaudeCode: AI/Claude\n")
        let repository = try fixture.acme()
        let result = fixture.link(repository)
        #expect(result.status == 0, "\(result.output)\(result.error)")
        let root = fixture.vault.path + "/AI/Claude"
        #expect(fixture.symlinkTarget(root + "/Agents/acme/code-reviewer.md") == repository.path + "/.claude/agents/code-reviewer.md")
        #expect(fixture.symlinkTarget(fixture.claudeHome + "/agents") == root + "/Agents/global")
        #expect(fixture.symlinkTarget(fixture.claudeHome + "/plans") == root + "/Plans")
        #expect(fixture.isRealFile(root + "/README.md"))
        #expect(!fixture.exists(fixture.vault.path + "/ClaudeCode"))
        #expect(result.outputLines.first?.hasPrefix("Linked acme into AI/Claude/:") == true)
    }
}
