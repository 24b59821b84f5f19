/// Tests of `DataviewParser`: one scenario per construct of Dataview's query language (query types, data
/// commands, sources, expressions), and syntax errors with their line, column and what was expected.
/// Expected trees follow Dataview's grammar (`src/query/parse.ts`, `src/expression/parse.ts`), as
/// described in dataview-spec.md §4–§6.
import Testing
@testable import RhizomeCore

// MARK: Helpers

/// A fully parenthesised rendering of an expression tree (`(+ 1 (* 2 3))`), to compare parse results.
func sexp(_ expression: DataviewExpression) -> String {
    switch expression {
    case .literal(let value): return sexp(value)
    case .variable(let name): return name
    case .member(let base, let name): return "(. \(sexp(base)) \(name))"
    case .index(let base, let index): return "([] \(sexp(base)) \(sexp(index)))"
    case .call(let name, let arguments, _, _): return "(call \(name)" + arguments.map { " " + sexp($0) }.joined() + ")"
    case .binary(let op, let left, let right): return "(\(op.rawValue) \(sexp(left)) \(sexp(right)))"
    case .not(let inner): return "(! \(sexp(inner)))"
    case .negate(let inner): return "(neg \(sexp(inner)))"
    case .list(let items): return "[" + items.map(sexp).joined(separator: " ") + "]"
    case .object(let pairs): return "{" + pairs.map { "\($0.key): \(sexp($0.value))" }.joined(separator: ", ") + "}"
    case .lambda(let parameters, let body): return "(lambda (\(parameters.joined(separator: " "))) \(sexp(body)))"
    case .apply(let function, let arguments): return "(apply \(sexp(function))" + arguments.map { " " + sexp($0) }.joined() + ")"
    case .link(let text, let isEmbed): return (isEmbed ? "!" : "") + "[[\(text)]]"
    }
}

/// Literal values in `sexp`: strings in quotes with their content as parsed (no escaping), dates and
/// durations by their ISO text.
func sexp(_ value: DataviewValue) -> String {
    switch value {
    case .string(let text): return "\"\(text)\""
    case .date(let date): return "date:\(date.isoText)"
    case .duration(let duration): return "dur:\(duration.isoText)"
    case .null: return "null"
    default: return DataviewText.plain(value)
    }
}

func sexp(_ source: DataviewSource) -> String {
    switch source {
    case .tag(let name): return "#\(name)"
    case .folder(let path): return "\"\(path)\""
    case .linksTo(let text): return "[[\(text)]]"
    case .linkedFrom(let text): return "outgoing([[\(text)]])"
    case .and(let left, let right): return "(and \(sexp(left)) \(sexp(right)))"
    case .or(let left, let right): return "(or \(sexp(left)) \(sexp(right)))"
    case .not(let inner): return "(not \(sexp(inner)))"
    }
}

/// The query's type line and each data command on a line of its own, as `sexp` renders them.
func outline(_ query: DataviewQuery) -> [String] {
    var lines: [String]
    switch query.kind {
    case .list(let expression, let withoutID):
        lines = ["LIST" + (withoutID ? " WITHOUT ID" : "") + (expression.map { " " + sexp($0) } ?? "")]
    case .table(let columns, let withoutID):
        lines = ["TABLE" + (withoutID ? " WITHOUT ID" : "") + columns.map { " \(sexp($0.expression)) AS <\($0.name)>" }.joined(separator: ",")]
    case .task:
        lines = ["TASK"]
    }
    for command in query.commands {
        switch command {
        case .from(let source): lines.append("FROM " + sexp(source))
        case .where(let expression): lines.append("WHERE " + sexp(expression))
        case .sort(let keys):
            lines.append("SORT " + keys.map { sexp($0.expression) + ($0.isAscending ? " ASC" : " DESC") }.joined(separator: ", "))
        case .groupBy(let expression, let name): lines.append("GROUP BY \(sexp(expression)) AS <\(name)>")
        case .flatten(let expression, let name): lines.append("FLATTEN \(sexp(expression)) AS <\(name)>")
        case .limit(let count): lines.append("LIMIT \(sexp(count))")
        }
    }
    return lines
}

private func parse(_ query: String) throws -> [String] {
    outline(try DataviewParser.parse(query))
}

