#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes vault files so that a crash, a full disk or a concurrent save never leaves a half-written or
/// silently overwritten note: the new bytes go to a temporary file in the same folder (or in a `staging`
/// folder outside the vault on the same file system), are flushed to disk, and then take the file's place
/// in one step.
///
///     try AtomicFileWriter.replace(path, expecting: bytesWeRead, with: editedBytes)
///     try AtomicFileWriter.create("\(vault)/Inbox/New note.md", bytes: Array(text.utf8))
public enum AtomicFileWriter {
    /// Replaces a file's content, keeping its permission bits (and owner, where allowed; on macOS also its
    /// extended attributes and ACLs). The creation date is the new file's (a rename gives a new inode).
    ///
    /// A symlink is followed and its target rewritten; the link itself stays. Throws `.changedOnDisk`
    /// and writes nothing when the file no longer holds `currentBytes` (someone saved it meanwhile), and
    /// `.refused` for a read-only or hard-linked file.
    ///
    /// `temporaryName`: the temporary file's name in the target's folder, for a caller that journals it
    /// (so that a run killed before the rename can remove it); by default a fresh random name.
    /// `staging`: a folder for the temporary file instead, used when it is on the target's file system (a
    /// rename can only move a file within one), so that a process killed midway leaves nothing beside the
    /// target.
    public static func replace(
        _ path: String, expecting currentBytes: [UInt8], with newBytes: [UInt8], temporaryName: String? = nil, staging: String? = nil
    ) throws(FileWriteError) {
        let prepared = try prepareReplacement(path, with: newBytes, temporaryName: temporaryName, staging: staging, flush: true)
        try commit(prepared, expecting: currentBytes)
        syncDirectory(of: prepared.target)
    }

    /// A replacement written to its temporary file, not yet in place (`commit` or `discard` it).
    public struct PreparedReplacement: Sendable {
        public let path: String
        /// The file that is replaced (a symlink's target, resolved).
        public let target: String
        public let temporary: String
    }

    /// The first half of `replace`, for a caller that writes many files: the new bytes go to a temporary
    /// file beside the target, with the file's permission bits and owner. Without `flush` the caller must
    /// make them durable before committing (`flushFileSystem`, once for the whole batch).
    public static func prepareReplacement(
        _ path: String, with newBytes: [UInt8], temporaryName: String? = nil, staging: String? = nil, flush: Bool
    ) throws(FileWriteError) -> PreparedReplacement {
        let target = try resolvedTarget(path)
        var status = stat()
        guard stat(target, &status) == 0 else {
            if errno == ENOENT { throw .changedOnDisk(path: path) }
            throw .io(path: path, operation: "read the attributes of", reason: errnoDescription())
        }
        try checkReplaceable(status, path: path)
        let temporary = try writeTemporaryFile(besides: target, named: temporaryName, staging: staging, bytes: newBytes, mode: status.st_mode & 0o7777, flush: flush) { descriptor in
            _ = fchown(descriptor, status.st_uid, status.st_gid)  // only root may give files away; a failure is fine
        }
        #if canImport(Darwin)
        // Extended attributes (Finder tags) and ACLs belong to the note, not to its bytes.
        _ = copyfile(target, temporary, nil, copyfile_flags_t(COPYFILE_XATTR | COPYFILE_ACL))
        #endif
        return PreparedReplacement(path: path, target: target, temporary: temporary)
    }

    /// The second half of `replace`: puts the prepared file in place if the target still holds
    /// `currentBytes`; otherwise removes the temporary file and throws `.changedOnDisk`. The folder is not
    /// synced (`replace` does; a batch syncs once at the end).
    public static func commit(_ prepared: PreparedReplacement, expecting currentBytes: [UInt8]) throws(FileWriteError) {
        do throws(FileWriteError) {
            // Checked after the slow part, so the window for a concurrent save is as short as it can be.
            switch FileReader.read(DiskPath(prepared.target), maxBytes: Int64(currentBytes.count)) {
            case .success(let bytes) where bytes == currentBytes: break
            case .success, .failure(.tooLarge), .failure(.unreadable(_, isGone: true)): throw .changedOnDisk(path: prepared.path)
            case .failure(.unreadable(let reason, isGone: false)): throw .io(path: prepared.path, operation: "read", reason: reason)
            }
            guard rename(prepared.temporary, prepared.target) == 0 else { throw .io(path: prepared.path, operation: "replace", reason: errnoDescription()) }
        } catch {
            unlink(prepared.temporary)
            throw error
        }
    }

    /// Removes a prepared file that will not be committed.
    public static func discard(_ prepared: PreparedReplacement) { unlink(prepared.temporary) }

    /// Whether `flushFileSystem` can make a batch of files durable at once (Linux: syncfs(2)). Where it
    /// cannot, each file of a batch must be flushed as it is written.
    public static var canFlushFileSystem: Bool {
        #if os(Linux)
        return true
        #else
        return false
        #endif
    }

