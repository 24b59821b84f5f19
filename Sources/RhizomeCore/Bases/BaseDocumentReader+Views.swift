/// Reading the `views` list of a `.base` file: each view's type, name, filters, order, sort, grouping,
/// limit, summaries and layout settings, and names given twice.
extension BaseDocumentReader {
    /// Keys of a view that Obsidian's own layouts write and Rhizome keeps in `extra` unread: table
    /// (`columnSize`, `rowHeight`), cards (`cardSize`, `imageFit`, `imageAspectRatio`), list (`markers`,
    /// `indentProperties`, `separator`) and the Maps plugin (obsidianmd/obsidian-maps `loadConfig`). A view
    /// keeps the settings of its other layouts when its type changes, so they are known for every type.
    static let knownViewSettingKeys: Set<String> = [
        "columnSize", "rowHeight", "cardSize", "imageFit", "imageAspectRatio", "markers", "indentProperties", "separator",
        "markerSvg", "defaultZoom", "minZoom", "maxZoom", "center", "mapHeight", "mapTiles", "mapTilesDark",
    ]
    /// Keys Rhizome reads into `BaseViewDefinition`'s own properties.
    static let readViewKeys: [String] = [
        "type", "name", "filters", "order", "sort", "groupBy", "limit", "summaries", "image", "coordinates", "markerIcon", "markerColor",
    ]

    mutating func views(_ nodes: [FrontmatterNode], customSummaries: Set<String>) -> [BaseViewDefinition] {
        var views: [BaseViewDefinition] = []
        var nameNodes: [FrontmatterNode?] = []
        for (index, node) in nodes.enumerated() {
            guard case .map(let entries) = node.value else {
                report(
                    .baseInvalidView, "view \(index + 1) is a \(node.value.typeName), not a mapping; it is ignored", line: node.line, column: node.column,
                    fix: "write the view as `- type: table` with `name: …` and its settings indented under it")
                continue
            }
            let (view, nameNode) = self.view(entries, at: node, customSummaries: customSummaries)
            views.append(view)
            nameNodes.append(nameNode)
        }
        // Names given twice: `![[File.base#Name]]` can only reach the first.
        var seen: Set<String> = []
        for (view, nameNode) in zip(views, nameNodes) where view.isNamed {
            if !seen.insert(view.name).inserted, let nameNode {
                report(
                    .baseDuplicateView, "another view before this one is named `\(view.name)`; an embed `#\(view.name)` shows the first",
                    line: nameNode.line, column: nameNode.column, fix: "give each view its own name")
            }
        }
        // Unnamed views take their layout's name, numbered past the names already taken.
        for index in views.indices where !views[index].isNamed {
            let base = BaseViewDefinition.defaultName(ofType: views[index].type)
            var name = base
            var number = 2
            while seen.contains(name) {
                name = "\(base) \(number)"
                number += 1
            }
            seen.insert(name)
            views[index].name = name
        }
        return views
    }

