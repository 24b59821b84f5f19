/// Tests of the Bases methods (`BaseMethods`): every example of Obsidian's Functions page for any value,
/// text, numbers, lists, objects, regular expressions, links and files, the JavaScript behaviour the help
/// defers to (`slice` with negative indexes, `replace` with `$1`, `toFixed` rounding), and file methods over a
/// small in-memory vault. Also holds that vault and the rendering the other Bases value tests share.
import Foundation
import Testing
@testable import RhizomeCore

/// A vault of plain values: links resolve by exact path, path plus `.md`, or file name (first by path).
struct FunctionLibraryVault: BaseVault {
    var files: [String: BaseFileFacts]

    func facts(ofPath path: String) -> BaseFileFacts? { files[path] }

    func resolve(_ linkPath: String, from sourcePath: String) -> String? {
        if files[linkPath] != nil { return linkPath }
        if files[linkPath + ".md"] != nil { return linkPath + ".md" }
        return files.keys.sorted().first { path in
            let name = path.split(separator: "/").last.map(String.init) ?? path
            return name == linkPath || name == linkPath + ".md"
        }
    }

    func backlinks(ofPath path: String) -> [String] {
        files.values.filter { ($0.links + $0.embeds).contains { $0.resolvedPath == path } }.map(\.path).sorted()
    }
}

/// Four files: `Books/Dune.md` (tags, properties), `Books/Old/Emma.md`, `Reading.md` (links to Dune and to a
/// missing note, embeds an image) and `Images/cover.png`.
enum FunctionLibraryFixture {
    static let duneLink = BaseLink(target: "Dune", resolvedPath: "Books/Dune.md")

    static let vault = FunctionLibraryVault(files: [
        "Books/Dune.md": BaseFileFacts(
            path: "Books/Dune.md", size: 120,
            properties: BaseObject([("author", .string("Herbert")), ("price", .null)]), tags: ["book/scifi", "Classic"]),
        "Books/Old/Emma.md": BaseFileFacts(path: "Books/Old/Emma.md", tags: ["book"]),
        "Reading.md": BaseFileFacts(
            path: "Reading.md", links: [duneLink, BaseLink(target: "Missing")],
            embeds: [BaseLink(target: "cover.png", resolvedPath: "Images/cover.png")]),
        "Images/cover.png": BaseFileFacts(path: "Images/cover.png"),
    ])

    static let environment = BaseEnvironment(vault: vault, timeZone: TimeZone(identifier: "UTC")!)

    static let dune = BaseValue.file(BaseFileReference(path: "Books/Dune.md"))
    static let emma = BaseValue.file(BaseFileReference(path: "Books/Old/Emma.md"))
    static let reading = BaseValue.file(BaseFileReference(path: "Reading.md"))

    /// A value as test expectations write it: `3`, `"text"`, `[1, 2]`, `link(target|display→path)`,
    /// `file(path)`, `nil` for no answer.
    static func render(_ value: BaseValue?) -> String {
        guard let value else { return "nil" }
        switch value {
        case .null: return "null"
        case .boolean(let flag): return "\(flag)"
        case .number(let number): return BaseText.number(number)
        case .string(let text): return "\"\(text)\""
        case .list(let items): return "[" + items.map { render($0) }.joined(separator: ", ") + "]"
        case .link(let link): return "link(\(link.target)|\(link.display ?? "-")→\(link.resolvedPath ?? "nil"))"
        case .file(let file): return "file(\(file.path))"
        case .duration(let duration): return "duration(\(BaseText.number(duration.totalMilliseconds)))"
        case .object: return "object" + BaseText.json(value)
        default: return "\(value.typeName)(\(BaseText.string(value)))"
        }
    }

    /// `receiver.name(arguments…)` rendered, or `error: message`.
    static func method(_ receiver: BaseValue, _ name: String, _ arguments: [BaseValue] = []) -> String {
        do {
            return render(try BaseMethods.call(name, on: receiver, arguments: arguments, environment: environment))
        } catch {
            return "error: \(error.message)"
        }
    }

    static func field(_ receiver: BaseValue, _ name: String) -> String {
        render(BaseMethods.field(name, of: receiver, environment: environment))
    }

    static func regex(_ pattern: String, _ flags: String = "") throws -> BaseValue {
        .regex(try BaseRegex(pattern: pattern, flags: flags))
    }
}

