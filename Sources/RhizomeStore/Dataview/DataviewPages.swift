import Foundation
import RhizomeCore

/// Builds Dataview page objects (`{file: {...}, ...fields}`) for indexed notes, loading in bulk only
/// what a query refers to: fields (frontmatter and inline fields) when it names any, and of `file.*`
/// only the members it uses. `file.lists`, `file.tasks` and `file.ctime` come from the note files
/// themselves (the index does not keep list structure or creation times).
final class DataviewPages: @unchecked Sendable {  // holds the store (a SQLite connection); its caches are `Locked`
    let store: IndexStore
    let vaultPath: String?
    /// The vault's link table, loaded on first use, and the whole pages read by path.
    private let caches = Locked<(links: DataviewLinkTable?, pages: [String: DataviewObject?])>((nil, [:]))

    init(store: IndexStore) throws {
        self.store = store
        vaultPath = try store.indexedVaultPath()
    }

    // MARK: Links

    /// Resolves link text (`Note`, `Folder/Note#Heading|shown`) as Obsidian would from `sourcePath`.
    func link(_ text: String, from sourcePath: String) -> DataviewLink {
        let (path, subpath, display) = DataviewLink.parts(of: text)
        let target = path.trimmingSpaces
        if target.isEmpty { return DataviewLink(path: sourcePath, subpath: subpath, display: display) }
        return DataviewLink(path: resolvedPath(of: target, from: sourcePath) ?? target, subpath: subpath, display: display)
    }

    func resolvedPath(of linkPath: String, from sourcePath: String) -> String? {
        let store = store
        let links = caches.withLock { caches in
            if let links = caches.links { return links }
            let links = store.cachedLinkTable()
            caches.links = links
            return links
        }
        return links.resolvedPath(of: linkPath, from: sourcePath)
    }

    func fileID(ofPath path: String) -> Int64? {
        try? store.connection.prepare("SELECT id FROM file WHERE path = ?").bind(.text(path)).rows { $0.int(0) }.first
    }

    /// The whole page of a note by path (for `this` and `[[link]].field`), cached; nil if not an indexed note.
    func page(path: String) -> DataviewObject? {
        if let cached = caches.withLock({ $0.pages[path] }) { return cached }
        let page = fileID(ofPath: path).flatMap { id in try? pages(ids: [id], needs: .everything).first }
        caches.withLock { $0.pages[path] = page }
        return page
    }

    // MARK: Pages