private func expression(_ text: String) throws -> String {
    sexp(try DataviewParser.parseExpression(text))
}

/// The error `parse` throws for `query`, or nil if it parses.
private func parseError(_ query: String) -> DataviewError? {
    do {
        _ = try DataviewParser.parse(query)
        return nil
    } catch {
        return error
    }
}

private func expectSyntaxError(
    _ query: String, _ message: String, line: Int, column: Int, sourceLocation: SourceLocation = #_sourceLocation
) {
    let lines = query.split(separator: "\n", omittingEmptySubsequences: false)
    let expected = DataviewError.syntax(message: message, line: line, column: column, sourceLine: String(lines[line - 1]))
    #expect(parseError(query) == expected, sourceLocation: sourceLocation)
}

// MARK: Query types

@Suite("Dataview parser: query types") struct DataviewQueryTypeTests {
    @Test func `LIST alone lists the notes`() throws {
        #expect(try parse("LIST") == ["LIST"])
    }

    @Test func `LIST with an expression shows it next to each note`() throws {
        #expect(try parse("LIST file.mtime") == ["LIST (. file mtime)"])
    }

    @Test func `LIST WITHOUT ID with and without an expression`() throws {
        #expect(try parse("LIST WITHOUT ID status") == ["LIST WITHOUT ID status"])
        #expect(try parse("LIST WITHOUT ID FROM #a") == ["LIST WITHOUT ID", "FROM #a"])
        #expect(try parse("list without \n  id rating") == ["LIST WITHOUT ID rating"])
    }

    @Test func `TABLE columns are named by AS, a quoted AS, or their source text`() throws {
        let query = try DataviewParser.parse(#"TABLE status, file.mtime AS "Last modified", priority AS p, length(rows)"#)
        guard case .table(let columns, let withoutID) = query.kind else {
            Issue.record("not a table: \(query.kind)")
            return
        }
        #expect(!withoutID)
        #expect(columns.map(\.name) == ["status", "Last modified", "p", "length(rows)"])
        #expect(columns.map { sexp($0.expression) } == ["status", "(. file mtime)", "priority", "(call length rows)"])
    }

    @Test func `a column without AS is named by its source text as written, spaces and all`() throws {
        let query = try DataviewParser.parse("TABLE round(rating  /  2, 1) , \"a\" + b\nFROM #x")
        guard case .table(let columns, _) = query.kind else { Issue.record("not a table"); return }
        #expect(columns.map(\.name) == ["round(rating  /  2, 1)", "\"a\" + b"])
    }

    @Test func `TABLE WITHOUT ID drops the note column`() throws {
        #expect(try parse("TABLE WITHOUT ID file.name AS Name, status")
            == ["TABLE WITHOUT ID (. file name) AS <Name>, status AS <status>"])
    }

    @Test func `TABLE without columns`() throws {
        #expect(try parse("TABLE FROM #a") == ["TABLE", "FROM #a"])
        #expect(try parse("TABLE") == ["TABLE"])
    }

    @Test func `TASK with data commands`() throws {
        #expect(try parse("TASK FROM \"Projects\" WHERE !completed") == ["TASK", "FROM \"Projects\"", "WHERE (! completed)"])
    }

    @Test func `the query keeps its text and its FROM source`() throws {
        let text = "LIST FROM #a WHERE x"
        let query = try DataviewParser.parse(text)
        #expect(query.text == text)
        #expect(query.source.map(sexp) == "#a")
        #expect(try DataviewParser.parse("LIST WHERE x").source == nil)
    }

    @Test func `expressions lists every expression of the query`() throws {
        let query = try DataviewParser.parse("TABLE a, b WHERE c SORT d GROUP BY e FLATTEN f LIMIT 1")
        #expect(query.expressions.map(sexp) == ["a", "b", "c", "d", "e", "f"])
    }
}

// MARK: Data commands

