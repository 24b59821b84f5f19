import Foundation
import RhizomeCore

/// The shared end of `fix` and `types migrate`: each note's new bytes become a diff and, with `--write`,
/// part of one journaled change (`commit`), unless Rhizome must leave the note alone (a symlink leading
/// outside the vault, a read-only or hard-linked file; a symlink to a note fixed under its own name). What a
/// write would refuse, the dry run reports too.
/// The change is all or nothing: a note changed on disk meanwhile stops it and reverses what was written,
/// and `rhizome undo --write` reverses it later.
public struct NoteRewrite {
    public struct Change: Encodable, Sendable {
        public var path: String
        public var fixes: [FixPlanner.AppliedFix]
        public var diff: String
        public var written: Bool
    }

    public struct Skipped: Encodable, Sendable {
        public var path: String
        public var reason: String
    }

    /// What `fix --json` and `types migrate --json` print.
    public struct Report: Encodable, Sendable {
        public var changes: [Change]
        public var skipped: [Skipped]
        public var wrote: Bool
    }

    let files: VaultFiles
    public let write: Bool
    public private(set) var changes: [Change] = []
    public private(set) var skipped: [Skipped] = []
    /// The notes' bytes, for the journaled write.
    private var contents: [(diskPath: String, old: [UInt8], new: [UInt8])] = []

    public init(vaultPath: String, write: Bool) throws {
        files = try VaultFiles(vaultPath: vaultPath, notesOnly: true)
        self.write = write
    }

    public var report: Report { Report(changes: changes, skipped: skipped, wrote: write) }

    /// A note's exact name on disk and its bytes; nil (and reported) when it cannot be found or read.
    public mutating func read(_ path: String) -> (diskPath: String, bytes: [UInt8])? {
        guard let diskPath = files.diskPath(of: path) else {
            skip(path, "not found on disk under this name (a name that is not UTF-8?)")
            return nil
        }
        guard case .success(let bytes) = FileReader.read(DiskPath(diskPath), maxBytes: 16 << 20) else {
            skip(path, "cannot be read, or is over 16 MiB")
            return nil
        }
        return (diskPath, bytes)
    }

    public mutating func skip(_ path: String, _ reason: String) {
        skipped.append(Skipped(path: path, reason: reason))
    }

    /// Records the change from `bytes` to `newBytes` (nothing when they are equal) and, with `write`,
    /// replaces the file atomically.
    public mutating func apply(path: String, diskPath: String, bytes: [UInt8], newBytes: [UInt8], fixes: [FixPlanner.AppliedFix]) {
        guard newBytes != bytes else { return }
        if let outside = files.targetOutsideVault(diskPath) {
            return skip(path, "it is a symlink to \(outside), outside the vault; Rhizome only rewrites files inside the vault")
        }
        do {
            try AtomicFileWriter.checkReplaceable(diskPath)
        } catch {
            return skip(path, error.description)
        }
        // A note and a symlink to it in the vault are one file: it is rewritten once, under its own name.
        let target = Self.realPath(diskPath)
        if let earlier = contents.firstIndex(where: { Self.realPath($0.diskPath) == target }) {
            if Self.isSymlink(diskPath) || !Self.isSymlink(contents[earlier].diskPath) {
                return skip(path, "it is the same file as \(changes[earlier].path), which is fixed under that name")
            }
            skip(changes[earlier].path, "it is a symlink to \(path), which is fixed under that name")
            changes.remove(at: earlier)
            contents.remove(at: earlier)
        }
        changes.append(Change(path: path, fixes: fixes, diff: UnifiedDiff.render(old: bytes, new: newBytes, path: path), written: false))
        contents.append((diskPath, bytes, newBytes))
    }

    private static func realPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func isSymlink(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK
    }

    /// With `write`, writes every change as one journaled operation (`kind` and `summary` name it in
    /// `rhizome history`); nil when there is nothing to write or it is a dry run.
    @discardableResult
    public mutating func commit(vaultPath: String, databasePath: String, kind: String, summary: String) throws -> VaultOperation? {
        guard write, !contents.isEmpty else { return nil }
        let root = URL(fileURLWithPath: vaultPath).standardizedFileURL.path + "/"
        var steps: [VaultOperation.Step] = []
        var result: [String: VaultOperation.FileState] = [:]
        for item in contents {
            let relative = item.diskPath.hasPrefix(root) ? String(item.diskPath.dropFirst(root.count)) : String(item.diskPath.dropFirst(vaultPath.count + 1))
            let after = VaultOperation.FileState(bytes: item.new)
            steps.append(.write(path: relative, before: VaultOperation.FileState(bytes: item.old), after: after))
            result[relative] = after
        }
        let journal = OperationJournal(vaultPath: vaultPath, databasePath: databasePath)
        let operation = try journal.apply(VaultOperation(kind: kind, summary: summary, steps: steps, result: result), contents: contents.flatMap { [$0.old, $0.new] })
        for index in changes.indices { changes[index].written = true }
        return operation
    }
}
