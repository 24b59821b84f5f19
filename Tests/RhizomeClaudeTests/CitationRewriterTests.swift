import Testing
import RhizomeClaude

/// `[n]` citations become `[[wikilinks]]` however the streamed text is cut.
@Suite struct CitationRewriterTests {
    static let links = [1: "ADR-001 Use SQLite", 2: "Storage schema", 12: "Projects/Alpha/Index"]

    @Test func `citations split across pieces are rewritten and remembered in order`() {
        let answer = "We chose SQLite [2] because it is one file [1][12]. See [3], [x] and [ 1] as they are; arrays like a[0] too."
        for size in [1, 2, 3, 5, answer.count] {
            var rewriter = CitationRewriter(links: Self.links)
            var shown = ""
            var index = answer.startIndex
            while index < answer.endIndex {
                let end = answer.index(index, offsetBy: size, limitedBy: answer.endIndex) ?? answer.endIndex
                shown += rewriter.feed(String(answer[index..<end]))
                index = end
            }
            shown += rewriter.finish()
            #expect(shown == "We chose SQLite [[Storage schema]] because it is one file [[ADR-001 Use SQLite]][[Projects/Alpha/Index]]. See [3], [x] and [ 1] as they are; arrays like a[0] too.", "pieces of \(size)")
            #expect(rewriter.cited == [2, 1, 12])
        }
    }

    @Test func `an open bracket at the end of the answer is shown, not lost`() {
        var rewriter = CitationRewriter(links: Self.links)
        let shown = rewriter.feed("unfinished [1") + rewriter.finish()
        #expect(shown == "unfinished [1")
        #expect(rewriter.cited.isEmpty)
    }
}
