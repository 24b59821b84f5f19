/// Tests of Dataview inline fields in `MarkdownScanner`: the three syntaxes, which lines qualify, the
/// hiding rules (fenced code, inline code, HTML comments) and positions.
import Testing
@testable import RhizomeCore

private func fields(_ text: String) -> [InlineField] {
    MarkdownScanner.scan(text).inlineFields
}

private func pairs(_ text: String) -> [String] {
    fields(text).map { "\($0.key)=\($0.value)" }
}

@Suite("Full-line inline fields") struct FullLineInlineFieldTests {
    @Test func `a key and value on a line of their own are a field`() {
        let field = fields("Rating:: 9").first
        #expect(field == InlineField(key: "Rating", value: "9", syntax: .fullLine, line: 1, column: 1))
    }

    @Test func `no space is needed after the separator`() {
        #expect(pairs("key::value") == ["key=value"])
    }

    @Test func `the value is trimmed and keeps everything up to the end of the line`() {
        #expect(pairs("Related::   [[Note]] and #tag  ") == ["Related=[[Note]] and #tag"])
    }

    @Test func `an empty value is an empty string`() {
        #expect(pairs("Empty::") == ["Empty="])
    }

    @Test func `keys may hold spaces, dashes, slashes, digits and letters of any script`() {
        #expect(pairs("Book Rating:: 9\ndue-date/2:: x\nÉtat:: prêt") == ["Book Rating=9", "due-date/2=x", "État=prêt"])
    }

    @Test func `bold around the key is stripped and the column is where the key's letters start`() {
        let field = fields("**Status**:: done").first
        #expect(field?.key == "Status")
        #expect(field?.column == 3)
    }

    @Test func `a leading emoji is dropped from the key as Dataview drops it`() {
        #expect(pairs("🎉 Party:: yes\nMood 😀:: fine") == ["Party=yes", "Mood 😀=fine"])
    }

    @Test func `a key with punctuation makes the line no field`() {
        #expect(fields("What? Why:: because").isEmpty)
        #expect(fields("Time: 10::30").isEmpty)
    }

    @Test func `a URL is not a field`() {
        #expect(fields("See http://example.com/a:b for more").isEmpty)
        #expect(fields("https://x").isEmpty)
    }

    @Test func `a C++ scope in prose is a field, as in Dataview, but not in inline code`() {
        #expect(pairs("std::vector grows") == ["std=vector grows"])
        #expect(fields("Use `std::vector` here").isEmpty)
    }

    @Test func `a heading can be a full-line field`() {
        let field = fields("## Status:: draft").first
        #expect(field?.key == "Status")
        #expect(field?.value == "draft")
        #expect(field?.column == 4)
    }

    @Test func `a field after a list marker starts after the marker`() {
        #expect(fields("- Author:: Ann").first == InlineField(key: "Author", value: "Ann", syntax: .fullLine, line: 1, column: 3))
        #expect(fields("12. Author:: Ann").first?.column == 5)
        #expect(fields("  * Author:: Ann").first?.column == 5)
    }

    @Test func `a field in a quote or callout is read after the quote markers`() {
        let content = fields("> [!note] Info\n> Status:: draft\n> > Deep:: yes")
        #expect(content.map(\.key) == ["Status", "Deep"])
        #expect(content.map(\.line) == [2, 3])
        #expect(content.map(\.column) == [3, 5])
    }

    @Test func `a continuation line of a list item is a field of its own`() {
        #expect(pairs("- item\n  key:: value") == ["key=value"])
    }

    @Test func `the line's first separator divides key and value`() {
        #expect(pairs("a:: b:: c") == ["a=b:: c"])
    }

    @Test func `a line longer than Dataview reads is not searched`() {
        #expect(fields("key:: " + String(repeating: "x", count: 40_000)).isEmpty)
    }
}

