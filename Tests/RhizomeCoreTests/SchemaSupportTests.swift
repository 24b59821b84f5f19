import Dispatch
/// Tests of the pieces schemas are built from: `PathGlob`, `DateText`, `NoteIdentifier` (slugs and
/// placeholders), and `FixPlanner` applied through a `FrontmatterEditor`: each fix kind, the body kept
/// byte for byte, and idempotence (fixing the output again changes nothing).
import Foundation
import Testing
@testable import RhizomeCore

// MARK: - PathGlob

@Suite("Schema support: path globs") struct PathGlobTests {
    @Test(arguments: [
        ("*.md", "a.md", true), ("*.md", "notes.md", true), ("*.md", "a/b.md", false), ("*.md", "a.mdx", false),
        ("Projects/*", "Projects/a.md", true), ("Projects/*", "Projects/x/a.md", false), ("Projects/*", "Projects", false),
        ("*/index.md", "a/index.md", true), ("*/index.md", "a/b/index.md", false),
    ])
    func `a star matches within one folder only`(pattern: String, path: String, expected: Bool) {
        #expect(PathGlob(pattern).matches(path) == expected, "\(pattern) vs \(path)")
    }

    @Test(arguments: [
        ("Projects/**", "Projects/a.md", true), ("Projects/**", "Projects/x/y/z.md", true),
        ("Projects/**", "Other/Projects/a.md", false), ("Projects/**", "ProjectsX/a.md", false),
        ("**", "a.md", true), ("**", "a/b/c.md", true),
        ("**.md", "a/b/c.md", true), ("**.md", "a/b/c.txt", false),
        ("**/Sessions/**", "Sessions/a.md", true), ("**/Sessions/**", "Work/2024/Sessions/a.md", true),
        ("**/Sessions/**", "Work/MySessions/a.md", false),
        ("**/*.md", "a.md", true), ("**/*.md", "x/y/a.md", true), ("**/*.md", "x/y/a.txt", false),
    ])
    func `a double star matches across folders`(pattern: String, path: String, expected: Bool) {
        #expect(PathGlob(pattern).matches(path) == expected, "\(pattern) vs \(path)")
    }

    @Test(arguments: [
        ("**/SKILL.md", "SKILL.md", true), ("**/SKILL.md", ".claude/skills/pdf/SKILL.md", true),
        ("**/SKILL.md", "a/XSKILL.md", false), ("**/SKILL.md", "SKILL.md.bak", false),
        ("a/**/b.md", "a/b.md", true), ("a/**/b.md", "a/x/b.md", true), ("a/**/b.md", "a/x/y/b.md", true),
        ("a/**/b.md", "ab.md", false), ("a/**/b.md", "a/xb.md", false),
    ])
    func `a double star with a slash also matches zero folders`(pattern: String, path: String, expected: Bool) {
        #expect(PathGlob(pattern).matches(path) == expected, "\(pattern) vs \(path)")
    }

    @Test(arguments: [
        ("Note?.md", "Note1.md", true), ("Note?.md", "Note.md", false), ("Note?.md", "Note12.md", false),
        ("a?b", "a/b", false), ("??", "ab", true), ("??", "a", false),
    ])
    func `a question mark matches one character other than a slash`(pattern: String, path: String, expected: Bool) {
        #expect(PathGlob(pattern).matches(path) == expected, "\(pattern) vs \(path)")
    }

    @Test(arguments: [
        ("Notes", "Notes/a.md", false), ("a.md", "x/a.md", false), ("a.md", "a.md.bak", false),
        ("Notes/*", "My Notes/x.md", false), ("Templates/**", "Notes/Templates/x.md", false),
        ("a+b (1).md", "a+b (1).md", true), ("[x].md", "[x].md", true), ("[x].md", "x.md", false), ("", "", true), ("", "a", false),
    ])
    func `patterns match whole paths and other characters literally`(pattern: String, path: String, expected: Bool) {
        #expect(PathGlob(pattern).matches(path) == expected, "\(pattern) vs \(path)")
    }

    @Test func `unicode names match character for character`() {
        #expect(PathGlob("Café/*.md").matches("Café/menu.md"))
        #expect(PathGlob("日記/**").matches("日記/2024/一月.md"))
        #expect(PathGlob("?.md").matches("é.md"))
        #expect(PathGlob("?.md").matches("東.md"))
        #expect(PathGlob("??.md").matches("🙂x.md"))
        #expect(!PathGlob("Cafe/*.md").matches("Café/menu.md"))
    }

