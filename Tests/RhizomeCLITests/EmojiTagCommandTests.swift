import Foundation
import Testing
import RhizomeCLI
import RhizomeTestSupport

/// Emoji and symbol tags end to end: kepano's Evergreen template (`tags: [0🌲]`) and inline `#📚books`
/// are listed by `tags`, found by `query`, and `validate` has nothing to say about them.
@Suite struct EmojiTagCommandTests {
    @Test func `emoji tags are listed, queried and valid`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TemporaryVault()
        try vault.write("Evergreen.md", "---\ntags: [0🌲]\n---\n# Evergreen\nReading list #📚books, done #✅done → next #→arrow.\n")
        try vault.write("Other.md", "Not tags: a#b (#paren) #1984\n")
        let listed = try #require(AnyJSON.parse(cli.run(["tags", "--vault", vault.path, "--json"]).output))
        let names = Set(listed["data"].array?.compactMap { $0["name"].string ?? $0["tag"].string } ?? [])
        #expect(names == ["0🌲", "📚books", "✅done", "→arrow"], "\(listed)")
        let query = cli.run(["query", "LIST FROM #📚books", "--vault", vault.path, "--json"])
        #expect(query.status == 0, "\(query.error)")
        #expect(query.output.contains("Evergreen.md"), "\(query.output)")
        let validation = cli.run(["validate", "--vault", vault.path, "--json"])
        #expect(validation.status == 0, "\(validation.output)")
        #expect(!validation.output.contains("invalid-tag-value"), "\(validation.output)")
    }
}