@Suite("Dataview parser: data commands") struct DataviewCommandTests {
    @Test func `FROM WHERE and LIMIT`() throws {
        #expect(try parse("LIST FROM #project WHERE status = \"open\" LIMIT 10")
            == ["LIST", "FROM #project", "WHERE (= status \"open\")", "LIMIT 10"])
    }

    @Test func `SORT with several keys and every direction spelling`() throws {
        #expect(try parse("LIST SORT file.mtime DESC, file.name, rating ASCENDING, due DESCENDING, size asc, x desc")
            == ["LIST", "SORT (. file mtime) DESC, (. file name) ASC, rating ASC, due DESC, size ASC, x DESC"])
    }

    @Test func `SORT direction follows any expression`() throws {
        #expect(try parse("LIST SORT length(file.outlinks) + 1 DESC") == ["LIST", "SORT (+ (call length (. file outlinks)) 1) DESC"])
    }

    @Test func `GROUP BY is named by its source text or by AS`() throws {
        #expect(try parse("LIST GROUP BY file.folder") == ["LIST", "GROUP BY (. file folder) AS <file.folder>"])
        #expect(try parse("LIST GROUP BY dateformat(file.day, \"yyyy\") AS year")
            == ["LIST", "GROUP BY (call dateformat (. file day) \"yyyy\") AS <year>"])
        #expect(try parse("LIST GROUP BY type AS \"Kind of note\"") == ["LIST", "GROUP BY type AS <Kind of note>"])
    }

    @Test func `FLATTEN is named by its source text or by AS`() throws {
        #expect(try parse("TABLE a FLATTEN authors") == ["TABLE a AS <a>", "FLATTEN authors AS <authors>"])
        #expect(try parse("TASK FLATTEN file.tasks AS t") == ["TASK", "FLATTEN (. file tasks) AS <t>"])
    }

    @Test func `data commands repeat and come in any order`() throws {
        #expect(try parse("LIST WHERE a LIMIT 5 SORT b WHERE c GROUP BY d FLATTEN e LIMIT 2 SORT f DESC") == [
            "LIST", "WHERE a", "LIMIT 5", "SORT b ASC", "WHERE c", "GROUP BY d AS <d>", "FLATTEN e AS <e>", "LIMIT 2",
            "SORT f DESC",
        ])
    }

    @Test func `keywords are case-insensitive`() throws {
        #expect(try parse("table without id x from #a where y sort z Desc group by w as k flatten v As u limit 3") == [
            "TABLE WITHOUT ID x AS <x>", "FROM #a", "WHERE y", "SORT z DESC", "GROUP BY w AS <k>", "FLATTEN v AS <u>", "LIMIT 3",
        ])
        #expect(try parse("List Group By x") == ["LIST", "GROUP BY x AS <x>"])
        #expect(try parse("LIST WHERE a AND b oR c") == ["LIST", "WHERE (or (and a b) c)"])
    }

    @Test func `double-slash comments run to the end of the line`() throws {
        let query = """
            // the open projects
            TABLE status // the state
            FROM #project // only projects
            // WHERE ignored = true
            WHERE url != "https://example.com" // a URL in a string is no comment
            """
        #expect(try parse(query) == [
            "TABLE status AS <status>", "FROM #project", "WHERE (!= url \"https://example.com\")",
        ])
    }

    @Test func `a comment after a column or group key is not part of its name`() throws {
        #expect(try parse("TABLE status // the state\nFROM #a") == ["TABLE status AS <status>", "FROM #a"])
        #expect(try parse("LIST GROUP BY type // by type") == ["LIST", "GROUP BY type AS <type>"])
    }

    @Test func `queries span lines, with CRLF line ends too`() throws {
        let expected = ["TABLE a AS <a>, (+ b 1) AS <b + 1>", "FROM (or #x #y)", "WHERE (> a 1)", "SORT a DESC"]
        #expect(try parse("TABLE\n  a,\n  b + 1\nFROM #x\n  or #y\nWHERE\n  a > 1\nSORT a\n  DESC") == expected)
        #expect(try parse("TABLE\r\n  a,\r\n  b + 1\r\nFROM #x\r\n  or #y\r\nWHERE\r\n  a > 1\r\nSORT a\r\n  DESC") == expected)
    }
}

// MARK: Sources

@Suite("Dataview parser: FROM sources") struct DataviewSourceTests {
    private func source(_ text: String) throws -> String {
        try DataviewParser.parse("LIST FROM " + text).source.map(sexp) ?? "none"
    }

    @Test func `tags, nested tags and tags with dashes, underscores and letters of any script`() throws {
        #expect(try source("#project") == "#project")
        #expect(try source("#project/alpha/v2") == "#project/alpha/v2")
        #expect(try source("#to-do_later") == "#to-do_later")
        #expect(try source("#größe") == "#größe")
    }

