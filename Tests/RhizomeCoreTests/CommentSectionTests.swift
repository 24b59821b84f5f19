/// `%% … %%` comment sections as Obsidian reads them: a multi-line `%%` block is one comment section
/// with no headings, list items, tasks or block ids inside, while its links, tags and inline fields still
/// count (docs/OBSIDIAN.md, "Links in the body"). The notes are shapes seen in real vaults: a
/// template's hidden instructions, a task list parked in a comment.
import Testing
import RhizomeCore

@Suite("Comment sections") struct CommentSectionTests {
    private func scan(_ text: String) -> MarkdownContent { MarkdownScanner.scan(text) }
    private func items(_ text: String) -> [ListItem] { ListItemParser.parse(Array(text.utf8), path: "Note.md") }

    static let parked = """
        # Today
        - [ ] ship the release
        %%
        - [ ] hidden idea #later, see [[Roadmap]]
        ## Not a heading
        - plain hidden item ^hidden
        %%
        - [x] write the notes
        """

    @Test func `tasks, items, headings and block ids inside a section are not there`() {
        let content = scan(Self.parked)
        #expect(content.tasks.map(\.text) == ["ship the release", "write the notes"])
        #expect(content.headings.map(\.text) == ["Today"])
        #expect(content.blocks.isEmpty)
        #expect(items(Self.parked).map(\.text) == ["ship the release", "write the notes"])
    }

    @Test func `links and tags inside a section still count`() {
        let content = scan(Self.parked)
        #expect(content.tags.map(\.name) == ["later"])
        #expect(content.links.map(\.path) == ["Roadmap"])
        #expect(content.links.first?.line == 4)
    }

    @Test func `the section's lines are not a lazy continuation of the task before it`() {
        // Dataview's TASK view showed `ship the release\n%%` before: the opening `%%` is a block of its own.
        let list = items(Self.parked)
        #expect(list.first?.text == "ship the release")
        #expect(list.first?.lineCount == 1)
    }

    @Test func `a comment closed on its own line hides nothing and ends no list`() {
        let text = "- [ ] one %% a remark %%\n%% parked for later %%\n- [ ] two"
        #expect(scan(text).tasks.map(\.text) == ["one %% a remark %%", "two"])
    }

    @Test func `text after the opening marker and before the closing one is inside`() {
        let text = "%% Template notes: delete this\n- [ ] fill in the date\n- [ ] pick a type %%\n- [ ] real task"
        #expect(scan(text).tasks.map(\.text) == ["real task"])
        #expect(items(text).map(\.line) == [4])
    }

    @Test func `a section in a quote or indented with spaces opens too`() {
        #expect(scan("> %%\n> - [ ] quoted and hidden\n> %%\n> - [ ] quoted").tasks.map(\.text) == ["quoted"])
        #expect(scan("   %%\n- [ ] hidden\n%%").tasks.isEmpty)
    }

    @Test func `an unclosed section runs to the end of the note`() {
        #expect(scan("- [ ] before\n%%\n- [ ] after, unclosed").tasks.map(\.text) == ["before"])
    }

    @Test func `percent signs in fenced code open no section`() {
        let text = "```\n%%\n```\n- [ ] still a task"
        #expect(scan(text).tasks.map(\.text) == ["still a task"])
    }

    @Test func `a fence inside a section is part of the section`() {
        let text = "%%\n```\n- [ ] in code\n```\n- [ ] hidden\n%%\n- [ ] visible\n"
        #expect(scan(text).tasks.map(\.text) == ["visible"])
    }

    @Test func `a section indented into an item belongs to it and does not end the list`() {
        let text = "- [ ] parent\n    %%\n    - [ ] hidden child\n    %%\n    - [ ] child"
        let list = items(text)
        #expect(list.map(\.text) == ["parent\n%%\n- [ ] hidden child\n%%", "child"])
        #expect(list.map(\.parentLine) == [nil, 1])
    }

    @Test func `lines with CRLF ends behave the same`() {
        let text = Self.parked.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(scan(text).tasks.map(\.text) == ["ship the release", "write the notes"])
    }

    @Test func `inline fields inside a section are still the page's`() {
        #expect(scan("%%\nstatus:: draft\n%%").inlineFields.map(\.key) == ["status"])
    }
}
