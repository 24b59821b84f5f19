/// Tests of reading `.base` files with `BaseDocument.parse`: every section of the help's example with its
/// lines and columns, real-style bases (sort keys written `column:`, layout settings), `base` code blocks
/// read with a line offset, files that cannot be read, each problem kind, property names, and where each
/// character of an expression is (`BaseSource.location(ofOffset:)`). Rules from Obsidian's help, "Bases
/// syntax", "Views" and the layout pages.
import Testing
@testable import RhizomeCore

private func document(_ text: String, lineOffset: Int = 0) -> BaseDocument? {
    guard case .success(let document) = BaseDocument.parse(text, lineOffset: lineOffset) else { return nil }
    return document
}

private func failure(_ text: String, lineOffset: Int = 0) -> BaseDocumentError? {
    guard case .failure(let error) = BaseDocument.parse(text, lineOffset: lineOffset) else { return nil }
    return error
}

private func codes(_ document: BaseDocument?) -> [FindingCode] {
    document?.problems.map(\.code) ?? [FindingCode.unreadableFile]
}

/// The source of the formula `name` of a one-formula base written as `text`.
private func formulaSource(_ text: String) -> BaseSource? {
    document(text)?.formulas.first?.source
}

private func location(_ source: BaseSource?, _ offset: Int) -> [Int] {
    guard let source else { return [] }
    let location = source.location(ofOffset: offset)
    return [location.line, location.column]
}

// MARK: - The help's example

@Suite("Base document: the example of Bases syntax") struct BaseDocumentExampleTests {
    static let text = """
        filters:
          or:
            - file.hasTag("tag")
            - and:
                - file.hasTag("book")
                - file.hasLink("Textbook")
            - not:
                - file.hasTag("book")
                - file.inFolder("Required Reading")
        formulas:
          formatted_price: 'if(price, price.toFixed(2) + " dollars")'
          ppu: "(price / age).toFixed(2)"
        properties:
          status:
            displayName: Status
          formula.formatted_price:
            displayName: "Price"
          file.ext:
            displayName: Extension
        summaries:
          customAverage: 'values.mean().round(3)'
        views:
          - type: table
            name: "My table"
            limit: 10
            groupBy:
              property: note.age
              direction: DESC
            filters:
              and:
                - 'status != "done"'
                - or:
                    - "formula.ppu > 5"
                    - "price > 2.1"
            order:
              - file.name
              - file.ext
              - note.age
              - formula.ppu
              - formula.formatted_price
            summaries:
              formula.ppu: Average
        """

