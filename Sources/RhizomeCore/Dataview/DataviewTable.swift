/// What a Dataview query shows: a table (also for `LIST`: the id and the value) or tasks, and the rows
/// dropped on the way because an expression failed on them (Dataview drops them silently).
public struct DataviewTable: Sendable {
    public enum Kind: String, Sendable { case list, table, task }

    public struct Row: Sendable {
        /// The page link, or the group key after `GROUP BY`; nil for `WITHOUT ID`.
        public var id: DataviewValue?
        /// The column values (TABLE), the list value if the LIST has an expression, or nothing.
        public var values: [DataviewValue]

        public init(id: DataviewValue?, values: [DataviewValue]) {
            self.id = id
            self.values = values
        }
    }

    /// One task of a `TASK` query.
    public struct Task: Sendable {
        public var path: String
        /// 1-based line in the note.
        public var line: Int
        public var status: String
        public var text: String
        /// Nesting depth under other tasks of the result (0 for a top-level one).
        public var depth: Int
        /// The GROUP BY key of the task's group, when the query groups.
        public var group: DataviewValue? = nil

        public init(path: String, line: Int, status: String, text: String, depth: Int, group: DataviewValue? = nil) {
            self.path = path
            self.line = line
            self.status = status
            self.text = text
            self.depth = depth
            self.group = group
        }
    }

    public var kind: Kind
    /// Column headers: the id column (`File`, or the group name) unless `WITHOUT ID`, then the columns.
    public var columns: [String]
    public var rows: [Row]
    public var tasks: [Task]
    /// The group key's name when the result is grouped (`GROUP BY … AS name`).
    public var groupName: String?
    /// Rows dropped because evaluating an expression failed on them.
    public var droppedRows: Int
    /// The first few of those errors, for `--explain`.
    public var droppedRowErrors: [String]

    public init(kind: Kind, columns: [String], rows: [Row], tasks: [Task], groupName: String?, droppedRows: Int, droppedRowErrors: [String]) {
        self.kind = kind
        self.columns = columns
        self.rows = rows
        self.tasks = tasks
        self.groupName = groupName
        self.droppedRows = droppedRows
        self.droppedRowErrors = droppedRowErrors
    }
}