    @Test func `folders and files in quotes`() throws {
        #expect(try source("\"Projects/Active\"") == "\"Projects/Active\"")
        #expect(try source("\"\"") == "\"\"")
        #expect(try source("\"Notes/Idea.md\"") == "\"Notes/Idea.md\"")
    }

    @Test func `a link source selects the notes linking to it; outgoing the notes it links to`() throws {
        #expect(try source("[[Project Alpha]]") == "[[Project Alpha]]")
        #expect(try source("[[]]") == "[[]]")
        #expect(try source("outgoing([[Project Alpha]])") == "outgoing([[Project Alpha]])")
        #expect(try source("outgoing( [[Hub]] )") == "outgoing([[Hub]])")
    }

    @Test func `and, or, & and | combine sources`() throws {
        #expect(try source("#a and \"b\"") == "(and #a \"b\")")
        #expect(try source("#a or [[b]]") == "(or #a [[b]])")
        #expect(try source("#a & #b | #c") == "(or (and #a #b) #c)")
        #expect(try source("#a AND #b Or #c") == "(or (and #a #b) #c)")
    }

    @Test func `and and or have one precedence and group from the left, as in Dataview`() throws {
        #expect(try source("#a or #b and #c") == "(and (or #a #b) #c)")
        #expect(try source("#a and #b or #c and #d") == "(and (or (and #a #b) #c) #d)")
    }

    @Test func `- and ! negate a source`() throws {
        #expect(try source("-#archive") == "(not #archive)")
        #expect(try source("!\"Templates\"") == "(not \"Templates\")")
        #expect(try source("#a and -#a/old") == "(and #a (not #a/old))")
        #expect(try source("--#a") == "(not (not #a))")
    }

    @Test func `parentheses group sources`() throws {
        #expect(try source("(#a or #b) and -(\"c\" or [[d]])") == "(and (or #a #b) (not (or \"c\" [[d]])))")
        #expect(try source("#a or (#b and #c)") == "(or #a (and #b #c))")
    }

    @Test func `a source ends where the next data command starts`() throws {
        #expect(try parse("LIST FROM #a or #b WHERE x") == ["LIST", "FROM (or #a #b)", "WHERE x"])
    }
}

// MARK: Expressions

@Suite("Dataview parser: literals") struct DataviewLiteralTests {
    @Test func `strings: only escaped quotes and backslashes are escapes, other backslashes stay`() throws {
        #expect(try expression(#""say \"hi\"""#) == #""say "hi"""#)
        #expect(try expression(#""a\\b""#) == #""a\b""#)
        #expect(try expression(#""\d+\.\w""#) == #""\d+\.\w""#)
        #expect(try expression(#""line\nbreak""#) == #""line\nbreak""#)
        #expect(try expression(#""""#) == #""""#)
    }

    @Test func `single-quoted strings are accepted too`() throws {
        #expect(try expression(#"'it\'s'"#) == "\"it's\"")
        #expect(try expression(#"'say "hi"'"#) == #""say "hi"""#)
    }

    @Test func `numbers, negative numbers and decimals`() throws {
        #expect(try expression("42") == "42")
        #expect(try expression("3.25") == "3.25")
        #expect(try expression("-7") == "-7")
        #expect(try expression("-0.5") == "-0.5")
        #expect(try expression("3-1") == "(- 3 1)")
    }

    @Test func `booleans in both spellings Dataview accepts, and null`() throws {
        #expect(try expression("true") == "true")
        #expect(try expression("false") == "false")
        #expect(try expression("True") == "true")
        #expect(try expression("False") == "false")
        #expect(try expression("null") == "null")
    }

    @Test func `identifiers that only start like a keyword value are variables`() throws {
        #expect(try expression("trueish") == "trueish")
        #expect(try expression("nullable") == "nullable")
    }

    @Test func `lists, nested and empty`() throws {
        #expect(try expression("[1, \"a\", [2, 3], []]") == "[1 \"a\" [2 3] []]")
        #expect(try expression("[ ]") == "[]")
    }

    @Test func `objects with name and string keys`() throws {
        #expect(try expression("{a: 1, \"b c\": [2], d: {e: null}}") == "{a: 1, b c: [2], d: {e: null}}")
        #expect(try expression("{}") == "{}")
    }

