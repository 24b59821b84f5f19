import Foundation
import Testing
import RhizomeCore
import RhizomeStore
import RhizomeTestSupport

/// Emoji dates in tasks (`📅 2024-04-15`), as Dataview reads them into `due`, `created`, `start`,
/// `scheduled` and `completion`: the shorthand itself, then `TASK` queries over a vault that uses it.
@Suite struct DataviewTaskShorthandTests {
    @Test func `each emoji gives its field, the first date of a key counts, and other text is left alone`() {
        let fields = DataviewTaskShorthand.fields(in: "file taxes 📅 2024-04-15 ➕2024-03-01 🛫 2024-04-01 ⏳ 2024-04-10 ✅ 2024-04-14 📅 2025-01-01")
        #expect(fields.map(\.key) == ["due", "created", "start", "scheduled", "completion"])
        #expect(fields.map(\.date) == ["2024-04-15", "2024-03-01", "2024-04-01", "2024-04-10", "2024-04-14"])
        #expect(DataviewTaskShorthand.fields(in: "call 🗓️ 2024-05-02").map(\.key) == ["due"])  // with U+FE0F
        #expect(DataviewTaskShorthand.fields(in: "📅 soon, ✅ 2024-13").isEmpty)
        #expect(DataviewTaskShorthand.fields(in: "📅 2024-04-150").isEmpty)
    }

    @Test func `TASK queries filter and show the emoji dates`() throws {
        let vault = try TemporaryVault()
        try vault.write("Plans/Taxes.md", """
            # Taxes
            - [ ] file the return 📅 2026-12-01 ➕ 2026-11-01
            - [x] gather receipts ✅ 2026-11-20
            - [ ] overridden [due:: 2027-01-10] 📅 2026-12-05
            - [ ] no date at all
            """)
        let dataview = try DataviewVault(indexing: vault)
        let dueSoon = try dataview.run(#"TASK WHERE due AND due < date(2027-01-01)"#)
        #expect(dueSoon.tasks.map(\.text) == ["file the return 📅 2026-12-01 ➕ 2026-11-01"])
        #expect(try dataview.run("TASK WHERE completion = date(2026-11-20)").tasks.map(\.text) == ["gather receipts ✅ 2026-11-20"])
        #expect(try dataview.run("TASK WHERE due = date(2027-01-10)").tasks.count == 1)  // an inline field wins
        let created = try dataview.rows("TABLE WITHOUT ID file.tasks.created FROM \"Plans\"")
        #expect(created == [["[2026-11-01, -, -, -]"]])
    }

    @Test func `task tags are Dataview's reading of the task's text`() throws {
        let vault = try TemporaryVault()
        try vault.write("Inbox.md", "- [ ] triage #one,#two, #three\n- [ ] plain\n")
        let dataview = try DataviewVault(indexing: vault)
        #expect(try dataview.run(##"TASK WHERE contains(tags, "#two")"##).tasks.map(\.text) == ["triage #one,#two, #three"])
        let tags = try dataview.rows(#"TABLE WITHOUT ID file.tasks.tags FROM "Inbox""#)
        #expect(tags == [["[[#one, #two, #three], []]"]])
    }
}
