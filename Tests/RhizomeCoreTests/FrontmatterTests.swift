/// Tests of frontmatter (Obsidian properties) through `NoteParser.parse` and `YAMLParser.parse`:
/// typed values and positions, invalid and unclosed blocks, `tags`/`aliases`, property links, and
/// awkward bytes (BOM, CRLF, invalid UTF-8). Rules from docs/OBSIDIAN.md, "Frontmatter".
import Testing
@testable import RhizomeCore

private func parse(_ text: String, path: String = "Note.md") -> ParsedNote {
    NoteParser.parse(Array(text.utf8), path: path)
}

private func codes(_ note: ParsedNote) -> [FindingCode] {
    note.findings.map(\.code)
}

/// The top-level mapping of a YAML text, or an empty list when it is not one.
private func yamlEntries(_ text: String, lineOffset: Int = 0) -> [FrontmatterEntry] {
    guard case .success(let node?) = YAMLParser.parse(text, lineOffset: lineOffset), case .map(let entries) = node.value else {
        return []
    }
    return entries
}

// MARK: - Values and positions

@Suite("Frontmatter values") struct FrontmatterValueTests {
    static let note = """
        ---
        title: Hello world
        count: 42
        padded: 007
        ratio: 1.5
        done: true
        off: false
        nothing: null
        tilde: ~
        empty:
        day: 2024-01-31
        quotedDay: "2024-01-31"
        quotedBool: "true"
        version: 1.2.3
        list: [a, b]
        map:
          inner: 1
        ---
        Body
        """

    @Test func `a plain scalar is a string`() {
        #expect(parse(Self.note).frontmatter?["title"]?.value == .string("Hello world"))
    }

    @Test func `an integer is a number keeping its source text`() {
        let frontmatter = parse(Self.note).frontmatter
        #expect(frontmatter?["count"]?.value == .number(42, text: "42"))
        #expect(frontmatter?["padded"]?.value == .number(7, text: "007"))
        #expect(frontmatter?["ratio"]?.value == .number(1.5, text: "1.5"))
    }

    @Test func `true and false are booleans`() {
        let frontmatter = parse(Self.note).frontmatter
        #expect(frontmatter?["done"]?.value == .bool(true))
        #expect(frontmatter?["off"]?.value == .bool(false))
    }

    @Test func `null, tilde and an empty value are null`() {
        let frontmatter = parse(Self.note).frontmatter
        #expect(frontmatter?["nothing"]?.value == .null)
        #expect(frontmatter?["tilde"]?.value == .null)
        #expect(frontmatter?["empty"]?.value == .null)
    }

    @Test func `an unquoted ISO date is a date`() {
        #expect(parse(Self.note).frontmatter?["day"]?.value == .date("2024-01-31"))
    }

    @Test func `quoted scalars are always strings`() {
        let frontmatter = parse(Self.note).frontmatter
        #expect(frontmatter?["quotedDay"]?.value == .string("2024-01-31"))
        #expect(frontmatter?["quotedBool"]?.value == .string("true"))
    }

    @Test func `a version number with two dots is a string`() {
        #expect(parse(Self.note).frontmatter?["version"]?.value == .string("1.2.3"))
    }

    @Test func `a flow list is a list of its items`() {
        guard case .list(let items)? = parse(Self.note).frontmatter?["list"]?.value else {
            Issue.record("`list` is not a list")
            return
        }
        #expect(items.map(\.value) == [.string("a"), .string("b")])
    }

    @Test func `a nested mapping is a map`() {
        guard case .map(let entries)? = parse(Self.note).frontmatter?["map"]?.value else {
            Issue.record("`map` is not a map")
            return
        }
        #expect(entries.map(\.key) == ["inner"])
        #expect(entries.first?.value.value == .number(1, text: "1"))
    }

    @Test func `keys keep their file order`() {
        let keys = parse(Self.note).frontmatter?.entries.map(\.key)
        #expect(keys?.first == "title")
        #expect(keys?.last == "map")
        #expect(keys?.count == 15)
    }

