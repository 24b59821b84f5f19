import Foundation
import RhizomeCore

/// The vault as a base sees it, read from the index in a few bulk statements: every file (notes,
/// attachments, canvases, bases) with its frontmatter properties as typed values, and — only when the
/// base uses them — its tags, links, embeds and backlinks, and creation times from the disk.
///
/// Property values become what Obsidian makes of them: `"[[Note]]"` text is a link (resolved from the
/// note), ISO dates are dates unless `.obsidian/types.json` declares the property `text`, and properties
/// declared `number`, `checkbox`, `date` or `datetime` are converted to that type when they can be.
public final class IndexedBaseVault: BaseVault {
    /// What to load beyond paths and properties.
    public struct Needs: Sendable {
        public var properties = true
        public var tags = true
        public var links = true
        public var backlinks = true
        public var creationTimes = true
        public var modificationTimes = true

        public init(
            properties: Bool = true, tags: Bool = true, links: Bool = true, backlinks: Bool = true, creationTimes: Bool = true,
            modificationTimes: Bool = true
        ) {
            self.properties = properties
            self.tags = tags
            self.links = links
            self.backlinks = backlinks
            self.creationTimes = creationTimes
            self.modificationTimes = modificationTimes
        }

        /// Only what `program` can read: tags for `tags`/`hasTag`, links for `links`, `embeds`, `hasLink`,
        /// `linksTo`, who links to each file for `backlinks`, creation times for `ctime`, modification times
        /// for `mtime` (and `ctime`, which falls back to it). A name is enough: `x.tags` loads tags for every
        /// file. Properties are skipped only when nothing can read one: no bare name, no `note`, no `x["…"]`,
        /// no member other than the file, date, duration and `length` fields, no note property in the views.
        public init(program: BaseProgram) {
            var names: Set<String> = []
            var readsProperties = false
            func collect(_ expression: BaseExpression) {
                expression.visit { node in
                    switch node.kind {
                    case .identifier(let name):
                        names.insert(name)
                        if !Self.keywords.contains(name) { readsProperties = true }
                    case .member(_, let name):
                        names.insert(name)
                        if !Self.fieldNames.contains(name) { readsProperties = true }
                    case .method(_, let name, _):
                        names.insert(name)
                        if name == "hasProperty" { readsProperties = true }
                    case .index: readsProperties = true
                    case .literal(.string(let key)): names.insert(key)
                    default: break
                    }
                }
            }
            program.formulas.values.forEach(collect)
            program.customSummaries.values.forEach { collect($0.expression) }
            func collect(_ filter: BaseProgram.Filter?) {
                switch filter {
                case .statement(let expression, _)?: collect(expression)
                case .and(let items)?, .or(let items)?, .not(let items)?: items.forEach { collect($0) }
                case nil: break
                }
            }
            collect(program.filter)
            program.viewFilters.forEach { collect($0) }
            for view in program.document.views {
                let properties = view.order + view.sort.map(\.property) + [view.groupBy?.property].compactMap { $0 }
                    + view.summaries.map(\.property) + [view.image, view.coordinates, view.markerIcon, view.markerColor].compactMap { $0 }
                for property in properties {
                    switch property.namespace {
                    case .file: names.insert(property.name)
                    case .note: readsProperties = true
                    case .formula: break
                    }
                }
            }
            properties = readsProperties || names.contains("properties")
            tags = !names.isDisjoint(with: ["tags", "hasTag"])
            links = !names.isDisjoint(with: ["links", "embeds", "hasLink", "linksTo"])
            backlinks = names.contains("backlinks")
            creationTimes = names.contains("ctime")
            modificationTimes = names.contains("mtime") || creationTimes
        }

