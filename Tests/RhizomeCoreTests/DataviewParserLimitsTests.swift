import Testing
@testable import RhizomeCore

/// Queries nested or chained past what parsing, planning and evaluation can recurse through are syntax
/// errors that say so (they overflowed the stack and killed the process); everything short of the limits
/// still parses.
@Suite struct DataviewParserLimitsTests {
    private static func message(of query: String) -> String? {
        do {
            _ = try DataviewParser.parse(query)
            return nil
        } catch {
            guard case .syntax(let message, _, _, _) = error else { return "not a syntax error: \(error)" }
            return message
        }
    }

    @Test(arguments: [
        "LIST WHERE " + String(repeating: "(", count: 1_000) + "1" + String(repeating: ")", count: 1_000),
        "LIST WHERE " + String(repeating: "!", count: 5_000) + "true",
        "LIST WHERE " + String(repeating: "-", count: 5_000) + "1 > 0",
        "LIST WHERE " + String(repeating: "length(", count: 500) + "x" + String(repeating: ")", count: 500),
        "LIST FROM " + String(repeating: "(", count: 1_000) + "#a" + String(repeating: ")", count: 1_000),
        "LIST FROM " + String(repeating: "-", count: 1_000) + "#a",
    ])
    func `nesting past the limit is a syntax error that says so`(query: String) {
        #expect(Self.message(of: query)?.contains("nests deeper than \(DataviewParser.maximumNesting) levels") == true, "\(Self.message(of: query) ?? "parsed")")
    }

    @Test(arguments: [
        "LIST WHERE " + Array(repeating: "1", count: 5_000).joined(separator: " + ") + " > 0",
        "LIST WHERE " + (0..<3_000).map { "file.name = \"n\($0)\"" }.joined(separator: " OR "),
        "LIST WHERE x" + String(repeating: ".y", count: 5_000),
        "LIST WHERE x" + String(repeating: "[0]", count: 5_000),
        "LIST FROM " + (0..<3_000).map { "#t\($0)" }.joined(separator: " or "),
    ])
    func `more operators than the limit is a syntax error that says so`(query: String) {
        #expect(Self.message(of: query)?.contains("more than \(DataviewParser.maximumOperators) operators") == true, "\(Self.message(of: query)?.prefix(200) ?? "parsed")")
    }

    @Test func `queries within the limits parse`() throws {
        let nested = "LIST WHERE " + String(repeating: "(", count: 60) + "1" + String(repeating: ")", count: 60)
        let alternatives = "LIST WHERE " + (0..<250).map { "file.name = \"n\($0)\"" }.joined(separator: " OR ")
        let sources = "LIST FROM " + (0..<400).map { "#t\($0)" }.joined(separator: " or ")
        for query in [nested, alternatives, sources] {
            #expect(Self.message(of: query) == nil, "\(query.prefix(80))")
        }
    }
}
