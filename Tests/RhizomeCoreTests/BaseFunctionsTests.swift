/// Tests of the Bases global functions (`BaseFunctions`): the Functions page's examples for `link`, `file`,
/// `list`, `number`, `max`, `min`, `escapeHTML`, `icon`, `image`, `html` and `random`, and the choices the help
/// leaves open (link text resolves from the vault root; `file()` of a missing file is null).
import Foundation
import Testing
@testable import RhizomeCore

private func call(_ name: String, _ arguments: [BaseValue] = []) -> String {
    do {
        return FunctionLibraryFixture.render(
            try BaseFunctions.call(name, arguments: arguments, environment: FunctionLibraryFixture.environment))
    } catch {
        return "error: \(error.message)"
    }
}

@Suite("Bases global functions") struct BaseFunctionsTests {
    @Test func `link() resolves a path, wikilink text or a file; a web address stays as it is`() {
        #expect(call("link", [.string("Dune")]) == "link(Dune|-→Books/Dune.md)")
        #expect(call("link", [.string("[[Dune#Plot|the book]]")]) == "link(Dune|the book→Books/Dune.md)")
        #expect(call("link", [.string("Dune"), .string("display")]) == "link(Dune|display→Books/Dune.md)")
        #expect(call("link", [.string("https://obsidian.md")]) == "link(https://obsidian.md|-→nil)")
        #expect(call("link", [FunctionLibraryFixture.dune]) == "link(Books/Dune|-→Books/Dune.md)")
        #expect(call("link", [.string("Nowhere")]) == "link(Nowhere|-→nil)")
        #expect(call("link", [.string("Dune"), .icon("plus")]) == "link(Dune|plus→Books/Dune.md)")
    }

    @Test func `file() finds a file by path, link or link text, and is null for a missing file`() {
        #expect(call("file", [.string("Books/Dune.md")]) == "file(Books/Dune.md)")
        #expect(call("file", [.link(FunctionLibraryFixture.duneLink)]) == "file(Books/Dune.md)")
        #expect(call("file", [.string("[[Dune]]")]) == "file(Books/Dune.md)")
        #expect(call("file", [.string("Nope")]) == "null")
        #expect(call("file", [.number(1)]) == "error: `file` expects a path, a link or a file as its first argument, got number 1")
    }

    @Test func `list() wraps a value, keeps a list, and makes a missing property an empty list`() {
        #expect(call("list", [.string("value")]) == "[\"value\"]")
        #expect(call("list", [.list([.number(1), .number(2)])]) == "[1, 2]")
        #expect(call("list", [.null]) == "[]")
    }

    @Test func `number() reads text, booleans and dates, and fails on what is not a number`() {
        #expect(call("number", [.string("3.4")]) == "3.4")
        #expect(call("number", [.boolean(true)]) == "1")
        #expect(call("number", [.boolean(false)]) == "0")
        #expect(call("number", [.date(DataviewDate(year: 1970, month: 1, day: 2, offsetMinutes: 0))]) == "86400000")
        #expect(call("number", [.null]) == "null")
        #expect(call("number", [.string("abc")]) == "error: `number` cannot read text \"abc\" as a number")
        #expect(call("number", [.list([])]).hasPrefix("error: `number` expects"))
    }

    @Test func `max() and min() of numbers skip nulls and are null without values`() {
        #expect(call("max", [.number(1), .number(5), .number(3)]) == "5")
        #expect(call("min", [.number(1), .number(5), .number(-3)]) == "-3")
        #expect(call("max", [.number(1), .null]) == "1")
        #expect(call("max", [.string("7"), .number(3)]) == "7")
        #expect(call("max", []) == "null")
        #expect(call("max", [.string("a")]) == "error: `max` expects a number as its first argument, got text \"a\"")
    }

    @Test func `escapeHTML escapes the five special characters`() {
        #expect(call("escapeHTML", [.string("<a href=\"x\">&'</a>")]) == "\"&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;\"")
    }

    @Test func `icon, image and html make values a view renders`() {
        #expect(call("icon", [.string("arrow-right")]) == "icon(arrow-right)")
        #expect(call("image", [.string("https://obsidian.md/images/obsidian-logo-gradient.svg")]) == "image(https://obsidian.md/images/obsidian-logo-gradient.svg)")
        #expect(call("image", [.file(BaseFileReference(path: "Images/cover.png"))]) == "image(Images/cover.png)")
        #expect(call("html", [.string("<b>x</b>")]) == "html(<b>x</b>)")
    }

    @Test func `random() is between 0 and 1`() throws {
        let value = try BaseFunctions.call("random", arguments: [], environment: FunctionLibraryFixture.environment)
        guard case .number(let number)? = value else {
            Issue.record("random() gave \(FunctionLibraryFixture.render(value))")
            return
        }
        #expect(number >= 0 && number < 1)
    }

    @Test func `functions owned elsewhere and unknown names are no answer`() {
        #expect(call("date", [.string("2025-01-01")]) == "nil")
        #expect(call("if", [.boolean(true), .number(1)]) == "nil")
        #expect(call("noSuchFunction") == "nil")
        #expect(!BaseFunctions.names.contains("now"))
        #expect(BaseFunctions.names.contains("escapeHTML"))
    }

    @Test func `wrong argument counts name the function`() {
        #expect(call("list", []) == "error: `list` expects 1 argument, got 0")
        #expect(call("random", [.number(1)]) == "error: `random` expects no arguments, got 1")
    }
}
