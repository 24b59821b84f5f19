/// Tests of `DataviewEvaluator`, `DataviewOperators` and `DataviewFunctions`: expressions evaluated over a
/// row built by hand, at a fixed `now`. Expected values follow Dataview (`src/expression/functions.ts`,
/// `binaryop.ts`, `context.ts`; dataview-spec.md §6.4, §7, §8, §9.1).
import Testing
@testable import RhizomeCore

// MARK: Helpers

/// Wednesday 31 January 2024, 10:30 local time: `now` for every evaluation here.
private let now = DataviewDate(year: 2024, month: 1, day: 31, hour: 10, minute: 30, hasTime: true)

/// `[[path#subpath|display]]` to a link to `path.md` (a path with an extension is kept as it is).
private let resolve: @Sendable (String) -> DataviewLink = { text in
    let (rest, subpath, display) = DataviewLink.parts(of: text)
    let path = rest.isEmpty ? "Here.md" : (rest.contains(".") ? rest : rest + ".md")
    return DataviewLink(path: path, subpath: subpath, display: display)
}

private func fileObject(_ name: String, folder: String = "", day: DataviewDate? = nil) -> DataviewValue {
    let path = folder.isEmpty ? "\(name).md" : "\(folder)/\(name).md"
    var file = DataviewObject([
        ("name", .string(name)), ("folder", .string(folder)), ("path", .string(path)), ("link", .link(DataviewLink(path: path))),
    ])
    if let day { file["day"] = .date(day) }
    return .object(file)
}

/// The notes links can be followed into (`[[Alpha]].status`).
private let pages: [String: DataviewObject] = [
    "Alpha.md": DataviewObject([
        ("status", .string("active")), ("file", fileObject("Alpha", day: DataviewDate(year: 2023, month: 6, day: 1))),
    ]),
]

/// A book note's fields, as the store would expose them.
private let row = DataviewObject([
    ("title", .string("Designing Data-Intensive Applications")),
    ("rating", .number(4.5)),
    ("status", .string("reading")),
    ("book-rating", .number(5)),
    ("Due Date", .date(DataviewDate(year: 2024, month: 2, day: 10))),
    ("tags", .list([.string("#book"), .string("#tech/db")])),
    ("authors", .list([.string("Kleppmann")])),
    ("nothing", .null),
    ("file", fileObject("DDIA", folder: "Reading")),
    ("rows", .list([
        .object(DataviewObject([("file", fileObject("A")), ("pages", .number(100))])),
        .object(DataviewObject([("file", fileObject("B")), ("pages", .number(250))])),
    ])),
])

private let thisPage = DataviewValue.object(DataviewObject([("file", fileObject("Dashboard")), ("limit", .number(3))]))

private func evaluator(now: DataviewDate = now) -> DataviewEvaluator {
    DataviewEvaluator(thisPage: thisPage, resolveLink: resolve, linkedPage: { pages[$0.path] }, now: now)
}

/// The value of `expression` over `row`, written as a DQL literal (`["a", 1]`), dates and durations in
/// ISO form (`date(2024-01-31)`, `dur(P1DT2H)`), links as `[[path#subpath|display]]`.
private func eval(_ expression: String, now: DataviewDate = now) throws -> String {
    literalText(try evaluator(now: now).evaluate(DataviewParser.parseExpression(expression), row: row))
}

private func value(_ expression: String) throws(DataviewError) -> DataviewValue {
    try evaluator().evaluate(DataviewParser.parseExpression(expression), row: row)
}

/// The evaluation error of `expression`, or nil if it evaluates.
private func evaluationError(_ expression: String) -> DataviewError? {
    do {
        _ = try value(expression)
        return nil
    } catch {
        return error
    }
}

func literalText(_ value: DataviewValue) -> String {
    switch value {
    case .null: return "null"
    case .boolean(let flag): return flag ? "true" : "false"
    case .number(let number): return DataviewNumber.text(number)
    case .string(let text): return "\"\(text)\""
    case .date(let date): return "date(\(date.isoText))"
    case .duration(let duration): return "dur(\(duration.isoText))"
    case .link(let link):
        return (link.isEmbed ? "!" : "") + "[[" + link.path + (link.subpath.map { "#" + $0 } ?? "")
            + (link.display.map { "|" + $0 } ?? "") + "]]"
    case .list(let items): return "[" + items.map(literalText).joined(separator: ", ") + "]"
    case .object(let object): return "{" + object.pairs.map { "\($0.key): \(literalText($0.value))" }.joined(separator: ", ") + "}"
    case .function: return "<function>"
    case .externalLink(let link): return "elink(\"\(link.url)\"" + (link.display.map { ", \"\($0)\"" } ?? "") + ")"
    }
}

// MARK: Operators

@Suite("Dataview evaluation: operators") struct DataviewOperatorTests {
    @Test func `number arithmetic follows JavaScript`() throws {
        #expect(try eval("1 + 2 * 3") == "7")
        #expect(try eval("7 / 2") == "3.5")
        #expect(try eval("10 - 4 - 3") == "3")
        #expect(try eval("7 % 3") == "1")
        #expect(try eval("-7 % 3") == "-1")
        #expect(try eval("1 / 0") == "Infinity")
        #expect(try eval("0.1 + 0.2") == "0.30000000000000004")
        #expect(try eval("rating * 2") == "9")
        #expect(try eval("book-rating - 1") == "4")
        #expect(try eval("-rating") == "-4.5")
    }

    @Test func `+ concatenates strings with any value's text`() throws {
        #expect(try eval(#""a" + "b""#) == #""ab""#)
        #expect(try eval(#""rating: " + rating"#) == #""rating: 4.5""#)
        #expect(try eval(#"3 + "x""#) == #""3x""#)
        #expect(try eval(#""due " + date(2024-01-05)"#) == #""due January 05, 2024""#)
        #expect(try eval(#""tags: " + tags"#) == #""tags: #book, #tech/db""#)
        #expect(try eval(#""a" + null"#) == #""a-""#)
    }

    @Test func `* repeats a string`() throws {
        #expect(try eval(#""ab" * 3"#) == #""ababab""#)
        #expect(try eval(#"2 * "ab""#) == #""abab""#)
        #expect(try eval(#""ab" * -1"#) == #""""#)
    }

    @Test func `a date plus months clamps the day to the month's end`() throws {
        #expect(try eval("date(2024-01-31) + dur(1 month)") == "date(2024-02-29)")
        #expect(try eval("date(2023-01-31) + dur(1 month)") == "date(2023-02-28)")
        #expect(try eval("date(2024-03-31) - dur(1 month)") == "date(2024-02-29)")
        #expect(try eval("date(2024-02-29) + dur(1 year)") == "date(2025-02-28)")
        #expect(try eval("date(2024-01-15) - dur(2 months)") == "date(2023-11-15)")
        #expect(try eval("date(2024-11-30) + dur(3 months)") == "date(2025-02-28)")
    }

