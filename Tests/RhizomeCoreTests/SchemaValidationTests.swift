/// Tests of checking notes against schemas through `NoteChecker`: one scenario per per-note finding
/// code, each located at the offending key or list item with what was expected and what was found;
/// typing by path, excluded paths, nested values, and the ids and reference values a check returns.
import Testing
@testable import RhizomeCore

private func schema(_ text: String, file: String = "test.yaml") throws -> NoteSchema {
    try NoteSchema.load(text: text, file: file, isBuiltIn: false)
}

private func catalog(_ schemas: [NoteSchema], config: VaultConfig = VaultConfig()) -> SchemaCatalog {
    SchemaCatalog(schemas: schemas, config: config, fingerprint: "test")
}

private func check(_ note: String, path: String = "Notes/Note.md", in catalog: SchemaCatalog) -> NoteCheck {
    NoteChecker(catalog: catalog).check(NoteParser.parse(Array(note.utf8), path: path).frontmatter, path: path)
}

/// A note of the `task` type, the frontmatter lines after `type: task` (which is line 2).
private func taskNote(_ lines: String...) -> String {
    "---\ntype: task\n" + lines.map { $0 + "\n" }.joined() + "---\n# Body\n"
}

/// The one finding a check produced, failing the test when there is not exactly one.
private func onlyFinding(_ check: NoteCheck, sourceLocation: SourceLocation = #_sourceLocation) throws -> Finding {
    #expect(check.findings.count == 1, "findings: \(check.findings.map(\.diagnosticDescription))", sourceLocation: sourceLocation)
    return try #require(check.findings.first, sourceLocation: sourceLocation)
}

/// A type using every keyword the validator checks. Notes of it are valid with `id`, `status` only.
private let taskSchemaText = """
    type: task
    description: A test type using every supported keyword.
    match:
      values: [tasks, todo]
    id:
      field: id
      infer: title
    references:
      owner: person
      related: any
    frontmatter:
      type: object
      required: [type, id, status]
      properties:
        type:
          type: string
        id:
          type: string
          pattern: '^[a-z0-9-]+$'
        status:
          enum: [active, paused, done]
        kind:
          const: task
        priority:
          type: integer
          minimum: 1
          maximum: 5
        score:
          type: number
        due:
          type: string
          format: date
        at:
          type: string
          format: date-time
        email:
          type: string
          format: email
        homepage:
          type: string
          format: uri
        code:
          type: string
          minLength: 2
          maxLength: 4
        tags:
          type: array
          minItems: 1
          maxItems: 3
          uniqueItems: true
          items:
            type: string
            pattern: '^[a-z]+$'
        done:
          type: boolean
        note:
          type: [string, "null"]
        owner:
          type: string
        related:
          type: [string, array]
          items:
            type: string
        address:
          type: object
          required: [city]
          properties:
            city:
              type: string
            zip:
              type: string
              pattern: '^[0-9]{5}$'

    """

private let strictSchemaText = """
    type: contact
    description: A strict type.
    frontmatter:
      type: object
      additionalProperties: false
      properties:
        type: {type: string}
        name: {type: string}
        color: {type: string}

    """

private let logSchemaText = """
    type: log
    description: Typed by its folder.
    match:
      paths: ["Logs/**"]
    frontmatter:
      type: object
      required: [type, date]
      properties:
        type: {type: string}
        date: {type: string, format: date}

    """

private let skillLikeSchemaText = """
    type: tool
    description: Like a skill - the name must equal the folder's name.
    match:
      paths: ["**/TOOL.md"]
    id:
      field: name
      infer: folder-name
      mustMatch: true
    frontmatter:
      type: object
      required: [name]
      properties:
        name: {type: string}

    """

private func testCatalog(config: VaultConfig = VaultConfig()) throws -> SchemaCatalog {
    catalog([try schema(taskSchemaText), try schema(strictSchemaText), try schema(logSchemaText), try schema(skillLikeSchemaText)], config: config)
}

// MARK: - Types

@Suite("Schema validation: note types") struct NoteTypeValidationTests {
    @Test func `a valid note has no findings and records its type and schema`() throws {
        let result = check(taskNote("id: write-tests", "status: active"), in: try testCatalog())
        #expect(result.findings.isEmpty)
        #expect(result.declaredType == "task")
        #expect(result.schemaType == "task")
    }

