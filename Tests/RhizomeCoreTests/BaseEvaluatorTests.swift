/// Tests of `BaseEvaluator` and `BaseOperators`: names and namespaces (`note`, `file`, `formula`, `this`),
/// JavaScript's `&&`/`||`, the lazy `if`, `filter`/`map`/`reduce` with `value`, `index` and `acc` (nested
/// too), date arithmetic as the help states it, links compared with files, and type errors that say where.
import Foundation
import Testing
@testable import RhizomeCore

private let berlin = TimeZone(identifier: "Europe/Berlin")!
/// 2025-05-27 10:30:00 in Berlin.
private let fixedNow = Date(timeIntervalSince1970: 1_748_334_600)

private func link(_ target: String, to path: String?) -> BaseValue {
    .link(BaseLink(target: target, resolvedPath: path))
}

private let dune = BaseFileFacts(
    path: "Books/Dune.md", size: 1_200,
    properties: BaseObject([
        ("title", .string("Dune")), ("price", .number(12.5)), ("age", .number(5)), ("status", .string("reading")),
        ("author", link("Frank Herbert", to: "People/Frank Herbert.md")), ("tags", .list([.string("book"), .string("scifi")])),
        ("my key", .string("spaced")), ("empty", .null),
    ]),
    tags: ["book", "scifi/classic"],
    links: [BaseLink(target: "Frank Herbert", resolvedPath: "People/Frank Herbert.md")])
private let herbert = BaseFileFacts(path: "People/Frank Herbert.md", properties: BaseObject([("born", .number(1920))]))
private let vault = FunctionLibraryVault(files: [dune.path: dune, herbert.path: herbert])

private func evaluator(formulas: [String: String] = [:], this: String? = "People/Frank Herbert.md") throws -> BaseEvaluator {
    var compiled: [String: BaseExpression] = [:]
    for (name, text) in formulas { compiled[name] = try BaseExpressionParser.parse(text) }
    return BaseEvaluator(environment: BaseEnvironment(vault: vault, now: fixedNow, timeZone: berlin), formulas: compiled, thisPath: this)
}

private func evaluate(_ text: String, formulas: [String: String] = [:], file: BaseFileFacts = dune) throws -> BaseValue {
    try evaluator(formulas: formulas).evaluate(try BaseExpressionParser.parse(text), row: BaseRow(facts: file))
}

/// A value as short text for comparisons: `5`, `"a"`, `[1, 2]`, `link(Frank Herbert→People/Frank Herbert.md)`.
private func show(_ value: BaseValue) -> String {
    switch value {
    case .null: return "null"
    case .boolean(let flag): return String(flag)
    case .number(let number): return number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    case .string(let text): return "\"\(text)\""
    case .list(let items): return "[" + items.map(show).joined(separator: ", ") + "]"
    case .link(let link): return "link(\(link.target)→\(link.resolvedPath ?? "nil"))"
    case .file(let file): return "file(\(file.path))"
    case .date(let date): return "date(\(date.isoText))"
    case .object(let object): return "{" + object.entries.map { "\($0.key): \(show($0.value))" }.joined(separator: ", ") + "}"
    default: return value.typeName
    }
}

private func failure(_ text: String, formulas: [String: String] = [:]) -> BaseEvaluationError? {
    do {
        _ = try evaluate(text, formulas: formulas)
        return nil
    } catch let error as BaseEvaluationError {
        return error
    } catch {
        return BaseEvaluationError("unexpected: \(error)")
    }
}

@Suite("Bases expressions: evaluation") struct BaseEvaluatorTests {
    @Test("a bare name, note.name and note[\"name\"] read the note's property; a missing one is null")
    func noteProperties() throws {
        #expect(show(try evaluate("price")) == "12.5")
        #expect(show(try evaluate("note.price")) == "12.5")
        #expect(show(try evaluate(#"note["my key"]"#)) == "\"spaced\"")
        #expect(show(try evaluate("nothing")) == "null")
        #expect(show(try evaluate("note.nothing")) == "null")
    }

