/// Tests of `FrontmatterEditor`: edits change only the YAML between the delimiters, untouched entries
/// keep their exact text, refusals for what cannot be rewritten faithfully, and idempotence.
import Foundation
import Testing
@testable import RhizomeCore
import RhizomeTestSupport

private func editor(_ text: String) throws(FrontmatterEditError) -> FrontmatterEditor {
    try FrontmatterEditor(fileBytes: Array(text.utf8))
}

/// The file after `change`, checking on the way that applying `change` again changes nothing.
private func edited(_ text: String, _ change: (inout FrontmatterEditor) -> Void) throws -> String {
    try String(decoding: editedBytes(Array(text.utf8), change), as: UTF8.self)
}

private func editedBytes(_ bytes: [UInt8], _ change: (inout FrontmatterEditor) -> Void) throws -> [UInt8] {
    var first = try FrontmatterEditor(fileBytes: bytes)
    change(&first)
    let output = first.renderedBytes()
    var second = try FrontmatterEditor(fileBytes: output)
    change(&second)
    #expect(!second.hasChanges, "the same edit applied twice changed the file again")
    #expect(second.renderedBytes() == output)
    return output
}

private func list(_ items: String...) -> FrontmatterValue {
    .list(items.map { FrontmatterNode(value: .string($0), line: 0, column: 0) })
}

private func editError(_ text: String) -> FrontmatterEditError? {
    do {
        _ = try editor(text)
        return nil
    } catch {
        return error
    }
}

@Suite("FrontmatterEditor: what is kept") struct FrontmatterEditorKeepingTests {
    static let note = """
        ---
        # preamble comment
        title:   "Spaced  title"   # why
        'quoted': single

        tags:
          - a
          # - b (disabled)
        status: draft
        ---
        Body with --- a rule:
        ---
        and a [[Link]] #tag
        """

    @Test func `an editor with no edits renders the input bytes exactly`() throws {
        let value = try editor(Self.note)
        #expect(!value.hasChanges)
        #expect(value.renderedBytes() == Array(Self.note.utf8))
    }

    @Test func `setting one key keeps every other entry, comment and the body byte for byte`() throws {
        let output = try edited(Self.note) { $0.setValue(.string("done"), forKey: "status") }
        #expect(output == Self.note.replacingOccurrences(of: "status: draft", with: "status: done"))
    }

    @Test func `a replaced value keeps the comments and blank lines after it`() throws {
        let output = try edited(Self.note) { $0.setValue(list("x", "y"), forKey: "tags") }
        #expect(output.contains("tags:\n  - x\n  - y\n  # - b (disabled)\nstatus: draft\n"))
        let title = try edited(Self.note) { $0.setValue(.string("New"), forKey: "quoted") }
        #expect(title.contains("quoted: New\n\ntags:"))
    }

    @Test func `keys and values read from the file, last one wins for duplicates`() throws {
        let value = try editor("---\na: 1\nb: two\na: 3\n---\n")
        #expect(value.keys == ["a", "b", "a"])
        #expect(value.value(forKey: "a")?.value == .number(3, text: "3"))
        #expect(value.value(forKey: "missing") == nil)
    }

    @Test func `values reflect edits with positions in the new text`() throws {
        var value = try editor("---\na: 1\n---\n")
        value.setValue(.string("x"), forKey: "b", insertAfter: nil)
        #expect(value.value(forKey: "b") == FrontmatterNode(value: .string("x"), line: 3, column: 4))
    }

    @Test func `setting an identical rendering is no change`() throws {
        var value = try editor("---\r\ntags:\r\n  - a\r\ncount: 2\r\n---\r\n")
        value.setValue(list("a"), forKey: "tags")
        value.setValue(.number(2, text: "2"), forKey: "count")
        #expect(!value.hasChanges)
    }

