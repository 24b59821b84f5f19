/// A `.base` file (or a `base` code block) read into its parts: global filters, formulas, property display
/// names, custom summaries and views, each with where it is written. Expressions stay text (`BaseSource`):
/// the expression parser reads them. Problems Obsidian would tolerate are collected in `problems`; a file
/// Obsidian cannot show at all is a `BaseDocumentError` from `parse` (Obsidian's help, "Bases syntax").
///
/// A base with no views (an empty file, `{}`, `views: []`) is valid: Obsidian then shows one table of
/// every file, and evaluation should do the same (a `table` view named `Table` with no filters and no
/// columns of its own) — `views` stays empty here so that default is the evaluator's decision.
public struct BaseDocument: Sendable, Hashable {
    /// The top-level keys Obsidian reads.
    public static let topLevelKeys = ["filters", "formulas", "properties", "summaries", "views"]
    /// The summaries every view can name without defining them (Obsidian's help, "Bases syntax",
    /// Default Summary Formulas).
    public static let defaultSummaryNames = [
        "Average", "Min", "Max", "Sum", "Range", "Median", "Stddev", "Earliest", "Latest", "Checked", "Unchecked",
        "Empty", "Filled", "Unique",
    ]

    /// Filters every view applies (joined with AND to the view's own).
    public var filters: BaseFilter?
    /// The `formulas` section in file order: `formula.<name>` in views and expressions.
    public var formulas: [BaseNamedSource]
    /// The `properties` section in file order: display names and other per-property settings.
    public var properties: [BasePropertyConfig]
    /// The `summaries` section: custom summary formulas (over `values`), by name.
    public var summaries: [BaseNamedSource]
    /// The views in file order; the first one is the default (of an embed, of `view(named: nil)`).
    public var views: [BaseViewDefinition]
    /// What is probably a mistake, ordered by position in the file.
    public var problems: [BaseDocumentProblem]

    public init(
        filters: BaseFilter? = nil, formulas: [BaseNamedSource] = [], properties: [BasePropertyConfig] = [],
        summaries: [BaseNamedSource] = [], views: [BaseViewDefinition] = [], problems: [BaseDocumentProblem] = []
    ) {
        self.filters = filters
        self.formulas = formulas
        self.properties = properties
        self.summaries = summaries
        self.views = views
        self.problems = problems
    }

    /// The view an embed `![[File.base#name]]` shows: the first one with exactly that name; the first view
    /// when `name` is nil. Nil when there is no such view (or no view at all).
    public func view(named name: String?) -> BaseViewDefinition? {
        guard let name else { return views.first }
        return views.first { $0.name == name }
    }

    /// The formula `formula.<name>` refers to.
    public func formula(named name: String) -> BaseNamedSource? {
        formulas.first { $0.name == name }
    }

    /// The display name `properties` gives a property (`year` and `note.year` alike), if any.
    public func displayName(of property: BasePropertyName) -> String? {
        properties.last { $0.name == property && $0.displayName != nil }?.displayName
    }
}

/// A named expression: an entry of `formulas` or of `summaries`.
public struct BaseNamedSource: Sendable, Hashable {
    /// The key as written (`formatted_price`, `Type icon`).
    public var name: String
    public var source: BaseSource
    /// Where the key is in the file.
    public var keyLine: Int
    public var keyColumn: Int

    public init(name: String, source: BaseSource, keyLine: Int, keyColumn: Int) {
        self.name = name
        self.source = source
        self.keyLine = keyLine
        self.keyColumn = keyColumn
    }
}

/// An entry of `properties`: how views should show a property.
public struct BasePropertyConfig: Sendable, Hashable {
    public var name: BasePropertyName
    /// The column header of a table, the label of a card; not used by filters or formulas.
    public var displayName: String?
    /// Every other key of the entry, as written (views may keep their own settings here).
    public var extra: [FrontmatterEntry]
    /// Where the property's key is in the file.
    public var keyLine: Int
    public var keyColumn: Int

    public init(name: BasePropertyName, displayName: String? = nil, extra: [FrontmatterEntry] = [], keyLine: Int = 1, keyColumn: Int = 1) {
        self.name = name
        self.displayName = displayName
        self.extra = extra
        self.keyLine = keyLine
        self.keyColumn = keyColumn
    }
}