private func method(_ receiver: BaseValue, _ name: String, _ arguments: [BaseValue] = []) -> String {
    FunctionLibraryFixture.method(receiver, name, arguments)
}

private func text(_ value: String) -> BaseValue { .string(value) }
private func number(_ value: Double) -> BaseValue { .number(value) }
private func regex(_ pattern: String, _ flags: String = "") throws -> BaseValue { try FunctionLibraryFixture.regex(pattern, flags) }

@Suite("Bases methods of any value") struct BaseAnyMethodTests {
    @Test func `the help's examples: isTruthy, isType and toString`() {
        #expect(method(number(1), "isTruthy") == "true")
        #expect(method(number(0), "isTruthy") == "false")
        #expect(method(text("example"), "isType", [text("string")]) == "true")
        #expect(method(.boolean(true), "isType", [text("boolean")]) == "true")
        #expect(method(number(1), "isType", [text("string")]) == "false")
        #expect(method(number(123), "toString") == "\"123\"")
        #expect(method(.list([number(1), number(2)]), "toString") == "\"1,2\"")
    }

    @Test func `methods on null give null, except the ones every value has`() {
        #expect(method(.null, "isEmpty") == "true")
        #expect(method(.null, "isTruthy") == "false")
        #expect(method(.null, "isType", [text("null")]) == "true")
        #expect(method(.null, "toString") == "\"\"")
        #expect(method(.null, "toFixed", [number(2)]) == "null")
        #expect(method(.null, "lower") == "null")
        #expect(method(.null, "noSuchMethod") == "nil")
    }

    @Test func `a method the receiver's type does not have is no answer, not an error`() {
        #expect(method(text("x"), "toFixed", [number(2)]) == "nil")
        #expect(method(number(1), "lower") == "nil")
        #expect(method(.list([]), "hasTag", [text("a")]) == "nil")
    }
}

@Suite("Bases methods of text") struct BaseTextMethodTests {
    @Test func `the help's examples for searching text`() {
        #expect(method(text("hello"), "contains", [text("ell")]) == "true")
        #expect(method(text("hello"), "containsAll", [text("h"), text("e")]) == "true")
        #expect(method(text("hello"), "containsAll", [text("h"), text("x")]) == "false")
        #expect(method(text("hello"), "containsAny", [text("x"), text("y"), text("e")]) == "true")
        #expect(method(text("hello"), "containsAny", [text("x"), text("y")]) == "false")
        #expect(method(text("hello"), "endsWith", [text("lo")]) == "true")
        #expect(method(text("hello"), "startsWith", [text("he")]) == "true")
        #expect(method(text("hello"), "startsWith", [text("el")]) == "false")
        #expect(method(text("Hello world"), "isEmpty") == "false")
        #expect(method(text(""), "isEmpty") == "true")
    }

    @Test func `the help's examples for changing text`() {
        #expect(method(text("HeLLo"), "lower") == "\"hello\"")
        #expect(method(text("123"), "repeat", [number(2)]) == "\"123123\"")
        #expect(method(text("hello"), "reverse") == "\"olleh\"")
        #expect(method(text("hello"), "slice", [number(1), number(4)]) == "\"ell\"")
        #expect(method(text("hello world"), "title") == "\"Hello World\"")
        #expect(method(text("  hi  "), "trim") == "\"hi\"")
    }

    @Test func `replace: the help's examples with and without the g flag and with groups`() throws {
        #expect(method(text("a:b:c:d"), "replace", [try regex(":"), text("-")]) == "\"a-b:c:d\"")
        #expect(method(text("a:b:c:d"), "replace", [try regex(":", "g"), text("-")]) == "\"a-b-c-d\"")
        #expect(method(text("John Smith"), "replace", [try regex("(\\w+) (\\w+)"), text("$2, $1")]) == "\"Smith, John\"")
        #expect(method(text("a:b:c"), "replace", [text(":"), text("-")]) == "\"a-b-c\"")
    }

    @Test func `replace: JavaScript's $ patterns in the replacement`() throws {
        #expect(method(text("abc"), "replace", [try regex("b"), text("[$&]")]) == "\"a[b]c\"")
        #expect(method(text("abc"), "replace", [try regex("b"), text("$$")]) == "\"a$c\"")
        #expect(method(text("abc"), "replace", [try regex("b"), text("$`$'")]) == "\"aacc\"")
        #expect(method(text("abc"), "replace", [try regex("(b)"), text("$3$1")]) == "\"a$3bc\"")
        #expect(method(text("2024-05"), "replace", [try regex("(?<y>\\d+)-(?<m>\\d+)"), text("$<m>/$<y>")]) == "\"05/2024\"")
        #expect(method(text("abcdefghijk"), "replace", [try regex("(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)"), text("$10$1")]) == "\"jak\"")
        #expect(method(text("ab"), "replace", [text(""), text("-")]) == "\"-a-b-\"")
    }

