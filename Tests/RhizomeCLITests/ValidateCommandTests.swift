import Foundation
import Testing
import RhizomeCLI
import RhizomeTestSupport

/// `rhizome validate` end to end: a temp vault with built-in and vault schemas, a real index, the exit
/// statuses, the human and `--json` reports, PATH and `--type` filters, broken schema files and configs,
/// incremental re-checks, and the vault-wide codes (duplicate ids and references).
@Suite struct ValidateCommandTests {
    // MARK: Exit statuses and output

    @Test func `a clean vault validates with exit status 0 and a summary`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        let result = cli.run(["validate"], vault: vault)
        #expect(result.status == 0, "\(result.output)\(result.error)")
        #expect(result.diagnosticLines.isEmpty)
        #expect(result.output.contains("0 errors in 0 notes, 0 warnings, 0 for information · 3 typed notes checked against a schema"))
    }

    @Test func `errors exit 1 with one compiler-style line per finding and a summary`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        try vault.write("Projects/Kettle.md", "---\ntype: project\nid: kettle\nstatus: someday\n---\n# Kettle\n")
        try vault.write("People/Grace Hopper.md", "---\ntype: person\nname: Grace\nnickname: Amazing Grace\n---\n")
        let result = cli.run(["validate"], vault: vault)
        #expect(result.status == 1)
        let lines = result.diagnosticLines
        #expect(lines.count == 2, "\(result.output)")
        for line in lines {
            #expect(line.wholeMatch(of: /[^:]+\.md:\d+:\d+: (error|warning|info): .+ \[[a-z-]+\]/) != nil, "\(line)")
        }
        let status = try #require(lines.first { $0.hasPrefix("Projects/Kettle.md:4:1: error: ") })
        #expect(status.contains("someday") && status.hasSuffix("[not-in-enum]"))
        let strict = try #require(lines.first { $0.hasPrefix("People/Grace Hopper.md:4:1: error: ") })
        #expect(strict.contains("nickname") && strict.hasSuffix("[unknown-key]"))
        // Each finding carries its fix on the next line.
        #expect(result.output.contains("\n  fix: use one of `active`, `paused`, `done`, `dropped`"))
        #expect(result.output.contains("2 errors in 2 notes, 0 warnings, 0 for information · 5 typed notes checked against a schema"))
    }

    @Test func `warnings alone exit 0`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        try vault.write("Projects/Tagged.md", "---\ntype: project\nid: tagged\nstatus: active\ntag: legacy\n---\n")
        let result = cli.run(["validate"], vault: vault)
        #expect(result.status == 0, "\(result.output)")
        let line = try #require(result.diagnosticLines.first)
        #expect(line.hasPrefix("Projects/Tagged.md:5:1: warning: ") && line.hasSuffix("[legacy-key]"))
        #expect(result.output.contains("0 errors in 0 notes, 1 warning"))
    }

    @Test func `the json envelope carries every finding's fields and the summary`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        try vault.write("Projects/Kettle.md", "---\ntype: project\nid: kettle\nstatus: someday\n---\n")
        try vault.write("Projects/Tagged.md", "---\ntype: project\nid: tagged\nstatus: active\ntag: legacy\n---\n")
        let result = cli.run(["validate", "--json"], vault: vault)
        #expect(result.status == 1)
        #expect(result.json["command"] as? String == "validate")
        #expect(result.json["version"] as? Int == 1)
        #expect(result.json["vault"] as? String == vault.path)
        let findings = result.findings
        #expect(findings.count == 2)
        let error = try #require(findings.first { $0["code"] as? String == "not-in-enum" })
        #expect(error["severity"] as? String == "error")
        #expect(error["path"] as? String == "Projects/Kettle.md")
        #expect(error["line"] as? Int == 4)
        #expect(error["column"] as? Int == 1)
        #expect((error["message"] as? String)?.contains("someday") == true)
        #expect((error["fix"] as? String)?.contains("`active`") == true)
        let warning = try #require(findings.first { $0["code"] as? String == "legacy-key" })
        #expect(warning["severity"] as? String == "warning")
        #expect(warning["line"] as? Int == 5)
        let summary = try #require(result.data["summary"] as? [String: Any])
        #expect(summary["checkedNotes"] as? Int == 5)
        #expect(summary["errors"] as? Int == 1)
        #expect(summary["notesWithErrors"] as? Int == 1)
        #expect(summary["warnings"] as? Int == 1)
        #expect(summary["infos"] as? Int == 0)
    }

    // MARK: PATH and --type

    @Test func `a file or a folder argument limits the report to those notes`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        try vault.write("Projects/Kettle.md", "---\ntype: project\nid: kettle\nstatus: someday\n---\n")
        try vault.write("Plans/Bad plan.md", "---\ntype: plan\nstatus: whenever\n---\n")
        let file = cli.run(["validate", "Plans/Bad plan.md", "--json"], vault: vault)
        #expect(file.status == 1)
        #expect(file.findingPaths == ["Plans/Bad plan.md"])
        #expect((file.data["summary"] as? [String: Any])?["checkedNotes"] as? Int == 1)
        let folder = cli.run(["validate", "Projects", "--json"], vault: vault)
        #expect(folder.findingPaths == ["Projects/Kettle.md"])
        #expect((folder.data["summary"] as? [String: Any])?["checkedNotes"] as? Int == 2)
        let clean = cli.run(["validate", "Plans/Launch.md"], vault: vault)
        #expect(clean.status == 0, "a clean note in a vault with errors elsewhere passes")
        let both = cli.run(["validate", "Projects/", "./Plans/Bad plan.md", "--json"], vault: vault)
        #expect(Set(both.findingPaths) == ["Projects/Kettle.md", "Plans/Bad plan.md"])
    }

    @Test func `absolute paths and paths relative to the current folder name notes in the vault`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        try vault.write("Plans/Bad plan.md", "---\ntype: plan\nstatus: whenever\n---\n")
        let absolute = cli.run(["validate", vault.url("Plans").path, "--json"], vault: vault)
        #expect(absolute.status == 1)
        #expect(absolute.findingPaths == ["Plans/Bad plan.md"])
        let fromInside = cli.run(["validate", "Bad plan.md", "--json"], vault: vault, in: vault.url("Plans").path)
        #expect(fromInside.findingPaths == ["Plans/Bad plan.md"])
        let dot = cli.run(["validate", ".", "--json"], vault: vault, in: vault.url("Projects").path)
        #expect(dot.status == 0)
        #expect((dot.data["summary"] as? [String: Any])?["checkedNotes"] as? Int == 1)
    }

    @Test func `a path outside the vault or matching no note is a usage error`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        try FileManager.default.createDirectory(at: vault.outside, withIntermediateDirectories: true)
        try Data("---\ntype: project\n---\n".utf8).write(to: vault.outside.appendingPathComponent("Stray.md"))
        let outside = cli.run(["validate", vault.outside.appendingPathComponent("Stray.md").path], vault: vault)
        #expect(outside.status == 2)
        #expect(outside.error.contains("outside the vault"))
        let nothing = cli.run(["validate", "Nowhere/Nothing.md"], vault: vault)
        #expect(nothing.status == 2)
        #expect(nothing.error.contains("Nowhere/Nothing.md"))
        let json = cli.run(["validate", "Nowhere", "--json"], vault: vault)
        #expect(json.status == 2)
        #expect(json.errorCode == "invalid-argument")
        // A prefix of a name is not a folder.
        #expect(cli.run(["validate", "Plans/Laun"], vault: vault).status == 2)
    }

    @Test func `an absolute path through the vault's real location is inside a vault opened through a symlink`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        try vault.write("Plans/Bad plan.md", "---\ntype: plan\nstatus: whenever\n---\n")
        // The same folder under two names, as /tmp and /private/tmp on macOS, or a vault in a symlinked Dropbox.
        let alias = vault.outside.appendingPathComponent("vault-alias")
        try FileManager.default.createDirectory(at: vault.outside, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: alias.path, withDestinationPath: vault.path)
        let viaAlias = cli.run(
            ["validate", vault.url("Plans/Bad plan.md").path, "--json", "--vault", alias.path, "--db", vault.databasePath])
        #expect(viaAlias.status == 1, "\(viaAlias.error)")
        #expect(viaAlias.findingPaths == ["Plans/Bad plan.md"])
        let viaReal = cli.run(["validate", alias.appendingPathComponent("Plans/Bad plan.md").path, "--json"], vault: vault)
        #expect(viaReal.status == 1, "\(viaReal.error)")
        #expect(viaReal.findingPaths == ["Plans/Bad plan.md"])
    }

    @Test func `type limits the report to notes of that type, by schema type or mapped value`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        try vault.write(".rhizome/config.yaml", "version: 1\ntypes:\n  meeting: session\n")
        try vault.write("Projects/Kettle.md", "---\ntype: project\nid: kettle\nstatus: someday\n---\n")
        try vault.write("Meetings/Sync.md", "---\ntype: meeting\ndate: someday\n---\n")
        let projects = cli.run(["validate", "--type", "project", "--json"], vault: vault)
        #expect(projects.status == 1)
        #expect(projects.findingPaths == ["Projects/Kettle.md"])
        #expect((projects.data["summary"] as? [String: Any])?["checkedNotes"] as? Int == 2)
        let people = cli.run(["validate", "--type", "person"], vault: vault)
        #expect(people.status == 0)
        #expect(people.output.contains("0 errors in 0 notes, 0 warnings, 0 for information · 1 typed note checked"))
        let sessions = cli.run(["validate", "--type", "meeting", "--json"], vault: vault)
        #expect(sessions.findingPaths == ["Meetings/Sync.md"])
        #expect(cli.run(["validate", "--type", "session", "--json"], vault: vault).findingPaths == ["Meetings/Sync.md"])
        let unknown = cli.run(["validate", "--type", "recipe"], vault: vault)
        #expect(unknown.status == 2)
        #expect(unknown.error.contains("recipe"))
        #expect(["project", "person", "skill", "daily"].allSatisfy { unknown.error.contains($0) }, "known types are listed")
    }

    @Test func `excluded notes are not validated`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        try vault.write(".rhizome/config.yaml", "version: 1\nexclude: [\"Templates/**\"]\n")
        try vault.write("Templates/Project.md", "---\ntype: project\nstatus: \"{{status}}\"\n---\n")
        let result = cli.run(["validate", "--json"], vault: vault)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.findings.isEmpty)
    }

    // MARK: Schema files and config

    @Test func `an unsupported keyword in a vault schema is a usage error naming the keyword, file and line`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        try vault.write(".rhizome/schemas/recipe.yaml", """
            type: recipe
            description: Something to cook.
            frontmatter:
              type: object
              properties:
                servings:
                  anyOf:
                    - type: integer
                    - type: string
            """)
        let result = cli.run(["validate"], vault: vault)
        #expect(result.status == 2)
        #expect(result.error.contains("`anyOf`"))
        #expect(result.error.contains(".rhizome/schemas/recipe.yaml:7:"), "\(result.error)")
        let json = cli.run(["validate", "--json"], vault: vault)
        #expect(json.status == 2)
        #expect(json.errorCode == "schema-unsupported-keyword")
        #expect(json.errorMessage?.contains("anyOf") == true)
    }

    @Test func `a config newer than this Rhizome is refused with a clear message`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        try vault.write(".rhizome/config.yaml", "version: 2\n")
        let result = cli.run(["validate"], vault: vault)
        #expect(result.status == 2)
        #expect(result.error.contains("config.yaml:1:"), "\(result.error)")
        #expect(result.error.contains("version 2 is newer"))
        #expect(result.error.contains("update Rhizome"))
        let json = cli.run(["validate", "--json"], vault: vault)
        #expect(json.errorCode == "schema-newer-version")
    }

    // MARK: Incremental

    @Test func `validating after an edit reports the edited note's new state`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        #expect(cli.run(["validate"], vault: vault).status == 0)
        try vault.edit("Projects/Rhizome.md", "---\ntype: project\nid: rhizome\nstatus: shelved\n---\n# Rhizome\n")
        let broken = cli.run(["validate", "--json"], vault: vault)
        #expect(broken.status == 1)
        #expect(broken.findingCodes == ["Projects/Rhizome.md: not-in-enum"])
        try vault.edit("Projects/Rhizome.md", "---\ntype: project\nid: rhizome\nstatus: paused\n---\n# Rhizome\n")
        let fixed = cli.run(["validate", "--json"], vault: vault)
        #expect(fixed.status == 0)
        #expect(fixed.findings.isEmpty)
    }

    @Test func `changing a schema file re-validates notes that did not change`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        try vault.write("People/Grace Hopper.md", "---\ntype: person\nname: Grace\nrole: admiral\n---\n")
        let before = try vault.bytes("People/Grace Hopper.md")
        let modified = try FileManager.default.attributesOfItem(atPath: vault.url("People/Grace Hopper.md").path)[.modificationDate] as? Date
        #expect(cli.run(["validate", "--json"], vault: vault).findingCodes == ["People/Grace Hopper.md: not-in-enum"])
        // Widen the enum: the note itself is untouched.
        try vault.write(".rhizome/schemas/person.yaml", TypedVaultFixture.personSchema.replacingOccurrences(of: "[dev, pm]", with: "[dev, pm, admiral]"))
        let widened = cli.run(["validate", "--json"], vault: vault)
        #expect(widened.status == 0, "\(widened.output)")
        #expect(widened.findings.isEmpty)
        // Back again: the stored result must not be reused.
        try vault.write(".rhizome/schemas/person.yaml", TypedVaultFixture.personSchema)
        #expect(cli.run(["validate", "--json"], vault: vault).findingCodes == ["People/Grace Hopper.md: not-in-enum"])
        // A config mapping changes which schema an unchanged note gets.
        try vault.write("Meetings/Sync.md", "---\ntype: meeting\ndate: soon\n---\n")
        #expect(cli.run(["validate", "Meetings", "--json"], vault: vault).findingCodes == ["Meetings/Sync.md: unknown-type"])
        try vault.write(".rhizome/config.yaml", "version: 1\ntypes:\n  meeting: session\n")
        #expect(cli.run(["validate", "Meetings", "--json"], vault: vault).findingCodes == ["Meetings/Sync.md: invalid-format"])
        // Removing the vault schema leaves its notes without one.
        try vault.remove(".rhizome/schemas/person.yaml")
        #expect(cli.run(["validate", "People", "--json"], vault: vault).findingCodes == ["People/Ada Lovelace.md: unknown-type", "People/Grace Hopper.md: unknown-type"])
        #expect(try vault.bytes("People/Grace Hopper.md") == before)
        let after = try FileManager.default.attributesOfItem(atPath: vault.url("People/Grace Hopper.md").path)[.modificationDate] as? Date
        #expect(after == modified)
    }

    // MARK: Vault-wide codes

    @Test func `a duplicate id is reported on both notes, each naming the other`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        try vault.write("Archive/Old Rhizome.md", "---\ntype: project\nstatus: done\nid: rhizome\n---\n")
        let result = cli.run(["validate", "--json"], vault: vault)
        #expect(result.status == 1)
        let duplicates = result.findings.filter { $0["code"] as? String == "duplicate-id" }
        #expect(duplicates.count == 2)
        let current = try #require(duplicates.first { $0["path"] as? String == "Projects/Rhizome.md" })
        let old = try #require(duplicates.first { $0["path"] as? String == "Archive/Old Rhizome.md" })
        #expect((current["message"] as? String)?.contains("Archive/Old Rhizome.md") == true)
        #expect((old["message"] as? String)?.contains("Projects/Rhizome.md") == true)
        #expect(current["line"] as? Int == 3)
        #expect(old["line"] as? Int == 4)
        #expect(current["severity"] as? String == "error")
        // The reference to the shared id is ambiguous now.
        let ambiguous = try #require(result.findings.first { $0["code"] as? String == "ambiguous-reference" })
        #expect(ambiguous["path"] as? String == "Plans/Launch.md")
        let message = try #require(ambiguous["message"] as? String)
        #expect(message.contains("Projects/Rhizome.md") && message.contains("Archive/Old Rhizome.md"))
        // Validating one of the two still shows the other's name.
        let one = cli.run(["validate", "Archive", "--json"], vault: vault)
        #expect(one.findingCodes == ["Archive/Old Rhizome.md: duplicate-id"])
    }

    @Test func `an id that no note has is a broken reference at the value`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        try vault.write("Plans/Orphan plan.md", "---\ntype: plan\nstatus: draft\nproject: nothere\n---\n")
        let result = cli.run(["validate", "--json"], vault: vault)
        #expect(result.status == 1)
        #expect(result.findingCodes == ["Plans/Orphan plan.md: broken-reference"])
        let finding = try #require(result.findings.first)
        #expect(finding["line"] as? Int == 4)
        #expect(finding["column"] as? Int == 10)
        #expect((finding["message"] as? String)?.contains("nothere") == true)
        #expect(finding["fix"] is String)
        // An id close to an existing one gets a did-you-mean.
        try vault.write("Plans/Typo plan.md", "---\ntype: plan\nstatus: draft\nproject: rhizom\n---\n")
        let typo = cli.run(["validate", "Plans/Typo plan.md", "--json"], vault: vault)
        #expect((typo.findings.first?["fix"] as? String)?.contains("`rhizome`") == true)
    }

    @Test func `a link to a missing note in a reference field is a broken reference`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        try vault.write("Plans/Linked plan.md", "---\ntype: plan\nstatus: draft\nproject: \"[[Missing]]\"\nrelated:\n  - \"[[Also Missing]]\"\n  - \"[[Rhizome]]\"\n---\n")
        let result = cli.run(["validate", "--json"], vault: vault)
        #expect(result.status == 1)
        let broken = result.findings.filter { $0["code"] as? String == "broken-reference" }
        #expect(broken.map { "\($0["line"] ?? "-"):\($0["column"] ?? "-")" } == ["4:11", "6:6"], "\(broken)")
        #expect((broken.first?["message"] as? String)?.contains("Missing") == true)
        #expect(result.findings.count == 2, "the link to an existing project is fine")
    }

    @Test func `an id shared by two notes makes a reference ambiguous`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        try vault.write("Projects/Twin A.md", "---\ntype: project\nid: twin\nstatus: active\n---\n")
        try vault.write("Projects/Twin B.md", "---\ntype: project\nid: twin\nstatus: active\n---\n")
        try vault.write("Plans/Twin plan.md", "---\ntype: plan\nstatus: draft\nprojects: [rhizome, twin]\n---\n")
        let result = cli.run(["validate", "Plans", "--json"], vault: vault)
        #expect(result.status == 1)
        #expect(result.findingCodes == ["Plans/Twin plan.md: ambiguous-reference"])
        let finding = try #require(result.findings.first)
        let message = try #require(finding["message"] as? String)
        #expect(message.contains("Projects/Twin A.md") && message.contains("Projects/Twin B.md"))
        #expect(finding["line"] as? Int == 4)
        #expect(finding["column"] as? Int == 21, "the position of `twin` in the flow list")
    }

    @Test func `a reference to a note of another type is reported for ids and for links`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        try vault.write("Decisions/ADR-007 Use SQLite.md", "---\ntype: decision\nid: ADR-007\nstatus: accepted\ndate: 2024-01-31\n---\n")
        try vault.write("Ideas/Graph view.md", "---\ntype: idea\nstatus: seed\n---\n")
        try vault.write("Plans/Wrong plan.md", "---\ntype: plan\nstatus: draft\nproject: ADR-007\n---\n")
        try vault.write("Sessions/Wrong session.md", "---\ntype: session\ndate: 2024-02-01\nplan: \"[[Graph view]]\"\nproject: rhizome\n---\n")
        let result = cli.run(["validate", "--json"], vault: vault)
        #expect(result.status == 1)
        #expect(result.findingCodes == ["Plans/Wrong plan.md: wrong-reference-type", "Sessions/Wrong session.md: wrong-reference-type"])
        let byID = try #require(result.findings.first { $0["path"] as? String == "Plans/Wrong plan.md" })
        let idMessage = try #require(byID["message"] as? String)
        #expect(idMessage.contains("Decisions/ADR-007 Use SQLite.md") && idMessage.contains("`decision`") && idMessage.contains("`project`"))
        #expect(byID["line"] as? Int == 4)
        let byLink = try #require(result.findings.first { $0["path"] as? String == "Sessions/Wrong session.md" })
        let linkMessage = try #require(byLink["message"] as? String)
        #expect(linkMessage.contains("Ideas/Graph view.md") && linkMessage.contains("`idea`") && linkMessage.contains("`plan`"))
        #expect(byLink["line"] as? Int == 4)
        // A reference to `any` type accepts every type.
        try vault.write("Plans/Any plan.md", "---\ntype: plan\nstatus: draft\nrelated: [ADR-007, \"[[Graph view]]\"]\n---\n")
        #expect(cli.run(["validate", "Plans/Any plan.md"], vault: vault).status == 0)
    }

    @Test func `id references are edges for backlinks, neighbors and sql, but not for links --all or unresolved`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        try vault.write("Plans/Dangling.md", "---\ntype: plan\nstatus: draft\nproject: nothere\n---\n[[Missing page]]\n")
        let backlinks = cli.run(["backlinks", "Rhizome", "--json"], vault: vault)
        #expect(backlinks.status == 0)
        let edges = try #require(backlinks.json["data"] as? [[String: Any]])
        #expect(edges.count == 1)
        let edge = try #require(edges.first)
        #expect(edge["source"] as? String == "Plans/Launch.md")
        #expect(edge["kind"] as? String == "property")
        #expect(edge["propertyKey"] as? String == "project")
        #expect(edge["linkPath"] as? String == "rhizome")
        #expect(edge["reference"] as? Bool == true)
        #expect(edge["line"] as? Int == 4 && edge["column"] as? Int == 10)
        let human = cli.run(["backlinks", "Rhizome"], vault: vault)
        #expect(human.output.contains("Plans/Launch.md"))
        let neighbors = cli.run(["neighbors", "Launch", "--direction", "outgoing", "--json"], vault: vault)
        #expect(neighbors.output.contains("\"Projects/Rhizome.md\""), "\(neighbors.output)")
        let sql = cli.run(["sql", "select source, target, kind, property_key, reference from links where reference = 1", "--json"], vault: vault)
        let rows = (sql.data["rows"] as? [[Any]])?.map { $0.map { "\($0)" } }
        #expect(rows == [["Plans/Launch.md", "Projects/Rhizome.md", "property", "project", "1"]], "\(sql.output)")
        // Obsidian's view: links --all and unresolved hold only links Obsidian draws.
        let all = cli.run(["links", "--all", "--json"], vault: vault)
        let links = try #require(all.json["data"] as? [[String: Any]])
        #expect(links.map { $0["linkPath"] as? String } == ["Missing page"])
        #expect(links.allSatisfy { $0["reference"] as? Bool == false })
        let unresolved = cli.run(["unresolved", "--json"], vault: vault)
        #expect(unresolved.status == 1)
        #expect(!unresolved.output.contains("nothere"))
        #expect(unresolved.output.contains("Missing page"))
        // Removing the reference removes the edge.
        try vault.edit("Plans/Launch.md", "---\ntype: plan\nstatus: draft\n---\n# Launch\n")
        #expect((cli.run(["backlinks", "Rhizome", "--json"], vault: vault).json["data"] as? [Any])?.isEmpty == true)
    }

    @Test func `a reference resolves once its target note is created and breaks when it is deleted`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        try vault.write("Plans/Early plan.md", "---\ntype: plan\nstatus: draft\nproject: later\nrelated: \"[[Later note]]\"\n---\n")
        let before = cli.run(["validate", "--json"], vault: vault)
        #expect(before.findingCodes == ["Plans/Early plan.md: broken-reference", "Plans/Early plan.md: broken-reference"])
        // The plan does not change: creating its targets resolves both references.
        try vault.write("Projects/Later.md", "---\ntype: project\nid: later\nstatus: active\n---\n")
        try vault.write("Later note.md", "Now it exists.\n")
        let after = cli.run(["validate", "--json"], vault: vault)
        #expect(after.status == 0, "\(after.output)")
        #expect(after.findings.isEmpty)
        try vault.remove("Projects/Later.md")
        let deleted = cli.run(["validate", "--json"], vault: vault)
        #expect(deleted.status == 1)
        #expect(deleted.findingCodes == ["Plans/Early plan.md: broken-reference"])
        #expect(deleted.findings.first?["line"] as? Int == 4)
        // An id that moves to another note follows it.
        try vault.edit("Projects/Rhizome.md", "---\ntype: project\nid: later\nstatus: active\n---\n# Rhizome\n")
        let moved = cli.run(["validate", "--json"], vault: vault)
        #expect(moved.findingCodes == ["Plans/Launch.md: broken-reference"], "rhizome is gone, later is back")
    }
}