    @Test("formulas read properties and other formulas, each computed once per row")
    func formulas() throws {
        let formulas = ["ppu": "price / age", "label": #"title + ": " + formula.ppu"#]
        #expect(show(try evaluate("formula.ppu", formulas: formulas)) == "2.5")
        #expect(show(try evaluate("formula.label", formulas: formulas)) == "\"Dune: 2.5\"")
        #expect(show(try evaluate(#"formula["ppu"] * 2"#, formulas: formulas)) == "5")
    }

    @Test("a formula that reaches itself fails with a message naming it, not a hang")
    func circularFormula() throws {
        let error = try #require(failure("formula.a", formulas: ["a": "formula.b + 1", "b": "formula.a"]))
        #expect(error.message.contains("refers to itself"))
    }

    @Test("&& and || return one of their operands, as in JavaScript; ! gives a boolean")
    func logicalOperators() throws {
        #expect(show(try evaluate(#"nothing || "default""#)) == "\"default\"")
        #expect(show(try evaluate(#"title || "default""#)) == "\"Dune\"")
        #expect(show(try evaluate("price && age")) == "5")
        #expect(show(try evaluate("empty && age")) == "null")
        #expect(show(try evaluate("!nothing")) == "true")
        #expect(show(try evaluate("!!title")) == "true")
    }

    @Test("if() evaluates only the branch it takes")
    func lazyIf() throws {
        #expect(show(try evaluate(#"if(price, "$" + price, "a" - 1)"#)) == "\"$12.5\"")
        #expect(show(try evaluate("if(nothing, 1)")) == "null")
        #expect(failure(#"if(nothing, 1, "a" - 1)"#) != nil)
        #expect(failure("if(1)")?.message.contains("`if` takes") == true)
    }

    @Test("filter, map and reduce bind value, index and acc; an inner list function has its own value")
    func listFunctions() throws {
        #expect(show(try evaluate("[1,2,3,4].filter(value > 2)")) == "[3, 4]")
        #expect(show(try evaluate("[1,2,3,4].map(value + 1)")) == "[2, 3, 4, 5]")
        #expect(show(try evaluate("[5,6,7].map(index)")) == "[0, 1, 2]")
        #expect(show(try evaluate("[1,2,3].reduce(acc + value, 0)")) == "6")
        #expect(show(try evaluate("[3,9,4].reduce(if(acc == null || value > acc, value, acc), null)")) == "9")
        #expect(show(try evaluate("[[1,2],[3]].map(value.map(value * 10))")) == "[[10, 20], [30]]")
        #expect(show(try evaluate("nothing.filter(value)")) == "null")
        #expect(failure("price.filter(value)")?.message.contains("works on lists") == true)
        #expect(failure("[1].reduce(acc)")?.message.contains("initial") == true)
    }

    @Test("file is the row's file, and its fields and functions work on it")
    func fileObject() throws {
        #expect(show(try evaluate("file.path")) == "\"Books/Dune.md\"")
        #expect(show(try evaluate("file.file")) == "file(Books/Dune.md)")
        #expect(show(try evaluate("file.size")) == "1200")
    }

    @Test("this is the base's file or the embedding note: its properties and file fields")
    func this() throws {
        #expect(show(try evaluate("this")) == "file(People/Frank Herbert.md)")
        #expect(show(try evaluate("this.born")) == "1920")
        #expect(show(try evaluate("this.file.path")) == "\"People/Frank Herbert.md\"")
    }

    @Test("a link property equals the file it resolves to (author == this), and list(…).contains(this) finds it")
    func linksAndFiles() throws {
        #expect(show(try evaluate("author == this")) == "true")
        #expect(show(try evaluate("author != this")) == "false")
        #expect(show(try evaluate("list(author).contains(this)")) == "true")
        #expect(show(try evaluate("file.links.contains(this.file)")) == "true")
        #expect(show(try evaluate("author.born")) == "1920")
    }

    @Test("date arithmetic follows the help: durations as text, months on the calendar, date minus date a duration")
    func dateArithmetic() throws {
        let date = try evaluate(#"date("2024-12-01") + "1M" + "4h" + "3m""#)
        guard case .date(let result) = date else { Issue.record("not a date: \(show(date))"); return }
        #expect((result.year, result.month, result.day, result.hour, result.minute) == (2025, 1, 1, 4, 3))
        // A date minus a date is a duration that equals its milliseconds, with whole units as fields.
        #expect(show(try evaluate(#"(now() + "1d") - now() == 86400000"#)) == "true")
        #expect(show(try evaluate(#"(now() + "1d") - now() > 86399999"#)) == "true")
        #expect(show(try evaluate(#"(date("2025-06-01") - today()).days"#)) == "5")
        #expect(show(try evaluate(#"(today() - date("2025-05-20 12:00")).days"#)) == "6")
        #expect(show(try evaluate(#"(now() - date("2025-05-27")).hours"#)) == "10")
        #expect(show(try evaluate(#"date("2025-01-10") - "1 week" == date("2025-01-03")"#)) == "true")
        #expect(show(try evaluate(#"now() > date("2025-05-27")"#)) == "true")
        #expect(show(try evaluate(#"today() == date("2025-05-27")"#)) == "true")
        #expect(show(try evaluate(#"date("2025-01-31") + duration("1d") * 2 == date("2025-02-02")"#)) == "true")
        #expect(failure(#"now() + "soon""#)?.message.contains("not a duration") == true)
    }

    @Test("arithmetic: numbers as JavaScript, text joins, null gives null, wrong types are errors with a fix")
    func arithmetic() throws {
        #expect(show(try evaluate("(price / age).toFixed(2)")) == "\"2.50\"")
        #expect(show(try evaluate("7 % 3 + 2 * 3 - 1")) == "6")
        #expect(show(try evaluate(#""a" + 1 + 2"#)) == "\"a12\"")
        #expect(show(try evaluate("price + nothing")) == "null")
        #expect(show(try evaluate("-price")) == "-12.5")
        let error = try #require(failure(#""a" - 1"#))
        #expect(error.message.contains("cannot subtract text \"a\" and number 1"))
        #expect(error.message.contains("number(…)"))
        #expect(error.range == 0..<7)
        #expect(failure("2 * duration(\"5h\")")?.message.contains("duration on the left") == true)
    }

    @Test("comparisons with null are false, never errors; == compares any values")
    func comparisons() throws {
        #expect(show(try evaluate("nothing > 5")) == "false")
        #expect(show(try evaluate("nothing < 5")) == "false")
        #expect(show(try evaluate("nothing == null")) == "true")
        #expect(show(try evaluate(#"status == "reading""#)) == "true")
        #expect(show(try evaluate("tags == [\"book\", \"scifi\"]")) == "true")
    }

    @Test("indexing: lists by number, objects by key, out of range is null")
    func indexing() throws {
        #expect(show(try evaluate("tags[0]")) == "\"book\"")
        #expect(show(try evaluate("tags[5]")) == "null")
        #expect(show(try evaluate(#"{"a": {"b": 2}}["a"].b"#)) == "2")
        #expect(failure("tags[\"x\"]")?.message.contains("cannot index") == true)
    }

    @Test("unknown functions are errors that suggest the nearest name")
    func unknownFunctions() throws {
        #expect(failure("title.lowr()")?.message.contains("did you mean `lower()`") == true)
        #expect(failure("nosuch(1)")?.message.contains("unknown function `nosuch()`") == true)
        #expect(failure("contains(1)")?.message.contains("called on a value") == true)
    }

    /// Every example of Obsidian's Functions page, parsed and evaluated as a base would (expected values as
    /// the help states them).
    @Test("every example on the help's Functions page gives the result the help states")
    func helpFunctionExamples() throws {
        let examples: [(String, String)] = [
            (#"escapeHTML("<b>a & b</b>")"#, #""&lt;b&gt;a &amp; b&lt;/b&gt;""#),
            (#"if(nothing, "Modified", "Unmodified")"#, #""Unmodified""#),
            (#"list("value")"#, #"["value"]"#),
            ("list([1, 2])", "[1, 2]"),
            ("max(1, 5, 3)", "5"),
            ("min(4, 2, 8)", "2"),
            (#"number("3.4")"#, "3.4"),
            ("number(true)", "1"),
            ("1.isTruthy()", "true"),
            (#""example".isType("string")"#, "true"),
            (#"true.isType("boolean")"#, "true"),
            ("123.toString()", #""123""#),
            (#"date("2025-05-27").format("YYYY-MM-DD")"#, #""2025-05-27""#),
            (#"now().date().format("YYYY-MM-DD HH:mm:ss")"#, #""2025-05-27 00:00:00""#),
            (#"date("2025-05-27 23:59:59").time()"#, #""23:59:59""#),
            (#"date("2025-05-24 10:30").relative()"#, #""3 days ago""#),
            ("now().isEmpty()", "false"),
            (#""hello".contains("ell")"#, "true"),
            (#""hello".containsAll("h", "e")"#, "true"),
            (#""hello".containsAny("x", "y", "e")"#, "true"),
            (#""hello".endsWith("lo")"#, "true"),
            (#""Hello world".isEmpty()"#, "false"),
            (#""".isEmpty()"#, "true"),
            (#""HeLLo".lower()"#, #""hello""#),
            (#""a:b:c:d".replace(/:/, "-")"#, #""a-b:c:d""#),
            (#""a:b:c:d".replace(/:/g, "-")"#, #""a-b-c-d""#),
            (#""John Smith".replace(/(\w+) (\w+)/, "$2, $1")"#, #""Smith, John""#),
            (#""123".repeat(2)"#, #""123123""#),
            (#""hello".reverse()"#, #""olleh""#),
            (#""hello".slice(1, 4)"#, #""ell""#),
            (#""a,b,c,d".split(",", 3)"#, #"["a", "b", "c"]"#),
            (#""a,b,c,d".split(/,/, 3)"#, #"["a", "b", "c"]"#),
            (#""hello".startsWith("he")"#, "true"),
            (#""hello world".title()"#, #""Hello World""#),
            (#""  hi  ".trim()"#, #""hi""#),
            (#""hello".length"#, "5"),
            ("(-5).abs()", "5"),
            ("(2.1).ceil()", "3"),
            ("(2.9).floor()", "2"),
            ("5.isEmpty()", "false"),
            ("(2.5).round()", "3"),
            ("(2.3333).round(2)", "2.33"),
            ("(3.14159).toFixed(2)", #""3.14""#),
            ("[1,2,3].contains(2)", "true"),
            ("[1,2,3].containsAll(2,3)", "true"),
            ("[1,2,3].containsAny(3,4)", "true"),
            ("[1,[2,3]].flat()", "[1, 2, 3]"),
            ("[1,2,3].isEmpty()", "false"),
            (#"[1,2,3].join(",")"#, #""1,2,3""#),
            ("[1,2,3].reverse()", "[3, 2, 1]"),
            ("[1,2,3,4].slice(1,3)", "[2, 3]"),
            ("[3, 1, 2].sort()", "[1, 2, 3]"),
            (#"["c", "a", "b"].sort()"#, #"["a", "b", "c"]"#),
            ("[1,2,2,3].unique()", "[1, 2, 3]"),
            ("[1,2,3].length", "3"),
            (#"[1, "a", 5, 2].filter(value.isType("number")).reduce(if(acc == null || value > acc, value, acc), null)"#, "5"),
            ("{}.isEmpty()", "true"),
            (#"{"a": 1, "b": 2}.keys()"#, #"["a", "b"]"#),
            (#"{"a": 1, "b": 2}.values()"#, "[1, 2]"),
            (#"/abc/.matches("abcde")"#, "true"),
            (#"file.hasTag("scifi")"#, "true"),
            (#"file.hasTag("nope", "book")"#, "true"),
            (#"file.inFolder("Books")"#, "true"),
            (#"file.hasProperty("price")"#, "true"),
            (#"file.hasLink(this)"#, "true"),
            (#"link("People/Frank Herbert").asFile() == this"#, "true"),
            (#"author.linksTo(file)"#, "false"),
            (#"file.asLink().toString()"#, #""Books/Dune""#),
        ]
        for (text, expected) in examples {
            let value: BaseValue
            do {
                value = try evaluate(text)
            } catch {
                Issue.record("\(text) failed: \(error)")
                continue
            }
            #expect(show(value) == expected, "\(text)")
        }
    }

    @Test("formulas used more than 64 deep are refused before running, and deep evaluation stops with an error, not a crash")
    func depthLimits() throws {
        let chain = (0..<70).map { "  f\($0): formula.f\($0 + 1) + 1" }.joined(separator: "\n") + "\n  f70: price"
        #expect(throws: BaseError.self) { try BaseProgram.load(text: "formulas:\n" + chain, path: "deep.base") }
        do {
            _ = try BaseProgram.load(text: "formulas:\n" + chain, path: "deep.base")
        } catch {
            #expect(error.kind == .tooDeep)
            #expect(error.message.contains("more than 64 deep"))
        }
        // 60 formulas, each 40 levels deep: within both static limits, past what one row may evaluate
        // (this runs on a test thread, whose stack is smaller than the main thread's).
        let nested = String(repeating: "-(", count: 40) + "x" + String(repeating: ")", count: 40)
        var formulas: [String: String] = [:]
        for index in 0..<60 { formulas["f\(index)"] = nested.replacingOccurrences(of: "x", with: "formula.f\(index + 1)") }
        formulas["f60"] = "price"
        let error = try #require(failure("formula.f0", formulas: formulas))
        #expect(error.message.contains("levels deep"), "\(error.message)")
        let shallow = try #require(failure(String(repeating: "!", count: 250) + "price"))
        #expect(shallow.isDepthLimit)
    }

    @Test("long flat chains evaluate without recursing: 10,000 terms, 450 alternatives")
    func longFlatChains() throws {
        let sum = Array(repeating: "1", count: 10_000).joined(separator: "+")
        #expect(show(try evaluate(sum)) == "10000")
        let program = try BaseProgram.load(text: "formulas:\n  a: \"\(sum)\"", path: "sum.base")
        #expect(program.formulas["a"] != nil)
        let alternatives = (0..<450).map { "status == \"s\($0)\"" }.joined(separator: " || ") + " || status == \"reading\""
        #expect(show(try evaluate(alternatives)) == "true")
        #expect(show(try evaluate("1 - 2 - 3 * 2 + 10 / 5")) == "-5")
        #expect(show(try evaluate("0 || \"\" || nothing || \"last\"")) == "\"last\"")
        #expect(show(try evaluate("1 && 2 && 0 && 3")) == "0")
        let members = "title" + String(repeating: ".length", count: 300)
        #expect(failure(members)?.isDepthLimit == true)
    }

    @Test("a date minus a date is milliseconds: divide it, round it, read .days; text plus a missing value is the text")
    func dateDifferenceIsANumber() throws {
        #expect(show(try evaluate(#"(date("2024-02-20") - date("2024-01-15")) / 86400000"#)) == "36")
        #expect(show(try evaluate(#"((date("2024-02-20 12:00") - date("2024-01-15")) / 86400000).round()"#)) == "37")
        #expect(show(try evaluate(#"(date("2024-02-20") - date("2024-01-15")).days"#)) == "36")
        #expect(show(try evaluate(#"(date("2024-02-20") - date("2024-01-15")) + 1"#)) == "3110400001")
        #expect(show(try evaluate(#""Price: " + nothing"#)) == "\"Price: \"")
        #expect(show(try evaluate(#"nothing + " dollars""#)) == "\" dollars\"")
    }

    @Test("a run asked to stop ends with base-stopped instead of finishing")
    func stoppingARun() throws {
        let files = (0..<1_000).map { BaseFileFacts(path: "n\($0).md", properties: BaseObject([("n", .number(Double($0)))])) }
        let vault = FunctionLibraryVault(files: Dictionary(uniqueKeysWithValues: files.map { ($0.path, $0) }))
        let program = try BaseProgram.load(text: "filters: 'n >= 0'", path: "stop.base")
        let runner = BaseRunner(program: program, environment: BaseEnvironment(vault: vault, now: fixedNow, timeZone: berlin))
        #expect(try runner.run(viewNamed: nil, files: files, shouldStop: { false }).total == 1_000)
        #expect(throws: BaseError.self) { try runner.run(viewNamed: nil, files: files, shouldStop: { true }) }
        do {
            _ = try runner.run(viewNamed: nil, files: files, shouldStop: { true })
        } catch {
            #expect(error.kind == .stopped)
        }
    }
}
