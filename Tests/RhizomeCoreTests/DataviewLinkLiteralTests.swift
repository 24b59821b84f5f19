/// Link literals in queries as Dataview's parser reads them (`src/expression/parse.ts`: the `link`
/// pattern and `parseInnerLink`; the cases of `src/test/parse/parse.expression.test.ts`).
import Testing
@testable import RhizomeCore

private func eval(_ expression: String) throws -> String {
    let evaluator = DataviewEvaluator(
        resolveLink: { text in
            let (path, subpath, display) = DataviewLink.parts(of: text)
            return DataviewLink(path: path, subpath: subpath, display: display)
        },
        now: DataviewDate(year: 2024, month: 1, day: 31))
    return literalText(try evaluator.evaluate(DataviewParser.parseExpression(expression), row: DataviewObject()))
}

@Suite("Dataview: link literals") struct DataviewLinkLiteralTests {
    @Test func `an escaped pipe belongs to the path, as in Dataview's tests`() {
        #expect(DataviewLink.parts(of: #"Hello \| There"#) == ("Hello | There", nil, nil))
        #expect(DataviewLink.parts(of: #"\||Yes"#) == ("|", nil, "Yes"))
        #expect(DataviewLink.parts(of: #"a\|b\|c|shown"#) == ("a|b|c", nil, "shown"))
        // The display text is kept as written; only the first unescaped pipe splits.
        #expect(DataviewLink.parts(of: #"a|b\|c|d"#) == ("a", nil, #"b\|c|d"#))
        #expect(DataviewLink.parts(of: #"Note#^block\|id"#) == ("Note", "^block|id", nil))
    }

    @Test func `escaped pipes in link literals of expressions`() throws {
        #expect(try eval(#"[[Hello \| There]]"#) == "[[Hello | There]]")
        #expect(try eval(#"meta([[\||Yes]])"#) == #"{display: "Yes", embed: false, path: "|", subpath: null, type: "file"}"#)
        #expect(try eval(#"meta(![[Hello \| There]]).path"#) == #""Hello | There""#)
    }

    @Test func `a link literal holds no brackets: [[ that does not close as a link starts a list in a list`() throws {
        #expect(try eval("[[[Alpha]], [[Beta]]]") == "[[[Alpha]], [[Beta]]]")
        #expect(try eval("length([[[Alpha]], [[Beta]]])") == "2")
        #expect(try eval("[[1, 2], [3]]") == "[[1, 2], [3]]")
        #expect(try eval(#"[["A", "B"], "C"]"#) == #"[["A", "B"], "C"]"#)
        #expect(try eval("![[Alpha]]") == "![[Alpha]]")
        #expect(try eval("![[1], [2]]") == "false")  // `!` of a list, not an embed
    }
}
