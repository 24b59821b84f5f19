/// Tests of `JSONText`, the writer of the frontmatter JSON stored in the index: the whole frontmatter
/// assembled from its values' JSON equals the frontmatter encoded at once, and is valid JSON.
import Foundation
import Testing
@testable import RhizomeCore
@testable import RhizomeStore

@Suite struct JSONTextTests {
    private func entries(_ yaml: String) throws -> [FrontmatterEntry] {
        let note = NoteParser.parse(Array("---\n\(yaml)\n---\nBody\n".utf8), path: "Note.md")
        return try #require(note.frontmatter?.entries)
    }

    @Test(arguments: [
        "title: Plain",
        "title: \"quote \\\" and backslash \\\\ inside\"\ncount: 3\nratio: 0.25\nbig: 12345678901234567\nflag: true\nnothing: ~",
        "when: 2024-05-20\nstamp: 2024-01-31T10:30:00Z\ninf: .inf\nnan: .NaN\nhex: 0x1F",
        "tags:\n  - one\n  - \"two, three\"\nnested:\n  inner: [a, {b: c}]\n  empty: {}\n  none: []",
        "text: \"line\\nbreak\\ttab\\u0001control\"\nunicode: Zürich 東京 \"é\"",
        "\"key with \\\"quotes\\\"\": value\n\"\": empty key",
    ])
    func `the frontmatter assembled from its encoded values equals it encoded at once, and is JSON`(yaml: String) throws {
        let entries = try entries(yaml)
        #expect(entries.count == yaml.split(separator: "\n").filter { !$0.hasPrefix(" ") }.count, "every top-level key was read")
        let assembled = JSONText.encode(entries, encodedValues: entries.map { JSONText.encode($0.value.value) })
        #expect(assembled == JSONText.encode(.map(entries)))
        let object = try JSONSerialization.jsonObject(with: Data(assembled.utf8)) as? [String: Any]
        #expect(object?.count == Set(entries.map(\.key)).count, "\(assembled)")
    }

    @Test func `an empty frontmatter is an empty object`() {
        #expect(JSONText.encode([], encodedValues: []) == "{}")
        #expect(JSONText.encode(.map([])) == "{}")
    }

    @Test func `strings become a JSON array in their order, escaped`() throws {
        #expect(JSONText.array([String]()) == "[]")
        let strings = ["a", "quote \" and \\", "line\nbreak", "Zürich"]
        let array = JSONText.array(strings)
        #expect(try JSONSerialization.jsonObject(with: Data(array.utf8)) as? [String] == strings)
    }
}