    @Test func `a match value types the note as its schema`() throws {
        let result = check("---\ntype: todo\nid: a\nstatus: done\n---\n", in: try testCatalog())
        #expect(result.findings.isEmpty)
        #expect(result.declaredType == "todo")
        #expect(result.schemaType == "task")
    }

    @Test func `an unknown type is an info finding at the type value`() throws {
        let result = check("---\ntitle: x\ntype: gizmo\n---\n", in: try testCatalog())
        let finding = try onlyFinding(result)
        #expect(finding.code == .unknownType)
        #expect(finding.severity == .info)
        #expect((finding.line, finding.column) == (3, 7))
        #expect(finding.path == "Notes/Note.md")
        #expect(finding.message.contains("`gizmo`"))
        #expect(finding.fix?.contains("did you mean") == false)
        #expect(result.schemaType == nil)
        #expect(result.declaredType == "gizmo")
    }

    @Test func `an unknown type close to a known one is a warning suggesting it`() throws {
        let finding = try onlyFinding(check("---\ntype: tsk\n---\n", in: try testCatalog()))
        #expect(finding.code == .unknownType)
        #expect(finding.severity == .warning)
        #expect((finding.line, finding.column) == (2, 7))
        #expect(finding.fix?.contains("did you mean `task`?") == true)
    }

    @Test func `a type that is a list names no type: the note is untyped, with an info finding at the value`() throws {
        // kepano's vault template: `type` lists links to category notes.
        let finding = try onlyFinding(check("---\ntype: [\"[[Cities]]\"]\nstatus: nonsense\n---\n", in: try testCatalog()))
        #expect(finding.code == .untypedTypeValue)
        #expect(finding.severity == .info)
        #expect((finding.line, finding.column) == (2, 7))
        #expect(finding.message.contains("a list of 1"))
        #expect(check("---\ntype: [task, contact]\n---\n", in: try testCatalog()).schemaType == nil)
    }

    @Test func `a type that is a number names no type either`() throws {
        let finding = try onlyFinding(check("---\ntype: 42\n---\n", in: try testCatalog()))
        #expect(finding.code == .untypedTypeValue)
        #expect(finding.message.contains("the number `42`"))
    }

    @Test func `a note whose type is a list is still typed by its path`() throws {
        let result = check("---\ntype: [\"[[Cities]]\"]\n---\n", path: "Logs/2026-11-26.md", in: try testCatalog())
        #expect(result.schemaType == "log")
        #expect(result.declaredType == nil)
        #expect(result.findings.map(\.code).contains(.untypedTypeValue))
        #expect(!result.findings.contains { $0.severity == .error && $0.message.contains("`type`") }, "\(result.findings.map(\.diagnosticDescription))")
    }

    @Test func `a note without a type and outside every path glob is not checked`() throws {
        let result = check("---\nstatus: nonsense\n---\n", in: try testCatalog())
        #expect(result.findings.isEmpty)
        #expect(result.schemaType == nil)
        #expect(check("No frontmatter at all.\n", in: try testCatalog()) == NoteCheck())
    }

    @Test func `an empty type value types the note by its path instead`() throws {
        let result = check("---\ntype:\ndate: 2024-01-05\n---\n", path: "Logs/a.md", in: try testCatalog())
        #expect(result.schemaType == "log")
        #expect(result.declaredType == nil)
        #expect(!result.findings.contains { $0.code == .missingRequired || $0.code == .unknownType })
    }
}

// MARK: - Path typing, exclusion, missing frontmatter and required keys

@Suite("Schema validation: path typing and required properties") struct RequiredValidationTests {
    @Test func `a path-typed note is not required to have type`() throws {
        let result = check("---\ndate: 2024-01-05\n---\n", path: "Logs/2024/a.md", in: try testCatalog())
        #expect(result.findings.isEmpty)
        #expect(result.schemaType == "log")
        #expect(result.declaredType == nil)
    }

    @Test func `a path-typed note is still checked for its other required properties`() throws {
        let finding = try onlyFinding(check("---\nmood: fine\n---\n", path: "Logs/a.md", in: try testCatalog()))
        #expect(finding.code == .missingRequired)
        #expect((finding.line, finding.column) == (1, 1))
        #expect(finding.message.contains("`date`"))
    }

