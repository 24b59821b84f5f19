import Foundation
import RhizomeCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Applies changes to a vault so that a crash at any moment leaves it whole, and keeps them for undo.
///
/// Before a change touches the vault, the contents it will write (and those it replaces) are stored as
/// blobs and the change is written to `pending.json`, all in the journal's folder beside the index (never
/// in the vault). Then its steps run in order; temporary files have names the journal knows. When every
/// step is done the change moves to `history/`. A run killed in between leaves `pending.json`, and the next
/// `recover()` (every command calls it) removes the temporary files and completes the change, or, when a
/// file was changed by someone else meanwhile, reverses the steps that were done: the vault is never left
/// half changed.
///
/// Layout: `<index folder>/.<index name>.operations/` with `lock`, `pending.json`, `history/*.json`, `blobs/`.
public final class OperationJournal: Sendable {
    public let vaultPath: String
    public let folder: String
    /// How many operations `history/` keeps (older ones and blobs no longer needed are removed).
    public let historyLimit: Int

    public init(vaultPath: String, databasePath: String, historyLimit: Int = 100) {
        self.vaultPath = vaultPath
        let url = URL(fileURLWithPath: databasePath)
        folder = url.deletingLastPathComponent().path + "/." + url.lastPathComponent + ".operations"
        self.historyLimit = historyLimit
    }

    var pendingPath: String { folder + "/pending.json" }
    var historyFolder: String { folder + "/history" }
    var blobFolder: String { folder + "/blobs" }

    // MARK: Applying

    /// Stores `contents` (every `before` and `after` of the steps), journals `operation`, applies its
    /// steps and records it in the history. Throws `.changedSincePlanned` (after reversing what was done)
    /// when a file is no longer as planned.
    // (The lock is taken and released around the body, not through a generic closure: a closure with
    // typed throws returning this struct was miscompiled by Swift 6.3, corrupting the value it returned.)
    public func apply(_ operation: VaultOperation, contents: [[UInt8]]) throws -> VaultOperation {
        let descriptor = try lock()
        defer { unlock(descriptor) }
        try recoverLocked()
        for bytes in contents { try storeBlob(bytes) }
        try writeRecord(operation, to: pendingPath)
        CrashPoint.hit()
        var done = 0
        do throws(EditError) {
            for (index, step) in operation.steps.enumerated() {
                try execute(step, index: index, operation: operation)
                done += 1
                CrashPoint.hit()
            }
        } catch {
            rollBack(operation, stepsDone: done)
            removeFile(pendingPath)
            throw error
        }
        try finish(operation)
        return operation
    }

    /// Completes or reverses a change that a killed run left half done; nil when there was none.
    @discardableResult
    public func recover() throws -> RecoveryReport? {
        guard FileManager.default.fileExists(atPath: pendingPath) else { return nil }
        let descriptor = try lock()
        defer { unlock(descriptor) }
        return try recoverLocked()
    }

    /// What `recover()` did.
    public struct RecoveryReport: Sendable, Equatable {
        public var operation: VaultOperation
        /// True: the change was completed; false: it was reversed (a file had changed meanwhile).
        public var completed: Bool
        public var conflict: String?
    }

    @discardableResult
    private func recoverLocked() throws -> RecoveryReport? {
        guard let data = FileManager.default.contents(atPath: pendingPath) else { return nil }
        guard let operation = try? JSONDecoder().decode(VaultOperation.self, from: data) else {
            // Killed while the record itself was written: nothing of it was applied yet.
            removeFile(pendingPath)
            return nil
        }
        removeTemporaryFiles(of: operation)
        var done = 0
        for (index, step) in operation.steps.enumerated() {
            switch status(of: step) {
            case .done:
                done += 1
            case .notDone:
                do {
                    try execute(step, index: index, operation: operation)
                    done += 1
                } catch {
                    rollBack(operation, stepsDone: done)
                    removeFile(pendingPath)
                    return RecoveryReport(operation: operation, completed: false, conflict: error.description)
                }
            case .conflict(let path):
                rollBack(operation, stepsDone: done)
                removeFile(pendingPath)
                return RecoveryReport(operation: operation, completed: false, conflict: "\(path) was changed by something else meanwhile")
            }
        }
        try finish(operation)
        return RecoveryReport(operation: operation, completed: true, conflict: nil)
    }

    private func finish(_ operation: VaultOperation) throws(EditError) {
        try writeRecord(operation, to: historyPath(of: operation))
        CrashPoint.hit()
        // An undo marks what it reversed, in the same finish that recovery repeats.
        if let original = operation.undoes, var reversed = history().first(where: { $0.id == original }) {
            reversed.state = .undone
            try update(reversed)
            removeEmptyFolders(reversed.createdFolders ?? [])
        }
        removeFile(pendingPath)
        pruneHistory()
    }