    @Test func `a date plus days, weeks and hours`() throws {
        #expect(try eval("date(2024-01-31) + dur(1 day)") == "date(2024-02-01)")
        #expect(try eval("dur(1 week) + date(2024-12-28)") == "date(2025-01-04)")
        #expect(try eval("date(2024-03-01) - dur(1 day)") == "date(2024-02-29)")
        #expect(try eval("date(2024-01-31T23:00) + dur(2 hours)") == "date(2024-02-01T01:00:00)")
        #expect(try eval("date(2024-01-31) + dur(90 minutes)") == "date(2024-01-31T01:30:00)")
        #expect(try eval("date(2024-01-31) + dur(1 month 1 day)") == "date(2024-03-01)")
    }

    @Test func `a date minus a date is a duration`() throws {
        #expect(try eval("(date(2024-01-31) - date(2024-01-02)).days") == "29")
        #expect(try eval("string(date(2024-01-31) - date(2024-01-02))") == #""4 weeks, 1 day""#)
        #expect(try eval("string(date(2024-01-31T12:00) - date(2024-01-31T10:30))") == #""1 hour, 30 minutes""#)
        #expect(try eval("(date(2024-01-01) - date(2024-01-08)).days") == "-7")
        #expect(try eval("date(2024-01-02) - date(2024-01-01) = dur(1 day)") == "true")
        // Whole months on the calendar first, as Luxon's diff: 2024-02-01 plus one month is 2024-03-01.
        #expect(try eval("string(date(2024-03-01) - date(2024-02-01))") == #""1 month""#)
        #expect(try eval("(date(2024-03-01) - date(2024-02-01)).days") == "30")
        #expect(try eval("string(date(2024-03-15) - date(2024-01-01))") == #""2 months, 2 weeks""#)
        #expect(try eval("string(date(2024-03-01) - date(2024-01-31))") == #""1 month, 1 day""#)  // Jan 31 + 1 month = Feb 29
        #expect(try eval("string(date(2025-01-10) - date(2024-01-20))") == #""11 months, 3 weeks""#)
        #expect(try eval("string(date(2024-03-01T08:00) - date(2024-02-01T10:00))") == #""4 weeks, 22 hours""#)
        #expect(try eval("string(date(2024-02-01) - date(2024-03-01))") == #""-1 month""#)
    }

    @Test func `durations add, subtract, scale and divide`() throws {
        #expect(try eval("string(dur(1 hour) + dur(30 min))") == #""1 hour, 30 minutes""#)
        #expect(try eval("string(dur(1 day) - dur(1 hour))") == #""23 hours""#)
        #expect(try eval("string(dur(2 hours) * 3)") == #""6 hours""#)
        #expect(try eval("string(2 * dur(1 week))") == #""2 weeks""#)
        #expect(try eval("string(dur(1 day) / 2)") == #""12 hours""#)
    }

    @Test func `lists concatenate and objects merge with the right side winning`() throws {
        #expect(try eval("[1] + [2, 3]") == "[1, 2, 3]")
        #expect(try eval("tags + []") == ##"["#book", "#tech/db"]"##)
        #expect(try eval("{a: 1, b: 2} + {b: 3, c: 4}") == "{a: 1, b: 3, c: 4}")
    }

    @Test func `null with null is null, a date with null is null, any other arithmetic with null is an error`() throws {
        #expect(try eval("null + null") == "null")
        #expect(try eval("nothing * nothing") == "null")
        #expect(try eval("date(2024-01-01) + null") == "null")
        #expect(try eval("null - date(2024-01-01)") == "null")
        #expect(evaluationError("1 + null") == .evaluation(message: "no implementation of `number + null`"))
        #expect(evaluationError("null * 2") == .evaluation(message: "no implementation of `null * number`"))
        #expect(evaluationError("rating + missing") != nil)
        #expect(evaluationError("dur(1 day) + null") != nil)
    }

    @Test func `arithmetic on other type mixes is an error`() {
        #expect(evaluationError("[1] + 1") == .evaluation(message: "no implementation of `array + number`"))
        #expect(evaluationError("true + true") != nil)
        #expect(evaluationError("[[A]] + [[B]]") != nil)
        #expect(evaluationError("{a: 1} - {a: 1}") != nil)
        #expect(evaluationError("2 / dur(1 day)") != nil)
        #expect(evaluationError("date(2024-01-01) + date(2024-01-01)") != nil)
    }

    @Test func `an evaluation error has a stable code and a description`() {
        let error = evaluationError("1 + null")
        #expect(error?.code == "query-evaluation")
        #expect(error?.errorDescription == "query: no implementation of `number + null`")
        #expect(error?.diagnostic == "query: no implementation of `number + null`")
    }

    @Test func `comparisons of numbers, strings, booleans, dates, durations, lists`() throws {
        #expect(try eval("1 < 2") == "true")
        #expect(try eval("2 <= 2") == "true")
        #expect(try eval("3 >= 4") == "false")
        #expect(try eval("rating > 4") == "true")
        #expect(try eval(#""apple" < "banana""#) == "true")
        #expect(try eval("false < true") == "true")
        #expect(try eval("date(2024-01-01) < date(2024-01-02)") == "true")
        #expect(try eval("date(2024-01-01T10:00) > date(2024-01-01)") == "true")
        #expect(try eval("dur(1 day) > dur(23 hours)") == "true")
        #expect(try eval("[1, 2] < [1, 3]") == "true")
        #expect(try eval("[1] < [1, 0]") == "true")
        #expect(try eval("{a: 1} = {a: 1}") == "true")
        #expect(try eval("{a: 1} < {a: 2}") == "true")
        #expect(try eval("1 != 2") == "true")
    }

    @Test func `durations are equal by their length (Dataview compares them unit by unit)`() throws {
        #expect(try eval("dur(1 month) = dur(30 days)") == "true")
        #expect(try eval("dur(1 hour) = dur(60 minutes)") == "true")
        #expect(try eval("dur(1 week) < dur(8 days)") == "true")
    }

    @Test func `strings compare by locale order: lower case before upper case, and case matters for =`() throws {
        #expect(try eval(#""a" = "A""#) == "false")
        #expect(try eval(#""a" != "A""#) == "true")
        #expect(try eval(#""a" < "A""#) == "true")
        #expect(try eval(#""A" < "b""#) == "true")
        #expect(try eval(#""B" > "a""#) == "true")
        #expect(try eval(#""é" < "f""#) == "true")
        #expect(try eval(#""e" < "é""#) == "true")
        #expect(try eval(#""10" < "9""#) == "true")
    }