    @Test func `a pattern written in NFD matches the NFC vault path`() {
        // Vault paths are NFC (VaultScanner normalises them); a folder name pasted from the macOS Finder is NFD.
        let decomposed = "Cafe\u{301}/**"
        let composed = "Caf\u{E9}/menu.md"
        #expect(PathGlob(decomposed).matches(composed))
    }

    @Test func `the pattern is kept as written`() {
        #expect(PathGlob("Projects/**").pattern == "Projects/**")
        #expect(PathGlob("Projects/**").description == "Projects/**")
        #expect(PathGlob("a/*") == PathGlob("a/*"))
    }
}

// MARK: - DateText

@Suite("Schema support: dates and formats") struct DateTextTests {
    @Test(arguments: [
        ("2024-01-05", true), ("2024-02-29", true), ("2000-02-29", true), ("2023-02-29", false), ("1900-02-29", false),
        ("2024-04-31", false), ("2024-12-31", true), ("2024-13-01", false), ("2024-00-10", false), ("2024-01-00", false),
        ("2024-1-5", false), ("2024/01/05", false), ("20240105", false), ("2024-01-05T09:30", false), (" 2024-01-05", false),
        ("", false),
    ])
    func `a date is YYYY-MM-DD and a real day`(text: String, expected: Bool) {
        #expect(DateText.matches(text, format: .date) == expected, "\(text)")
    }

    @Test(arguments: [
        ("2024-01-31T09:30", true), ("2024-01-31T09:30:59", true), ("2024-01-31T09:30:59.123", true),
        ("2024-01-31T09:30Z", true), ("2024-01-31T09:30:00+05:30", true), ("2024-01-31T09:30:00-08:00", true),
        ("2024-01-31t09:30", true), ("2024-01-31 09:30", false), ("2024-01-31T9:30", false), ("2024-01-31T24:00", false),
        ("2024-01-31T09:60", false), ("2024-02-30T09:30", false), ("2024-01-31T09:30:00+0530", false),
        ("2024-01-31T09:30:00.", false), ("2024-01-31T09:30Zx", false), ("2024-01-31", false),
    ])
    func `a date-time may omit seconds and time zone`(text: String, expected: Bool) {
        #expect(DateText.matches(text, format: .dateTime) == expected, "\(text)")
    }

    @Test(arguments: [
        ("bob@example.com", true), ("first.last+tag@mail.example.org", true), ("bob", false), ("bob@localhost", false),
        ("@example.com", false), ("a@b@example.com", false), ("bob@.example.com", false), ("bob@example.", false),
        ("bob smith@example.com", false),
    ])
    func `an email has one at sign and a dotted domain`(text: String, expected: Bool) {
        #expect(DateText.matches(text, format: .email) == expected, "\(text)")
    }

    @Test(arguments: [
        ("https://example.com", true), ("obsidian://open?vault=x", true), ("mailto:bob@example.com", true),
        ("x-my+app.v2:thing", true), ("example.com", false), ("https:", false), (":path", false), ("1http://x", false),
        ("https://exa mple.com", false), ("C:", false),
    ])
    func `a uri has a scheme and something after it`(text: String, expected: Bool) {
        #expect(DateText.matches(text, format: .uri) == expected, "\(text)")
    }

    @Test(arguments: [
        ("2024/1/5", "2024-01-05"), ("2024/01/05", "2024-01-05"), ("20240105", "2024-01-05"), ("2024.01.05", "2024-01-05"),
        ("2024-1-5", "2024-01-05"), (" 2024-01-05 ", "2024-01-05"), ("2024/2/29", "2024-02-29"), ("2000.2.29", "2000-02-29"),
    ])
    func `dates written another way are normalised`(text: String, expected: String) {
        #expect(DateText.normalise(text, format: .date) == expected)
    }

    @Test(arguments: [
        "2024-01-05", "2024-13-01", "2023/2/29", "1900/2/29", "2024/1/32", "2024-01/05", "24/1/5", "5.1.2024", "20241305",
        "2024010", "January 5, 2024", "",
    ])
    func `a date that is canonical or not a date is not normalised`(text: String) {
        #expect(DateText.normalise(text, format: .date) == nil, "\(text)")
    }

    @Test func `date-times written another way are normalised`() {
        #expect(DateText.normalise("2024-01-05 09:30", format: .dateTime) == "2024-01-05T09:30")
        #expect(DateText.normalise("2024/1/5 09:30:15", format: .dateTime) == "2024-01-05T09:30:15")
        #expect(DateText.normalise("2024.01.05T09:30Z", format: .dateTime) == "2024-01-05T09:30Z")
        #expect(DateText.normalise("2024-01-05T09:30", format: .dateTime) == nil)
        #expect(DateText.normalise("2024-01-05", format: .dateTime) == nil)
        #expect(DateText.normalise("2024-01-05 9:30", format: .dateTime) == nil)
        #expect(DateText.normalise("2024-02-30 09:30", format: .dateTime) == nil)
        #expect(DateText.normalise("bob@example.com", format: .email) == nil)
        #expect(DateText.normalise("example.com", format: .uri) == nil)
    }

