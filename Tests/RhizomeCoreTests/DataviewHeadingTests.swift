/// Headings as Dataview links them (`normalizeHeaderForLink` in `src/util/normalize.ts`; the cases of
/// `src/test/util/normalize.test.ts`), and heading subpaths of link literals (`Link.infer`).
import Testing
@testable import RhizomeCore

@Suite("Dataview: heading subpaths") struct DataviewHeadingTests {
    @Test func `Dataview's own cases: links read as their text, markup dropped, spaces collapsed`() {
        #expect(DataviewHeading.linkSubpath("Header  [[Outer Wilds]]  ") == "Header Outer Wilds")
        #expect(DataviewHeading.linkSubpath("Header - More") == "Header - More")
        #expect(DataviewHeading.linkSubpath("Header _ More _") == "Header _ More _")
        #expect(DataviewHeading.linkSubpath("Header  [[Outer Wilds|Thing]]  ") == "Header Outer Wilds Thing")
        #expect(DataviewHeading.linkSubpath("**Header** *Value") == "Header Value")
        #expect(DataviewHeading.linkSubpath("Header   📷 [[Outer Wilds]]  ") == "Header 📷 Outer Wilds")
    }

    @Test func `punctuation becomes a space; letters of any script, digits and emoji stay`() {
        #expect(DataviewHeading.linkSubpath("Setup: step 1 (draft)") == "Setup step 1 draft")
        #expect(DataviewHeading.linkSubpath("Café naïve 日本語の見出し") == "Café naïve 日本語の見出し")
        #expect(DataviewHeading.linkSubpath("`code` & <b>html</b>") == "code b html b")
        #expect(DataviewHeading.linkSubpath("a/b.c") == "a b c")
        #expect(DataviewHeading.linkSubpath("👩‍💻 Work") == "👩‍💻 Work")
        #expect(DataviewHeading.linkSubpath(" ?! ") == "")
    }

    @Test func `a link literal's heading is normalized, up to a further #, and a block id is kept`() {
        #expect(DataviewLink.parts(of: "Note#Header  **bold**") == ("Note", "Header bold", nil))
        #expect(DataviewLink.parts(of: "Note#Setup: step 1|Shown") == ("Note", "Setup step 1", "Shown"))
        #expect(DataviewLink.parts(of: "Note#A#B") == ("Note", "A", nil))
        #expect(DataviewLink.parts(of: "#Some: Heading") == ("", "Some Heading", nil))
        #expect(DataviewLink.parts(of: "Note#^b-1") == ("Note", "^b-1", nil))
        #expect(DataviewLink.parts(of: "Note#A#^b1") == ("Note#A", "^b1", nil))  // Dataview looks for `#^` first
    }
}
