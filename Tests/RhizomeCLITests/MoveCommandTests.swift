import Foundation
import Testing
import RhizomeTestSupport

/// `rhizome mv` and `rm` from the command line: exit statuses, and the JSON a script reads.
@Suite struct MoveCommandTests {
    @Test func aDryRunsJSONDescribesEveryRewrittenLinkAndWritesNothing() throws {
        let harness = try CLIHarness()
        defer { harness.cleanUp() }
        let vault = try TemporaryVault()
        try vault.write("Old.md", "x\n")
        try vault.write("A.md", "see [[Old|it]]\n")
        let result = harness.run(["mv", "Old", "Sub/New", "--json", "--vault", vault.path, "--db", vault.databasePath])
        #expect(result.status == 0, "\(result.error)")
        let data = try #require(result.json["data"] as? [String: Any])
        #expect(Set(data.keys) == ["source", "destination", "isFolder", "written", "operation", "moves", "files", "linkCount", "newlyResolved"])
        #expect(data["written"] as? Bool == false)
        #expect(data["operation"] is NSNull)
        #expect(data["destination"] as? String == "Sub/New.md")
        let files = try #require(data["files"] as? [[String: Any]])
        #expect(files.count == 1)
        let link = try #require((files.first?["links"] as? [[String: Any]])?.first)
        #expect(link["oldText"] as? String == "Old")
        #expect(link["newText"] as? String == "New")
        #expect(link["line"] as? Int == 1)
        #expect(link["column"] as? Int == 5)
        #expect(link["kind"] as? String == "wikilink")
        #expect(link["target"] as? String == "Sub/New.md")
        #expect(try vault.read("A.md") == "see [[Old|it]]\n")
    }

    @Test func mistakesExitTwoWithAStableCode() throws {
        let harness = try CLIHarness()
        defer { harness.cleanUp() }
        let vault = try TemporaryVault()
        try vault.write("A.md", "a\n")
        try vault.write("B.md", "b\n")
        let base = ["--vault", vault.path, "--db", vault.databasePath, "--json"]
        let cases: [([String], String)] = [
            (["mv", "A", "B"], "destination-exists"),
            (["mv", "A", "../A"], "outside-vault"),
            (["mv", "Nothing", "C"], "not-found"),
            (["mv", "A", ".obsidian/A"], "protected-path"),
            (["mv", "A", "Bad|name"], "invalid-name"),
            (["undo"], "nothing-to-undo"),
        ]
        for (arguments, code) in cases {
            let result = harness.run(arguments + base)
            #expect(result.status == 2, "\(arguments): \(result.output)")
            #expect((result.json["error"] as? [String: Any])?["code"] as? String == code, "\(arguments): \(result.output)")
        }
        #expect(try vault.read("A.md") == "a\n")
    }

    /// A link Rhizome cannot rewrite because of the file it is in (here: not UTF-8) is the user's to fix:
    /// exit 2 with the code and the file, nothing written.
    @Test func `links the user must fix before a move exit two, naming the file`() throws {
        let harness = try CLIHarness()
        defer { harness.cleanUp() }
        let vault = try TemporaryVault()
        try vault.write("Old.md", "x\n")
        let latin1: [UInt8] = Array("see [[Old]] caf".utf8) + [0xE9] + Array("\n".utf8)
        try vault.write("Latin1.md", bytes: latin1)
        let result = harness.run(["mv", "Old", "Sub/New", "--write", "--json", "--vault", vault.path, "--db", vault.databasePath])
        #expect(result.status == 2, "\(result.output)")
        let error = try #require(result.json["error"] as? [String: Any])
        #expect(error["code"] as? String == "links-cannot-be-kept")
        #expect((error["message"] as? String)?.contains("Latin1.md") == true, "\(error)")
        #expect(try vault.read("Old.md") == "x\n")
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: vault.path + "/Latin1.md"))) == latin1)
    }
}
