/// Tests of loading schemas: the built-in set and its embedding, schema-file errors (unsupported
/// keywords, unknown keys, bad names and values, references, versions) with their file and position,
/// `$defs`/`$ref` and annotations, and a vault's own schema folder and `.rhizome/config.yaml`.
import Foundation
import Testing
@testable import RhizomeCore
import RhizomeTestSupport

private func load(_ text: String, file: String = "Schemas/demo.yaml") throws(SchemaError) -> NoteSchema {
    try NoteSchema.load(text: text, file: file, isBuiltIn: false)
}

/// The error loading `text` throws, or nil when it loads.
private func loadError(_ text: String, file: String = "Schemas/demo.yaml") -> SchemaError? {
    do {
        _ = try load(text, file: file)
        return nil
    } catch {
        return error
    }
}

/// The error loading the vault's catalog throws, or nil when it loads.
private func catalogError(_ vault: TemporaryVault) -> SchemaError? {
    do {
        _ = try SchemaCatalog.load(vaultRoot: vault.path)
        return nil
    } catch {
        return error
    }
}

/// The smallest valid schema file (four lines); tests append keys after it.
private func minimalSchema(type: String = "demo", description: String = "A demo type.") -> String {
    """
    type: \(type)
    description: \(description)
    frontmatter:
      type: object

    """
}

// MARK: - The built-in set

@Suite("Schema loading: built-in schemas") struct BuiltInSchemaTests {
    static let builtInTypes = ["agent", "daily", "decision", "idea", "index", "plan", "project", "reflection", "session", "skill"]

    @Test func `every built-in schema loads and there are exactly the ten types (the nine the issue names, and index)`() throws {
        let catalog = try SchemaCatalog.builtIn()
        #expect(catalog.schemas.map(\.type) == Self.builtInTypes)
        #expect(catalog.schemas.filter { !$0.isBuiltIn }.isEmpty)
        for type in Self.builtInTypes {
            let schema = try #require(catalog.schema(forType: type))
            #expect(schema.source == "built-in:\(type).yaml")
            #expect(!schema.description.isEmpty)
        }
        #expect(catalog.config.schemaFolder == ".rhizome/schemas")
        #expect(catalog.config.typeMappings.isEmpty)
    }

    @Test func `each embedded file loads on its own under its own name`() throws {
        #expect(BuiltInSchemaFiles.files.count == 10)
        for file in BuiltInSchemaFiles.files {
            let schema = try NoteSchema.load(text: file.text, file: "built-in:" + file.name, isBuiltIn: true)
            #expect(file.name == schema.type + ".yaml")
        }
    }

    @Test func `the embedded built-ins equal the files in Schemas on disk byte for byte`() throws {
        let folder = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Schemas")
        let onDisk = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { !$0.hasPrefix(".") && ($0.hasSuffix(".yaml") || $0.hasSuffix(".json")) }
            .sorted()
        #expect(onDisk.count == 10)
        #expect(BuiltInSchemaFiles.files.map(\.name) == onDisk, "the embedded set and Schemas/ name different files")
        for file in BuiltInSchemaFiles.files {
            let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(file.name)))
            #expect(Array(file.text.utf8) == bytes, "the embedded \(file.name) differs from Schemas/\(file.name): rebuild")
        }
    }

    @Test func `the built-in skill is matched by path and its name must equal the folder name`() throws {
        let skill = try #require(try SchemaCatalog.builtIn().schema(forType: "skill"))
        #expect(skill.matchPaths.map(\.pattern) == ["**/SKILL.md"])
        #expect(skill.id?.field == "name")
        #expect(skill.id?.inferredFrom == .folderName)
        #expect(skill.id?.mustMatch == true)
    }
}

// MARK: - Unsupported JSON Schema keywords

