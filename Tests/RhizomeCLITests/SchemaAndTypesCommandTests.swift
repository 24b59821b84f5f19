import Foundation
import Testing
import RhizomeCLI
import RhizomeTestSupport

/// `rhizome schema [TYPE]` (for people and agents, with or without a vault) and `rhizome types`
/// (`type:` values with counts and schemas; `migrate` rewrites only the `type:` line).
@Suite struct SchemaAndTypesCommandTests {
    static let builtInTypes = ["agent", "daily", "decision", "idea", "index", "plan", "project", "reflection", "session", "skill"]

    // MARK: schema

    @Test func `schema lists the ten built-in types and the vault's own`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        let result = cli.run(["schema"], vault: vault)
        #expect(result.status == 0, "\(result.error)")
        let rows = result.output.split(separator: "\n").map(String.init)
        let listed = rows.dropFirst().compactMap { $0.split(separator: " ").first.map(String.init) }.filter { !$0.hasPrefix("`") }
        #expect(listed == (Self.builtInTypes + ["person"]).sorted(), "\(result.output)")
        let person = try #require(rows.first { $0.hasPrefix("person ") })
        #expect(person.contains(".rhizome/schemas/person.yaml"))
        #expect(person.contains("type: person|people"))
        #expect(rows.first { $0.hasPrefix("skill ") }?.contains("**/SKILL.md") == true)
        let json = cli.run(["schema", "--json"], vault: vault)
        let types = try #require(json.json["data"] as? [[String: Any]])
        #expect(types.compactMap { $0["type"] as? String } == (Self.builtInTypes + ["person"]).sorted())
        #expect(types.filter { $0["builtIn"] as? Bool == true }.count == 10)
        #expect(types.first { $0["type"] as? String == "person" }?["source"] as? String == ".rhizome/schemas/person.yaml")
    }

    @Test func `a vault schema replaces the built-in one of the same type`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        try vault.write(".rhizome/schemas/project.yaml", "type: project\ndescription: Our own projects.\nfrontmatter:\n  type: object\n  properties:\n    code:\n      type: string\n      description: The project code.\n")
        let list = cli.run(["schema", "--json"], vault: vault)
        let types = try #require(list.json["data"] as? [[String: Any]])
        #expect(types.count == 11)
        let project = try #require(types.first { $0["type"] as? String == "project" })
        #expect(project["builtIn"] as? Bool == false)
        let detail = cli.run(["schema", "project"], vault: vault)
        #expect(detail.output.contains("Our own projects."))
        #expect(detail.output.contains("code: string"))
        #expect(!detail.output.contains("status (required)"))
    }

    @Test func `schema TYPE shows each field with its description, default and allowed values`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        let result = cli.run(["schema", "project"], vault: vault)
        #expect(result.status == 0)
        let output = result.output
        #expect(output.hasPrefix("project — A piece of work with an outcome and an end"))
        #expect(output.contains("from: built-in"))
        #expect(output.contains("id: `id`, inferred from the title"))
        #expect(output.contains("  status (required): string\n"))
        #expect(output.contains("Where the project stands"))
        #expect(output.contains("one of: active, paused, done, dropped · default: active"))
        #expect(output.contains("  owner: string, or null\n"))
        #expect(output.contains("  tags: array of string, or null\n"))
        #expect(output.contains("default: {{date}} · format: date"))
        // A vault type, and a type reached through a `type:` value.
        let person = cli.run(["schema", "people"], vault: vault)
        #expect(person.status == 0)
        #expect(person.output.hasPrefix("person — Someone the vault's notes mention."))
        #expect(person.output.contains("strict: keys not listed below are errors"))
        #expect(person.output.contains("The person's full name."))
        #expect(person.output.contains("one of: dev, pm · default: dev"))
        let plan = cli.run(["schema", "plan"], vault: vault)
        #expect(plan.output.contains("references: `project` → project, `projects` → project, `related` → any"))
    }

    @Test func `schema TYPE --json gives agents every field`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        let result = cli.run(["schema", "project", "--json"], vault: vault)
        #expect(result.status == 0)
        #expect(result.json["command"] as? String == "schema")
        let schema = result.data
        #expect(schema["type"] as? String == "project")
        #expect(schema["builtIn"] as? Bool == true)
        #expect((schema["id"] as? [String: Any])?["infer"] as? String == "title")
        #expect((schema["keyOrder"] as? [String])?.first == "type")
        let fields = try #require(schema["fields"] as? [[String: Any]])
        #expect(fields.compactMap { $0["name"] as? String } == ["type", "id", "title", "status", "owner", "started", "due", "repo", "created", "tags", "aliases", "related"])
        for field in fields {
            #expect(field["name"] is String && field["required"] is Bool && field["types"] is [String], "\(field)")
            #expect(field["description"] is String, "every built-in field is described: \(field)")
        }
        let status = try #require(fields.first { $0["name"] as? String == "status" })
        #expect(status["required"] as? Bool == true)
        #expect(status["types"] as? [String] == ["string"])
        #expect((status["description"] as? String)?.hasPrefix("Where the project stands") == true)
        #expect(status["defaultValue"] as? String == "active")
        #expect(status["allowedValues"] as? [String] == ["active", "paused", "done", "dropped"])
        let created = try #require(fields.first { $0["name"] as? String == "created" })
        #expect(created["defaultValue"] as? String == "{{date}}")
        #expect(created["format"] as? String == "date")
        let owner = try #require(fields.first { $0["name"] as? String == "owner" })
        #expect(owner["types"] as? [String] == ["string", "null"])
        #expect(owner["required"] as? Bool == false)
    }

    @Test func `an unknown type is a usage error listing the known types`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        let result = cli.run(["schema", "projet"], vault: vault)
        #expect(result.status == 2)
        #expect((Self.builtInTypes + ["person"]).allSatisfy { result.error.contains($0) }, "\(result.error)")
        #expect(result.error.contains("projet"))
        let json = cli.run(["schema", "projet", "--json"], vault: vault)
        #expect(json.status == 2)
        #expect(json.errorCode == "invalid-argument")
    }

    @Test func `schema works outside any vault with the built-in types`() throws {
        let cli = try CLIHarness()  // HOME is an empty temp folder, no RHIZOME_VAULT or OBSIDIAN_VAULT
        defer { cli.cleanUp() }
        #expect(cli.environment["RHIZOME_VAULT"] == nil && cli.environment["OBSIDIAN_VAULT"] == nil)
        let list = cli.run(["schema", "--json"], in: cli.home.path)
        #expect(list.status == 0, "\(list.error)")
        let types = try #require(list.json["data"] as? [[String: Any]])
        #expect(types.compactMap { $0["type"] as? String } == Self.builtInTypes)
        let human = cli.run(["schema"], in: cli.home.path)
        #expect(human.status == 0)
        #expect(Self.builtInTypes.allSatisfy { type in human.output.contains("\n\(type) ") })
        let skill = cli.run(["schema", "skill"], in: cli.home.path)
        #expect(skill.status == 0)
        #expect(skill.output.contains("\nid: `name`, inferred from the folder"), "\(skill.output)")
        #expect(skill.output.contains("  name (required): string\n"))
        // Naming a vault that does not exist is still an error.
        let missing = cli.run(["schema", "--vault", cli.home.appendingPathComponent("nope").path])
        #expect(missing.status == 2)
        // Other commands need a vault.
        #expect(cli.run(["types"], in: cli.home.path).status == 2)
    }

    // MARK: types

    @Test func `types counts each type value and shows which schema it maps to`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypesVault.make()
        let result = cli.run(["types"], vault: vault)
        #expect(result.status == 0, "\(result.error)")
        let rows = result.output.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
        #expect(rows.contains("note 2 none"), "\(result.output)")
        #expect(rows.contains("project 1 project"))
        #expect(rows.contains("projects 1 project (mapped)"))
        #expect(rows.contains("meeting 1 session (mapped)"))
        #expect(rows.contains("person 1 person"))
        #expect(result.output.contains("Typed by path (no `type:`): session 1"))
        #expect(result.output.contains("1 value has no schema"))
        let json = cli.run(["types", "--json"], vault: vault)
        let values = try #require(json.data["values"] as? [[String: Any]])
        let byValue = Dictionary(uniqueKeysWithValues: values.map { ($0["value"] as? String ?? "", $0) })
        #expect(byValue["note"]?["notes"] as? Int == 2)
        #expect(byValue["note"]?["schema"] == nil || byValue["note"]?["schema"] is NSNull)
        #expect(byValue["meeting"]?["schema"] as? String == "session")
        #expect(byValue["projects"]?["schema"] as? String == "project")
        #expect(values.first?["value"] as? String == "note", "most used first")
        let byPath = try #require(json.data["typedByPath"] as? [[String: Any]])
        #expect(byPath.count == 1)
        #expect(byPath.first?["type"] as? String == "session")
    }

    @Test func `types migrate is a dry run unless --write`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypesVault.make()
        let paths = try TypesVault.allNotes(vault)
        let before = try paths.map { try vault.bytes($0) }
        let result = cli.run(["types", "migrate", "--from", "note", "--to", "idea"], vault: vault)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("--- a/Notes/Plain.md\n+++ b/Notes/Plain.md\n"))
        #expect(result.output.contains("\n-type: note\n+type: idea\n"))
        #expect(result.output.contains("2 notes would change"))
        #expect(try paths.map { try vault.bytes($0) } == before)
    }

    @Test func `types migrate --write rewrites only the type line, and a second run finds nothing`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypesVault.make()
        let paths = try TypesVault.allNotes(vault)
        let before = Dictionary(uniqueKeysWithValues: try paths.map { ($0, try vault.bytes($0)) })
        let result = cli.run(["types", "migrate", "--from", "note", "--to", "idea", "--write"], vault: vault)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("changed 2 notes: type note → idea"))
        for path in paths {
            let old = try #require(before[path]), new = try vault.bytes(path)
            if path == "Notes/Plain.md" || path == "Notes/Quirky.md" {
                let oldLines = lines(old), newLines = lines(new)
                #expect(oldLines.count == newLines.count, "\(path)")
                let changed = zip(oldLines, newLines).filter { $0 != $1 }
                #expect(changed.count == 1, "\(path): \(changed)")
                #expect(changed.first.map { String(decoding: $0.1, as: UTF8.self).hasPrefix("type: idea") } == true, "\(path)")
            } else {
                #expect(new == old, "\(path) has no `type: note` and must not change")
            }
        }
        // CRLF, BOM and a body with `---` survive.
        let quirky = try vault.bytes("Notes/Quirky.md")
        #expect(quirky.starts(with: [0xEF, 0xBB, 0xBF]))
        #expect(bodyBytes(quirky) == bodyBytes(try #require(before["Notes/Quirky.md"])))
        #expect(String(decoding: quirky, as: UTF8.self).contains("type: idea\r\n"))
        // The index follows: `types` shows the new value, and validate checks the notes as ideas.
        let types = cli.run(["types", "--json"], vault: vault)
        let values = (types.data["values"] as? [[String: Any]])?.compactMap { $0["value"] as? String } ?? []
        #expect(values.contains("idea") && !values.contains("note"), "\(values)")
        let second = cli.run(["types", "migrate", "--from", "note", "--to", "idea", "--write"], vault: vault)
        #expect(second.status == 0)
        #expect(second.output.contains("no note has `type: note`"))
        #expect(try vault.bytes("Notes/Quirky.md") == quirky)
    }

    @Test func `types migrate keeps a comment on the type line`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        try vault.write("Commented.md", "---\ntype: note   # renamed later\nstatus: seed\n---\n")
        let result = cli.run(["types", "migrate", "--from", "note", "--to", "idea", "--write"], vault: vault)
        #expect(result.status == 0)
        #expect(try vault.read("Commented.md") == "---\ntype: idea   # renamed later\nstatus: seed\n---\n")
    }

    @Test func `types migrate rewrites a note whose file name is in decomposed Unicode (NFD)`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        let onDisk = "Notes/E\u{0301}te\u{0301}.md"
        try vault.write(onDisk, "---\ntype: note\n---\nBody\n")
        let result = cli.run(["types", "migrate", "--from", "note", "--to", "idea", "--write"], vault: vault)
        #expect(result.status == 0)
        #expect(result.error.isEmpty, "\(result.error)")
        #expect(result.output.contains("changed 1 note"), "\(result.output)")
        #expect(String(decoding: Array(try Data(contentsOf: vault.url(onDisk))), as: UTF8.self) == "---\ntype: idea\n---\nBody\n")
    }

    @Test func `types migrate warns when the new value has no schema`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypesVault.make()
        let result = cli.run(["types", "migrate", "--from", "note", "--to", "memo"], vault: vault)
        #expect(result.status == 0)
        #expect(result.error.contains("no schema for the type `memo`"))
    }

    @Test func `types migrate needs both values, different, and only the migrate action`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypesVault.make()
        let cases: [[String]] = [
            ["types", "migrate", "--from", "note"],
            ["types", "migrate", "--to", "idea"],
            ["types", "migrate", "--from", "note", "--to", "note"],
            ["types", "migrate", "--from", "", "--to", "idea"],
            ["types", "rename", "--from", "note", "--to", "idea"],
            ["types", "--from", "note"],
            ["types", "--write"],
        ]
        for arguments in cases {
            let result = cli.run(arguments, vault: vault)
            #expect(result.status == 2, "\(arguments): \(result.output)")
        }
        let json = cli.run(["types", "migrate", "--from", "note", "--to", "note", "--json"], vault: vault)
        #expect(json.errorCode == "invalid-argument")
        #expect(json.errorMessage?.contains("same") == true)
        #expect(try TypesVault.allNotes(vault).allSatisfy { !(try vault.read($0)).contains("type: idea") })
    }

    private func lines(_ bytes: [UInt8]) -> [[UInt8]] {
        bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
    }
}

