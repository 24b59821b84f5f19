/// A problem found in the vault. Problems in user content are data, never thrown errors:
/// the indexer records them and keeps going.
public struct Finding: Sendable, Hashable, Codable {
    public enum Severity: String, Sendable, Codable, Comparable {
        case error, warning, info

        private var rank: Int { self == .error ? 2 : self == .warning ? 1 : 0 }
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    /// Stable, machine-readable identifier (part of the JSON contract).
    public var code: FindingCode
    public var severity: Severity
    /// What is wrong, for a person.
    public var message: String
    /// Vault-relative path of the file concerned, if any.
    @NullEncoded public var path: String?
    /// 1-based line and column in the file, where they apply.
    @NullEncoded public var line: Int?
    @NullEncoded public var column: Int?
    /// How to fix it, when we know.
    @NullEncoded public var fix: String?

    public init(
        code: FindingCode, severity: Severity, message: String,
        path: String? = nil, line: Int? = nil, column: Int? = nil, fix: String? = nil
    ) {
        self.code = code
        self.severity = severity
        self.message = message
        self.path = path
        self.line = line
        self.column = column
        self.fix = fix
    }

    /// `path:line:col: severity: message` — the compiler-diagnostic form editors understand.
    public var diagnosticDescription: String {
        var location = path ?? "<vault>"
        if let line { location += ":\(line)" }
        if let column { location += ":\(column)" }
        var text = "\(location): \(severity.rawValue): \(message) [\(code.rawValue)]"
        if let fix { text += "\n  fix: \(fix)" }
        return text
    }
}

/// The stable codes of findings. Renaming one is a breaking change of the JSON output.
public enum FindingCode: String, Sendable, Codable, CaseIterable {
    case invalidYAML = "invalid-yaml"
    case unclosedFrontmatter = "unclosed-frontmatter"
    case frontmatterNotMapping = "frontmatter-not-mapping"
    case duplicateKey = "duplicate-key"
    case invalidUTF8 = "invalid-utf8"
    case binaryFile = "binary-file"
    case fileTooLarge = "file-too-large"
    case unreadableFile = "unreadable-file"
    case unreadableDirectory = "unreadable-directory"
    case brokenSymlink = "broken-symlink"
    case symlinkLoop = "symlink-loop"
    case duplicatePath = "duplicate-path"
    case invalidCanvas = "invalid-canvas"
    case invalidTagValue = "invalid-tag-value"
    /// Not a problem left in the vault: a run removed a temporary file a killed Rhizome process had left.
    case leftoverTemporaryFile = "leftover-temporary-file"

    // Schema validation (per note).
    case schemaUnavailable = "schema-unavailable"
    case unknownType = "unknown-type"
    /// `type:` holds a list, number or mapping: it names no type (info; the vault may use the key otherwise).
    case untypedTypeValue = "untyped-type-value"
    case missingFrontmatter = "missing-frontmatter"
    case missingRequired = "missing-required"
    case wrongType = "wrong-type"
    case notInEnum = "not-in-enum"
    case constMismatch = "const-mismatch"
    case patternMismatch = "pattern-mismatch"
    case invalidFormat = "invalid-format"
    case outOfRange = "out-of-range"
    case invalidLength = "invalid-length"
    case invalidItemCount = "invalid-item-count"
    case duplicateItems = "duplicate-items"
    case unknownKey = "unknown-key"
    case idMismatch = "id-mismatch"
    case legacyKey = "legacy-key"
    case unquotedLink = "unquoted-link"
    // Schema validation (across the vault).
    case duplicateID = "duplicate-id"
    case brokenReference = "broken-reference"
    case ambiguousReference = "ambiguous-reference"
    case wrongReferenceType = "wrong-reference-type"
    // Bases: a `.base` file or a `base` code block (see `BaseDocument`).
    /// The YAML does not parse: the base cannot be read.
    case baseInvalidYAML = "base-invalid-yaml"
    /// The top level is a list or a scalar, not a mapping: the base cannot be read.
    case baseNotMapping = "base-not-mapping"
    /// `views` is not a list: the base cannot be read.
    case baseInvalidViews = "base-invalid-views"
    case baseDuplicateKey = "base-duplicate-key"
    case baseUnknownKey = "base-unknown-key"
    case baseInvalidFilter = "base-invalid-filter"
    case baseInvalidFormula = "base-invalid-formula"
    case baseInvalidProperty = "base-invalid-property"
    case baseInvalidView = "base-invalid-view"
    case baseDuplicateView = "base-duplicate-view"
    case baseInvalidSort = "base-invalid-sort"
    case baseInvalidLimit = "base-invalid-limit"
    case baseUnknownSummary = "base-unknown-summary"
    /// A filter, formula or summary expression does not parse.
    case baseSyntax = "base-syntax"
    /// An expression calls a function Bases does not have.
    case baseUnknownFunction = "base-unknown-function"
    /// Formulas that refer to each other in a circle.
    case baseCircularFormula = "base-circular-formula"
    /// Formulas that use formulas more deeply than Rhizome evaluates.
    case baseTooDeep = "base-too-deep"
    /// A view shows, sorts or groups by `formula.x`, and the base defines no formula `x` (an empty column).
    case baseUnknownFormula = "base-unknown-formula"

    /// Codes about frontmatter and schemas: what `rhizome validate` reports.
    public var isValidationCode: Bool {
        switch self {
        case .invalidYAML, .unclosedFrontmatter, .frontmatterNotMapping, .duplicateKey, .invalidTagValue: return true
        default: return Self.schemaCodes.contains(self)
        }
    }

    /// Codes produced by schema validation.
    public static let schemaCodes: Set<FindingCode> = [
        .schemaUnavailable, .unknownType, .untypedTypeValue, .missingFrontmatter, .missingRequired, .wrongType, .notInEnum, .constMismatch,
        .patternMismatch, .invalidFormat, .outOfRange, .invalidLength, .invalidItemCount, .duplicateItems, .unknownKey,
        .idMismatch, .legacyKey, .unquotedLink, .duplicateID, .brokenReference, .ambiguousReference, .wrongReferenceType,
    ]

    /// Codes computed across the whole vault (recomputed after every change).
    public static let vaultCodes: Set<FindingCode> = [.duplicateID, .brokenReference, .ambiguousReference, .wrongReferenceType]
}