@Suite("Schema loading: unsupported keywords") struct UnsupportedKeywordTests {
    @Test(arguments: ["anyOf", "oneOf", "allOf", "not", "patternProperties", "if", "then", "dependentRequired", "prefixItems"])
    func `an unsupported keyword at the top of frontmatter names the keyword, file, line and column`(keyword: String) throws {
        let text = """
            type: demo
            description: A demo type.
            frontmatter:
              type: object
              \(keyword): []

            """
        let error = try #require(loadError(text, file: "vault/.rhizome/schemas/demo.yaml"))
        #expect(error.kind == .unsupportedKeyword)
        #expect(error.code == "schema-unsupported-keyword")
        #expect(error.file == "vault/.rhizome/schemas/demo.yaml")
        #expect(error.line == 5)
        #expect(error.column == 3)
        #expect(error.message.contains("`\(keyword)`"))
        #expect(error.description.hasPrefix("vault/.rhizome/schemas/demo.yaml:5:3: "))
    }

    @Test(arguments: ["anyOf", "oneOf", "patternProperties", "if"])
    func `an unsupported keyword nested under a property is reported at its own line`(keyword: String) throws {
        let text = """
            type: demo
            description: A demo type.
            frontmatter:
              type: object
              properties:
                status:
                  type: string
                  \(keyword): []

            """
        let error = try #require(loadError(text))
        #expect(error.kind == .unsupportedKeyword)
        #expect(error.file == "Schemas/demo.yaml")
        #expect(error.line == 8)
        #expect(error.column == 7)
        #expect(error.message.contains("`\(keyword)`"))
    }

    @Test func `an unsupported keyword under items, additionalProperties or a definition is reported`() throws {
        let underItems = """
            type: demo
            description: A demo type.
            frontmatter:
              type: object
              properties:
                tags:
                  type: array
                  items:
                    contains: {type: string}

            """
        let error = try #require(loadError(underItems))
        #expect(error.kind == .unsupportedKeyword)
        #expect((error.line, error.column) == (9, 9))
        #expect(error.message.contains("`contains`"))

        let underDefinition = """
            type: demo
            description: A demo type.
            frontmatter:
              type: object
              $defs:
                status:
                  oneOf: []

            """
        let definitionError = try #require(loadError(underDefinition))
        #expect(definitionError.kind == .unsupportedKeyword)
        #expect((definitionError.line, definitionError.column) == (7, 7))

        let underAdditional = """
            type: demo
            description: A demo type.
            frontmatter:
              type: object
              additionalProperties:
                propertyNames: {pattern: '^a'}

            """
        let additionalError = try #require(loadError(underAdditional))
        #expect(additionalError.kind == .unsupportedKeyword)
        #expect((additionalError.line, additionalError.column) == (6, 5))
        #expect(additionalError.message.contains("`propertyNames`"))
    }
}

// MARK: - Other schema-file errors

@Suite("Schema loading: schema-file errors") struct SchemaFileErrorTests {
    @Test func `an unknown top-level key is refused at its line`() throws {
        let error = try #require(loadError(minimalSchema() + "colour: red\n"))
        #expect(error.kind == .unsupportedKeyword)
        #expect((error.line, error.column) == (5, 1))
        #expect(error.message.contains("`colour`"))
        #expect(error.fix?.contains("frontmatter") == true)
    }

    @Test func `a JSON Schema keyword at the top level of the file is refused`() throws {
        let error = try #require(loadError(minimalSchema() + "properties: {}\n"))
        #expect(error.kind == .unsupportedKeyword)
        #expect((error.line, error.column) == (5, 1))
        #expect(error.message.contains("`properties`"))
    }

    @Test func `unknown match, id and scaffold keys are refused with the dotted key`() throws {
        let match = try #require(loadError(minimalSchema() + "match:\n  values: [a]\n  regex: x\n"))
        #expect(match.kind == .unsupportedKeyword)
        #expect((match.line, match.column) == (7, 3))
        #expect(match.message.contains("`match.regex`"))

        let id = try #require(loadError(minimalSchema() + "id:\n  field: id\n  unique: true\n"))
        #expect(id.kind == .unsupportedKeyword)
        #expect((id.line, id.column) == (7, 3))
        #expect(id.message.contains("`id.unique`"))

        let scaffold = try #require(loadError(minimalSchema() + "scaffold:\n  folder: X\n  template: y\n"))
        #expect(scaffold.kind == .unsupportedKeyword)
        #expect((scaffold.line, scaffold.column) == (7, 3))
        #expect(scaffold.message.contains("`scaffold.template`"))
    }