// MARK: - Shared by the schema command tests (validate, fix, new, schema, types)

/// A small typed vault: a vault schema (`person`, strict) beside the built-ins, and three notes that
/// validate clean, one of them referring to another by id.
enum TypedVaultFixture {
    static let personSchema = """
        version: 1
        type: person
        description: Someone the vault's notes mention.
        match:
          values: [people]
        id:
          field: id
          infer: file-name
        keyOrder: [type, id, name, role]
        frontmatter:
          type: object
          required: [type, name]
          additionalProperties: false
          properties:
            type:
              type: string
            id:
              type: string
            name:
              type: string
              description: The person's full name.
            role:
              type: string
              description: What they do here.
              enum: [dev, pm]
              default: dev

        """

    static func make() throws -> TemporaryVault {
        let vault = try TemporaryVault()
        try vault.write(".rhizome/schemas/person.yaml", personSchema)
        try vault.write("Projects/Rhizome.md", "---\ntype: project\nid: rhizome\nstatus: active\n---\n# Rhizome\n")
        try vault.write("Plans/Launch.md", "---\ntype: plan\nstatus: draft\nproject: rhizome\n---\n# Launch\n")
        try vault.write("People/Ada Lovelace.md", "---\ntype: person\nid: ada-lovelace\nname: Ada\n---\n")
        return vault
    }
}