    @Test func `slice and length count UTF-16 code units, negative indexes count from the end`() {
        #expect(method(text("hello"), "slice", [number(-3)]) == "\"llo\"")
        #expect(method(text("hello"), "slice", [number(0), number(-1)]) == "\"hell\"")
        #expect(method(text("hello"), "slice", [number(3), number(1)]) == "\"\"")
        #expect(method(text("hello"), "slice", [number(1.9)]) == "\"ello\"")
        #expect(FunctionLibraryFixture.field(text("a👍"), "length") == "3")
    }

    @Test func `reverse keeps emoji and accents whole`() {
        #expect(method(text("a👍🏽b"), "reverse") == "\"b👍🏽a\"")
        #expect(method(text("cafe\u{301}"), "reverse") == "\"e\u{301}fac\"")
    }

    @Test func `split: the help's examples, a limit, captured groups, empty matches`() throws {
        #expect(method(text("a,b,c,d"), "split", [text(","), number(3)]) == "[\"a\", \"b\", \"c\"]")
        #expect(method(text("a,b,c,d"), "split", [try regex(","), number(3)]) == "[\"a\", \"b\", \"c\"]")
        #expect(method(text("a,b"), "split", [text(",")]) == "[\"a\", \"b\"]")
        #expect(method(text("a,b"), "split", [text(","), number(0)]) == "[]")
        #expect(method(text("a1b2c"), "split", [try regex("(\\d)")]) == "[\"a\", \"1\", \"b\", \"2\", \"c\"]")
        #expect(method(text("abc"), "split", [try regex("(?:)")]) == "[\"a\", \"b\", \"c\"]")
        #expect(method(text("axxb"), "split", [try regex("x*")]) == "[\"a\", \"b\"]")
        #expect(method(text(""), "split", [text(",")]) == "[\"\"]")
        #expect(method(text("héllo"), "split", [text("")]) == "[\"h\", \"é\", \"l\", \"l\", \"o\"]")
    }

    @Test func `wrong arguments name the method and what it expected`() {
        #expect(method(text("hello"), "slice", [text("a")]) == "error: `slice` expects a number as its first argument, got text \"a\"")
        #expect(method(text("hello"), "slice", []) == "error: `slice` expects 1 to 2 arguments, got 0")
        #expect(method(text("hello"), "contains", [.list([])]) == "error: `contains` expects text as its first argument, got a list")
        #expect(method(text("1"), "repeat", [number(-1)]) == "error: `repeat` expects a count of 0 or more, got -1")
    }
}

@Suite("Bases methods of numbers") struct BaseNumberMethodTests {
    @Test func `the help's examples`() {
        #expect(method(number(-5), "abs") == "5")
        #expect(method(number(2.1), "ceil") == "3")
        #expect(method(number(2.9), "floor") == "2")
        #expect(method(number(5), "isEmpty") == "false")
        #expect(method(number(2.5), "round") == "3")
        #expect(method(number(2.3333), "round", [number(2)]) == "2.33")
        #expect(method(number(3.14159), "toFixed", [number(2)]) == "\"3.14\"")
    }

    @Test func `round is JavaScript's Math.round: halves go up, toward +Infinity`() {
        #expect(method(number(-2.5), "round") == "-2")
        #expect(method(number(-2.6), "round") == "-3")
        #expect(method(number(0.49999999999999994), "round") == "0")
    }

    @Test func `toFixed rounds the exact double half up, as JavaScript does`() {
        #expect(method(number(1.005), "toFixed", [number(2)]) == "\"1.00\"")
        #expect(method(number(1.45), "toFixed", [number(1)]) == "\"1.4\"")
        #expect(method(number(2.5), "toFixed", [number(0)]) == "\"3\"")
        #expect(method(number(-2.5), "toFixed", [number(0)]) == "\"-3\"")
        #expect(method(number(99.5), "toFixed", [number(0)]) == "\"100\"")
        #expect(method(number(-0.0001), "toFixed", [number(2)]) == "\"-0.00\"")
        #expect(method(number(0.000001), "toFixed", [number(7)]) == "\"0.0000010\"")
        #expect(method(number(1e21), "toFixed", [number(2)]) == "\"1e+21\"")
        #expect(method(number(1), "toFixed", [number(101)]) == "error: `toFixed` expects a number of decimal places from 0 to 100, got 101")
    }
}