    @Test func `key positions are file lines, starting at line 2`() {
        let frontmatter = parse(Self.note).frontmatter
        let title = frontmatter?.entries.first { $0.key == "title" }
        #expect(title?.keyLine == 2)
        #expect(title?.keyColumn == 1)
        let count = frontmatter?.entries.first { $0.key == "count" }
        #expect(count?.keyLine == 3)
        #expect(frontmatter?["title"]?.line == 2)
        #expect(frontmatter?["title"]?.column == 8)
    }

    @Test func `a nested key has its own line and column`() {
        guard case .map(let entries)? = parse(Self.note).frontmatter?["map"]?.value else {
            Issue.record("`map` is not a map")
            return
        }
        #expect(entries.first?.keyLine == 17)
        #expect(entries.first?.keyColumn == 3)
    }

    @Test func `the closing delimiter line is recorded and the body starts after it`() {
        let note = parse("---\na: 1\n---\n[[Link]]")
        #expect(note.frontmatter?.closingLine == 3)
        #expect(note.links.first?.line == 4)
        #expect(note.bodyText == "[[Link]]")
    }

    @Test func `a valid note has no findings`() {
        #expect(parse(Self.note).findings.isEmpty)
    }

    @Test func `an empty frontmatter block gives no properties and no findings`() {
        let note = parse("---\n---\nBody")
        #expect(note.frontmatter?.entries.isEmpty == true)
        #expect(note.frontmatter?.isInvalid == false)
        #expect(note.findings.isEmpty)
    }

    @Test func `trailing spaces after the closing delimiter are allowed`() {
        let note = parse("---\ntitle: x\n---   \nBody")
        #expect(note.frontmatter?["title"]?.value == .string("x"))
        #expect(note.findings.isEmpty)
    }
}

@Suite("YAMLParser") struct YAMLParserTests {
    @Test func `an empty document is nil`() {
        guard case .success(let node) = YAMLParser.parse("") else {
            Issue.record("empty YAML failed to parse")
            return
        }
        #expect(node == nil)
    }

    @Test func `line offset is added to every line`() {
        let entries = yamlEntries("a: 1\nb: 2", lineOffset: 1)
        #expect(entries.map(\.keyLine) == [2, 3])
        #expect(entries.map(\.keyColumn) == [1, 1])
    }

    @Test func `scalars follow the YAML 1.2 core schema`() {
        let entries = yamlEntries("""
            t: True
            n: NULL
            yes: yes
            hex: 0x1F
            exponent: 1e3
            negative: -2
            leadingDot: .5
            datetime: 2024-01-31T10:30:00Z
            text: hello
            """)
        let values = Dictionary(uniqueKeysWithValues: entries.map { ($0.key, $0.value.value) })
        #expect(values["t"] == .bool(true))
        #expect(values["n"] == .null)
        #expect(values["yes"] == .string("yes"))
        #expect(values["hex"] == .number(31, text: "0x1F"))
        #expect(values["exponent"] == .number(1000, text: "1e3"))
        #expect(values["negative"] == .number(-2, text: "-2"))
        #expect(values["leadingDot"] == .number(0.5, text: ".5"))
        #expect(values["datetime"] == .date("2024-01-31T10:30:00Z"))
        #expect(values["text"] == .string("hello"))
    }

    @Test(arguments: [
        ("~", FrontmatterValue.null), ("null", .null), ("Null", .null), ("NULL", .null), ("nULL", .string("nULL")), ("nil", .string("nil")),
        ("true", .bool(true)), ("True", .bool(true)), ("TRUE", .bool(true)), ("tRUE", .string("tRUE")), ("truest", .string("truest")),
        ("false", .bool(false)), ("False", .bool(false)), ("FALSE", .bool(false)), ("fals", .string("fals")),
        (".inf", .number(.infinity, text: ".inf")), ("+.Inf", .number(.infinity, text: "+.Inf")), ("-.INF", .number(-.infinity, text: "-.INF")),
        ("+", .string("+")), (".", .string(".")), ("~~", .string("~~")), ("planned", .string("planned")),
        ("0o17", .number(15, text: "0o17")), ("12", .number(12, text: "12")), ("2024-05-20", .date("2024-05-20")), ("Zürich", .string("Zürich")),
    ])
    func `plain scalars are typed by the YAML 1.2 core schema, keywords in their three spellings only`(text: String, expected: FrontmatterValue) {
        #expect(yamlEntries("key: \(text)").first?.value.value == expected)
        // Quoted, any of them is text.
        #expect(yamlEntries("key: '\(text)'").first?.value.value == .string(text))
    }