    @Test func `the global filters nest or, and and not with each statement's position`() {
        let expected = BaseFilter.or([
            .statement(BaseSource(text: #"file.hasTag("tag")"#, line: 3, column: 7)),
            .and([
                .statement(BaseSource(text: #"file.hasTag("book")"#, line: 5, column: 11)),
                .statement(BaseSource(text: #"file.hasLink("Textbook")"#, line: 6, column: 11)),
            ]),
            .not([
                .statement(BaseSource(text: #"file.hasTag("book")"#, line: 8, column: 11)),
                .statement(BaseSource(text: #"file.inFolder("Required Reading")"#, line: 9, column: 11)),
            ]),
        ])
        #expect(document(Self.text)?.filters == expected)
    }

    @Test func `formulas keep their text without the quotes, in file order, with key and text positions`() {
        let formulas = document(Self.text)?.formulas ?? []
        #expect(formulas.map(\.name) == ["formatted_price", "ppu"])
        #expect(formulas.first?.source.text == #"if(price, price.toFixed(2) + " dollars")"#)
        #expect(formulas.first.map { [$0.keyLine, $0.keyColumn, $0.source.line, $0.source.column] } == [11, 3, 11, 21])
        #expect(formulas.last?.source.text == "(price / age).toFixed(2)")
        #expect(formulas.last.map { [$0.source.line, $0.source.column] } == [12, 9])
    }

    @Test func `properties give display names to note, formula and file properties`() {
        let properties = document(Self.text)?.properties ?? []
        #expect(properties.map(\.name.canonical) == ["note.status", "formula.formatted_price", "file.ext"])
        #expect(properties.map(\.displayName) == ["Status", "Price", "Extension"])
        #expect(properties.map(\.keyLine) == [14, 16, 18])
        #expect(document(Self.text)?.displayName(of: BasePropertyName("status")) == "Status")
    }

    @Test func `custom summaries are named expressions`() {
        let summaries = document(Self.text)?.summaries ?? []
        #expect(summaries.map(\.name) == ["customAverage"])
        #expect(summaries.first.map { [$0.source.line, $0.source.column] } == [21, 19])
        #expect(summaries.first?.source.text == "values.mean().round(3)")
    }

    @Test func `the view has its type, name, limit, group, order and summaries`() {
        let view = document(Self.text)?.views.first
        #expect(document(Self.text)?.views.count == 1)
        #expect(view?.type == "table")
        #expect(view?.name == "My table")
        #expect(view?.isNamed == true)
        #expect(view?.limit == 10)
        #expect(view?.groupBy?.property == BasePropertyName(namespace: .note, name: "age"))
        #expect(view?.groupBy?.descending == true)
        #expect(view?.order.map(\.canonical) == ["file.name", "file.ext", "note.age", "formula.ppu", "formula.formatted_price"])
        #expect(view?.summaries == [BaseViewSummary(property: BasePropertyName("formula.ppu"), summary: "Average", line: 42, column: 7)])
        #expect(view.map { [$0.line, $0.column] } == [23, 5])
        #expect(view?.extra.isEmpty == true)
    }

    @Test func `the view's own filters keep quoted statements' positions inside the quotes`() {
        let expected = BaseFilter.and([
            .statement(BaseSource(text: #"status != "done""#, line: 31, column: 12)),
            .or([
                .statement(BaseSource(text: "formula.ppu > 5", line: 33, column: 16)),
                .statement(BaseSource(text: "price > 2.1", line: 34, column: 16)),
            ]),
        ])
        #expect(document(Self.text)?.views.first?.filters == expected)
    }

    @Test func `the example has no problems`() {
        #expect(codes(document(Self.text)) == [])
    }

    @Test func `statements lists every statement in file order`() {
        let statements = document(Self.text)?.filters?.statements.map(\.line)
        #expect(statements == [3, 5, 6, 8, 9])
    }
}

// MARK: - Real-style files

@Suite("Base document: real-style files") struct BaseDocumentRealFilesTests {
    /// Shaped like the Movies base of kepano's vault: `formulas: {}`, `column:` sort keys, `columnSize`.
    static let movies = """
        filters:
          and:
            - categories.contains(link("Movies"))
            - '!file.name.contains("Template")'
        formulas: {}
        properties:
          file.name:
            displayName: Name
          note.year:
            displayName: Year
        views:
          - type: table
            name: All
            order:
              - file.name
              - year
              - director
            sort:
              - property: director
                direction: ASC
              - column: file.name
                direction: DESC
              - property: year
            columnSize:
              note.plot: 233
              file.name: 120
          - type: table
            name: Last seen
            filters:
              and:
                - note.last != ""
            sort:
              - property: last
                direction: desc
            limit: 15
        """

    @Test func `sort keys written with property or column read alike, ASC by default, direction in any case`() {
        let views = document(Self.movies)?.views ?? []
        #expect(views.first?.sort.map(\.property.canonical) == ["note.director", "file.name", "note.year"])
        #expect(views.first?.sort.map(\.descending) == [false, true, false])
        #expect(views.last?.sort.map(\.descending) == [true])
        #expect(views.first?.sort.first.map { [$0.line, $0.column] } == [19, 9])
    }

    @Test func `layout settings are kept as written and not reported`() {
        let parsed = document(Self.movies)
        #expect(parsed?.views.first?.extra.map(\.key) == ["columnSize"])
        #expect(parsed?.views.first?.extra("columnSize")?.line == 25)
        #expect(codes(parsed) == [])
    }

    @Test func `an empty formulas mapping, a quoted negation and a limit read as written`() {
        let parsed = document(Self.movies)
        #expect(parsed?.formulas.isEmpty == true)
        #expect(parsed?.filters?.statements.map(\.text) == [#"categories.contains(link("Movies"))"#, #"!file.name.contains("Template")"#])
        #expect(parsed?.filters?.statements.last.map { [$0.line, $0.column] } == [4, 8])
        #expect(parsed?.views.last?.limit == 15)
        #expect(parsed?.view(named: "Last seen")?.filters?.statements.first?.text == #"note.last != """#)
    }

    static let layouts = """
        formulas:
          Type icon: list(type)[0].asFile().properties.icon
        views:
          - type: cards
            name: Gallery
            image: note.cover
            imageFit: contain
            imageAspectRatio: 1.5
            cardSize: 200
          - type: list
            name: Reading list
            markers: number
            indentProperties: true
            separator: " | "
          - type: map
            name: Places
            coordinates: note.coordinates
            markerIcon: formula.Type icon
            markerColor: color
            defaultZoom: 12
            center: "48.85, 2.29"
            rowHeight: tall
          - type: kanban-board
            name: Board
            lanes: status
            laneWidth: 300
        """

    @Test func `cards, list and map settings are read, plugin views keep their own keys`() {
        let parsed = document(Self.layouts)
        let views = parsed?.views ?? []
        #expect(views.map(\.type) == ["cards", "list", "map", "kanban-board"])
        #expect(views.first?.image == BasePropertyName(namespace: .note, name: "cover"))
        #expect(views.first?.extra.map(\.key) == ["imageFit", "imageAspectRatio", "cardSize"])
        #expect(views[2].coordinates?.canonical == "note.coordinates")
        #expect(views[2].markerIcon == BasePropertyName(namespace: .formula, name: "Type icon"))
        #expect(views[2].markerColor?.canonical == "note.color")
        #expect(views[3].extra.map(\.key) == ["lanes", "laneWidth"])
        #expect(codes(parsed) == [])
    }

    @Test func `a formula name with a space is kept whole`() {
        #expect(document(Self.layouts)?.formula(named: "Type icon")?.source.text == "list(type)[0].asFile().properties.icon")
    }
}

// MARK: - Code blocks, empty bases, unreadable files

@Suite("Base document: code blocks and unreadable files") struct BaseDocumentReadingTests {
    @Test func `a base code block reports the note's lines through the line offset`() {
        let block = """
            filters: 'file.hasTag("book")'
            views:
              - type: table
                name: Books
                limit: -3
            """
        let parsed = document(block, lineOffset: 10)
        #expect(parsed?.filters == .statement(BaseSource(text: #"file.hasTag("book")"#, line: 11, column: 11)))
        #expect(parsed?.views.first.map { [$0.line, $0.column] } == [13, 5])
        #expect(parsed?.problems.map { [$0.line, $0.column] } == [[15, 12]])
        #expect(parsed?.filters?.statements.first.map { location($0, 5) } == [11, 16])
    }

    @Test func `invalid YAML fails with libyaml's position, shifted in a code block`() {
        let text = "views:\n  - type: table\n    name: [unclosed\n"
        let error = failure(text)
        #expect(error?.code == .baseInvalidYAML)
        #expect(error?.line == 4)
        #expect(failure(text, lineOffset: 5)?.line == 9)
        #expect(error?.finding(path: "Bases/Broken.base").severity == .error)
    }

    @Test func `an unquoted statement starting with ! is a YAML tag, and the fix says to quote it`() {
        let error = failure("filters:\n  and:\n    - !file.hasTag(\"draft\")\n")
        #expect(error?.code == .baseInvalidYAML)
        #expect(error?.line == 3)
        #expect(error?.fix?.contains("quote") == true)
    }

    @Test func `a top level that is not a mapping, or views that are not a list, cannot be read`() {
        #expect(failure("- type: table\n")?.code == .baseNotMapping)
        #expect(failure("just text\n")?.code == .baseNotMapping)
        let views = failure("filters: 'x > 1'\nviews: table\n")
        #expect(views?.code == .baseInvalidViews)
        #expect(views.map { [$0.line, $0.column] } == [2, 8])
    }

    @Test func `an empty file, an empty mapping or comments alone are a base with no views`() {
        for text in ["", "{}", "# nothing yet\n", "views: []\n", "views:\n"] {
            let parsed = document(text)
            #expect(parsed != nil, "\(text)")
            #expect(parsed?.views.isEmpty == true)
            #expect(parsed?.filters == nil)
            #expect(codes(parsed) == [])
            #expect(parsed?.view(named: nil) == nil)
        }
    }

    @Test func `view named nil is the first view, a name picks the first with it`() {
        let parsed = document("views:\n  - type: table\n    name: A\n  - type: cards\n    name: B\n")
        #expect(parsed?.view(named: nil)?.name == "A")
        #expect(parsed?.view(named: "B")?.type == "cards")
        #expect(parsed?.view(named: "C") == nil)
    }

    @Test func `unnamed views are named after their layout, numbered when taken`() {
        let parsed = document("views:\n  - type: table\n  - type: table\n    name: Table 2\n  - type: table\n  - type: cards\n")
        #expect(parsed?.views.map(\.name) == ["Table", "Table 2", "Table 3", "Cards"])
        #expect(parsed?.views.map(\.isNamed) == [false, true, false, false])
        #expect(codes(parsed) == [])
    }
}

// MARK: - Problems

@Suite("Base document: problems") struct BaseDocumentProblemTests {
    @Test func `an unknown top-level key is reported with the nearest known one`() {
        let parsed = document("filters: 'a'\nview:\n  - type: table\n")
        #expect(codes(parsed) == [.baseUnknownKey])
        #expect(parsed?.problems.first.map { [$0.line, $0.column] } == [2, 1])
        #expect(parsed?.problems.first?.fix?.contains("`views`") == true)
    }

    @Test func `the early beta's display key is reported as no longer read`() {
        let parsed = document("display:\n  file.name: Name\n")
        #expect(codes(parsed) == [.baseUnknownKey])
        #expect(parsed?.problems.first?.fix?.contains("properties") == true)
    }

    @Test func `a filter object with two conjunctions reads the first and reports the second`() {
        let parsed = document("filters:\n  and:\n    - a\n  or:\n    - b\n")
        #expect(parsed?.filters == .and([.statement(BaseSource(text: "a", line: 3, column: 7))]))
        #expect(codes(parsed) == [.baseInvalidFilter])
        #expect(parsed?.problems.first.map { [$0.line, $0.column] } == [4, 3])
    }

    @Test func `a filter object with no conjunction filters nothing and names the unknown key`() {
        let parsed = document("filters:\n  any:\n    - a\n")
        #expect(parsed?.filters == nil)
        #expect(codes(parsed) == [.baseUnknownKey, .baseInvalidFilter])
    }

    @Test func `filter items that are lists or empty are dropped, non-text scalars kept as text`() {
        let parsed = document("filters:\n  or:\n    - [a, b]\n    - true\n    -\n    - c\n")
        #expect(parsed?.filters?.statements.map(\.text) == ["true", "c"])
        #expect(codes(parsed) == [.baseInvalidFilter, .baseInvalidFilter, .baseInvalidFilter])
        #expect(parsed?.problems.map(\.line) == [3, 4, 5])
    }

    @Test func `a conjunction holding a single statement reads it as a list of one`() {
        let parsed = document("filters:\n  not: 'file.hasTag(\"x\")'\n")
        #expect(parsed?.filters?.statements.map(\.text) == [#"file.hasTag("x")"#])
        if case .not = parsed?.filters {} else { Issue.record("expected a not filter") }
        #expect(codes(parsed) == [.baseInvalidFilter])
    }

    @Test func `a sort direction that is neither ASC nor DESC sorts ascending and is reported`() {
        let parsed = document("views:\n  - type: table\n    sort:\n      - property: year\n        direction: down\n")
        #expect(parsed?.views.first?.sort.map(\.descending) == [false])
        #expect(codes(parsed) == [.baseInvalidSort])
        #expect(parsed?.problems.first.map { [$0.line, $0.column] } == [5, 20])
    }

    @Test func `a sort entry without a property is dropped`() {
        let parsed = document("views:\n  - type: table\n    sort:\n      - direction: DESC\n      - property: year\n")
        #expect(parsed?.views.first?.sort.map(\.property.name) == ["year"])
        #expect(codes(parsed) == [.baseInvalidSort])
    }

    @Test func `a negative, fractional or textual limit is reported and leaves the view unlimited`() {
        for limit in ["-1", "2.5", "ten", "[1]"] {
            let parsed = document("views:\n  - type: table\n    limit: \(limit)\n")
            #expect(parsed?.views.first?.limit == nil, "\(limit)")
            #expect(codes(parsed) == [.baseInvalidLimit], "\(limit)")
        }
        #expect(document("views:\n  - type: table\n    limit: 0\n")?.views.first?.limit == 0)
    }

    @Test func `two views with the same name are reported at the second name`() {
        let parsed = document("views:\n  - type: table\n    name: Books\n  - type: cards\n    name: Books\n")
        #expect(codes(parsed) == [.baseDuplicateView])
        #expect(parsed?.problems.first.map { [$0.line, $0.column] } == [5, 11])
        #expect(parsed?.view(named: "Books")?.type == "table")
    }

    @Test func `a properties entry that is not a mapping is reported and skipped`() {
        let parsed = document("properties:\n  status: Status\n  note.year:\n    displayName: Year\n    width: 3\n")
        #expect(codes(parsed) == [.baseInvalidProperty])
        #expect(parsed?.properties.map(\.name.canonical) == ["note.year"])
        #expect(parsed?.properties.first?.extra.map(\.key) == ["width"])
    }

    @Test func `a view summary must name a default summary or a custom one, even one defined later`() {
        let text = """
            views:
              - type: table
                summaries:
                  price: Averag
                  rating: Sum
                  pages: customTotal
            summaries:
              customTotal: 'values.reduce(acc + value, 0)'
            """
        let parsed = document(text)
        #expect(codes(parsed) == [.baseUnknownSummary])
        #expect(parsed?.problems.first.map { [$0.line, $0.column] } == [4, 14])
        #expect(parsed?.problems.first?.fix?.contains("`Average`") == true)
        #expect(parsed?.views.first?.summaries.map(\.summary) == ["Averag", "Sum", "customTotal"])
    }

    @Test func `a formula that is a number is the expression of its text, one that is a list is left out`() {
        let parsed = document("formulas:\n  five: 5\n  yes: true\n  many: [1, 2]\n  none:\n")
        #expect(parsed?.formulas.map(\.source.text) == ["5", "true"])
        #expect(codes(parsed) == [.baseInvalidFormula, .baseInvalidFormula])
    }

    @Test func `an unknown key of a built-in view is reported, with a warning when it looks like a typo`() {
        let parsed = document("views:\n  - type: table\n    groupby:\n      property: year\n    colour: red\n")
        #expect(codes(parsed) == [.baseUnknownKey, .baseUnknownKey])
        #expect(parsed?.problems.map(\.severity) == [.warning, .info])
        #expect(parsed?.problems.first?.fix == "did you mean `groupBy`?")
        #expect(parsed?.views.first?.extra.map(\.key) == ["groupby", "colour"])
    }

    @Test func `a view without a type is read as a table and reported`() {
        let parsed = document("views:\n  - name: Untyped\n  - just text\n")
        #expect(parsed?.views.map(\.type) == ["table"])
        #expect(codes(parsed) == [.baseInvalidView, .baseInvalidView])
    }

    @Test func `a key given twice is reported and the later value is used`() {
        let parsed = document("views:\n  - type: table\n    name: A\n    name: B\n")
        #expect(parsed?.views.first?.name == "B")
        #expect(codes(parsed) == [.baseDuplicateKey])
        #expect(parsed?.problems.first.map { [$0.line, $0.column] } == [4, 5])
    }

    @Test func `a problem becomes a finding about the file`() {
        let problem = document("views:\n  - type: table\n    limit: -1\n")?.problems.first
        let finding = problem?.finding(path: "Bases/Books.base")
        #expect(finding?.code == .baseInvalidLimit)
        #expect(finding?.code.rawValue == "base-invalid-limit")
        #expect(finding?.path == "Bases/Books.base")
        #expect(finding.map { [$0.line, $0.column] } == [3, 12])
        #expect(finding?.severity == .warning)
        #expect(finding?.fix != nil)
    }
}

// MARK: - Property names

@Suite("Base property names") struct BasePropertyNameTests {
    @Test func `a bare name and a note-prefixed one are the same note property`() {
        #expect(BasePropertyName("year") == BasePropertyName("note.year"))
        #expect(BasePropertyName("year").canonical == "note.year")
    }

    @Test func `file and formula prefixes select their namespace`() {
        #expect(BasePropertyName("file.name") == BasePropertyName(namespace: .file, name: "name"))
        #expect(BasePropertyName("formula.Type icon") == BasePropertyName(namespace: .formula, name: "Type icon"))
    }

    @Test func `after the prefix the rest is the name, dots included; without one the whole text is`() {
        #expect(BasePropertyName("note.my.key") == BasePropertyName(namespace: .note, name: "my.key"))
        #expect(BasePropertyName("my.key") == BasePropertyName(namespace: .note, name: "my.key"))
        #expect(BasePropertyName("file") == BasePropertyName(namespace: .note, name: "file"))
        #expect(BasePropertyName("file.") == BasePropertyName(namespace: .note, name: "file."))
    }
}

// MARK: - Where each character is

@Suite("Base source locations") struct BaseSourceLocationTests {
    @Test func `a plain scalar's characters follow its first column`() {
        let source = document("filters: file.hasTag(\"x\")\n")?.filters?.statements.first
        #expect(location(source, 0) == [1, 10])
        #expect(location(source, 5) == [1, 15])
        #expect(location(source, 100) == [1, 26])
    }

    @Test func `a single-quoted scalar skips the quote and each doubled quote`() {
        let source = formulaSource("formulas:\n  f: 'a ''b'' c'\n")
        #expect(source?.text == "a 'b' c")
        #expect((0...7).map { location(source, $0)[1] } == [7, 8, 9, 11, 12, 14, 15, 16])
    }

    @Test func `a double-quoted scalar skips backslash escapes`() {
        let source = formulaSource(#"""
            formulas:
              f: "a \"b\" \u00e9x"
            """#)
        #expect(source?.text == "a \"b\" \u{e9}x")
        #expect((0...7).map { location(source, $0)[1] } == [7, 8, 9, 11, 12, 14, 15, 21])
    }

    @Test func `a character of several scalars counts them all in the column`() {
        let source = formulaSource("formulas:\n  f: \"\u{1F44D}\u{1F3FD} x\"\n")
        #expect(location(source, 1) == [2, 9])
        #expect(location(source, 2) == [2, 10])
    }

    @Test func `a literal block scalar's lines start at its indentation, deeper spaces are text`() {
        let source = formulaSource("formulas:\n  f: |\n    if(a,\n      b)\n")
        #expect(source?.text == "if(a,\n  b)\n")
        #expect(location(source, 0) == [3, 5])
        #expect(location(source, 5) == [3, 10])
        #expect(location(source, 6) == [4, 5])
        #expect(location(source, 8) == [4, 7])
    }

    @Test func `a folded scalar's break reads as a space where the break was`() {
        let source = formulaSource("formulas:\n  f: >-\n    one\n    two\n")
        #expect(source?.text == "one two")
        #expect(location(source, 3) == [3, 8])
        #expect(location(source, 4) == [4, 5])
    }

    @Test func `a multi-line double-quoted scalar continues on the next line's text`() {
        let source = formulaSource("formulas:\n  f: \"one\n    two\"\n")
        #expect(source?.text == "one two")
        #expect(location(source, 4) == [3, 5])
    }

    @Test func `an empty quoted scalar is just after its opening quote`() {
        let source = formulaSource("formulas:\n  f: ''\n")
        #expect(source?.text == "")
        #expect(location(source, 0) == [2, 7])
    }

    @Test func `CRLF line endings give the same positions`() {
        let source = formulaSource("formulas:\r\n  f: >-\r\n    one\r\n    two\r\n")
        #expect(source?.text == "one two")
        #expect(location(source, 4) == [4, 5])
    }

    @Test func `an alias falls back to the alias's position`() {
        let parsed = document("summaries:\n  a: &shared 'values.length'\nformulas:\n  b: *shared\n")
        #expect(parsed?.formulas.first?.source.text == "values.length")
        #expect(location(parsed?.formulas.first?.source, 3) == [4, 9])
    }
}