    @Test func `a path-typed note without frontmatter is a missing-frontmatter warning`() throws {
        let finding = try onlyFinding(check("# Today\n\nNo properties.\n", path: "Logs/a.md", in: try testCatalog()))
        #expect(finding.code == .missingFrontmatter)
        #expect(finding.severity == .warning)
        #expect((finding.line, finding.column) == (1, 1))
        #expect(finding.message.contains("date"))
        #expect(finding.message.contains("`log`"))
    }

    @Test func `a missing required property is an error at the type line naming the allowed values`() throws {
        let result = check("---\ntitle: T\ntype: task\nid: a\n---\n", in: try testCatalog())
        let finding = try onlyFinding(result)
        #expect(finding.code == .missingRequired)
        #expect(finding.severity == .error)
        #expect((finding.line, finding.column) == (3, 1))
        #expect(finding.message == "missing required property `status`")
        #expect(finding.fix?.contains("`active`, `paused`, `done`") == true)
    }

    @Test func `every missing required property is reported`() throws {
        let result = check(taskNote(), in: try testCatalog())
        #expect(result.findings.map(\.code) == [.missingRequired, .missingRequired])
        #expect(result.findings.map(\.message) == ["missing required property `id`", "missing required property `status`"])
    }

    @Test func `an excluded path produces no findings at all`() throws {
        var config = VaultConfig()
        config.exclude = [PathGlob("Templates/**")]
        let catalog = try testCatalog(config: config)
        let note = "---\ntype: task\ntag: x\nstatus: nope\nrelated: [[A]]\n---\n"
        #expect(check(note, path: "Templates/Task.md", in: catalog) == NoteCheck())
        #expect(check("# no frontmatter\n", path: "Templates/Logs/a.md", in: catalog) == NoteCheck())
        #expect(check(note, path: "Notes/Task.md", in: catalog).findings.count >= 3, "the same note elsewhere is checked")
    }
}

// MARK: - One scenario per value finding

