/// Tests of `DataviewKey`: Dataview's canonical field names (`canonicalizeVarName`) and its grammar for
/// the key of a full-line field.
import Testing
@testable import RhizomeCore

@Suite("Dataview canonical keys") struct DataviewCanonicalKeyTests {
    @Test func `spaces become dashes and letters are lowercased`() {
        #expect(DataviewKey.canonicalKey("Book Rating") == "book-rating")
    }

    @Test func `a run of whitespace becomes one dash`() {
        #expect(DataviewKey.canonicalKey("Book \t Rating") == "book-rating")
    }

    @Test func `formatting and punctuation are dropped`() {
        #expect(DataviewKey.canonicalKey("**Bold**") == "bold")
        #expect(DataviewKey.canonicalKey("Rating (out of 10)") == "rating-out-of-10")
        #expect(DataviewKey.canonicalKey("what?!") == "what")
    }

    @Test func `dashes, underscores and ASCII digits are kept`() {
        #expect(DataviewKey.canonicalKey("due_date-2") == "due_date-2")
    }

    @Test func `a slash is dropped but the spaces around it are not`() {
        #expect(DataviewKey.canonicalKey("a / b") == "a--b")
    }

    @Test func `letters of any script are kept and lowercased`() {
        #expect(DataviewKey.canonicalKey("Été Prévu") == "été-prévu")
        #expect(DataviewKey.canonicalKey("日本語 キー") == "日本語-キー")
    }

    @Test func `a decomposed accent stays with its letter and comes out composed`() {
        #expect(DataviewKey.canonicalKey("E\u{301}te\u{301}") == "été")
    }

    @Test func `emoji are kept as they are`() {
        #expect(DataviewKey.canonicalKey("🎉 Party") == "🎉-party")
        #expect(DataviewKey.canonicalKey("Mood 👍🏽") == "mood-👍🏽")
        #expect(DataviewKey.canonicalKey("1️⃣ first") == "1️⃣-first")
    }

    @Test func `digits of other scripts are dropped as Dataview drops them`() {
        #expect(DataviewKey.canonicalKey("٣") == "")
    }

    @Test func `a key of punctuation only has no canonical form`() {
        #expect(DataviewKey.canonicalKey("***") == "")
        #expect(DataviewKey.canonicalKey("") == "")
    }
}

@Suite("Dataview full-line keys") struct DataviewFullLineKeyTests {
    private func key(_ raw: String) -> String? {
        DataviewKey.fullLineKey(Substring(raw))?.key
    }

    @Test func `plain keys, keys with spaces, dashes, slashes and digits are keys`() {
        #expect(key("Rating") == "Rating")
        #expect(key("Book Rating") == "Book Rating")
        #expect(key("due-date/2") == "due-date/2")
    }

    @Test func `bold, italic, strikethrough and code marks around a key are dropped`() {
        #expect(key("**Bold**") == "Bold")
        #expect(key("*Italic*") == "Italic")
        #expect(key("~~Struck~~") == "Struck")
        #expect(key("`Code`") == "Code")
    }

    @Test func `underscores are word characters and stay`() {
        #expect(key("__under__") == "__under__")
    }

    @Test func `heading and quote markers before the key are dropped`() {
        #expect(key("## Status") == "Status")
        #expect(key("> Status") == "Status")
    }

    @Test func `a leading emoji is dropped and a later one kept, as in Dataview`() {
        #expect(key("🎉 Party") == "Party")
        #expect(key("Mood 😀") == "Mood 😀")
    }

    @Test func `punctuation inside the key makes the line no field`() {
        #expect(key("What? Why") == nil)
        #expect(key("Time: 10") == nil)
        #expect(key("a.b") == nil)
    }

    @Test func `a key of marks only is no key`() {
        #expect(key("**") == nil)
        #expect(key("🎉") == nil)
    }

    @Test func `the dropped prefix is counted in Unicode scalars`() {
        #expect(DataviewKey.fullLineKey("**Bold**")?.droppedScalars == 2)
        #expect(DataviewKey.fullLineKey("🎉 Party")?.droppedScalars == 2)
    }
}