    private mutating func view(
        _ entries: [FrontmatterEntry], at node: FrontmatterNode, customSummaries: Set<String>
    ) -> (BaseViewDefinition, nameNode: FrontmatterNode?) {
        var view = BaseViewDefinition(type: "table", name: "", isNamed: false, line: node.line, column: node.column)
        var nameNode: FrontmatterNode?
        var hasType = false
        var unread: [FrontmatterEntry] = []
        for entry in entries {
            let value = entry.value
            switch entry.key {
            case "type":
                if let text = value.value.scalarText, !text.isEmpty {
                    view.type = text
                    hasType = true
                }
            case "name":
                if let text = value.value.scalarText {
                    view.name = text
                    view.isNamed = true
                    nameNode = value
                }
            case "filters":
                view.filters = filter(value)
            case "order":
                view.order = propertyList(entry)
            case "sort":
                view.sort = sortKeys(entry)
            case "groupBy":
                view.groupBy = groupBy(entry)
            case "limit":
                view.limit = limit(entry)
            case "summaries":
                view.summaries = summaries(entry, customSummaries: customSummaries)
            case "image":
                view.image = propertyName(entry)
            case "coordinates":
                view.coordinates = propertyName(entry)
            case "markerIcon":
                view.markerIcon = propertyName(entry)
            case "markerColor":
                view.markerColor = propertyName(entry)
            default:
                view.extra.append(entry)
                unread.append(entry)
            }
        }
        if !hasType {
            report(
                .baseInvalidView, "this view has no `type`; it is read as a table", line: node.line, column: node.column,
                fix: "add `type: table` (or `cards`, `list`, `map`)")
        }
        // A plugin's view may keep any key; one of Obsidian's own layouts only its settings.
        if BaseViewDefinition.builtInTypes.contains(view.type) {
            let known = Self.readViewKeys + Self.knownViewSettingKeys.sorted()
            for entry in unread where !Self.knownViewSettingKeys.contains(entry.key) {
                let suggestion = NearestName.nearest(entry.key, among: known)
                report(
                    .baseUnknownKey, "`\(entry.key)` is not a setting of a \(view.type) view; it is kept but not used",
                    severity: suggestion == nil ? .info : .warning, line: entry.keyLine, column: entry.keyColumn,
                    fix: suggestion.map { "did you mean `\($0)`?" } ?? "remove it unless a plugin reads it")
            }
        }
        return (view, nameNode)
    }

    /// A single property name (`image: note.cover`); nil, reported, when it is not text.
    private mutating func propertyName(_ entry: FrontmatterEntry) -> BasePropertyName? {
        if let text = entry.value.value.scalarText, !text.isEmpty, !isNonTextScalar(entry.value) { return BasePropertyName(text) }
        guard entry.value.value != .null else { return nil }
        report(
            .baseInvalidView, "`\(entry.key)` is a \(entry.value.value.typeName), not a property name; it is ignored",
            line: entry.value.line, column: entry.value.column, fix: "write one property, e.g. `\(entry.key): note.cover`")
        return nil
    }

    private func isNonTextScalar(_ node: FrontmatterNode) -> Bool {
        switch node.value {
        case .bool, .number: return true
        default: return false
        }
    }

    /// `order:`: a list of property names.
    private mutating func propertyList(_ entry: FrontmatterEntry) -> [BasePropertyName] {
        guard case .list(let items) = entry.value.value else {
            if entry.value.value == .null { return [] }
            report(
                .baseInvalidView, "`\(entry.key)` is a \(entry.value.value.typeName), not a list of properties", line: entry.value.line,
                column: entry.value.column, fix: "write each property as a list item: `- file.name`")
            return entry.value.value.scalarText.map { [BasePropertyName($0)] } ?? []
        }
        var names: [BasePropertyName] = []
        for item in items {
            guard let text = item.value.scalarText, !text.isEmpty else {
                report(
                    .baseInvalidView, "this item of `\(entry.key)` is a \(item.value.typeName), not a property name; it is ignored",
                    line: item.line, column: item.column, fix: "write one property per item, e.g. `- note.year`")
                continue
            }
            names.append(BasePropertyName(text))
        }
        return names
    }

    /// `sort:`: a list of `{property | column, direction}` mappings.
    private mutating func sortKeys(_ entry: FrontmatterEntry) -> [BaseSortKey] {
        guard case .list(let items) = entry.value.value else {
            if entry.value.value != .null {
                report(
                    .baseInvalidSort, "`sort` is a \(entry.value.value.typeName), not a list of sort keys", line: entry.value.line,
                    column: entry.value.column, fix: "write each key as `- property: year` with `direction: DESC` under it")
            }
            return []
        }
        return items.compactMap { sortKey($0, section: "sort") }
    }

    /// `groupBy:`: one `{property, direction}` mapping (a bare property name is read as ascending).
    private mutating func groupBy(_ entry: FrontmatterEntry) -> BaseSortKey? {
        if let text = entry.value.value.scalarText, !text.isEmpty {
            return BaseSortKey(property: BasePropertyName(text), line: entry.value.line, column: entry.value.column)
        }
        if entry.value.value == .null { return nil }
        return sortKey(entry.value, section: "groupBy")
    }