    @Test func `links and embeds keep their text as written`() throws {
        #expect(try expression("[[Note]]") == "[[Note]]")
        #expect(try expression("[[Folder/Note#Heading|Shown]]") == "[[Folder/Note#Heading|Shown]]")
        #expect(try expression("[[Note#^block1]]") == "[[Note#^block1]]")
        #expect(try expression("![[diagram.png]]") == "![[diagram.png]]")
        #expect(try expression("[[Note]].status") == "(. [[Note]] status)")
    }

    @Test func `date literals: days, months, times, offsets`() throws {
        #expect(try expression("date(2024-01-31)") == "date:2024-01-31")
        #expect(try expression("date( 2024-01-31 )") == "date:2024-01-31")
        #expect(try expression("date(2024-01)") == "date:2024-01-01")
        #expect(try expression("date(2024-01-31T10:30)") == "date:2024-01-31T10:30:00")
        #expect(try expression("date(2024-01-31T10:30:15.250Z)") == "date:2024-01-31T10:30:15.250Z")
        #expect(try expression("date(2024-01-31T10:30+02:00)") == "date:2024-01-31T10:30:00+02:00")
    }

    @Test func `relative dates are read when the query runs, not when it is parsed`() throws {
        #expect(try expression("date(today)") == "(call date \"today\")")
        #expect(try expression("date(NOW)") == "(call date \"now\")")
        #expect(try expression("date(eom)") == "(call date \"eom\")")
        #expect(try expression("date(start-of-week)") == "(call date \"sow\")")
        #expect(try expression("date(end-of-year)") == "(call date \"eoy\")")
    }

    @Test func `date of an expression is a call`() throws {
        #expect(try expression("date(file.name)") == "(call date (. file name))")
        #expect(try expression("date(\"2024-01-31\")") == "(call date \"2024-01-31\")")
        #expect(try expression("date(2024-02-30)") == "(call date (- (- 2024 2) 30))")
    }

    @Test func `duration literals in long, short and mixed forms`() throws {
        #expect(try expression("dur(3 days)") == "dur:P3D")
        #expect(try expression("dur(1d 2h)") == "dur:P1DT2H")
        #expect(try expression("dur(1d2h30m)") == "dur:P1DT2H30M")
        #expect(try expression("dur(1 year, 2 months)") == "dur:P1Y2M")
        #expect(try expression("dur(1.5 hours)") == "dur:PT1.5H")
        #expect(try expression("dur(2 wks)") == "dur:P2W")
        #expect(try expression("dur(x)") == "(call dur x)")
    }
}

@Suite("Dataview parser: expressions") struct DataviewExpressionTests {
    @Test func `field access with dots and brackets`() throws {
        #expect(try expression("file.name") == "(. file name)")
        #expect(try expression("row[\"Due Date\"]") == "([] row \"Due Date\")")
        #expect(try expression("file.tasks[0].text") == "(. ([] (. file tasks) 0) text)")
        #expect(try expression("a[b[1]]") == "([] a ([] b 1))")
        #expect(try expression("this.file.link") == "(. (. this file) link)")
    }

    @Test func `identifiers with dashes, underscores, digits and other scripts are one variable`() throws {
        #expect(try expression("book-rating") == "book-rating")
        #expect(try expression("x-1") == "x-1")
        #expect(try expression("due_date2") == "due_date2")
        #expect(try expression("größe") == "größe")
        #expect(try expression("日付") == "日付")
    }

    @Test func `subtraction between names needs a space before the minus`() throws {
        #expect(try expression("book-rating - 1") == "(- book-rating 1)")
        #expect(try expression("a -b") == "(- a b)")
        #expect(try expression("a- 1") == "(- a 1)")
        #expect(try expression("a - -1") == "(- a -1)")
    }

    @Test func `arithmetic precedence: * / % before + -, each from the left`() throws {
        #expect(try expression("1 + 2 * 3") == "(+ 1 (* 2 3))")
        #expect(try expression("1 + 2 * 3 - 4 / 2 % 3") == "(- (+ 1 (* 2 3)) (% (/ 4 2) 3))")
        #expect(try expression("10 - 3 - 2") == "(- (- 10 3) 2)")
        #expect(try expression("8 / 4 / 2") == "(/ (/ 8 4) 2)")
        #expect(try expression("(1 + 2) * 3") == "(* (+ 1 2) 3)")
        #expect(try expression("1+2*3") == "(+ 1 (* 2 3))")
    }