    @Test func `a plain scalar .nan is a number that is not a number`() {
        let value = yamlEntries("key: .NaN").first?.value.value
        guard case .number(let number, let text) = value else { Issue.record("\(String(describing: value))"); return }
        #expect(number.isNaN && text == ".NaN")
    }

    @Test func `quoted scalars are marked as quoted`() {
        let entries = yamlEntries("a: \"x\"\nb: 'y'\nc: z")
        #expect(entries.map(\.value.isQuoted) == [true, true, false])
    }

    @Test func `a block list has its items with positions`() {
        let entries = yamlEntries("items:\n  - one\n  - two")
        guard case .list(let items)? = entries.first?.value.value else {
            Issue.record("`items` is not a list")
            return
        }
        #expect(items.map(\.value) == [.string("one"), .string("two")])
        #expect(items.map(\.line) == [2, 3])
        #expect(items.map(\.column) == [5, 5])
    }

    @Test func `a syntax error reports its line and column`() {
        guard case .failure(let error) = YAMLParser.parse("ok: 1\nkey: value: other", lineOffset: 1) else {
            Issue.record("invalid YAML parsed")
            return
        }
        #expect(error.line == 3)
        #expect(error.column == 11)
    }
}

// MARK: - Broken frontmatter

@Suite("Broken frontmatter") struct BrokenFrontmatterTests {
    @Test func `invalid YAML gives a finding with the file line and column`() {
        let note = parse("---\ntitle: ok\nkey: value: other\n---\nSee [[Body Link]]", path: "Folder/Bad.md")
        let finding = note.findings.first { $0.code == .invalidYAML }
        #expect(finding != nil)
        #expect(finding?.path == "Folder/Bad.md")
        #expect(finding?.line == 3)
        #expect(finding?.column == 11)
        #expect(finding?.severity == .error)
    }

    @Test func `invalid YAML leaves the note without properties`() {
        let note = parse("---\ntags: [a]\naliases: [x]\nrelated: \"[[Prop]]\"\nkey: value: other\n---\nBody")
        #expect(note.frontmatter?.isInvalid == true)
        #expect(note.frontmatter?.entries.isEmpty == true)
        #expect(note.tags.isEmpty)
        #expect(note.aliases.isEmpty)
        #expect(note.links.isEmpty)
    }

    @Test func `invalid YAML still lets the body be scanned`() {
        let note = parse("---\nkey: value: other\n---\nSee [[Body Link]] #bodytag")
        #expect(note.links.map(\.path) == ["Body Link"])
        #expect(note.links.first?.line == 4)
        #expect(note.tags.map(\.name) == ["bodytag"])
    }

    @Test func `an unclosed block gives a finding and the whole file is body`() {
        let note = parse("---\ntitle: x\nSee [[Link]]\n")
        #expect(codes(note) == [.unclosedFrontmatter])
        #expect(note.frontmatter == nil)
        #expect(note.links.map(\.path) == ["Link"])
        #expect(note.links.first?.line == 3)
        #expect(note.bodyText == "---\ntitle: x\nSee [[Link]]\n")
    }

    @Test func `frontmatter not on the first line is not frontmatter`() {
        let note = parse("\n---\ntags: [a]\ntitle: x\n---\nBody")
        #expect(note.frontmatter == nil)
        #expect(note.tags.isEmpty)
    }

    @Test func `a frontmatter that is a list is not a set of properties`() {
        let note = parse("---\n- a\n- b\n---\nBody")
        #expect(codes(note) == [.frontmatterNotMapping])
        #expect(note.frontmatter?.entries.isEmpty == true)
    }

