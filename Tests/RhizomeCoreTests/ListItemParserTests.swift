/// Tests of `ListItemParser`: nesting, tasks, numbered lists, continuation lines, sections, block ids,
/// and the lists it must not see (fenced code, frontmatter).
import Testing
import RhizomeCore

private func items(_ text: String) -> [ListItem] {
    ListItemParser.parse(Array(text.utf8), path: "Note.md")
}

@Suite("List items: structure") struct ListItemStructureTests {
    @Test func `items indented to their parent's text are its children`() {
        let list = items("- a\n  - b\n    - c\n- d")
        #expect(list.map(\.text) == ["a", "b", "c", "d"])
        #expect(list.map(\.parentLine) == [nil, 1, 2, nil])
        #expect(list.map(\.childLines) == [[2], [3], [], []])
    }

    @Test func `an item indented less than its predecessor's text is a sibling`() {
        #expect(items("- a\n - b").map(\.parentLine) == [nil, nil])
    }

    @Test func `a tab indents to the next multiple of four`() {
        #expect(items("- a\n\t- b").map(\.parentLine) == [nil, 1])
    }

    @Test func `an item goes back to the level its indentation reaches`() {
        let list = items("- a\n  - b\n    - c\n  - d\n- e")
        #expect(list.map(\.parentLine) == [nil, 1, 2, 1, nil])
        #expect(list[0].childLines == [2, 4])
    }

    @Test func `tasks nest under tasks and plain items under tasks`() {
        let list = items("- [ ] parent\n    - [x] child\n        - [ ] grandchild\n    - note")
        #expect(list.map(\.status) == [" ", "x", " ", nil])
        #expect(list.map(\.parentLine) == [nil, 1, 2, 1])
        #expect(list.map(\.text) == ["parent", "child", "grandchild", "note"])
        #expect(list.map(\.isTask) == [true, true, true, false])
    }

    @Test func `custom statuses are kept`() {
        #expect(items("- [/] half\n- [-] dropped\n- [?] unsure").map(\.status) == ["/", "-", "?"])
    }

    @Test func `numbered items have their number as symbol and children indented to their text`() {
        let list = items("1. one\n2. two\n   - sub\n10) ten")
        #expect(list.map(\.symbol) == ["1.", "2.", "-", "10)"])
        #expect(list.map(\.parentLine) == [nil, nil, 2, nil])
    }

    @Test func `under a numbered item two spaces are not enough to nest`() {
        #expect(items("1. one\n  - sub").map(\.parentLine) == [nil, nil])
    }

    @Test func `bullet symbols are kept as written`() {
        #expect(items("- a\n* b\n+ c").map(\.symbol) == ["-", "*", "+"])
    }

    @Test func `a thematic break is no item and ends the list`() {
        let list = items("- a\n* * *\n  - b")
        #expect(list.map(\.text) == ["a", "b"])
        #expect(list[1].parentLine == nil)
    }

    @Test func `a heading ends the list`() {
        #expect(items("- a\n# H\n  - b").map(\.parentLine) == [nil, nil])
    }
}

@Suite("List items: text and continuation lines") struct ListItemTextTests {
    @Test func `continuation lines are joined with newlines, lazy ones too`() {
        let list = items("- first\n  second line\nlazy third\n- next")
        #expect(list[0].text == "first\nsecond line\nlazy third")
        #expect(list[0].lineCount == 3)
        #expect(list[1].line == 4)
    }

    @Test func `an indented paragraph after a blank line continues the item`() {
        let list = items("- a\n\n  more\n- b")
        #expect(list[0].text == "a\n\nmore")
        #expect(list[0].lineCount == 3)
        #expect(list[1].parentLine == nil)
    }

    @Test func `text that is not indented after a blank line ends the list`() {
        let list = items("- a\n\ntext\n  - b")
        #expect(list[0].lineCount == 1)
        #expect(list[1].parentLine == nil)
    }

    @Test func `trailing blank lines are not part of an item`() {
        #expect(items("- a\n\n\n").first?.lineCount == 1)
    }

    @Test func `a parent's lines after its children are not part of its text`() {
        let list = items("- a\n  - b\n\n  more")
        #expect(list.map(\.lineCount) == [1, 1])
        #expect(list[0].text == "a")
    }

