import Testing
@testable import RhizomeCLI

/// What `search --context` prints on a terminal: each query word in bold red, case and accents ignored,
/// overlapping words once.
@Suite struct SearchLineHighlightTests {
    @Test func `matching words are styled where they occur, whatever their case and accents`() {
        let red = "\u{1B}[1;31m", reset = "\u{1B}[0m"
        #expect(SearchCommand.highlighted("The Café and the cafe", words: ["cafe"]) == "The \(red)Café\(reset) and the \(red)cafe\(reset)")
        #expect(SearchCommand.highlighted("a watcher here", words: ["watch", "watcher"]) == "a \(red)watcher\(reset) here")
        #expect(SearchCommand.highlighted("nothing", words: ["else"]) == "nothing")
    }
}
