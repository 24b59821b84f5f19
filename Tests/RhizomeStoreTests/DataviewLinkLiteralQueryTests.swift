import Foundation
import Testing
import RhizomeCore
import RhizomeStore
import RhizomeTestSupport

/// Link literals in queries run over an index: escaped pipes (`[[Hello \| There]]` is a link to
/// `Hello | There`, as Dataview's `parseInnerLink` reads it) and lists of links.
@Suite struct DataviewLinkLiteralQueryTests {
    let vault: DataviewVault

    init() throws {
        let files = try TemporaryVault()
        try files.write("Hub.md", "Links to [[Target]] and [[Other]].\n")
        try files.write("Target.md", "A target.\n")
        try files.write("Other.md", "Another.\n")
        vault = try DataviewVault(indexing: files)
    }

    @Test func `an escaped pipe in a link literal is part of its path, the first unescaped one starts the display`() throws {
        #expect(try vault.rows(#"TABLE WITHOUT ID meta([[Hello \| There]]).path, meta([[\||Yes]]).display FROM "Hub""#)
            == [["Hello | There", "Yes"]])
        #expect(try vault.rows(#"TABLE WITHOUT ID meta([[Target|A \| B]]).display, [[Target|x]].file.name FROM "Hub""#)
            == [[#"A \| B"#, "Target"]])
    }

    @Test func `a link source with an escaped pipe names that path, which no note has`() throws {
        #expect(try vault.paths(#"LIST FROM [[Target]]"#) == ["Hub.md"])
        #expect(try vault.paths(#"LIST FROM [[Target \| x]]"#).isEmpty)
    }

    @Test func `a list of link literals is a list, not a link`() throws {
        #expect(try vault.rows(#"TABLE WITHOUT ID length([[[Target]], [[Other]]]), contains(file.outlinks, [[[Target]], [[Missing]]]) FROM "Hub""#)
            == [["2", "[true, false]"]])
    }
}
