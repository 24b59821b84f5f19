import Foundation
import Testing
import RhizomeCLI
import RhizomeTestSupport

/// `rhizome fix` on real files: dry runs write nothing, `--write` rewrites only frontmatter entries it
/// changes (the body and untouched keys keep their bytes), a second run is a no-op, and symlinks,
/// invalid YAML, excluded paths and file modes are respected. Ends with a round trip over a real vault.
@Suite struct FixCommandTests {
    @Test func `a dry run shows a unified diff and writes nothing`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        try vault.write("Ideas/Legacy.md", "---\ntype: idea\nstatus: seed\ntag: a, b\n---\nBody.\n")
        let before = try vault.bytes("Ideas/Legacy.md")
        let modified = try modificationDate(vault, "Ideas/Legacy.md")
        let result = cli.run(["fix"], vault: vault)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("--- a/Ideas/Legacy.md\n+++ b/Ideas/Legacy.md\n@@ -"))
        #expect(result.output.contains("\n-tag: a, b\n"))
        #expect(result.output.contains("\n+tags:\n+  - a\n+  - b\n"))
        #expect(result.output.contains("1 note would change"))
        #expect(result.output.contains("rhizome fix --write"))
        #expect(try vault.bytes("Ideas/Legacy.md") == before)
        #expect(try modificationDate(vault, "Ideas/Legacy.md") == modified)
        // --json: the same change, not written.
        let json = cli.run(["fix", "--json"], vault: vault)
        let changes = try #require(json.data["changes"] as? [[String: Any]])
        #expect(changes.map { $0["path"] as? String } == ["Ideas/Legacy.md"])
        #expect(changes.first?["written"] as? Bool == false)
        #expect((changes.first?["diff"] as? String)?.contains("+tags:") == true)
        #expect(json.data["wrote"] as? Bool == false)
        #expect(try vault.bytes("Ideas/Legacy.md") == before)
    }

    @Test func `write applies the fixes and the index follows`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        try vault.write("Ideas/Legacy.md", "---\ntype: idea\nstatus: seed\ntag: a, b\n---\nBody.\n")
        #expect(cli.run(["validate", "--json"], vault: vault).findingCodes == ["Ideas/Legacy.md: legacy-key"])
        let result = cli.run(["fix", "--write"], vault: vault)
        #expect(result.status == 0)
        #expect(result.output.contains("fixed 1 note (2 fixes)"), "\(result.output)")
        #expect(try vault.read("Ideas/Legacy.md") == "---\ntype: idea\nstatus: seed\ntags:\n  - a\n  - b\n---\nBody.\n")
        #expect(cli.run(["validate", "--json"], vault: vault).findings.isEmpty)
        let tags = cli.run(["sql", "SELECT tag FROM tags WHERE path = 'Ideas/Legacy.md' ORDER BY tag", "--json"], vault: vault)
        #expect((tags.data["rows"] as? [[Any]])?.compactMap { $0.first as? String } == ["a", "b"], "\(tags.output)")
    }

    @Test func `the body after the frontmatter is kept byte for byte`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        let notes: [String: [UInt8]] = [
            "Ideas/Dashes.md": Array("---\ntype: idea\ntag: x\nstatus: seed\n---\n# Dashes\n\n---\n\nA thematic break above, and a fake fence:\n---\ntype: not-frontmatter\n---\n".utf8),
            "Ideas/CRLF.md": Array("---\r\ntype: idea\r\nstatus: seed\r\ntag: x\r\n---\r\nline one\r\nline two\r\n\r\n---\r\nend\r\n".utf8),
            "Ideas/No newline.md": Array("---\ntype: idea\nstatus: seed\ntag: x\n---\nthe last line has no newline".utf8),
            "Ideas/Unicode.md": Array("---\ntype: idea\nstatus: seed\ntag: x\n---\nCafé 東京 🌿 — Ω\u{0301} \u{200B}zero-width\n".utf8),
            "Ideas/BOM.md": [0xEF, 0xBB, 0xBF] + Array("---\ntype: idea\nstatus: seed\ntag: x\n---\nAfter a byte order mark.\n".utf8),
            "Ideas/Mixed.md": [0xEF, 0xBB, 0xBF] + Array("---\r\ntype: idea\r\ntag: x\r\nstatus: seed\r\n---\r\n---\nmixed\r\nendings\n\tand tabs   \n---".utf8),
            "Projects/Empty body.md": Array("---\ntype: project\nstatus: active\n---".utf8),
            "Projects/No block.md": Array("# A project without frontmatter\n\nJust body.\n".utf8),
        ]
        for (path, bytes) in notes { try vault.write(path, bytes: bytes) }
        let result = cli.run(["fix", "--write", "--populate"], vault: vault)
        #expect(result.status == 0, "\(result.error)")
        for (path, bytes) in notes.sorted(by: { $0.key < $1.key }) {
            let after = try vault.bytes(path)
            #expect(bodyBytes(after) == bodyBytes(bytes), "\(path): the body changed")
            if path.hasPrefix("Ideas/") {
                #expect(after != bytes, "\(path) was not fixed")
                #expect(String(decoding: after, as: UTF8.self).contains("tags:"), "\(path)")
            }
        }
        // The line endings and BOM of the frontmatter itself are kept.
        let crlf = String(decoding: try vault.bytes("Ideas/CRLF.md"), as: UTF8.self)
        #expect(crlf.hasPrefix("---\r\ntype: idea\r\nstatus: seed\r\ntags:\r\n  - x\r\n---\r\n"), "\(crlf.debugDescription)")
        #expect(try vault.bytes("Ideas/BOM.md").starts(with: [0xEF, 0xBB, 0xBF, UInt8(ascii: "-")]))
        #expect(try vault.read("Projects/Empty body.md") == "---\ntype: project\nid: empty-body\nstatus: active\n---")
    }

    @Test func `untouched keys keep their exact text, comments and quoting`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        let untouched = [
            "title: 'Café: the \"culture\" one'   # a comment after a value",
            "# a comment line of its own",
            "owner:    \"Jane\"",
            "aliases: [ Café ,  \"Coffee house\" ]",
            "repo: >-",
            "  folded text",
            "  over two lines",
            "",
            "custom_key: {nested: [1, 2], 'quoted key': yes}",
        ]
        let text = "---\ntype: project\n" + untouched.joined(separator: "\n") + "\ntag: coffee\nstatus: active\n---\nBody.\n"
        try vault.write("Projects/Café.md", text)
        let result = cli.run(["fix", "--write", "--populate"], vault: vault)
        #expect(result.status == 0)
        let after = try vault.read("Projects/Café.md")
        #expect(after != text)
        let lines = after.components(separatedBy: "\n")
        for line in untouched where !line.isEmpty {
            #expect(lines.contains(line), "lost or rewritten: \(line)\n\(after)")
        }
        #expect(after.contains("repo: >-\n  folded text\n  over two lines\n"))
        #expect(after.contains("\nid: cafe-the-culture-one\n"), "a project's id is inferred from its title")
        #expect(after.contains("\ntags:\n  - coffee\n"))
        #expect(!after.contains("\ntag:"))
    }

    @Test func `running fix --write twice changes nothing the second time`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        try vault.write("Ideas/Messy.md", "---\nstatus: seed\ntag: '#one, two'\nalias: First, Second\ncssclass: wide\ntype: idea\ncreated: 2024/1/5\nrelated: [[Other]]\n---\nBody\n")
        try vault.write("Projects/Loose.md", "---\nowner: Jane\ntype: projects\nstarted: \"20240105\"\n---\n")
        try vault.write("People/Bob.md", "---\nname: Bob\ntype: person\nextra: 1\n---\n")
        let first = cli.run(["fix", "--write", "--populate", "--unsafe"], vault: vault)
        #expect(first.status == 0)
        // The three messy notes, plus ids and defaults for the fixture's plan and person.
        #expect(first.output.contains("fixed 5 notes"), "\(first.output)")
        let paths = ["Ideas/Messy.md", "Projects/Loose.md", "People/Bob.md", "Projects/Rhizome.md", "Plans/Launch.md", "People/Ada Lovelace.md"]
        let snapshot = try paths.map { try vault.bytes($0) }
        let second = cli.run(["fix", "--write", "--populate", "--unsafe"], vault: vault)
        #expect(second.status == 0)
        #expect(second.output.trimmingCharacters(in: .whitespacesAndNewlines) == "nothing to fix", "\(second.output)")
        #expect(try paths.map { try vault.bytes($0) } == snapshot)
        let dryRun = cli.run(["fix", "--populate", "--unsafe", "--json"], vault: vault)
        #expect((dryRun.data["changes"] as? [Any])?.isEmpty == true)
        // What the first run wrote is what the schema wants.
        let messy = try vault.read("Ideas/Messy.md")
        #expect(messy.contains("created: 2024-01-05"))
        #expect(messy.contains("related: \"[[Other]]\""))
        #expect(messy.contains("tags:\n  - one\n  - two"))
        #expect(messy.contains("aliases:\n  - First\n  - Second"))
        #expect(messy.contains("cssclasses:"))
        #expect(messy.hasPrefix("---\ntype: idea\n"), "keys in the schema's order")
        #expect(try vault.read("Projects/Loose.md").contains("started: 2024-01-05"))
    }

    @Test func `an unquoted compact date, which YAML reads as a number, is written as YYYY-MM-DD`() throws {
        // docs/SCHEMAS.md lists `20240105` among the dates fix rewrites; unquoted, as people type it, YAML
        // reads it as the integer 20240105, and validate reports it as the wrong type for a date field.
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        try vault.write("Projects/Compact.md", "---\ntype: project\nid: compact\nstatus: active\nstarted: 20240105\n---\n")
        #expect(cli.run(["validate", "--json"], vault: vault).findingCodes == ["Projects/Compact.md: wrong-type"])
        let result = cli.run(["fix", "--write"], vault: vault)
        #expect(result.status == 0)
        #expect(try vault.read("Projects/Compact.md") == "---\ntype: project\nid: compact\nstatus: active\nstarted: 2024-01-05\n---\n")
        #expect(cli.run(["validate", "--json"], vault: vault).findings.isEmpty)
    }

    @Test func `populate adds defaults and inferred ids, but not placeholder defaults`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        try vault.write("Projects/Café Culture!.md", "---\ntype: project\n---\n")
        try vault.write("Plans/Plan file.md", "---\ntype: plan\ntitle: Big Launch\n---\n")
        try vault.write("Decisions/ADR-012 Use WAL.md", "---\ntype: decision\nstatus: accepted\ndate: 2024-03-01\n---\n")
        try vault.write("People/Grace Hopper.md", "---\ntype: person\nname: Grace\n---\n")
        let without = cli.run(["fix", "--write"], vault: vault)
        #expect(without.output.contains("nothing to fix"), "populating is opt-in: \(without.output)")
        let result = cli.run(["fix", "--write", "--populate"], vault: vault)
        #expect(result.status == 0)
        #expect(try vault.read("Projects/Café Culture!.md") == "---\ntype: project\nid: cafe-culture\nstatus: active\n---\n")
        let plan = try vault.read("Plans/Plan file.md")
        #expect(plan.contains("\nid: big-launch\n"), "a plan's id comes from its title: \(plan)")
        #expect(plan.contains("\nstatus: draft\n"))
        #expect(!plan.contains("created:"), "`{{date}}` is not true of an old note")
        #expect(try vault.read("Decisions/ADR-012 Use WAL.md").contains("\nid: adr-012-use-wal\n"))
        #expect(try vault.read("People/Grace Hopper.md") == "---\ntype: person\nid: grace-hopper\nname: Grace\nrole: dev\n---\n")
        let validate = cli.run(["validate", "--json"], vault: vault)
        #expect(validate.status == 0, "\(validate.findingCodes)")
    }

    @Test func `unsafe removes unknown keys only where the schema is strict`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        try vault.write("People/Bob.md", "---\ntype: person\nname: Bob\nshoe_size: 44\n---\n")
        try vault.write("Projects/Open.md", "---\ntype: project\nid: open\nstatus: active\nshoe_size: 44\n---\n")
        let safe = cli.run(["fix", "--write"], vault: vault)
        #expect(safe.status == 0)
        #expect(try vault.read("People/Bob.md").contains("shoe_size: 44"), "only --unsafe removes keys")
        let unsafe = cli.run(["fix", "--write", "--unsafe"], vault: vault)
        #expect(unsafe.status == 0)
        #expect(try vault.read("People/Bob.md") == "---\ntype: person\nname: Bob\n---\n")
        #expect(try vault.read("Projects/Open.md") == "---\ntype: project\nid: open\nstatus: active\nshoe_size: 44\n---\n")
        #expect(cli.run(["validate", "--json"], vault: vault).findings.isEmpty)
    }

    @Test func `legacy keys are renamed on every note, typed or not`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        try vault.write("Loose note.md", "---\ntag: reading\nalias: The Book, Le Livre\ncssclass: wide\nrating: 5\n---\nBody\n")
        try vault.write("Both.md", "---\ntag: old\ntags: [new]\n---\n")
        let result = cli.run(["fix", "--write"], vault: vault)
        #expect(result.status == 0)
        #expect(try vault.read("Loose note.md") == "---\ntags:\n  - reading\naliases:\n  - The Book\n  - Le Livre\ncssclasses:\n  - wide\nrating: 5\n---\nBody\n")
        #expect(try vault.read("Both.md") == "---\ntag: old\ntags: [new]\n---\n", "values are never merged silently")
        let aliases = cli.run(["sql", "SELECT alias FROM aliases WHERE path = 'Loose note.md' ORDER BY alias", "--json"], vault: vault)
        #expect((aliases.data["rows"] as? [[Any]])?.compactMap { $0.first as? String } == ["Le Livre", "The Book"])
    }

    @Test func `a legacy key written twice is merged or left alone, never turned into a duplicate tags key`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        let original = "---\ntype: idea\nstatus: seed\ntag: first\ntag: second\n---\n"
        try vault.write("Ideas/Twice.md", original)
        let result = cli.run(["fix", "--write"], vault: vault)
        #expect(result.status == 0)
        let after = try vault.read("Ideas/Twice.md")
        if after != original {
            let keyLines = after.components(separatedBy: "\n").filter { $0.hasPrefix("tags:") || $0.hasPrefix("tag:") }
            #expect(keyLines.count == 1, "one `tags` key, not a duplicate:\n\(after)")
            #expect(after.contains("first") && after.contains("second"), "no value dropped:\n\(after)")
            #expect(!cli.run(["validate", "--json"], vault: vault).findingCodes.contains("Ideas/Twice.md: duplicate-key"))
        }
    }

    @Test func `a note whose file name is in decomposed Unicode (NFD) is fixed in place`() throws {
        // Files synced from a Mac often have NFD names; Rhizome indexes them under their NFC path, and must
        // still find the file on disk when it rewrites it.
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        let onDisk = "Ideas/Cafe\u{0301} ideas.md"
        try vault.write(onDisk, "---\ntype: idea\nstatus: seed\ntag: coffee\n---\nBody\n")
        let result = cli.run(["fix", "--write"], vault: vault)
        #expect(result.status == 0)
        #expect(result.error.isEmpty, "\(result.error)")
        #expect(result.output.contains("fixed 1 note"), "\(result.output)")
        #expect(String(decoding: Array(try Data(contentsOf: vault.url(onDisk))), as: UTF8.self) == "---\ntype: idea\nstatus: seed\ntags:\n  - coffee\n---\nBody\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: vault.url("Ideas").path).count == 1, "no second file under the NFC name")
    }

    @Test func `flow-style frontmatter is left as it is, without a warning on every run`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        let flow = "---\n{type: idea, status: seed, tag: x}\n---\nBody\n"
        try vault.write("Ideas/Flow.md", flow)
        let result = cli.run(["fix", "--write", "--populate"], vault: vault)
        #expect(result.status == 0)
        #expect(!result.error.contains("Ideas/Flow.md"), "\(result.error)")
        #expect(try vault.read("Ideas/Flow.md") == flow)
    }

    @Test func `the body helper these tests rely on separates frontmatter from body`() {
        #expect(bodyBytes(Array("---\na: 1\n---\nbody\n".utf8)) == Array("body\n".utf8))
        #expect(bodyBytes([0xEF, 0xBB, 0xBF] + Array("---\r\na: 1\r\n---\r\n---\r\nx".utf8)) == Array("---\r\nx".utf8))
        #expect(bodyBytes(Array("---\na: 1\n---".utf8)) == [])
        #expect(bodyBytes(Array("no frontmatter\n---\n".utf8)) == Array("no frontmatter\n---\n".utf8))
        #expect(bodyBytes(Array("---\nunclosed\n".utf8)) == Array("---\nunclosed\n".utf8))
        #expect(bodyBytes(Array("---\na: 1\n---\nX".utf8)) != bodyBytes(Array("---\na: 1\n---\nY".utf8)))
    }

    @Test func `a symlinked note is fixed through its target and stays a symlink`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        let target = try vault.write("Archive/Shared idea.md", "---\ntype: idea\nstatus: seed\ntag: shared\n---\nShared body\n")
        try vault.symlink("Ideas/Shared idea.md", to: target.path)
        let result = cli.run(["fix", "--write", "Ideas"], vault: vault)
        #expect(result.status == 0, "\(result.error)")
        let link = try FileManager.default.destinationOfSymbolicLink(atPath: vault.url("Ideas/Shared idea.md").path)
        #expect(link == target.path)
        #expect(try String(contentsOf: target, encoding: .utf8) == "---\ntype: idea\nstatus: seed\ntags:\n  - shared\n---\nShared body\n")
        let folderEntries = try FileManager.default.contentsOfDirectory(atPath: vault.url("Ideas").path).filter { $0.hasPrefix(".") }
        #expect(folderEntries.isEmpty, "no temporary file left beside the link")
        #expect(cli.run(["fix", "Ideas"], vault: vault).output.contains("nothing to fix"))
    }

    @Test func `a note and a symlink to it in the vault are fixed once, under the note's own name`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        // The link sorts before its target, and after it: either way one rewrite of the file.
        let target = try vault.write("Ideas/Shared idea.md", "---\ntype: idea\nstatus: seed\ntag: shared\n---\nShared body\n")
        try vault.symlink("Archive/Alias.md", to: "../Ideas/Shared idea.md")
        try vault.symlink("Links/Zeta alias.md", to: "../Ideas/Shared idea.md")
        let result = cli.run(["fix", "--write"], vault: vault)
        #expect(result.status == 0, "twice the same file in one change: \(result.error)")
        #expect(result.output.contains("fixed 1 note"), "\(result.output)")
        #expect(try String(contentsOf: target, encoding: .utf8) == "---\ntype: idea\nstatus: seed\ntags:\n  - shared\n---\nShared body\n")
        for link in ["Archive/Alias.md", "Links/Zeta alias.md"] {
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: vault.url(link).path) == "../Ideas/Shared idea.md")
        }
        #expect(cli.run(["fix"], vault: vault).output.contains("nothing to fix"))
    }

    @Test func `a symlink to a note outside the vault is reported and its target left alone`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        try FileManager.default.createDirectory(at: vault.outside, withIntermediateDirectories: true)
        let target = vault.outside.appendingPathComponent("Shared idea.md")
        let original = "---\ntype: idea\nstatus: seed\ntag: shared\n---\nShared body\n"
        try Data(original.utf8).write(to: target)
        try vault.symlink("Ideas/Shared idea.md", to: target.path)
        let dryRun = cli.run(["fix", "Ideas/Shared idea.md"], vault: vault)
        #expect(dryRun.error.contains("outside the vault"), "the dry run says what --write would refuse")
        let result = cli.run(["fix", "--write", "Ideas/Shared idea.md"], vault: vault)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.contains("outside the vault"))
        #expect(try String(contentsOf: target, encoding: .utf8) == original)
    }

    @Test func `a note with invalid YAML is skipped with a warning and left unchanged`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        let broken = "---\ntype: idea\ntag: x\ntitle: [unclosed\n---\nBody\n"
        try vault.write("Ideas/Broken.md", broken)
        try vault.write("Ideas/Fine.md", "---\ntype: idea\nstatus: seed\ntag: y\n---\n")
        let result = cli.run(["fix", "--write", "--populate"], vault: vault)
        #expect(result.status == 0)
        #expect(result.error.contains("warning: Ideas/Broken.md: not fixed"), "\(result.error)")
        #expect(result.error.contains("line 5") || result.error.contains("line 4"), "the YAML error is located: \(result.error)")
        #expect(try vault.read("Ideas/Broken.md") == broken)
        #expect(try vault.read("Ideas/Fine.md").contains("tags:"))
        let json = cli.run(["fix", "--json"], vault: vault)
        let skipped = try #require(json.data["skipped"] as? [[String: Any]])
        #expect(skipped.compactMap { $0["path"] as? String } == ["Ideas/Broken.md"])
    }

    @Test func `excluded paths are never touched`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        try vault.write(".rhizome/config.yaml", "version: 1\nexclude: [\"Templates/**\"]\n")
        let template = "---\ntype: project\ntag: \"{{tag}}\"\nstatus:\n---\n# {{title}}\n"
        try vault.write("Templates/Project.md", template)
        let result = cli.run(["fix", "--write", "--populate", "--unsafe"], vault: vault)
        #expect(result.status == 0)
        #expect(try vault.read("Templates/Project.md") == template)
        // Naming it explicitly does not override the exclusion.
        _ = cli.run(["fix", "Templates/Project.md", "--write"], vault: vault)
        #expect(try vault.read("Templates/Project.md") == template)
    }

    @Test func `a path argument limits fix to those notes`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        try vault.write("Ideas/One.md", "---\ntype: idea\nstatus: seed\ntag: x\n---\n")
        try vault.write("Ideas/Two.md", "---\ntype: idea\nstatus: seed\ntag: x\n---\n")
        let result = cli.run(["fix", "Ideas/One.md", "--write"], vault: vault)
        #expect(result.status == 0)
        #expect(try vault.read("Ideas/One.md").contains("tags:"))
        #expect(try vault.read("Ideas/Two.md").contains("tag: x"))
        #expect(cli.run(["fix", "Nowhere"], vault: vault).status == 2)
    }

    @Test func `the file mode is preserved`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TypedVaultFixture.make()
        try vault.write("Ideas/Private.md", "---\ntype: idea\nstatus: seed\ntag: x\n---\n")
        try vault.write("Ideas/Script.md", "---\ntype: idea\nstatus: seed\ntag: y\n---\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: vault.url("Ideas/Private.md").path)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: vault.url("Ideas/Script.md").path)
        let result = cli.run(["fix", "--write"], vault: vault)
        #expect(result.output.contains("fixed 2 notes"))
        #expect(try permissions(vault, "Ideas/Private.md") == 0o600)
        #expect(try permissions(vault, "Ideas/Script.md") == 0o755)
    }

    // MARK: A real vault

    @Test(.enabled(if: Fixtures.corpus("obsidian-hub") != nil, "../shared/corpora/obsidian-hub is absent (only CI and developers have it)"))
    func `fix --write --populate over the obsidian hub keeps every body and is idempotent`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try WritableCopy(of: Fixtures.corpus("obsidian-hub")!)
        // Type two large folders by path so that fix has real work: ids inferred, defaults added, keys reordered.
        try vault.write(".rhizome/schemas/member.yaml", """
            type: member
            description: A community member's page.
            match:
              paths: ["01 - Community/People/**"]
            id:
              field: id
              infer: file-name
            keyOrder: [id, publish, role, aliases, tags]
            frontmatter:
              type: object
              properties:
                role: {type: string, default: member}
                aliases: {type: array, items: {type: string}}
                publish: {type: boolean}

            """)
        try vault.write(".rhizome/schemas/plugin.yaml", """
            type: plugin
            description: A community plugin's page.
            match:
              paths: ["02 - Community Expansions/02.05 All Community Expansions/Plugins/**"]
            id:
              field: plugin-id
              infer: file-name
            keyOrder: [plugin-id, publish, status, aliases, tags]
            frontmatter:
              type: object
              properties:
                status: {type: string, default: listed}
                tags: {type: [array, "null"]}

            """)
        let before = try vault.markdownFiles()
        #expect(before.count > 6_000)
        let first = cli.run(["fix", "--write", "--populate"], vault: vault.vault)
        #expect(first.status == 0, "\(first.error.prefix(2_000))")
        let after = try vault.markdownFiles()
        #expect(after.keys.sorted() == before.keys.sorted(), "fix creates and removes no file")
        var changed = 0
        var bodyChanges: [String] = []
        for (path, bytes) in before {
            let now = try #require(after[path])
            if now != bytes { changed += 1 }
            if bodyBytes(now) != bodyBytes(bytes) { bodyChanges.append(path) }
        }
        #expect(bodyChanges.isEmpty, "bodies changed: \(bodyChanges.prefix(10))")
        #expect(changed > 3_000, "the schemas gave fix work to do (\(changed) files changed)")
        #expect(first.output.contains("fixed \(changed) notes"))
        // Invalid YAML is reported, never rewritten (15 such notes in this vault).
        #expect(first.error.components(separatedBy: "\n").filter { $0.hasPrefix("warning: ") && $0.contains("not fixed") }.count == 15)
        let kepano = "01 - Community/People/kepano.md"
        #expect(after[kepano] == before[kepano])
        // Idempotent.
        let second = cli.run(["fix", "--write", "--populate"], vault: vault.vault)
        #expect(second.status == 0)
        #expect(second.output.hasPrefix("nothing to fix"), "\(second.output.prefix(2_000))")
        #expect(try vault.markdownFiles() == after)
    }

    @Test(.enabled(if: Fixtures.corpus("obsidian-hub") != nil, "../shared/corpora/obsidian-hub is absent (only CI and developers have it)"))
    func `fix --write --populate over the obsidian hub without schemas changes no body`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try WritableCopy(of: Fixtures.corpus("obsidian-hub")!)
        let before = try vault.markdownFiles()
        let first = cli.run(["fix", "--write", "--populate"], vault: vault.vault)
        #expect(first.status == 0)
        let after = try vault.markdownFiles()
        #expect(after.keys.sorted() == before.keys.sorted())
        let bodyChanges = before.filter { bodyBytes(after[$0.key] ?? []) != bodyBytes($0.value) }.map(\.key)
        #expect(bodyChanges.isEmpty, "bodies changed: \(bodyChanges.prefix(10))")
        let second = cli.run(["fix", "--write", "--populate"], vault: vault.vault)
        #expect(second.output.hasPrefix("nothing to fix"), "\(second.output.prefix(2_000))")
        #expect(try vault.markdownFiles() == after)
    }

    // MARK: Helpers

    private func modificationDate(_ vault: TemporaryVault, _ path: String) throws -> Date? {
        try FileManager.default.attributesOfItem(atPath: vault.url(path).path)[.modificationDate] as? Date
    }

    private func permissions(_ vault: TemporaryVault, _ path: String) throws -> Int? {
        (try FileManager.default.attributesOfItem(atPath: vault.url(path).path)[.posixPermissions] as? NSNumber)?.intValue
    }
}