    /// Reverses the first `stepsDone` steps, last first, each only where its file is still as the step
    /// left it. Best effort: it runs after a failure.
    private func rollBack(_ operation: VaultOperation, stepsDone: Int) {
        for index in (0..<stepsDone).reversed() {
            guard let reverse = operation.steps[index].reversed, case .notDone = status(of: reverse) else { continue }
            try? execute(reverse, index: operation.steps.count + index, operation: operation)
        }
        removeTemporaryFiles(of: operation)
        removeEmptyFolders(operation.createdFolders ?? [])
    }

    /// Removes the folders a change created, deepest first, where they are empty again (rmdir(2) never
    /// removes anything else).
    private func removeEmptyFolders(_ folders: [String]) {
        for folder in folders.reversed() { rmdir(absolute(folder)) }
    }

    // MARK: Steps

    enum StepStatus: Equatable {
        case done, notDone
        case conflict(path: String)
    }

    func status(of step: VaultOperation.Step) -> StepStatus {
        switch step {
        case .move(let from, let to):
            let source = absolute(from), destination = absolute(to)
            let sourceEntry = Self.identity(source), destinationEntry = Self.identity(destination)
            switch (sourceEntry, destinationEntry) {
            case (nil, .some): return .done
            case (.some, nil): return .notDone
            case (.some(let a), .some(let b)) where a == b: return .notDone  // killed between link and unlink
            case (.some(let a), .some(let b)) where a.isFolder && b.isFolder && ((try? FileManager.default.contentsOfDirectory(atPath: destination)) ?? ["?"]).isEmpty:
                return .notDone  // killed between creating the empty destination folder and the rename
            default: return .conflict(path: to)
            }
        case .write(let path, let before, let after):
            let current = FileReader.read(DiskPath(absolute(path)), maxBytes: Int64(max(after.size, before?.size ?? 0)) + 1)
            switch current {
            case .success(let bytes):
                let state = VaultOperation.FileState(bytes: bytes)
                if state == after { return .done }
                if state == before { return .notDone }
                return .conflict(path: path)
            case .failure(.unreadable(_, isGone: true)):
                return before == nil ? .notDone : .conflict(path: path)
            case .failure:
                return .conflict(path: path)
            }
        }
    }

    /// Applies one step that is not done yet; `index` names its temporary file.
    func execute(_ step: VaultOperation.Step, index: Int, operation: VaultOperation) throws(EditError) {
        switch step {
        case .move(let from, let to):
            if status(of: step) == .done { return }
            try FileMover.move(absolute(from), to: absolute(to), displayPath: to)
        case .write(let path, let before, let after):
            let target = absolute(path)
            let bytes = try blob(after)
            let temporaryName = Self.temporaryName(operation: operation.id, step: index)
            let beforeBytes = try before.map { state throws(EditError) in try blob(state) }
            do throws(FileWriteError) {
                if let beforeBytes {
                    try AtomicFileWriter.replace(target, expecting: beforeBytes, with: bytes, temporaryName: temporaryName)
                } else {
                    try AtomicFileWriter.create(target, bytes: bytes, temporaryName: temporaryName)
                }
            } catch {
                switch error {
                case .changedOnDisk, .alreadyExists: throw .changedSincePlanned(path: path)
                case .refused(_, let reason): throw .refused(path: path, reason: reason)
                case .io(_, let operation, let reason): throw .io(path: path, operation: operation, reason: reason)
                }
            }
        }
    }

    static func temporaryName(operation id: String, step: Int) -> String { ".rhizome-op-\(id)-\(step).tmp" }

    private func removeTemporaryFiles(of operation: VaultOperation) {
        let count = operation.steps.count
        for (index, step) in operation.steps.enumerated() {
            guard case .write(let path, _, _) = step else { continue }
            let folder = VaultPath.folder(of: path)
            // The step's own name, and its reversal's (a rollback killed midway).
            for number in [index, count + index] {
                removeFile(absolute(folder.isEmpty ? Self.temporaryName(operation: operation.id, step: number) : folder + "/" + Self.temporaryName(operation: operation.id, step: number)))
            }
        }
    }

    func absolute(_ path: String) -> String { vaultPath + "/" + path }

    /// Device and inode of what is at `path` (not following a final symlink), and whether it is a folder.
    static func identity(_ path: String) -> (device: UInt64, inode: UInt64, isFolder: Bool)? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return (UInt64(status.st_dev), UInt64(status.st_ino), status.st_mode & S_IFMT == S_IFDIR)
    }
}

