/// Tests of `YAMLWriter`: Obsidian's block layout, when strings are quoted, escapes, and the round trip
/// through `YAMLParser` (what we write reads back as the same value).
import Testing
@testable import RhizomeCore

/// The value of `k` after parsing `text`, with positions and quoting cleared for comparison.
private func parsedValue(_ text: String) -> FrontmatterValue? {
    guard case .success(let root?) = YAMLParser.parse(text), case .map(let entries) = root.value else { return nil }
    return entries.last.map { withoutPositions($0.value.value) }
}

private func withoutPositions(_ value: FrontmatterValue) -> FrontmatterValue {
    switch value {
    case .list(let items): return .list(items.map { node(withoutPositions($0.value)) })
    case .map(let entries):
        return .map(entries.map { FrontmatterEntry(key: $0.key, keyLine: 0, keyColumn: 0, value: node(withoutPositions($0.value.value))) })
    default: return value
    }
}

private func node(_ value: FrontmatterValue) -> FrontmatterNode { FrontmatterNode(value: value, line: 0, column: 0) }

private func map(_ pairs: [(String, FrontmatterValue)]) -> FrontmatterValue {
    .map(pairs.map { FrontmatterEntry(key: $0.0, keyLine: 0, keyColumn: 0, value: node($0.1)) })
}

/// Strings that break naive YAML writers.
private let trickyStrings: [String] = [
    "", " ", "  padded", "trailing ", "\ttab", "line\nbreak", "cr\rhere", "nul\u{0}byte", "bell\u{7}", "del\u{7F}",
    "true", "False", "TRUE", "null", "Null", "~", "yes", "No", "ON", "off", "y", "n", "<<", "=",
    "1", "-1", "+1", "-1.5", ".5", "1.", "1e3", "1E-3", "0x1F", "0o17", "0b101", "007", "1_000", "1:30", ".inf", "-.Inf", ".nan", "1.2.3",
    "2024-01-31", "2024-01-31T09:30", "2024-01-31 09:30:00Z", "2024-01-31 meeting",
    "- item", "-", "--", "---", "...", "? q", "?", ":", ": x", "a:", "key: value", "a: b", "a:b", "a #b", "a#b", "#tag", "##",
    ",", "[", "]", "{", "}", "[[Note]]", "[[Note|alias]]", "![[image.png]]", "{a: 1}", "[a, b]", "&anchor", "*alias", "!tag", "!!str",
    "|", "|-", ">", ">-", "'single'", "\"double\"", "it's", "say \"hi\"", "back\\slash", "\\n", "%percent", "@at", "`tick`",
    "café", "日本語のノート", "emoji 🌱🚀", "👩‍💻", "e\u{301}", "\u{85}nel", "line\u{2028}sep", "para\u{2029}sep", "\u{FEFF}bom",
    "\u{A0}nbsp\u{A0}", "Hello world", "https://example.com/a?b=c#d", "C:\\path\\to", "a, b, c", "50%", "$100", "x: y: z",
]

@Suite("YAMLWriter") struct YAMLWriterTests {
    @Test func `scalars are written on the key line`() {
        #expect(YAMLWriter.entryLines(key: "title", value: .string("Hello world")) == ["title: Hello world"])
        #expect(YAMLWriter.entryLines(key: "count", value: .number(7, text: "007")) == ["count: 007"])
        #expect(YAMLWriter.entryLines(key: "done", value: .bool(false)) == ["done: false"])
        #expect(YAMLWriter.entryLines(key: "day", value: .date("2024-01-31")) == ["day: 2024-01-31"])
    }

    @Test func `null has nothing after the colon and an empty list is brackets`() {
        #expect(YAMLWriter.entryLines(key: "empty", value: .null) == ["empty:"])
        #expect(YAMLWriter.entryLines(key: "tags", value: .list([])) == ["tags: []"])
        #expect(YAMLWriter.entryLines(key: "meta", value: .map([])) == ["meta: {}"])
    }

    @Test func `a list is written in block style with two-space indents`() {
        let value = FrontmatterValue.list([node(.string("a")), node(.string("b c")), node(.string("[[Note]]"))])
        #expect(YAMLWriter.entryLines(key: "tags", value: value) == ["tags:", "  - a", "  - b c", "  - \"[[Note]]\""])
    }