    @Test func `a BOM, CRLF lines, a body without a final newline are kept and new lines use CRLF`() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("---\r\ntitle: x\r\n---\r\nbody\r\n---\r\nend".utf8)
        let output = try editedBytes(bytes) { $0.setValue(.string("y"), forKey: "status") }
        #expect(output == [0xEF, 0xBB, 0xBF] + Array("---\r\ntitle: x\r\nstatus: y\r\n---\r\nbody\r\n---\r\nend".utf8))
    }

    @Test func `invalid UTF-8 in the body is carried over untouched`() throws {
        let bytes = Array("---\na: 1\n---\n".utf8) + [0xFF, 0xFE, 0x00, 0x0A]
        #expect(try editedBytes(bytes) { $0.setValue(.bool(true), forKey: "a") } == Array("---\na: true\n---\n".utf8) + [0xFF, 0xFE, 0x00, 0x0A])
    }

    @Test func `a closing delimiter at the end of the file without a newline is kept`() throws {
        #expect(try edited("---\na: 1\n---") { $0.setValue(.string("b"), forKey: "a") } == "---\na: b\n---")
    }
}

@Suite("FrontmatterEditor: inserting") struct FrontmatterEditorInsertTests {
    @Test func `a new key goes at the end, before the last entry's trailing blank lines`() throws {
        #expect(try edited("---\na: 1\n\n---\nbody") { $0.setValue(.string("x"), forKey: "b") } == "---\na: 1\nb: x\n\n---\nbody")
    }

    @Test func `a new key goes right after the named entry, which hands it its trailer`() throws {
        let output = try edited("---\na: 1\n\n# Section\nc: 3\n---\n") { $0.setValue(.string("x"), forKey: "b", insertAfter: "a") }
        #expect(output == "---\na: 1\nb: x\n\n# Section\nc: 3\n---\n")
    }

    @Test func `an unknown insertAfter key appends at the end`() throws {
        #expect(try edited("---\na: 1\n---\n") { $0.setValue(.null, forKey: "b", insertAfter: "zzz") } == "---\na: 1\nb:\n---\n")
    }

    @Test func `an empty block takes new keys`() throws {
        #expect(try edited("---\n---\nbody") { $0.setValue(list("t"), forKey: "tags") } == "---\ntags:\n  - t\n---\nbody")
        #expect(try edited("---\n# only a comment\n---\n") { $0.setValue(.string("x"), forKey: "a") } == "---\n# only a comment\na: x\n---\n")
    }

    @Test func `a note without frontmatter gets a block in front of its untouched bytes`() throws {
        #expect(try edited("# Heading\n\n---\ntext") { $0.setValue(.string("x"), forKey: "title") } == "---\ntitle: x\n---\n# Heading\n\n---\ntext")
        #expect(try edited("") { $0.setValue(.bool(true), forKey: "draft") } == "---\ndraft: true\n---\n")
    }

    @Test func `a note without frontmatter keeps its BOM first and its CRLF style`() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("Text\r\nmore".utf8)
        let output = try editedBytes(bytes) { $0.setValue(.string("x"), forKey: "a") }
        #expect(output == [0xEF, 0xBB, 0xBF] + Array("---\r\na: x\r\n---\r\nText\r\nmore".utf8))
    }

    @Test func `a note without frontmatter is unchanged when nothing is left to write`() throws {
        var value = try editor("text")
        value.setValue(.string("x"), forKey: "a")
        value.removeKey("a")
        #expect(!value.hasChanges)
        #expect(value.renderedBytes() == Array("text".utf8))
    }
}

@Suite("FrontmatterEditor: renaming, removing, reordering") struct FrontmatterEditorStructureTests {
    @Test func `renaming rewrites only the key token, even a quoted one`() throws {
        #expect(try edited("---\n\"tag\":  [a, b] # c\n---\n") { $0.renameKey("tag", to: "tags") } == "---\ntags:  [a, b] # c\n---\n")
        #expect(try edited("---\n'tag' : x\n---\n") { $0.renameKey("tag", to: "tags") } == "---\ntags : x\n---\n")
        #expect(try edited("---\ncafé: |\n  text\n---\n") { $0.renameKey("café", to: "my key: odd") } == "---\n\"my key: odd\": |\n  text\n---\n")
    }

    @Test func `renaming onto an existing key is refused`() throws {
        var value = try editor("---\ntag: a\ntags: b\n---\n")
        #expect(value.renameKey("tag", to: "tags") == false)
        #expect(!value.hasChanges)
    }