    @Test func `a normalised date is valid, and normalising it again gives nil`() {
        for text in ["2024/1/5", "20240105", "2024.01.05", "2024-1-5"] {
            let normalised = DateText.normalise(text, format: .date)
            #expect(normalised.map { DateText.matches($0, format: .date) } == true)
            #expect(normalised.flatMap { DateText.normalise($0, format: .date) } == nil)
        }
    }
}

// MARK: - NoteIdentifier

@Suite("Schema support: ids and placeholders") struct NoteIdentifierTests {
    @Test(arguments: [
        ("Café Culture!", "cafe-culture"), ("Hello, World", "hello-world"), ("  --Leading and trailing--  ", "leading-and-trailing"),
        ("Plan 2024 Q1", "plan-2024-q1"), ("snake_case_name", "snake-case-name"), ("ÉCOLE Ünïcödé", "ecole-unicode"),
        ("already-a-slug", "already-a-slug"), ("a   b", "a-b"), ("C++ & Rust", "c-rust"), ("v1.2.3", "v1-2-3"),
    ])
    func `a slug is lowercase, without accents, with single dashes`(text: String, expected: String) {
        #expect(NoteIdentifier.slug(text) == expected)
    }

    @Test func `letters without an ASCII form are kept`() {
        #expect(NoteIdentifier.slug("東京 タワー") == "東京-タワー")
        #expect(NoteIdentifier.slug("日記") == "日記")
        #expect(NoteIdentifier.slug("Ωμέγα Δέλτα") == "ωμεγα-δελτα")
    }

    @Test func `a slug is at most 64 characters and never ends in a dash`() {
        let long = NoteIdentifier.slug(String(repeating: "a", count: 70))
        #expect(long == String(repeating: "a", count: 64))
        let cut = NoteIdentifier.slug(String(repeating: "a", count: 63) + " bcd")
        #expect(cut == String(repeating: "a", count: 63))
        let words = NoteIdentifier.slug(String(repeating: "word ", count: 20))
        #expect(words.unicodeScalars.count <= 64)
        #expect(!words.hasSuffix("-"))
        #expect(words.hasPrefix("word-word-"))
        let cjk = NoteIdentifier.slug(String(repeating: "日", count: 80))
        #expect(cjk.unicodeScalars.count == 64)
    }

    @Test func `a text without letters or digits has an empty slug`() {
        #expect(NoteIdentifier.slug("") == "")
        #expect(NoteIdentifier.slug("!!! ---") == "")
        #expect(NoteIdentifier.slug("— · —") == "")
    }

    @Test func `placeholders are filled with the title, id, day and time`() throws {
        let utc = try #require(TimeZone(identifier: "UTC"))
        // 2024-03-09T14:05:07Z
        let now = Date(timeIntervalSince1970: 1_709_993_107)
        let values = NoteIdentifier.Placeholders(title: "Big Plan", id: "big-plan", now: now, timeZone: utc)
        #expect(values.date == "2024-03-09")
        #expect(values.dateTime == "2024-03-09T14:05:07")
        #expect(values.fill("{{date}} {{title}}") == "2024-03-09 Big Plan")
        #expect(values.fill("id={{id}} at {{datetime}}; {{title}}/{{title}}") == "id=big-plan at 2024-03-09T14:05:07; Big Plan/Big Plan")
        #expect(values.fill("no placeholders") == "no placeholders")
        #expect(values.fill("{{unknown}} {{ title }}") == "{{unknown}} {{ title }}")
    }

    @Test func `placeholder days follow the given time zone`() throws {
        let newYork = try #require(TimeZone(identifier: "America/New_York"))
        let values = NoteIdentifier.Placeholders(title: "T", now: Date(timeIntervalSince1970: 1_709_993_107 - 15 * 3600), timeZone: newYork)
        #expect(values.date == "2024-03-08")
        #expect(values.dateTime == "2024-03-08T18:05:07")
        #expect(values.id == "")
    }

    @Test func `a placeholder inside a filled-in value is not filled again`() throws {
        let utc = try #require(TimeZone(identifier: "UTC"))
        let values = NoteIdentifier.Placeholders(title: "Why {{date}} and {{id}} are placeholders", id: "x", now: Date(timeIntervalSince1970: 0), timeZone: utc)
        #expect(values.fill("# {{title}}") == "# Why {{date}} and {{id}} are placeholders")
    }

