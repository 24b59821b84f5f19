import Foundation
import Testing
import RhizomeCLI
import RhizomeTestSupport

/// `rhizome index` says what the walk met once: a broken symlink is printed by the run that finds it, not
/// by every run after (`--verbose` and `rhizome findings` still show it), and counts read in the singular.
@Suite struct IndexWarningTests {
    @Test func `a walk warning is printed when new, then only with --verbose`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TemporaryVault()
        try vault.write("Only.md", "# Only\n")
        try vault.symlink("Broken.md", to: vault.outside.appendingPathComponent("gone.md").path)
        let first = cli.run(["index", "--vault", vault.path])
        #expect(first.status == 0, "\(first.error)")
        #expect(first.error.contains("Broken.md"), "\(first.error)")
        #expect(first.output.contains("1 note, 1 file · 0 links (0 unresolved) · 1 finding\n"), "\(first.output)")
        let second = cli.run(["index", "--vault", vault.path])
        #expect(!second.error.contains("Broken.md"), "\(second.error)")
        #expect(second.output.contains("see the findings with `rhizome findings`"))
        #expect(cli.run(["index", "--verbose", "--vault", vault.path]).error.contains("Broken.md"))
        #expect(cli.run(["findings", "--vault", vault.path]).output.contains("Broken.md"))
    }
}