@Suite("Schema validation: value findings") struct ValueValidationTests {
    static func finding(_ lines: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> Finding {
        let note = "---\ntype: task\nid: a\nstatus: active\n" + lines.map { $0 + "\n" }.joined() + "---\n"
        let finding = try onlyFinding(check(note, in: try testCatalog()), sourceLocation: sourceLocation)
        #expect(finding.severity == .error, "value findings are errors", sourceLocation: sourceLocation)
        #expect(finding.path == "Notes/Note.md", sourceLocation: sourceLocation)
        return finding
    }

    static func findings(_ lines: String...) throws -> [Finding] {
        let note = "---\ntype: task\nid: a\nstatus: active\n" + lines.map { $0 + "\n" }.joined() + "---\n"
        return check(note, in: try testCatalog()).findings
    }

    @Test func `a decimal where an integer belongs is a wrong type at the key`() throws {
        let finding = try Self.finding("priority: 2.5")
        #expect(finding.code == .wrongType)
        #expect(finding.severity == .error)
        #expect((finding.line, finding.column) == (5, 1))
        #expect(finding.message == "`priority` should be a whole number, found the number `2.5`")
    }

    @Test func `an integer is a number, and 3.0 is an integer`() throws {
        #expect(try Self.findings("score: 3", "priority: 3.0").isEmpty)
    }

    @Test func `a quoted number where an integer belongs is a wrong type`() throws {
        let finding = try Self.finding("priority: \"3\"")
        #expect(finding.code == .wrongType)
        #expect(finding.message == "`priority` should be a whole number, found the text `3` (quoted)")
    }

    @Test func `a number where text belongs suggests quoting it`() throws {
        let finding = try Self.finding("owner: 007")
        #expect(finding.code == .wrongType)
        #expect(finding.message == "`owner` should be text, found the number `007`")
        #expect(finding.fix == "quote it: `\"007\"`")
    }

    @Test func `an empty value where a boolean belongs is a wrong type, and null is allowed where listed`() throws {
        let finding = try Self.finding("done:", "note:")
        #expect(finding.code == .wrongType)
        #expect((finding.line, finding.column) == (5, 1))
        #expect(finding.message == "`done` should be true or false, found an empty value")
    }

    @Test func `a list where text belongs is a wrong type`() throws {
        let finding = try Self.finding("owner: [alice, bob]")
        #expect(finding.code == .wrongType)
        #expect(finding.message == "`owner` should be text, found a list of 2")
    }

    @Test func `text where a list belongs is a wrong type suggesting a list`() throws {
        let finding = try Self.finding("tags: alpha")
        #expect(finding.code == .wrongType)
        #expect(finding.message == "`tags` should be a list, found `alpha`")
        #expect(finding.fix?.contains("`tags: [alpha]`") == true)
    }

    @Test func `a wrong type stops further checks of that value`() throws {
        let finding = try Self.finding("code: 12345")
        #expect(finding.code == .wrongType)
    }

    @Test func `a value outside the enum is reported with a did-you-mean`() throws {
        let note = "---\ntype: task\nid: a\nstatus: activ\n---\n"
        let finding = try onlyFinding(check(note, in: try testCatalog()))
        #expect(finding.code == .notInEnum)
        #expect(finding.severity == .error)
        #expect((finding.line, finding.column) == (4, 1))
        #expect(finding.message == "`status` is `activ`, not one of the allowed values")
        #expect(finding.fix == "did you mean `active`? Allowed: `active`, `paused`, `done`")
    }

    @Test func `a value far from every enum value lists the allowed ones`() throws {
        let note = "---\ntype: task\nid: a\nstatus: finished\n---\n"
        let finding = try onlyFinding(check(note, in: try testCatalog()))
        #expect(finding.code == .notInEnum)
        #expect(finding.fix == "use one of `active`, `paused`, `done`")
    }

    @Test func `a value other than the const is a const mismatch`() throws {
        let finding = try Self.finding("kind: chore")
        #expect(finding.code == .constMismatch)
        #expect((finding.line, finding.column) == (5, 1))
        #expect(finding.message == "`kind` must be `task`, found `chore`")
        #expect(try Self.findings("kind: task").isEmpty)
    }

    @Test func `a value not matching the pattern is reported with a slug that would`() throws {
        let note = "---\ntype: task\nid: Write Tests\nstatus: active\n---\n"
        let finding = try onlyFinding(check(note, in: try testCatalog()))
        #expect(finding.code == .patternMismatch)
        #expect(finding.severity == .error)
        #expect((finding.line, finding.column) == (3, 1))
        #expect(finding.message == "`id` is `Write Tests`, which does not match the pattern `^[a-z0-9-]+$`")
        #expect(finding.fix == "for example `write-tests`")
    }

    @Test(arguments: [
        ("due: 2024-01-31", true), ("due: 2024-02-29", true), ("due: 2023-02-29", false), ("due: 2024-02-30", false),
        ("due: 2024-13-01", false), ("due: \"2024-1-5\"", false), ("due: 31/01/2024", false),
        ("at: 2024-01-31T09:30", true), ("at: 2024-01-31T09:30:15", true), ("at: 2024-01-31T09:30:15Z", true),
        ("at: 2024-01-31T09:30:15.250+01:00", true), ("at: 2024-01-31T24:00", false), ("at: 2024-01-31 09:30", false),
        ("at: 2024-01-31", false),
        ("email: bob@example.com", true), ("email: bob", false), ("email: bob@localhost", false), ("email: a b@example.com", false),
        ("homepage: https://example.com/a?b=c", true), ("homepage: obsidian://open?vault=x", true), ("homepage: example.com", false),
        ("homepage: \"https://exa mple.com\"", false),
    ])
    func `formats are checked`(line: String, isValid: Bool) throws {
        let found = try Self.findings(line)
        if isValid {
            #expect(found.isEmpty, "\(line): \(found.map(\.message))")
        } else {
            let finding = try #require(found.first, "\(line) was accepted")
            #expect(found.count == 1)
            #expect(finding.code == .invalidFormat)
            #expect(finding.severity == .error)
            #expect((finding.line, finding.column) == (5, 1))
            #expect(finding.message.contains("not a valid"))
        }
    }

    @Test func `an invalid date says what it is and what it should be`() throws {
        let finding = try Self.finding("due: 2024-02-30")
        #expect(finding.code == .invalidFormat)
        #expect(finding.message == "`due` is `2024-02-30`, not a valid date")
        #expect(finding.fix == "it is written as YYYY-MM-DD but is not a day of the calendar (month 1–12, a day the month has)")
    }

    @Test func `a date-time with a space suggests the canonical form`() throws {
        let finding = try Self.finding("at: 2024-01-31 09:30")
        #expect(finding.message == "`at` is `2024-01-31 09:30`, not a valid date-time")
        #expect(finding.fix == "write it as `2024-01-31T09:30` (`rhizome fix` does)")
    }

    @Test func `a slashed date suggests the canonical form`() throws {
        let finding = try Self.finding("due: 2024/1/5")
        #expect(finding.code == .invalidFormat)
        #expect(finding.fix == "write it as `2024-01-05` (`rhizome fix` does)")
    }

    @Test func `numbers below the minimum and above the maximum are out of range`() throws {
        let low = try Self.finding("priority: 0")
        #expect(low.code == .outOfRange)
        #expect((low.line, low.column) == (5, 1))
        #expect(low.message == "`priority` is 0, below the minimum 1")
        let high = try Self.finding("priority: 9")
        #expect(high.code == .outOfRange)
        #expect(high.message == "`priority` is 9, above the maximum 5")
        #expect(try Self.findings("priority: 1", "score: -1").isEmpty)
        #expect(try Self.findings("priority: 5").isEmpty)
    }

    @Test func `string lengths are counted in unicode scalars`() throws {
        let short = try Self.finding("code: é")
        #expect(short.code == .invalidLength)
        #expect((short.line, short.column) == (5, 1))
        #expect(short.message == "`code` is 1 character long, at least 2 expected")
        // Two scalars of three bytes each: within 2...4 only when scalars are counted.
        #expect(try Self.findings("code: 日本").isEmpty)
        // Four emoji are eight UTF-16 units and sixteen bytes, but four scalars.
        #expect(try Self.findings("code: 🙂🙂🙂🙂").isEmpty)
        // One grapheme of five scalars (man, ZWJ, woman, ZWJ, girl).
        let family = try Self.finding("code: \u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}")
        #expect(family.code == .invalidLength)
        #expect(family.message == "`code` is 5 characters long, at most 4 allowed")
        #expect(family.fix == "shorten it by 1 characters")
    }

    @Test func `too few and too many list items are an invalid item count`() throws {
        let none = try Self.finding("tags: []")
        #expect(none.code == .invalidItemCount)
        #expect((none.line, none.column) == (5, 1))
        #expect(none.message == "`tags` has 0 items, at least 1 expected")
        let many = try Self.finding("tags: [a, b, c, d]")
        #expect(many.code == .invalidItemCount)
        #expect(many.message == "`tags` has 4 items, at most 3 allowed")
        #expect(try Self.findings("tags: [a, b, c]").isEmpty)
    }

    @Test func `a repeated list item is reported at the repeat`() throws {
        let finding = try Self.finding("tags:", "  - alpha", "  - beta", "  - alpha")
        #expect(finding.code == .duplicateItems)
        #expect(finding.severity == .error)
        #expect((finding.line, finding.column) == (8, 5))
        #expect(finding.message == "`tags` lists `alpha` more than once")
    }

    @Test func `an unknown key in a strict schema is reported with a did-you-mean`() throws {
        let note = "---\ntype: contact\nname: Ann\ncolour: red\n---\n"
        let finding = try onlyFinding(check(note, in: try testCatalog()))
        #expect(finding.code == .unknownKey)
        #expect(finding.severity == .error)
        #expect((finding.line, finding.column) == (4, 1))
        #expect(finding.message.hasPrefix("unknown property `colour`"))
        #expect(finding.message.contains("type, name, color"))
        #expect(finding.fix?.hasPrefix("did you mean `color`?") == true)
    }

    @Test func `an unknown key in an open schema is fine`() throws {
        #expect(try Self.findings("colour: red", "anything: [1, 2]").isEmpty)
    }

    @Test func `an id that differs from its folder name is an id mismatch`() throws {
        let note = "---\nname: pdf\n---\n# PDF tools\n"
        let result = check(note, path: ".claude/tools/pdf-tools/TOOL.md", in: try testCatalog())
        let finding = try onlyFinding(result)
        #expect(finding.code == .idMismatch)
        #expect(finding.severity == .error)
        #expect((finding.line, finding.column) == (2, 1))
        #expect(finding.message == "`name` is `pdf` but must match the folder-name, `pdf-tools`")
        #expect(finding.fix?.contains("`name: pdf-tools`") == true)
        #expect(result.schemaType == "tool")

        let matching = check("---\nname: pdf-tools\n---\n", path: ".claude/tools/pdf-tools/TOOL.md", in: try testCatalog())
        #expect(matching.findings.isEmpty)
        #expect(matching.id?.value == "pdf-tools")
    }
}

// MARK: - Checks every note gets

@Suite("Schema validation: legacy keys and unquoted links") struct HygieneValidationTests {
    @Test(arguments: [("tag", "tags"), ("alias", "aliases"), ("cssclass", "cssclasses")])
    func `a legacy singular key is a warning at the key, even without a type`(legacy: String, plural: String) throws {
        let result = check("---\ntitle: x\n\(legacy): a, b\n---\n", in: try testCatalog())
        let finding = try onlyFinding(result)
        #expect(finding.code == .legacyKey)
        #expect(finding.severity == .warning)
        #expect((finding.line, finding.column) == (3, 1))
        #expect(finding.message.hasPrefix("`\(legacy)` is no longer read by Obsidian"))
        #expect(finding.fix == "rename it to `\(plural)` (`rhizome fix` does)")
    }

