/// Tests of the default Bases summaries (`BaseSummaries`), the table under "Default Summary Formulas" in
/// Obsidian's Bases syntax help: number summaries ignore what is not a number, Range works on numbers and
/// dates, Stddev is the population deviation, Empty/Filled/Unique count any values.
import Foundation
import Testing
@testable import RhizomeCore

private func summary(_ name: String, _ values: [BaseValue]) -> String {
    FunctionLibraryFixture.render(BaseSummaries.compute(name, values: values, environment: FunctionLibraryFixture.environment))
}

@Suite("Bases default summaries") struct BaseSummariesTests {
    /// Mean 5, population standard deviation exactly 2; text and null are not numbers.
    private let numbers: [BaseValue] = [2, 4, 4, 4, 5, 5, 7, 9].map { BaseValue.number($0) } + [.string("x"), .null]

    @Test func `number summaries over numbers only`() {
        #expect(summary("Average", numbers) == "5")
        #expect(summary("Min", numbers) == "2")
        #expect(summary("Max", numbers) == "9")
        #expect(summary("Sum", numbers) == "40")
        #expect(summary("Range", numbers) == "7")
        #expect(summary("Median", numbers) == "4.5")
        #expect(summary("Median", [.number(3), .number(1), .number(2)]) == "2")
    }

    @Test func `Stddev is the population standard deviation`() {
        #expect(summary("Stddev", numbers) == "2")
        #expect(summary("Stddev", [.number(10), .number(20)]) == "5")
        #expect(summary("Stddev", [.number(7)]) == "0")
    }

    @Test func `without numbers, Sum is 0 and the others are null`() {
        #expect(summary("Sum", [.null, .string("3")]) == "0")
        #expect(summary("Average", [.null]) == "null")
        #expect(summary("Max", []) == "null")
        #expect(summary("Stddev", []) == "null")
    }

    @Test func `Earliest, Latest and Range of dates`() {
        let first = DataviewDate(year: 2024, month: 1, day: 1, offsetMinutes: 0)
        let eleventh = DataviewDate(year: 2024, month: 1, day: 11, offsetMinutes: 0)
        let values: [BaseValue] = [.date(eleventh), .null, .date(first), .string("2023-01-01")]
        let earliest = BaseSummaries.compute("Earliest", values: values, environment: FunctionLibraryFixture.environment)
        let latest = BaseSummaries.compute("Latest", values: values, environment: FunctionLibraryFixture.environment)
        guard case .date(let earliestDate)? = earliest, case .date(let latestDate)? = latest else {
            Issue.record("expected dates, got \(FunctionLibraryFixture.render(earliest)) and \(FunctionLibraryFixture.render(latest))")
            return
        }
        #expect(earliestDate == first)
        #expect(latestDate == eleventh)
        #expect(summary("Range", values) == "duration(864000000)")
        #expect(summary("Earliest", [.number(1)]) == "null")
    }

    @Test func `Checked and Unchecked count true and false, not missing values`() {
        let values: [BaseValue] = [.boolean(true), .boolean(false), .boolean(true), .null, .string("true")]
        #expect(summary("Checked", values) == "2")
        #expect(summary("Unchecked", values) == "1")
    }

    @Test func `Empty and Filled count null, empty text and empty lists as empty`() {
        let values: [BaseValue] = [.null, .string(""), .list([]), .string("a"), .number(0)]
        #expect(summary("Empty", values) == "3")
        #expect(summary("Filled", values) == "2")
    }

    @Test func `Unique counts distinct filled values`() {
        #expect(summary("Unique", [.string("a"), .string("b"), .string("a"), .null, .string("")]) == "2")
        #expect(summary("Unique", [.number(1), .string("1"), .number(2)]) == "2")
        #expect(summary("Unique", []) == "0")
    }

    @Test func `names match case-insensitively; other names are not defaults`() {
        #expect(summary("average", [.number(1), .number(3)]) == "2")
        #expect(summary("Bogus", [.number(1)]) == "nil")
        #expect(BaseSummaries.defaultNames.count == 14)
        #expect(BaseSummaries.defaultNames.first == "Average")
    }
}
