/// One entry of a `.base` file's `views` list: its layout, name, filters, columns, sort, grouping, limit,
/// summaries and the settings of its layout, with every key Rhizome does not interpret kept as written.
///
/// ```yaml
/// views:
///   - type: table
///     name: To watch
///     filters: 'rating.isEmpty()'
///     order: [file.name, year]
///     sort:
///       - property: year
///         direction: DESC
///     columnSize:
///       file.name: 283
/// ```
public struct BaseViewDefinition: Sendable, Hashable {
    /// The layouts Obsidian ships (`map` through the official Maps plugin); any other type is a plugin's.
    public static let builtInTypes: Set<String> = ["table", "cards", "list", "map"]

    /// `table`, `cards`, `list`, `map`, or a plugin's view type, as written.
    public var type: String
    /// The display name, used by `![[File.base#Name]]`. An unnamed view is named after its layout
    /// (`Table`, `Cards`, `List`, `Map`, or the plugin's type as written), then `Table 2`… when that name
    /// is already taken: `isNamed` tells the two apart.
    public var name: String
    public var isNamed: Bool
    /// This view's own filters, joined with AND to the base's global filters when evaluated.
    public var filters: BaseFilter?
    /// The properties shown (the columns of a table), in order.
    public var order: [BasePropertyName]
    /// The sort keys, most significant first.
    public var sort: [BaseSortKey]
    /// The property the rows are grouped by, and the order of the groups.
    public var groupBy: BaseSortKey?
    /// At most this many rows (after sorting); nil for all.
    public var limit: Int?
    /// Which summary each property shows (a table's summary bar), in file order.
    public var summaries: [BaseViewSummary]
    /// Cards: the property holding each card's cover image (a link, a URL or a colour).
    public var image: BasePropertyName?
    /// Map: the property holding each marker's coordinates (`"lat, lng"` or a two-item list).
    public var coordinates: BasePropertyName?
    /// Map: the property holding each marker's Lucide icon name.
    public var markerIcon: BasePropertyName?
    /// Map: the property holding each marker's CSS colour.
    public var markerColor: BasePropertyName?
    /// Every other key, in file order: layout settings (`columnSize`, `rowHeight`, `cardSize`, `imageFit`,
    /// `imageAspectRatio`, `markers`, `indentProperties`, `separator`, `defaultZoom`, `center`, …) and
    /// plugins' own.
    public var extra: [FrontmatterEntry]
    /// Where the view's mapping starts (its first key).
    public var line: Int
    public var column: Int

    public init(
        type: String, name: String, isNamed: Bool = true, filters: BaseFilter? = nil, order: [BasePropertyName] = [],
        sort: [BaseSortKey] = [], groupBy: BaseSortKey? = nil, limit: Int? = nil, summaries: [BaseViewSummary] = [],
        image: BasePropertyName? = nil, coordinates: BasePropertyName? = nil, markerIcon: BasePropertyName? = nil,
        markerColor: BasePropertyName? = nil, extra: [FrontmatterEntry] = [], line: Int = 1, column: Int = 1
    ) {
        self.type = type
        self.name = name
        self.isNamed = isNamed
        self.filters = filters
        self.order = order
        self.sort = sort
        self.groupBy = groupBy
        self.limit = limit
        self.summaries = summaries
        self.image = image
        self.coordinates = coordinates
        self.markerIcon = markerIcon
        self.markerColor = markerColor
        self.extra = extra
        self.line = line
        self.column = column
    }

    /// The value of a key kept in `extra`, if the view has it.
    public func extra(_ key: String) -> FrontmatterNode? {
        extra.first { $0.key == key }?.value
    }

    /// The name Obsidian-style for a view without `name:`: its layout, capitalized (`Table`).
    static func defaultName(ofType type: String) -> String {
        guard builtInTypes.contains(type), let first = type.first else { return type }
        return first.uppercased() + type.dropFirst()
    }
}

/// A sort key of a view (`sort:` entries, `groupBy:`): a property and a direction.
public struct BaseSortKey: Sendable, Hashable {
    public var property: BasePropertyName
    /// `direction: DESC` (any case); `ASC` or no direction sorts ascending.
    public var descending: Bool
    /// Where the entry starts in the file.
    public var line: Int
    public var column: Int

    public init(property: BasePropertyName, descending: Bool = false, line: Int = 1, column: Int = 1) {
        self.property = property
        self.descending = descending
        self.line = line
        self.column = column
    }
}

/// One entry of a view's `summaries:` mapping: the summary a property shows, by name (a default one such
/// as `Average`, or a custom one from the base's `summaries`).
public struct BaseViewSummary: Sendable, Hashable {
    public var property: BasePropertyName
    public var summary: String
    /// Where the property key is in the file.
    public var line: Int
    public var column: Int

    public init(property: BasePropertyName, summary: String, line: Int = 1, column: Int = 1) {
        self.property = property
        self.summary = summary
        self.line = line
        self.column = column
    }
}
