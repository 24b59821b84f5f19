import Foundation
import RhizomeCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The journal's files: its lock, blobs, records and history.
extension OperationJournal {
    /// The recorded operations, newest first.
    public func history(limit: Int = .max) -> [VaultOperation] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: historyFolder)) ?? [])
            .filter { $0.hasSuffix(".json") }.sorted(by: >)
        return names.prefix(limit).compactMap { name in
            FileManager.default.contents(atPath: historyFolder + "/" + name).flatMap { try? JSONDecoder().decode(VaultOperation.self, from: $0) }
        }
    }

    /// Rewrites an operation's history record (undo marks the one it reversed).
    func update(_ operation: VaultOperation) throws(EditError) {
        try writeRecord(operation, to: historyPath(of: operation))
    }

    /// Takes the journal's lock: one change to a vault at a time, across processes. Waits up to 10 s for
    /// another change to finish. Returns the descriptor to give to `unlock`.
    func lock() throws(EditError) -> Int32 {
        try FileMover.makeFolders(folder, displayPath: folder)
        let lockPath = folder + "/lock"
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .io(path: lockPath, operation: "open the lock", reason: String(cString: strerror(errno))) }
        let deadline = Date().addingTimeInterval(10)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, Date() < deadline else {
                close(descriptor)
                throw .busy(lockPath: lockPath)
            }
            usleep(20_000)
        }
        return descriptor
    }

    func unlock(_ descriptor: Int32) {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    @discardableResult
    func storeBlob(_ bytes: [UInt8]) throws(EditError) -> VaultOperation.FileState {
        let state = VaultOperation.FileState(bytes: bytes)
        let path = blobFolder + "/" + state.blobName
        if let existing = FileManager.default.contents(atPath: path), existing.count == bytes.count { return state }
        try FileMover.makeFolders(blobFolder, displayPath: blobFolder)
        try writeDurably(bytes, to: path)
        return state
    }

    func blob(_ state: VaultOperation.FileState) throws(EditError) -> [UInt8] {
        let path = blobFolder + "/" + state.blobName
        guard let data = FileManager.default.contents(atPath: path), VaultOperation.FileState(bytes: Array(data)) == state else {
            throw .io(path: path, operation: "read the journal's copy", reason: "it is missing or damaged")
        }
        return Array(data)
    }

    func writeRecord(_ operation: VaultOperation, to path: String) throws(EditError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(operation) else {
            throw .io(path: path, operation: "encode the journal record", reason: "JSON encoding failed")
        }
        try FileMover.makeFolders(VaultPathOnDisk.folder(of: path), displayPath: path)
        try writeDurably(Array(data), to: path)
    }

    func historyPath(of operation: VaultOperation) -> String { historyFolder + "/" + operation.id + ".json" }

    /// Keeps the newest `historyLimit` records and the blobs they (and a pending change) name.
    func pruneHistory() {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: historyFolder)) ?? []).filter { $0.hasSuffix(".json") }.sorted(by: >)
        guard names.count > historyLimit else { return }
        for name in names.dropFirst(historyLimit) { removeFile(historyFolder + "/" + name) }
        var kept = Set<String>()
        for operation in history() {
            for step in operation.steps {
                if case .write(_, let before, let after) = step {
                    kept.insert(after.blobName)
                    if let before { kept.insert(before.blobName) }
                }
            }
        }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: blobFolder)) ?? [] where !kept.contains(name) {
            removeFile(blobFolder + "/" + name)
        }
    }

    func removeFile(_ path: String) { unlink(path) }

    /// Temporary file, flush, rename, flush the folder: the journal's own files survive a crash whole.
    private func writeDurably(_ bytes: [UInt8], to path: String) throws(EditError) {
        let temporary = path + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .io(path: path, operation: "write", reason: String(cString: strerror(errno))) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                close(descriptor)
                unlink(temporary)
                throw .io(path: path, operation: "write", reason: String(cString: strerror(errno)))
            }
            written += count
        }
        fsync(descriptor)
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw .io(path: path, operation: "write", reason: String(cString: strerror(errno)))
        }
        let folderDescriptor = open(VaultPathOnDisk.folder(of: path), O_RDONLY | O_CLOEXEC)
        if folderDescriptor >= 0 {
            fsync(folderDescriptor)
            close(folderDescriptor)
        }
    }
}