    private mutating func sortKey(_ node: FrontmatterNode, section: String) -> BaseSortKey? {
        guard case .map(let entries) = node.value else {
            report(
                .baseInvalidSort, "this `\(section)` entry is a \(node.value.typeName), not a mapping; it is ignored", line: node.line,
                column: node.column, fix: "write `property: <name>` and `direction: ASC` or `DESC`")
            return nil
        }
        var property: BasePropertyName?
        var descending = false
        for entry in entries {
            switch entry.key {
            case "property", "column":
                if let text = entry.value.value.scalarText, !text.isEmpty { property = BasePropertyName(text) }
            case "direction":
                let text = entry.value.value.scalarText ?? ""
                switch text.uppercased() {
                case "ASC": descending = false
                case "DESC": descending = true
                default:
                    report(
                        .baseInvalidSort, "the direction `\(text)` is neither ASC nor DESC; ascending is used", line: entry.value.line,
                        column: entry.value.column, fix: "write `direction: ASC` or `direction: DESC`")
                }
            default:
                let suggestion = NearestName.nearest(entry.key, among: ["property", "direction"]).map { "did you mean `\($0)`? " } ?? ""
                report(
                    .baseUnknownKey, "`\(entry.key)` is not a key of a `\(section)` entry; it is ignored", line: entry.keyLine,
                    column: entry.keyColumn, fix: "\(suggestion)an entry has `property` and `direction`")
            }
        }
        guard let property else {
            report(
                .baseInvalidSort, "this `\(section)` entry names no property; it is ignored", line: node.line, column: node.column,
                fix: "add `property: <name>`")
            return nil
        }
        return BaseSortKey(property: property, descending: descending, line: node.line, column: node.column)
    }

    /// `limit:`: a whole number of rows, zero or more.
    private mutating func limit(_ entry: FrontmatterEntry) -> Int? {
        if case .number(let value, _) = entry.value.value, value.rounded() == value, value >= 0, value < 1e15 {
            return Int(value)
        }
        if entry.value.value == .null { return nil }
        let text = entry.value.value.scalarText.map { "`\($0)`" } ?? "a \(entry.value.value.typeName)"
        report(
            .baseInvalidLimit, "the limit \(text) is not a whole number of rows, zero or more; the view is not limited",
            line: entry.value.line, column: entry.value.column, fix: "write a whole number, e.g. `limit: 10`, or remove `limit`")
        return nil
    }

    /// A view's `summaries:`: property → the name of a default or custom summary.
    private mutating func summaries(_ entry: FrontmatterEntry, customSummaries: Set<String>) -> [BaseViewSummary] {
        guard case .map(let entries) = entry.value.value else {
            if entry.value.value != .null {
                report(
                    .baseInvalidView, "the view's `summaries` is a \(entry.value.value.typeName), not a mapping of properties to summaries",
                    line: entry.value.line, column: entry.value.column, fix: "write `<property>: Average` (or another summary) under `summaries:`")
            }
            return []
        }
        let known = BaseDocument.defaultSummaryNames + customSummaries.sorted()
        var summaries: [BaseViewSummary] = []
        for item in entries {
            guard let name = item.value.value.scalarText, !name.isEmpty else {
                report(
                    .baseInvalidView, "the summary of `\(item.key)` is a \(item.value.value.typeName), not a summary's name; it is ignored",
                    line: item.value.line, column: item.value.column, fix: "write a summary's name, e.g. `\(item.key): Sum`")
                continue
            }
            if !BaseDocument.defaultSummaryNames.contains(name), !customSummaries.contains(name) {
                let suggestion = NearestName.nearest(name, among: known).map { "did you mean `\($0)`? " } ?? ""
                report(
                    .baseUnknownSummary, "`\(name)` is neither a default summary nor one of this base's `summaries`",
                    line: item.value.line, column: item.value.column,
                    fix: "\(suggestion)use one of \(BaseDocument.defaultSummaryNames.joined(separator: ", ")), or define `\(name)` under the top-level `summaries:`")
            }
            summaries.append(BaseViewSummary(property: BasePropertyName(item.key), summary: name, line: item.keyLine, column: item.keyColumn))
        }
        return summaries
    }
}