    /// Flushes everything written on the file system that holds `path`, as package managers do before
    /// renaming a batch of new files into place: one wait for the disk instead of one per file.
    public static func flushFileSystem(containing path: String) throws(FileWriteError) {
        #if os(Linux)
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .io(path: path, operation: "open for flushing", reason: errnoDescription()) }
        defer { close(descriptor) }
        guard linuxSyncfs(descriptor) == 0 else { throw .io(path: path, operation: "flush to disk the file system of", reason: errnoDescription()) }
        #endif
    }

    /// Throws what `replace` would refuse for `path` (a read-only or hard-linked file, something that is not
    /// a file), without writing anything: lets a dry run say what a real run would skip.
    public static func checkReplaceable(_ path: String) throws(FileWriteError) {
        let target = try resolvedTarget(path)
        var status = stat()
        guard stat(target, &status) == 0 else { throw .io(path: path, operation: "read the attributes of", reason: errnoDescription()) }
        try checkReplaceable(status, path: path)
    }

    /// Creates a new file (mode 0644 less the umask) and its missing parent folders (0755). Never
    /// overwrites: throws `.alreadyExists` when anything, even a broken symlink, is at `path`.
    public static func create(_ path: String, bytes: [UInt8], temporaryName: String? = nil, staging: String? = nil) throws(FileWriteError) {
        try createParentFolders(of: path)
        let temporary = try writeTemporaryFile(besides: path, named: temporaryName, staging: staging, bytes: bytes, mode: 0o644, applyingUmask: true)
        defer { unlink(temporary) }
        // link(2) fails if the name exists, so the new file appears complete or not at all.
        guard link(temporary, path) != 0 else { return syncDirectory(of: path) }
        let linkError = errno
        if linkError == EEXIST { throw .alreadyExists(path: path) }
        guard [EPERM, ENOTSUP, EOPNOTSUPP, EMLINK, EXDEV].contains(linkError) else {
            throw .io(path: path, operation: "create", reason: String(cString: strerror(linkError)))
        }
        // A file system without hard links (FAT, some network shares): exclusive create, then write.
        try writeExclusively(path, bytes: bytes)
        syncDirectory(of: path)
    }

    // MARK: - Private helpers

    private static func checkReplaceable(_ status: stat, path: String) throws(FileWriteError) {
        guard status.st_mode & S_IFMT == S_IFREG else { throw .io(path: path, operation: "read", reason: "not a regular file") }
        // A new inode would quietly undo what these say: leave such files alone.
        if status.st_mode & 0o222 == 0 {
            throw .refused(path: path, reason: "it is read-only (no write permission bits); make it writable first if it should change")
        }
        if status.st_nlink > 1 {
            throw .refused(path: path, reason: "it has \(status.st_nlink) hard links, which a rewrite would separate")
        }
    }

    /// The file a symlink points to (resolved fully), or `path` itself.
    private static func resolvedTarget(_ path: String) throws(FileWriteError) -> String {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            if errno == ENOENT { throw .changedOnDisk(path: path) }
            throw .io(path: path, operation: "read the attributes of", reason: errnoDescription())
        }
        guard status.st_mode & S_IFMT == S_IFLNK else { return path }
        guard let resolved = realpath(path, nil) else {
            throw .io(path: path, operation: "resolve the symlink", reason: errnoDescription())
        }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Writes `bytes` to a new `.rhizome-<pid>-<random>.tmp` (or `name`) beside `path` and flushes it to
    /// disk. Returns its path; removes it on failure.
    private static func writeTemporaryFile(
        besides path: String, named name: String? = nil, staging: String? = nil, bytes: [UInt8], mode: mode_t, applyingUmask: Bool = false,
        flush: Bool = true, prepare: (Int32) -> Void = { _ in }
    ) throws(FileWriteError) -> String {
        let (beside, _) = split(path)
        let folder = staging.map { onOneFileSystem($0, beside) ? $0 : beside } ?? beside
        var descriptor: Int32 = -1
        var temporary = ""
        for _ in 0..<16 where descriptor < 0 {
            // Short, whatever the note's name: a long name plus a suffix could pass the file system's limit.
            temporary = "\(folder)/" + (name ?? TemporaryFileName.random())
            descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
            // A named file left by an earlier, killed run of the same journaled step is ours to replace.
            // (Removed only when there: an unlink takes the folder's lock even for a name that is not.)
            if descriptor < 0, errno == EEXIST, name != nil, unlink(temporary) == 0 {
                descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
            }
            guard descriptor >= 0 || errno == EEXIST else {
                throw .io(path: path, operation: "create a temporary file for", reason: errnoDescription())
            }
        }
        guard descriptor >= 0 else { throw .io(path: path, operation: "create a temporary file for", reason: "too many name clashes") }
        do throws(FileWriteError) {
            // open(2) applies the umask; a replacement must keep the original's exact bits.
            if !applyingUmask, fchmod(descriptor, mode) != 0 {
                throw .io(path: path, operation: "set the permissions of the temporary file for", reason: errnoDescription())
            }
            prepare(descriptor)
            try writeAll(descriptor, bytes, path: path)
            guard !flush || flushToDisk(descriptor) else { throw .io(path: path, operation: "flush to disk", reason: errnoDescription()) }
            guard close(descriptor) == 0 else {
                descriptor = -1
                throw .io(path: path, operation: "close", reason: errnoDescription())
            }
        } catch {
            if descriptor >= 0 { close(descriptor) }
            unlink(temporary)
            throw error
        }
        return temporary
    }

    /// Whether two existing folders are on one file system (a rename can move a file between them).
    public static func onOneFileSystem(_ first: String, _ second: String) -> Bool {
        var one = stat(), other = stat()
        return stat(first, &one) == 0 && stat(second, &other) == 0 && one.st_dev == other.st_dev
    }

    private static func writeExclusively(_ path: String, bytes: [UInt8]) throws(FileWriteError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            if errno == EEXIST { throw .alreadyExists(path: path) }
            throw .io(path: path, operation: "create", reason: errnoDescription())
        }
        do throws(FileWriteError) {
            try writeAll(descriptor, bytes, path: path)
            guard flushToDisk(descriptor) else { throw .io(path: path, operation: "flush to disk", reason: errnoDescription()) }
            close(descriptor)
        } catch {
            close(descriptor)
            unlink(path)  // ours: O_EXCL made it
            throw error
        }
    }

    /// `fsync`, which on macOS only reaches the drive's cache: there `F_FULLFSYNC` asks for stable storage
    /// (falling back to `fsync` where the file system does not support it).
    private static func flushToDisk(_ descriptor: Int32) -> Bool {
        #if canImport(Darwin)
        if fcntl(descriptor, F_FULLFSYNC) == 0 { return true }
        #endif
        return fsync(descriptor) == 0
    }

    private static func writeAll(_ descriptor: Int32, _ bytes: [UInt8], path: String) throws(FileWriteError) {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw .io(path: path, operation: "write", reason: count < 0 ? errnoDescription() : "no progress") }
            written += count
        }
    }

    /// `mkdir -p` for the folder of `path`.
    private static func createParentFolders(of path: String) throws(FileWriteError) {
        do {
            try FileSystemEntry.makeFolders(split(path).folder)
        } catch {
            throw .io(path: error.path, operation: "create the folder", reason: error.reason)
        }
    }

    /// Makes a rename or link durable. Best effort: the new content is already in place, and some file
    /// systems cannot sync folders.
    private static func syncDirectory(of path: String) {
        let descriptor = open(split(path).folder, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    private static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }
}

