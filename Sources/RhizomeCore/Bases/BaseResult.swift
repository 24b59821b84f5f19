/// What a view of a base shows: its columns, its rows in order (each cell a value or that cell's error),
/// the groups when the view groups, the summaries, and how many rows there were before `limit`.
public struct BaseResult: Sendable {
    public struct Column: Sendable {
        /// The property as the view names it, canonical: `note.price`, `file.name`, `formula.ppu`.
        public var property: String
        /// The column header: the `properties` display name, else the property's own name.
        public var displayName: String
    }

    /// One cell: a value, or the error of a formula for this row (shown in its cell, as Obsidian does).
    public enum Cell: Sendable {
        case value(BaseValue)
        case error(String)
    }

    public struct Row: Sendable {
        public var path: String
        /// One cell per column, in column order.
        public var cells: [Cell]
    }

    public struct Summary: Sendable {
        public var property: String
        /// The summary's name: a default one (`Average`) or a custom one from the base's `summaries`.
        public var name: String
        public var value: Cell
    }

    public struct Group: Sendable {
        /// The value of the `groupBy` property shared by the group's rows (null for rows without it).
        public var key: BaseValue
        public var rows: [Row]
        public var summaries: [Summary]
    }

    public var viewName: String
    public var viewType: String
    public var columns: [Column]
    /// Every row in view order, after `limit` (also when grouped: the groups hold the same rows).
    public var rows: [Row]
    /// Set when the view has `groupBy`: the groups in the group direction, each with its rows in sort order.
    public var groups: [Group]?
    /// The view's summaries over all shown rows.
    public var summaries: [Summary]
    /// Rows that passed the filters, before `limit`.
    public var total: Int
    public var truncated: Bool { rows.count < total }
}