    @Test func `duplicate keys give a finding at the later key, and the later value wins`() {
        let note = parse("---\ntitle: first\nother: 1\ntitle: second\n---\n")
        let finding = note.findings.first { $0.code == .duplicateKey }
        #expect(finding?.line == 4)
        #expect(finding?.column == 1)
        #expect(note.frontmatter?["title"]?.value == .string("second"))
    }

    @Test(arguments: [3, 15, 16, 17, 40])
    func `duplicate keys are found in small and large mappings, in NFC and NFD alike, in order`(keyCount: Int) {
        // Up to 15 keys a mapping is searched in order, from 16 by a table: both must find the same twins.
        let keys = (0..<keyCount).map { "key\($0)" }
        var lines = keys.map { "\($0): first" }
        lines += ["caf\u{E9}: nfc", "key0: second", "cafe\u{301}: nfd", "key\(keyCount - 1): last"]
        let note = parse("---\n" + lines.joined(separator: "\n") + "\n---\n")
        let duplicates = note.findings.filter { $0.code == .duplicateKey }
        #expect(duplicates.map(\.line) == [keyCount + 3, keyCount + 4, keyCount + 5])
        #expect(note.frontmatter?.entries.map(\.key) == keys + ["caf\u{E9}"])
        #expect(note.frontmatter?["key0"]?.value == .string("second"))
        #expect(note.frontmatter?["caf\u{E9}"]?.value == .string("nfd"))
        #expect(note.frontmatter?["key\(keyCount - 1)"]?.value == .string("last"))
    }
}

// MARK: - JSON frontmatter

@Suite("JSON frontmatter") struct JSONFrontmatterTests {
    @Test func `a JSON object is read as properties`() {
        let note = parse("---\n{\"title\": \"From JSON\", \"count\": 3, \"tags\": [\"json\"], \"aliases\": [\"J\"]}\n---\nBody")
        #expect(note.findings.isEmpty)
        #expect(note.frontmatter?["title"]?.value == .string("From JSON"))
        #expect(note.frontmatter?["count"]?.value == .number(3, text: "3"))
        #expect(note.tags.map(\.name) == ["json"])
        #expect(note.aliases == ["J"])
    }

    @Test func `a multi-line JSON object is read as properties`() {
        let note = parse("---\n{\n  \"title\": \"x\",\n  \"related\": \"[[Other]]\"\n}\n---\n")
        #expect(note.frontmatter?["title"]?.value == .string("x"))
        #expect(note.links.map(\.path) == ["Other"])
        #expect(note.links.first?.propertyKey == "related")
    }
}

// MARK: - Tags and aliases

@Suite("Frontmatter tags and aliases") struct FrontmatterTagTests {
    @Test func `a single scalar tags value is one tag`() {
        let note = parse("---\ntags: single\n---\n")
        #expect(note.tags.map(\.name) == ["single"])
        #expect(note.tags.first?.isFromFrontmatter == true)
        #expect(note.tags.first?.line == 2)
        #expect(note.tags.first?.column == 7)
    }

    @Test func `a tags list accepts items with and without a hash`() {
        let note = parse("---\ntags: [a, \"#b\"]\n---\n")
        #expect(note.tags.map(\.name) == ["a", "b"])
        #expect(note.findings.isEmpty)
    }

    @Test func `a block list of tags gives one tag per item`() {
        let note = parse("---\ntags:\n  - project/alpha\n  - \"#urgent\"\n---\n")
        #expect(note.tags.map(\.name) == ["project/alpha", "urgent"])
        #expect(note.tags.map(\.line) == [3, 4])
    }

    @Test func `comma-separated tags give no tags and a finding`() {
        let note = parse("---\ntags: a, b\n---\n")
        #expect(note.tags.isEmpty)
        #expect(codes(note) == [.invalidTagValue])
        #expect(note.findings.first?.line == 2)
    }

    @Test func `an all-digit tag in frontmatter is not a tag`() {
        let note = parse("---\ntags: [1984, y1984]\n---\n")
        #expect(note.tags.map(\.name) == ["y1984"])
    }