        /// Names that are not note properties when bare.
        private static let keywords: Set<String> = ["file", "formula", "this", "value", "index", "acc", "values"]
        /// Members that read no note property: a file's, a date's and a duration's fields, and `length`
        /// (`this.status` or `author.born` read one).
        private static let fieldNames: Set<String> = [
            "name", "basename", "path", "folder", "ext", "size", "ctime", "mtime", "tags", "links", "embeds", "backlinks",
            "file", "length", "year", "month", "day", "hour", "minute", "second", "millisecond", "milliseconds", "seconds",
            "minutes", "hours", "days", "weeks", "months", "years", "week",
        ]
    }

    /// The files the base is evaluated over: every file, or only the candidates when conditions were given.
    public let files: [BaseFileFacts]
    /// Every file's path, by position (path order), candidates or not.
    private let paths: [String]
    /// Position of every file by path.
    private let byPath: [String: Int]
    /// By position: the index in `files`, or -1 for a file that is not a candidate.
    private let factsIndex: [Int32]
    /// By position: the positions of the files linking to it (empty unless backlinks were needed).
    private let backlinkSources: [[Int]]
    /// By position: a link to the file (for backlinks), when backlinks were needed.
    private let fileLinks: [BaseLink]
    private let links: DataviewLinkTable