    @Test func `a legacy key beside its plural asks to merge them`() throws {
        let finding = try onlyFinding(check("---\ntags: [a]\ntag: b\n---\n", in: try testCatalog()))
        #expect(finding.code == .legacyKey)
        #expect(finding.fix == "move its values into `tags` and remove `tag`")
    }

    @Test func `an unquoted link value is a warning at the value`() throws {
        let finding = try onlyFinding(check("---\ntitle: x\nrelated: [[Other Note]]\n---\n", in: try testCatalog()))
        #expect(finding.code == .unquotedLink)
        #expect(finding.severity == .warning)
        #expect((finding.line, finding.column) == (3, 10))
        #expect(finding.message == "`related` holds `[[Other Note]]` without quotes: YAML reads it as a nested list, not a link")
        #expect(finding.fix == "quote it: `\"[[Other Note]]\"` (`rhizome fix` does)")
    }

    @Test func `an unquoted link as a list item is a warning at the item`() throws {
        let note = "---\nrelated:\n  - \"[[Quoted]]\"\n  - [[Bare]]\n---\n"
        let finding = try onlyFinding(check(note, in: try testCatalog()))
        #expect(finding.code == .unquotedLink)
        #expect((finding.line, finding.column) == (4, 5))
        #expect(finding.message.contains("`[[Bare]]`"))
    }

