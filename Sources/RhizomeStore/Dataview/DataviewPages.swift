import Foundation
import RhizomeCore

/// Builds Dataview page objects (`{file: {...}, ...fields}`) for indexed notes, loading in bulk only
/// what a query refers to: fields (frontmatter and inline fields) when it names any, and of `file.*`
/// only the members it uses. `file.lists`, `file.tasks` and `file.ctime` come from the note files
/// themselves (the index does not keep list structure or creation times).
final class DataviewPages: @unchecked Sendable {
    /// What a query needs of each page.
    struct Needs {
        var fields: Bool
        /// `file.*` members needed; nil means all of them.
        var fileMembers: Set<String>?

        static let everything = Needs(fields: true, fileMembers: nil)

        func wants(_ member: String) -> Bool { fileMembers?.contains(member) ?? true }
    }

    let store: IndexStore
    let vaultPath: String?
    private let lock = NSLock()
    private var resolver: LinkResolver<Int64>?
    private var pageCache: [String: DataviewObject?] = [:]
    private var canonicalKeys: [String: String] = [:]
    private var resolvedLinks: [String: String?] = [:]

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
        lock.lock()
        defer { lock.unlock() }
        // The answer depends on the link and the source's folder only.
        let folder = sourcePath.lastIndex(of: "/").map { String(sourcePath[..<$0]) } ?? ""
        let cacheKey = folder + "\u{0}" + linkPath
        if let cached = resolvedLinks[cacheKey] { return cached }
        if resolver == nil { resolver = store.cachedResolver() }
        let path = resolver!.resolve(linkPath: UnicodeNormalization.nfc(linkPath), from: sourcePath)?.path
        resolvedLinks[cacheKey] = path
        return path
    }

    private func canonicalKey(_ key: String) -> String {
        if let known = canonicalKeys[key] { return known }
        let canonical = DataviewKey.canonicalKey(key)
        canonicalKeys[key] = canonical
        return canonical
    }

    func fileID(ofPath path: String) -> Int64? {
        try? store.connection.prepare("SELECT id FROM file WHERE path = ?").bind(.text(path)).rows { $0.int(0) }.first
    }

    /// The whole page of a note by path (for `this` and `[[link]].field`), cached; nil if not an indexed note.
    func page(path: String) -> DataviewObject? {
        lock.lock()
        if let cached = pageCache[path] { lock.unlock(); return cached }
        lock.unlock()
        let page = fileID(ofPath: path).flatMap { id in try? pages(ids: [id], needs: .everything).first }
        lock.lock()
        pageCache[path] = page
        lock.unlock()
        return page
    }

    // MARK: Pages

    /// The pages of `ids`, in that order.
    func pages(ids: [Int64], needs: Needs) throws -> [DataviewObject] {
        guard !ids.isEmpty else { return [] }
        let idList = "[" + ids.map(String.init).joined(separator: ",") + "]"
        let inIDs = "IN (SELECT value FROM json_each(?))"
        var bases: [Int64: Base] = [:]
        let columns = "id, path, name, folder, extension, size, mtime_ns" + (needs.fields || needs.wants("frontmatter") || needs.wants("day") ? ", frontmatter_json" : "")
        let base = try store.connection.prepare("SELECT \(columns) FROM file WHERE id \(inIDs)").bind(.text(idList))
        while try base.step() {
            bases[base.int(0)] = Base(
                path: base.text(1), name: base.text(2), folder: base.text(3), ext: base.text(4), size: base.optionalInt(5),
                mtimeNanoseconds: base.optionalInt(6), frontmatterJSON: base.columnCount > 7 ? base.optionalText(7) : nil)
        }
        base.reset()

        var inlineFields: [Int64: [(key: String, value: String)]] = [:]
        if needs.fields || needs.wants("day") {
            // Fields of task items belong to the task, not the page (Dataview's rule).
            let statement = try store.connection.prepare("""
                SELECT i.file_id, i.key, i.value FROM inline_field i WHERE i.file_id \(inIDs)
                AND NOT EXISTS (SELECT 1 FROM task t WHERE t.file_id = i.file_id AND t.line = i.line)
                ORDER BY i.file_id, i.ordinal
                """).bind(.text(idList))
            while try statement.step() { inlineFields[statement.int(0), default: []].append((statement.text(1), statement.text(2))) }
            statement.reset()
        }
        let tags = needs.wants("tags") || needs.wants("etags")
            ? try grouped("SELECT file_id, name FROM tag WHERE file_id \(inIDs) ORDER BY file_id, from_frontmatter, ordinal", idList) : [:]
        let aliases = needs.wants("aliases")
            ? try grouped("SELECT file_id, alias FROM alias WHERE file_id \(inIDs) ORDER BY file_id, ordinal", idList) : [:]
        let outlinks = needs.wants("outlinks") ? try grouped("""
            SELECT l.source_id, coalesce(t.path, l.link_path) FROM link l LEFT JOIN file t ON t.id = l.target_id
            WHERE l.source_id \(inIDs) AND l.via_reference = 0 ORDER BY l.source_id, l.ordinal
            """, idList) : [:]
        let inlinks = needs.wants("inlinks") ? try grouped("""
            SELECT l.target_id, s.path FROM link l JOIN file s ON s.id = l.source_id
            WHERE l.target_id \(inIDs) AND l.via_reference = 0 AND s.kind = 'note' ORDER BY l.target_id, s.path
            """, idList) : [:]

        return ids.compactMap { id -> DataviewObject? in
            guard let base = bases[id] else { return nil }
            var page = DataviewObject(capacity: 24)
            var rawFrontmatter: DataviewValue = .object(DataviewObject())
            if let json = base.frontmatterJSON, let parsed = DataviewJSON.parse(json) { rawFrontmatter = parsed }
            if needs.fields || needs.wants("day") {
                addFields(to: &page, frontmatter: rawFrontmatter, inline: inlineFields[id] ?? [], path: base.path)
            }
            var file = DataviewObject(capacity: 20)
            file["name"] = .string(base.name)
            file["folder"] = .string(base.folder)
            file["path"] = .string(base.path)
            file["ext"] = .string(base.ext)
            file["link"] = .link(DataviewLink(path: base.path))
            file["size"] = base.size.map { .number(Double($0)) } ?? .null
            if let nanoseconds = base.mtimeNanoseconds {
                let modified = DataviewDate(unixMilliseconds: nanoseconds / 1_000_000)
                file["mtime"] = .date(modified)
                file["mday"] = .date(modified.startOfDay)
            }
            if needs.wants("ctime") || needs.wants("cday") {
                let created = creationDate(of: base.path).map { DataviewDate(instant: $0) }
                file["ctime"] = created.map(DataviewValue.date) ?? file["mtime"]
                file["cday"] = created.map { .date($0.startOfDay) } ?? file["mday"]
            }
            if needs.wants("tags") || needs.wants("etags") {
                let exact = unique(tags[id] ?? []).map { "#" + $0 }
                file["etags"] = .list(exact.map(DataviewValue.string))
                file["tags"] = .list(unique(exact.flatMap(Self.tagWithParents)).map(DataviewValue.string))
            }
            if needs.wants("aliases") { file["aliases"] = .list((aliases[id] ?? []).map(DataviewValue.string)) }
            if needs.wants("outlinks") { file["outlinks"] = .list(unique(outlinks[id] ?? []).map { .link(DataviewLink(path: $0)) }) }
            if needs.wants("inlinks") { file["inlinks"] = .list(unique(inlinks[id] ?? []).map { .link(DataviewLink(path: $0)) }) }
            if needs.wants("frontmatter") { file["frontmatter"] = rawFrontmatter }
            if needs.wants("day") {
                file["day"] = dayField(of: page).map(DataviewValue.date)
                    ?? FileDay.date(inName: base.name).map(DataviewValue.date) ?? .null
            }
            if needs.wants("lists") || needs.wants("tasks") {
                let items = listItems(of: base.path)
                file["lists"] = .list(items)
                file["tasks"] = .list(items.filter { if case .object(let item) = $0 { item["task"] == .boolean(true) } else { false } })
            }
            file["starred"] = .boolean(false)
            page["file"] = .object(file)
            return page
        }
    }

    // MARK: Fields

    private struct Base {
        var path, name, folder, ext: String
        var size, mtimeNanoseconds: Int64?
        var frontmatterJSON: String?
    }

    /// Frontmatter keys, then inline fields, each under its key as written and its canonical key;
    /// a key given more than once collects its values into a list.
    private func addFields(to page: inout DataviewObject, frontmatter: DataviewValue, inline: [(key: String, value: String)], path: String) {
        var occurrences: [(key: String, values: [DataviewValue])] = []
        var positions: [String: Int] = [:]
        func add(_ key: String, _ value: DataviewValue) {
            if let position = positions[key] {
                occurrences[position].values.append(value)
            } else {
                positions[key] = occurrences.count
                occurrences.append((key, [value]))
            }
        }
        let resolve = { (text: String) in self.link(text, from: path) }
        if case .object(let entries) = frontmatter {
            for (key, value) in entries.pairs { add(key, Self.fieldValue(value, resolve: resolve)) }
        }
        for field in inline { add(field.key, DataviewFieldValue.inline(field.value, resolveLink: resolve)) }
        for (key, values) in occurrences where key != "file" {
            page[key] = values.count == 1 ? values[0] : .list(values)
        }
        // Canonical keys: added when different and not already a key as written; several keys with one
        // canonical form share it.
        var canonical: [(key: String, values: [DataviewValue])] = []
        var canonicalPositions: [String: Int] = [:]
        for (key, values) in occurrences {
            let name = canonicalKey(key)
            guard !name.isEmpty, name != key, positions[name] == nil, name != "file" else { continue }
            if let position = canonicalPositions[name] {
                canonical[position].values += values
            } else {
                canonicalPositions[name] = canonical.count
                canonical.append((name, values))
            }
        }
        for (key, values) in canonical { page[key] = values.count == 1 ? values[0] : .list(values) }
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

    private func unique(_ items: [String]) -> [String] {
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

    /// `file.lists`: the note's list items read from its file (empty when it cannot be read).
    func listItems(of path: String) -> [DataviewValue] {
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
            let section = item.section.map { DataviewLink(path: path, subpath: $0.text) } ?? DataviewLink(path: path)
            result["symbol"] = .string(item.symbol)
            result["text"] = .string(item.text)
            result["line"] = .number(Double(item.line - 1))
            result["lineCount"] = .number(Double(item.lineCount))
            result["path"] = .string(path)
            result["section"] = .link(section)
            result["link"] = .link(item.blockID.map { DataviewLink(path: path, subpath: "^" + $0) } ?? section)
            result["tags"] = .list(item.tags.map { .string("#" + $0) })
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
        return items.map { .object(object($0)) }
    }

    private func fullyCompleted(_ item: ListItem, _ byLine: [Int: ListItem]) -> Bool {
        if let status = item.status, status != "x" && status != "X" { return false }
        return item.childLines.allSatisfy { line in byLine[line].map { fullyCompleted($0, byLine) } ?? true }
    }
}