    /// Reads the vault from `store`. With `candidates`, only the files meeting all of them are loaded in full
    /// and listed in `files` (`BaseProgram.candidateConditions`: given only when the base reads no other file).
    init(store: IndexStore, needs: Needs, candidates: [BaseProgram.CandidateCondition] = [], phases: inout PhaseTimer) throws {
        links = store.cachedLinkTable()
        phases.mark("link table")
        let vaultPath = try store.indexedVaultPath()
        let types = vaultPath.map(Self.propertyTypes(vaultRoot:)) ?? [:]
        let timeZone = TimeZone.current
        struct Stored: Sendable {
            var id: Int64
            var path: String
            var size: Int64?
            var mtimeNanoseconds: Int64?
            var frontmatterJSON: String?
            var isCandidate: Bool
        }
        let (condition, arguments) = Self.sql(for: candidates)
        var stored: [Stored] = []
        let statement = try store.connection.prepare("""
            SELECT id, path, size, mtime_ns, \(needs.properties ? "CASE WHEN \(condition) THEN frontmatter_json END" : "NULL"), \(condition)
            FROM file ORDER BY path
            """).bind(needs.properties ? arguments + arguments : arguments)
        while try statement.step() {
            stored.append(Stored(
                id: statement.int(0), path: statement.text(1), size: statement.optionalInt(2), mtimeNanoseconds: statement.optionalInt(3),
                frontmatterJSON: statement.optionalText(4), isCandidate: statement.int(5) != 0))
        }
        statement.reset()
        phases.mark("read files")
        // Properties become typed values on every core: parsing and converting them is most of the loading.
        let loaded = stored.filter(\.isCandidate)
        let workers = ParallelMap.workers(for: loaded.count, threshold: 2_000)
        let chunkSize = max(1, (loaded.count + workers - 1) / workers)
        let chunks = stride(from: 0, to: loaded.count, by: chunkSize).map { Array(loaded[$0..<min($0 + chunkSize, loaded.count)]) }
        let links = self.links
        let modificationTimes = needs.modificationTimes
        var facts: [BaseFileFacts] = ParallelMap.map(chunks, workers: workers) { chunk in
            var clock = WallClock(timeZone: timeZone)
            return chunk.map { file in
                var facts = BaseFileFacts(path: file.path, size: file.size.map { Int($0) })
                if modificationTimes, let nanoseconds = file.mtimeNanoseconds {
                    facts.mtime = clock.date(unixMilliseconds: nanoseconds / 1_000_000)
                }
                if let json = file.frontmatterJSON, case .object(let object)? = DataviewJSON.parse(json) {
                    facts.properties = Self.properties(object, types: types, from: file.path, links: links, timeZone: timeZone)
                }
                return facts
            }
        }.flatMap { $0 }
        phases.mark("properties")
        let index = FilePositions(stored.map(\.id))
        var factsIndex = [Int32](repeating: -1, count: stored.count)
        var next: Int32 = 0
        for (position, file) in stored.enumerated() where file.isCandidate {
            factsIndex[position] = next
            next += 1
        }
        let loadedIndex = { (id: Int64) -> Int? in
            guard let position = index.position(of: id), factsIndex[position] >= 0 else { return nil }
            return Int(factsIndex[position])
        }

        if needs.tags {
            // Row ids are file then position (`FileRows`): in id order without a sort.
            let tags = try store.connection.prepare("SELECT file_id, name FROM tag ORDER BY id")
            while try tags.step() {
                guard let file = loadedIndex(tags.int(0)) else { continue }
                let name = tags.text(1)
                if !facts[file].tags.contains(name) { facts[file].tags.append(name) }
            }
            tags.reset()
            phases.mark("tags")
        }
        // Backlinks alone need only who links to whom (two integers a link); `links` and `embeds` need the
        // link text too. Targets map to paths through the rows already read, not a join. The table is read
        // in order: through the target index it took six times longer (a row lookup per link).
        var sources: [[Int]] = needs.backlinks ? Array(repeating: [], count: stored.count) : []
        if needs.links || needs.backlinks {
            let statement = try store.connection.prepare(needs.links
                ? "SELECT source_id, target_id, kind, link_path, subpath, display FROM link WHERE via_reference = 0 ORDER BY id"
                : "SELECT source_id, target_id FROM link NOT INDEXED WHERE via_reference = 0 AND target_id IS NOT NULL")
            while try statement.step() {
                guard let source = index.position(of: statement.int(0)) else { continue }
                let target = statement.optionalInt(1).flatMap { index.position(of: $0) }
                if needs.backlinks, let target, sources[target].last != source { sources[target].append(source) }
                guard needs.links, factsIndex[source] >= 0 else { continue }
                let link = BaseLink(
                    target: statement.text(3), subpath: statement.optionalText(4), display: statement.optionalText(5),
                    resolvedPath: target.map { stored[$0].path })
                let kind = statement.text(2)
                if kind == "embed" || kind == "markdown-embed" {
                    facts[Int(factsIndex[source])].embeds.append(link)
                } else {
                    facts[Int(factsIndex[source])].links.append(link)
                }
            }
            statement.reset()
            phases.mark("links")
        }
        if needs.creationTimes, let vaultPath {
            for position in facts.indices {
                let attributes = try? FileManager.default.attributesOfItem(atPath: vaultPath + "/" + facts[position].path)
                let created = (attributes?[.creationDate] as? Date).map { DataviewDate(instant: $0, timeZone: timeZone) }
                facts[position].ctime = created ?? facts[position].mtime
            }
        }
        files = facts
        paths = stored.map(\.path)
        var byPath: [String: Int] = [:]
        byPath.reserveCapacity(stored.count)
        for (position, file) in stored.enumerated() { byPath[file.path] = position }
        self.byPath = byPath
        self.factsIndex = factsIndex
        // Positions are in path order, so sorted positions are sources in path order.
        backlinkSources = sources.map { positions in
            var sorted = positions.sorted()
            sorted.removeDuplicates()
            return sorted
        }
        fileLinks = needs.backlinks ? paths.map { BaseLink.to(BaseFileReference(path: $0)) } : []
    }

    public func facts(ofPath path: String) -> BaseFileFacts? {
        guard let position = byPath[path], factsIndex[position] >= 0 else { return nil }
        return files[Int(factsIndex[position])]
    }

    public func resolve(_ linkPath: String, from sourcePath: String) -> String? {
        links.resolvedPath(of: linkPath, from: sourcePath)
    }

    public func backlinks(ofPath path: String) -> [String] {
        guard let position = byPath[path], position < backlinkSources.count else { return [] }
        return backlinkSources[position].map { paths[$0] }
    }

