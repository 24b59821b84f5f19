import CSQLite
import Foundation
import RhizomeCore

/// Runs Dataview queries over the index: the planner's SQL selects candidate pages, the pages are loaded
/// in bulk, and the remaining data commands run in order over typed values, as Dataview's engine does
/// (`src/query/engine.ts`): rows whose expressions fail are dropped, and the query fails only when every
/// row fails.
extension IndexStore {
    /// Runs `query`. `origin` is the vault path of the note the query runs in (`this`, `[[]]`, relative
    /// links), if any; `now` fixes what `date(today)` means.
    public func runDataview(_ query: DataviewQuery, origin: String? = nil, now: DataviewDate? = nil) throws -> DataviewResult {
        try registerDataviewCollation()
        let pages = try DataviewPages(store: self)
        let originRecord = try origin.map { path -> FileRecord in
            guard let id = pages.fileID(ofPath: path), let record = try file(id: id) else {
                throw DataviewError.evaluation(message: "the note `\(path)` is not in the index")
            }
            return record
        }
        let sourcePath = originRecord?.path ?? ""
        let planner = DataviewPlanner(store: self, query: query, origin: originRecord) { text in
            let link = pages.link(text, from: sourcePath)
            return (link.path, pages.fileID(ofPath: link.path))
        }
        let clock = ContinuousClock()
        var timings: [(String, Duration)] = []
        var mark = clock.now
        func lap(_ name: String) {
            let now = clock.now
            timings.append((name, now - mark))
            mark = now
        }
        let plan = try planner.plan()
        if let answered = try indexedTasks(plan: plan) {
            lap("task rows")
            let table = DataviewTable(
                kind: .task, columns: ["File", "Line", "Status", "Task"], rows: [], tasks: answered.tasks, groupName: nil, droppedRows: 0, droppedRowErrors: [])
            var result = DataviewResult(table: table, plan: plan, candidatePages: answered.notes)
            result.timings = timings.map { ($0.0, $0.1.inMilliseconds) }
            return result
        }
        let candidates = try connection.prepare(plan.sql).bind(plan.bindings).rows { $0.int(0) }
        lap("plan and SQL")

        let thisPage: DataviewValue = originRecord.flatMap { pages.page(path: $0.path) }.map(DataviewValue.object) ?? .null
        let evaluator = DataviewEvaluator(
            thisPage: thisPage,
            resolveLink: { pages.link($0, from: sourcePath) },
            linkedPage: { pages.page(path: $0.path) },
            now: now ?? DataviewDate(instant: Date()))
        var run = DataviewRun(evaluator: evaluator)
        if let deadline { run.checkDeadline = { try deadline.check() } }

        var rows: [DataviewRun.Row]
        let isTask: Bool
        if case .task = query.kind { isTask = true } else { isTask = false }
        if isTask {
            var needs = DataviewNeeds(query: query)
            // Tasks its leading WHERE rejects never become rows, unless the query reads a page's tasks itself.
            let taskFilter = needs.wants("tasks") || needs.wants("lists") ? DataviewTaskFilter() : plan.taskFilter
            needs.fields = true
            needs.fieldNames = nil  // a task row carries its page's fields
            // Its tasks; `file.lists` only if the query names it (building every item's object doubled the time).
            needs.fileMembers?.insert("tasks")
            rows = try pages.pages(ids: candidates, needs: needs, taskFilter: taskFilter).flatMap { page -> [DataviewRun.Row] in
                try deadline?.check()
                guard case .object(let file)? = page["file"], case .list(let tasks)? = file["tasks"] else { return [] }
                return tasks.compactMap { task in
                    guard case .object(var data) = task else { return nil }
                    for (key, value) in page.pairs where data[key] == nil { data[key] = value }
                    return DataviewRun.Row(id: data["link"] ?? .null, data: data)
                }
            }
        } else {
            rows = try pages.pages(ids: candidates, needs: DataviewNeeds(query: query)).map { page in
                guard case .object(let file)? = page["file"] else { return DataviewRun.Row(id: .null, data: page) }
                return DataviewRun.Row(id: file["link"] ?? .null, data: page)
            }
        }
        lap("load pages")
        // FROM, and the commands after it the SQL answered in full, are done (the parser allows FROM only first).
        for command in query.commands.dropFirst(plan.commandsAnswered) {
            rows = try run.apply(command, to: rows)
        }
        lap("data commands")
        var result = DataviewResult(table: try run.table(of: query, rows: rows), plan: plan, candidatePages: candidates.count)
        lap("columns")
        result.timings = timings.map { ($0.0, $0.1.inMilliseconds) }
        return result
    }

    /// Link resolution over every file, reused across queries until the index changes (building a
    /// resolver for a 10,000-note vault costs a few milliseconds; queries resolve field links with it).
    func cachedLinkTable() -> DataviewLinkTable {
        let stamp = (try? connection.prepare("SELECT (SELECT count(*) FROM file), (SELECT max(id) FROM file), (SELECT data_version FROM pragma_data_version)")
            .rows { "\(databasePath)/\($0.int(0))/\($0.int(1))/\($0.int(2))/\(sqlite3_total_changes64(connection.handle))" }.first) ?? nil
        if let stamp, let cached = dataviewLinkTable.withLock({ $0 }), cached.stamp == stamp { return cached.table }
        // Built outside the lock: it takes a while.
        let table = DataviewLinkTable(resolver: (try? resolverOfAllFiles()) ?? LinkResolver(files: []))
        if let stamp { dataviewLinkTable.withLock { $0 = (stamp, table) } }
        return table
    }

    /// The `dataview` collation: text ordered as Dataview orders strings, for sorts pushed into SQL.
    func registerDataviewCollation() throws(StoreError) {
        let status = sqlite3_create_collation_v2(connection.handle, "dataview", SQLITE_UTF8, nil, { _, leftCount, left, rightCount, right in
            let a = String(decoding: UnsafeRawBufferPointer(start: left, count: Int(leftCount)), as: UTF8.self)
            let b = String(decoding: UnsafeRawBufferPointer(start: right, count: Int(rightCount)), as: UTF8.self)
            return Int32(DataviewValue.compare(.string(a), .string(b)))
        }, nil)
        guard status == SQLITE_OK else { throw connection.error(status, sql: "create collation dataview") }
    }
}

/// Resolves link text as Obsidian would over the index as it was when built, remembering each answer.
final class DataviewLinkTable: Sendable {
    private struct Key: Hashable {
        var link: String
        var source: String
    }

    private let resolver: LinkResolver<Int64>
    private let answers = Locked<[Key: String?]>([:])

    init(resolver: LinkResolver<Int64>) { self.resolver = resolver }

    /// The vault path `linkPath` resolves to from the note at `sourcePath`, or nil when unresolved.
    func resolvedPath(of linkPath: String, from sourcePath: String) -> String? {
        let key = Key(link: linkPath, source: sourcePath)
        return answers.withLock { answers in
            if let known = answers[key] { return known }
            let path = resolver.resolve(linkPath: UnicodeNormalization.nfc(linkPath), from: sourcePath)?.path
            if answers.count > 200_000 { answers.removeAll(keepingCapacity: true) }
            answers[key] = path
            return path
        }
    }
}
