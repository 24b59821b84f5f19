import Dispatch
import Foundation
import RhizomeCore
import RhizomeStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Applies changes to a vault so that a crash at any moment leaves it whole, and keeps them for undo.
///
/// Before a change touches the vault, the contents it will write (and those it replaces) are stored as
/// blobs and the change is written to `pending.json`, all in the journal's folder beside the index (never
/// in the vault). Then its steps run in order; temporary files have names the journal knows and are written
/// in its `staging/` folder when that is on the vault's file system (else beside their files). When every
/// step is done the change moves to `history/`. A run killed in between leaves `pending.json`, and the next
/// `recover()` (every command calls it) removes the temporary files and completes the change, or, when a
/// file was changed by someone else meanwhile, reverses the steps that were done: the vault is never left
/// half changed.
///
/// Layout: `<index folder>/.<index name>.operations/` with `lock`, `pending.json`, `history/*.json`, `blobs/`,
/// `staging/`.
public final class OperationJournal: Sendable {
    public let vaultPath: String
    public let folder: String
    /// How many operations `history/` keeps (older ones and blobs no longer needed are removed).
    public let historyLimit: Int

    public init(vaultPath: String, databasePath: String, historyLimit: Int = 100) {
        self.vaultPath = vaultPath
        folder = OperationJournalLocation.folder(databasePath: databasePath)
        self.historyLimit = historyLimit
    }

    var pendingPath: String { folder + "/pending.json" }
    var historyFolder: String { folder + "/history" }
    var blobFolder: String { folder + "/blobs" }
    /// Where the steps' temporary files are written, when it is on the vault's file system: a run killed
    /// midway leaves them here, not in the vault, for the next command to remove.
    var stagingFolder: String { folder + "/staging" }

    // MARK: Applying

    /// Stores `contents` (every `before` and `after` of the steps), journals `operation`, applies its
    /// steps and records it in the history. Throws `.changedSincePlanned` (after reversing what was done)
    /// when a file is no longer as planned.
    // (The lock is taken and released around the body, not through a generic closure: a closure with
    // typed throws returning this struct was miscompiled by Swift 6.3, corrupting the value it returned.)
    public func apply(_ operation: VaultOperation, contents: [[UInt8]]) throws -> VaultOperation {
        var phases = PhaseTimer(label: "journal")
        defer { phases.finish() }
        let descriptor = try lock()
        defer { unlock(descriptor) }
        try recoverLocked()
        phases.mark("lock + recover")
        let blobs = try storePack(contents, for: operation).merging(self.blobs(for: operation, includingOwn: false)) { mine, _ in mine }
        phases.mark("store contents")
        try writeRecord(operation, to: pendingPath)
        phases.mark("write pending record")
        CrashPoint.hit()
        var done = 0
        do throws(EditError) {
            try executeSteps(of: operation, from: 0, done: &done, blobs: blobs)
        } catch {
            rollBack(operation, stepsDone: done, blobs: blobs)
            removeFile(pendingPath)
            throw error
        }
        phases.mark("steps")
        try finish(operation)
        phases.mark("finish")
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
        let blobs = self.blobs(for: operation)
        // Steps are done in order: the done ones first, then none. A step changed by someone else, or one
        // that cannot be done now, reverses what was done.
        var done = 0
        while done < operation.steps.count, status(of: operation.steps[done]) == .done { done += 1 }
        if done < operation.steps.count, case .conflict(let path) = status(of: operation.steps[done]) {
            rollBack(operation, stepsDone: done, blobs: blobs)
            removeFile(pendingPath)
            return RecoveryReport(operation: operation, completed: false, conflict: "\(path) was changed by something else meanwhile")
        }
        do throws(EditError) {
            try executeSteps(of: operation, from: done, done: &done, blobs: blobs)
        } catch {
            rollBack(operation, stepsDone: done, blobs: blobs)
            removeFile(pendingPath)
            return RecoveryReport(operation: operation, completed: false, conflict: error.description)
        }
        try finish(operation)
        return RecoveryReport(operation: operation, completed: true, conflict: nil)
    }

    private func finish(_ operation: VaultOperation) throws(EditError) {
        try writeRecord(operation, to: historyPath(of: operation))
        CrashPoint.hit()
        // An undo marks what it reversed, in the same finish that recovery repeats.
        if let original = operation.undoes, var reversed = self.operation(id: original) {
            reversed.state = .undone
            try update(reversed)
            removeEmptyFolders(reversed.createdFolders ?? [])
        }
        removeFile(pendingPath)
        pruneHistory()
    }