    @Test func `values of different types order by type name, null first`() throws {
        // array < boolean < date < duration < function < link < number < object < string
        let ordered = ["null", "[1]", "true", "date(2024-01-01)", "dur(1 day)", "[[A]]", "1", "{a: 1}", #""a""#]
        for (lower, higher) in zip(ordered, ordered.dropFirst()) {
            #expect(try eval("\(lower) < \(higher)") == "true", "\(lower) < \(higher)")
            #expect(try eval("\(higher) > \(lower)") == "true", "\(higher) > \(lower)")
            #expect(try eval("\(lower) = \(higher)") == "false", "\(lower) = \(higher)")
        }
        #expect(try eval(#"1 = "1""#) == "false")
        #expect(try eval("null < -1000") == "true")
    }

    @Test func `null equals only null`() throws {
        #expect(try eval("null = null") == "true")
        #expect(try eval("nothing = null") == "true")
        #expect(try eval("missing = null") == "true")
        #expect(try eval("1 = null") == "false")
        #expect(try eval("1 != null") == "true")
        #expect(try eval(#""" = null"#) == "false")
    }

    @Test func `links are equal by path and subpath; display and embed do not matter`() throws {
        #expect(try eval("[[Alpha]] = [[Alpha|Shown]]") == "true")
        #expect(try eval("[[Alpha]] = ![[Alpha]]") == "true")
        #expect(try eval("[[Alpha]] = [[Alpha#Intro]]") == "false")
        #expect(try eval("[[Alpha]] < [[Beta]]") == "true")
        #expect(try eval("file.link = [[Reading/DDIA]]") == "true")
    }

    @Test func `and, or and ! work on truthiness and give booleans`() throws {
        #expect(try eval(#"1 and "x""#) == "true")
        #expect(try eval(#"0 or """#) == "false")
        #expect(try eval("null or [1]") == "true")
        #expect(try eval("[] or {}") == "false")
        #expect(try eval("!0") == "true")
        #expect(try eval(#"!"a""#) == "false")
        #expect(try eval("!nothing") == "true")
        #expect(try eval("![]") == "true")
        #expect(try eval("![false]") == "false")
        #expect(try eval("!dur(0 s)") == "true")
        #expect(try eval("!date(2024-01-01)") == "false")
        #expect(try eval("![[Alpha]]") == "![[Alpha.md]]")
    }

    @Test func `and and or read from the left at one level, as in Dataview`() throws {
        #expect(try eval("true or false and false") == "false")
        #expect(try eval("false and false or true") == "true")
    }

    @Test func `and and or stop at the first side that decides (Rhizome keeps short-circuiting)`() throws {
        #expect(try eval("false and (1 + null)") == "false")
        #expect(try eval("true or (1 + null)") == "true")
        #expect(evaluationError("true and (1 + null)") != nil)
    }

    @Test func `NaN is truthy, as in Dataview`() throws {
        #expect(try eval(#"choice(0 / 0, "yes", "no")"#) == #""yes""#)
    }
}

// MARK: Fields, members and indexes

@Suite("Dataview evaluation: fields and indexes") struct DataviewFieldAccessTests {
    @Test func `fields by name, a missing field is null, a name in other case falls back to lower case`() throws {
        #expect(try eval("rating") == "4.5")
        #expect(try eval("book-rating") == "5")
        #expect(try eval("missing") == "null")
        #expect(try eval("Status") == #""reading""#)
        #expect(try eval("STATUS") == #""reading""#)
    }

    @Test func `row indexes the row itself, for names that are not identifiers`() throws {
        #expect(try eval(#"row["Due Date"]"#) == "date(2024-02-10)")
        #expect(try eval("row.rating") == "4.5")
        #expect(try eval(#"row["book-rating"]"#) == "5")
        #expect(try eval("row.missing") == "null")
    }

    @Test func `this is the note the query runs in`() throws {
        #expect(try eval("this.file.name") == #""Dashboard""#)
        #expect(try eval("this.limit + 1") == "4")
        #expect(try DataviewEvaluator(now: now).evaluate(DataviewParser.parseExpression("this.file.name"), row: row) == .null)
    }

    @Test func `object members by dot and by string index`() throws {
        #expect(try eval("file.name") == #""DDIA""#)
        #expect(try eval(#"file["folder"]"#) == #""Reading""#)
        #expect(try eval("{a: {b: 2}}.a.b") == "2")
        #expect(try eval("{a: 1}.missing") == "null")
        #expect(try eval("{a: 1}[null]") == "null")
        #expect(evaluationError("{a: 1}[0]") == .evaluation(message: "cannot index a object with a number"))
    }

    @Test func `list indexes from zero; out of range and negative indexes are null`() throws {
        #expect(try eval("[10, 20, 30][0]") == "10")
        #expect(try eval("[10, 20, 30][2]") == "30")
        #expect(try eval("[10, 20, 30][3]") == "null")
        #expect(try eval("[10, 20, 30][-1]") == "null")
        #expect(try eval("[10, 20, 30][-4]") == "null")
        #expect(try eval("tags[1]") == ##""#tech/db""##)
        #expect(try eval("[][0]") == "null")
        #expect(evaluationError("[1][true]") != nil)
    }

    @Test func `a string indexed by a number is its character`() throws {
        #expect(try eval(#""abc"[1]"#) == #""b""#)
        #expect(try eval(#""abc"[3]"#) == "null")
        #expect(try eval(#""abc"[-1]"#) == "null")
    }

    @Test func `members of null, numbers and booleans are null`() throws {
        #expect(try eval("nothing.a") == "null")
        #expect(try eval("nothing[0]") == "null")
        #expect(try eval("missing.a.b") == "null")
        #expect(try eval("(5).a") == "null")
        #expect(try eval("true.a") == "null")
    }

    @Test func `a member of a list is taken from every element (swizzling)`() throws {
        #expect(try eval("rows.file.name") == #"["A", "B"]"#)
        #expect(try eval("rows.pages") == "[100, 250]")
        #expect(try eval("sum(rows.pages)") == "350")
        #expect(try eval(#"rows["pages"]"#) == "[100, 250]")
        #expect(try eval("[{a: 1}, {a: null}, {b: 2}].a") == "[1, null, null]")
        #expect(try eval("list([{a: 1}], [{a: 2}]).a") == "[[1], [2]]")
    }

    @Test func `date members`() throws {
        let date = "date(2024-01-31T10:30:15.250)"
        #expect(try eval("\(date).year") == "2024")
        #expect(try eval("\(date).month") == "1")
        #expect(try eval("\(date).day") == "31")
        #expect(try eval("\(date).hour") == "10")
        #expect(try eval("\(date).minute") == "30")
        #expect(try eval("\(date).second") == "15")
        #expect(try eval("\(date).millisecond") == "250")
        #expect(try eval("\(date).weekday") == "3")
        #expect(try eval("date(2024-02-04).weekday") == "7")
        #expect(try eval("\(date).unknown") == "null")
    }

    @Test func `date week is the week of the month and weekyear the ISO week number, as Dataview has them`() throws {
        #expect(try eval("date(2024-01-31).week") == "5")
        #expect(try eval("date(2024-01-06).week") == "1")
        #expect(try eval("date(2024-01-07).week") == "2")
        #expect(try eval("date(2024-01-31).weekyear") == "5")
        #expect(try eval("date(2023-01-01).weekyear") == "52")
    }

    @Test func `duration members are the whole duration in that unit`() throws {
        #expect(try eval("dur(1 day 12 hours).days") == "1.5")
        #expect(try eval("dur(1 day 12 hours).hours") == "36")
        #expect(try eval("dur(90 min).hours") == "1.5")
        #expect(try eval("dur(1 hour).minute") == "60")
        #expect(try eval("dur(2 weeks).weeks") == "2")
        #expect(try eval("dur(2 weeks).week") == "null")
        #expect(try eval("dur(1 month).days") == "30")
        #expect(try eval("dur(1 year).days") == "365")
        #expect(try eval("dur(2 s).milliseconds") == "2000")
        #expect(try eval("dur(1 day).fortnights") == "null")
    }