@Suite("Bases methods of lists, objects and regular expressions") struct BaseListMethodTests {
    private let oneTwoThree = BaseValue.list([.number(1), .number(2), .number(3)])

    @Test func `the help's examples for lists`() {
        #expect(method(oneTwoThree, "contains", [number(2)]) == "true")
        #expect(method(oneTwoThree, "containsAll", [number(2), number(3)]) == "true")
        #expect(method(oneTwoThree, "containsAny", [number(3), number(4)]) == "true")
        #expect(method(.list([number(1), .list([number(2), number(3)])]), "flat") == "[1, 2, 3]")
        #expect(method(oneTwoThree, "isEmpty") == "false")
        #expect(method(oneTwoThree, "join", [text(",")]) == "\"1,2,3\"")
        #expect(method(oneTwoThree, "reverse") == "[3, 2, 1]")
        #expect(method(.list([number(1), number(2), number(3), number(4)]), "slice", [number(1), number(3)]) == "[2, 3]")
        #expect(method(.list([number(3), number(1), number(2)]), "sort") == "[1, 2, 3]")
        #expect(method(.list([text("c"), text("a"), text("b")]), "sort") == "[\"a\", \"b\", \"c\"]")
        #expect(method(.list([number(1), number(2), number(2), number(3)]), "unique") == "[1, 2, 3]")
        #expect(FunctionLibraryFixture.field(oneTwoThree, "length") == "3")
    }

    @Test func `contains compares loosely, as ==: the number 2 is in a list of text "2"`() {
        #expect(method(.list([text("1"), text("2")]), "contains", [number(2)]) == "true")
        #expect(method(oneTwoThree, "contains", [text("x")]) == "false")
    }

    @Test func `flat flattens one level, as JavaScript's`() {
        #expect(method(.list([number(1), .list([number(2), .list([number(3)])])]), "flat") == "[1, 2, [3]]")
    }

    @Test func `join writes null as nothing and defaults to commas`() {
        #expect(method(.list([number(1), .null, text("x")]), "join", [text("-")]) == "\"1--x\"")
        #expect(method(oneTwoThree, "join") == "\"1,2,3\"")
    }

    @Test func `sort orders numbers as numbers and names naturally, empty values last`() {
        #expect(method(.list([number(10), number(9), number(100)]), "sort") == "[9, 10, 100]")
        let names = BaseValue.list([text("Note 10"), text("note 2"), .null, text("Note 1"), text("")])
        #expect(method(names, "sort") == "[\"Note 1\", \"note 2\", \"Note 10\", null, \"\"]")
    }

    @Test func `mean ignores values that are not numbers, as the help's values.mean() summary needs`() {
        #expect(method(.list([number(1), number(2), text("x"), number(6)]), "mean") == "3")
        #expect(method(.list([text("x")]), "mean") == "null")
        #expect(method(.list([]), "sum") == "0")
        #expect(method(.list([number(4), number(1)]), "max") == "4")
    }

    @Test func `objects: keys, values, isEmpty and fields`() {
        let object = BaseValue.object(BaseObject([("a", .number(1)), ("b", .number(2))]))
        #expect(method(object, "keys") == "[\"a\", \"b\"]")
        #expect(method(object, "values") == "[1, 2]")
        #expect(method(.object(BaseObject()), "isEmpty") == "true")
        #expect(FunctionLibraryFixture.field(object, "b") == "2")
        #expect(FunctionLibraryFixture.field(object, "missing") == "null")
    }

    @Test func `regular expressions: the help's matches example`() throws {
        #expect(method(try regex("abc"), "matches", [text("abcde")]) == "true")
        #expect(method(try regex("^b"), "matches", [text("abc")]) == "false")
    }
}

@Suite("Bases methods and fields of files and links") struct BaseFileMethodTests {
    private let dune = FunctionLibraryFixture.dune
    private let reading = FunctionLibraryFixture.reading

