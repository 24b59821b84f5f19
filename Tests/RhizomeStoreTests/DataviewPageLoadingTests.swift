import Foundation
import Testing
@testable import RhizomeStore
import RhizomeCore
import RhizomeTestSupport

/// Pages are built with only what a query can read (the fields it names, the `file.*` members it uses):
/// these scenarios check that what a query can see never changes because of it.
@Suite struct DataviewPageLoadingTests {
    /// Two notes whose keys are written in other cases and spellings than the queries use.
    static func namingVault() throws -> DataviewVault {
        let vault = try TemporaryVault()
        try vault.write("A.md", """
            ---
            Due Date: 2026-12-01
            Status: open
            related: "[[B]]"
            extra: kept
            ---
            Owner Name:: Ana
            """)
        try vault.write("B.md", """
            ---
            status: done
            date: 2026-11-02
            extra: 3
            ---
            status:: again
            """)
        return try DataviewVault(indexing: vault)
    }

    @Test func `a field is found under its canonical name and in any case although only named fields are loaded`() throws {
        let vault = try Self.namingVault()
        #expect(try vault.rows("TABLE due-date, status, owner-name SORT file.name") == [
            ["A.md", "2026-12-01", "open", "Ana"],
            ["B.md", "-", "[done, again]", "-"],  // a key given twice is a list
        ])
        // `Status` is A's key as written; B has only `status`, which a lookup finds by lower case.
        #expect(try vault.rows("TABLE Status, STATUS SORT file.name") == [["A.md", "open", "open"], ["B.md", "[done, again]", "[done, again]"]])
        #expect(try vault.rows("TABLE related.extra SORT file.name") == [["A.md", "3"], ["B.md", "-"]])
    }

    @Test func `row and rows hold whole pages even when the query names one field`() throws {
        let vault = try Self.namingVault()
        let rows = try vault.rows(#"TABLE WITHOUT ID row FROM "A""#)
        #expect(rows.count == 1)
        #expect(rows[0][0].contains("extra: kept"))
        #expect(rows[0][0].contains("owner-name: Ana"))
        #expect(rows[0][0].contains("name: A, folder: , path: A.md, ext: md"))  // and a whole `file`
        let grouped = try vault.rows(#"TABLE WITHOUT ID rows GROUP BY "all""#)
        #expect(grouped.count == 1)
        #expect(grouped[0][0].contains("extra: kept") && grouped[0][0].contains("extra: 3"))
        // `file` read by key is whole too.
        #expect(try vault.rows(#"TABLE WITHOUT ID row["file"] FROM "A""#)[0][0].contains("name: A, folder: , path: A.md, ext: md"))
        // A computed key can name any field.
        #expect(try vault.rows(#"TABLE WITHOUT ID row[k] FROM "A" FLATTEN "ex" + "tra" AS k"#) == [["kept"]])
        // Counting rows needs no field of theirs, and still counts every page.
        #expect(try vault.rows(#"TABLE WITHOUT ID length(rows) GROUP BY "all""#) == [["2"]])
    }

    @Test func `a vault indexed through the library alone has its tasks and lists`() throws {
        let vault = try TemporaryVault()
        try vault.write("Todo.md", "- [ ] write the tests\n- [x] read the spec\n  - a note under it\n")
        try vault.index()
        let store = try vault.store()  // nothing records the vault's path but the indexer itself
        let result = try store.runDataview(DataviewParser.parse("TASK WHERE !completed"))
        #expect(result.tasks.map(\.text) == ["write the tests"])
        let lists = try store.runDataview(DataviewParser.parse("TABLE WITHOUT ID length(file.lists) AS n"))
        #expect(lists.textRows == [["3"]])
    }

    /// A TASK query builds objects only for tasks (and what they hold) unless it names `file.lists`: the
    /// answer must not show it, children that are plain items included.
    @Test func `a TASK query without file.lists still has whole tasks, and one naming it has the lists`() throws {
        let vault = try TemporaryVault()
        try vault.write("Todo.md", "- plain first\n- [ ] parent task\n  - plain child\n  - [x] done child\n- [x] all done\n  - [x] under it\n")
        try vault.write("Other.md", "- only a plain item\n")
        try vault.index()
        let store = try vault.store()
        let tasks = try store.runDataview(DataviewParser.parse("TASK WHERE !fullyCompleted")).tasks
        #expect(tasks.map(\.text) == ["parent task"], "\(tasks.map(\.text))")
        let children = try store.runDataview(DataviewParser.parse("TABLE WITHOUT ID map(file.tasks, (t) => length(t.children)) AS n WHERE file.name = \"Todo\""))
        #expect(children.textRows == [["[2, 0, 1, 0]"]])
        let fullyDone = try store.runDataview(DataviewParser.parse("TASK WHERE fullyCompleted")).tasks
        #expect(fullyDone.map(\.text) == ["done child", "all done", "under it"], "\(fullyDone.map(\.text))")
        let withLists = try store.runDataview(DataviewParser.parse("TASK WHERE length(file.lists) = 6 AND !completed")).tasks
        #expect(withLists.map(\.text) == ["parent task"])
    }

    @Test func `thousands of pages are built on several threads in their order`() throws {
        // Past 2,000 candidates pages are built in chunks on every core; nothing about the result may show it.
        let count = 2_100
        let vault = try TemporaryVault()
        for number in 0..<count {
            try vault.write(String(format: "Notes/%04d.md", number), """
                ---
                n: \(number)
                kind: k\(number % 3)
                related: "[[\(String(format: "%04d", (number + 1) % count))]]"
                ---
                Part of #bulk.
                weight:: \(number % 7)
                """)
        }
        let notes = try DataviewVault(indexing: vault)
        let groups = try notes.rows("TABLE length(rows) AS notes, sum(rows.n) AS total, sum(rows.weight) AS weight GROUP BY kind")
        let expected = (0..<3).map { kind -> [String] in
            let members = (0..<count).filter { $0 % 3 == kind }
            return ["k\(kind)", "\(members.count)", "\(members.reduce(0, +))", "\(members.map { $0 % 7 }.reduce(0, +))"]
        }
        #expect(groups == expected)
        // Every page in the order the SQL gave it (by path), each with its own fields and resolved link.
        let all = try notes.run("TABLE WITHOUT ID n, related.n AS next FROM #bulk")
        #expect(all.rows.count == count)
        #expect(all.textRows == (0..<count).map { ["\($0)", "\(($0 + 1) % count)"] })
    }

    @Test func `file day comes from a date field the query never names`() throws {
        let vault = try Self.namingVault()
        #expect(try vault.rows("TABLE WITHOUT ID file.name, file.day SORT file.name") == [["A", "-"], ["B", "2026-11-02"]])
    }

    /// Each query, and the same query made to load whole pages (`row` and `file` used whole, which a
    /// WHERE right after FROM does without dropping a page): the results must be the same.
    @Test(arguments: [
        ("TABLE status, created FROM #plan", "SORT status ASC, created DESC"),
        ("TABLE length(rows) AS n, min(rows.created) AS first, rows.file.name AS names FROM #plan", "GROUP BY status"),
        (#"TABLE chapters-read, row["Chapters read"] AS written FROM "Reading""#, "SORT file.name"),
        (#"LIST rows.file.name FROM "Reading""#, "GROUP BY status"),
        ("TABLE file.day, file.mday, file.size, file.ext, file.folder FROM #daily", "SORT file.day DESC"),
        ("TABLE WITHOUT ID file.link, file.etags, file.tags FROM #project/alpha", "SORT file.path"),
        ("TABLE length(file.inlinks) AS inlinks, length(file.outlinks) AS outlinks FROM \"Projects\"", "SORT file.path"),
        ("TABLE rating, pages, author FROM \"Reading\"", "WHERE rating > 3 SORT rating DESC"),
        ("TABLE type, Type, TYPE", "GROUP BY type SORT key"),
        ("LIST", "WHERE contains(file.name, \"Plan\") SORT file.name"),
    ])
    func `loading only what a query names changes no result`(head: String, tail: String) throws {
        let vault = try DataviewVault()
        let narrow = try vault.run(head + " " + tail)
        let whole = try vault.run(head + " WHERE row and file " + tail)
        #expect(narrow.columns == whole.columns)
        #expect(narrow.textRows == whole.textRows)
        #expect(!narrow.textRows.isEmpty)
    }

    @Test func `what a query needs is the fields and file members it names`() throws {
        let needs = DataviewNeeds(query: try DataviewParser.parse(
            "TABLE Status, rows.file.size, length(rows) AS n FROM #tag WHERE due-date > date(today) GROUP BY type"))
        #expect(needs.fields)
        #expect(needs.fieldNames == ["Status", "status", "rows", "file", "size", "due-date", "type"])
        #expect(needs.fileMembers == ["link", "file", "size"])
        #expect(DataviewNeeds(query: try DataviewParser.parse("LIST FROM #tag")).fields == false)
        #expect(DataviewNeeds(query: try DataviewParser.parse("TABLE rows GROUP BY type")).fieldNames == nil)
        #expect(DataviewNeeds(query: try DataviewParser.parse("TABLE rows GROUP BY type")).fileMembers == nil)
        #expect(DataviewNeeds(query: try DataviewParser.parse("TABLE file")).fileMembers == nil)
        #expect(DataviewNeeds(query: try DataviewParser.parse(#"TABLE row["file"]"#)).fileMembers == nil)
        #expect(DataviewNeeds(query: try DataviewParser.parse(#"TABLE row["file"]["name"]"#)).fileMembers == ["link", "file", "name"])
    }
}

@Suite struct DataviewJSONTests {
    @Test func `skipped keys leave the kept ones exactly as a full parse gives them`() throws {
        let json = #"{"a":{"x":[1,{"y":"}]"}]},"b":"say \"hi\" \\ \u00e9","c":[],"d\"q":-1.5e3,"e":true,"f":null,"g":"x"}"#
        var asked: [String] = []
        var memo = DataviewJSON.KeyMemo { key in
            asked.append(key)
            return key == "b" || key == "d\"q" || key == "g"
        }
        let kept = try #require(DataviewJSON.parse(json, keys: &memo))
        guard case .object(let object) = kept, case .object(let full)? = DataviewJSON.parse(json) else {
            Issue.record("not an object")
            return
        }
        #expect(object.keys == ["b", "d\"q", "g"])
        for key in object.keys { #expect(object[key] == full[key]) }
        #expect(object["b"] == .string("say \"hi\" \\ é"))
        // Each distinct key is decided once, then remembered by its bytes.
        _ = DataviewJSON.parse(json, keys: &memo)
        #expect(asked == ["a", "b", "c", "d\"q", "e", "f", "g"])
    }

    @Test func `a document cut short or not an object still parses as well as it can`() throws {
        var memo = DataviewJSON.KeyMemo { _ in false }
        #expect(DataviewJSON.parse(#"{"a":[1,2"#, keys: &memo) == nil)
        #expect(DataviewJSON.parse(#"{"a":"open"#, keys: &memo) == nil)
        #expect(DataviewJSON.parse("[1,2]", keys: &memo) == .list([.number(1), .number(2)]))
        #expect(DataviewJSON.parse("{}", keys: &memo) == .object(DataviewObject()))
    }
}
