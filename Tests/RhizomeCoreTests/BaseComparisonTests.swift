/// Tests of equality and order of Bases values (`BaseComparison`): JavaScript's loose `==` between numbers,
/// numeric text and booleans, lists and objects by content, links as Obsidian's help describes ("equivalent
/// as long as they point to the same file, or … their link text must be identical"), comparisons that do not
/// compare, and the sort order of views and `list.sort()`.
import Foundation
import Testing
@testable import RhizomeCore

private let environment = FunctionLibraryFixture.environment
private let duneLink = FunctionLibraryFixture.duneLink

private func equal(_ a: BaseValue, _ b: BaseValue) -> Bool {
    BaseComparison.equal(a, b, environment: environment) && BaseComparison.equal(b, a, environment: environment)
}

private func compare(_ a: BaseValue, _ b: BaseValue) -> Int? { BaseComparison.compare(a, b, environment: environment) }

private func sorted(_ values: [BaseValue]) -> String {
    FunctionLibraryFixture.render(.list(values.sorted { BaseComparison.sortOrder($0, $1, environment: environment) < 0 }))
}

@Suite("Bases equality") struct BaseEqualityTests {
    @Test func `numbers, numeric text and booleans are equal as JavaScript's == says`() {
        #expect(equal(.number(1), .string("1")))
        #expect(equal(.number(1.5), .string(" 1.5 ")))
        #expect(equal(.boolean(true), .number(1)))
        #expect(equal(.boolean(true), .string("1")))
        #expect(!equal(.number(1), .string("one")))
        #expect(!equal(.number(.nan), .number(.nan)))
    }

    @Test func `null equals only null`() {
        #expect(equal(.null, .null))
        #expect(!equal(.null, .number(0)))
        #expect(!equal(.null, .string("")))
        #expect(!equal(.null, .boolean(false)))
    }

    @Test func `text is case-sensitive`() {
        #expect(equal(.string("a"), .string("a")))
        #expect(!equal(.string("a"), .string("A")))
    }

    @Test func `lists compare element by element, objects by keys and values in any order`() {
        #expect(equal(.list([.number(1), .list([.number(2)])]), .list([.number(1), .list([.number(2)])])))
        #expect(!equal(.list([.number(1), .number(2)]), .list([.number(2), .number(1)])))
        let object = BaseValue.object(BaseObject([("a", .number(1)), ("b", .number(2))]))
        #expect(equal(object, .object(BaseObject([("b", .number(2)), ("a", .number(1))]))))
        #expect(!equal(object, .object(BaseObject([("a", .number(1))]))))
    }

    @Test func `links are equal when they resolve to the same file, whatever their text`() {
        #expect(equal(.link(duneLink), .link(BaseLink(target: "Books/Dune", display: "D", resolvedPath: "Books/Dune.md"))))
        #expect(!equal(.link(duneLink), .link(BaseLink(target: "Dune", resolvedPath: "Other/Dune.md"))))
    }

    @Test func `links that do not resolve are equal when their link text is the same`() {
        #expect(equal(.link(BaseLink(target: "X")), .link(BaseLink(target: "X", display: "y"))))
        #expect(!equal(.link(BaseLink(target: "X")), .link(BaseLink(target: "Y"))))
        #expect(!equal(.link(BaseLink(target: "Dune")), .link(duneLink)))
    }

    @Test func `a link equals the file it resolves to, as author == this`() {
        #expect(equal(.link(duneLink), FunctionLibraryFixture.dune))
        #expect(!equal(.link(duneLink), FunctionLibraryFixture.reading))
    }

    @Test func `a link equals its target, its path, or its path without .md`() {
        #expect(equal(.link(duneLink), .string("Dune")))
        #expect(equal(.link(duneLink), .string("Books/Dune")))
        #expect(equal(.link(duneLink), .string("Books/Dune.md")))
        #expect(equal(.link(duneLink), .string("[[Dune]]")))
        #expect(!equal(.link(duneLink), .string("Emma")))
        #expect(equal(FunctionLibraryFixture.dune, .string("Books/Dune")))
    }
}

@Suite("Bases comparisons") struct BaseOrderingTests {
    @Test func `a number and numeric text compare as numbers, two texts by code units`() {
        #expect(compare(.number(2), .string("10")) == -1)
        #expect(compare(.string("2"), .string("10")) == 1)
        #expect(compare(.string("B"), .string("a")) == -1)
        #expect(compare(.number(3), .number(3)) == 0)
        #expect(compare(.boolean(true), .boolean(false)) == 1)
    }

    @Test func `values that do not compare give no order, so the comparison is false`() {
        #expect(compare(.null, .number(1)) == nil)
        #expect(compare(.string("a"), .number(1)) == nil)
        #expect(compare(.number(.nan), .number(1)) == nil)
        #expect(compare(.list([]), .list([])) == nil)
    }

    @Test func `durations compare by length, and with numbers as milliseconds`() {
        let second = BaseValue.duration(DataviewDuration.fromMilliseconds(1000))
        #expect(compare(second, .number(500)) == 1)
        #expect(compare(second, .duration(DataviewDuration.fromMilliseconds(60_000))) == -1)
    }
}

@Suite("Bases sort order") struct BaseSortOrderTests {
    @Test func `names sort naturally and case-insensitively, as Obsidian's file list`() {
        #expect(sorted([.string("Note 10"), .string("note 2"), .string("Note 1")]) == "[\"Note 1\", \"note 2\", \"Note 10\"]")
        #expect(sorted([.string("b"), .string("B"), .string("a")]) == "[\"a\", \"B\", \"b\"]")
        #expect(BaseComparison.naturalOrder("a02", "a2") == -1)
    }

    @Test func `accents sort with their base letter`() {
        #expect(BaseComparison.naturalOrder("résumé", "rest") == 1)
        #expect(BaseComparison.naturalOrder("resume", "résumé") == -1)
    }

    @Test func `empty values sort after everything else, in both directions`() {
        #expect(sorted([.null, .number(2), .string(""), .number(1), .list([])]) == "[1, 2, null, \"\", []]")
        #expect(BaseComparison.sortOrder(.null, .number(1), descending: true, environment: environment) == 1)
        #expect(BaseComparison.sortOrder(.number(1), .number(2), descending: true, environment: environment) == 1)
    }

    @Test func `mixed kinds sort in a fixed order: booleans, numbers, then text`() {
        #expect(sorted([.string("b"), .number(2), .boolean(true), .string("a"), .boolean(false)]) == "[false, true, 2, \"a\", \"b\"]")
    }

    @Test func `links sort by their shown text`() {
        let links: [BaseValue] = [.link(BaseLink(target: "b", display: "Zed")), .link(BaseLink(target: "z", display: "Alpha"))]
        #expect(sorted(links) == "[link(z|Alpha→nil), link(b|Zed→nil)]")
    }

    @Test func `unique keeps first occurrences, equal by ==`() {
        let values: [BaseValue] = [.number(1), .string("1"), .string("a"), .string("a"), .link(duneLink), FunctionLibraryFixture.dune]
        #expect(FunctionLibraryFixture.render(.list(BaseComparison.unique(values, environment: environment))) == "[1, \"a\", link(Dune|-→Books/Dune.md)]")
    }
}