    @Test func `the file fields come from the vault's facts`() {
        #expect(FunctionLibraryFixture.field(dune, "name") == "\"Dune.md\"")
        #expect(FunctionLibraryFixture.field(dune, "basename") == "\"Dune\"")
        #expect(FunctionLibraryFixture.field(dune, "path") == "\"Books/Dune.md\"")
        #expect(FunctionLibraryFixture.field(dune, "folder") == "\"Books\"")
        #expect(FunctionLibraryFixture.field(dune, "ext") == "\"md\"")
        #expect(FunctionLibraryFixture.field(dune, "size") == "120")
        #expect(FunctionLibraryFixture.field(dune, "properties") == "object{\"author\":\"Herbert\",\"price\":null}")
        #expect(FunctionLibraryFixture.field(reading, "mtime") == "null")
        #expect(FunctionLibraryFixture.field(reading, "file") == "file(Reading.md)")
        #expect(FunctionLibraryFixture.field(reading, "noSuchField") == "nil")
    }

    @Test func `file.tags carry their #, as Obsidian's do`() {
        #expect(FunctionLibraryFixture.field(dune, "tags") == "[\"#book/scifi\", \"#Classic\"]")
    }

    @Test func `links, embeds and backlinks are lists of links`() {
        #expect(FunctionLibraryFixture.field(reading, "links") == "[link(Dune|-→Books/Dune.md), link(Missing|-→nil)]")
        #expect(FunctionLibraryFixture.field(reading, "embeds") == "[link(cover.png|-→Images/cover.png)]")
        #expect(FunctionLibraryFixture.field(dune, "backlinks") == "[link(Reading|-→Reading.md)]")
    }

    @Test func `hasTag matches nested tags, ignores case and a leading #`() {
        #expect(method(dune, "hasTag", [text("book")]) == "true")
        #expect(method(dune, "hasTag", [text("#Book/SciFi")]) == "true")
        #expect(method(dune, "hasTag", [text("classic")]) == "true")
        #expect(method(dune, "hasTag", [text("boo")]) == "false")
        #expect(method(dune, "hasTag", [text("x"), text("classic")]) == "true")
        #expect(method(reading, "hasTag", [text("book")]) == "false")
    }

    @Test func `inFolder includes subfolders; the root holds everything`() {
        #expect(method(FunctionLibraryFixture.emma, "inFolder", [text("Books")]) == "true")
        #expect(method(dune, "inFolder", [text("Books/")]) == "true")
        #expect(method(dune, "inFolder", [text("Boo")]) == "false")
        #expect(method(reading, "inFolder", [text("Books")]) == "false")
        #expect(method(reading, "inFolder", [text("/")]) == "true")
        #expect(method(dune, "inFolder", [text("")]) == "true")
    }

    @Test func `hasProperty is true for a property present with an empty value`() {
        #expect(method(dune, "hasProperty", [text("price")]) == "true")
        #expect(method(dune, "hasProperty", [text("pages")]) == "false")
    }

    @Test func `hasLink takes a file, a link or link text, and counts embeds and unresolved links`() {
        #expect(method(reading, "hasLink", [text("Dune")]) == "true")
        #expect(method(reading, "hasLink", [text("[[Dune]]")]) == "true")
        #expect(method(reading, "hasLink", [dune]) == "true")
        #expect(method(reading, "hasLink", [.link(FunctionLibraryFixture.duneLink)]) == "true")
        #expect(method(reading, "hasLink", [text("cover.png")]) == "true")
        #expect(method(reading, "hasLink", [text("Missing")]) == "true")
        #expect(method(reading, "hasLink", [FunctionLibraryFixture.emma]) == "false")
        #expect(method(dune, "hasLink", [reading]) == "false")
    }

    @Test func `asLink links to the file, with optional display text`() {
        #expect(method(dune, "asLink") == "link(Books/Dune|-→Books/Dune.md)")
        #expect(method(dune, "asLink", [text("D")]) == "link(Books/Dune|D→Books/Dune.md)")
    }

    @Test func `a link's asFile and linksTo`() {
        #expect(method(.link(FunctionLibraryFixture.duneLink), "asFile") == "file(Books/Dune.md)")
        #expect(method(.link(BaseLink(target: "Missing")), "asFile") == "null")
        let toReading = BaseValue.link(BaseLink(target: "Reading", resolvedPath: "Reading.md"))
        #expect(method(toReading, "linksTo", [dune]) == "true")
        #expect(method(.link(FunctionLibraryFixture.duneLink), "linksTo", [reading]) == "false")
    }
}
