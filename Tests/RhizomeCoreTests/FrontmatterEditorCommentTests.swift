/// Comments survive rewrites that cannot keep them in place, and travel with the key they describe.
import Foundation
import Testing
@testable import RhizomeCore

@Suite struct FrontmatterEditorCommentTests {
    private func rewrite(_ text: String, _ change: (inout FrontmatterEditor) -> Void) throws -> String {
        var editor = try FrontmatterEditor(fileBytes: Array(text.utf8))
        change(&editor)
        return String(decoding: editor.renderedBytes(), as: UTF8.self)
    }

    private func list(_ items: String...) -> FrontmatterValue {
        .list(items.map { FrontmatterNode(value: .string($0), line: 0, column: 0) })
    }

    @Test func `comments inside and after a value rewritten over several lines are kept above its key`() throws {
        let text = "---\ntype: idea\ntags: foo  # important, keep\nrelated:\n  - [[B]]   # why B matters\n  # a guess\n  - C\n---\nbody\n"
        let output = try rewrite(text) { editor in
            editor.setValue(list("foo"), forKey: "tags")
            editor.setValue(list("[[B]]", "C"), forKey: "related")
        }
        #expect(output == "---\ntype: idea\n# important, keep\ntags:\n  - foo\n# why B matters\n# a guess\nrelated:\n  - \"[[B]]\"\n  - C\n---\nbody\n")
    }

    @Test func `a comment after a one-line value stays on the line`() throws {
        let output = try rewrite("---\ntype: note   # renamed later\n---\n") { $0.setValue(.string("idea"), forKey: "type") }
        #expect(output == "---\ntype: idea   # renamed later\n---\n")
    }

    @Test func `a block scalar's lines starting with # are text, not comments`() throws {
        let text = "---\nnotes: |\n  # a heading in the text\n  more\nx: 1\n---\n"
        let output = try rewrite(text) { $0.setValue(list("a"), forKey: "notes") }
        #expect(output == "---\nnotes:\n  - a\nx: 1\n---\n")
    }

    @Test func `a comment block right above a key moves with it when keys are reordered`() throws {
        let text = "---\nstatus: seed\n# why: the title differs from the file name\ntitle: X\n\n# section\nother: 1\n---\n"
        let output = try rewrite(text) { $0.reorder(["title", "status"]) }
        // The blank line stays with the entry it follows; the `# section` comment stays with `other`.
        #expect(output == "---\n# why: the title differs from the file name\ntitle: X\n\nstatus: seed\n# section\nother: 1\n---\n")
    }
}
