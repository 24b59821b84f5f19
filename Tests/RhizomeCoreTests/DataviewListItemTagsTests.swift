/// Tags of list items as Dataview reads them (its `extractTags` over the item's text), which differ from
/// Obsidian's rule at the edges: nothing needed before `#`, all-digit tags count, and a candidate with any
/// other character is dropped whole.
import Testing
import RhizomeCore

@Suite("Dataview list-item tags") struct DataviewListItemTagsTests {
    @Test(arguments: [
        ("#one,#two, #three", ["#one", "#two", "#three"]),
        ("plan#next step", ["#next"]),
        ("year #1984", ["#1984"]),
        ("#a*b and #ok", ["#ok"]),
        ("#tag→x #fine", ["#fine"]),
        ("#📷photos #日本語 #café", ["#📷photos", "#日本語", "#café"]),
        ("#dup and #dup again", ["#dup"]),
        ("#a#b", []),
        ("(#paren) [#bracket] #end.", ["#paren", "#bracket", "#end"]),
        ("#", []),
    ])
    func `candidates run to whitespace or punctuation and must be letters, digits, _ / - or emoji`(text: String, expected: [String]) {
        #expect(DataviewListItemTags.tags(in: text) == expected)
    }
}