    @Test func `a quoted link and a real nested list are not unquoted links`() throws {
        let note = "---\nrelated: \"[[Note]]\"\nmatrix: [[1, 2], [3, 4]]\nspaced: [ [x] ]\n---\n"
        #expect(check(note, in: try testCatalog()).findings.isEmpty)
    }

    @Test func `an unquoted link in a typed note is reported beside the schema's findings`() throws {
        let note = "---\ntype: task\nid: a\nstatus: active\nowner: [[Ann]]\n---\n"
        let result = check(note, in: try testCatalog())
        // Reported once, as what it is, not also as a list where text belongs.
        #expect(result.findings.map(\.code) == [.unquotedLink])
        #expect(result.findings.map { [$0.line ?? 0, $0.column ?? 0] } == [[5, 8]])
    }
}

// MARK: - Nested values, ids and references

@Suite("Schema validation: nested values, ids and references") struct NestedValidationTests {
    @Test func `a nested object is validated with its own keys' positions`() throws {
        let note = "---\ntype: task\nid: a\nstatus: active\naddress:\n  street: Main\n  zip: abc\n---\n"
        let result = check(note, in: try testCatalog())
        #expect(result.findings.map(\.code) == [.missingRequired, .patternMismatch])
        let missing = result.findings[0]
        #expect(missing.message == "missing required property `address.city`")
        #expect((missing.line, missing.column) == (5, 1))
        let pattern = result.findings[1]
        #expect(pattern.message == "`address.zip` is `abc`, which does not match the pattern `^[0-9]{5}$`")
        #expect((pattern.line, pattern.column) == (7, 3))
    }