    /// Reverses the first `stepsDone` steps, last first, each only where its file is still as the step
    /// left it. Best effort: it runs after a failure.
    private func rollBack(_ operation: VaultOperation, stepsDone: Int, blobs: [String: [UInt8]]) {
        for index in (0..<stepsDone).reversed() {
            guard let reverse = operation.steps[index].reversed, case .notDone = status(of: reverse) else { continue }
            try? execute(reverse, index: operation.steps.count + index, operation: operation, blobs: blobs)
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

    /// Runs the steps from `start` on, counting those done. Consecutive rewrites go as one batch: every
    /// temporary file is written, the file system flushed once, then each is renamed into place (checked
    /// against its expected content just before), rather than two flushes per file.
    func executeSteps(of operation: VaultOperation, from start: Int, done: inout Int, blobs: [String: [UInt8]]) throws(EditError) {
        mkdir(stagingFolder, 0o700)  // there already, or unusable: then files are staged beside their targets
        var index = start
        while index < operation.steps.count {
            var batchEnd = index
            while batchEnd < operation.steps.count, case .write(_, .some, _) = operation.steps[batchEnd] { batchEnd += 1 }
            if batchEnd - index > 1 {
                try executeRewrites(of: operation, in: index..<batchEnd, done: &done, blobs: blobs)
                index = batchEnd
                continue
            }
            if status(of: operation.steps[index]) != .done { try execute(operation.steps[index], index: index, operation: operation, blobs: blobs) }
            done += 1
            CrashPoint.hit()
            index += 1
        }
    }

    private func executeRewrites(of operation: VaultOperation, in range: Range<Int>, done: inout Int, blobs: [String: [UInt8]]) throws(EditError) {
        // Steps a recovery finds done already are skipped; the others are written to temporary files first.
        var phases = PhaseTimer(label: "rewrites")
        defer { phases.finish() }
        let pending = range.filter { status(of: operation.steps[$0]) != .done }
        phases.mark("status")
        let prepared = PreparedRewrites(count: pending.count)
        defer { prepared.discardUncommitted() }
        // Written by two threads; made durable by one flush of the file system where there is one (Linux),
        // else each as it is written (a 1,000-file rewrite here: an fsync per file 1.9 s, 0.6 s on eight
        // threads, one syncfs about 0.1 s).
        let flushEach = !AtomicFileWriter.canFlushFileSystem
        let workers = min(flushEach ? 8 : 2, pending.count)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var position = worker
            while position < pending.count {
                let index = pending[position]
                guard case .write(let path, let before?, let after) = operation.steps[index] else { position += workers; continue }
                do {
                    let replacement = try AtomicFileWriter.prepareReplacement(
                        absolute(path), with: try Self.blob(after, in: blobs), temporaryName: Self.temporaryName(operation: operation.id, step: index),
                        staging: stagingFolder, flush: flushEach)
                    prepared.set(position, .success((replacement, try Self.blob(before, in: blobs))))
                } catch let error as EditError {
                    prepared.set(position, .failure(error))
                } catch let error as FileWriteError {
                    prepared.set(position, .failure(Self.editError(error, path: path)))
                } catch {
                    prepared.set(position, .failure(.io(path: path, operation: "write", reason: "\(error)")))
                }
                position += workers
            }
        }
        if let failure = prepared.firstFailure { throw failure }
        phases.mark("temporary files")
        if !flushEach {
            do throws(FileWriteError) {
                try AtomicFileWriter.flushFileSystem(containing: vaultPath)
            } catch {
                throw Self.editError(error, path: vaultPath)
            }
        }
        phases.mark("flush")
        // Then each goes in place, in the order of the steps, checked against its expected content just before.
        var committedFolders = Set<String>()
        var position = 0
        for index in range {
            if position < pending.count, pending[position] == index {
                guard case .write(let path, _, _) = operation.steps[index], let (replacement, before) = prepared.take(position) else { continue }
                do throws(FileWriteError) {
                    try AtomicFileWriter.commit(replacement, expecting: before)
                } catch {
                    throw Self.editError(error, path: path)
                }
                committedFolders.insert(VaultPathOnDisk.folder(of: replacement.target))
                position += 1
            }
            done += 1
            CrashPoint.hit()
        }
        phases.mark("renames")
        // The renames are durable once their folders are: each folder once, not once per file.
        for folder in committedFolders { FileMover.syncFolder(folder) }
        phases.mark("folders synced")
    }

    static func editError(_ error: FileWriteError, path: String) -> EditError {
        switch error {
        case .changedOnDisk, .alreadyExists: return .changedSincePlanned(path: path)
        case .refused(_, let reason): return .refused(path: path, reason: reason)
        case .io(_, let operation, let reason): return .io(path: path, operation: operation, reason: reason)
        }
    }

    /// Applies one step that is not done yet; `index` names its temporary file.
    func execute(_ step: VaultOperation.Step, index: Int, operation: VaultOperation, blobs: [String: [UInt8]]) throws(EditError) {
        switch step {
        case .move(let from, let to):
            if status(of: step) == .done { return }
            try checkFolderInsideVault(of: absolute(to), displayPath: to)
            // Killed between a file's two names (link, then unlink): the new name is there, drop the old one.
            if let source = Self.identity(absolute(from)), !source.isFolder, let destination = Self.identity(absolute(to)),
               source.device == destination.device, source.inode == destination.inode {
                guard unlink(absolute(from)) == 0 else { throw .io(path: from, operation: "remove the old name of", reason: String(cString: strerror(errno))) }
                return
            }
            try FileMover.move(absolute(from), to: absolute(to), displayPath: to)
        case .write(let path, let before, let after):
            let target = absolute(path)
            let bytes = try Self.blob(after, in: blobs)
            let temporaryName = Self.temporaryName(operation: operation.id, step: index)
            let beforeBytes = try before.map { state throws(EditError) in try Self.blob(state, in: blobs) }
            if beforeBytes == nil { try checkFolderInsideVault(of: target, displayPath: path) }
            do throws(FileWriteError) {
                if let beforeBytes {
                    try AtomicFileWriter.replace(target, expecting: beforeBytes, with: bytes, temporaryName: temporaryName, staging: stagingFolder)
                } else {
                    try AtomicFileWriter.create(target, bytes: bytes, temporaryName: temporaryName, staging: stagingFolder)
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

    /// Creates the folders of a new path and refuses it when they lead outside the vault: the plan checked
    /// them, but a symlink may have been put in their place since. Checked before any folder is made (one
    /// made through such a symlink would be outside), and again once they are.
    private func checkFolderInsideVault(of path: String, displayPath: String) throws(EditError) {
        let root = FileSystemEntry.realPath(vaultPath) ?? vaultPath
        func refuse() -> EditError {
            .protectedPath(path: displayPath, reason: "its folder leads outside the vault through a symlink made after the change was planned; nothing was written there")
        }
        guard let existing = FileMover.deepestExistingFolder(of: path, root: vaultPath).realPath, FileSystemEntry.lies(existing, inside: root) else { throw refuse() }
        let folder = VaultPathOnDisk.folder(of: path)
        try FileMover.makeFolders(folder, displayPath: displayPath)
        guard let real = FileSystemEntry.realPath(folder), FileSystemEntry.lies(real, inside: root) else { throw refuse() }
    }

    static func blob(_ state: VaultOperation.FileState, in blobs: [String: [UInt8]]) throws(EditError) -> [UInt8] {
        guard let bytes = blobs[state.blobName] else {
            throw .io(path: state.blobName, operation: "find the journal's copy of", reason: "it is missing from the journal")
        }
        return bytes
    }

    static func temporaryName(operation id: String, step: Int) -> String { TemporaryFileName.journaled(operation: id, step: step) }

    private func removeTemporaryFiles(of operation: VaultOperation) {
        let count = operation.steps.count
        for (index, step) in operation.steps.enumerated() {
            guard case .write(let path, _, _) = step else { continue }
            // In the staging folder, else beside the file, or beside a symlink's target (`AtomicFileWriter`).
            var folders = [VaultPathOnDisk.folder(of: absolute(path)), stagingFolder]
            if let target = Self.resolvedPath(absolute(path)), !folders.contains(VaultPathOnDisk.folder(of: target)) {
                folders.append(VaultPathOnDisk.folder(of: target))
            }
            // The step's own name, and its reversal's (a rollback killed midway).
            for folder in folders {
                for number in [index, count + index] { removeFile(folder + "/" + Self.temporaryName(operation: operation.id, step: number)) }
            }
        }
    }

    /// `path` with every symlink resolved; nil when nothing is there.
    private static func resolvedPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    func absolute(_ path: String) -> String { vaultPath + "/" + path }

    /// Device and inode of what is at `path` (not following a final symlink), and whether it is a folder.
    static func identity(_ path: String) -> (device: UInt64, inode: UInt64, isFolder: Bool)? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return (UInt64(status.st_dev), UInt64(status.st_ino), status.st_mode & S_IFMT == S_IFDIR)
    }
}


/// The temporary files of a batch of rewrites, filled in by several threads, then committed one by one.
private final class PreparedRewrites: Sendable {
    typealias Item = (replacement: AtomicFileWriter.PreparedReplacement, before: [UInt8])
    private let items: Locked<[Result<Item, EditError>?]>

    init(count: Int) { items = Locked(Array(repeating: nil, count: count)) }

    func set(_ position: Int, _ result: Result<Item, EditError>) {
        items.withLock { $0[position] = result }
    }

    var firstFailure: EditError? {
        items.withLock { items in
            for case .failure(let error)? in items { return error }
            return nil
        }
    }

    /// The prepared file at `position`, no longer discarded at the end.
    func take(_ position: Int) -> Item? {
        items.withLock { items in
            guard case .success(let item)? = items[position] else { return nil }
            items[position] = nil
            return item
        }
    }

    /// Removes the temporary files that were not committed (after a failure).
    func discardUncommitted() {
        items.withLock { items in
            for case .success(let item)? in items { AtomicFileWriter.discard(item.replacement) }
            items = items.map { _ in nil }
        }
    }
}