#if os(Linux)
/// syncfs(2): in glibc since 2.14, but not declared by Swift's Glibc module.
@_silgen_name("syncfs") private func linuxSyncfs(_ descriptor: Int32) -> Int32
#endif

/// Why a file could not be written. In every case the file on disk is as it was before.
public enum FileWriteError: RhizomeError, Equatable {
    /// The file no longer holds the bytes Rhizome read (edited, moved or deleted meanwhile).
    case changedOnDisk(path: String)
    /// Something is already at the path of a file being created.
    case alreadyExists(path: String)
    /// A system call failed; `reason` is the system's message.
    case io(path: String, operation: String, reason: String)
    /// The file is one Rhizome will not rewrite (read-only, hard-linked); `reason` says why.
    case refused(path: String, reason: String)

    public var code: String {
        switch self {
        case .changedOnDisk: return "file-changed-on-disk"
        case .alreadyExists: return "file-exists"
        case .io: return "file-write-failed"
        case .refused: return "file-refused"
        }
    }

    /// A name taken or a file Rhizome will not rewrite is the user's to sort out; a file changed under
    /// the write or a failed system call is the write failing.
    public var isUserMistake: Bool {
        switch self {
        case .alreadyExists, .refused: return true
        case .changedOnDisk, .io: return false
        }
    }

    public var description: String {
        switch self {
        case .changedOnDisk(let path):
            return "\(path) changed on disk since Rhizome read it (saved, moved or deleted meanwhile), so nothing was written. Run the command again."
        case .alreadyExists(let path):
            return "\(path) already exists, so nothing was written (Rhizome never overwrites a file it creates). Choose another name or remove the existing file."
        case .io(let path, let operation, let reason):
            return "could not \(operation) \(path): \(reason). The file was left as it was; check that the folder exists and is writable, and that the disk has space."
        case .refused(let path, let reason):
            return "\(path) was left as it was: \(reason)."
        }
    }
}