extension CLIHarness {
    /// Runs a command on `vault` with its own index file (never the user's cache).
    func run(_ arguments: [String], vault: TemporaryVault, environment extra: [String: String] = [:], in directory: String? = nil) -> Result {
        run(arguments + ["--vault", vault.path, "--db", vault.databasePath], environment: extra, in: directory)
    }
}

extension CLIHarness.Result {
    /// `data` of the `--json` envelope.
    var data: [String: Any] { json["data"] as? [String: Any] ?? [:] }
    /// `data.findings` of `validate --json`.
    var findings: [[String: Any]] { data["findings"] as? [[String: Any]] ?? [] }
    var findingPaths: [String] { findings.compactMap { $0["path"] as? String } }
    /// `path: code` of each finding, sorted.
    var findingCodes: [String] { findings.map { "\($0["path"] as? String ?? "<vault>"): \($0["code"] as? String ?? "?")" }.sorted() }
    var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
    var errorMessage: String? { (json["error"] as? [String: Any])?["message"] as? String }
    /// Human output lines of the form `path:line:col: severity: …`.
    var diagnosticLines: [String] {
        output.split(separator: "\n").map(String.init).filter { $0.contains(#/^[^ ].*:\d+:\d+: (error|warning|info): /#) }
    }
}

extension TemporaryVault {
    func bytes(_ relativePath: String) throws -> [UInt8] {
        Array(try Data(contentsOf: url(relativePath)))
    }

    /// Rewrites a note and moves its modification time forward, so a refresh sees the change even within
    /// the same second and at the same size.
    func edit(_ relativePath: String, _ text: String) throws {
        let previous = try? FileManager.default.attributesOfItem(atPath: url(relativePath).path)[.modificationDate] as? Date
        try write(relativePath, text)
        try setModificationDate(relativePath, max(previous ?? Date(), Date()).addingTimeInterval(2))
    }
}

/// The bytes after a file's frontmatter block (an optional BOM, a `---` line, lines, a closing `---`
/// line); the whole file when it has none. What `fix` and `types migrate` must never change.
func bodyBytes(_ bytes: [UInt8]) -> [UInt8] {
    var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    func lineEnd(from index: Int) -> Int {
        var end = index
        while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
        return end
    }
    func isFence(_ range: Range<Int>) -> Bool {
        var line = Array(bytes[range])
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        while let last = line.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { line.removeLast() }
        return line == Array("---".utf8)
    }
    let firstEnd = lineEnd(from: start)
    guard isFence(start..<firstEnd), firstEnd < bytes.count else { return bytes }
    start = firstEnd + 1
    while start < bytes.count {
        let end = lineEnd(from: start)
        if isFence(start..<end) { return Array(bytes[min(end + 1, bytes.count)...]) }
        start = end + 1
    }
    return bytes  // unclosed: all body
}
