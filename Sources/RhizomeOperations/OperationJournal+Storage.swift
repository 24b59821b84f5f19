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
        historyNames().prefix(limit).compactMap { record(at: historyFolder + "/" + $0) }
    }

    /// The newest recorded operation that matches, reading records one by one from the newest.
    public func newest(where matches: (VaultOperation) -> Bool) -> VaultOperation? {
        for name in historyNames() {
            if let operation = record(at: historyFolder + "/" + name), matches(operation) { return operation }
        }
        return nil
    }

    /// One recorded operation, by id.
    func operation(id: String) -> VaultOperation? { record(at: historyFolder + "/" + id + ".json") }

    /// Record names, newest first (ids begin with their time).
    private func historyNames() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: historyFolder)) ?? []).filter { $0.hasSuffix(".json") }.sorted(by: >)
    }

    private func record(at path: String) -> VaultOperation? {
        FileManager.default.contents(atPath: path).flatMap { try? JSONDecoder().decode(VaultOperation.self, from: $0) }
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

    /// Stores an operation's contents (every `before` and `after` of its steps) in one pack file, flushed
    /// to disk before it returns: `<hash>-<size>` and a newline, then the bytes, for each content. One file
    /// and one flush per operation, however many files it rewrites.
    func storePack(_ contents: [[UInt8]], for operation: VaultOperation) throws(EditError) -> [String: [UInt8]] {
        var blobs: [String: [UInt8]] = [:]
        var pack: [UInt8] = []
        for bytes in contents {
            let name = VaultOperation.FileState(bytes: bytes).blobName
            guard blobs[name] == nil else { continue }
            blobs[name] = bytes
            pack += Array((name + "\n").utf8) + bytes
        }
        guard !pack.isEmpty else { return blobs }
        try FileMover.makeFolders(blobFolder, displayPath: blobFolder)
        try writeDurably(pack, to: packPath(of: operation.id))
        return blobs
    }

    /// The contents an operation's steps need: its own pack (`includingOwn`), and for an undo the pack of
    /// what it reverses.
    func blobs(for operation: VaultOperation, includingOwn: Bool = true) -> [String: [UInt8]] {
        var blobs: [String: [UInt8]] = [:]
        for id in [includingOwn ? operation.id : nil, operation.undoes].compactMap({ $0 }) {
            guard let data = FileManager.default.contents(atPath: packPath(of: id)) else { continue }
            let bytes = Array(data)
            var index = 0
            while index < bytes.count, let newline = bytes[index...].firstIndex(of: 0x0A) {
                let name = String(decoding: bytes[index..<newline], as: UTF8.self)
                guard let size = name.split(separator: "-").last.flatMap({ Int($0) }), newline + 1 + size <= bytes.count else { break }
                blobs[name] = Array(bytes[(newline + 1)..<(newline + 1 + size)])
                index = newline + 1 + size
            }
        }
        return blobs
    }

    func packPath(of id: String) -> String { blobFolder + "/" + id + ".pack" }

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

    /// Keeps the newest `historyLimit` records and their packs.
    func pruneHistory() {
        let names = historyNames()
        guard names.count > historyLimit else { return }
        for name in names.dropFirst(historyLimit) {
            removeFile(historyFolder + "/" + name)
            removeFile(packPath(of: String(name.dropLast(".json".count))))
        }
    }

    func removeFile(_ path: String) { unlink(path) }

    /// Temporary file, flush, rename, flush the folder: the journal's own files survive a crash whole.
    private func writeDurably(_ bytes: [UInt8], to path: String, flush: Bool = true) throws(EditError) {
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
        if flush { fsync(descriptor) }
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw .io(path: path, operation: "write", reason: String(cString: strerror(errno)))
        }
        guard flush else { return }
        let folderDescriptor = open(VaultPathOnDisk.folder(of: path), O_RDONLY | O_CLOEXEC)
        if folderDescriptor >= 0 {
            fsync(folderDescriptor)
            close(folderDescriptor)
        }
    }
}
