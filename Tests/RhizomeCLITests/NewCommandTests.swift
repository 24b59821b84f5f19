import Foundation
import Testing
import RhizomeCLI
import RhizomeTestSupport

/// `rhizome new TYPE`: notes valid by construction (validate passes, fix has nothing to do), placed by
/// the scaffold, never written over an existing file (or symlink, or the same name in another Unicode
/// form), and nothing written when a required value is missing.
@Suite struct NewCommandTests {
    @Test func `new project writes a note that validates clean, with its id, defaults and placeholders filled`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        let days = Today()
        let result = cli.run(["new", "project", "--title", "Café Culture"], vault: vault)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("created Projects/Café Culture.md (project, id cafe-culture)"))
        let text = try vault.read("Projects/Café Culture.md")
        let (frontmatter, body) = split(text)
        #expect(frontmatter.hasPrefix("type: project\nid: cafe-culture\nstatus: active\n"), "\(text)")
        #expect(days.contains { frontmatter.contains("\ncreated: \($0)\n") }, "{{date}} is today: \(frontmatter)")
        #expect(!text.contains("{{"), "every placeholder is filled")
        #expect(body.contains("# Café Culture\n"))
        let validate = cli.run(["validate", "--json"], vault: vault)
        #expect(validate.status == 0, "\(validate.findingCodes)")
        #expect(validate.findings.isEmpty)
        #expect((validate.data["summary"] as? [String: Any])?["checkedNotes"] as? Int == 4)
        let types = cli.run(["sql", "SELECT type, id FROM note_types WHERE path = 'Projects/Café Culture.md'", "--json"], vault: vault)
        #expect((types.data["rows"] as? [[Any]])?.first?.compactMap { $0 as? String } == ["project", "cafe-culture"])
    }

    @Test func `a new note needs no fixing, even with values given by set`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        #expect(cli.run(["new", "project", "--title", "Ordered"], vault: vault).status == 0)
        #expect(cli.run(["fix", "Projects/Ordered.md", "--populate"], vault: vault).output.contains("nothing to fix"))
        // `owner` comes before `created` and `tags` in the project's keyOrder.
        let created = cli.run(["new", "project", "--title", "With owner", "--set", "tags=[a, b]", "--set", "owner=Jane"], vault: vault)
        #expect(created.status == 0)
        let fix = cli.run(["fix", "Projects/With owner.md", "--populate"], vault: vault)
        #expect(fix.output.contains("nothing to fix"), "`new` should write keys in the schema's order:\n\(fix.output)")
    }

    @Test func `new never overwrites an existing file`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        #expect(cli.run(["new", "project", "--title", "Café Culture"], vault: vault).status == 0)
        let mine = Array("---\ntype: project\nid: mine\nstatus: paused\n---\nMy own words.\n".utf8)
        try vault.write("Projects/Café Culture.md", bytes: mine)
        let again = cli.run(["new", "project", "--title", "Café Culture"], vault: vault)
        #expect(again.status == 2)
        #expect(again.error.contains("already exists"))
        #expect(try vault.bytes("Projects/Café Culture.md") == mine)
        let json = cli.run(["new", "project", "--title", "Café Culture", "--json"], vault: vault)
        #expect(json.status == 2)
        #expect(json.errorCode == "file-exists")
        #expect(try vault.bytes("Projects/Café Culture.md") == mine)
        #expect(try FileManager.default.contentsOfDirectory(atPath: vault.url("Projects").path).sorted() == ["Café Culture.md", "Rhizome.md"])
    }

    @Test func `new never writes through a symlink at the note's path, even a dangling one`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        try FileManager.default.createDirectory(at: vault.outside, withIntermediateDirectories: true)
        let target = vault.outside.appendingPathComponent("Elsewhere.md")
        let original = Array("Someone else's file.\n".utf8)
        try Data(original).write(to: target)
        try vault.symlink("Projects/Linked.md", to: target.path)
        let result = cli.run(["new", "project", "--title", "Linked"], vault: vault)
        #expect(result.status == 2)
        #expect(Array(try Data(contentsOf: target)) == original)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: vault.url("Projects/Linked.md").path) == target.path)
        let missing = vault.outside.appendingPathComponent("Not yet.md")
        try vault.symlink("Projects/Dangling.md", to: missing.path)
        let dangling = cli.run(["new", "project", "--title", "Dangling"], vault: vault)
        #expect(dangling.status == 2)
        #expect(!FileManager.default.fileExists(atPath: missing.path), "nothing created at the symlink's target")
    }

    @Test func `new refuses a name that exists in another Unicode normalization form`() throws {
        // `Café` typed on a Mac arrives decomposed (NFD); Obsidian and Rhizome treat both forms as one path.
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        let decomposed = "Projects/Cafe\u{0301} Culture.md"
        let mine = Array("---\ntype: project\nid: cafe-culture\nstatus: active\n---\nDecomposed name.\n".utf8)
        try vault.write(decomposed, bytes: mine)
        let result = cli.run(["new", "project", "--title", "Café Culture"], vault: vault)
        #expect(result.status == 2, "\(result.output)")
        let names = try FileManager.default.contentsOfDirectory(atPath: vault.url("Projects").path)
        #expect(names.filter { $0.unicodeScalars.starts(with: "Cafe".unicodeScalars) || $0.unicodeScalars.starts(with: "Caf\u{E9}".unicodeScalars) }.count == 1, "\(names)")
        let duplicates = cli.run(["sql", "SELECT count(*) FROM findings WHERE code = 'duplicate-path'", "--json"], vault: vault)
        #expect((duplicates.data["rows"] as? [[Any]])?.first?.first as? Int == 0, "\(duplicates.output)")
        #expect(Array(try Data(contentsOf: vault.url(decomposed))) == mine)
    }

    @Test func `folder puts the note in another folder, inside the vault only`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        let result = cli.run(["new", "idea", "--title", "Side thought", "--folder", "Inbox/Later"], vault: vault)
        #expect(result.status == 0, "\(result.error)")
        #expect(FileManager.default.fileExists(atPath: vault.url("Inbox/Later/Side thought.md").path))
        #expect(!FileManager.default.fileExists(atPath: vault.url("Ideas").path))
        let outside = cli.run(["new", "idea", "--title", "Escape", "--folder", "../.."], vault: vault)
        #expect(outside.status == 2)
        #expect(!FileManager.default.fileExists(atPath: vault.root.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Escape.md").path))
    }

    @Test func `set gives values, as YAML`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        let result = cli.run(
            ["new", "project", "--title", "Set things", "--set", "tags=[a, b]", "--set", "owner=Jane Doe", "--set", "status=paused", "--set", "repo=https://example.com/x?y=1"],
            vault: vault)
        #expect(result.status == 0, "\(result.error)")
        let text = try vault.read("Projects/Set things.md")
        #expect(text.contains("\ntags:\n  - a\n  - b\n"), "\(text)")
        #expect(text.contains("\nowner: Jane Doe\n"))
        #expect(text.contains("\nstatus: paused\n") && !text.contains("status: active"), "--set wins over the default")
        #expect(text.contains("repo: https://example.com/x?y=1"), "only the first `=` separates key and value")
        let properties = cli.run(["sql", "SELECT key, type FROM properties WHERE path = 'Projects/Set things.md' ORDER BY key", "--json"], vault: vault)
        let rows = (properties.data["rows"] as? [[Any]])?.map { $0.compactMap { $0 as? String }.joined(separator: "=") }
        #expect(rows?.contains("tags=list") == true, "\(properties.output)")
        #expect(rows?.contains("owner=string") == true)
        #expect(cli.run(["validate", "Projects/Set things.md"], vault: vault).status == 0)
        let malformed = cli.run(["new", "project", "--title", "Bad set", "--set", "novalue"], vault: vault)
        #expect(malformed.status == 2)
        #expect(!FileManager.default.fileExists(atPath: vault.url("Projects/Bad set.md").path))
    }

    @Test func `a required field without a default and not set writes nothing`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        let result = cli.run(["new", "reflection", "--title", "Why SQLite"], vault: vault)
        #expect(result.status == 2)
        #expect(result.error.contains("question"), "\(result.error)")
        #expect(!FileManager.default.fileExists(atPath: vault.url("Reflections").path))
        // A value that breaks the schema is refused the same way.
        let invalid = cli.run(["new", "project", "--title", "Bad status", "--set", "status=someday"], vault: vault)
        #expect(invalid.status == 2)
        #expect(invalid.error.contains("someday") || invalid.error.contains("status"), "\(invalid.error)")
        #expect(!FileManager.default.fileExists(atPath: vault.url("Projects/Bad status.md").path))
        let given = cli.run(["new", "reflection", "--title", "Why SQLite", "--set", "question=Why SQLite?"], vault: vault)
        #expect(given.status == 0, "\(given.error)")
        #expect(cli.run(["validate", "--type", "reflection"], vault: vault).status == 0)
    }

    @Test func `a strict schema rejects an unknown set key`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        let result = cli.run(["new", "person", "--title", "Grace Hopper", "--set", "name=Grace", "--set", "rank=admiral"], vault: vault)
        #expect(result.status == 2)
        #expect(result.error.contains("rank") && result.error.contains("strict"), "\(result.error)")
        #expect(!FileManager.default.fileExists(atPath: vault.url("Grace Hopper.md").path))
        let accepted = cli.run(["new", "person", "--title", "Grace Hopper", "--set", "name=Grace"], vault: vault)
        #expect(accepted.status == 0, "\(accepted.error)")
        let lines = try vault.read("Grace Hopper.md").components(separatedBy: "\n")
        #expect(Set(lines) == ["---", "type: person", "id: grace-hopper", "name: Grace", "role: dev", ""], "\(lines)")
        // An open schema takes any key.
        #expect(cli.run(["new", "project", "--title", "Open", "--set", "rank=admiral"], vault: vault).status == 0)
    }

    @Test func `new skill follows the skill scaffold, named after its folder`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        let noDescription = cli.run(["new", "skill", "--title", "My Skill"], vault: vault)
        #expect(noDescription.status == 2, "a skill's description has no default")
        let result = cli.run(["new", "skill", "--title", "My Skill", "--set", "description=Does my thing when asked.", "--json"], vault: vault)
        #expect(result.status == 0, "\(result.output)")
        // Where `rhizome link` keeps global skills: a visible folder Obsidian and Rhizome index.
        #expect(result.data["path"] as? String == "ClaudeCode/Skills/global/my-skill/SKILL.md")
        #expect(result.data["id"] as? String == "my-skill")
        let text = try vault.read("ClaudeCode/Skills/global/my-skill/SKILL.md")
        #expect(text.hasPrefix("---\nname: my-skill\ndescription: Does my thing when asked.\n---\n"), "\(text)")
        #expect(!text.contains("type:"), "Claude Code skills carry no `type:`")
        #expect(text.contains("# My Skill\n"))
    }

    @Test func `a skill created by new is one that validate checks`() throws {
        // `validate` must see what `new` wrote (so `new` writes into a visible folder, not `.claude/`).
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        #expect(cli.run(["new", "skill", "--title", "My Skill", "--set", "description=Does my thing."], vault: vault).status == 0)
        let result = cli.run(["validate", "ClaudeCode/Skills/global/my-skill/SKILL.md", "--json"], vault: vault)
        #expect(result.status == 0, "\(result.output)")
        #expect((result.data["summary"] as? [String: Any])?["checkedNotes"] as? Int == 1)
    }

    @Test func `new daily needs no title`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        let days = Today()
        let result = cli.run(["new", "daily", "--json"], vault: vault)
        #expect(result.status == 0, "\(result.output)")
        let path = try #require(result.data["path"] as? String)
        let day = try #require(days.first { path == "Daily/\($0).md" }, "\(path)")
        let text = try vault.read(path)
        #expect(text.hasPrefix("---\ntype: daily\ndate: \(day)\n---\n"), "\(text)")
        #expect(text.contains("# \(day)\n"))
        #expect(cli.run(["validate", path], vault: vault).status == 0)
        // A project does need one.
        let untitled = cli.run(["new", "project"], vault: vault)
        #expect(untitled.status == 2)
        #expect(untitled.error.contains("--title"))
    }

    @Test func `json output names the path, type and id`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        let result = cli.run(["new", "proj", "--title", "Agent made", "--json"], vault: vault)
        #expect(result.status == 0)
        #expect(result.json["command"] as? String == "new")
        #expect(result.json["version"] as? Int == 1)
        #expect(result.json["vault"] as? String == vault.path)
        #expect(result.data["path"] as? String == "Projects/Agent made.md")
        #expect(result.data["type"] as? String == "project", "a `type:` value maps to its schema type")
        #expect(result.data["id"] as? String == "agent-made")
        let unknown = cli.run(["new", "recipe", "--title", "Soup", "--json"], vault: vault)
        #expect(unknown.status == 2)
        #expect(unknown.errorCode == "invalid-argument")
        #expect(unknown.errorMessage?.contains("project") == true, "known types are listed")
    }

    // MARK: Helpers

    /// The frontmatter text (between the fences) and the body of a note `new` wrote.
    private func split(_ text: String) -> (frontmatter: String, body: String) {
        guard text.hasPrefix("---\n"), let close = text.range(of: "\n---\n") else { return ("", text) }
        return (String(text[text.index(text.startIndex, offsetBy: 4)...close.lowerBound]), String(text[close.upperBound...]))
    }
}

/// Today's date as `{{date}}` fills it (local time), taken before and after a command so a test that
/// straddles midnight still passes.
struct Today: Sequence {
    private let days: [String]

    init() {
        let start = Self.format(Date())
        days = [start, Self.format(Date().addingTimeInterval(120))]
    }

    func makeIterator() -> IndexingIterator<[String]> { days.makeIterator() }

    private static func format(_ date: Date) -> String {
        let parts = Calendar(identifier: .gregorian).dateComponents(in: .current, from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
}
