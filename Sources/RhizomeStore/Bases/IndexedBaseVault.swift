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
        public var tags = true
        public var links = true
        public var creationTimes = true

        public init(tags: Bool = true, links: Bool = true, creationTimes: Bool = true) {
            self.tags = tags
            self.links = links
            self.creationTimes = creationTimes
        }

        /// Only what `program` can read: tags for `tags`/`hasTag`, links for `links`, `embeds`,
        /// `backlinks`, `hasLink`, `linksTo`, creation times for `ctime`.
        public init(program: BaseProgram) {
            var names: Set<String> = []
            func collect(_ expression: BaseExpression) {
                expression.visit { node in
                    switch node.kind {
                    case .identifier(let name), .member(_, let name), .method(_, let name, _): names.insert(name)
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
                    + view.summaries.map(\.property)
                for property in properties where property.namespace == .file { names.insert(property.name) }
            }
            tags = !names.isDisjoint(with: ["tags", "hasTag"])
            links = !names.isDisjoint(with: ["links", "embeds", "backlinks", "hasLink", "linksTo"])
            creationTimes = names.contains("ctime")
        }
    }

    public let files: [BaseFileFacts]
    private let byPath: [String: Int]
    private let backlinksByPath: [String: [String]]
    private let links: DataviewLinkTable

    init(store: IndexStore, needs: Needs) throws {
        links = store.cachedLinkTable()
        let vaultPath = try store.indexedVaultPath()
        let types = vaultPath.map(Self.propertyTypes(vaultRoot:)) ?? [:]
        let timeZone = TimeZone.current
        var rows: [(id: Int64, facts: BaseFileFacts)] = []
        let statement = try store.connection.prepare("SELECT id, path, size, mtime_ns, frontmatter_json FROM file ORDER BY path")
        while try statement.step() {
            let path = statement.text(1)
            var facts = BaseFileFacts(path: path, size: statement.optionalInt(2).map { Int($0) })
            if let nanoseconds = statement.optionalInt(3) {
                facts.mtime = DataviewDate(unixMilliseconds: nanoseconds / 1_000_000, timeZone: timeZone)
            }
            if let json = statement.optionalText(4), case .object(let object)? = DataviewJSON.parse(json) {
                facts.properties = Self.properties(object, types: types, from: path, links: links, timeZone: timeZone)
            }
            rows.append((statement.int(0), facts))
        }
        statement.reset()
        var index: [Int64: Int] = [:]
        for (position, row) in rows.enumerated() { index[row.id] = position }

        if needs.tags {
            let tags = try store.connection.prepare("SELECT file_id, name FROM tag ORDER BY file_id, id")
            while try tags.step() {
                guard let position = index[tags.int(0)] else { continue }
                let name = tags.text(1)
                if !rows[position].facts.tags.contains(name) { rows[position].facts.tags.append(name) }
            }
            tags.reset()
        }
        var backlinks: [String: [String]] = [:]
        if needs.links {
            let statement = try store.connection.prepare("""
                SELECT l.source_id, l.kind, l.link_path, l.subpath, l.display, t.path FROM link l LEFT JOIN file t ON t.id = l.target_id
                WHERE l.via_reference = 0 ORDER BY l.id
                """)
            while try statement.step() {
                guard let position = index[statement.int(0)] else { continue }
                let kind = statement.text(1)
                let link = BaseLink(
                    target: statement.text(2), subpath: statement.optionalText(3), display: statement.optionalText(4),
                    resolvedPath: statement.optionalText(5))
                if kind == "embed" || kind == "markdown-embed" {
                    rows[position].facts.embeds.append(link)
                } else {
                    rows[position].facts.links.append(link)
                }
                if let target = link.resolvedPath {
                    let source = rows[position].facts.path
                    if backlinks[target]?.last != source { backlinks[target, default: []].append(source) }
                }
            }
            statement.reset()
        }
        if needs.creationTimes, let vaultPath {
            for position in rows.indices {
                let attributes = try? FileManager.default.attributesOfItem(atPath: vaultPath + "/" + rows[position].facts.path)
                let created = (attributes?[.creationDate] as? Date).map { DataviewDate(instant: $0, timeZone: timeZone) }
                rows[position].facts.ctime = created ?? rows[position].facts.mtime
            }
        }
        files = rows.map(\.facts)
        var byPath: [String: Int] = [:]
        for (position, file) in files.enumerated() { byPath[file.path] = position }
        self.byPath = byPath
        backlinksByPath = backlinks.mapValues { Array(Set($0)).sorted() }
    }

    public func facts(ofPath path: String) -> BaseFileFacts? {
        byPath[path].map { files[$0] }
    }

    public func resolve(_ linkPath: String, from sourcePath: String) -> String? {
        links.resolvedPath(of: linkPath, from: sourcePath)
    }

    public func backlinks(ofPath path: String) -> [String] {
        backlinksByPath[path] ?? []
    }

    // MARK: Property values

    /// `.obsidian/types.json`: the type Obsidian assigned each property (`{"types": {"due": "date"}}`).
    static func propertyTypes(vaultRoot: String) -> [String: String] {
        guard let data = FileManager.default.contents(atPath: vaultRoot + "/.obsidian/types.json"),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let types = object["types"] as? [String: String]
        else { return [:] }
        return types
    }

    static func properties(
        _ object: DataviewObject, types: [String: String], from path: String, links: DataviewLinkTable, timeZone: TimeZone
    ) -> BaseObject {
        var entries: [(key: String, value: BaseValue)] = []
        entries.reserveCapacity(object.count)
        for (key, value) in object.pairs {
            entries.append((key, Self.value(value, type: types[key.lowercased()] ?? types[key], from: path, links: links, timeZone: timeZone)))
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
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("[["), trimmed.hasSuffix("]]"), trimmed.count > 4 {
            let inner = String(trimmed.dropFirst(2).dropLast(2))
            guard !inner.contains("]]") else { return .string(text) }
            let (linkPath, subpath, display) = DataviewLink.parts(of: inner)
            let target = linkPath.trimmingCharacters(in: .whitespaces)
            return .link(BaseLink(
                target: target, subpath: subpath, display: display,
                resolvedPath: target.isEmpty ? path : links.resolvedPath(of: target, from: path)))
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
