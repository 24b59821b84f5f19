import Foundation
import Testing
import RhizomeCLI
import RhizomeTestSupport

/// The shaping options of list commands (`orphans`, `deadends`, `unresolved`, `backlinks`, `links`, `tasks`,
/// `findings`, `properties KEY`): narrowed
/// by folder, tag and type (a link by its source; a note's own links by what they reach), paged
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

    /// Links from two folders to a hub, and unresolved links from both.
    func linkVault() throws -> TemporaryVault {
        let vault = try TemporaryVault()
        try vault.write("Hub.md", "# Hub\n[[Projects/A]] [[Inbox/Note 1]] [[Nowhere]]\n")
        try vault.write("Projects/A.md", "---\ntype: project\n---\n[[Hub]] [[Missing, one]]\n")
        try vault.write("Projects/B.md", "[[Hub]]\n")
        for index in 1...3 { try vault.write("Inbox/Note \(index).md", "[[Hub]] and [[Missing, one]]\n") }
        return vault
    }

    @Test func `unresolved, backlinks and links take the same shaping, filtered by the note each link belongs to`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try linkVault()
        // unresolved: by source; the exit status follows what is left.
        let projects = cli.run(["unresolved", "--folder", "Projects", "--vault", vault.path])
        #expect(projects.output == "1 unresolved link to 1 missing file\n  Missing, one  ×1\n      Projects/A.md:4:9\n", "\(projects.output)")
        #expect(projects.status == 1)
        #expect(cli.run(["unresolved", "--folder", "Archive", "--vault", vault.path]).status == 0)
        let cut = cli.run(["unresolved", "--limit", "2", "--vault", vault.path])
        #expect(cut.output.hasPrefix("5 unresolved links\n") && cut.output.hasSuffix("showing 2 of 5; --limit and --offset to see more\n"), "\(cut.output)")
        #expect(cli.run(["unresolved", "--type", "project", "--format", "csv", "--vault", vault.path]).output
            == "source,line,column,kind,linkPath,subpath,display,target\nProjects/A.md,4,9,wikilink,\"Missing, one\",,,\n")
        // backlinks: by source.
        let backlinks = cli.run(["backlinks", "Hub", "--folder", "Inbox", "--offset", "1", "--limit", "1", "--json", "--vault", vault.path]).json
        #expect(backlinks["total"] as? Int == 3)
        #expect(backlinks["truncated"] as? Bool == true)
        #expect((backlinks["data"] as? [[String: Any]])?.map { $0["source"] as? String } == ["Inbox/Note 2.md"])
        #expect(cli.run(["backlinks", "Hub", "--format", "paths", "--folder", "Projects", "--vault", vault.path]).output == "Projects/A.md\nProjects/B.md\n")
        // links NOTE: by what each link reaches; links --all: by source.
        #expect(cli.run(["links", "Hub", "--folder", "Inbox", "--format", "paths", "--vault", vault.path]).output == "Inbox/Note 1.md\n")
        let all = cli.run(["links", "--all", "--folder", "Inbox", "--format", "jsonl", "--vault", vault.path]).output
        #expect(all.split(separator: "\n").count == 6, "\(all)")
    }

    @Test func `tasks and findings take the same shaping, by the note each belongs to`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TemporaryVault()
        try vault.write("Work/Plan.md", "---\ntype: plan\nstatus: draft\n---\n- [ ] one\n- [x] two\n- [ ] three 📅 2026-12-01\n")
        try vault.write("Home/List.md", "- [ ] milk\n")
        try vault.write("Home/Broken.md", "---\ntitle: [unclosed\n---\n")
        let open = cli.run(["tasks", "--open", "--folder", "Work", "--limit", "1", "--vault", vault.path])
        #expect(open.output == "2 tasks\n  [ ] one  — Work/Plan.md:5\nshowing 1 of 2; --limit and --offset to see more\n", "\(open.output)")
        #expect(cli.run(["tasks", "--type", "plan", "--format", "tsv", "--offset", "2", "--vault", vault.path]).output
            == "path\tline\tstatus\ttext\tdue\nWork/Plan.md\t7\t \tthree 📅 2026-12-01\t2026-12-01\n")
        #expect(cli.run(["tasks", "--format", "paths", "--vault", vault.path]).output == "Home/List.md\nWork/Plan.md\n")
        // findings: exit 1 only when an error is left after narrowing.
        let broken = cli.run(["findings", "--folder", "Home", "--json", "--vault", vault.path])
        #expect(broken.status == 1)
        #expect(broken.json["total"] as? Int == 1)
        #expect(cli.run(["findings", "--folder", "Work", "--vault", vault.path]).status == 0)
    }

    @Test func `properties KEY takes the list options, and without a KEY refuses them`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try vault()
        try vault.write("Archive/Rated.md", "---\nrating: 4\n---\n")
        try vault.write("Inbox/Rated.md", "---\nrating: 5\n---\n")
        #expect(cli.run(["properties", "rating", "--folder", "Archive", "--format", "csv", "--vault", vault.path]).output
            == "path,type,value,line\nArchive/Rated.md,number,4,2\n")
        let page = cli.run(["properties", "type", "--limit", "2", "--vault", vault.path])
        #expect(page.output.hasPrefix("5 notes with `type`\n") && page.output.hasSuffix("showing 2 of 5; --limit and --offset to see more\n"), "\(page.output)")
        #expect(cli.run(["properties", "--limit", "2", "--vault", vault.path]).status == 2)
    }
}