    /// The pages of `ids`, in that order. `taskFilter` leaves out of `file.tasks` the tasks that fail it
    /// (for a `TASK` query that does not read `file.tasks` or `file.lists` itself).
    func pages(ids: [Int64], needs: DataviewNeeds, taskFilter: DataviewTaskFilter = DataviewTaskFilter()) throws -> [DataviewObject] {
        guard !ids.isEmpty else { return [] }
        let idList = "[" + ids.map(String.init).joined(separator: ",") + "]"
        let inIDs = "IN (SELECT value FROM json_each(?))"
        let wanted = Wanted(needs)
        var bases: [Int64: Base] = [:]
        // Text columns only when needed: reading them is most of this statement's time.
        let columns = "id, path, size, mtime_ns" + (wanted.name || wanted.day ? ", name" : ", NULL") + (wanted.folder ? ", folder" : ", NULL")
            + (wanted.ext ? ", extension" : ", NULL") + (wanted.fields || wanted.frontmatter || wanted.tags || wanted.etags || wanted.aliases ? ", frontmatter_json" : ", NULL")
        // Many candidates close together (a query over most of the vault) are read by a range scan
        // that skips the others: cheaper than looking each one up.
        let lowest = ids.min()!, highest = ids.max()!
        let scansRange = ids.count >= 256 && Int64(ids.count) * 2 >= highest - lowest + 1
        let candidates = scansRange ? Set(ids) : []
        bases.reserveCapacity(ids.count)
        let base = try scansRange
            ? store.connection.prepare("SELECT \(columns) FROM file WHERE id BETWEEN ? AND ?").bind([.integer(lowest), .integer(highest)])
            : store.connection.prepare("SELECT \(columns) FROM file WHERE id \(inIDs)").bind(.text(idList))
        while try base.step() {
            if scansRange && !candidates.contains(base.int(0)) { continue }
            bases[base.int(0)] = Base(
                path: base.text(1), name: base.optionalText(4) ?? "", folder: base.optionalText(5) ?? "", ext: base.optionalText(6) ?? "",
                size: base.optionalInt(2), mtimeNanoseconds: base.optionalInt(3), frontmatterJSON: base.optionalText(7))
        }
        base.reset()

        var inlineFields: [Int64: [(key: String, value: String)]] = [:]
        if wanted.fields {
            // Fields of task items belong to the task, not the page (Dataview's rule).
            let statement = try store.connection.prepare("""
                SELECT i.file_id, i.key, i.value FROM json_each(?) j JOIN inline_field i ON \(FileRows.of("j.value", in: "i"))
                WHERE NOT EXISTS (SELECT 1 FROM task t WHERE \(FileRows.of("i.file_id", in: "t")) AND t.line = i.line)
                ORDER BY i.id
                """).bind(.text(idList))
            while try statement.step() { inlineFields[statement.int(0), default: []].append((statement.text(1), statement.text(2))) }
            statement.reset()
        }
        // The body's tags as Obsidian reads them; the frontmatter's as Dataview does (`DataviewFrontmatterTags`).
        let tags = wanted.tags || wanted.etags
            ? try grouped("""
                SELECT t.file_id, t.name FROM json_each(?) j JOIN tag t ON \(FileRows.of("j.value", in: "t"))
                WHERE t.from_frontmatter = 0 ORDER BY t.file_id, t.id
                """, idList) : [:]
        let outlinks = wanted.outlinks ? try grouped("""
            SELECT l.source_id, coalesce(t.path, l.link_path) FROM json_each(?) j JOIN link l ON \(FileRows.of("j.value", in: "l"))
            LEFT JOIN file t ON t.id = l.target_id
            WHERE l.via_reference = 0 ORDER BY l.id
            """, idList) : [:]
        let inlinks = wanted.inlinks ? try grouped("""
            SELECT l.target_id, s.path FROM link l JOIN file s ON s.id = l.source_id
            WHERE l.target_id \(inIDs) AND l.via_reference = 0 AND s.kind = 'note' ORDER BY l.target_id, s.path
            """, idList) : [:]

        let parsesWhole = wanted.frontmatter || needs.fieldNames == nil
        let tables = Tables(bases: bases, inlineFields: inlineFields, tags: tags, outlinks: outlinks, inlinks: inlinks)
        // Large sets are built on every core: a page takes a couple of microseconds, or tens when its
        // list items are read from its file.
        let readsFiles = wanted.lists || wanted.tasks
        let workers = ids.count >= (readsFiles ? 64 : 2_000) ? max(1, min(ProcessInfo.processInfo.activeProcessorCount, 4)) : 1
        let chunkSize = (ids.count + workers - 1) / workers
        let chunks = stride(from: 0, to: ids.count, by: chunkSize).map { Array(ids[$0..<min($0 + chunkSize, ids.count)]) }
        return Indexer.parallelMap(chunks, workers: workers) { chunk in
            self.build(chunk, tables: tables, needs: needs, wanted: wanted, parsesWhole: parsesWhole, taskFilter: taskFilter)
        }.flatMap { $0 }
    }

    /// What the bulk queries read, by file id.
    private struct Tables: Sendable {
        var bases: [Int64: Base]
        var inlineFields: [Int64: [(key: String, value: String)]]
        var tags, outlinks, inlinks: [Int64: [String]]
    }

