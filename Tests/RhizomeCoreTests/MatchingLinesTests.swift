/// `MatchingLines`, behind `search --context N`: which lines hold a query word (case and accents ignored),
/// the lines around them, and how a terminal shows the words.
import Testing
import RhizomeCore

@Suite struct MatchingLinesTests {
    @Test func `matching words are marked where they occur, whatever their case and accents, overlapping words once`() {
        func red(_ line: String, _ words: [String]) -> String { MatchingLines.highlighted(line, words: words, open: "<", close: ">") }
        #expect(red("The Café and the cafe", ["cafe"]) == "The <Café> and the <cafe>")
        #expect(red("a watcher here", ["watch", "watcher"]) == "a <watcher> here")
        #expect(red("nothing", ["else"]) == "nothing")
    }

    @Test func `a query's words lose FTS5 syntax, and operators only in raw queries`() {
        #expect(MatchingLines.words(of: ["Café*", "\"sync\"", "(notes)"], raw: false) == ["cafe", "sync", "notes"])
        #expect(MatchingLines.words(of: ["sync OR backup", "NOT x"], raw: true) == ["sync", "backup", "x"])
        #expect(MatchingLines.words(of: ["sync OR backup"], raw: false) == ["sync", "or", "backup"])
    }

    @Test func `lines around each match are shown once, numbered from 1, without their CRLF endings`() {
        let text = "one\r\ntwo Sync\r\nthree\r\nfour\r\nfive\r\nsix SYNC\r\nseven\r\n"
        let found = MatchingLines(in: Array(text.utf8), words: ["sync"], around: 1)
        #expect(found.matchingLines == 2)
        #expect(found.lines.map(\.line) == [1, 2, 3, 5, 6, 7])
        #expect(found.lines.filter(\.match).map(\.text) == ["two Sync", "six SYNC"])
        #expect(found.lines.allSatisfy { !$0.text.hasSuffix("\r") })
        let overlapping = MatchingLines(in: Array(text.utf8), words: ["sync"], around: 5)
        #expect(overlapping.lines.map(\.line) == Array(1...8), "the last, empty line after the final newline counts as a line")
        #expect(MatchingLines(in: Array("no match\n".utf8), words: ["sync"], around: 2).lines.isEmpty)
    }
}