    @Test func `placeholders are recognised in defaults`() {
        #expect(NoteIdentifier.containsPlaceholder("{{date}}"))
        #expect(NoteIdentifier.containsPlaceholder("at {{datetime}}"))
        #expect(NoteIdentifier.containsPlaceholder("{{title}}"))
        #expect(NoteIdentifier.containsPlaceholder("{{id}}"))
        #expect(!NoteIdentifier.containsPlaceholder("{{other}}"))
        #expect(!NoteIdentifier.containsPlaceholder("active"))
    }
}

// MARK: - FixPlanner

private let itemSchemaText = """
    type: item
    description: A type for the fix planner's tests.
    id:
      field: id
      infer: file-name
    keyOrder: [type, id, status, due, tags]
    frontmatter:
      type: object
      required: [type, id, status]
      properties:
        type: {type: string}
        id: {type: string, pattern: '^[a-z0-9-]+$'}
        status: {enum: [open, closed], default: open}
        created: {type: string, format: date, default: "{{date}}"}
        stamp: {type: string, default: "at {{datetime}}"}
        labels: {type: array, default: ["{{title}}"]}
        priority: {type: integer, default: 3}
        due: {type: [string, "null"], format: date}
        at: {type: string, format: date-time}
        days: {type: array, items: {type: string, format: date}}
        tags: {type: [array, "null"], items: {type: string}}
        aliases: {type: [array, "null"], items: {type: string}}
        cssclasses: {type: [array, "null"], items: {type: string}}
        related: {type: [string, array]}
        links: {type: array}

    """

private let strictItemSchemaText = """
    type: strict-item
    description: A strict type for the fix planner's tests.
    frontmatter:
      type: object
      additionalProperties: false
      properties:
        type: {type: string}
        name: {type: string}

    """

private func fixCatalog() throws -> SchemaCatalog {
    SchemaCatalog(
        schemas: [
            try NoteSchema.load(text: itemSchemaText, file: "item.yaml", isBuiltIn: false),
            try NoteSchema.load(text: strictItemSchemaText, file: "strict-item.yaml", isBuiltIn: false),
        ],
        config: VaultConfig(), fingerprint: "test")
}

/// One run of the planner over a file's bytes, as `rhizome fix` does it.
private func planOnce(
    _ bytes: [UInt8], path: String, catalog: SchemaCatalog, options: FixPlanner.Options
) throws -> (bytes: [UInt8], fixes: [FixPlanner.AppliedFix]) {
    let frontmatter = NoteParser.parse(bytes, path: path).frontmatter
    var editor = try FrontmatterEditor(fileBytes: bytes)
    let typing = catalog.classify(frontmatter, path: path)
    let fixes = FixPlanner.apply(to: &editor, frontmatter: frontmatter, typing: typing, path: path, options: options)
    #expect(editor.hasChanges == !fixes.isEmpty, "changes and reported fixes disagree: \(fixes.map(\.description))")
    return (editor.renderedBytes(), fixes)
}

/// The bytes after the frontmatter's closing `---` line (the whole file when it has no frontmatter).
private func body(of bytes: [UInt8]) -> [UInt8] {
    let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    func isDelimiter(_ line: ArraySlice<UInt8>) -> Bool { Array(line) == Array("---".utf8) || Array(line) == Array("---\r".utf8) }
    guard let first = lines.first, isDelimiter(first), let close = lines.dropFirst().firstIndex(where: isDelimiter) else { return bytes }
    return Array(lines[(close + 1)...].joined(separator: [UInt8(ascii: "\n")]))
}

/// Fixes `text` and checks on the way that the body is kept byte for byte and that fixing the output
/// again changes nothing and reports nothing.
private func fixed(
    _ text: String, path: String = "Notes/Note.md", catalog: SchemaCatalog? = nil,
    options: FixPlanner.Options = FixPlanner.Options(), sourceLocation: SourceLocation = #_sourceLocation
) throws -> (text: String, fixes: [FixPlanner.AppliedFix]) {
    let catalog = try catalog ?? fixCatalog()
    let input = Array(text.utf8)
    let first = try planOnce(input, path: path, catalog: catalog, options: options)
    #expect(body(of: first.bytes) == body(of: input), "the body changed", sourceLocation: sourceLocation)
    let second = try planOnce(first.bytes, path: path, catalog: catalog, options: options)
    #expect(second.fixes.isEmpty, "fixing again applied: \(second.fixes.map(\.description))", sourceLocation: sourceLocation)
    #expect(
        String(decoding: second.bytes, as: UTF8.self) == String(decoding: first.bytes, as: UTF8.self),
        "fixing again changed the file:\n\(String(decoding: first.bytes, as: UTF8.self))→\n\(String(decoding: second.bytes, as: UTF8.self))",
        sourceLocation: sourceLocation)
    return (String(decoding: first.bytes, as: UTF8.self), first.fixes)
}

