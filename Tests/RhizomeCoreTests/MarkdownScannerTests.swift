/// Tests of `MarkdownScanner`: one test per rule of docs/OBSIDIAN.md ("Links in the body", "Tags",
/// "Tasks") for links, embeds, tags, headings, block ids and tasks in a note body.
import Testing
@testable import RhizomeCore

private func scan(_ text: String, firstLine: Int = 1) -> MarkdownContent {
    MarkdownScanner.scan(text, firstLine: firstLine)
}

private func onlyLink(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> LinkOccurrence? {
    let links = scan(text).links
    #expect(links.count == 1, "expected exactly one link in \(text.debugDescription), found \(links)", sourceLocation: sourceLocation)
    return links.first
}

private func tagNames(_ text: String) -> [String] {
    scan(text).tags.map(\.name)
}

// MARK: - Wikilinks

@Suite("Wikilinks") struct WikilinkTests {
    @Test func `bare wikilink has its path and no subpath or display`() {
        let link = onlyLink("See [[Project Plan]] today.")
        #expect(link?.kind == .wikilink)
        #expect(link?.path == "Project Plan")
        #expect(link?.subpath == nil)
        #expect(link?.display == nil)
    }

    @Test func `wikilink with display text splits at the pipe`() {
        let link = onlyLink("[[Project Plan|the plan]]")
        #expect(link?.path == "Project Plan")
        #expect(link?.display == "the plan")
        #expect(link?.subpath == nil)
    }

    @Test func `wikilink to a heading puts the heading in the subpath`() {
        let link = onlyLink("[[Project Plan#Goals]]")
        #expect(link?.path == "Project Plan")
        #expect(link?.subpath == "Goals")
    }

    @Test func `wikilink to a nested heading keeps every heading after the first hash in the subpath`() {
        let link = onlyLink("[[Project Plan#Goals#Q1]]")
        #expect(link?.path == "Project Plan")
        #expect(link?.subpath == "Goals#Q1")
    }

    @Test func `wikilink to a block keeps the caret in the subpath`() {
        let link = onlyLink("[[Project Plan#^abc-123]]")
        #expect(link?.path == "Project Plan")
        #expect(link?.subpath == "^abc-123")
    }

    @Test func `wikilink with heading and display text has all three parts`() {
        let link = onlyLink("[[Project Plan#Goals|our goals]]")
        #expect(link?.path == "Project Plan")
        #expect(link?.subpath == "Goals")
        #expect(link?.display == "our goals")
    }

    @Test func `same-note heading link has an empty path`() {
        let link = onlyLink("Jump to [[#Summary]].")
        #expect(link?.kind == .wikilink)
        #expect(link?.path == "")
        #expect(link?.subpath == "Summary")
    }

    @Test func `same-note heading link is not also read as a tag`() {
        #expect(scan("[[#Summary]]").tags.isEmpty)
    }

    @Test func `embed of an image is a link of kind embed`() {
        let link = onlyLink("![[diagram.png]]")
        #expect(link?.kind == .embed)
        #expect(link?.path == "diagram.png")
        #expect(link?.isEmbed == true)
    }

    @Test func `embed uses the wikilink grammar for subpath and display`() {
        let link = onlyLink("![[Meeting Notes#Decisions|300]]")
        #expect(link?.kind == .embed)
        #expect(link?.path == "Meeting Notes")
        #expect(link?.subpath == "Decisions")
        #expect(link?.display == "300")
    }

    @Test func `embed column points at the exclamation mark`() {
        let link = onlyLink("ab ![[x.png]]")
        #expect(link?.column == 4)
    }

    @Test func `empty wikilink is not a link`() {
        #expect(scan("nothing [[]] here").links.isEmpty)
        #expect(scan("![[]]").links.isEmpty)
    }

    @Test func `wikilink with only a pipe is a link whose path is the pipe`() {
        let link = onlyLink("[[|]]")
        #expect(link?.kind == .wikilink)
        #expect(link?.path == "|")
    }

    @Test func `wikilink starting with a pipe keeps the pipe in its path`() {
        let link = onlyLink("[[|alias]]")
        #expect(link?.path == "|alias")
    }

    @Test func `escaped pipe inside a table cell separates path and display`() {
        let link = onlyLink("| [[Note\\|display]] | other |")
        #expect(link?.path == "Note")
        #expect(link?.display == "display")
    }

    @Test func `escaped pipe after a heading subpath ends the subpath`() {
        let link = onlyLink("| [[Note#Heading\\|shown]] |")
        #expect(link?.path == "Note")
        #expect(link?.subpath == "Heading")
        #expect(link?.display == "shown")
    }

    @Test func `surrounding spaces of the path are trimmed`() {
        #expect(onlyLink("[[Quick Switcher ]]")?.path == "Quick Switcher")
        #expect(onlyLink("[[  Quick Switcher|x]]")?.path == "Quick Switcher")
    }

    @Test func `backticks inside a wikilink do not hide it`() {
        let link = onlyLink("See [[#`move`|move]] for details")
        #expect(link?.path == "")
        #expect(link?.subpath == "`move`")
        #expect(link?.display == "move")
    }

    @Test func `several wikilinks on one line are all found in order`() {
        let links = scan("[[A]] and [[B|b]] and ![[C.png]]").links
        #expect(links.map(\.path) == ["A", "B", "C.png"])
        #expect(links.map(\.kind) == [.wikilink, .wikilink, .embed])
    }

    @Test func `unclosed wikilink is not a link`() {
        #expect(scan("[[Never closed").links.isEmpty)
    }

    @Test func `wikilink does not span lines`() {
        #expect(scan("[[Start\nEnd]]").links.isEmpty)
    }

    @Test func `NFD link text is stored in NFC`() {
        let link = onlyLink("[[Cafe\u{301}]]")
        #expect(link?.path.unicodeScalars.elementsEqual("Caf\u{E9}".unicodeScalars) == true)
    }
}

// MARK: - Markdown links

@Suite("Markdown links") struct MarkdownLinkTests {
    @Test func `markdown link with a folder path is internal`() {
        let link = onlyLink("Read [the note](Folder/Note.md).")
        #expect(link?.kind == .markdown)
        #expect(link?.path == "Folder/Note.md")
        #expect(link?.display == "the note")
        #expect(link?.isMarkdownSyntax == true)
    }

    @Test func `markdown link in angle brackets may contain spaces`() {
        let link = onlyLink("[t](<With spaces.md>)")
        #expect(link?.path == "With spaces.md")
    }

    @Test func `percent-encoded markdown link path is decoded`() {
        let link = onlyLink("[t](My%20Note.md)")
        #expect(link?.path == "My Note.md")
    }

    @Test func `percent-encoded non-ASCII path is decoded as UTF-8`() {
        let link = onlyLink("[t](Caf%C3%A9.md)")
        #expect(link?.path == "Café.md")
    }

    @Test func `markdown link heading fragment becomes the subpath`() {
        let link = onlyLink("[t](Note.md#Some%20Heading)")
        #expect(link?.path == "Note.md")
        #expect(link?.subpath == "Some Heading")
    }

    @Test(arguments: [
        ("[t](Note.md#Part)", "Note.md", "Part"), ("[t](Caf%C3%A9.md#R%C3%A9sum%C3%A9)", "Caf\u{E9}.md", "R\u{E9}sum\u{E9}"),
        ("[t](%20Note.md%20)", "Note.md", nil), ("[t](Note.md#)", "Note.md", ""), ("[t](#Top)", "", "Top"),
        ("[t](Cafe%CC%81.md)", "Caf\u{E9}.md", nil), ("[t](A%23B.md#C)", "A", "B.md#C"),
        // `#` followed by a combining mark is one character with it, not a `#`: no fragment there.
        ("[t](x%23%CC%81y.md)", "x#\u{301}y.md", nil),
    ])
    func `a markdown link's destination is decoded, split at its first hash, trimmed and normalized`(text: String, path: String, subpath: String?) {
        let link = onlyLink(text)
        #expect(link?.path == path)
        #expect(link?.subpath == subpath)
    }

    @Test func `markdown link with a title still links to its destination`() {
        let link = onlyLink("[t](Note.md \"A title\")")
        #expect(link?.path == "Note.md")
    }

    @Test(arguments: [
        "[site](https://example.com/page.md)",
        "[site](http://example.com)",
        "[mail](mailto:someone@example.com)",
        "[open](obsidian://open?vault=v&file=Note)",
        "[file](file:///tmp/x.md)",
    ])
    func `markdown link with a URL scheme is not internal`(text: String) {
        #expect(scan(text).links.isEmpty)
    }

    @Test func `markdown image is a link of kind markdown embed`() {
        let link = onlyLink("![alt text](img.png)")
        #expect(link?.kind == .markdownEmbed)
        #expect(link?.path == "img.png")
        #expect(link?.isEmbed == true)
    }

    @Test func `image inside a markdown link yields both the image and the link`() {
        let links = scan("[![badge](badge.png)](Target.md)").links
        #expect(links.count == 2)
        #expect(links.contains { $0.kind == .markdownEmbed && $0.path == "badge.png" })
        #expect(links.contains { $0.kind == .markdown && $0.path == "Target.md" })
    }

    @Test func `brackets without a destination are not a link`() {
        #expect(scan("just [brackets] here").links.isEmpty)
    }

    @Test func `external image is not internal`() {
        #expect(scan("![logo](https://example.com/logo.png)").links.isEmpty)
    }
}

// MARK: - Hiding rules

@Suite("What hides links and tags") struct HidingTests {
    @Test func `links and tags in a backtick fence are ignored`() {
        let content = scan("before\n```\n[[Hidden]] #hidden\n```\n[[Shown]]")
        #expect(content.links.map(\.path) == ["Shown"])
        #expect(content.tags.isEmpty)
    }

    @Test func `links in a fence with a language are ignored`() {
        let content = scan("```swift\nlet x = \"[[Hidden]]\"\n```\n")
        #expect(content.links.isEmpty)
    }

    @Test func `links and tags in a tilde fence are ignored`() {
        let content = scan("~~~\n[[Hidden]] #hidden\n~~~\n[[Shown]]")
        #expect(content.links.map(\.path) == ["Shown"])
        #expect(content.tags.isEmpty)
    }

    @Test func `a tilde line does not close a backtick fence`() {
        let content = scan("```\n~~~\n[[Hidden]]\n```\n[[Shown]]")
        #expect(content.links.map(\.path) == ["Shown"])
    }

    @Test func `a shorter run does not close a longer fence`() {
        let content = scan("````\n```\n[[Hidden]]\n````\n[[Shown]]")
        #expect(content.links.map(\.path) == ["Shown"])
    }

    @Test func `a fence opened inside a callout hides its links`() {
        let content = scan("> [!example]\n> ```md\n> [[Hidden]] #hidden\n> ```\n> [[Shown]]")
        #expect(content.links.map(\.path) == ["Shown"])
        #expect(content.tags.isEmpty)
    }

    @Test func `a wikilink in single-backtick inline code is not a link`() {
        let content = scan("Type `[[Hidden]]` then [[Shown]]")
        #expect(content.links.map(\.path) == ["Shown"])
    }

    @Test func `a wikilink in double-backtick inline code is not a link`() {
        let content = scan("Type ``a ` [[Hidden]]`` then [[Shown]]")
        #expect(content.links.map(\.path) == ["Shown"])
    }

    @Test func `a tag in inline code is not a tag`() {
        #expect(tagNames("Use `#hidden` like this #shown") == ["shown"])
    }

    @Test func `a single-line HTML comment hides links and tags`() {
        let content = scan("<!-- [[Hidden]] #hidden --> [[Shown]]")
        #expect(content.links.map(\.path) == ["Shown"])
        #expect(content.tags.isEmpty)
    }

    @Test func `an HTML comment spanning lines hides links, tags and tasks`() {
        let content = scan("<!--\n[[Hidden]] #hidden\n- [ ] hidden task\n-->\n[[Shown]]")
        #expect(content.links.map(\.path) == ["Shown"])
        #expect(content.tags.isEmpty)
        #expect(content.tasks.isEmpty)
    }

    @Test func `a fence marker inside an HTML comment does not open a fence`() {
        let content = scan("<!--\n```\n-->\n[[Shown]]")
        #expect(content.links.map(\.path) == ["Shown"])
    }

    @Test func `text after an HTML comment closes on a later line is scanned`() {
        let content = scan("<!-- start\nhidden --> [[Shown]]")
        #expect(content.links.map(\.path) == ["Shown"])
    }

    @Test func `escaped brackets are not a wikilink`() {
        #expect(scan("\\[\\[NotALink]]").links.isEmpty)
    }

    @Test func `an escaped hash is not a tag`() {
        #expect(tagNames("\\#notatag") == [])
    }

    @Test func `a wikilink inside a percent comment is a link`() {
        let link = onlyLink("%% [[Commented]] %%")
        #expect(link?.path == "Commented")
    }

    @Test func `a wikilink inside a percent comment spanning lines is a link`() {
        let content = scan("%%\n[[Commented]]\n%%")
        #expect(content.links.map(\.path) == ["Commented"])
    }

    @Test func `a tag inside a percent comment is a tag`() {
        #expect(tagNames("%% #commented %%") == ["commented"])
    }
}

// MARK: - Positions

@Suite("Link positions") struct LinkPositionTests {
    @Test func `line numbers count from the first line`() {
        let links = scan("one\ntwo [[A]]\n\nfour [[B]]").links
        #expect(links.map(\.line) == [2, 4])
    }

    @Test func `line numbers start at the given first line`() {
        let links = scan("x\n[[A]]", firstLine: 5).links
        #expect(links.first?.line == 6)
    }

    @Test func `column is 1-based`() {
        #expect(onlyLink("[[A]]")?.column == 1)
        #expect(onlyLink("abc [[A]]")?.column == 5)
    }

    @Test func `column counts Unicode scalars, not bytes`() {
        #expect(onlyLink("日本 [[A]]")?.column == 4)
        #expect(onlyLink("👍 [x](A.md)")?.column == 3)
    }

    @Test func `tag column counts Unicode scalars`() {
        let tag = scan("日本 #topic").tags.first
        #expect(tag?.column == 4)
        #expect(tag?.line == 1)
    }

    @Test func `CRLF line endings do not shift lines or leak into paths`() {
        let content = scan("a\r\n[[A]]\r\n#tag\r\n")
        #expect(content.links.first?.line == 2)
        #expect(content.links.first?.path == "A")
        #expect(content.tags.first?.name == "tag")
        #expect(content.tags.first?.line == 3)
    }
}

// MARK: - Tags

@Suite("Tags") struct TagTests {
    @Test func `a simple tag is found without its hash`() {
        let tags = scan("Filed under #project today").tags
        #expect(tags.map(\.name) == ["project"])
        #expect(tags.first?.isFromFrontmatter == false)
        #expect(tags.first?.column == 13)
    }

    @Test func `a tag at the start of a line is a tag`() {
        #expect(tagNames("#start of line") == ["start"])
    }

    @Test func `a nested tag keeps its slashes`() {
        #expect(tagNames("#a/b/c") == ["a/b/c"])
    }

    @Test func `a tag may use letters of any script`() {
        #expect(tagNames("#日本語 and #café and #русский") == ["日本語", "café", "русский"])
    }

    @Test func `a tag may contain underscores, dashes and digits`() {
        #expect(tagNames("#to_do-2024") == ["to_do-2024"])
    }

    @Test func `a tag with a letter and digits is a tag`() {
        #expect(tagNames("#y1984") == ["y1984"])
    }

    @Test func `an all-digit tag is not a tag`() {
        #expect(tagNames("#1984") == [])
    }

    @Test func `digits followed by a colon are not a tag`() {
        #expect(tagNames("#3344:") == [])
    }

    @Test func `a hash inside a word is not a tag`() {
        #expect(tagNames("word#x") == [])
    }

    @Test func `a URL fragment is not a tag`() {
        #expect(tagNames("https://x.com/#frag") == [])
        #expect(tagNames("see https://x.com/page#frag") == [])
    }

    @Test func `a tag ends at punctuation`() {
        #expect(tagNames("(after #tag, and #other.)") == ["tag", "other"])
    }

    @Test func `a heading marker is not a tag`() {
        #expect(tagNames("# Title") == [])
        #expect(tagNames("### Title") == [])
    }

    @Test func `a tag on a heading line is a tag`() {
        #expect(tagNames("## Heading #t") == ["t"])
    }

    @Test func `a lone hash is not a tag`() {
        #expect(tagNames("a # b") == [])
    }

    @Test func `a tag keeps its case`() {
        #expect(tagNames("#CamelCase") == ["CamelCase"])
    }

    @Test func `a tag is found after a tab`() {
        #expect(tagNames("x\t#tabbed") == ["tabbed"])
    }
}

// MARK: - Headings

@Suite("Headings") struct HeadingTests {
    @Test func `ATX headings of levels 1 to 6 are headings`() {
        let text = (1...6).map { String(repeating: "#", count: $0) + " Level \($0)" }.joined(separator: "\n")
        let headings = scan(text).headings
        #expect(headings.map(\.level) == [1, 2, 3, 4, 5, 6])
        #expect(headings.map(\.text) == (1...6).map { "Level \($0)" })
        #expect(headings.map(\.line) == [1, 2, 3, 4, 5, 6])
    }

    @Test func `seven hashes are not a heading`() {
        #expect(scan("####### Too deep").headings.isEmpty)
    }

    @Test func `closing hashes are stripped from the heading text`() {
        let heading = scan("## Title ##").headings.first
        #expect(heading?.level == 2)
        #expect(heading?.text == "Title")
    }

    @Test func `a hash glued to the last word is part of the heading text`() {
        #expect(scan("# C#").headings.first?.text == "C#")
    }

    @Test func `a hash without a space is a tag, not a heading`() {
        let content = scan("#NoSpace")
        #expect(content.headings.isEmpty)
        #expect(content.tags.map(\.name) == ["NoSpace"])
    }

    @Test func `setext underline of equals signs makes a level 1 heading`() {
        let heading = scan("Big Title\n===").headings.first
        #expect(heading?.level == 1)
        #expect(heading?.text == "Big Title")
        #expect(heading?.line == 1)
    }

    @Test func `setext underline of dashes makes a level 2 heading`() {
        let heading = scan("intro\n\nSmaller Title\n---\n").headings.first
        #expect(heading?.level == 2)
        #expect(heading?.text == "Smaller Title")
        #expect(heading?.line == 3)
    }

    @Test func `a dash line after a blank line is a rule, not a heading`() {
        #expect(scan("text\n\n---\n").headings.isEmpty)
    }

    @Test func `a heading inside a fence is not a heading`() {
        #expect(scan("```\n# Not a heading\n```").headings.isEmpty)
    }

    @Test func `a heading line may contain links`() {
        let content = scan("## See [[Other]]")
        #expect(content.headings.first?.text == "See [[Other]]")
        #expect(content.links.map(\.path) == ["Other"])
    }
}

// MARK: - Block ids

@Suite("Block ids") struct BlockIDTests {
    @Test func `a block id at the end of a line after a space`() {
        let blocks = scan("Some paragraph text ^abc-1").blocks
        #expect(blocks == [BlockID(id: "abc-1", line: 1)])
    }

    @Test func `a block id alone on a line after a list`() {
        let blocks = scan("- one\n- two\n\n^list-id").blocks
        #expect(blocks == [BlockID(id: "list-id", line: 4)])
    }

    @Test func `a block id alone on a line after a table`() {
        let blocks = scan("| a | b |\n| - | - |\n| 1 | 2 |\n^table-1").blocks
        #expect(blocks.map(\.id) == ["table-1"])
    }

    @Test func `a caret glued to the preceding text is not a block id`() {
        #expect(scan("x)^id").blocks.isEmpty)
        #expect(scan("word^id").blocks.isEmpty)
    }

    @Test func `a caret in the middle of a line is not a block id`() {
        #expect(scan("2 ^ 3 is eight ^ not").blocks.isEmpty)
    }

    @Test func `a block id is made of Latin letters, digits and dashes only`() {
        #expect(scan("text ^abc_def").blocks.isEmpty)
        #expect(scan("text ^日本").blocks.isEmpty)
        #expect(scan("text ^Ab-09").blocks.map(\.id) == ["Ab-09"])
    }

    @Test func `trailing spaces after a block id are allowed`() {
        #expect(scan("text ^abc  ").blocks.map(\.id) == ["abc"])
    }

    @Test func `a block id inside a fence is not a block id`() {
        #expect(scan("```\ncode ^abc\n```").blocks.isEmpty)
    }
}

// MARK: - Tasks

@Suite("Tasks") struct TaskTests {
    @Test func `a dash item with an empty box is an open task`() {
        let task = scan("- [ ] Buy milk").tasks.first
        #expect(task?.status == " ")
        #expect(task?.isOpen == true)
        #expect(task?.isDone == false)
        #expect(task?.text == "Buy milk")
        #expect(task?.line == 1)
    }

    @Test func `a lowercase x marks a task done`() {
        let task = scan("- [x] Done").tasks.first
        #expect(task?.isDone == true)
        #expect(task?.isOpen == false)
    }

    @Test func `an uppercase X marks a task done`() {
        #expect(scan("- [X] Done").tasks.first?.isDone == true)
    }

    @Test(arguments: [">", "-", "/", "?", "!"])
    func `any other status character is a custom status`(status: String) {
        let task = scan("- [\(status)] Custom").tasks.first
        #expect(task?.status == status)
        #expect(task?.isOpen == false)
        #expect(task?.isDone == false)
    }

    @Test func `an ordered list item can be a task`() {
        #expect(scan("1. [ ] First").tasks.map(\.text) == ["First"])
    }

    @Test func `a star item can be a task`() {
        #expect(scan("* [ ] Star").tasks.count == 1)
    }

    @Test func `a plus item can be a task`() {
        #expect(scan("+ [x] Plus").tasks.first?.isDone == true)
    }

    @Test func `an indented item can be a task`() {
        #expect(scan("- parent\n    - [ ] child").tasks.map(\.line) == [2])
    }

    @Test func `a list item in a quote can be a task`() {
        let tasks = scan("> - [ ] Quoted").tasks
        #expect(tasks.map(\.text) == ["Quoted"])
    }

    @Test func `a task inside a fence is not a task`() {
        #expect(scan("```\n- [ ] not a task\n```").tasks.isEmpty)
    }

    @Test func `a checkbox without a list marker is not a task`() {
        #expect(scan("[x] not a task").tasks.isEmpty)
        #expect(scan("[ ] not a task").tasks.isEmpty)
    }

    @Test func `a plain list item is not a task`() {
        #expect(scan("- just an item").tasks.isEmpty)
    }

    @Test func `a task's text may contain links and tags`() {
        let content = scan("- [ ] Call [[Alice]] #phone")
        #expect(content.tasks.map(\.text) == ["Call [[Alice]] #phone"])
        #expect(content.links.map(\.path) == ["Alice"])
        #expect(content.tags.map(\.name) == ["phone"])
    }
}