    @Test func `an invalid type name for the note type is refused at its value`() throws {
        let error = try #require(loadError(minimalSchema(type: "Project")))
        #expect(error.kind == .invalidSchema)
        #expect((error.line, error.column) == (1, 7))
        #expect(error.message.contains("`Project`"))

        let spaced = try #require(loadError(minimalSchema(type: "my type")))
        #expect(spaced.kind == .invalidSchema)
        #expect(spaced.line == 1)
    }

    @Test func `an unknown JSON Schema type name is refused at its value`() throws {
        let text = """
            type: demo
            description: A demo type.
            frontmatter:
              type: object
              properties:
                count:
                  type: [int, "null"]

            """
        let error = try #require(loadError(text))
        #expect(error.kind == .invalidSchema)
        #expect((error.line, error.column) == (7, 14))
        #expect(error.message.contains("`int`"))
    }

    @Test func `an unknown id.infer source is refused`() throws {
        let error = try #require(loadError(minimalSchema() + "id:\n  field: id\n  infer: uuid\n"))
        #expect(error.kind == .invalidSchema)
        #expect((error.line, error.column) == (7, 10))
        #expect(error.message.contains("uuid"))
    }

    @Test func `an unknown format is refused at its value`() throws {
        let text = """
            type: demo
            description: A demo type.
            frontmatter:
              type: object
              properties:
                phone:
                  type: string
                  format: phone

            """
        let error = try #require(loadError(text))
        #expect(error.kind == .unsupportedKeyword)
        #expect((error.line, error.column) == (8, 15))
        #expect(error.message.contains("`phone`"))
    }

    @Test func `an invalid regular expression pattern is refused at its value`() throws {
        let text = """
            type: demo
            description: A demo type.
            frontmatter:
              type: object
              properties:
                code:
                  type: string
                  pattern: '[a-'

            """
        let error = try #require(loadError(text))
        #expect(error.kind == .invalidSchema)
        #expect((error.line, error.column) == (8, 16))
        #expect(error.message.contains("`[a-`"))
    }

    @Test func `a $ref to a missing $defs entry is an unresolved reference at its line`() throws {
        let text = """
            type: demo
            description: A demo type.
            frontmatter:
              type: object
              $defs:
                status:
                  enum: [a, b]
              properties:
                state:
                  $ref: '#/$defs/stauts'

            """
        let error = try #require(loadError(text))
        #expect(error.kind == .unresolvedReference)
        #expect(error.line == 10)
        #expect(error.message.contains("#/$defs/stauts"))
        #expect(error.fix?.contains("status") == true)
    }

    @Test func `a non-local $ref is refused at its value`() throws {
        let text = """
            type: demo
            description: A demo type.
            frontmatter:
              type: object
              properties:
                state:
                  $ref: 'https://example.com/status.json'

            """
        let error = try #require(loadError(text))
        #expect(error.kind == .unresolvedReference)
        #expect((error.line, error.column) == (7, 13))
        #expect(error.message.contains("https://example.com/status.json"))
    }

    @Test func `a newer format version is refused at its value, an equal one loads`() throws {
        let error = try #require(loadError("version: 2\n" + minimalSchema()))
        #expect(error.kind == .newerVersion)
        #expect((error.line, error.column) == (1, 10))
        #expect(error.message.contains("2"))
        #expect(try load("version: 1\n" + minimalSchema()).type == "demo")
    }

    @Test func `a schema without type, description or frontmatter is refused naming the missing key`() throws {
        let noType = try #require(loadError("description: x\nfrontmatter:\n  type: object\n"))
        #expect(noType.kind == .invalidSchema)
        #expect(noType.message.contains("`type`"))
        let noFrontmatter = try #require(loadError("type: demo\ndescription: x\n"))
        #expect(noFrontmatter.kind == .invalidSchema)
        #expect(noFrontmatter.message.contains("`frontmatter`"))
    }