    public func backlinkCount(ofPath path: String) -> Int {
        guard let position = byPath[path], position < backlinkSources.count else { return 0 }
        return backlinkSources[position].count
    }

    /// `file.backlinks` for every file of a base is many links: each file's link is made once.
    public func backlinkLinks(ofPath path: String) -> [BaseLink] {
        guard let position = byPath[path], position < backlinkSources.count else { return [] }
        return backlinkSources[position].map { fileLinks[$0] }
    }

    /// SQL true for the files meeting every condition (`1` with none), with its arguments. A condition
    /// the SQL cannot decide exactly keeps more files, never fewer: the filters decide in the end.
    static func sql(for conditions: [BaseProgram.CandidateCondition]) -> (String, [SQLiteValue]) {
        var clauses: [String] = []
        var arguments: [SQLiteValue] = []
        for condition in conditions {
            switch condition {
            case .tags(let tags):
                // By the tag index: a tag's key, or a key below it (`a/…`: from "a/" up to "a0", `0` following `/`).
                let tests = tags.map { _ in "name_key = ? OR (name_key >= ? AND name_key < ?)" }.joined(separator: " OR ")
                clauses.append("file.id IN (SELECT file_id FROM tag WHERE \(tests))")
                for tag in tags {
                    let key = UnicodeNormalization.matchKey(tag)
                    arguments += [.text(key), .text(key + "/"), .text(key + "0")]
                }
            case .folder(let folder):
                clauses.append("substr(file.path, 1, length(?) + 1) = ? || '/'")
                arguments += [.text(folder), .text(folder)]
            case .fileExtension(let ext) where ext.allSatisfy(\.isASCII):
                clauses.append("lower(file.extension) = lower(?)")
                arguments.append(.text(ext))
            default:
                break
            }
        }
        return (clauses.isEmpty ? "1" : "(" + clauses.joined(separator: " AND ") + ")", arguments)
    }

    /// Positions of files by id. Ids are dense row numbers, so an array finds them: the tag and link tables
    /// look one up per row (hundreds of thousands), where hashing cost more than reading the row.
    struct FilePositions {
        private var positions: [Int32]

        init(_ ids: [Int64]) {
            let highest = Int(min(ids.max() ?? 0, 1 << 26))
            positions = Array(repeating: -1, count: highest + 1)
            for (position, id) in ids.enumerated() where id >= 0 && id <= highest { positions[Int(id)] = Int32(position) }
        }

        func position(of id: Int64) -> Int? {
            guard id >= 0, id < positions.count else { return nil }
            let position = positions[Int(id)]
            return position < 0 ? nil : Int(position)
        }
    }

    /// Moments as wall-clock dates in one zone, looking the zone's offset up once per hour of time rather
    /// than once per file (the lookup is most of the cost of a date).
    struct WallClock {
        let timeZone: TimeZone
        private var offsets: [Int64: Int] = [:]

        init(timeZone: TimeZone) { self.timeZone = timeZone }

