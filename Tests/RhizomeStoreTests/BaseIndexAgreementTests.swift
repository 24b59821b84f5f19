import Foundation
import Testing
@testable import RhizomeCore
@testable import RhizomeStore
import RhizomeTestSupport

/// A base evaluated the fast way (`IndexStore.runBase`: only the files the index says can pass, only the
/// facts the base reads) gives exactly what evaluating it over every file with every fact gives, on a
/// generated vault with tags in several cases and scripts, nested tags, folders, attachments and links.
@Suite struct BaseIndexAgreementTests {
    static let bases: [String] = [
        #"filters: file.hasTag("book")"#,
        ##"filters: file.hasTag("#Book", "idea/draft")"##,
        #"filters: file.hasTag("bóok")"#,
        #"filters: file.hasTag("BÓOK/X")"#,
        #"filters: 'file.inFolder("Notes/Deep") && rating > 2'"#,
        #"filters: 'file.inFolder("/Notes/")'"#,
        #"filters: file.ext == "PNG""#,
        "filters:\n  and:\n    - file.hasTag(\"book\")\n    - file.inFolder(\"Notes\")\n    - 'rating >= 3'",
        "filters:\n  or:\n    - file.hasTag(\"book\")\n    - file.inFolder(\"Attachments\")",
        "filters:\n  not:\n    - file.hasTag(\"book\")",
        "filters: 'file.hasTag(\"book\") && file.backlinks.length > 0'\nformulas:\n  n: file.backlinks.length\nviews:\n  - type: table\n    order: [file.name, formula.n]",
        "filters: 'file.hasTag(\"book\")'\nformulas:\n  friend: 'list(related).map(value.asFile().hasTag(\"idea\"))'\nviews:\n  - type: table\n    order: [file.name, formula.friend]",
        "filters: 'file.hasTag(\"idea\")'\nviews:\n  - type: table\n    order: [file.name, rating, file.tags, file.links]\n    sort:\n      - property: rating\n        direction: DESC",
    ]

    static func makeVault() throws -> TemporaryVault {
        let vault = try TemporaryVault()
        var generator = SeededGenerator(state: 20)
        let tags = ["book", "Book", "BOOK/x", "book/sci", "bookish", "idea", "idea/draft", "bóok", "BÓOK/x", "books"]
        let folders = ["Notes", "Notes/Deep", "Notes/Deeper/Still", "Other", ""]
        for number in 0..<80 {
            let folder = folders[Int(generator.next() % UInt64(folders.count))]
            let path = (folder.isEmpty ? "" : folder + "/") + "Note \(number).md"
            let tag = tags[Int(generator.next() % UInt64(tags.count))]
            let inline = tags[Int(generator.next() % UInt64(tags.count))]
            let related = "Note \(Int(generator.next() % 80))"
            try vault.write(path, """
                ---
                rating: \(generator.next() % 5)
                tags: [\(tag)]
                related: "[[\(related)]]"
                ---
                Body #\(inline) and [[\(related)]].
                """)
        }
        for name in ["a.png", "b.PNG", "c.pdf"] { try vault.write("Attachments/" + name, bytes: [1, 2, 3]) }
        return vault
    }

    @Test func theIndexNarrowedRunAgreesWithEvaluatingEveryFile() throws {
        let vault = try Self.makeVault()
        _ = try vault.index()
        let store = try vault.store()
        let now = Date(timeIntervalSince1970: 1_750_000_000)
        for text in Self.bases {
            let program = try BaseProgram.load(text: text, path: "test.base")
            let fast = try store.runBase(program, viewNamed: nil, thisPath: nil, now: now)
            var phases = PhaseTimer(enabled: false)
            let everything = try IndexedBaseVault(store: store, needs: IndexedBaseVault.Needs(), phases: &phases)
            let full = try BaseRunner(program: program, environment: BaseEnvironment(vault: everything, now: now), thisPath: nil)
                .run(viewNamed: nil, files: everything.files)
            #expect(describe(fast) == describe(full), "\(text)")
            #expect(full.total > 0 || text.contains("BÓOK"), "\(text) matches nothing: the test would prove little")
        }
    }

    @Test func narrowingHappensOnlyWhenTheBaseReadsNoOtherFile() throws {
        func conditions(_ text: String) throws -> [BaseProgram.CandidateCondition]? {
            try BaseProgram.load(text: text, path: nil).candidateConditions(viewIndex: nil)
        }
        #expect(try conditions(#"filters: 'file.hasTag("a") && file.inFolder("x/") && file.ext == "md"'"#)
            == [.tags(["a"]), .folder("x"), .fileExtension("md")])
        #expect(try conditions(#"filters: 'file.hasTag("a") || file.inFolder("x")'"#) == nil)
        #expect(try conditions(#"filters: 'file.hasTag("a") && author.born > 1900'"#) == nil)  // a linked note's property
        #expect(try conditions(#"filters: 'file.hasTag("a") && file.hasLink(this)'"#) == nil)
        #expect(try conditions("filters: file.hasTag(\"a\")\nformulas:\n  x: value.asFile()") == nil)
        #expect(try conditions(#"filters: 'file.hasTag(tagName)'"#) == nil)  // not a literal
    }

    private func describe(_ result: BaseResult) -> [String] {
        result.rows.map { row in
            row.path + " | " + row.cells.map { cell in
                switch cell {
                case .value(let value): return BaseText.string(value)
                case .error(let message): return "error: " + message
                }
            }.joined(separator: " | ")
        } + ["total \(result.total)"]
    }
}
