import Foundation
import Testing
import RhizomeCLI
import RhizomeCore
import RhizomeTestSupport

/// From an answer to the note: `rhizome open` (in `$EDITOR` at a line, in Obsidian, or as a URI), NOTE
/// arguments pasted as links or Obsidian URIs, and `new` refusing folders Obsidian does not see.
@Suite struct OpenAndPastedNoteTests {
    func vault() throws -> TemporaryVault {
        let vault = try TemporaryVault()
        try vault.write("Projects/Café Culture.md", "# Café Culture\n\nSee [[Inbox]].\n")
        try vault.write("Inbox.md", "# Inbox\n")
        return vault
    }

    /// A script that records its arguments, one per line, in `log`.
    func recorder(_ name: String, log: URL, in folder: URL) throws -> String {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent(name).path
        try writeExecutableScript("#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > '\(log.path)'\n", to: path)
        return path
    }

    @Test func `open runs the editor at the line, with the note's file`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try vault()
        let log = vault.outside.appendingPathComponent("editor.log")
        let editor = try recorder("fake-editor", log: log, in: vault.outside)
        // $EDITOR may carry its own arguments, as git allows.
        let result = cli.run(["open", "Café Culture", "--line", "3", "--vault", vault.path], environment: ["EDITOR": editor + " --wait"])
        #expect(result.status == 0, "\(result.error)")
        let arguments = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(arguments == ["--wait", "+3", vault.path + "/Projects/Café Culture.md"])
    }

    @Test func `without an editor open says how to set one and exits 2`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try vault()
        let result = cli.run(["open", "Inbox", "--vault", vault.path], environment: ["EDITOR": "", "VISUAL": ""])
        #expect(result.status == 2)
        #expect(result.error.contains("set $EDITOR"), "\(result.error)")
    }

    @Test func `the Obsidian URI names the vault by its folder and the note by its path`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try vault()
        let folder = VaultPath.fileName(of: vault.path)
        let result = cli.run(["open", "[[Café Culture|the café]]", "--print-uri", "--vault", vault.path])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == "obsidian://open?vault=\(folder)&file=Projects%2FCaf%C3%A9%20Culture\n")
        // --app hands the same URI to the system's opener.
        let log = vault.outside.appendingPathComponent("opener.log")
        let bin = vault.outside.appendingPathComponent("bin")
        #if os(macOS)
        _ = try recorder("open", log: log, in: bin)
        #else
        _ = try recorder("xdg-open", log: log, in: bin)
        #endif
        let app = cli.run(["open", "Café Culture", "--app", "--vault", vault.path], environment: ["PATH": bin.path + ":/usr/bin:/bin"])
        #expect(app.status == 0, "\(app.error)")
        #expect(try String(contentsOf: log, encoding: .utf8) == result.output)
    }

    @Test(arguments: [
        "[[Café Culture]]", "![[Café Culture]]", "[[Café Culture#Heading|alias]]", "[[Projects/Café Culture\\|alias]]",
        "[text](Projects/Caf%C3%A9%20Culture.md)", "[text](<Projects/Café Culture.md> \"title\")",
        "obsidian://open?vault=Notes&file=Projects%2FCaf%C3%A9%20Culture",
    ])
    func `a NOTE pasted as a link or an Obsidian URI names the note`(argument: String) throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try vault()
        let result = cli.run(["note", argument, "--vault", vault.path])
        #expect(result.status == 0, "\(argument): \(result.error)")
        #expect(result.output.hasPrefix("Projects/Café Culture.md\n"), "\(argument): \(result.output)")
    }

    @Test func `a pasted link to no note is not found, with suggestions from its name`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try vault()
        let result = cli.run(["note", "[[Cafe Cultur]]", "--vault", vault.path])
        #expect(result.status == 2)
        #expect(result.error.contains("no note matches `[[Cafe Cultur]]`"), "\(result.error)")
    }

    @Test(arguments: [".obsidian", ".trash", ".hidden/drafts"])
    func `new refuses folders Obsidian does not see`(folder: String) throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try vault()
        let result = cli.run(["new", "idea", "--title", "Hidden", "--folder", folder, "--vault", vault.path])
        #expect(result.status == 2, "\(folder): \(result.output)\(result.error)")
        #expect(!FileManager.default.fileExists(atPath: vault.url(folder + "/Hidden.md").path))
    }
}