    @Test func `a link's members are the linked note's fields`() throws {
        #expect(try eval("[[Alpha]].status") == #""active""#)
        #expect(try eval("[[Alpha]].file.name") == #""Alpha""#)
        #expect(try eval(#"link("Alpha")["status"]"#) == #""active""#)
        #expect(try eval("[[Missing]].status") == "null")
    }

    @Test func `links in expressions are resolved as written, with subpath, display and embed`() throws {
        #expect(try eval("[[Alpha]]") == "[[Alpha.md]]")
        #expect(try eval("[[Alpha#Intro|The intro]]") == "[[Alpha.md#Intro|The intro]]")
        #expect(try eval("![[diagram.png]]") == "![[diagram.png]]")
    }

    @Test func `lambdas see the row, their parameters, and the parameters of the lambdas around them`() throws {
        #expect(try eval("map([1, 2], (x) => x * rating)") == "[4.5, 9]")
        #expect(try eval("map([1, 2], (x) => map([10, 20], (y) => x + y))") == "[[11, 21], [12, 22]]")
        #expect(try eval("map([1], (rating) => rating * 2)") == "[2]")
        #expect(try eval("map(rows, (r) => filter(tags, (t) => length(t) > r.pages / 50))") == ##"[["#book", "#tech/db"], ["#tech/db"]]"##)
        #expect(try eval("map([1], (x, y) => y)") == "[null]")
        #expect(try eval("typeof((x) => x)") == #""function""#)
        #expect(try eval("string((x) => x)") == #""<function>""#)
    }

    @Test func `a function where a lambda belongs is an error`() {
        #expect(evaluationError("map([1], 2)") == .evaluation(message: "expected a function like `(x) => …`, got a number"))
    }
}

// MARK: Relative dates

@Suite("Dataview evaluation: relative dates") struct DataviewRelativeDateTests {
    @Test func `now, today, tomorrow and yesterday against a fixed now`() throws {
        #expect(try eval("date(now)") == "date(2024-01-31T10:30:00)")
        #expect(try eval("date(today)") == "date(2024-01-31)")
        #expect(try eval("date(tomorrow)") == "date(2024-02-01)")
        #expect(try eval("date(yesterday)") == "date(2024-01-30)")
        #expect(try eval(#"date("today")"#) == "date(2024-01-31)")
        #expect(try eval("date(today) - dur(1 week)") == "date(2024-01-24)")
    }

    @Test func `start and end of the week are Monday and Sunday night`() throws {
        #expect(try eval("date(sow)") == "date(2024-01-29)")
        #expect(try eval("date(eow)") == "date(2024-02-04T23:59:59.999)")
        #expect(try eval("date(start-of-week)") == "date(2024-01-29)")
        #expect(try eval("date(end-of-week)") == "date(2024-02-04T23:59:59.999)")
        let sunday = DataviewDate(year: 2024, month: 2, day: 4, hour: 22, hasTime: true)
        #expect(try eval("date(sow)", now: sunday) == "date(2024-01-29)")
        #expect(try eval("date(eow)", now: sunday) == "date(2024-02-04T23:59:59.999)")
        let monday = DataviewDate(year: 2024, month: 1, day: 1, hasTime: true)
        #expect(try eval("date(sow)", now: monday) == "date(2024-01-01)")
    }

    @Test func `start and end of the month and year`() throws {
        #expect(try eval("date(som)") == "date(2024-01-01)")
        #expect(try eval("date(eom)") == "date(2024-01-31T23:59:59.999)")
        #expect(try eval("date(soy)") == "date(2024-01-01)")
        #expect(try eval("date(eoy)") == "date(2024-12-31T23:59:59.999)")
        #expect(try eval("date(end-of-month)") == "date(2024-01-31T23:59:59.999)")
        #expect(try eval("date(start-of-year)") == "date(2024-01-01)")
        let february = DataviewDate(year: 2024, month: 2, day: 10, hasTime: true)
        #expect(try eval("date(eom)", now: february) == "date(2024-02-29T23:59:59.999)")
        #expect(try eval("date(som)", now: february) == "date(2024-02-01)")
    }

    @Test func `relative dates compare with field dates`() throws {
        #expect(try eval(#"row["Due Date"] > date(today)"#) == "true")
        #expect(try eval(#"row["Due Date"] <= date(eom) + dur(10 days)"#) == "true")
    }
}

// MARK: Functions

@Suite("Dataview functions: containment and length") struct DataviewContainmentFunctionTests {
    @Test func `contains: substrings, list elements (recursively), object keys, equality otherwise`() throws {
        #expect(try eval(#"contains("abc", "b")"#) == "true")
        #expect(try eval(#"contains("abc", "B")"#) == "false")
        #expect(try eval(#"contains(["a", "bc"], "b")"#) == "true")
        #expect(try eval(##"contains(tags, "#tech")"##) == "true")
        #expect(try eval(##"contains(tags, "#science")"##) == "false")
        #expect(try eval(#"contains({a: 1}, "a")"#) == "true")
        #expect(try eval(#"contains({a: 1}, "b")"#) == "false")
        #expect(try eval("contains([1, 2], 2)") == "true")
        #expect(try eval("contains([1, [2, 3]], 3)") == "true")
        #expect(try eval("contains([1, 2], 3)") == "false")
        #expect(try eval("contains(list([[Alpha]], [[Beta]]), [[Alpha|shown]])") == "true")
        #expect(try eval(#"contains(nothing, "a")"#) == "false")
    }

    @Test func `contains maps over a list of needles`() throws {
        #expect(try eval(#"contains("abc", ["a", "z"])"#) == "[true, false]")
        #expect(try eval(##"contains(tags, ["#book", "#x"])"##) == "[true, false]")
    }

    @Test func `text functions compare code units as JavaScript does, not canonical equivalents`() throws {
        // `e` + U+0301 holds the code unit `e`; the precomposed U+00E9 does not, though the two look alike.
        #expect(try eval("contains(\"cafe\u{301}\", \"cafe\")") == "true")
        #expect(try eval("contains(\"caf\u{E9}\", \"cafe\")") == "false")
        #expect(try eval("contains(\"caf\u{E9}\", \"cafe\u{301}\")") == "false")
        #expect(try eval("startswith(\"e\u{301}t\u{E9}\", \"e\")") == "true")
        #expect(try eval("endswith(\"cafe\u{301}\", \"\u{301}\")") == "true")
        #expect(try eval("replace(\"cafe\u{301}\", \"e\", \"E\")") == "\"cafE\u{301}\"")
        #expect(try eval(#"contains("abc", "")"#) == "true")
        #expect(try eval(#"contains("ab", "abc")"#) == "false")
        #expect(try eval(#"contains("aab", "ab")"#) == "true")
        #expect(try eval(#"contains("xyz", "z")"#) == "true")
    }