    @Test func `an unknown key in a strict nested object is reported with its key path and position`() throws {
        let text = """
            type: box
            description: Nested strictness.
            frontmatter:
              type: object
              additionalProperties:
                type: string
              properties:
                type: {type: string}
                size:
                  type: object
                  additionalProperties: false
                  properties:
                    width: {type: number}
                    height: {type: number}

            """
        let boxes = catalog([try schema(text)])
        let result = check("---\ntype: box\nsize:\n  width: 3\n  hieght: 4\nlabel: 7\n---\n", in: boxes)
        #expect(result.findings.map(\.code) == [.unknownKey, .wrongType])
        let unknown = result.findings[0]
        #expect(unknown.message.hasPrefix("unknown property `size.hieght`"))
        #expect((unknown.line, unknown.column) == (5, 3))
        #expect(unknown.fix?.hasPrefix("did you mean `height`?") == true)
        let additional = result.findings[1]
        #expect(additional.message == "`label` should be text, found the number `7`")
        #expect((additional.line, additional.column) == (6, 1))
    }

    @Test func `a validation keyword beside a $ref is applied or refused, never ignored`() throws {
        let text = """
            type: short
            description: A keyword beside a reference.
            frontmatter:
              type: object
              $defs:
                text: {type: string}
              properties:
                code:
                  $ref: '#/$defs/text'
                  maxLength: 3

            """
        let loaded: NoteSchema
        do {
            loaded = try NoteSchema.load(text: text, file: "short.yaml", isBuiltIn: false)
        } catch {
            #expect(error.line == 10, "refused, but not at the keyword: \(error)")
            return
        }
        let finding = try onlyFinding(check("---\ntype: short\ncode: abcdef\n---\n", in: catalog([loaded])))
        #expect(finding.code == .invalidLength)
        #expect(finding.message == "`code` is 6 characters long, at most 3 allowed")
        let typeFinding = try onlyFinding(check("---\ntype: short\ncode: 12\n---\n", in: catalog([loaded])))
        #expect(typeFinding.code == .wrongType, "the referenced definition still applies")
    }

    @Test func `list items are validated at their own positions`() throws {
        let note = "---\ntype: task\nid: a\nstatus: active\ntags: [ok, Bad, 3]\n---\n"
        let result = check(note, in: try testCatalog())
        #expect(result.findings.map(\.code) == [.patternMismatch, .wrongType])
        #expect(result.findings.map(\.message) == [
            "`tags[1]` is `Bad`, which does not match the pattern `^[a-z]+$`",
            "`tags[2]` should be text, found the number `3`",
        ])
        #expect(result.findings.map { [$0.line ?? 0, $0.column ?? 0] } == [[5, 12], [5, 17]])
    }

    @Test func `block list items are located on their own lines`() throws {
        let note = "---\ntype: task\nid: a\nstatus: active\ntags:\n  - ok\n  - NotOk\n---\n"
        let finding = try onlyFinding(check(note, in: try testCatalog()))
        #expect(finding.code == .patternMismatch)
        #expect((finding.line, finding.column) == (7, 5))
    }

    @Test func `the check carries the id with the position of its key`() throws {
        let result = check("---\ntype: task\nstatus: active\nid: write-tests\n---\n", in: try testCatalog())
        #expect(result.id == NoteCheck.IDValue(value: "write-tests", line: 4, column: 1))
    }

    @Test func `a numeric id is carried as its source text, an empty one not at all`() throws {
        let numeric = check("---\ntype: task\nstatus: active\nid: 0042\n---\n", in: try testCatalog())
        #expect(numeric.id?.value == "0042")
        let empty = check("---\ntype: task\nstatus: active\nid: \"\"\n---\n", in: try testCatalog())
        #expect(empty.id == nil)
    }

    @Test func `the check carries plain reference values and skips links`() throws {
        let note = """
            ---
            type: task
            id: a
            status: active
            owner: alice
            related:
              - "[[Some Note]]"
              - beta
              - "[Markdown](Other.md)"
              - gamma
            ---

            """
        let result = check(note, in: try testCatalog())
        #expect(result.findings.isEmpty)
        #expect(result.references == [
            NoteCheck.ReferenceValue(key: "owner", value: "alice", targetType: "person", line: 5, column: 8),
            NoteCheck.ReferenceValue(key: "related", value: "beta", targetType: nil, line: 8, column: 5),
            NoteCheck.ReferenceValue(key: "related", value: "gamma", targetType: nil, line: 10, column: 5),
        ])
    }

    @Test func `a link-only reference field yields no reference values`() throws {
        let result = check("---\ntype: task\nid: a\nstatus: active\nowner: \"[[Alice]]\"\n---\n", in: try testCatalog())
        #expect(result.references.isEmpty)
    }
}