    @Test func `frontmatter that is not an object schema is refused`() throws {
        let error = try #require(loadError("type: demo\ndescription: x\nfrontmatter:\n  type: string\n"))
        #expect(error.kind == .invalidSchema)
        #expect(error.line == 4)
    }

    @Test func `invalid YAML in a schema file gives its line and column`() throws {
        let error = try #require(loadError("type: demo\ndescription: x\nfrontmatter: [unclosed\n"))
        #expect(error.kind == .invalidSchema)
        #expect(error.line != nil && error.column != nil)
        #expect((error.line ?? 0) >= 3)
        #expect(error.message.hasPrefix("invalid YAML"))
    }
}

// MARK: - $defs, $ref and annotations

@Suite("Schema loading: $defs, $ref and annotations") struct SchemaDefinitionTests {
    static let text = """
        $comment: not a schema key, but... this is the top of the file
        type: demo
        description: A demo type.
        frontmatter:
          $schema: https://json-schema.org/draft/2020-12/schema
          $comment: Checked by Rhizome.
          title: Demo frontmatter
          type: object
          $defs:
            status:
              title: Status
              enum: [open, closed]
              examples: [open]
          properties:
            state:
              $ref: '#/$defs/status'
              deprecated: false
            tags:
              type: array
              items:
                $ref: '#/$defs/status'

        """

    @Test func `a $comment at the top level of the file is an unknown schema key`() throws {
        let error = try #require(loadError(Self.text))
        #expect(error.kind == .unsupportedKeyword)
        #expect((error.line, error.column) == (1, 1))
    }

    @Test func `annotations are accepted and a $ref property is validated by its definition`() throws {
        let text = Self.text.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().joined(separator: "\n")
        let schema = try load(text)
        let state = try #require(schema.frontmatter.property("state"))
        #expect(state.reference == "#/$defs/status")
        #expect(state.resolved.enumValues == [.string("open"), .string("closed")])
        #expect(schema.frontmatter.property("tags")?.items?.resolved.enumValues?.count == 2)

        let catalog = SchemaCatalog(schemas: [schema], config: VaultConfig(), fingerprint: "test")
        func findings(_ note: String) -> [Finding] {
            NoteChecker(catalog: catalog).check(NoteParser.parse(Array(note.utf8), path: "Note.md").frontmatter, path: "Note.md").findings
        }
        #expect(findings("---\ntype: demo\nstate: open\ntags: [closed]\n---\n").isEmpty)
        let bad = findings("---\ntype: demo\nstate: shut\ntags: [open, ajar]\n---\n")
        #expect(bad.map(\.code) == [.notInEnum, .notInEnum])
        #expect(bad.map { [$0.line, $0.column] } == [[3, 1], [4, 14]])
    }

    @Test func `definitions below the top of frontmatter are refused`() throws {
        let text = """
            type: demo
            description: A demo type.
            frontmatter:
              type: object
              properties:
                state:
                  $defs:
                    x: {type: string}

            """
        let error = try #require(loadError(text))
        #expect(error.kind == .invalidSchema)
        #expect((error.line, error.column) == (7, 7))
    }
}

// MARK: - A vault's schemas and config

@Suite("Schema loading: vault schemas and config") struct VaultSchemaTests {
    static let personSchema = """
        type: person
        description: Someone.
        frontmatter:
          type: object
          required: [name]

        """

    @Test func `a vault without config or schema folder has the built-ins and the default config`() throws {
        let vault = try TemporaryVault()
        let catalog = try SchemaCatalog.load(vaultRoot: vault.path)
        #expect(catalog.schemas.count == 10)
        #expect(catalog.config.sourceText == nil)
        #expect(catalog.config.schemaFolder == ".rhizome/schemas")
    }