    @Test func `a task's text starts after the checkbox`() {
        let item = items("- [ ]   spaced out  ").first
        #expect(item?.text == "spaced out")
    }

    @Test func `a fenced block indented into an item is part of it`() {
        let list = items("- a\n  ```\n  - not an item\n  ```\n- b")
        #expect(list.map(\.text) == ["a\n```\n- not an item\n```", "b"])
        #expect(list[0].lineCount == 4)
    }
}

@Suite("List items: what is not a list") struct ListItemExclusionTests {
    @Test func `lists in fenced code are not items`() {
        let list = items("```\n- not\n- [ ] nor this\n```\n~~~\n* no\n~~~\n- yes")
        #expect(list.map(\.text) == ["yes"])
        #expect(list.first?.line == 8)
    }

    @Test func `lists in frontmatter are not items, and lines count from the top of the file`() {
        let list = items("---\ntags:\n  - a\n  - b\n---\n- item")
        #expect(list.map(\.text) == ["item"])
        #expect(list.first?.line == 6)
    }

    @Test func `a dash without a space is no item`() {
        #expect(items("-not\n*neither*").isEmpty)
    }
}

@Suite("List items: quotes and callouts") struct ListItemQuoteTests {
    @Test func `items in a callout nest after the quote markers`() {
        let list = items("> [!todo] Today\n> - [ ] in callout\n>   - child\n> more")
        #expect(list.map(\.text) == ["in callout", "child\nmore"])
        #expect(list.map(\.parentLine) == [nil, 2])
    }

    @Test func `a quote ending ends its list`() {
        let list = items("> - a\n\n>   - b")
        #expect(list.map(\.parentLine) == [nil, nil])
    }

    @Test func `a list outside the quote is a new list`() {
        #expect(items("> - a\n  - b").map(\.parentLine) == [nil, nil])
    }
}

@Suite("List items: sections, block ids, tags, links, fields") struct ListItemMetadataTests {
    @Test func `the section is the nearest heading above`() {
        let list = items("- before\n# One\n- a\n## Two\ntext\n- b")
        #expect(list[0].section == nil)
        #expect(list[1].section == Heading(level: 1, text: "One", line: 2))
        #expect(list[2].section?.text == "Two")
        #expect(list[2].section?.level == 2)
    }

    @Test func `a block id ending the item is its block id`() {
        let list = items("- first ^abc-1\n- second\n- third\n  continued ^end")
        #expect(list.map(\.blockID) == ["abc-1", nil, "end"])
    }

    @Test func `a block id not at the end of the item is not the item's`() {
        #expect(items("- a ^early\n  more").first?.blockID == nil)
    }

    @Test func `tags, links and fields in the item's text are the item's`() {
        let list = items("- see [[Note]] and [x](Other.md) #tag [k:: v]\n  more #second\n- plain")
        #expect(list[0].outlinks.map(\.path) == ["Note", "Other.md"])
        #expect(list[0].tags == ["tag", "second"])
        #expect(list[0].inlineFields.map(\.key) == ["k"])
        #expect(list[1].outlinks.isEmpty && list[1].tags.isEmpty && list[1].inlineFields.isEmpty)
    }

    @Test func `a child's links are not its parent's`() {
        let list = items("- parent [[A]]\n  - child [[B]]")
        #expect(list.map { $0.outlinks.map(\.path) } == [["A"], ["B"]])
    }

    @Test func `a task has its bracketed fields but no full-line field`() {
        #expect(items("- [ ] ship [due:: Friday] (owner:: Ann)").first?.inlineFields.map(\.key) == ["due", "owner"])
        #expect(items("- [ ] due:: Friday").first?.inlineFields.isEmpty == true)
    }

    @Test func `a plain item has a full-line field after its marker`() {
        let field = items("- Author:: Ann").first?.inlineFields.first
        #expect(field == InlineField(key: "Author", value: "Ann", syntax: .fullLine, line: 1, column: 3))
    }

    @Test func `links in inline code or comments are not the item's`() {
        #expect(items("- `[[A]]` <!-- [[B]] --> [[C]]").first?.outlinks.map(\.path) == ["C"])
    }
}
