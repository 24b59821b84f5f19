import Foundation
import Testing
import RhizomeCLI
import RhizomeTestSupport

/// The shaping options of list commands (`orphans`, `deadends`): narrowed by folder, tag and type, paged
/// with --offset and --limit, said to be cut, and printed as text, JSON, JSON lines, CSV, TSV or bare paths.
@Suite struct ListShapingTests {
    func vault() throws -> TemporaryVault {
        let vault = try TemporaryVault()
        for index in 1...5 { try vault.write("Inbox/Idea \(index).md", "---\ntype: idea\ntags: [inbox/raw]\n---\n# Idea \(index)\n") }
        try vault.write("Archive/Old.md", "# Old\n")
        try vault.write("Archive/Deep/Older, really.md", "# Older\n")
        return vault
    }

    @Test func `orphans narrowed by folder, tag and type, then paged, say they were cut`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try vault()
        #expect(cli.run(["orphans", "--folder", "Archive", "--vault", vault.path]).output == "2 orphan notes\n  Archive/Deep/Older, really.md\n  Archive/Old.md\n")
        #expect(cli.run(["orphans", "--tag", "inbox", "--vault", vault.path]).output.hasPrefix("5 orphan notes\n"))
        #expect(cli.run(["orphans", "--type", "idea", "--folder", "Archive", "--vault", vault.path]).output == "0 orphan notes\n")
        let page = cli.run(["orphans", "--folder", "Inbox", "--offset", "1", "--limit", "2", "--vault", vault.path])
        #expect(page.output == """
            5 orphan notes
              Inbox/Idea 2.md
              Inbox/Idea 3.md
            showing 2 of 5 from 1; --limit and --offset to see more

            """, "\(page.output)")
    }

    @Test func `each format prints the same list`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try vault()
        let arguments = ["orphans", "--folder", "Archive", "--vault", vault.path]
        #expect(cli.run(arguments + ["--format", "paths"]).output == "Archive/Deep/Older, really.md\nArchive/Old.md\n")
        #expect(cli.run(arguments + ["--format", "csv"]).output == "path\n\"Archive/Deep/Older, really.md\"\nArchive/Old.md\n")
        #expect(cli.run(arguments + ["--format", "tsv"]).output == "path\nArchive/Deep/Older, really.md\nArchive/Old.md\n")
        #expect(cli.run(arguments + ["--format", "jsonl"]).output == "{\"path\":\"Archive\\/Deep\\/Older, really.md\"}\n{\"path\":\"Archive\\/Old.md\"}\n"
                || cli.run(arguments + ["--format", "jsonl"]).output == "{\"path\":\"Archive/Deep/Older, really.md\"}\n{\"path\":\"Archive/Old.md\"}\n")
        let json = cli.run(arguments + ["--limit", "1", "--json"]).json
        #expect(json["total"] as? Int == 2)
        #expect(json["truncated"] as? Bool == true)
        #expect(json["data"] as? [String] == ["Archive/Deep/Older, really.md"])
        #expect(cli.run(["deadends", "--limit", "0", "--vault", vault.path]).status == 2)
    }
}