    @Test func `icontains ignores case for text but not for object keys`() throws {
        #expect(try eval(#"icontains("ABC", "b")"#) == "true")
        #expect(try eval(#"icontains(["Alpha"], "alp")"#) == "true")
        #expect(try eval(#"icontains(title, "DATA")"#) == "true")
        #expect(try eval(#"icontains({Key: 1}, "key")"#) == "false")
        #expect(try eval(#"icontains("abc", ["B", "z"])"#) == "[true, false]")
    }

    @Test func `econtains wants an exact element of a list`() throws {
        #expect(try eval(#"econtains(["abc", "b"], "b")"#) == "true")
        #expect(try eval(#"econtains(["abc"], "b")"#) == "false")
        #expect(try eval(##"econtains(tags, "#tech")"##) == "false")
        #expect(try eval(##"econtains(tags, "#tech/db")"##) == "true")
        #expect(try eval(#"econtains("abc", "b")"#) == "true")
        #expect(try eval(#"econtains({a: 1}, "a")"#) == "true")
    }

    @Test func `containsword matches whole words in any case`() throws {
        #expect(try eval(#"containsword("the big cat", "big")"#) == "true")
        #expect(try eval(#"containsword("bigger", "big")"#) == "false")
        #expect(try eval(#"containsword("Big Cat", "big")"#) == "true")
        #expect(try eval(#"containsword("a.b (c)", "(c)")"#) == "false")
        #expect(try eval(#"containsword("a.b (c)", "b")"#) == "true")
        #expect(try eval(#"containsword(nothing, "big")"#) == "null")
        #expect(try eval(#"containsword(["a big", "bigger"], "big")"#) == "[true, false]")
        #expect(try eval(#"containsword("a big cat", ["big", "dog"])"#) == "[true, false]")
    }

    @Test func `length of lists, objects, strings (UTF-16 units) and null`() throws {
        #expect(try eval("length([1, 2, 3])") == "3")
        #expect(try eval("length({a: 1, b: 2})") == "2")
        #expect(try eval(#"length("héllo")"#) == "5")
        #expect(try eval(#"length("😀")"#) == "2")
        #expect(try eval("length(nothing)") == "0")
        #expect(try eval("length(rows)") == "2")
        #expect(evaluationError("length(5)") == .evaluation(message: "no implementation of length(number)"))
    }
}

@Suite("Dataview functions: strings") struct DataviewStringFunctionTests {
    @Test func `lower and upper, mapped over lists, null stays null`() throws {
        #expect(try eval(#"lower("ÄBC")"#) == #""äbc""#)
        #expect(try eval(#"upper("straße")"#) == #""STRASSE""#)
        #expect(try eval("upper(tags)") == ##"["#BOOK", "#TECH/DB"]"##)
        #expect(try eval("lower(nothing)") == "null")
    }

    @Test func `startswith and endswith, mapped over lists, null gives null`() throws {
        #expect(try eval(#"startswith("hello", "he")"#) == "true")
        #expect(try eval(#"startswith("hello", "He")"#) == "false")
        #expect(try eval(#"endswith("hello", "lo")"#) == "true")
        #expect(try eval(#"endswith("hello", "he")"#) == "false")
        #expect(try eval(#"startswith(nothing, "a")"#) == "null")
        #expect(try eval(#"endswith(nothing, "a")"#) == "null")
        #expect(try eval(##"startswith(tags, "#tech")"##) == "[false, true]")
        #expect(try eval(#"endswith("file.md", [".md", ".txt"])"#) == "[true, false]")
        #expect(try eval(##"any(startswith(tags, "#book"))"##) == "true")
    }

    @Test func `regexmatch matches the whole text unless the pattern has its own anchor`() throws {
        #expect(try eval(#"regexmatch("\d+", "123")"#) == "true")
        #expect(try eval(#"regexmatch("\d+", "a123")"#) == "false")
        #expect(try eval(#"regexmatch("^a", "abc")"#) == "true")
        #expect(try eval(#"regexmatch("c$", "abc")"#) == "true")
        #expect(try eval(#"regexmatch("a|b", "ab")"#) == "true")  // ^a|b$: Dataview's quirk
        #expect(try eval(#"regexmatch("\w+", nothing)"#) == "false")
        #expect(try eval(#"regexmatch(nothing, "abc")"#) == "false")
        #expect(try eval(##"regexmatch("#\w+", tags)"##) == "[true, false]")
    }

    @Test func `regextest finds the pattern anywhere`() throws {
        #expect(try eval(#"regextest("\d", "a1")"#) == "true")
        #expect(try eval(#"regextest("^\d$", "a1")"#) == "false")
        #expect(try eval(#"regextest("DB", title)"#) == "false")
        #expect(try eval(#"regextest("Data", nothing)"#) == "false")
        #expect(try eval(#"regextest("tech", tags)"#) == "[false, true]")
    }

    @Test func `an invalid regular expression is an error naming it`() {
        #expect(evaluationError(#"regextest("(", "x")"#) == .evaluation(message: "invalid regular expression `(`"))
        #expect(evaluationError(#"regexmatch("[", "x")"#) != nil)
        #expect(evaluationError(#"regexreplace("x", "(", "y")"#) != nil)
        #expect(evaluationError(#"split("x", "(")"#) != nil)
    }

    @Test func `regexreplace replaces every match, with groups`() throws {
        #expect(try eval(##"regexreplace("a1b22", "\d+", "#")"##) == ##""a#b#""##)
        #expect(try eval(#"regexreplace("2024-01-31", "(\d+)-(\d+)-(\d+)", "$3.$2.$1")"#) == #""31.01.2024""#)
        #expect(try eval(#"regexreplace(nothing, "a", "b")"#) == "null")
        #expect(try eval(#"regexreplace(["a1", "b2"], "\d", "")"#) == #"["a", "b"]"#)
    }

    @Test func `replace is literal and replaces every occurrence`() throws {
        #expect(try eval(#"replace("a.b.c", ".", "-")"#) == #""a-b-c""#)
        #expect(try eval(#"replace("aaa", "a", "bb")"#) == #""bbbbbb""#)
        #expect(try eval(#"replace("a+b", "+", " plus ")"#) == #""a plus b""#)
        #expect(try eval(#"replace(nothing, "a", "b")"#) == "null")
        #expect(try eval(#"replace(["a-b", "c-d"], "-", "+")"#) == #"["a+b", "c+d"]"#)
    }

    @Test func `replace with empty text to find puts the replacement between the characters`() throws {
        #expect(try eval(#"replace("abc", "", "-")"#) == #""a-b-c""#)
    }

    @Test func `split on a regular expression, with captured groups and a limit`() throws {
        #expect(try eval(#"split("a, b,c", ",\s*")"#) == #"["a", "b", "c"]"#)
        #expect(try eval(#"split("a,b,", ",")"#) == #"["a", "b", ""]"#)
        #expect(try eval(#"split("a1b2c", "(\d)")"#) == #"["a", "1", "b", "2", "c"]"#)
        #expect(try eval(#"split("a,b,c", ",", 2)"#) == #"["a", "b"]"#)
        #expect(try eval(#"split("abc", ",")"#) == #"["abc"]"#)
        #expect(try eval(#"split(nothing, ",")"#) == "null")
    }