/// The findings the checker reports for `text`, by code.
private func findingCodes(_ text: String, path: String = "Notes/Note.md", catalog: SchemaCatalog) -> [FindingCode] {
    NoteChecker(catalog: catalog).check(NoteParser.parse(Array(text.utf8), path: path).frontmatter, path: path).findings.map(\.code)
}

private let noteBody = "\n# Heading\n\ntag: not frontmatter\n---\nA [[Link]] and #tag.  \n\ttabbed\n"

@Suite("Schema support: fix planner") struct FixPlannerTests {
    @Test func `a legacy tag becomes a tags list split on commas and spaces`() throws {
        let result = try fixed("---\ntitle: T\ntag: \"a, b #c\"\n---\n" + noteBody)
        #expect(result.text == "---\ntitle: T\ntags:\n  - a\n  - b\n  - c\n---\n" + noteBody)
        #expect(result.fixes.map(\.code) == ["legacy-key", "wrong-type"])
        #expect(result.fixes.map(\.key) == ["tag", "tags"])
        #expect(findingCodes(result.text, catalog: try fixCatalog()).isEmpty)
    }

    @Test func `a legacy alias becomes an aliases list split on commas only`() throws {
        let result = try fixed("---\nalias: Big Apple, NYC,  New York City\n---\n" + noteBody)
        #expect(result.text == "---\naliases:\n  - Big Apple\n  - NYC\n  - New York City\n---\n" + noteBody)
        #expect(result.fixes.map(\.code) == ["legacy-key", "wrong-type"])
    }

    @Test func `a legacy cssclass becomes a cssclasses list`() throws {
        let result = try fixed("---\ncssclass: wide  page\n---\n" + noteBody)
        #expect(result.text == "---\ncssclasses:\n  - wide\n  - page\n---\n" + noteBody)
    }

    @Test func `a legacy key holding a list is only renamed`() throws {
        let result = try fixed("---\ntag: [a, b]\n---\n" + noteBody)
        #expect(result.text == "---\ntags: [a, b]\n---\n" + noteBody)
        #expect(result.fixes.map(\.code) == ["legacy-key"])
    }

    @Test func `a legacy key beside its plural is left for a person to merge`() throws {
        let result = try fixed("---\ntags: [a]\ntag: b\n---\n" + noteBody)
        #expect(result.fixes.isEmpty)
        #expect(result.text == "---\ntags: [a]\ntag: b\n---\n" + noteBody)
    }

    @Test func `a legacy fix keeps CRLF line breaks and the body`() throws {
        let text = "---\r\ntitle: T\r\ntag: a, b\r\n---\r\nBody\r\nline two\r\n"
        let result = try fixed(text)
        #expect(result.text == "---\r\ntitle: T\r\ntags:\r\n  - a\r\n  - b\r\n---\r\nBody\r\nline two\r\n")
    }

    @Test func `a scalar where the schema wants a list becomes a list`() throws {
        let note = "---\ntype: item\nid: x\nstatus: open\ntags: \"alpha beta, #gamma\"\nlinks: one\nrelated: kept\n---\n" + noteBody
        let result = try fixed(note)
        #expect(result.text == "---\ntype: item\nid: x\nstatus: open\ntags:\n  - alpha\n  - beta\n  - gamma\nlinks:\n  - one\nrelated: kept\n---\n" + noteBody)
        #expect(result.fixes.map(\.code) == ["wrong-type", "wrong-type"])
        #expect(result.fixes.map(\.key) == ["tags", "links"])
        #expect(findingCodes(result.text, catalog: try fixCatalog()).isEmpty)
    }

    @Test func `scalar aliases split on commas only and scalar cssclasses on commas and spaces, as for legacy keys`() throws {
        let note = "---\ntype: item\nid: x\nstatus: open\naliases: Big Apple, NYC\ncssclasses: wide page\n---\n" + noteBody
        let result = try fixed(note)
        #expect(result.text == "---\ntype: item\nid: x\nstatus: open\naliases:\n  - Big Apple\n  - NYC\ncssclasses:\n  - wide\n  - page\n---\n" + noteBody)
        #expect(result.fixes.map(\.key) == ["aliases", "cssclasses"])
    }

