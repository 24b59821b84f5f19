import Testing
import RhizomeClaude

/// What explore searches for from the model's translation of a question: one line of keywords, whatever
/// else the reply holds.
@Suite struct TranslationReplyTests {
    @Test func `the first line of keywords is used, after blank lines and a label line`() {
        #expect(Explore.searchWords(ofTranslation: "sync conflict merge\nextra words\n") == "sync conflict merge")
        #expect(Explore.searchWords(ofTranslation: "\n\n  sync conflict  \n") == "sync conflict")
        #expect(Explore.searchWords(ofTranslation: "Keywords:\nsqlite decision reason\n") == "sqlite decision reason")
        #expect(Explore.searchWords(ofTranslation: "Keywords:\n") == "")
        #expect(Explore.searchWords(ofTranslation: String(repeating: "w ", count: 400)).count == 300)
    }
}