    @Test func `a vault schema of a built-in type replaces the built-in one`() throws {
        let vault = try TemporaryVault()
        try vault.write(".rhizome/schemas/project.yaml", minimalSchema(type: "project", description: "The vault's projects."))
        let catalog = try SchemaCatalog.load(vaultRoot: vault.path)
        #expect(catalog.schemas.count == 10)
        let project = try #require(catalog.schema(forType: "project"))
        #expect(!project.isBuiltIn)
        #expect(project.description == "The vault's projects.")
        #expect(project.source == ".rhizome/schemas/project.yaml")
        #expect(project.matchValues.isEmpty, "the built-in's match values must not survive the override")
        #expect(catalog.schema(forTypeValue: "proj") == nil)
    }

    @Test func `a vault schema of a new type is added to the built-ins`() throws {
        let vault = try TemporaryVault()
        try vault.write(".rhizome/schemas/person.yaml", Self.personSchema)
        let catalog = try SchemaCatalog.load(vaultRoot: vault.path)
        #expect(catalog.schemas.map(\.type) == ["agent", "daily", "decision", "idea", "index", "person", "plan", "project", "reflection", "session", "skill"])
        #expect(catalog.schema(forType: "person")?.frontmatter.required == ["name"])
        #expect(catalog.schema(forType: "person")?.isBuiltIn == false)
    }

    @Test func `two vault files declaring the same type are a duplicate-type error`() throws {
        let vault = try TemporaryVault()
        try vault.write(".rhizome/schemas/a-person.yaml", Self.personSchema)
        try vault.write(".rhizome/schemas/b-person.yaml", Self.personSchema)
        let error = try #require(catalogError(vault))
        #expect(error.kind == .duplicateType)
        #expect(error.file == ".rhizome/schemas/b-person.yaml")
        #expect(error.line == 1)
        #expect(error.message.contains(".rhizome/schemas/a-person.yaml"))
        #expect(error.message.contains("`person`"))
    }

    @Test func `an error in a vault schema names the vault-relative file`() throws {
        let vault = try TemporaryVault()
        try vault.write(".rhizome/schemas/person.yaml", Self.personSchema + "  anyOf: []\n")
        let error = try #require(catalogError(vault))
        #expect(error.kind == .unsupportedKeyword)
        #expect(error.file == ".rhizome/schemas/person.yaml")
        #expect((error.line, error.column) == (6, 3))
    }

    @Test func `files that are not yaml, yml or json, and hidden files, are ignored`() throws {
        let vault = try TemporaryVault()
        try vault.write(".rhizome/schemas/README.md", "# not a schema\n")
        try vault.write(".rhizome/schemas/.person.yaml.swp", "garbage: [")
        try vault.write(".rhizome/schemas/.hidden.yaml", "garbage: [")
        try vault.write(".rhizome/schemas/person.yml", Self.personSchema)
        let catalog = try SchemaCatalog.load(vaultRoot: vault.path)
        #expect(catalog.schemas.count == 11)
        #expect(catalog.schema(forType: "person")?.source == ".rhizome/schemas/person.yml")
    }