    @Test func `a capitalised Tags key is not tags`() {
        #expect(parse("---\nTags: [a]\n---\n").tags.isEmpty)
        #expect(parse("---\nTAGS: [a]\n---\n").tags.isEmpty)
    }

    @Test func `an empty tags key gives no tags and no finding`() {
        let note = parse("---\ntags:\n---\n")
        #expect(note.tags.isEmpty)
        #expect(note.findings.isEmpty)
    }

    @Test func `frontmatter tags come along with body tags`() {
        let note = parse("---\ntags: [front]\n---\n#body")
        #expect(Set(note.tags.map(\.name)) == ["front", "body"])
        #expect(note.tags.first { $0.name == "front" }?.isFromFrontmatter == true)
        #expect(note.tags.first { $0.name == "body" }?.isFromFrontmatter == false)
    }

    @Test func `an aliases list gives each alias`() {
        #expect(parse("---\naliases: [x, y]\n---\n").aliases == ["x", "y"])
    }

    @Test func `a single scalar aliases value is one alias`() {
        #expect(parse("---\naliases: x\n---\n").aliases == ["x"])
    }

    @Test func `legacy singular tag and alias keys are not read`() {
        let note = parse("---\ntag: old\nalias: Old Name\ncssclass: wide\n---\n")
        #expect(note.tags.isEmpty)
        #expect(note.aliases.isEmpty)
    }
}

// MARK: - Property links

@Suite("Property links") struct PropertyLinkTests {
    @Test func `a quoted wikilink value is a property link`() {
        let note = parse("---\nrelated: \"[[Note]]\"\n---\n")
        #expect(note.links.count == 1)
        let link = note.links.first
        #expect(link?.kind == .property)
        #expect(link?.propertyKey == "related")
        #expect(link?.path == "Note")
        #expect(link?.line == 2)
        #expect(link?.column == 11)
    }

    @Test func `two wikilinks in one value are two property links at their own columns`() {
        let note = parse("---\nrelated: \"[[A]] and [[B]]\"\n---\n")
        #expect(note.links.map(\.path) == ["A", "B"])
        #expect(note.links.map(\.column) == [11, 21])
        #expect(note.links.map(\.line) == [2, 2])
    }

    @Test func `a single-quoted wikilink value is a property link`() {
        let link = parse("---\nrelated: '[[Note#Part|Shown]]'\n---\n").links.first
        #expect(link?.kind == .property)
        #expect(link?.path == "Note")
        #expect(link?.subpath == "Part")
        #expect(link?.display == "Shown")
    }

    @Test func `each quoted wikilink in a list is a property link`() {
        let note = parse("---\nup:\n  - \"[[A]]\"\n  - \"[[B]]\"\n---\n")
        #expect(note.links.map(\.path) == ["A", "B"])
        #expect(note.links.map(\.kind) == [.property, .property])
        #expect(note.links.map(\.propertyKey) == ["up", "up"])
        #expect(note.links.map(\.line) == [3, 4])
    }

    @Test func `quoted wikilinks in a flow list are property links`() {
        let note = parse("---\nup: [\"[[A]]\", \"[[B]]\"]\n---\n")
        #expect(note.links.map(\.path) == ["A", "B"])
    }

    @Test func `an unquoted wikilink is a nested YAML list, not a link`() {
        let note = parse("---\nrelated: [[Note]]\n---\n")
        #expect(note.links.isEmpty)
        #expect(note.findings.isEmpty)
    }

    @Test func `unquoted wikilinks in a block list are not links`() {
        #expect(parse("---\nrelated:\n  - [[Note]]\n---\n").links.isEmpty)
    }

    @Test func `a markdown link in a text property is a property link`() {
        let note = parse("---\nsource: see [the page](Notes/Page.md) there\n---\n")
        #expect(note.links.map(\.path) == ["Notes/Page.md"])
        #expect(note.links.first?.kind == .property)
        #expect(note.links.first?.propertyKey == "source")
    }

    @Test func `a markdown link in a list property is a property link`() {
        let note = parse("---\nsources: [\"[a](A.md)\", \"[b](B%20C.md)\"]\n---\n")
        #expect(note.links.map(\.path) == ["A.md", "B C.md"])
    }

