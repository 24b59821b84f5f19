import Foundation
import Testing
import RhizomeCLI
import RhizomeTestSupport

/// `rhizome index --json` carries every count the text output prints, reference edges included.
@Suite struct IndexJSONTests {
    @Test func `index --json has every count the text shows, reference edges included`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TemporaryVault(copying: Fixtures.repositoryRoot.appendingPathComponent("Vault-Example"))
        let text = cli.run(["index", "--vault", vault.path])
        #expect(text.status == 0, "\(text.error)")
        let edges = try #require(text.output.firstMatch(of: #/ · (\d+) reference edges? · /#).map { Int($0.1)! }, "\(text.output)")
        #expect(edges > 0)
        let json = cli.run(["index", "--json", "--vault", vault.path])
        let data = try #require(AnyJSON.parse(json.output), "\(json.output)")["data"]
        #expect(data.keys == ["added", "database", "files", "findings", "findingsTotal", "links", "milliseconds", "modified", "notes",
                              "referenceEdges", "relinked", "removed", "unchanged", "unresolvedLinks"])
        #expect(data["referenceEdges"] == .number(Double(edges)))
    }
}