    @Test func `a scalar alias without commas becomes a list of one`() throws {
        let note = "---\ntype: item\nid: x\nstatus: open\naliases: Big Apple\n---\n" + noteBody
        let result = try fixed(note)
        #expect(result.text == "---\ntype: item\nid: x\nstatus: open\naliases:\n  - Big Apple\n---\n" + noteBody)
    }

    @Test func `an empty value where a list may be empty is left alone`() throws {
        let note = "---\ntype: item\nid: x\nstatus: open\ntags:\n---\n" + noteBody
        let result = try fixed(note)
        #expect(result.fixes.isEmpty)
        #expect(result.text == note)
    }

    @Test func `dates are normalised in date and date-time fields`() throws {
        let note = "---\ntype: item\nid: x\nstatus: open\ndue: 2024/1/5\nat: 2024-01-05 09:30\nother: 2024/1/5\n---\n" + noteBody
        let result = try fixed(note)
        #expect(result.text == "---\ntype: item\nid: x\nstatus: open\ndue: 2024-01-05\nat: 2024-01-05T09:30\nother: 2024/1/5\n---\n" + noteBody)
        #expect(result.fixes.map(\.code) == ["invalid-format", "invalid-format"])
        #expect(result.fixes.map(\.key) == ["due", "at"])
        #expect(findingCodes(result.text, catalog: try fixCatalog()).isEmpty)
    }

    @Test func `a quoted dotted date is rewritten as a plain date`() throws {
        let result = try fixed("---\ntype: item\nid: x\nstatus: open\ndue: \"2024.01.05\"\n---\n" + noteBody)
        #expect(result.text == "---\ntype: item\nid: x\nstatus: open\ndue: 2024-01-05\n---\n" + noteBody)
    }

    @Test func `dates in a list of dates are normalised`() throws {
        let result = try fixed("---\ntype: item\nid: x\nstatus: open\ndays: [2024/1/5, 2024-01-06, 20240107x]\n---\n" + noteBody)
        #expect(result.text == "---\ntype: item\nid: x\nstatus: open\ndays:\n  - 2024-01-05\n  - 2024-01-06\n  - 20240107x\n---\n" + noteBody)
        #expect(result.fixes.map(\.code) == ["invalid-format"])
    }

    @Test func `a single date where a list of dates belongs becomes a list of one normalised date`() throws {
        let result = try fixed("---\ntype: item\nid: x\nstatus: open\ndays: 2024/1/5\n---\n" + noteBody)
        #expect(result.text == "---\ntype: item\nid: x\nstatus: open\ndays:\n  - 2024-01-05\n---\n" + noteBody)
        #expect(findingCodes(result.text, catalog: try fixCatalog()).isEmpty)
    }

    @Test func `an unquoted link value is quoted`() throws {
        let result = try fixed("---\ntitle: T\nrelated: [[Other Note]]\n---\n" + noteBody)
        #expect(result.text == "---\ntitle: T\nrelated: \"[[Other Note]]\"\n---\n" + noteBody)
        #expect(result.fixes.map(\.code) == ["unquoted-link"])
        #expect(result.fixes.map(\.key) == ["related"])
    }

    @Test func `unquoted links in a list are quoted and quoted ones kept`() throws {
        let result = try fixed("---\nrelated:\n  - [[A]]\n  - \"[[B]]\"\n  - plain\n---\n" + noteBody)
        #expect(result.text == "---\nrelated:\n  - \"[[A]]\"\n  - \"[[B]]\"\n  - plain\n---\n" + noteBody)
        #expect(result.fixes.map(\.code) == ["unquoted-link"])
    }

    @Test func `an unquoted link where the schema wants a list becomes a list of the quoted link`() throws {
        let result = try fixed("---\ntype: item\nid: x\nstatus: open\nlinks: [[A]]\n---\n" + noteBody)
        #expect(result.text == "---\ntype: item\nid: x\nstatus: open\nlinks:\n  - \"[[A]]\"\n---\n" + noteBody)
        #expect(findingCodes(result.text, catalog: try fixCatalog()).isEmpty)
    }

    @Test func `populate adds defaults and an inferred id but not placeholder defaults`() throws {
        let result = try fixed("---\ntype: item\n---\n" + noteBody, path: "Notes/My Great Note.md", options: FixPlanner.Options(populate: true))
        #expect(result.text == "---\ntype: item\nid: my-great-note\nstatus: open\npriority: 3\n---\n" + noteBody)
        #expect(result.fixes.map(\.code) == ["missing-required", "missing-required", "missing-required"])
        #expect(result.fixes.map(\.key) == ["id", "status", "priority"])
        #expect(!result.text.contains("{{"))
        #expect(findingCodes(result.text, path: "Notes/My Great Note.md", catalog: try fixCatalog()).isEmpty)
    }