    @Test func `comparisons bind looser than arithmetic and chain from the left`() throws {
        #expect(try expression("a = 1") == "(= a 1)")
        #expect(try expression("a != 1") == "(!= a 1)")
        #expect(try expression("a < 1") == "(< a 1)")
        #expect(try expression("a <= 1") == "(<= a 1)")
        #expect(try expression("a > 1") == "(> a 1)")
        #expect(try expression("a >= 1") == "(>= a 1)")
        #expect(try expression("a + 1 > b * 2") == "(> (+ a 1) (* b 2))")
        #expect(try expression("a < b < c") == "(< (< a b) c)")
    }

    @Test func `and and or have one precedence and group from the left, as in Dataview`() throws {
        #expect(try expression("a or b and c") == "(and (or a b) c)")
        #expect(try expression("a and b or c and d") == "(and (or (and a b) c) d)")
        #expect(try expression("a & b | c") == "(or (and a b) c)")
        #expect(try expression("a or (b and c)") == "(or a (and b c))")
    }

    @Test func `and and or bind looser than comparisons`() throws {
        #expect(try expression("a = 1 and b > 2 OR c") == "(or (and (= a 1) (> b 2)) c)")
    }

    @Test func `! negates the postfix expression after it`() throws {
        #expect(try expression("!a") == "(! a)")
        #expect(try expression("!a.b") == "(! (. a b))")
        #expect(try expression("!x = 1") == "(= (! x) 1)")
        #expect(try expression("!(a or b)") == "(! (or a b))")
        #expect(try expression("!!a") == "(! (! a))")
        #expect(try expression("!contains(tags, \"x\")") == "(! (call contains tags \"x\"))")
    }

    @Test func `unary minus negates a field (Dataview itself has only negative numbers)`() throws {
        #expect(try expression("-x") == "(neg x)")
        #expect(try expression("-x.y * 2") == "(* (neg (. x y)) 2)")
    }

    @Test func `lambdas with no, one and several parameters`() throws {
        #expect(try expression("(x) => x * 2") == "(lambda (x) (* x 2))")
        #expect(try expression("(a, b) => a + b") == "(lambda (a b) (+ a b))")
        #expect(try expression("() => 1") == "(lambda () 1)")
        #expect(try expression("map(xs, (x) => x.name)") == "(call map xs (lambda (x) (. x name)))")
        #expect(try expression("(x)") == "x")
    }

    @Test func `function calls, nested, with any number of arguments, names in any case`() throws {
        #expect(try expression("lower(x)") == "(call lower x)")
        #expect(try expression("list()") == "(call list)")
        #expect(try expression("length(filter(xs, (x) => x > 1))") == "(call length (call filter xs (lambda (x) (> x 1))))")
        #expect(try expression("LOWER(x)") == "(call lower x)")
        #expect(try expression("default(a, 0) + 1") == "(+ (call default a 0) 1)")
        #expect(try expression("split(s, \",\")[0]") == "([] (call split s \",\") 0)")
    }

    @Test func `a call remembers where its name starts`() throws {
        let parsed = try DataviewParser.parse("LIST\nWHERE  contains(tags, \"a\")")
        guard case .where(.call(let name, _, let line, let column)) = parsed.commands.first else {
            Issue.record("no call"); return
        }
        #expect(name == "contains")
        #expect(line == 2)
        #expect(column == 8)
    }

    @Test func `spaces are optional around operators`() throws {
        #expect(try expression("a>=1&b!=2") == "(and (>= a 1) (!= b 2))")
        #expect(try expression("a=1|b<2") == "(or (= a 1) (< b 2))")
    }
}

// MARK: Errors

@Suite("Dataview parser: errors") struct DataviewParseErrorTests {
    @Test func `a WHERE without an expression at the end of the query`() {
        expectSyntaxError("TABLE x WHERE", "expected an expression after WHERE", line: 1, column: 14)
    }

    @Test func `a WHERE followed by another command`() {
        expectSyntaxError("LIST WHERE SORT x", "expected an expression after WHERE", line: 1, column: 12)
    }