    @Test func `join uses ", " by default and the text of each value`() throws {
        #expect(try eval(#"join(["a", "b"])"#) == #""a, b""#)
        #expect(try eval(#"join([1, 2], "-")"#) == #""1-2""#)
        #expect(try eval(#"join(list(true, 2.5, "x"), "")"#) == #""true2.5x""#)
        #expect(try eval(#"join("x")"#) == #""x""#)
        #expect(try eval(#"join(tags, " ")"#) == ##""#book #tech/db""##)
        #expect(try eval(#"join([])"#) == #""""#)
    }

    @Test func `truncate cuts to the length including the suffix`() throws {
        #expect(try eval(#"truncate("Hello World", 8)"#) == #""Hello...""#)
        #expect(try eval(#"truncate("Hello", 5)"#) == #""He...""#)  // Dataview cuts at the length too
        #expect(try eval(#"truncate("Hi", 5)"#) == #""Hi""#)
        #expect(try eval(#"truncate("Hello World", 6, "…")"#) == #""Hello…""#)
        #expect(try eval(#"truncate(nothing, 3)"#) == "null")
        #expect(try eval(#"truncate(["abcdef", "ab"], 5)"#) == #"["ab...", "ab"]"#)
    }

    @Test func `padleft and padright repeat the padding as needed`() throws {
        #expect(try eval(#"padleft("7", 3, "0")"#) == #""007""#)
        #expect(try eval(#"padleft("7", 3)"#) == #""  7""#)
        #expect(try eval(#"padright("ab", 5, "xy")"#) == #""abxyx""#)
        #expect(try eval(#"padleft("long", 2)"#) == #""long""#)
        #expect(try eval(#"padright(nothing, 3)"#) == "null")
        #expect(try eval(#"padleft(["1", "22"], 3, "0")"#) == #"["001", "022"]"#)
    }
}

@Suite("Dataview functions: numbers and aggregates") struct DataviewNumberFunctionTests {
    @Test func `round goes half up, with digits like toFixed`() throws {
        #expect(try eval("round(2.5)") == "3")
        #expect(try eval("round(-2.5)") == "-2")
        #expect(try eval("round(2.4)") == "2")
        #expect(try eval("round(1.2345, 2)") == "1.23")
        #expect(try eval("round(1.235, 1)") == "1.2")
        #expect(try eval("round(1.5, 0)") == "2")
        #expect(try eval("round(15.5, -1)") == "16")
        #expect(try eval("round(nothing)") == "null")
        #expect(try eval("round([1.4, 1.6])") == "[1, 2]")
        #expect(evaluationError(#"round("a")"#) != nil)
    }

    @Test func `min and max over arguments or a list, nulls ignored, mixed types by the total order`() throws {
        #expect(try eval("min(3, 1, 2)") == "1")
        #expect(try eval("max([3, 1, 2])") == "3")
        #expect(try eval("min(rating, null)") == "4.5")
        #expect(try eval("max(nothing, 2)") == "2")
        #expect(try eval("min()") == "null")
        #expect(try eval("min([])") == "null")
        #expect(try eval(#"min(1, "a")"#) == "1")
        #expect(try eval(#"max(1, "a")"#) == #""a""#)
        #expect(try eval("max(date(2024-01-01), date(2024-02-01))") == "date(2024-02-01)")
        #expect(try eval(#"min("b", "a", "B")"#) == #""a""#)
    }

    @Test func `sum adds numbers, concatenates strings, and fails on nulls`() throws {
        #expect(try eval("sum([1, 2, 3])") == "6")
        #expect(try eval("sum([])") == "null")
        #expect(try eval("sum(5)") == "5")
        #expect(try eval(#"sum(["a", "b"])"#) == #""ab""#)
        #expect(try eval("sum(list(dur(1 hour), dur(30 min))) = dur(90 min)") == "true")
        #expect(evaluationError("sum([1, null])") == .evaluation(message: "no implementation of `number + null`"))
        #expect(try eval("sum(nonnull([1, null, 2]))") == "3")
    }

    @Test func `product multiplies`() throws {
        #expect(try eval("product([2, 3, 4])") == "24")
        #expect(try eval("product([])") == "null")
        #expect(try eval("product(7)") == "7")
    }

    @Test func `average divides the sum by the count`() throws {
        #expect(try eval("average([1, 2, 3, 4])") == "2.5")
        #expect(try eval("average([])") == "null")
        #expect(try eval("average(rows.pages)") == "175")
        #expect(evaluationError("average([1, null])") != nil)
    }
}

@Suite("Dataview functions: lists and lambdas") struct DataviewListFunctionTests {
    @Test func `filter keeps the truthy elements`() throws {
        #expect(try eval("filter([1, 2, 3, 4], (x) => x > 2)") == "[3, 4]")
        #expect(try eval(#"filter(["a", "", null, "b"], (x) => x)"#) == #"["a", "b"]"#)
        #expect(try eval("filter(nothing, (x) => x)") == "null")
        #expect(try eval(##"filter(tags, (t) => startswith(t, "#tech"))"##) == ##"["#tech/db"]"##)
    }

    @Test func `map applies a lambda to each element`() throws {
        #expect(try eval("map([1, 2], (x) => x * 10)") == "[10, 20]")
        #expect(try eval("map(rows, (r) => r.file.name + \"!\")") == #"["A!", "B!"]"#)
        #expect(try eval("map(nothing, (x) => x)") == "null")
        #expect(try eval("map([], (x) => x)") == "[]")
    }

    @Test func `any, all and none, over a list, with a lambda, or over arguments`() throws {
        #expect(try eval(#"any([false, 0, "x"])"#) == "true")
        #expect(try eval("any([false, 0])") == "false")
        #expect(try eval("any([])") == "false")
        #expect(try eval("all([])") == "true")
        #expect(try eval(#"all([1, true, "a"])"#) == "true")
        #expect(try eval("all([1, 0])") == "false")
        #expect(try eval("any(false, true)") == "true")
        #expect(try eval("all(true, 0)") == "false")
        #expect(try eval("any([1, 2], (x) => x > 1)") == "true")
        #expect(try eval("all([1, 2], (x) => x > 1)") == "false")
        #expect(try eval("none([0, false])") == "true")
        #expect(try eval("none([])") == "true")
        #expect(try eval("none([1, 2], (x) => x > 1)") == "false")
    }

    @Test func `flat flattens one level by default, or to a depth`() throws {
        #expect(try eval("flat([1, [2, [3]]])") == "[1, 2, [3]]")
        #expect(try eval("flat([1, [2, [3]]], 2)") == "[1, 2, 3]")
        #expect(try eval("flat(list([1], [], [2]))") == "[1, 2]")
        #expect(try eval("flat(nothing)") == "null")
        #expect(try eval("flat(rows.file.name)") == #"["A", "B"]"#)
    }

