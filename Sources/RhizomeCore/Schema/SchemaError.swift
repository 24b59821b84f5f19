/// A schema file or the vault config that Rhizome cannot use: where it is and how to fix it.
public struct SchemaError: RhizomeError, Hashable {
    public enum Kind: String, Sendable, Hashable {
        /// Not valid YAML/JSON, or not shaped like a schema.
        case invalidSchema = "schema-invalid"
        /// A JSON Schema keyword Rhizome does not support (never silently ignored).
        case unsupportedKeyword = "schema-unsupported-keyword"
        /// A `$ref` that does not name an entry of `$defs`.
        case unresolvedReference = "schema-unresolved-ref"
        /// Two files declare the same type in the same folder.
        case duplicateType = "schema-duplicate-type"
        /// `.rhizome/config.yaml` is not valid.
        case invalidConfig = "config-invalid"
        /// A schema file or config written for a newer Rhizome.
        case newerVersion = "schema-newer-version"
        /// The schema folder or a schema file cannot be read.
        case unreadable = "schema-unreadable"
    }

    public var kind: Kind
    /// The file concerned: a path, or `built-in:NAME` for an embedded schema.
    public var file: String
    public var line: Int?
    public var column: Int?
    public var message: String
    public var fix: String?

    public init(_ kind: Kind, file: String, line: Int? = nil, column: Int? = nil, message: String, fix: String? = nil) {
        self.kind = kind
        self.file = file
        self.line = line
        self.column = column
        self.message = message
        self.fix = fix
    }

    /// Stable machine-readable code.
    public var code: String { kind.rawValue }
    /// A schema is the user's to fix.
    public var isUserMistake: Bool { true }

    /// `file:line:col: message` — the compiler-diagnostic form, plus the fix.
    public var description: String {
        var location = file
        if let line { location += ":\(line)" }
        if let column { location += ":\(column)" }
        var text = "\(location): \(message)"
        if let fix { text += ". Fix: \(fix)" }
        return text
    }
}