    /// The pages of `ids` from `tables`. Each call keeps its own caches, so calls can run on several threads.
    private func build(
        _ ids: [Int64], tables: Tables, needs: DataviewNeeds, wanted: Wanted, parsesWhole: Bool, taskFilter: DataviewTaskFilter
    ) -> [DataviewObject] {
        var canonicalKeys: [String: String] = [:]
        let canonicalKey = { (key: String) -> String in
            if let known = canonicalKeys[key] { return known }
            let canonical = DataviewKey.canonicalKey(key)
            canonicalKeys[key] = canonical
            return canonical
        }
        let wantsField = { (key: String) in needs.wantsField(key, canonical: canonicalKey(key)) }
        var frontmatterKeys = DataviewJSON.KeyMemo(decide: wantsField)
        var tagKeys = DataviewJSON.KeyMemo { key in DataviewFrontmatterTags.isTagKey(key) || DataviewFrontmatterTags.isAliasKey(key) }
        return ids.compactMap { id -> DataviewObject? in
            guard let base = tables.bases[id] else { return nil }
            var page = DataviewObject(capacity: 24)
            var rawFrontmatter: DataviewValue = .object(DataviewObject())
            if let json = base.frontmatterJSON, wanted.fields || wanted.frontmatter {
                // Values of keys the query cannot read are skipped unparsed, unless it shows file.frontmatter.
                let parsed = parsesWhole ? DataviewJSON.parse(json) : DataviewJSON.parse(json, keys: &frontmatterKeys)
                if let parsed { rawFrontmatter = parsed }
            }
            if wanted.fields {
                var inline = tables.inlineFields[id] ?? []
                if needs.fieldNames != nil { inline.removeAll { !wantsField($0.key) } }
                addFields(
                    to: &page, frontmatter: rawFrontmatter, inline: inline, path: base.path,
                    wantsField: parsesWhole && needs.fieldNames != nil ? wantsField : nil, canonicalKey: canonicalKey)
            }
            // Only the members the query names (they are many, and dates cost an allocation each).
            var file = DataviewObject(capacity: needs.fileMembers == nil ? 20 : 8)
            if wanted.name { file["name"] = .string(base.name) }
            if wanted.folder { file["folder"] = .string(base.folder) }
            if wanted.path { file["path"] = .string(base.path) }
            if wanted.ext { file["ext"] = .string(base.ext) }
            file["link"] = .link(DataviewLink(path: base.path))
            if wanted.size { file["size"] = base.size.map { .number(Double($0)) } ?? .null }
            // The local time zone's offset takes a lock: only for the dates asked for.
            let modified = wanted.mtime || wanted.mday || wanted.ctime || wanted.cday
                ? base.mtimeNanoseconds.map { DataviewDate(unixMilliseconds: $0 / 1_000_000) } : nil
            if wanted.mtime { file["mtime"] = modified.map(DataviewValue.date) }
            if wanted.mday { file["mday"] = modified.map { .date($0.startOfDay) } }
            if wanted.ctime || wanted.cday {
                let created = creationDate(of: base.path).map { DataviewDate(instant: $0) } ?? modified
                file["ctime"] = created.map(DataviewValue.date)
                file["cday"] = created.map { .date($0.startOfDay) }
            }
            var tagFrontmatter = DataviewObject()
            if wanted.tags || wanted.etags || wanted.aliases, let json = base.frontmatterJSON {
                let parsed = parsesWhole && (wanted.fields || wanted.frontmatter) ? rawFrontmatter : DataviewJSON.parse(json, keys: &tagKeys)
                if case .object(let object)? = parsed { tagFrontmatter = object }
            }
            if wanted.tags || wanted.etags {
                let exact = unique((tables.tags[id] ?? []).map { "#" + $0 } + DataviewFrontmatterTags.tags(in: tagFrontmatter))
                file["etags"] = .list(exact.map(DataviewValue.string))
                file["tags"] = .list(unique(exact.flatMap(Self.tagWithParents)).map(DataviewValue.string))
            }
            if wanted.aliases { file["aliases"] = .list(unique(DataviewFrontmatterTags.aliases(in: tagFrontmatter)).map(DataviewValue.string)) }
            if wanted.outlinks { file["outlinks"] = .list(unique(tables.outlinks[id] ?? []).map { .link(DataviewLink(path: $0)) }) }
            if wanted.inlinks {
                // Sorted by path: a repeat follows its first occurrence.
                var inlinks: [DataviewValue] = []
                var previous: String? = nil
                for path in tables.inlinks[id] ?? [] where path != previous {
                    inlinks.append(.link(DataviewLink(path: path)))
                    previous = path
                }
                file["inlinks"] = .list(inlinks)
            }
            if wanted.frontmatter { file["frontmatter"] = rawFrontmatter }
            if wanted.day {
                file["day"] = dayField(of: page).map(DataviewValue.date)
                    ?? FileDay.date(inName: base.name).map(DataviewValue.date) ?? .null
            }
            if wanted.lists || wanted.tasks {
                // Only the tasks (and what they hold) when `file.lists` is not asked for: most items are not tasks.
                let items = listItems(of: base.path, onlyTasks: !wanted.lists, taskFilter: wanted.lists ? DataviewTaskFilter() : taskFilter)
                if wanted.lists { file["lists"] = .list(items) }
                file["tasks"] = .list(items.filter { if case .object(let item) = $0 { item["task"] == .boolean(true) } else { false } })
            }
            if wanted.starred { file["starred"] = .boolean(false) }
            page["file"] = .object(file)
            return page
        }
    }

    // MARK: Fields

    /// What `DataviewNeeds` asks of every page, decided once per query instead of once per page.
    private struct Wanted {
        let fields, name, folder, path, ext, size, mtime, mday, ctime, cday, tags, etags, aliases, outlinks, inlinks, frontmatter, day, lists, tasks,
            starred: Bool