    @Test func `without populate nothing is added`() throws {
        let note = "---\ntype: item\n---\n" + noteBody
        let result = try fixed(note, path: "Notes/My Great Note.md")
        #expect(result.fixes.isEmpty)
        #expect(result.text == note)
    }

    @Test func `populate keeps an existing id and existing values`() throws {
        let note = "---\ntype: item\nid: chosen\nstatus: closed\npriority: 1\n---\n" + noteBody
        let result = try fixed(note, path: "Notes/Other Name.md", options: FixPlanner.Options(populate: true))
        #expect(result.fixes.isEmpty)
        #expect(result.text == note)
    }

    @Test func `populate replaces an empty id`() throws {
        let result = try fixed("---\ntype: item\nid:\nstatus: open\npriority: 3\n---\n" + noteBody, path: "Notes/Nice.md", options: FixPlanner.Options(populate: true))
        #expect(result.text == "---\ntype: item\nid: nice\nstatus: open\npriority: 3\n---\n" + noteBody)
    }

    @Test func `populate gives a note without frontmatter one, keeping the whole file as body`() throws {
        let note = "# Just a body\n\nText.\n"
        let catalog = SchemaCatalog(
            schemas: [try NoteSchema.load(text: itemSchemaText.replacingOccurrences(of: "keyOrder:", with: "match:\n  paths: [\"Items/**\"]\nkeyOrder:"), file: "item.yaml", isBuiltIn: false)],
            config: VaultConfig(), fingerprint: "test")
        let result = try fixed(note, path: "Items/Thing.md", catalog: catalog, options: FixPlanner.Options(populate: true))
        #expect(result.text == "---\nid: thing\nstatus: open\npriority: 3\n---\n" + note)
    }

    @Test func `an id is inferred from the title when it fits the id pattern`() throws {
        let note = "---\ntype: project\ntitle: Café Culture!\nstatus: active\n---\n" + noteBody
        let result = try fixed(note, path: "Projects/cc.md", catalog: try SchemaCatalog.builtIn(), options: FixPlanner.Options(populate: true))
        #expect(result.text == "---\ntype: project\nid: cafe-culture\ntitle: Café Culture!\nstatus: active\n---\n" + noteBody)
        #expect(result.fixes.map(\.key) == ["id"])
    }

    @Test func `an id is inferred from the file name when there is no title`() throws {
        let note = "---\ntype: project\nstatus: active\n---\n" + noteBody
        let result = try fixed(note, path: "Projects/Big Rewrite 2.md", catalog: try SchemaCatalog.builtIn(), options: FixPlanner.Options(populate: true))
        #expect(result.text == "---\ntype: project\nid: big-rewrite-2\nstatus: active\n---\n" + noteBody)
    }

    @Test func `an inferred id that does not fit the id pattern is not written`() throws {
        let note = "---\ntype: project\ntitle: 東京タワー\nstatus: active\n---\n" + noteBody
        let result = try fixed(note, path: "Projects/x.md", catalog: try SchemaCatalog.builtIn(), options: FixPlanner.Options(populate: true))
        #expect(result.fixes.isEmpty)
        #expect(result.text == note)
    }

    @Test func `unsafe removes unknown keys in a strict schema only`() throws {
        let strict = "---\ntype: strict-item\nname: A\nextra: 1\n# about other\nother: x\n---\n" + noteBody
        let removed = try fixed(strict, options: FixPlanner.Options(unsafe: true))
        #expect(removed.text == "---\ntype: strict-item\nname: A\n# about other\n---\n" + noteBody)
        #expect(removed.fixes.map(\.code) == ["unknown-key", "unknown-key"])
        #expect(removed.fixes.map(\.key) == ["extra", "other"])
        #expect(findingCodes(removed.text, catalog: try fixCatalog()).isEmpty)

        let kept = try fixed(strict)
        #expect(kept.fixes.isEmpty)
        #expect(kept.text == strict)

        let open = "---\ntype: item\nid: x\nstatus: open\nextra: 1\n---\n" + noteBody
        let openResult = try fixed(open, options: FixPlanner.Options(unsafe: true))
        #expect(openResult.fixes.isEmpty)
        #expect(openResult.text == open)
    }