    @Test func `sort ascending by the total order, or by a key, keeping ties in order`() throws {
        #expect(try eval("sort([3, 1, 2])") == "[1, 2, 3]")
        #expect(try eval(#"sort(["b", "a", "B", "A"])"#) == #"["a", "A", "b", "B"]"#)
        #expect(try eval("sort([3, 1, 2], (x) => 0 - x)") == "[3, 2, 1]")
        #expect(try eval(#"sort(["a", 1, null, true])"#) == #"[null, true, 1, "a"]"#)
        #expect(try eval(#"sort(["bb", "a", "cc", "d"], (x) => length(x))"#) == #"["a", "d", "bb", "cc"]"#)
        #expect(try eval("sort(rows, (r) => 0 - r.pages).file.name") == #"["B", "A"]"#)
        #expect(try eval("sort(nothing)") == "null")
    }

    @Test func `reverse reverses lists and strings, other values stay`() throws {
        #expect(try eval("reverse([1, 2, 3])") == "[3, 2, 1]")
        #expect(try eval(#"reverse("abc")"#) == #""cba""#)
        #expect(try eval("reverse(nothing)") == "null")
        #expect(try eval("reverse(5)") == "5")
    }

    @Test func `unique sorts and removes duplicates`() throws {
        #expect(try eval("unique([3, 1, 3, 2, 1])") == "[1, 2, 3]")
        #expect(try eval(#"unique(["b", "a", "b"])"#) == #"["a", "b"]"#)
        #expect(try eval("unique(list([[B]], [[A]], [[B|x]]))") == "[[[A.md]], [[B.md]]]")
        #expect(try eval("unique([])") == "[]")
    }

    @Test func `nonnull and firstvalue skip nulls`() throws {
        #expect(try eval("nonnull([1, null, 2])") == "[1, 2]")
        #expect(try eval("nonnull(1, null, 2)") == "[1, 2]")
        #expect(try eval("nonnull([])") == "[]")
        #expect(try eval("firstvalue([null, null, 3, 4])") == "3")
        #expect(try eval("firstvalue([null])") == "null")
        #expect(try eval("firstvalue(nothing, 2)") == "2")
    }

    @Test func `list and array build lists; object builds an object from pairs`() throws {
        #expect(try eval(#"list(1, "a", [2])"#) == #"[1, "a", [2]]"#)
        #expect(try eval("list()") == "[]")
        #expect(try eval("array(1)") == "[1]")
        #expect(try eval(#"object("a", 1, "b", "x")"#) == #"{a: 1, b: "x"}"#)
        #expect(try eval("object()") == "{}")
        #expect(evaluationError(#"object("a")"#) == .evaluation(message: "object() takes key, value pairs; got 1 arguments"))
        #expect(evaluationError("object(1, 2)") == .evaluation(message: "no implementation of object(number, number)"))
    }
}

@Suite("Dataview functions: values, dates and links") struct DataviewValueFunctionTests {
    @Test func `default replaces null, element by element in a list`() throws {
        #expect(try eval("default(nothing, 3)") == "3")
        #expect(try eval("default(missing, \"none\")") == #""none""#)
        #expect(try eval("default(rating, 0)") == "4.5")
        #expect(try eval("default([1, null], 3)") == "[1, 3]")
        #expect(try eval("default(0, 3)") == "0")
    }

    @Test func `choice picks by truthiness`() throws {
        #expect(try eval(#"choice(true, "y", "n")"#) == #""y""#)
        #expect(try eval(#"choice(0, "y", "n")"#) == #""n""#)
        #expect(try eval(#"choice(nothing, 1, 2)"#) == "2")
        #expect(try eval(#"choice([], 1, 2)"#) == "[]")  // a list condition is mapped over, as in Dataview
        #expect(try eval(#"choice(rating > 4, "good", "meh")"#) == #""good""#)
    }

