import Foundation
import Testing
import RhizomeCore
import RhizomeStore
import RhizomeTestSupport

/// What the planner pushes into SQL (`DataviewResult.plan`, printed by `--explain`), and that a query
/// gives exactly the same rows whether or not it was pushed down: each query runs as written and
/// rewritten so that nothing but its source can be pushed (`WHERE (c) or false`, `SORT file.name + ""`).
@Suite struct DataviewPushdownTests {
    // MARK: The plan

    @Test func theSourceIsAlwaysAnsweredBySQL() throws {
        let vault = try DataviewVault()
        let result = try vault.run("LIST FROM #daily")
        #expect(result.plan.pushedDown == ["FROM #daily → SQL"])
        #expect(result.plan.evaluatedInSwift.isEmpty)
        #expect(result.plan.sql.contains("tag"))
        #expect(result.candidatePages == 7)
    }

    @Test func exactFileColumnFiltersSortsAndLimitsRunInSQL() throws {
        let vault = try DataviewVault()
        let result = try vault.run(#"TABLE file.size FROM "Reading" WHERE file.size > 500 SORT file.name DESC LIMIT 2"#)
        let pushed = result.plan.pushedDown
        #expect(pushed.count == 4, "\(pushed)")
        #expect(pushed.contains { $0.hasPrefix("WHERE") && $0.contains("file.size") && $0.contains("exact") })
        #expect(pushed.contains { $0.hasPrefix("SORT file.name DESC") })
        #expect(pushed.contains { $0.hasPrefix("LIMIT 2") })
        #expect(result.plan.evaluatedInSwift == ["columns: file.size"])
        #expect(result.plan.sql.hasSuffix("LIMIT 2"))
        #expect(result.candidatePages == 2)  // only the rows shown were loaded
        #expect(result.textRows.map { $0[0] } == ["Reading/SQLite FTS5 docs.md", "Reading/How to Take Smart Notes.md"])
        // startswith on a file column is exact too.
        let prefix = try vault.run(#"LIST WHERE startswith(file.path, "Projects/Alpha/") SORT file.size LIMIT 1"#)
        #expect(prefix.plan.evaluatedInSwift.isEmpty, "\(prefix.plan.evaluatedInSwift)")
        #expect(prefix.candidatePages == 1)
    }

    @Test func fieldComparisonsArePrefiltersCheckedAgainInSwift() throws {
        let vault = try DataviewVault()
        let result = try vault.run(#"LIST FROM "Projects" WHERE status = "active" SORT file.name LIMIT 5"#)
        #expect(result.plan.pushedDown.contains { $0.hasPrefix("WHERE") && $0.contains("prefilter") })
        // Not exact, so the WHERE, and the SORT and LIMIT after it, stay in Swift.
        #expect(result.plan.evaluatedInSwift.count == 3, "\(result.plan.evaluatedInSwift)")
        #expect(!result.plan.sql.contains("LIMIT"))
        #expect(result.textRows.map { $0[0] } == ["Projects/Alpha/Project Alpha.md", "Projects/Rhizome/Rhizome.md"])
        #expect(result.candidatePages >= 2 && result.candidatePages < 23)
    }

    @Test func onlyWhatCanBeAnsweredExactlyIsSkippedInSwift() throws {
        let vault = try DataviewVault()
        // One conjunct cannot be pushed: the whole WHERE is evaluated again.
        let partly = try vault.run(#"LIST WHERE file.folder = "Reading" and length(file.name) > 20"#)
        #expect(partly.plan.pushedDown.contains { $0.contains("file.folder") })
        #expect(partly.plan.evaluatedInSwift.contains { $0.hasPrefix("WHERE") })
        #expect(partly.textRows.map { $0[0] }.sorted() == [
            "Reading/A Philosophy of Software Design.md", "Reading/Designing Data-Intensive Applications.md",
            "Reading/How to Take Smart Notes.md",
        ])
        // A WHERE after LIMIT, GROUP BY or FLATTEN filters other rows: never pushed.
        for query in [
            "LIST SORT file.name LIMIT 5 WHERE file.size > 100",
            "LIST rows.file.name GROUP BY file.folder WHERE file.size > 100",
            "TABLE t FLATTEN file.etags AS t WHERE file.size > 100",
        ] {
            let result = try vault.run(query)
            #expect(!result.plan.pushedDown.contains { $0.hasPrefix("WHERE") }, "\(query): \(result.plan.pushedDown)")
        }
        // TASK queries filter tasks, not pages: besides the source, SQL only keeps the notes holding a
        // task that can pass (the WHERE itself, the SORT and the LIMIT run over tasks, in Swift).
        let tasks = try vault.run(#"TASK FROM "Daily" WHERE completed SORT file.name LIMIT 2"#)
        #expect(tasks.plan.pushedDown == [#"FROM "Daily" → SQL"#, "TASK WHERE completed → notes holding such a task (task index); only such tasks become rows"])
        #expect(tasks.plan.evaluatedInSwift.suffix(4) == ["WHERE completed", "SORT file.name", "LIMIT 2", "tasks read from the candidate notes' files"], "\(tasks.plan.evaluatedInSwift)")
        #expect(tasks.tasks.count == 2)
    }

    // MARK: TASK

    @Test func `a TASK query reads only the notes holding a task its leading WHERE can pass`() throws {
        let vault = try DataviewVault()
        let notes = try vault.run("LIST").rows.count
        let every = try vault.run("TASK")
        #expect(every.plan.pushedDown == [
            "FROM (every note) → SQL", "TASK → notes holding a task (task index)",
            "every condition tests the status: tasks read from the index's task rows (no note is read)",
        ])
        #expect(every.candidatePages < notes / 2, "\(every.candidatePages) of \(notes) notes read")
        #expect(Set(every.tasks.map(\.path)).count == every.candidatePages)  // each note read gave a task
        let open = try vault.run("TASK WHERE !completed")
        #expect(open.candidatePages < every.candidatePages)
        #expect(Set(open.tasks.map(\.path)).count == open.candidatePages)
        // Not a condition on status alone: every note holding a task is read.
        let other = try vault.run(#"TASK WHERE contains(text, "watcher") AND !completed"#)
        #expect(other.candidatePages == every.candidatePages)
        #expect(other.plan.pushedDown.last == "TASK → notes holding a task (task index)")
    }

    @Test func `TASK queries give the same tasks whether their status conditions are used early or not`() throws {
        let vault = try DataviewVault()
        let wheres = [
            ["completed"], ["!completed"], ["checked"], ["!checked"], [#"status = "-""#], [#"status != " ""#], [#""x" = status"#],
            ["completed = false"], ["checked != true"], [#"!completed AND file.name != "Index""#], ["!completed", "checked"],
            [#"status = "x" AND contains(text, "the")"#], ["!completed AND length(file.tasks) > 3"], ["completed AND length(file.lists) > 0"],
            [#"status = "X""#], [#"status = "é""#],
        ]
        for conditions in wheres {
            for tail in ["", " SORT file.name DESC, line", " GROUP BY file.folder", " LIMIT 3"] {
                let pushed = "TASK" + conditions.map { " WHERE \($0)" }.joined() + tail
                let unpushed = "TASK" + conditions.map { " WHERE (\($0)) or false" }.joined() + tail
                let early = try vault.run(pushed), late = try vault.run(unpushed)
                #expect(late.plan.pushedDown.last == "TASK → notes holding a task (task index)", "\(unpushed)")
                let shown = { (result: DataviewResult) in
                    result.tasks.map { "\($0.path):\($0.line) [\($0.status)] \($0.depth) \($0.text) \($0.group.map { "\($0)" } ?? "")" }
                }
                #expect(shown(early) == shown(late), "\(pushed)")
                #expect(!shown(late).isEmpty || conditions == [#"status = "é""#], "\(unpushed) finds no task: the case proves nothing")
            }
        }
    }

    // MARK: Pushed and not pushed agree

    @Test func pushedAndUnpushedQueriesGiveTheSameRowsOnVaultExample() throws {
        let vault = try DataviewVault()
        let cases: [(source: String, condition: String?, sort: DifferentialSort?, limit: Int?)] = [
            (#""Projects""#, #"status = "active""#, nil, nil),
            ("#plan", #""draft" = status"#, .name(ascending: false), nil),
            ("", #"type = "daily""#, .size(ascending: true), 3),
            ("", #"file.folder = "Reading" and file.size > 600"#, .name(ascending: true), nil),
            ("", #"file.name != "Index""#, .folder, 10),
            ("-#daily", "file.size <= 1000", .size(ascending: false), 4),
            ("", #"startswith(file.name, "Plan")"#, .name(ascending: true), nil),
            ("", #"file.ext = "md""#, .size(ascending: true), nil),
            (#""Sessions""#, "duration_min = 60", nil, nil),
            ("", "rating = 5", .name(ascending: true), nil),
            ("", #"author = "Sönke Ahrens""#, nil, nil),
            ("", nil, .name(ascending: false), 7),
        ]
        for testCase in cases {
            try expectSameRows(vault, source: testCase.source, condition: testCase.condition, sort: testCase.sort, limit: testCase.limit)
        }
    }

    @Test func aNameWrittenInNFDMatchesTheNFCNameWhetherPushedOrNot() throws {
        // Dataview compares strings with localeCompare, where canonically equivalent text is equal.
        let vault = try DataviewVault()
        let decomposed = "Cafe\u{301} culture"
        let pushed = try vault.paths(#"LIST WHERE file.name = "\#(decomposed)""#)
        let unpushed = try vault.paths(#"LIST WHERE (file.name = "\#(decomposed)") or false"#)
        #expect(unpushed == ["Café culture.md"])
        #expect(pushed == unpushed)
    }

    @Test func inlineValuesWithNonASCIICapitalsPassTheFieldPrefilter() throws {
        let vault = try TemporaryVault()
        try vault.write("People/Emile.md", "# Emile\n\nname:: Émile\ncity:: Москва\nlevel:: ÜBER\n")
        try vault.write("People/Other.md", "# Other\n\nname:: émile\ncity:: москва\n")
        let indexed = try DataviewVault(indexing: vault)
        for condition in [#"name = "Émile""#, #"city = "Москва""#, #"level = "ÜBER""#] {
            let unpushed = try indexed.paths("LIST WHERE (\(condition)) or false")
            #expect(unpushed == ["People/Emile.md"], "\(condition)")
            #expect(try indexed.paths("LIST WHERE \(condition)") == unpushed, "\(condition)")
        }
    }

    @Test func aSortOnModificationTimesWithinOneMillisecondAgreesWithTheUnpushedSort() throws {
        // Dataview's mtime has millisecond resolution; two notes saved in the same millisecond tie.
        let vault = try TemporaryVault()
        let second = Date(timeIntervalSince1970: 1_780_000_000)
        for (name, offset) in [("a", 0.000_9), ("b", 0.000_1), ("c", 0.5)] {
            try vault.write("\(name).md", "# \(name)\n")
            try vault.setModificationDate("\(name).md", second.addingTimeInterval(offset))
        }
        let indexed = try DataviewVault(indexing: vault)
        for direction in ["ASC", "DESC"] {
            let pushed = try indexed.paths("LIST SORT file.mtime \(direction)")
            let unpushed = try indexed.paths("LIST SORT file.mtime + dur(0 s) \(direction)")
            #expect(pushed == unpushed, "SORT file.mtime \(direction)")
        }
    }

    @Test func pushedAndUnpushedQueriesGiveTheSameRowsOnAGeneratedVault() throws {
        // RHIZOME_DATAVIEW_SEED=n replays another vault and set of queries.
        let seed = ProcessInfo.processInfo.environment["RHIZOME_DATAVIEW_SEED"].flatMap { UInt64($0) } ?? 0xDA7A_F1E1D
        var random = SeededGenerator(state: seed)
        let vault = try TemporaryVault()
        try GeneratedVault.write(into: vault, notes: 150, using: &random)
        let indexed = try DataviewVault(indexing: vault)
        var mismatches = 0
        var pushedQueries = 0
        for _ in 0..<300 {
            let source = GeneratedVault.sources.randomElement(using: &random)!
            let condition = (0..<Int.random(in: 0...2, using: &random)).map { _ in
                GeneratedVault.condition(using: &random)
            }.joined(separator: " and ")
            let sort = Bool.random(using: &random) ? DifferentialSort.all.randomElement(using: &random)! : nil
            let limit = Bool.random(using: &random) ? Int.random(in: 0...12, using: &random) : nil
            let outcome = try expectSameRows(
                indexed, source: source, condition: condition.isEmpty ? nil : condition, sort: sort, limit: limit,
                sortFirst: Bool.random(using: &random))
            if outcome.wasPushed { pushedQueries += 1 }
            if !outcome.isSame {
                mismatches += 1
                if mismatches >= 10 { break }
            }
        }
        #expect(pushedQueries > 150, "only \(pushedQueries) queries had a WHERE or SORT pushed down (seed \(seed))")
    }

    // MARK: Helpers

    /// Runs the query as written and in a form only its source can be pushed for; records an issue when
    /// the rows differ. Returns whether they were the same, and whether SQL answered a WHERE or SORT.
    @discardableResult
    private func expectSameRows(
        _ vault: DataviewVault, source: String, condition: String?, sort: DifferentialSort?, limit: Int?, sortFirst: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (isSame: Bool, wasPushed: Bool) {
        func query(pushable: Bool) -> String {
            var text = "TABLE status, rating, file.size"
            if !source.isEmpty { text += " FROM \(source)" }
            let filter = condition.map { pushable ? " WHERE \($0)" : " WHERE (\($0)) or false" } ?? ""
            let order = sort.map { " SORT " + $0.text(pushable: pushable) } ?? ""
            text += sortFirst ? order + filter : filter + order
            if let limit { text += " LIMIT \(limit)" }
            return text
        }
        let pushed = try vault.run(query(pushable: true))
        let unpushed = try vault.run(query(pushable: false))
        #expect(!unpushed.plan.pushedDown.contains { $0.hasPrefix("WHERE") || $0.hasPrefix("SORT") },
                "\(query(pushable: false)): \(unpushed.plan.pushedDown)", sourceLocation: sourceLocation)
        let wasPushed = pushed.plan.pushedDown.contains { $0.hasPrefix("WHERE") || $0.hasPrefix("SORT") }
        guard pushed.textRows != unpushed.textRows else { return (true, wasPushed) }
        let onlyPushed = pushed.textRows.filter { !unpushed.textRows.contains($0) }.map { $0[0] }
        let onlyUnpushed = unpushed.textRows.filter { !pushed.textRows.contains($0) }.map { $0[0] }
        Issue.record("""
            \(query(pushable: true))
              pushed down: \(pushed.plan.pushedDown)
              only when pushed: \(onlyPushed.prefix(5)); only when not: \(onlyUnpushed.prefix(5)); \
            same rows in another order: \(onlyPushed.isEmpty && onlyUnpushed.isEmpty)
            """, sourceLocation: sourceLocation)
        return (false, wasPushed)
    }
}

/// A sort on a file column, written so SQL can answer it or so it must run in Swift.
enum DifferentialSort {
    case name(ascending: Bool), size(ascending: Bool), mtime(ascending: Bool), folder

    static let all: [DifferentialSort] = [
        .name(ascending: true), .name(ascending: false), .size(ascending: true), .size(ascending: false),
        .mtime(ascending: true), .mtime(ascending: false), .folder,
    ]

    func text(pushable: Bool) -> String {
        switch self {
        case .name(let ascending): return (pushable ? "file.name" : #"file.name + """#) + (ascending ? "" : " DESC")
        case .size(let ascending): return (pushable ? "file.size" : "file.size + 0") + (ascending ? " ASC" : " DESC")
        case .mtime(let ascending): return (pushable ? "file.mtime" : "file.mtime + dur(0 s)") + (ascending ? "" : " DESC")
        case .folder: return pushable ? "file.folder, file.name DESC" : #"file.folder + "", file.name + "" DESC"#
        }
    }
}

/// A vault of random notes for differential tests: frontmatter and inline fields with values that look
/// alike (`active`, `Active`, `"active"`, numbers written several ways), nested and differently cased
/// tags, folders with `_` and `%`, and modification times a whole number of milliseconds apart.
enum GeneratedVault {
    static let folders = ["", "Alpha", "Alpha/Beta", "Gamma", "Gamma_x", "Gamma%y", "Délta"]
    static let words = ["active", "Active", "done", "draft", "été", "naïve", "a b", "x, y"]
    static let numbers = ["0", "1", "2", "2.5", "3", "5", "-1", "10"]
    static let tags = ["x", "x/y", "X/z", "w", "xy", "ü/a"]

    static let sources = [
        "", #""Alpha""#, #""Alpha/Beta""#, #""Gamma""#, #""Gamma_x""#, #""Gamma%y""#, #""Délta""#, "#x", "#x/y", "-#x",
        #"#w or "Gamma""#, #""Alpha" and -#w"#,
    ]

    static func write(into vault: TemporaryVault, notes: Int, using random: inout SeededGenerator) throws {
        let base = Date(timeIntervalSince1970: 1_780_000_000)
        for index in 0..<notes {
            let folder = folders.randomElement(using: &random)!
            let name = ["Note", "note", "Plan", "Émile", "zeta"].randomElement(using: &random)! + " \(index)"
            var frontmatter: [String] = []
            if Bool.random(using: &random) { frontmatter.append("status: " + yamlScalar(words.randomElement(using: &random)!)) }
            if Bool.random(using: &random) { frontmatter.append("rating: " + numbers.randomElement(using: &random)!) }
            if Int.random(in: 0..<4, using: &random) == 0 { frontmatter.append("flag: " + ["true", "false"].randomElement(using: &random)!) }
            if Bool.random(using: &random) {
                let chosen = (0..<Int.random(in: 1...2, using: &random)).map { _ in tags.randomElement(using: &random)! }
                frontmatter.append("tags: [" + chosen.joined(separator: ", ") + "]")
            }
            var body = ["# \(name)", ""]
            if Int.random(in: 0..<3, using: &random) == 0 { body.append("status:: " + inlineValue(words.randomElement(using: &random)!, &random)) }
            if Int.random(in: 0..<3, using: &random) == 0 { body.append("rating:: " + numbers.randomElement(using: &random)!) }
            if Int.random(in: 0..<4, using: &random) == 0 { body.append("Some [flag:: " + ["true", "False", "yes"].randomElement(using: &random)! + "] here.") }
            if Int.random(in: 0..<4, using: &random) == 0 { body.append("- [ ] a task [status:: " + words.randomElement(using: &random)! + "]") }
            if Int.random(in: 0..<4, using: &random) == 0 { body.append("- rating:: " + numbers.randomElement(using: &random)!) }
            body.append(String(repeating: "Filler text. ", count: Int.random(in: 0...40, using: &random)))
            let text = (frontmatter.isEmpty ? "" : "---\n" + frontmatter.joined(separator: "\n") + "\n---\n") + body.joined(separator: "\n") + "\n"
            let path = (folder.isEmpty ? "" : folder + "/") + name + ".md"
            try vault.write(path, text)
            try vault.setModificationDate(path, base.addingTimeInterval(Double(Int.random(in: 0..<40, using: &random))))
        }
    }

    static func condition(using random: inout SeededGenerator) -> String {
        switch Int.random(in: 0..<10, using: &random) {
        case 0: return "status = \"\(words.randomElement(using: &random)!)\""
        case 1: return "\"\(words.randomElement(using: &random)!)\" = status"
        case 2: return "rating = \(numbers.randomElement(using: &random)!)"
        case 3: return "flag = \(Bool.random(using: &random))"
        case 4: return "file.size \(["<", "<=", ">", ">=", "=", "!="].randomElement(using: &random)!) \(Int.random(in: 20...500, using: &random))"
        case 5: return "file.folder \(["=", "!="].randomElement(using: &random)!) \"\(folders.randomElement(using: &random)!)\""
        case 6: return "file.name = \"\(["Note", "note", "Émile", "Plan"].randomElement(using: &random)!) \(Int.random(in: 0..<150, using: &random))\""
        case 7: return "startswith(file.path, \"\(["Alpha/", "Gamma", "Gamma_", "Délta/", "Note", "É"].randomElement(using: &random)!)\")"
        case 8: return "startswith(file.name, \"\(["Note", "note", "É", "Pl"].randomElement(using: &random)!)\")"
        default: return "\(Int.random(in: 20...500, using: &random)) < file.size"
        }
    }

    private static func yamlScalar(_ word: String) -> String {
        word.contains(",") || word.contains(" ") ? "\"\(word)\"" : word
    }

    private static func inlineValue(_ word: String, _ random: inout SeededGenerator) -> String {
        Bool.random(using: &random) ? "\"\(word)\"" : word
    }
}