        init(_ needs: DataviewNeeds) {
            fields = needs.fields || needs.wants("day")
            name = needs.wants("name")
            folder = needs.wants("folder")
            path = needs.wants("path")
            ext = needs.wants("ext")
            size = needs.wants("size")
            mtime = needs.wants("mtime")
            mday = needs.wants("mday")
            ctime = needs.wants("ctime")
            cday = needs.wants("cday")
            tags = needs.wants("tags")
            etags = needs.wants("etags")
            aliases = needs.wants("aliases")
            outlinks = needs.wants("outlinks")
            inlinks = needs.wants("inlinks")
            frontmatter = needs.wants("frontmatter")
            day = needs.wants("day")
            lists = needs.wants("lists")
            tasks = needs.wants("tasks")
            starred = needs.wants("starred")
        }
    }

    private struct Base {
        var path, name, folder, ext: String
        var size, mtimeNanoseconds: Int64?
        var frontmatterJSON: String?
    }

    /// Frontmatter keys, then inline fields, each under its key as written and its canonical key;
    /// a key given more than once collects its values into a list. `wantsField` filters the frontmatter
    /// keys (nil when the frontmatter holds only wanted keys already). Expects a page without fields yet.
    private func addFields(
        to page: inout DataviewObject, frontmatter: DataviewValue, inline: [(key: String, value: String)], path: String,
        wantsField: ((String) -> Bool)?, canonicalKey: (String) -> String
    ) {
        // Pages have a handful of keys and repeat one rarely: no allocation unless one does.
        var repeated: [(key: String, values: [DataviewValue])] = []
        func add(_ key: String, _ value: DataviewValue) {
            guard key != "file" else { return }
            guard let first = page[key] else {
                page[key] = value
                return
            }
            if let position = repeated.firstIndex(where: { $0.key == key }) {
                repeated[position].values.append(value)
                page[key] = .list(repeated[position].values)
            } else {
                repeated.append((key, [first, value]))
                page[key] = .list([first, value])
            }
        }
        let resolve = { (text: String) in self.link(text, from: path) }
        if case .object(let entries) = frontmatter {
            for (key, value) in entries.pairs where wantsField?(key) ?? true { add(key, Self.fieldValue(value, resolve: resolve)) }
        }
        for field in inline { add(field.key, DataviewFieldValue.inline(field.value, resolveLink: resolve)) }

        // Canonical keys: added when different and not already a key as written; several keys with one
        // canonical form share it.
        let written = page.pairs
        var shared: [(key: String, values: [DataviewValue])] = []
        for (key, value) in written {
            let name = canonicalKey(key)
            guard !name.isEmpty, name != key, name != "file", !written.contains(where: { $0.key == name }) else { continue }
            let values = repeated.first(where: { $0.key == key })?.values ?? [value]
            if let position = shared.firstIndex(where: { $0.key == name }) {
                shared[position].values += values
                page[name] = .list(shared[position].values)
            } else {
                shared.append((name, values))
                page[name] = value
            }
        }
    }

    /// A frontmatter value as a field: strings that are dates, durations or `[[links]]` become those.
    static func fieldValue(_ value: DataviewValue, resolve: (String) -> DataviewLink) -> DataviewValue {
        switch value {
        case .string(let text): return DataviewFieldValue.frontmatterString(text, resolveLink: resolve)
        case .list(let items): return .list(items.map { fieldValue($0, resolve: resolve) })
        case .object(let object):
            var converted = DataviewObject()
            for (key, item) in object.pairs { converted[key] = fieldValue(item, resolve: resolve) }
            return .object(converted)
        default: return value
        }
    }

    /// `file.day` from a `date` or `day` field (any case) that holds a date.
    private func dayField(of page: DataviewObject) -> DataviewDate? {
        for key in page.keys where key.lowercased() == "date" || key.lowercased() == "day" {
            if case .date(let date)? = page[key] { return date }
            if case .list(let items)? = page[key], case .date(let date)? = items.first { return date }
        }
        return nil
    }

    static func tagWithParents(_ tag: String) -> [String] {
        var result = [tag]
        var current = Substring(tag)
        while let slash = current.lastIndex(of: "/") {
            current = current[..<slash]
            result.append(String(current))
        }
        return result
    }

