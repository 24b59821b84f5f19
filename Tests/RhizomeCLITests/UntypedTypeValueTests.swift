import Foundation
import Testing
import RhizomeCLI
import RhizomeTestSupport

/// Vaults that use `type:` for their own purposes (kepano's widely copied vault: `type: ["[[Cities]]"]`)
/// are not broken: such notes are untyped, `validate` passes, and one info finding per note says why.
@Suite struct UntypedTypeValueTests {
    @Test func `a vault whose type property lists links validates cleanly`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TemporaryVault()
        for city in ["Lisbon", "Kyoto", "Oaxaca"] {
            try vault.write("Places/\(city).md", "---\ntype:\n  - \"[[Cities]]\"\nrating: 7\n---\n# \(city)\n")
        }
        try vault.write("Cities.md", "---\ntype:\n  - \"[[Categories]]\"\n---\n")
        let result = cli.run(["validate", "--vault", vault.path, "--json"])
        #expect(result.status == 0, "\(result.output)\(result.error)")
        let findings = try #require((result.json["data"] as? [String: Any])?["findings"] as? [[String: Any]])
        #expect(findings.count == 4)
        #expect(Set(findings.compactMap { $0["code"] as? String }) == ["untyped-type-value"])
        #expect(Set(findings.compactMap { $0["severity"] as? String }) == ["info"])
        // The links in `type` are links all the same: the graph is Obsidian's.
        #expect(cli.run(["backlinks", "Cities", "--vault", vault.path]).output.contains("Lisbon"))
    }
}