    @Test func `typeof names every type`() throws {
        let cases = [
            ("1", "number"), (#""a""#, "string"), ("true", "boolean"), ("null", "null"), ("[1]", "array"),
            ("{a: 1}", "object"), ("date(today)", "date"), ("dur(1 d)", "duration"), ("[[Alpha]]", "link"),
            ("(x) => x", "function"), ("rows", "array"), ("file", "object"),
        ]
        for (expression, type) in cases {
            #expect(try eval("typeof(\(expression))") == "\"\(type)\"", "typeof(\(expression))")
        }
    }

    @Test func `number takes the first number in a text`() throws {
        #expect(try eval(#"number("abc 12.5 def")"#) == "12.5")
        #expect(try eval(#"number("-3 apples")"#) == "-3")
        #expect(try eval(#"number("none")"#) == "null")
        #expect(try eval("number(7)") == "7")
        #expect(try eval("number(nothing)") == "null")
        #expect(try eval(#"number(["1", "x"])"#) == "[1, null]")
    }

    @Test func `string gives a value's text`() throws {
        #expect(try eval("string(1)") == #""1""#)
        #expect(try eval("string(1.5)") == #""1.5""#)
        #expect(try eval("string(true)") == #""true""#)
        #expect(try eval("string(nothing)") == #""-""#)
        #expect(try eval("string([1, [2, 3]])") == #""1, [2, 3]""#)
        #expect(try eval("string({a: 1, b: \"x\"})") == #""{ a: 1, b: x }""#)
        #expect(try eval("string(date(2024-01-05))") == #""January 05, 2024""#)
        #expect(try eval("string(date(2024-01-05T14:07))") == #""2:07 PM - January 05, 2024""#)
        #expect(try eval("string(dur(90 min))") == #""1 hour, 30 minutes""#)
        #expect(try eval("string([[Alpha]])") == #""[[Alpha|Alpha]]""#)
        #expect(try eval("string(file.link)") == #""[[Reading/DDIA|DDIA]]""#)
    }

    @Test func `date parses text, keeps dates, reads links, and is null otherwise`() throws {
        #expect(try eval(#"date("2024-01-31")"#) == "date(2024-01-31)")
        #expect(try eval(#"date("2024-01-31T08:15")"#) == "date(2024-01-31T08:15:00)")
        #expect(try eval(#"date("yesterday")"#) == "date(2024-01-30)")
        #expect(try eval(#"date("nonsense")"#) == "null")
        #expect(try eval("date(nothing)") == "null")
        #expect(try eval("date(5)") == "null")
        #expect(try eval("date(date(2024-01-01))") == "date(2024-01-01)")
        #expect(try eval(#"date(row["Due Date"])"#) == "date(2024-02-10)")
    }

    @Test func `date of text and a format reads it as Luxon's fromFormat does`() throws {
        #expect(try eval(#"date("2024-01-31", "yyyy-MM-dd")"#) == "date(2024-01-31)")
        #expect(try eval(#"date("31/01/2024", "dd/MM/yyyy")"#) == "date(2024-01-31)")
        #expect(try eval(#"date("20240131", "yyyyMMdd")"#) == "date(2024-01-31)")
        #expect(try eval(#"date("Jan 5, 2024", "MMM d, yyyy")"#) == "date(2024-01-05)")
        #expect(try eval(#"date("january 05 2024 3:04 PM", "MMMM dd yyyy h:mm a")"#) == "date(2024-01-05T15:04:00)")
        #expect(try eval(#"date("12 AM 2024-01-05", "h a yyyy-MM-dd")"#) == "date(2024-01-05T00:00:00)")
        #expect(try eval(#"date("Meeting 2024-01-05T09:30", "'Meeting' yyyy-MM-dd'T'HH:mm")"#) == "date(2024-01-05T09:30:00)")
        #expect(try eval(#"date("2024-01-05 +02:00", "yyyy-MM-dd ZZ")"#) == "date(2024-01-05T00:00:00+02:00)")
        #expect(try eval(#"date("Friday 2024-01-05", "EEEE yyyy-MM-dd")"#) == "date(2024-01-05)")
        #expect(try eval(#"date("2024-036", "yyyy-ooo")"#) == "date(2024-02-05)")
        // Dataview maps date(text) over a list but not date(text, format): a list there fails the row.
        #expect(evaluationError(#"date(list("01/02/24", "03/04/99"), "dd/MM/yy")"#) == .evaluation(message: "no implementation of date(array, string)"))
        #expect(try eval(#"map(list("01/02/24", "03/04/99"), (t) => date(t, "dd/MM/yy"))"#) == "[date(2024-02-01), date(1999-04-03)]")
        // Units above the largest one given are today's (2024-01-31 in these tests), those below start at their first.
        #expect(try eval(#"date("05-12", "MM-dd")"#) == "date(2024-05-12)")
        #expect(try eval(#"date("12:30", "HH:mm")"#) == "date(2024-01-31T12:30:00)")
        #expect(try eval(#"date("2023", "yyyy")"#) == "date(2023-01-01)")
        #expect(try eval(#"date("1706659200000", "x").year"#) == "2024")
        #expect(try eval(#"date("id 1706659200 s", "X").year"#) == "2024")
        #expect(try eval(#"date(null, "yyyy")"#) == "null")
        // Text that does not match, or a day that does not exist, fails the row (Dataview throws).
        for (text, format) in [("2024-02-30", "yyyy-MM-dd"), ("2024-01-31x", "yyyy-MM-dd"), ("24-01-31", "yyyy-MM-dd"),
                               ("Thursday 2024-01-05", "EEEE yyyy-MM-dd"), ("13:00 PM", "h:mm a")] {
            #expect(evaluationError("date(\"\(text)\", \"\(format)\")") != nil, "\(text) with \(format)")
        }
    }

    @Test func `date of text with a space instead of T is null, as in Dataview`() throws {
        #expect(try eval(#"date("2021-01-01 10:00")"#) == "null")
    }

    @Test func `date of a link: its display, its file name, or the linked note's day`() throws {
        #expect(try eval("date([[2024-01-15]])") == "date(2024-01-15)")
        #expect(try eval("date([[Journal|2024-03-02]])") == "date(2024-03-02)")
        #expect(try eval("date([[Alpha]])") == "date(2023-06-01)")
        #expect(try eval("date([[Missing]])") == "null")
    }

    @Test func `dur parses text and keeps durations`() throws {
        #expect(try eval(#"dur("3 days")"#) == "dur(P3D)")
        #expect(try eval(#"dur("1h 30m")"#) == "dur(PT1H30M)")
        #expect(try eval(#"dur("nope")"#) == "null")
        #expect(try eval("dur(nothing)") == "null")
        #expect(try eval("dur(dur(2 weeks))") == "dur(P2W)")
    }

    @Test func `dateformat with Luxon tokens, mapped over lists, null stays null`() throws {
        #expect(try eval(#"dateformat(date(2024-01-05), "yyyy-MM-dd")"#) == #""2024-01-05""#)
        #expect(try eval(#"dateformat(date(2024-01-05T14:07), "EEEE d MMMM, HH:mm")"#) == #""Friday 5 January, 14:07""#)
        #expect(try eval(#"dateformat(nothing, "yyyy")"#) == "null")
        #expect(try eval(#"dateformat(list(date(2024-01-05), date(2024-03-01)), "MMM")"#) == #"["Jan", "Mar"]"#)
        #expect(evaluationError(#"dateformat("2024-01-05", "yyyy")"#) != nil)
    }

    @Test func `striptime drops the time of day`() throws {
        #expect(try eval("striptime(date(2024-01-31T10:30))") == "date(2024-01-31)")
        #expect(try eval("striptime(date(2024-01-31))") == "date(2024-01-31)")
        #expect(try eval("striptime(nothing)") == "null")
        #expect(try eval("striptime(date(now)) = date(today)") == "true")
    }

    @Test func `link makes a link from a path, with a display, mapped over lists`() throws {
        #expect(try eval(#"link("Alpha")"#) == "[[Alpha.md]]")
        #expect(try eval(#"link("Alpha", "A")"#) == "[[Alpha.md|A]]")
        #expect(try eval(#"link([[Alpha|old]], "new")"#) == "[[Alpha.md|new]]")
        #expect(try eval(#"link(["A", "B"])"#) == "[[[A.md]], [[B.md]]]")
        #expect(try eval("link(nothing)") == "null")
        #expect(try eval(#"link("Alpha") = [[Alpha]]"#) == "true")
    }

    @Test func `meta describes a link`() throws {
        #expect(try eval("meta([[Alpha#Intro|The intro]])")
            == #"{display: "The intro", embed: false, path: "Alpha.md", subpath: "Intro", type: "header"}"#)
        // A block's subpath is its id without the `^`, as Dataview's own tests have it.
        #expect(try eval("meta([[Alpha#^b1]])") == #"{display: null, embed: false, path: "Alpha.md", subpath: "b1", type: "block"}"#)
        #expect(try eval("meta(![[diagram.png]])") == #"{display: null, embed: true, path: "diagram.png", subpath: null, type: "file"}"#)
        #expect(try eval("meta([[Alpha]]).path") == #""Alpha.md""#)
    }

    @Test func `a wrong number of arguments is an error naming the function`() {
        #expect(evaluationError("typeof(1, 2)") == .evaluation(message: "typeof() takes 1 argument, got 2"))
        #expect(evaluationError(#"contains("a")"#) == .evaluation(message: "contains() takes 2 arguments, got 1"))
        #expect(evaluationError("lower(\"a\", \"b\")") == .evaluation(message: "lower() takes 1 argument, got 2"))
        #expect(evaluationError("round()") == .evaluation(message: "round() needs at least 1 argument"))
    }

    @Test func `every function the issue lists is supported`() {
        let required = [
            "contains", "icontains", "containsword", "length", "lower", "upper", "startswith", "endswith", "regexmatch",
            "replace", "split", "join", "default", "choice", "round", "min", "max", "sum", "filter", "map", "any", "all",
            "flat", "sort", "reverse", "link", "date", "dateformat", "typeof", "number", "string",
            "econtains", "regextest", "regexreplace", "unique", "nonnull", "firstvalue", "truncate", "padleft", "padright",
            "striptime", "product", "average", "object", "list", "meta",
            "elink", "embed", "reduce", "localtime", "currencyformat", "durationformat",
        ]
        #expect(Set(required).subtracting(DataviewFunctions.names).isEmpty)
    }
}