    @Test func `removing a key removes its lines but keeps a section comment after it`() throws {
        let text = "---\na: 1\nb:\n  - x\n  # old\n\n# Section\nc: 3\nd: 4\n\n---\n"
        #expect(try edited(text) { $0.removeKey("b") } == "---\na: 1\n\n# Section\nc: 3\nd: 4\n\n---\n")
        #expect(try edited(text) { $0.removeKey("d") } == "---\na: 1\nb:\n  - x\n  # old\n\n# Section\nc: 3\n---\n")
        #expect(try edited("---\na: 1\n# note\nb: 2\n---\n") { $0.removeKey("a") } == "---\n# note\nb: 2\n---\n")
    }

    @Test func `removing every occurrence of a duplicated key`() throws {
        #expect(try edited("---\na: 1\nb: 2\na: 3\n---\n") { $0.removeKey("a") } == "---\nb: 2\n---\n")
    }

    @Test func `reordering moves multi-line entries with their comments`() throws {
        let text = """
            ---
            # About this note
            summary: >-
              Folded
              text
            tags:
              - a
              - b
            meta:
              nested:
                deep: 1
            # end of meta
            title: Hello
            ---
            body

            """
        let output = try edited(text) { $0.reorder(["title", "tags"]) }
        // A comment right above a key belongs to it (`# end of meta` sits above `title`); comments before
        // the first key head the block and stay first.
        #expect(output == """
            ---
            # About this note
            # end of meta
            title: Hello
            tags:
              - a
              - b
            summary: >-
              Folded
              text
            meta:
              nested:
                deep: 1
            ---
            body

            """)
    }

    @Test func `reordering what is already in order changes nothing`() throws {
        var value = try editor("---\na: 1\nb: 2\nc: 3\n---\n")
        value.reorder(["a", "b", "missing"])
        #expect(!value.hasChanges)
    }

    @Test func `an edit that would break an alias is refused`() throws {
        var value = try editor("---\nbase: &b 1\ncopy: *b\n---\n")
        #expect(value.removeKey("base") == false)
        #expect(value.reorder(["copy"]) == false)
        #expect(value.keys == ["base", "copy"])
        #expect(!value.hasChanges)
    }

    @Test func `indented comment lines inside a block scalar stay with the value`() throws {
        let output = try edited("---\nnote: |\n  # heading\n  text\n  # last\nnext: 1\n---\n") { $0.setValue(.string("x"), forKey: "note") }
        #expect(output == "---\nnote: x\nnext: 1\n---\n")
    }
}

@Suite("FrontmatterEditor: refusals") struct FrontmatterEditorErrorTests {
    @Test func `invalid YAML is refused with its position`() {
        guard case .invalidYAML(let line, _, let message)? = editError("---\ntitle: x\nbad: [unclosed\n---\n") else {
            Issue.record("expected invalidYAML")
            return
        }
        #expect(line >= 3)
        #expect(!message.isEmpty)
    }

    @Test func `an unclosed block is refused`() {
        #expect(editError("---\ntitle: x\n") == .unclosedBlock)
    }

    @Test func `a root that is a list or a scalar is refused`() {
        #expect(editError("---\n- a\n- b\n---\n") == .notAMapping)
        #expect(editError("---\njust text\n---\n") == .notAMapping)
    }

    @Test func `flow or JSON frontmatter and document markers are refused`() {
        #expect(editError("---\n{\"a\": 1, \"b\": 2}\n---\n") == .notBlockStyle)
        #expect(editError("---\n{\na: 1}\n---\n") == .notBlockStyle)
        #expect(editError("---\n? a\n: 1\n---\n") == .notBlockStyle)
        #expect(editError("---\na: 1\n...\n---\n") == .notBlockStyle)
        #expect(editError("---\na: 1\rb: 2\n---\n") == .notBlockStyle)
    }

    @Test func `an alias without an anchor before it is refused as invalid YAML`() {
        #expect(editError("---\ncopy: *b\nbase: &b 1\n---\n") == .invalidYAML(line: 2, column: 7, message: "the alias *b has no anchor &b before it"))
    }

    @Test func `error messages say what is wrong and what to do`() {
        #expect(FrontmatterEditError.unclosedBlock.description.contains("Add a line `---`"))
        #expect(FrontmatterEditError.notBlockStyle.description.contains("one `key: value` line per property"))
        #expect(FrontmatterEditError.invalidYAML(line: 3, column: 5, message: "oops").description.contains("line 3, column 5: oops"))
    }
}

// MARK: - Real vaults

/// A value as text without positions or quoting (and with NaN comparable), for "the data is the same".
private func canonical(_ value: FrontmatterValue) -> String {
    switch value {
    case .list(let items): return "[" + items.map { canonical($0.value) }.joined(separator: ",") + "]"
    case .map(let entries): return "{" + entries.map { "\($0.key.debugDescription):\(canonical($0.value.value))" }.joined(separator: ",") + "}"
    case .number(_, let text): return "n:\(text)"
    default: return "\(value)"
    }
}

/// The frontmatter block's YAML text and the bytes after it (the whole file when there is no block).
private func split(_ bytes: [UInt8]) -> (yaml: [UInt8], body: ArraySlice<UInt8>) {
    let bomLength = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    guard case .found(let location) = bytes.withUnsafeBufferPointer({ FrontmatterBlock.detect(UnsafeBufferPointer(rebasing: $0[bomLength...])) }) else {
        return ([], bytes[...])
    }
    return (Array(bytes[(bomLength + location.yamlStart)..<(bomLength + location.yamlEnd)]), bytes[(bomLength + location.bodyStart)...])
}

/// The top-level mapping of a file's frontmatter, canonicalised, read by `YAMLParser` on its own.
private func properties(_ bytes: [UInt8]) -> [String: String] {
    guard case .success(let root?) = split(bytes).yaml.withUnsafeBufferPointer({ YAMLParser.parse($0) }),
          case .map(let entries) = root.value else { return [:] }
    return Dictionary(entries.map { ($0.key, canonical($0.value.value)) }, uniquingKeysWith: { $1 })
}

private func body(_ bytes: [UInt8]) -> ArraySlice<UInt8> { split(bytes).body }

private func lineCounts(_ yaml: [UInt8]) -> [ArraySlice<UInt8>: Int] {
    yaml.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).reduce(into: [:]) { $0[$1, default: 0] += 1 }
}

@Suite("FrontmatterEditor on real vaults") struct FrontmatterEditorCorpusTests {
    /// Each corpus with the share of its notes to edit (a quarter of the hub's 6,500 keeps the test near a second).
    @Test(arguments: [("obsidian-help-en", 1), ("obsidian-hub", 4), ("claude-skills", 1)])
    func `edits keep every body and every untouched property of a real vault`(corpus: String, stride: Int) throws {
        guard let root = Fixtures.corpus(corpus) else { return }
        let notes = (FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".md") } ?? []).sorted()
        let files = notes.enumerated().filter { $0.offset % stride == 0 }.map(\.element)
        var edited = 0
        for file in files {
            guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(file).path) else { continue }
            let original = Array(data)
            guard var editor = try? FrontmatterEditor(fileBytes: original) else { continue }
            #expect(editor.renderedBytes() == original, "\(file): no edit")
            let before = properties(original)
            let keys = editor.keys
            let newKey = "rhizome-added"
            guard !keys.contains(newKey) else { continue }

            let inserted = editor.setValue(.list([FrontmatterNode(value: .string("a: b"), line: 0, column: 0)]), forKey: newKey, insertAfter: keys.first)
            #expect(inserted, "\(file): insert")
            if let first = keys.first, keys.filter({ $0 == first }).count == 1, before[first] != nil {
                let renamed = editor.renameKey(first, to: "rhizome-renamed")
                #expect(renamed, "\(file): rename")
            }
            editor.reorder(editor.keys.reversed())
            let output = editor.renderedBytes()
            #expect(body(output) == body(original), "\(file): body changed")
            // Every line of the old YAML is still there, save the renamed key's line.
            var missing = lineCounts(split(original).yaml)
            for (line, count) in lineCounts(split(output).yaml) { missing[line, default: 0] -= count }
            #expect(missing.values.filter { $0 > 0 }.reduce(0, +) <= 1, "\(file): lines lost")

            var after = properties(output)
            #expect(after.removeValue(forKey: newKey) == "[\(FrontmatterValue.string("a: b"))]", "\(file): new value")
            if let first = keys.first, let renamed = after.removeValue(forKey: "rhizome-renamed") {
                after[first] = renamed
            }
            #expect(after == before, "\(file): properties changed")

            var again = try FrontmatterEditor(fileBytes: output)
            again.removeKey(newKey)
            #expect(properties(again.renderedBytes()).count == after.count, "\(file): remove")
            edited += 1
        }
        #expect(edited > 0 || files.isEmpty)
    }
}
