import Foundation
import Testing
import RhizomeCLI
import RhizomeTestSupport

/// Shell completion: `rhizome completions SHELL` prints a script that asks Rhizome for NOTE arguments,
/// and note names come from the index, read-only, without a walk.
@Suite struct CompletionTests {
    @Test(arguments: ["bash", "zsh", "fish"])
    func `each shell gets a script that completes note names through rhizome`(shell: String) throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let result = cli.run(["completions", shell])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("rhizome"))
        #expect(result.output.contains("---completion"), "the script calls back for NOTE arguments")
    }

    @Test func `an unknown shell is a usage error`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        #expect(cli.run(["completions", "powershell"]).status == 2)
    }

    @Test func `note names complete from the index, by name or by path, without touching the vault`() throws {
        let vault = try TemporaryVault()
        try vault.write("Projects/Café Culture.md", "# Café\n")
        try vault.write("Projects/Cabinet.md", "# Cabinet\n")
        try vault.write("Inbox.md", "# Inbox\n")
        try vault.write("Assets/cat.png", "png")
        _ = try vault.index()
        let words = ["rhizome", "note", "--vault", vault.path, "--db", vault.databasePath]
        #expect(NoteCompletion.candidates(words: words, prefix: "ca", environment: [:]) == ["Cabinet", "Café Culture"])
        #expect(NoteCompletion.candidates(words: words, prefix: "Projects/Caf", environment: [:]) == ["Projects/Café Culture"])
        #expect(NoteCompletion.candidates(words: words, prefix: "", environment: [:]).count == 3)
        // A note added since the last index is not offered: completion never walks the vault.
        try vault.write("Cactus.md", "# Cactus\n")
        #expect(!NoteCompletion.candidates(words: words, prefix: "ca", environment: [:]).contains("Cactus"))
        // No index, or no vault: nothing, and no error.
        #expect(NoteCompletion.candidates(words: ["rhizome", "note", "--vault", vault.path, "--db", vault.scratchDatabasePath()], prefix: "ca", environment: [:]).isEmpty)
        #expect(NoteCompletion.candidates(words: ["rhizome", "note"], prefix: "ca", environment: [:], currentDirectory: "/").isEmpty)
    }
}
