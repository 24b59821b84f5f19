import Foundation
import Testing
import RhizomeCore
import RhizomeStore
import RhizomeTestSupport

/// Dataview reads frontmatter tags and aliases its own way (`DataviewFrontmatterTags`): any `tag`/`tags`
/// and `alias`/`aliases` key in any case, text split at commas (and, for tags, spaces), nothing validated.
/// `file.tags`, `file.etags`, `file.aliases` and `FROM #tag` all follow it; body tags stay Obsidian's.
@Suite struct DataviewFrontmatterTagTests {
    let vault: DataviewVault

    init() throws {
        let files = try TemporaryVault()
        // Shapes from real vaults and Dataview's issues: upper-case legacy keys, comma and space separated
        // text, a year as a tag, empty list items.
        try files.write("Legacy.md", "---\nTAG:\n  - value1\n  - value2\nALIAS:\n  - test 1\n  - test 2\n---\n- #tag-in-body\n")
        try files.write("Comma.md", "---\ntags: \"garden/tending, seeds soil\"\nalias: \"One, Two\"\n---\nText #inline\n")
        try files.write("Year.md", "---\ntag: 2024\ntags: [a, \"\", null]\n---\n")
        try files.write("Plain.md", "---\ntags: [garden]\naliases: [Plain note]\n---\n")
        vault = try DataviewVault(indexing: files)
    }

    @Test func legacyKeysInAnyCaseGiveTagsAndAliases() throws {
        #expect(try vault.rows(#"TABLE file.etags, file.aliases FROM "Legacy""#) == [["Legacy.md", "[#tag-in-body, #value1, #value2]", "[test 1, test 2]"]])
    }

    @Test func textIsSplitAtCommasAndSpacesForTagsAndAtCommasForAliases() throws {
        #expect(try vault.rows(#"TABLE file.etags, file.tags, file.aliases FROM "Comma""#) == [[
            "Comma.md", "[#inline, #garden/tending, #seeds, #soil]", "[#inline, #garden/tending, #garden, #seeds, #soil]", "[One, Two]",
        ]])
    }

    @Test func nothingIsValidatedAndEmptyItemsAreSkipped() throws {
        #expect(try vault.rows(#"TABLE file.etags FROM "Year""#) == [["Year.md", "[#2024, #a]"]])
    }

    @Test func tagSourcesMatchFrontmatterTagsAsDataviewReadsThem() throws {
        #expect(try vault.paths("LIST FROM #garden").sorted() == ["Comma.md", "Plain.md"])
        #expect(try vault.paths("LIST FROM #value2") == ["Legacy.md"])
        #expect(try vault.paths("LIST FROM #2024") == ["Year.md"])
        #expect(try vault.paths("LIST FROM #inline") == ["Comma.md"])
        #expect(try vault.paths("LIST FROM -#garden").sorted() == ["Legacy.md", "Year.md"])
    }
}