@Suite("Bracketed inline fields") struct BracketedInlineFieldTests {
    @Test func `square brackets and parentheses anywhere in a line are fields`() {
        let found = fields("I rate it [rating:: 9] and feel (mood:: happy).")
        #expect(found == [
            InlineField(key: "rating", value: "9", syntax: .bracket, line: 1, column: 11),
            InlineField(key: "mood", value: "happy", syntax: .parenthesis, line: 1, column: 33),
        ])
    }

    @Test func `several fields on a line come in column order`() {
        let found = fields("(c:: 3) [a:: 1] (d:: 4) [b:: 2]")
        #expect(found.map(\.key) == ["c", "a", "d", "b"])
        #expect(found.map(\.column) == [1, 9, 17, 25])
    }

    @Test func `keys and values are trimmed and keys may hold spaces and punctuation`() {
        #expect(pairs("[ Book Rating ::  9 ] [what?:: x]") == ["Book Rating=9", "what?=x"])
    }

    @Test func `a bracketed key keeps its formatting`() {
        #expect(pairs("[**Bold**:: x]") == ["**Bold**=x"])
    }

    @Test func `nested brackets in a value are matched`() {
        #expect(pairs("[link:: [[Some Note]]] after") == ["link=[[Some Note]]"])
        #expect(pairs("[list:: [a, [b]], c] tail") == ["list=[a, [b]], c"])
    }

    @Test func `a field of the same kind inside a value is part of the value`() {
        #expect(pairs("[a:: [b:: 2]]") == ["a=[b:: 2]"])
    }

    @Test func `a field of the other kind inside a value is a field too, as in Dataview`() {
        #expect(pairs("[a:: (b:: 2)]") == ["a=(b:: 2)", "b=2"])
    }

    @Test func `an escaped closing bracket does not end the value`() {
        #expect(pairs(#"[a:: x\]y] z"#) == [#"a=x\]y"#])
    }

    @Test func `a bracket before the separator means the bracket is not a field`() {
        #expect(pairs("[text](http://x.com) and [k:: v]") == ["k=v"])
        #expect(pairs("[a [b]:: c]") == [])
    }

    @Test func `an unclosed bracket is no bracketed field`() {
        #expect(fields("(a:: 1").allSatisfy { $0.syntax != .parenthesis })
    }

    @Test func `a bracketed field makes the rest of the line no full-line field`() {
        #expect(pairs("key:: value [other:: x]") == ["other=x"])
    }

    @Test func `a field with an empty key is ignored`() {
        #expect(fields("[:: x]").isEmpty)
    }

    @Test func `columns count Unicode scalars, not bytes`() {
        #expect(fields("été 🎉 [k:: v]").first?.column == 7)
    }

    @Test func `a wikilink beside a field is no field and a wikilink value is matched`() {
        #expect(pairs("See [[Note]] (source:: [[Book]]) today") == ["source=[[Book]]"])
    }

    @Test func `many unclosed candidates on one line are scanned in linear time`() {
        // Each candidate's value runs to the end of the line: searched one by one, that is quadratic.
        let line = String(repeating: "[a:: (b:: ", count: 3_000)
        #expect(fields(line).map(\.syntax) == [.fullLine])
    }
}

@Suite("Inline fields and hiding") struct InlineFieldHidingTests {
    @Test func `fields in fenced code are not fields`() {
        #expect(fields("```\nkey:: v\n[k:: v]\n```\nafter:: yes").map(\.key) == ["after"])
        #expect(fields("~~~md\nkey:: v\n~~~").isEmpty)
    }

    @Test func `fields in inline code are not fields`() {
        #expect(fields("`key:: value`").isEmpty)
        #expect(pairs("text `[a:: 1]` and [b:: 2]") == ["b=2"])
    }

    @Test func `a key written as inline code is inside inline code`() {
        #expect(fields("`key`:: value").isEmpty)
    }

    @Test func `a bracket inside inline code does not end a value`() {
        #expect(pairs("[a:: x `]` y] z") == ["a=x `]` y"])
    }

    @Test func `fields in HTML comments are not fields`() {
        #expect(fields("<!-- key:: value -->").isEmpty)
        #expect(fields("<!--\nkey:: value\n[k:: v]\n-->").isEmpty)
        #expect(pairs("<!-- [a:: 1] --> [b:: 2]") == ["b=2"])
    }

    @Test func `a line after a comment closes mid-line keeps its visible fields`() {
        #expect(pairs("<!--\nhidden\n--> [shown:: yes]") == ["shown=yes"])
    }

    @Test func `Obsidian comments do not hide fields`() {
        #expect(pairs("%% key:: value %%") == ["key=value %%"])
    }
}

@Suite("Inline fields of tasks") struct TaskInlineFieldTests {
    @Test func `a task's bracketed fields are the task's, not the page's`() {
        #expect(fields("- [ ] ship it [due:: Friday]").isEmpty)
    }

    @Test func `a task's continuation lines belong to the task`() {
        #expect(fields("- [x] done\n  [completed:: today]\n  note:: x").isEmpty)
    }

    @Test func `a plain item under a task gives the page its fields, as in Dataview`() {
        #expect(pairs("- [ ] task\n    - detail:: yes") == ["detail=yes"])
    }

    @Test func `after the task's list ends, lines are the page's again`() {
        #expect(pairs("- [ ] task\n\nafter:: yes") == ["after=yes"])
    }

    @Test func `a task in a callout keeps its fields too`() {
        #expect(fields("> [!todo]\n> - [ ] write [due:: Monday]").isEmpty)
    }
}

@Suite("Inline fields in notes") struct NoteInlineFieldTests {
    @Test func `frontmatter is not searched and body lines keep their file line numbers`() {
        let note = NoteParser.parse(Array("---\nkey:: in yaml\n---\nbody:: yes\n".utf8), path: "N.md")
        #expect(note.inlineFields == [InlineField(key: "body", value: "yes", syntax: .fullLine, line: 4, column: 1)])
    }

    @Test func `a CRLF line ending is not part of the value`() {
        #expect(pairs("a:: 1\r\nb:: 2\r\n") == ["a=1", "b=2"])
    }
}
