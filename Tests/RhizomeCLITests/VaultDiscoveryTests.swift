import Foundation
import Testing
import RhizomeCLI
import RhizomeTestSupport

/// The four ways to name a vault, in order, and the error when there is none.
@Suite struct VaultDiscoveryTests {
    private func vaultPath(of result: CLIHarness.Result) -> String? {
        result.json["vault"] as? String
    }

    @Test func theOptionWinsOverEnvironmentVariables() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let chosen = try TemporaryVault()
        let other = try TemporaryVault()
        let result = cli.run(["stats", "--json", "--vault", chosen.path], environment: ["RHIZOME_VAULT": other.path])
        #expect(vaultPath(of: result) == chosen.path)
    }

    @Test func rhizomeVaultThenObsidianVault() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let first = try TemporaryVault()
        let second = try TemporaryVault()
        #expect(vaultPath(of: cli.run(["stats", "--json"], environment: ["RHIZOME_VAULT": first.path, "OBSIDIAN_VAULT": second.path])) == first.path)
        #expect(vaultPath(of: cli.run(["stats", "--json"], environment: ["OBSIDIAN_VAULT": second.path])) == second.path)
    }

    @Test func thePointerFileInHome() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TemporaryVault()
        try Data("\(vault.path)\n".utf8).write(to: cli.home.appendingPathComponent(".obsidian-vault"))
        #expect(vaultPath(of: cli.run(["stats", "--json"])) == vault.path)
    }

    @Test func theNearestFolderWithObsidianAboveTheCurrentOne() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TemporaryVault()
        try vault.write("Deep/Er/Note.md", "x")
        #expect(vaultPath(of: cli.run(["stats", "--json"], in: vault.url("Deep/Er").path)) == vault.path)
    }

    @Test func noVaultListsTheFourWays() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let result = cli.run(["stats"], in: cli.home.path)
        #expect(result.status == 2)
        for way in ["--vault PATH", "RHIZOME_VAULT", "~/.obsidian-vault", ".obsidian/"] {
            #expect(result.error.contains(way), "\(way)")
        }
        let json = cli.run(["stats", "--json"], in: cli.home.path)
        #expect((json.json["error"] as? [String: Any])?["code"] as? String == "vault-not-found")
    }

    @Test func aMissingVaultFolderIsAClearError() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let result = cli.run(["index", "--vault", cli.home.path + "/nowhere"])
        #expect(result.status == 2)  // a mistyped path is a usage error
        #expect(result.error.contains("there is no folder at \(cli.home.path)/nowhere"))
        let json = cli.run(["index", "--vault", cli.home.path + "/nowhere", "--json"])
        #expect((json.json["error"] as? [String: Any])?["code"] as? String == "vault-missing")
    }
}