    @Test func `populate adds a default written beside a $ref`() throws {
        let text = """
            type: ref-item
            description: A default beside a reference.
            frontmatter:
              type: object
              $defs:
                state: {type: string, enum: [open, closed]}
              properties:
                type: {type: string}
                status: {$ref: '#/$defs/state', default: open}

            """
        let catalog = SchemaCatalog(schemas: [try NoteSchema.load(text: text, file: "ref-item.yaml", isBuiltIn: false)], config: VaultConfig(), fingerprint: "test")
        let result = try fixed("---\ntype: ref-item\n---\n" + noteBody, catalog: catalog, options: FixPlanner.Options(populate: true))
        #expect(result.text == "---\ntype: ref-item\nstatus: open\n---\n" + noteBody)
    }

    @Test func `keys are put in the schema's order, the others after them as they were`() throws {
        let note = "---\nzeta: 1\ntags: [a]\nstatus: open\nalpha: 2\nid: x\ntype: item\n---\n" + noteBody
        // Order alone is fixed only when asked: a first fix must not rewrite a vault for order.
        #expect(try fixed(note).fixes.isEmpty)
        let result = try fixed(note, options: FixPlanner.Options(reorder: true))
        #expect(result.text == "---\ntype: item\nid: x\nstatus: open\ntags: [a]\nzeta: 1\nalpha: 2\n---\n" + noteBody)
        #expect(result.fixes.map(\.code) == ["key-order"])
    }

    @Test func `a note of an unknown type gets only the fixes every note gets`() throws {
        let note = "---\ntype: gadget\nstatus: open\ntags: a b\ntag: c\nrelated: [[X]]\n---\n" + noteBody
        let result = try fixed(note)
        #expect(result.text == "---\ntype: gadget\nstatus: open\ntags: a b\ntag: c\nrelated: \"[[X]]\"\n---\n" + noteBody)
        #expect(result.fixes.map(\.code) == ["unquoted-link"])
    }

    @Test func `every fix at once converges in one pass`() throws {
        let note = """
            ---
            # kept comment
            related: [[B]]
            tag: x, y
            due: 2024/2/29
            status: open
            extra: kept because the schema is open
            type: item
            ---
            """ + noteBody
        let result = try fixed(note, path: "Notes/All At Once.md", options: FixPlanner.Options(populate: true, unsafe: true))
        #expect(result.text == """
            ---
            # kept comment
            type: item
            id: all-at-once
            status: open
            due: 2024-02-29
            tags:
              - x
              - y
            related: "[[B]]"
            extra: kept because the schema is open
            priority: 3
            ---
            """ + noteBody)
        #expect(Set(result.fixes.map(\.code)) == ["legacy-key", "wrong-type", "unquoted-link", "invalid-format", "missing-required", "key-order"])
        #expect(findingCodes(result.text, path: "Notes/All At Once.md", catalog: try fixCatalog()).isEmpty)
    }
}

@Suite("Schema support: patterns") struct SchemaPatternTests {
    @Test func `a pattern gives the same answers the first time and every time after, past its cache's limit`() throws {
        let pattern = try #require(JSONSchema.Pattern("^#?[^\\s#,]+$"))
        let values = (0..<(JSONSchema.Pattern.cacheLimit + 500)).map { $0 % 3 == 0 ? "tag \($0)" : "#tag-\($0)" }
        let first = values.map(pattern.matches)
        #expect(first.filter { $0 }.count == values.count - (values.count + 2) / 3)
        #expect(values.map(pattern.matches) == first)
        #expect(values.reversed().map(pattern.matches) == first.reversed())
    }

    @Test func `a value in NFC and the same value in NFD get each their own answer, in either order`() throws {
        // The expression counts UTF-16 units: `café` has four, `cafe\u{301}` five. Asked in either order, the
        // second must not get the first one's answer.
        for order in [["caf\u{E9}", "cafe\u{301}"], ["cafe\u{301}", "caf\u{E9}"]] {
            let pattern = try #require(JSONSchema.Pattern("^.{4}$"))
            let answers = order.map(pattern.matches)
            #expect(answers == order.map { $0.unicodeScalars.count == 4 }, "\(order.map { Array($0.unicodeScalars) })")
        }
    }

    @Test func `threads sharing a pattern get its answers`() throws {
        let pattern = try #require(JSONSchema.Pattern("^[A-Za-z0-9][A-Za-z0-9-]*$"))
        let values = (0..<2_000).map { $0 % 2 == 0 ? "id-\($0 % 300)" : "-bad \($0 % 300)" }
        nonisolated(unsafe) var results = Array(repeating: false, count: values.count)
        results.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let slots = buffer
            DispatchQueue.concurrentPerform(iterations: 4) { worker in
                for index in stride(from: worker, to: values.count, by: 4) { slots[index] = pattern.matches(values[index]) }
            }
        }
        #expect(results == values.indices.map { $0 % 2 == 0 })
    }
}