    @Test func `maps nest and list items that are maps or lists start on the dash line`() {
        let value = map([
            ("author", .string("Ada")),
            ("links", .list([node(map([("name", .string("x")), ("url", .string("https://x.org"))])), node(.list([node(.number(1, text: "1"))]))])),
            ("inner", map([("deep", .list([node(.null)]))])),
        ])
        #expect(YAMLWriter.entryLines(key: "meta", value: value) == [
            "meta:", "  author: Ada", "  links:", "    - name: x", "      url: https://x.org", "    - - 1", "  inner:", "    deep:", "      -",
        ])
        #expect(parsedValue(YAMLWriter.entryLines(key: "meta", value: value).joined(separator: "\n")) == value)
    }

    @Test func `strings that YAML would read as something else are quoted`() {
        for text in ["true", "No", "null", "~", "1", "-1.5", "1e3", "0x1F", ".inf", ".nan", "007", "2024-01-31", "2024-01-31T09:30", ""] {
            #expect(YAMLWriter.scalar(.string(text)) == "\"\(text)\"", "\(text)")
        }
    }

    @Test func `strings with YAML syntax are quoted and ordinary ones are plain`() {
        for text in ["- a", "#tag", "[[Note]]", "a: b", "a #b", "ends:", " lead", "trail ", "{x}", "&a", "*a", "!x", "|", ">", "%", "@", "`", "'q'", "\"q\""] {
            #expect(YAMLWriter.scalar(.string(text)).hasPrefix("\""), "\(text)")
        }
        for text in ["Hello world", "a:b", "a#b", "café", "emoji 🌱", "Note [[Link]]", "it's", "3 apples", "v1.2", "50%"] {
            #expect(YAMLWriter.scalar(.string(text)) == text, "\(text)")
        }
    }

    @Test func `quoted strings escape quotes backslashes and invisible characters`() {
        #expect(YAMLWriter.quoted("say \"hi\"\\") == #""say \"hi\"\\""#)
        #expect(YAMLWriter.quoted("a\nb\tc\r") == #""a\nb\tc\r""#)
        #expect(YAMLWriter.quoted("\u{1}\u{7F}\u{2028}\u{FEFF}") == #""\u0001\u007F\u2028\uFEFF""#)
        #expect(YAMLWriter.quoted("🌱 é") == "\"🌱 é\"")
    }

    @Test func `keys follow the same quoting rule`() {
        #expect(YAMLWriter.entryLines(key: "my key", value: .string("x")) == ["my key: x"])
        #expect(YAMLWriter.entryLines(key: "a: b", value: .string("x")) == ["\"a: b\": x"])
        #expect(YAMLWriter.entryLines(key: "#tag", value: .string("x")) == ["\"#tag\": x"])
        #expect(YAMLWriter.entryLines(key: "", value: .string("x")) == ["\"\": x"])
    }

    @Test func `every tricky string reads back as the same string`() {
        for text in trickyStrings {
            let written = YAMLWriter.scalar(.string(text))
            #expect(parsedValue("k: \(written)\n") == .string(text), "\(text.debugDescription) written as \(written)")
            let asKey = YAMLWriter.entryLines(key: text, value: .bool(true)).joined(separator: "\n")
            if case .success(let root?) = YAMLParser.parse(asKey), case .map(let entries) = root.value {
                #expect(entries.map(\.key) == [text], "key \(text.debugDescription) written as \(asKey)")
            } else {
                Issue.record("key \(text.debugDescription) written as \(asKey) does not parse")
            }
        }
    }

    @Test func `tricky strings survive as list items and nested values`() {
        let value = FrontmatterValue.list(trickyStrings.map { node(.string($0)) } + [node(map(trickyStrings.enumerated().map { ("k\($0.offset)", .string($0.element)) }))])
        #expect(parsedValue(YAMLWriter.entryLines(key: "items", value: value).joined(separator: "\n")) == value)
    }

    @Test func `other value types read back as themselves`() {
        let values: [FrontmatterValue] = [
            .null, .bool(true), .bool(false), .number(42, text: "42"), .number(-1.5, text: "-1.5"), .number(1000, text: "1e3"),
            .date("2024-01-31"), .date("2024-01-31T09:30"), .list([]), .map([]),
        ]
        for value in values {
            #expect(parsedValue(YAMLWriter.entryLines(key: "k", value: value).joined(separator: "\n")) == value, "\(value)")
        }
        #expect(YAMLWriter.scalar(.number(3, text: "")) == "3")
    }

    @Test func `a non-empty list or map as a scalar is written in flow style`() {
        let value = FrontmatterValue.list([node(.string("a, b")), node(.string("c")), node(.null)])
        #expect(YAMLWriter.scalar(value) == "[\"a, b\", c, null]")
        #expect(parsedValue("k: " + YAMLWriter.scalar(value)) == value)
        #expect(YAMLWriter.scalar(map([("x", .number(1, text: "1"))])) == "{x: 1}")
    }
}