    @Test func `a JSON schema file loads, with JSON positions in its errors`() throws {
        let vault = try TemporaryVault()
        try vault.write(".rhizome/schemas/person.json", """
            {
              "type": "person",
              "description": "Someone.",
              "match": {"values": ["people"]},
              "frontmatter": {
                "type": "object",
                "required": ["name"],
                "additionalProperties": false,
                "properties": {
                  "name": {"type": "string", "minLength": 1},
                  "email": {"type": "string", "format": "email"}
                }
              }
            }

            """)
        let catalog = try SchemaCatalog.load(vaultRoot: vault.path)
        let person = try #require(catalog.schema(forTypeValue: "people"))
        #expect(person.type == "person")
        #expect(person.source == ".rhizome/schemas/person.json")
        #expect(person.isStrict)
        #expect(person.frontmatter.properties.map(\.name) == ["name", "email"])
        #expect(person.frontmatter.property("email")?.format == .email)

        let error = try #require(loadError("""
            {
              "type": "person",
              "description": "Someone.",
              "frontmatter": {"type": "object", "oneOf": []}
            }
            """, file: "person.json"))
        #expect(error.kind == .unsupportedKeyword)
        #expect((error.line, error.column) == (4, 37))
    }

    @Test func `path typing prefers vault schemas, then type names`() throws {
        let vault = try TemporaryVault()
        try vault.write(".rhizome/schemas/zlog.yaml", minimalSchema(type: "zlog") + "match:\n  paths: [\"**/Sessions/**\"]\n")
        try vault.write(".rhizome/schemas/note-b.yaml", minimalSchema(type: "note-b") + "match:\n  paths: [\"Inbox/*\"]\n")
        try vault.write(".rhizome/schemas/note-a.yaml", minimalSchema(type: "note-a") + "match:\n  paths: [\"Inbox/**\"]\n")
        let catalog = try SchemaCatalog.load(vaultRoot: vault.path)
        #expect(catalog.classify(nil, path: "Work/Sessions/2024-01-05.md").schema?.type == "zlog")
        #expect(catalog.classify(nil, path: "Inbox/x.md").schema?.type == "note-a")
        #expect(catalog.classify(nil, path: "Inbox/x.md").matchedBy == .path)
        #expect(catalog.classify(nil, path: "tools/pdf/SKILL.md").schema?.type == "skill")
        #expect(catalog.classify(nil, path: "Notes/x.md").matchedBy == NoteTyping.Reason.none)
        #expect(catalog.classify(nil, path: "Notes/x.md").schema == nil)
    }

    @Test func `a schema folder that is a file is an unreadable error`() throws {
        let vault = try TemporaryVault()
        try vault.write(".rhizome/schemas", "not a folder")
        let error = try #require(catalogError(vault))
        #expect(error.kind == .unreadable)
        #expect(error.file.hasSuffix(".rhizome/schemas"))
    }

    @Test func `the config's schemas key moves the schema folder`() throws {
        let vault = try TemporaryVault()
        try vault.write(".rhizome/config.yaml", "schemas: custom/folder/\n")
        try vault.write("custom/folder/person.yaml", Self.personSchema)
        try vault.write(".rhizome/schemas/project.yaml", minimalSchema(type: "project", description: "Ignored."))
        let catalog = try SchemaCatalog.load(vaultRoot: vault.path)
        #expect(catalog.config.schemaFolder == "custom/folder")
        #expect(catalog.schema(forType: "person")?.source == "custom/folder/person.yaml")
        #expect(catalog.schema(forType: "project")?.isBuiltIn == true, "the default folder must no longer be read")
    }

    @Test func `the config's types mapping makes a value mean a schema type`() throws {
        let vault = try TemporaryVault()
        try vault.write(".rhizome/config.yaml", "version: 1\ntypes:\n  meeting: session\n")
        let catalog = try SchemaCatalog.load(vaultRoot: vault.path)
        #expect(catalog.config.typeMappings == ["meeting": "session"])
        #expect(catalog.schema(forTypeValue: "meeting")?.type == "session")
        #expect(catalog.schema(forType: "meeting") == nil)
        let frontmatter = NoteParser.parse(Array("---\ntype: meeting\n---\n".utf8), path: "M.md").frontmatter
        let typing = catalog.classify(frontmatter, path: "M.md")
        #expect(typing.schema?.type == "session")
        #expect(typing.declaredType == "meeting")
        #expect(typing.matchedBy == .typeProperty)
    }

    @Test func `the config's exclude globs are read`() throws {
        let config = try VaultConfig.parse("exclude: [\"Templates/**\", \"*.draft.md\"]\n", file: "config.yaml")
        #expect(config.exclude.map(\.pattern) == ["Templates/**", "*.draft.md"])
        #expect(config.isExcluded("Templates/a/b.md"))
        #expect(config.isExcluded("x.draft.md"))
        #expect(!config.isExcluded("Notes/x.draft.md"))
        #expect(!config.isExcluded("Notes/Templates/b.md"))
    }

    @Test func `a config with a newer version is refused`() throws {
        let vault = try TemporaryVault()
        try vault.write(".rhizome/config.yaml", "version: 2\nschemas: s\n")
        let error = try #require(catalogError(vault))
        #expect(error.kind == .newerVersion)
        #expect(error.file.hasSuffix(".rhizome/config.yaml"))
        #expect((error.line, error.column) == (1, 10))
    }

    @Test func `a config with an unknown key is refused at the key`() throws {
        let vault = try TemporaryVault()
        try vault.write(".rhizome/config.yaml", "version: 1\nschema: custom\n")
        let error = try #require(catalogError(vault))
        #expect(error.kind == .invalidConfig)
        #expect((error.line, error.column) == (2, 1))
        #expect(error.message.contains("`schema`"))
    }

    @Test func `a config value of the wrong shape is a config error, not a schema error`() throws {
        let error: SchemaError
        do {
            _ = try VaultConfig.parse("types: [meeting, session]\n", file: "config.yaml")
            Issue.record("a list under types was accepted")
            return
        } catch let thrown {
            error = thrown
        }
        #expect(error.kind == .invalidConfig)
        #expect((error.line, error.column) == (1, 8))
    }

    @Test func `a config with invalid YAML gives the line and column`() throws {
        let vault = try TemporaryVault()
        try vault.write(".rhizome/config.yaml", "version: 1\ntypes:\n  meeting: session\n\tbad: tab\n")
        let error = try #require(catalogError(vault))
        #expect(error.kind == .invalidConfig)
        #expect(error.line == 4)
        #expect(error.column != nil)
        #expect(error.message.hasPrefix("invalid YAML"))
    }

    @Test func `the fingerprint changes with a schema file or the config and only then`() throws {
        let vault = try TemporaryVault()
        try vault.write(".rhizome/schemas/person.yaml", Self.personSchema)
        let first = try SchemaCatalog.load(vaultRoot: vault.path).fingerprint
        #expect(first.count == 16)
        #expect(try SchemaCatalog.load(vaultRoot: vault.path).fingerprint == first)

        try vault.write("Notes/a.md", "---\ntype: person\n---\n")
        #expect(try SchemaCatalog.load(vaultRoot: vault.path).fingerprint == first, "a note is not part of the fingerprint")

        try vault.write(".rhizome/schemas/person.yaml", Self.personSchema.replacingOccurrences(of: "Someone.", with: "Somebody."))
        let afterSchemaEdit = try SchemaCatalog.load(vaultRoot: vault.path).fingerprint
        #expect(afterSchemaEdit != first)

        try vault.write(".rhizome/schemas/person.yaml", Self.personSchema)
        #expect(try SchemaCatalog.load(vaultRoot: vault.path).fingerprint == first)

        try vault.write(".rhizome/config.yaml", "version: 1\n")
        let withConfig = try SchemaCatalog.load(vaultRoot: vault.path).fingerprint
        #expect(withConfig != first)
        try vault.write(".rhizome/config.yaml", "version: 1\nexclude: [\"Templates/**\"]\n")
        let afterConfigEdit = try SchemaCatalog.load(vaultRoot: vault.path).fingerprint
        #expect(afterConfigEdit != withConfig)
        #expect(afterConfigEdit != first)

        try vault.write(".rhizome/schemas/meeting.yaml", minimalSchema(type: "meeting"))
        #expect(try SchemaCatalog.load(vaultRoot: vault.path).fingerprint != afterConfigEdit, "a new schema file changes it")
    }

    @Test func `renaming a schema file changes the fingerprint`() throws {
        let vault = try TemporaryVault()
        try vault.write(".rhizome/schemas/person.yaml", Self.personSchema)
        let before = try SchemaCatalog.load(vaultRoot: vault.path).fingerprint
        try vault.move(".rhizome/schemas/person.yaml", to: ".rhizome/schemas/people.yaml")
        #expect(try SchemaCatalog.load(vaultRoot: vault.path).fingerprint != before)
    }
}
