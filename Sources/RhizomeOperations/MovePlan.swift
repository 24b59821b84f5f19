import RhizomeCore

/// What `rhizome mv` (and MCP `move_note`) will do: the files that move, and for every file whose text
/// changes, the link edits and both versions of its bytes. Made by `VaultEditor.planMove`, applied by
/// `VaultEditor.apply`; nothing is written before that.
public struct MovePlan: Sendable {
    /// One file that moves (a folder move lists each of its vault files).
    public struct Move: Sendable, Hashable, Codable {
        public var from: String
        public var to: String

        public init(from: String, to: String) {
            self.from = from
            self.to = to
        }
    }

    /// A file whose links are rewritten (at its path after the move).
    public struct FileChange: Sendable {
        public var path: String
        /// Its path before the move, when it moves.
        public var oldPath: String
        public var edits: [RelinkPlanner.LinkEdit]
        public var oldBytes: [UInt8]
        public var newBytes: [UInt8]
    }

    /// Vault-relative source and destination, as resolved from the arguments.
    public var source: String
    public var destination: String
    public var isFolder: Bool
    public var moves: [Move]
    public var changes: [FileChange]
    /// Unresolved links that the moved files' new names will resolve (their text is kept).
    public var newlyResolved: [RelinkPlanner.NewlyResolved]
    /// The journaled steps, and every content they need.
    public var operation: VaultOperation
    var contents: [[UInt8]]

    public var linkCount: Int { changes.reduce(0) { $0 + $1.edits.count } }
}

/// What `rhizome rm` (and MCP `delete_note`) will do: files or folders moved to the vault's `.trash/`.
public struct TrashPlan: Sendable {
    public var moves: [MovePlan.Move]
    /// Links elsewhere in the vault that reach the trashed files and become unresolved.
    public var brokenLinks: [BrokenLink]
    public var operation: VaultOperation

    public struct BrokenLink: Sendable, Hashable, Codable {
        public var source: String
        public var line: Int
        public var column: Int
        public var linkPath: String
        public var target: String
    }
}

/// What `rhizome undo` will do: the steps of the last change, reversed.
public struct UndoPlan: Sendable {
    /// The change it reverses.
    public var original: VaultOperation
    public var operation: VaultOperation
}

/// What a move (or heading rename) did or would do, as `rhizome mv --json` and MCP `move_note` report it:
/// the moves, per rewritten file its link edits and new hash, and the links a new name resolves.
public struct MoveReport: Encodable, Sendable {
    public struct File: Encodable, Sendable {
        public var path: String
        public var oldPath: String
        public var links: [RelinkPlanner.LinkEdit]
        public var hash: String
    }

    public var source: String
    public var destination: String
    public var isFolder: Bool
    public var written: Bool
    @NullEncoded public var operation: String?
    public var moves: [MovePlan.Move]
    public var files: [File]
    public var linkCount: Int
    public var newlyResolved: [RelinkPlanner.NewlyResolved]

    public init(_ plan: MovePlan, operation: VaultOperation?) {
        source = plan.source
        destination = plan.destination
        isFolder = plan.isFolder
        written = operation != nil
        self.operation = operation?.id
        moves = plan.moves
        files = plan.changes.map { File(path: $0.path, oldPath: $0.oldPath, links: $0.edits, hash: VaultOperation.FileState(bytes: $0.newBytes).hash) }
        linkCount = plan.linkCount
        newlyResolved = plan.newlyResolved
    }

    private enum CodingKeys: String, CodingKey { case source, destination, isFolder, written, operation, moves, files, linkCount, newlyResolved }

}

/// What `rhizome rm --json` and MCP `delete_note` report.
public struct TrashReport: Encodable, Sendable {
    public var written: Bool
    @NullEncoded public var operation: String?
    public var moves: [MovePlan.Move]
    public var brokenLinks: [TrashPlan.BrokenLink]

    public init(_ plan: TrashPlan, operation: VaultOperation?) {
        written = operation != nil
        self.operation = operation?.id
        moves = plan.moves
        brokenLinks = plan.brokenLinks
    }

    private enum CodingKeys: String, CodingKey { case written, operation, moves, brokenLinks }

}
