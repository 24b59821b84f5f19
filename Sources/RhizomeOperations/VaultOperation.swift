import Foundation
import RhizomeCore

/// A change to the vault as the journal records it: ordered steps, each of which can be checked (done,
/// not done yet, or changed by someone else), applied, and reversed. Paths are vault-relative and
/// spelled as on disk. File contents are not in the record: `before` and `after` name blobs that the
/// journal keeps beside it, so a change can be completed after a crash and undone later.
public struct VaultOperation: Codable, Sendable, Equatable {
    /// A file's content, by hash and size (the key of its blob).
    public struct FileState: Codable, Sendable, Hashable {
        public var hash: String
        public var size: Int

        public init(bytes: [UInt8]) {
            hash = ContentHash.hex(of: bytes)
            size = bytes.count
        }

        var blobName: String { "\(hash)-\(size)" }
    }

    public enum Step: Codable, Sendable, Hashable {
        /// Renames a file or a folder; never replaces anything at `to`.
        case move(from: String, to: String)
        /// Writes a file from the content `before` (nil: the file is created) to `after`.
        case write(path: String, before: FileState?, after: FileState)

        /// The step that undoes this one.
        var reversed: Step? {
            switch self {
            case .move(let from, let to): return .move(from: to, to: from)
            case .write(let path, let before?, let after): return .write(path: path, before: after, after: before)
            case .write: return nil  // a created file is moved to the trash by undo: see `OperationJournal.undo`
            }
        }
    }

    public enum State: String, Codable, Sendable {
        /// Every step was applied.
        case applied
        /// Applied, then reversed by `rhizome undo`.
        case undone
    }

    /// The record's format; a newer one is not read.
    public var version = 1
    public var id: String
    /// The command that made it: `mv`, `rm`, `undo`, …
    public var kind: String
    /// One line for `rhizome history`: `mv Notes/A.md → Archive/A.md (3 links in 2 files)`.
    public var summary: String
    /// ISO 8601, UTC.
    public var createdAt: String
    public var steps: [Step]
    /// Each file the change moved or wrote, with its content as the change left it: undo checks that none
    /// changed since.
    public var result: [String: FileState]
    public var state: State = .applied
    /// For an undo: the operation it reversed.
    public var undoes: String?
    /// Folders the steps create (missing folders on the way to a destination), parents first: undo and a
    /// rollback remove those that are empty again.
    public var createdFolders: [String]?

    public init(kind: String, summary: String, steps: [Step], result: [String: FileState], undoes: String? = nil, createdFolders: [String] = []) {
        id = Self.newID()
        self.kind = kind
        self.summary = summary
        createdAt = ISO8601DateFormatter().string(from: Date())
        self.steps = steps
        self.result = result
        self.undoes = undoes
        self.createdFolders = createdFolders.isEmpty ? nil : createdFolders
    }

    /// Time-ordered (its text sorts as its time: the history lists and undo picks by it) and unique:
    /// milliseconds since 1970 in base 36, padded, and a random suffix. Changes take the journal's lock
    /// and re-index after it, so two never share a millisecond.
    static func newID() -> String {
        let milliseconds = String(UInt64(Date().timeIntervalSince1970 * 1000), radix: 36)
        return String(repeating: "0", count: max(0, 10 - milliseconds.count)) + milliseconds + "-" + String(UInt32.random(in: .min ... .max), radix: 36)
    }
}