/// A corpus copied into a temporary vault and made writable (the shared corpora are read-only, and a
/// copy keeps their modes), so that `fix --write` can replace files and the copy can be removed.
struct WritableCopy {
    let vault: TemporaryVault

    init(of source: URL) throws {
        vault = try TemporaryVault(copying: source)
        try Self.makeWritable(vault.root)
    }

    func write(_ relativePath: String, _ text: String) throws { try vault.write(relativePath, text) }

    /// Every `.md` file's bytes by vault-relative path (dot folders skipped, as Rhizome does).
    func markdownFiles() throws -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        let root = vault.root.standardizedFileURL.path
        guard let enumerator = FileManager.default.enumerator(at: vault.root, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles]) else { return files }
        for case let url as URL in enumerator where url.pathExtension == "md" {
            let path = url.standardizedFileURL.path
            files[String(path.dropFirst(root.count + 1))] = Array(try Data(contentsOf: url))
        }
        return files
    }

    private static func makeWritable(_ root: URL) throws {
        let manager = FileManager.default
        try manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: root.path)
        guard let enumerator = manager.enumerator(atPath: root.path) else { return }
        for case let relative as String in enumerator {
            let path = root.appendingPathComponent(relative).path
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            try manager.setAttributes([.posixPermissions: isDirectory.boolValue ? 0o755 : 0o644], ofItemAtPath: path)
        }
    }
}