    @Test func `an external URL in a property is not a link`() {
        #expect(parse("---\nurl: \"[site](https://example.com)\"\n---\n").links.isEmpty)
    }

    @Test func `a link in a nested map records the dotted key path`() {
        let note = parse("---\nproject:\n  owner: \"[[Alice]]\"\n---\n")
        #expect(note.links.map(\.path) == ["Alice"])
        #expect(note.links.first?.propertyKey == "project.owner")
        #expect(note.links.first?.line == 3)
    }

    @Test func `a hash in a text property is not a tag`() {
        let note = parse("---\nsummary: \"about #topic\"\n---\n")
        #expect(note.tags.isEmpty)
    }

    @Test func `property links come along with body links`() {
        let note = parse("---\nrelated: \"[[Prop]]\"\n---\n[[Body]]")
        #expect(Set(note.links.map(\.path)) == ["Prop", "Body"])
        #expect(note.links.first { $0.path == "Body" }?.kind == .wikilink)
    }
}

// MARK: - Bytes

@Suite("Frontmatter bytes") struct FrontmatterByteTests {
    @Test func `a UTF-8 byte order mark before the frontmatter is ignored`() {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("---\ntitle: x\ntags: [t]\n---\n[[Link]]".utf8)
        let note = NoteParser.parse(bytes, path: "Bom.md")
        #expect(note.findings.isEmpty)
        #expect(note.frontmatter?["title"]?.value == .string("x"))
        #expect(note.tags.map(\.name) == ["t"])
        #expect(note.links.first?.line == 5)
    }

    @Test func `CRLF line endings are read like LF`() {
        let note = parse("---\r\ntitle: x\r\ntags: [a, b]\r\n---\r\n[[Link]] #body\r\n")
        #expect(note.findings.isEmpty)
        #expect(note.frontmatter?["title"]?.value == .string("x"))
        #expect(note.frontmatter?.entries.first { $0.key == "tags" }?.keyLine == 3)
        #expect(note.tags.map(\.name) == ["a", "b", "body"])
        #expect(note.links.map(\.path) == ["Link"])
        #expect(note.links.first?.line == 5)
    }

    @Test func `invalid UTF-8 gives a finding with its position and the rest is parsed`() {
        let bytes = Array("---\ntitle: x\n---\nbad ".utf8) + [0xFF] + Array(" here [[Link]] #tag\n".utf8)
        let note = NoteParser.parse(bytes, path: "Latin.md")
        let finding = note.findings.first { $0.code == .invalidUTF8 }
        #expect(finding?.path == "Latin.md")
        #expect(finding?.line == 4)
        #expect(finding?.column == 5)
        #expect(note.frontmatter?["title"]?.value == .string("x"))
        #expect(note.links.map(\.path) == ["Link"])
        #expect(note.tags.map(\.name) == ["tag"])
    }

    @Test func `invalid UTF-8 inside a property value is replaced and the value kept`() {
        let bytes = Array("---\ntitle: caf".utf8) + [0xE9] + Array("\n---\n".utf8)
        let note = NoteParser.parse(bytes, path: "Latin.md")
        #expect(codes(note) == [.invalidUTF8])
        #expect(note.frontmatter?["title"]?.value == .string("caf\u{FFFD}"))
    }
}

/// The tag grammar frontmatter tags are checked against (body tags stop at the first character outside it).
@Suite struct TagNameTests {
    @Test(arguments: [
        ("project", true), ("project/alpha", true), ("a/b/c", true), ("y1984", true), ("_", true), ("été", true), ("日本語", true),
        ("1984", false), ("", false), ("/a", false), ("a/", false), ("a//b", false), ("/", false), ("//", false), ("a b", false),
        ("a#b", false), ("1/2", true),
    ])
    func `a tag name has letters, digits, underscores, dashes and non-empty nested parts, and is not only digits`(name: String, isValid: Bool) {
        #expect(TagSyntax.isValidTagName(name) == isValid)
        #expect(TagSyntax.isValidTagName(Substring(name)) == isValid)
    }
}
