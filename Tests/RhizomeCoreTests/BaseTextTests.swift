/// Tests of the text of Bases values (`BaseText`): numbers exactly as JavaScript's
/// `Number.prototype.toString` writes them, text read as `Number("…")` reads it, and the text of lists,
/// objects, links, files and null that `toString()`, `+` and `join()` use.
import Foundation
import Testing
@testable import RhizomeCore

@Suite("Bases text of values") struct BaseTextTests {
    @Test func `numbers print as JavaScript prints them`() {
        let cases: [(Double, String)] = [
            (100, "100"), (0.5, "0.5"), (-1.25, "-1.25"), (0.1 + 0.2, "0.30000000000000004"), (-0.0, "0"),
            (123456789.123, "123456789.123"), (1e20, "100000000000000000000"), (1e21, "1e+21"), (2.5e25, "2.5e+25"),
            (0.000001, "0.000001"), (1e-7, "1e-7"), (1.5e-7, "1.5e-7"), (123e-20, "1.23e-18"),
            (Double.leastNonzeroMagnitude, "5e-324"), (1.7976931348623157e308, "1.7976931348623157e+308"),
        ]
        for (value, expected) in cases {
            #expect(BaseText.number(value) == expected, "\(value)")
        }
    }

    @Test func `NaN and infinities have JavaScript's names`() {
        #expect(BaseText.number(.nan) == "NaN")
        #expect(BaseText.number(.infinity) == "Infinity")
        #expect(BaseText.number(-.infinity) == "-Infinity")
    }

    @Test func `text reads as a number as JavaScript's Number() reads it`() {
        let numbers: [(String, Double)] = [
            ("3.4", 3.4), (" 12 ", 12), ("", 0), ("  ", 0), ("0x1F", 31), ("0b101", 5), ("1e3", 1000), (".5", 0.5),
            ("5.", 5), ("-7", -7), ("-Infinity", -.infinity),
        ]
        for (text, expected) in numbers {
            #expect(BaseText.number(fromText: text) == expected, "\(text)")
        }
        for text in ["abc", "1_000", "NaN", "1e", "+-1", "inf", "12px", "0x"] {
            #expect(BaseText.number(fromText: text) == nil, "\(text)")
        }
    }

    @Test func `lists join their elements with commas, nested lists flat and null as nothing`() {
        let list = BaseValue.list([.number(1), .list([.number(2), .number(3)]), .null])
        #expect(BaseText.string(list) == "1,2,3,")
    }

    @Test func `objects are compact JSON`() {
        let object = BaseValue.object(BaseObject([
            ("a", .number(1)), ("b", .string("x\"y")), ("c", .list([.null, .boolean(true)])),
        ]))
        #expect(BaseText.string(object) == #"{"a":1,"b":"x\"y","c":[null,true]}"#)
    }

    @Test func `null is empty text, so a missing property concatenates as nothing`() {
        #expect(BaseText.string(.null) == "")
    }

    @Test func `links are their shown text, files their path, regular expressions their literal`() throws {
        #expect(BaseText.string(.link(BaseLink(target: "Dune", display: "the book"))) == "the book")
        #expect(BaseText.string(.link(BaseLink(target: "Dune", subpath: "Plot"))) == "Dune#Plot")
        #expect(BaseText.string(.file(BaseFileReference(path: "Books/Dune.md"))) == "Books/Dune.md")
        #expect(BaseText.string(.regex(try BaseRegex(pattern: "a+", flags: "gi"))) == "/a+/gi")
        #expect(BaseText.string(.boolean(false)) == "false")
        #expect(BaseText.string(.icon("plus")) == "plus")
    }
}