    @Test func `a # without a tag name`() {
        expectSyntaxError("LIST FROM #", "expected a tag name after `#`", line: 1, column: 11)
        expectSyntaxError("LIST FROM # and #b", "expected a tag name after `#`", line: 1, column: 11)
    }

    @Test func `an unclosed string points at its opening quote`() {
        expectSyntaxError(#"LIST WHERE title = "abc"#, #"the string is never closed (expected a closing ")"#, line: 1, column: 20)
    }

    @Test func `an unclosed link points at its opening brackets`() {
        expectSyntaxError("LIST FROM [[Some note", "the link is never closed (expected `]]`)", line: 1, column: 11)
        expectSyntaxError("LIST WHERE x = [[Some note", "the link is never closed (expected `]]`)", line: 1, column: 16)
    }

    @Test func `an unclosed parenthesis, list, call and index`() {
        expectSyntaxError("LIST WHERE (a = 1", "expected `)` to close the parenthesis", line: 1, column: 18)
        expectSyntaxError("LIST [1, 2", "expected `]` or `,` in the list", line: 1, column: 11)
        expectSyntaxError("LIST lower(x", "expected `)` or `,` in the argument list of lower(…)", line: 1, column: 13)
        expectSyntaxError("LIST x[1", "expected `]` to close the index", line: 1, column: 9)
        expectSyntaxError("LIST FROM (#a or #b", "expected `)` to close the source", line: 1, column: 20)
    }

    @Test func `an unknown function is named, with where it starts and the supported functions`() {
        let error = parseError("LIST WHERE foo(x) and bar")
        #expect(error == .unknownFunction(name: "foo", line: 1, column: 12, sourceLine: "LIST WHERE foo(x) and bar"))
        #expect(error?.code == "query-unknown-function")
        let description = error?.errorDescription ?? ""
        #expect(description.hasPrefix("query:1:12: unknown function `foo`; supported: "))
        #expect(description.contains("contains, containsword"))
        #expect(description.contains("regexmatch"))
    }

    @Test func `GROUP without BY`() {
        expectSyntaxError("LIST GROUP x", "expected BY after GROUP", line: 1, column: 12)
        expectSyntaxError("LIST GROUP", "expected BY after GROUP", line: 1, column: 11)
    }

    @Test func `WITHOUT without ID`() {
        expectSyntaxError("TABLE WITHOUT file.name", "expected ID after WITHOUT", line: 1, column: 15)
    }

    @Test func `a second FROM, and a FROM after other commands`() {
        expectSyntaxError("LIST FROM #a FROM #b", "a query has only one FROM", line: 1, column: 14)
        expectSyntaxError("LIST WHERE x FROM #a", "FROM must come before the other data commands", line: 1, column: 14)
    }

    @Test func `CALENDAR queries are refused at the keyword`() {
        expectSyntaxError(
            "CALENDAR file.day", "CALENDAR queries draw a calendar in Obsidian and are not supported; use LIST or TABLE",
            line: 1, column: 1)
    }

    @Test func `an unknown query type or an empty query`() {
        expectSyntaxError("  SELECT * FROM x", "expected a query type: LIST, TABLE or TASK, not `SELECT`", line: 1, column: 3)
        expectSyntaxError("", "expected a query type: LIST, TABLE or TASK", line: 1, column: 1)
        expectSyntaxError("// only a comment", "expected a query type: LIST, TABLE or TASK", line: 1, column: 18)
    }

    @Test func `garbage after a query`() {
        expectSyntaxError("LIST FROM #a garbage", "expected FROM, WHERE, SORT, GROUP BY, FLATTEN or LIMIT, not `garbage`", line: 1, column: 14)
        expectSyntaxError("TASK x", "expected FROM, WHERE, SORT, GROUP BY, FLATTEN or LIMIT, not `x`", line: 1, column: 6)
        expectSyntaxError("LIST WHERE a b", "expected FROM, WHERE, SORT, GROUP BY, FLATTEN or LIMIT, not `b`", line: 1, column: 14)
    }

    @Test func `an error on a later line of a multi-line query`() {
        expectSyntaxError("TABLE x\nWHERE", "expected an expression after WHERE", line: 2, column: 6)
        expectSyntaxError("TABLE a,\n  b +\n  FROM #x", "expected an expression, not the keyword FROM", line: 3, column: 3)
    }

    @Test func `an operator without its right side`() {
        expectSyntaxError("LIST WHERE a = ", "expected an expression, but the query ends here", line: 1, column: 16)
        expectSyntaxError("LIST WHERE a * )", "expected an expression, not `)`", line: 1, column: 16)
    }

    @Test func `LIMIT takes an expression evaluated when the query runs`() throws {
        #expect(try parse("LIST LIMIT this.n") == ["LIST", "LIMIT (. this n)"])
        #expect(try parse("LIST LIMIT 2 + 1") == ["LIST", "LIMIT (+ 2 1)"])
    }

    @Test func `sort is a field unless a sort key follows it`() throws {
        #expect(try parse("LIST WHERE sort > 2 SORT sort") == ["LIST", "WHERE (> sort 2)", "SORT sort ASC"])
        #expect(try parse("TABLE sort, x SORT file.name") == ["TABLE sort AS <sort>, x AS <x>", "SORT (. file name) ASC"])
        #expect(try parse("LIST sort") == ["LIST sort"])
        #expect(try parse("LIST SORT x") == ["LIST", "SORT x ASC"])
        #expect(try parse("LIST sort(list(2, 1))") == ["LIST (call sort (call list 2 1))"])
    }

    @Test func `LIMIT needs a whole number`() {
        expectSyntaxError("LIST LIMIT \"x\"", "expected a whole number after LIMIT", line: 1, column: 12)
        expectSyntaxError("LIST LIMIT true", "expected a whole number after LIMIT", line: 1, column: 12)
        expectSyntaxError("LIST LIMIT 2.5", "expected a whole number after LIMIT", line: 1, column: 12)
        expectSyntaxError("LIST LIMIT", "expected a whole number after LIMIT", line: 1, column: 11)
    }

    @Test func `AS without a name`() {
        expectSyntaxError("TABLE a AS", "expected a name after AS (an identifier or a \"quoted name\")", line: 1, column: 11)
    }

    @Test func `a source that is not one`() {
        expectSyntaxError(
            "LIST FROM status", "expected a source: #tag, \"folder\", [[note]] or outgoing([[note]]), not `status`", line: 1, column: 11)
        expectSyntaxError("LIST FROM outgoing(#a)", "expected a link `[[note]]` inside outgoing(…)", line: 1, column: 20)
    }

    @Test func `an object without a colon`() {
        expectSyntaxError("LIST {a 1}", "expected `:` after the object key `a`", line: 1, column: 9)
    }

    @Test func `a keyword where a field was expected`() {
        expectSyntaxError("LIST WHERE x = limit", "expected an expression, not the keyword LIMIT", line: 1, column: 16)
    }

    @Test func `parseExpression rejects trailing text`() {
        #expect(throws: DataviewError.syntax(message: "unexpected `2` after the expression", line: 1, column: 3, sourceLine: "1 2")) {
            _ = try DataviewParser.parseExpression("1 2")
        }
    }

    @Test func `syntax errors have a stable code and a query:line:column description`() {
        let error = parseError("TABLE x WHERE")
        #expect(error?.code == "query-syntax")
        #expect(error?.errorDescription == "query:1:14: expected an expression after WHERE")
    }

    @Test func `the diagnostic puts a caret under the column`() {
        #expect(parseError("TABLE x WHERE")?.diagnostic == """
            query:1:14: expected an expression after WHERE
                TABLE x WHERE
                             ^
            """)
        #expect(parseError("LIST FROM #a\nWHERE foo(x)")?.diagnostic.hasSuffix("""
                WHERE foo(x)
                      ^
            """) == true)
    }

    @Test func `the caret keeps the tabs of the query line`() {
        #expect(parseError("LIST\n\tWHERE")?.diagnostic == "query:2:7: expected an expression after WHERE\n    \tWHERE\n    \t     ^")
    }

    @Test func `the diagnostic shows the failing line of a multi-line query`() {
        #expect(parseError("TABLE a\r\nFROM #x\r\nWHERE b = \"open")?.diagnostic == """
            query:3:11: the string is never closed (expected a closing ")
                WHERE b = "open
                          ^
            """)
    }
}