    /// `items` without repeats, first occurrences in order (a page's tags and links are few: short lists
    /// are searched, not hashed).
    private func unique(_ items: [String]) -> [String] {
        if items.count <= 16 {
            var result: [String] = []
            result.reserveCapacity(items.count)
            for item in items where !result.contains(item) { result.append(item) }
            return result
        }
        var seen = Set<String>()
        return items.filter { seen.insert($0).inserted }
    }

    private func grouped(_ sql: String, _ idList: String) throws -> [Int64: [String]] {
        var result: [Int64: [String]] = [:]
        let statement = try store.connection.prepare(sql).bind(.text(idList))
        while try statement.step() { result[statement.int(0), default: []].append(statement.text(1)) }
        statement.reset()
        return result
    }

    private func creationDate(of path: String) -> Date? {
        guard let vaultPath else { return nil }
        let attributes = try? FileManager.default.attributesOfItem(atPath: vaultPath + "/" + path)
        return attributes?[.creationDate] as? Date
    }

    // MARK: List items

    /// Notes larger than this are not read for their list items (the indexer's default limit).
    static let maximumNoteBytes: Int64 = 16 << 20

    /// `file.lists`: the note's list items read from its file (empty when it cannot be read); with
    /// `onlyTasks`, only its tasks (`file.tasks`) that pass `taskFilter`, their children still whole.
    func listItems(of path: String, onlyTasks: Bool = false, taskFilter: DataviewTaskFilter = DataviewTaskFilter()) -> [DataviewValue] {
        guard let vaultPath, case .success(let bytes) = FileReader.read(DiskPath(vaultPath + "/" + path), maxBytes: Self.maximumNoteBytes) else {
            return []
        }
        let items = ListItemParser.parse(bytes, path: path)
        let byLine = Dictionary(items.map { ($0.line, $0) }, uniquingKeysWith: { first, _ in first })
        var objects: [Int: DataviewObject] = [:]
        func object(_ item: ListItem) -> DataviewObject {
            if let done = objects[item.line] { return done }
            var result = DataviewObject()
            let resolve = { (text: String) in self.link(text, from: path) }
            // Fields first, so the built-in keys below win over fields of the same name.
            for field in item.inlineFields where result[field.key] == nil {
                result[field.key] = DataviewFieldValue.inline(field.value, resolveLink: resolve)
            }
            // A task's emoji dates (`📅 2024-04-15`), unless a field of the same name says otherwise.
            if item.status != nil {
                for (key, date) in DataviewTaskShorthand.fields(in: item.text) where result[key] == nil {
                    result[key] = DataviewFieldValue.inline(date, resolveLink: resolve)
                }
            }
            let section = item.section.map { DataviewLink(path: path, subpath: DataviewHeading.linkSubpath($0.text)) } ?? DataviewLink(path: path)
            result["symbol"] = .string(item.symbol)
            result["text"] = .string(item.text)
            result["line"] = .number(Double(item.line - 1))
            result["lineCount"] = .number(Double(item.lineCount))
            result["path"] = .string(path)
            result["section"] = .link(section)
            result["link"] = .link(item.blockID.map { DataviewLink(path: path, subpath: "^" + $0) } ?? section)
            result["tags"] = .list(DataviewListItemTags.tags(in: item.text).map(DataviewValue.string))
            result["outlinks"] = .list(item.outlinks.map { .link(self.link($0.path + ($0.subpath.map { "#" + $0 } ?? ""), from: path)) })
            result["children"] = .list(item.childLines.compactMap { byLine[$0] }.map { .object(object($0)) })
            result["task"] = .boolean(item.status != nil)
            result["annotated"] = .boolean(!item.inlineFields.isEmpty)
            if let parent = item.parentLine { result["parent"] = .number(Double(parent - 1)) }
            if let blockID = item.blockID { result["blockId"] = .string(blockID) }
            if let status = item.status {
                result["status"] = .string(status)
                result["checked"] = .boolean(status != " " && !status.isEmpty)
                result["completed"] = .boolean(status == "x" || status == "X")
                result["fullyCompleted"] = .boolean(fullyCompleted(item, byLine))
            }
            objects[item.line] = result
            return result
        }
        return items.compactMap { item in
            guard onlyTasks else { return .object(object(item)) }
            guard let status = item.status, taskFilter.matches(status: status) else { return nil }
            return .object(object(item))
        }
    }

    private func fullyCompleted(_ item: ListItem, _ byLine: [Int: ListItem]) -> Bool {
        if let status = item.status, status != "x" && status != "X" { return false }
        return item.childLines.allSatisfy { line in byLine[line].map { fullyCompleted($0, byLine) } ?? true }
    }
}
