import Foundation
import Testing
import RhizomeCore
import RhizomeStore
import RhizomeTestSupport

/// A list item's or task's `section` links to its heading as Dataview links it: the heading's text with
/// links read as their text, markdown and punctuation dropped, spaces collapsed (`normalizeHeaderForLink`).
@Suite struct DataviewSectionTests {
    let vault: DataviewVault

    init() throws {
        let files = try TemporaryVault()
        try files.write("Hub.md", """
            - before any heading
            ## Header  [[Outer Wilds]]
            - first
            ## **Bold** *Value*
            - [ ] task under bold
            ### Header   📷 [[Outer Wilds|Thing]]  
            - third
            ## Setup: step 1 (draft)
            - fourth
            """)
        try files.write("Outer Wilds.md", "A game.\n")
        vault = try DataviewVault(indexing: files)
    }

    @Test func `sections are the normalized headings`() throws {
        #expect(try vault.rows(#"TABLE WITHOUT ID map(file.lists, (l) => meta(l.section).subpath) FROM "Hub""#) == [[
            "[-, Header Outer Wilds, Bold Value, Header 📷 Outer Wilds Thing, Setup step 1 draft]",
        ]])
    }

    @Test func `a task is found by its normalized section`() throws {
        let result = try vault.run(#"TASK FROM "Hub" WHERE meta(section).subpath = "Bold Value""#)
        #expect(result.tasks.map(\.text) == ["task under bold"])
    }

    @Test func `a section equals a link literal to the heading, which is normalized the same way`() throws {
        #expect(try vault.rows(#"TABLE WITHOUT ID filter(file.lists, (l) => l.section = [[Hub#Header Outer Wilds]]).text FROM "Hub""#)
            == [["[first]"]])
        #expect(try vault.rows(#"TABLE WITHOUT ID filter(file.lists, (l) => l.section = [[Hub#Setup: step 1 (draft)]]).text FROM "Hub""#)
            == [["[fourth]"]])
    }
}
