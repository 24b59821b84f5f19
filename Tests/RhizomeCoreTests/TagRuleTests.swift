/// Obsidian's tag rule, case by case (docs/OBSIDIAN.md, "Tags"): which characters a tag holds, which end it, what may
/// come before `#`, and the digit rule, in note bodies and in frontmatter. The cases are the ones real
/// vaults write (emoji tags, kepano's `0🌲`, arrows) and the boundaries around them.
import Testing
import RhizomeCore

@Suite("Tags: Obsidian's character rule") struct TagRuleTests {
    private func tags(_ text: String) -> [String] { MarkdownScanner.scan(text).tags.map(\.name) }
    private func frontmatterTags(_ yaml: String) -> (tags: [String], findings: [Finding]) {
        let note = NoteParser.parse(Array("---\n\(yaml)\n---\n".utf8), path: "Note.md")
        return (note.tags.filter(\.isFromFrontmatter).map(\.name), note.findings)
    }

    @Test(arguments: [
        ("#📚books", ["📚books"]), ("#✅done", ["✅done"]), ("#→arrow", ["→arrow"]), ("#tag🌲", ["tag🌲"]),
        ("#❤️love", ["❤️love"]), ("#€uro", ["€uro"]), ("#café #日本語", ["café", "日本語"]), ("#١٢٣", ["١٢٣"]),
        ("#12-34", ["12-34"]), ("#1_2", ["1_2"]), ("#y1984", ["y1984"]),
    ])
    func `emoji, symbols and digits of other scripts are part of a tag`(text: String, expected: [String]) {
        #expect(tags(text) == expected)
    }

    @Test(arguments: [
        ("#a,b", ["a"]), ("#a.b", ["a"]), ("#a:b", ["a"]), ("#a—b", ["a"]), ("#a…b", ["a"]), ("#a“b", ["a"]),
        ("#a•b", ["a"]), ("#tag's", ["tag"]), ("#tag’s", ["tag"]), ("#letters*", ["letters"]), ("#FFF23456;", ["FFF23456"]),
        ("#a\u{00A0}b", ["a"]), ("#a\u{3000}b", ["a"]), ("#👨\u{200D}💻dev", ["👨"]),
    ])
    func `punctuation, Unicode spaces and joiners end a tag`(text: String, expected: [String]) {
        #expect(tags(text) == expected)
    }

    @Test(arguments: [("#1984", [String]()), ("#3344:", []), ("#1.5", []), ("#1984#x", [])])
    func `a tag needs a character that is not an ASCII digit, after it is cut`(text: String, expected: [String]) {
        #expect(tags(text) == expected)
    }

    @Test(arguments: [
        ("a#b", [String]()), ("(#tag)", []), ("\"#quoted\"", []), ("end.#x", []), ("x—#dash", []), ("\\#escaped", []),
        ("https://x.com/#frag", []),
    ])
    func `plain text or punctuation right before the hash makes no tag`(text: String, expected: [String]) {
        #expect(tags(text) == expected)
    }

    @Test(arguments: [
        ("\\[\\[#Escaped Links\\]\\]", ["Escaped"]), ("#a#b", ["a", "b"]), ("[#tag]", ["tag"]), ("[[Note]]#after", ["after"]),
        ("`code`#after", ["after"]), (">#quoted", ["quoted"]), ("> > #deep", ["deep"]), ("| #cell |", ["cell"]), ("|#cell|", ["cell"]),
        ("x\u{00A0}#nbsp", ["nbsp"]), ("x\u{3000}#wide", ["wide"]), ("x\u{2003}#em", ["em"]),
    ])
    func `a tag starts after whitespace of any kind or right after markup`(text: String, expected: [String]) {
        #expect(tags(text) == expected)
    }

    @Test func `frontmatter tags follow the same characters, with or without the hash`() {
        #expect(frontmatterTags("tags: [0🌲, 📚books, \"#✅done\", →next]").tags == ["0🌲", "📚books", "✅done", "→next"])
        #expect(frontmatterTags("tags: [0🌲]").findings.isEmpty)
        #expect(frontmatterTags("tags: [\"#area/\"]").tags == ["area"])  // one trailing slash is dropped
    }

    @Test func `frontmatter tags with punctuation or only digits are refused with a finding`() {
        let read = frontmatterTags("tags: [\"a&b\", \"1984\", good]")
        #expect(read.tags == ["good"])
        #expect(read.findings.map(\.code) == [.invalidTagValue, .invalidTagValue])
        #expect(read.findings.first?.fix?.contains("punctuation") == true)
        #expect(read.findings.last?.fix == "add a letter: `y1984`")
    }
}
