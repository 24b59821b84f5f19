import Foundation

/// Something in a `.base` file that Obsidian would tolerate but is probably a mistake (an unknown key, a
/// filter object with two conjunctions, a sort direction that is neither ASC nor DESC), with where it is
/// and how to fix it. The document is still read: what the problem concerns is skipped or defaulted.
public struct BaseDocumentProblem: Sendable, Hashable {
    /// A `base-…` code.
    public var code: FindingCode
    public var severity: Finding.Severity
    public var message: String
    /// 1-based, in the file (in the note, for a `base` code block read with a line offset).
    public var line: Int
    public var column: Int
    public var fix: String?

    public init(code: FindingCode, severity: Finding.Severity = .warning, message: String, line: Int, column: Int, fix: String? = nil) {
        self.code = code
        self.severity = severity
        self.message = message
        self.line = line
        self.column = column
        self.fix = fix
    }

    /// The problem as a finding about the file at `path` (vault-relative).
    public func finding(path: String) -> Finding {
        Finding(code: code, severity: severity, message: message, path: path, line: line, column: column, fix: fix)
    }
}

/// Why a `.base` file cannot be read at all: its YAML does not parse, its top level is not a mapping, or
/// its `views` is not a list. Obsidian shows an error instead of the base.
public struct BaseDocumentError: Error, Sendable, Hashable, LocalizedError {
    /// `base-invalid-yaml`, `base-not-mapping` or `base-invalid-views`.
    public var code: FindingCode
    public var message: String
    /// 1-based, in the file (in the note, for a `base` code block read with a line offset).
    public var line: Int
    public var column: Int
    public var fix: String?

    public init(code: FindingCode, message: String, line: Int, column: Int, fix: String? = nil) {
        self.code = code
        self.message = message
        self.line = line
        self.column = column
        self.fix = fix
    }

    public var errorDescription: String? { "\(line):\(column): \(message)" }

    /// The error as a finding about the file at `path` (vault-relative).
    public func finding(path: String) -> Finding {
        Finding(code: code, severity: .error, message: message, path: path, line: line, column: column, fix: fix)
    }
}