/// A vault with `type:` values that have schemas, mapped ones, one without, and a note typed by path.
enum TypesVault {
    static func make() throws -> TemporaryVault {
        let vault = try TypedVaultFixture.make()
        try vault.write(".rhizome/config.yaml", "version: 1\ntypes:\n  meeting: session\n")
        try vault.write("Meetings/Sync.md", "---\ntype: meeting\ndate: 2024-05-01\n---\n")
        try vault.write("Projects/Old style.md", "---\ntype: projects\nid: old-style\nstatus: active\n---\n")
        try vault.write("Notes/Plain.md", "---\ntitle: Plain   # a title\ntype: note\nrating: \"5\"\n---\nBody text.\n")
        try vault.write("Notes/Quirky.md", bytes: [0xEF, 0xBB, 0xBF] + Array("---\r\ntype: note\r\ntags: [x]\r\n---\r\n---\r\nnot frontmatter\r\ntype: note\r\nno newline at the end".utf8))
        try vault.write("Notes/Mention.md", "---\ntitle: note\ncategory: note\n---\ntype: note\n")
        try vault.write("Sessions/2024-05-02 Pairing.md", "---\ndate: 2024-05-02\n---\n")
        return vault
    }

    static func allNotes(_ vault: TemporaryVault) throws -> [String] {
        let root = vault.root.standardizedFileURL.path
        let enumerator = FileManager.default.enumerator(at: vault.root, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])
        var paths: [String] = []
        while let url = enumerator?.nextObject() as? URL {
            if url.pathExtension == "md" { paths.append(String(url.standardizedFileURL.path.dropFirst(root.count + 1))) }
        }
        return paths.sorted()
    }
}