        mutating func date(unixMilliseconds: Int64) -> DataviewDate {
            let hour = unixMilliseconds / 3_600_000
            let offset: Int
            if let known = offsets[hour] {
                offset = known
            } else {
                offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(hour) * 3_600))
                offsets[hour] = offset
            }
            return DataviewDate(unixMilliseconds: unixMilliseconds, offsetSeconds: offset)
        }
    }

    // MARK: Property values

    /// `Note#Heading|shown` split as Obsidian splits a wikilink: the display after the first `|`, the subpath
    /// after the first `#`, the path trimmed of spaces.
    static func linkParts(_ inner: Substring) -> (path: String, subpath: String?, display: String?) {
        var target = inner
        var display: String? = nil
        if let bar = inner.firstIndex(of: "|") {
            display = String(inner[inner.index(after: bar)...])
            target = inner[..<bar]
        }
        var subpath: String? = nil
        if let hash = target.firstIndex(of: "#") {
            subpath = String(target[target.index(after: hash)...])
            target = target[..<hash]
        }
        return (String(target).trimmingSpaces, subpath, display)
    }

    /// `.obsidian/types.json`: the type Obsidian assigned each property (`{"types": {"due": "date"}}`).
    static func propertyTypes(vaultRoot: String) -> [String: String] {
        guard let data = FileManager.default.contents(atPath: vaultRoot + "/.obsidian/types.json"),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let types = object["types"] as? [String: String]
        else { return [:] }
        // Obsidian's property names ignore case: also under the lowercased name.
        var all = types
        for (key, type) in types where all[key.lowercased()] == nil { all[key.lowercased()] = type }
        return all
    }

    static func properties(
        _ object: DataviewObject, types: [String: String], from path: String, links: DataviewLinkTable, timeZone: TimeZone
    ) -> BaseObject {
        var entries: [(key: String, value: BaseValue)] = []
        entries.reserveCapacity(object.count)
        for (key, value) in object.pairs {
            let type = types.isEmpty ? nil : types[key] ?? types[key.lowercased()]
            entries.append((key, Self.value(value, type: type, from: path, links: links, timeZone: timeZone)))
        }
        return BaseObject(entries)
    }

    static func value(_ value: DataviewValue, type: String?, from path: String, links: DataviewLinkTable, timeZone: TimeZone) -> BaseValue {
        switch value {
        case .null: return .null
        case .boolean(let flag): return .boolean(flag)
        case .number(let number):
            if type == "checkbox" { return .boolean(number != 0) }
            return .number(number)
        case .string(let text):
            return string(text, type: type, from: path, links: links, timeZone: timeZone)
        case .list(let items):
            return .list(items.map { Self.value($0, type: type, from: path, links: links, timeZone: timeZone) })
        case .object(let object):
            return .object(properties(object, types: [:], from: path, links: links, timeZone: timeZone))
        default:
            return .string(DataviewText.plain(value))
        }
    }

    private static func string(_ text: String, type: String?, from path: String, links: DataviewLinkTable, timeZone: TimeZone) -> BaseValue {
        // Not Foundation's trimming: it cost more than the rest of loading a property.
        let trimmed = text.trimmingSpaces
        if trimmed.hasPrefix("[["), trimmed.hasSuffix("]]"), trimmed.utf8.count > 4 {
            let inner = trimmed.dropFirst(2).dropLast(2)
            // `[[a]] and [[b]]` is text with two links, not one link.
            guard !inner.utf8.contains(UInt8(ascii: "]")), !inner.utf8.contains(UInt8(ascii: "[")) else { return .string(text) }
            let (linkPath, subpath, display) = Self.linkParts(inner)
            return .link(BaseLink(
                target: linkPath, subpath: subpath, display: display,
                resolvedPath: linkPath.isEmpty ? path : links.resolvedPath(of: linkPath, from: path)))
        }
        switch type {
        case "text", "multitext", "tags", "aliases":
            return .string(text)
        case "number":
            return Double(trimmed).map(BaseValue.number) ?? .string(text)
        case "checkbox":
            if trimmed.lowercased() == "true" { return .boolean(true) }
            if trimmed.lowercased() == "false" { return .boolean(false) }
            return .string(text)
        default:
            // Dates and date-times, declared or not (Obsidian infers the type from the first value it sees).
            if let first = trimmed.first, first.isNumber, trimmed.count >= 10, let date = BaseDates.parse(trimmed, timeZone: timeZone) {
                return .date(date)
            }
            return .string(text)
        }
    }
}

extension Array where Element: Equatable {
    /// Removes neighbours equal to the one before them (on a sorted array: every repeat).
    fileprivate mutating func removeDuplicates() {
        guard count > 1 else { return }
        var kept = 1
        for position in 1..<count where self[position] != self[kept - 1] {
            self[kept] = self[position]
            kept += 1
        }
        removeLast(count - kept)
    }
}
