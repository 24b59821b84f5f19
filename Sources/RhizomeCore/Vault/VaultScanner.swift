#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Walks a vault with POSIX directory calls (fast, and exact about the on-disk bytes of names).
///
/// - Skips names starting with `.` (`.obsidian/`, `.trash/`, `.git/`, …) and editors' swap and backup
///   files (`note.md~`, `note.md.swp`, vim's `4913` probe): see `isIgnoredName(_:)`.
/// - Follows symlinks to files and folders, records the real path of everything reached through one,
///   and refuses to enter a folder twice (symlink loops become findings).
/// - Never guesses: a folder it cannot list, or a file or symlink whose status it cannot read (permission
///   denied, an I/O error), is reported in `uncertainPaths`, so the indexer keeps what it knew about files
///   there instead of dropping them. A symlink whose target does not exist (dangling) is different: it is
///   a finding, and nothing is there, exactly as a rebuild of the index would see it.
public struct VaultScanner: Sendable {
    public var root: String
    /// Vault-relative paths to leave out (e.g. an index database kept inside the vault).
    public var excludedPaths: Set<String>

    public init(root: String, excludedPaths: Set<String> = []) {
        self.root = root
        self.excludedPaths = excludedPaths
    }

    /// Lists every file of the vault. Throws only when the vault root itself cannot be read.
    public func scan() throws(VaultError) -> VaultScan {
        var result = VaultScan()
        var rootStatus = stat()
        guard stat(root, &rootStatus) == 0 else { throw .unreadableRoot(path: root, reason: errnoDescription()) }
        guard rootStatus.st_mode & S_IFMT == S_IFDIR else { throw .notADirectory(path: root) }
        var visited: Set<FolderIdentity> = []
        // Real folders are walked before any folder reached through a symlink, so that when a symlink
        // points at a folder inside the vault, the real folder keeps its own path and the symlink is the
        // one reported as a duplicate.
        var pending: [PendingDirectory] = [PendingDirectory(diskPath: Array(root.utf8), relativePath: "", realPath: nil, identity: FolderIdentity(rootStatus))]
        var pendingThroughSymlinks: [PendingDirectory] = []
        var seenPaths = Set<String>()
        var isRoot = true
        while let directory = pending.popLast() ?? pendingThroughSymlinks.popLast() {
            // A folder is claimed when it is walked (not when it is found), real folders first.
            guard visited.insert(directory.identity).inserted else {
                result.findings.append(Finding(
                    code: .symlinkLoop, severity: .warning,
                    message: "this symlink leads to a folder that is already part of the vault (a loop or a duplicate); it is not followed",
                    path: directory.relativePath, fix: "remove the symlink, or point it outside the vault"))
                continue
            }
            guard let handle = directory.diskPath.withCString({ opendir($0) }) else {
                let reason = errnoDescription()
                if isRoot { throw .unreadableRoot(path: root, reason: reason) }
                result.keepUnreadableFolder(directory.relativePath, problem: "cannot read this folder (\(reason))",
                                            fix: "check the folder's permissions (`chmod u+rx`)")
                continue
            }
            isRoot = false
            defer { closedir(handle) }
            let descriptor = dirfd(handle)
            while true {
                errno = 0
                guard let entry = readdir(handle) else {
                    // NULL is the end of the folder, or an error (EIO, ESTALE on network and FUSE mounts):
                    // then what was not listed is not known to be gone.
                    if errno != 0 {
                        result.keepUnreadableFolder(directory.relativePath, problem: "reading this folder failed part way (\(errnoDescription()))",
                                                    fix: "check the disk or network mount, then run `rhizome index` again")
                    }
                    break
                }
                let (nameBytes, type) = Self.nameAndType(entry)
                guard !Self.isIgnoredName(nameBytes) else {
                    if let kind = TemporaryFileName.kind(of: nameBytes) {
                        noteTemporaryFile(nameBytes, kind: kind, in: directory, descriptor: descriptor, into: &result)
                    }
                    continue
                }
                let decodedName = Self.decodeName(nameBytes)
                let name = UnicodeNormalization.nfc(decodedName)
                let relativePath = directory.relativePath.isEmpty ? name : directory.relativePath + "/" + name
                if excludedPaths.contains(relativePath) { continue }
                var diskPath = directory.diskPath
                diskPath.append(UInt8(ascii: "/"))
                diskPath.append(contentsOf: nameBytes)
                if UTF8Validation.firstInvalidOffset(nameBytes) != nil {
                    result.findings.append(Self.invalidNameFinding(relativePath))
                }
                var status = stat()
                var isLink = type == Int(DT_LNK)
                if type == Int(DT_UNKNOWN) {
                    // Some file systems do not report entry types: ask.
                    var linkStatus = stat()
                    if nameBytes.withCString({ fstatat(descriptor, $0, &linkStatus, AT_SYMLINK_NOFOLLOW) }) == 0 {
                        isLink = linkStatus.st_mode & S_IFMT == S_IFLNK
                    }
                }
                let flags: Int32 = isLink ? 0 : AT_SYMLINK_NOFOLLOW
                guard nameBytes.withCString({ fstatat(descriptor, $0, &status, flags) }) == 0 else {
                    let code = errno
                    let (reason, isGone) = (String(cString: strerror(code)), Self.isAbsence(code))
                    if isLink && isGone {
                        result.findings.append(Self.brokenSymlinkFinding(relativePath, reason: reason))
                    } else if !isGone {
                        result.uncertainPaths.append(relativePath)
                        result.findings.append(Self.statusFinding(relativePath, isLink: isLink, reason: reason))
                    }  // else removed since the folder was listed: not part of the vault any more
                    continue
                }
                let realPath: String? = isLink ? Self.realPath(of: diskPath) : directory.realPath.map { $0 + "/" + decodedName }
                switch status.st_mode & S_IFMT {
                case S_IFDIR:
                    let next = PendingDirectory(diskPath: diskPath, relativePath: relativePath, realPath: realPath, identity: FolderIdentity(status))
                    if realPath == nil { pending.append(next) } else { pendingThroughSymlinks.append(next) }
                case S_IFREG:
                    // Two names on disk can map to one vault path (`Café.md` in NFC and in NFD side by side).
                    guard seenPaths.insert(relativePath).inserted else {
                        result.uncertainPaths.append(relativePath)
                        result.findings.append(Finding(
                            code: .duplicatePath, severity: .error,
                            message: "two files in this folder have names that differ only in Unicode normalization (NFC/NFD) or invalid bytes; only one is indexed",
                            path: relativePath, fix: "rename one of them"))
                        continue
                    }
                    result.files.append(ScannedFile(
                        path: relativePath, diskPath: DiskPath(bytes: diskPath), size: Int64(status.st_size),
                        modificationTime: Self.modificationTime(status), realPath: realPath))
                default:
                    continue  // sockets, FIFOs, devices: not notes
                }
            }
        }
        result.files.sort { VaultPath.precedesInBytes($0.path, $1.path) }
        return result
    }

    /// Looks at just `relativeDiskPaths` (vault-relative, `/`-separated, the bytes on disk): what a
    /// watcher needs after it was told what changed. Reports each entry exactly as `scan()` would, and
    /// asks for a full scan (`needsFullScan`) whenever one path cannot settle the question: a folder
    /// (its whole subtree changed), a symlink to a folder, or a name that collides with another.
    public func scan(paths relativeDiskPaths: some Sequence<[UInt8]>) throws(VaultError) -> ScopedScan {
        var result = ScopedScan()
        var rootStatus = stat()
        guard stat(root, &rootStatus) == 0 else { throw .unreadableRoot(path: root, reason: errnoDescription()) }
        guard rootStatus.st_mode & S_IFMT == S_IFDIR else { throw .notADirectory(path: root) }
        var seenDiskPaths = Set<[UInt8]>()
        let realRoot = Self.realPath(of: Array(root.utf8)) ?? root
        for relative in relativeDiskPaths where seenDiskPaths.insert(relative).inserted {
            let components = relative.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true).map(Array.init)
            guard !components.isEmpty, !components.contains(where: Self.isIgnoredName) else { continue }
            let relativePath = components.map { UnicodeNormalization.nfc(Self.decodeName($0)) }.joined(separator: "/")
            guard !excludedPaths.contains(relativePath) else { continue }
            guard result.scopedPaths.insert(relativePath).inserted else {
                result.needsFullScan = "two names on disk map to `\(relativePath)`"
                continue
            }
            let diskPath = Array(root.utf8) + [UInt8(ascii: "/")] + components.joined(separator: [UInt8(ascii: "/")])
            // Folders on the way that are symlinks: a broken one, or one leading back into the vault (the
            // walk does not follow it), is for the walk to judge.
            let ancestors = symlinkedAncestor(components, realRoot: realRoot)
            if let reason = ancestors.needsWalk {
                result.needsFullScan = reason
                continue
            }
            var linkStatus = stat()
            guard diskPath.withCString({ lstat($0, &linkStatus) }) == 0 else {
                if errno == ENOENT || errno == ENOTDIR {
                    result.missing.append(relativePath)
                } else {
                    result.uncertainPaths.append(relativePath)
                    result.findings.append(Self.statusFinding(relativePath, isLink: false, reason: errnoDescription()))
                }
                continue
            }
            // Reported for what exists only: a renamed or deleted file takes its finding along.
            if UTF8Validation.firstInvalidOffset(components[components.count - 1]) != nil {
                result.findings.append(Self.invalidNameFinding(relativePath))
            }
            let isLink = linkStatus.st_mode & S_IFMT == S_IFLNK
            var status = linkStatus
            if isLink {
                guard diskPath.withCString({ stat($0, &status) }) == 0 else {
                    let code = errno
                    let (reason, isGone) = (String(cString: strerror(code)), Self.isAbsence(code))
                    if isGone {
                        // Dangling: nothing is there, as the walk says.
                        result.missing.append(relativePath)
                        result.findings.append(Self.brokenSymlinkFinding(relativePath, reason: reason))
                    } else {
                        result.uncertainPaths.append(relativePath)
                        result.findings.append(Self.statusFinding(relativePath, isLink: true, reason: reason))
                    }
                    continue
                }
            }
            switch status.st_mode & S_IFMT {
            case S_IFDIR:
                result.needsFullScan = "`\(relativePath)` is a folder"
            case S_IFREG:
                // `Café.md` in NFC and in NFD side by side are one vault path: the walk reports the clash.
                if components[components.count - 1].contains(where: { $0 >= 0x80 }), hasNormalizationTwin(diskPath) {
                    result.needsFullScan = "another name in the folder of `\(relativePath)` differs only in Unicode normalization"
                    continue
                }
                result.files.append(ScannedFile(
                    path: relativePath, diskPath: DiskPath(bytes: diskPath), size: Int64(status.st_size),
                    modificationTime: Self.modificationTime(status),
                    realPath: isLink ? Self.realPath(of: diskPath) : ancestors.realPath))
            default:
                result.missing.append(relativePath)  // a socket or FIFO is not a file of the vault: as if absent
            }
        }
        result.files.sort { VaultPath.precedesInBytes($0.path, $1.path) }
        return result
    }

    /// Whether the walk leaves an entry out: hidden names (`.obsidian`, `.git`, `.note.md.swp`) and the
    /// files editors keep beside a note while editing it (`note.md~` backups, `note.md.swp` swap files,
    /// the `4913` file vim creates to test a folder). A watcher ignores the same names.
    public static func isIgnoredName(_ name: [UInt8]) -> Bool {
        guard let first = name.first else { return true }
        if first == UInt8(ascii: ".") || name.last == UInt8(ascii: "~") { return true }
        if name == Array("4913".utf8) { return true }
        guard name.count > 4, name[name.count - 4] == UInt8(ascii: ".") else { return false }
        let suffix = name[(name.count - 3)...]
        return suffix.elementsEqual("swp".utf8) || suffix.elementsEqual("swo".utf8) || suffix.elementsEqual("swx".utf8)
    }

    // MARK: Helpers

    /// The finding for a name that is not UTF-8 (the same from `scan()` and `scan(paths:)`, so that a watched
    /// index equals a walked one).
    private static func invalidNameFinding(_ path: String) -> Finding {
        Finding(
            code: .invalidUTF8, severity: .warning,
            message: "the file name is not valid UTF-8; it is indexed as `\(path)` (invalid bytes written as %XX)",
            path: path, fix: "rename the file with a UTF-8 name")
    }

    /// The finding for an entry whose status cannot be read although it may exist (permissions, I/O): what
    /// was indexed there is kept.
    private static func statusFinding(_ path: String, isLink: Bool, reason: String) -> Finding {
        Finding(
            code: .unreadableFile, severity: .warning,
            message: isLink ? "cannot follow this symlink (\(reason)); what was indexed through it is kept"
                : "cannot read file status (\(reason)); what was indexed is kept",
            path: path, fix: isLink ? "check the permissions of the folders on the way to the symlink's target" : "check the file's permissions")
    }

    /// The finding for a symlink whose target does not exist: nothing of it is in the index.
    private static func brokenSymlinkFinding(_ path: String, reason: String) -> Finding {
        Finding(
            code: .brokenSymlink, severity: .warning,
            message: "broken symlink: its target does not exist (\(reason)); it is not part of the index",
            path: path, fix: "restore the target or remove the link")
    }

    /// Whether a failed `stat` says there is nothing at the path (a symlink's target, or a name removed
    /// since its folder was listed), rather than that it could not be looked at (`EACCES`, `EIO`, …).
    /// A chain of symlinks that never ends (`ELOOP`) leads nowhere either.
    private static func isAbsence(_ code: Int32) -> Bool {
        code == ENOENT || code == ENOTDIR || code == ELOOP
    }

    /// The real path `scan()` records for a regular file below symlinked folders: the deepest symlinked
    /// folder on the way, resolved, followed by the rest of the names (nil when no folder on the way is a
    /// symlink); or why only a walk can tell (a broken symlink on the way, or one leading into the vault).
    private func symlinkedAncestor(_ components: [[UInt8]], realRoot: String) -> (realPath: String?, needsWalk: String?) {
        var diskPath = Array(root.utf8)
        var deepest: (realPath: String, index: Int)?
        for index in 0..<(components.count - 1) {
            diskPath.append(UInt8(ascii: "/"))
            diskPath.append(contentsOf: components[index])
            var status = stat()
            guard diskPath.withCString({ lstat($0, &status) }) == 0, status.st_mode & S_IFMT == S_IFLNK else { continue }
            guard let real = Self.realPath(of: diskPath) else {
                return (nil, "the folder symlink `\(Self.decodeName(diskPath))` is broken")
            }
            if real == realRoot || real.hasPrefix(realRoot + "/") {
                return (nil, "the folder symlink `\(Self.decodeName(diskPath))` leads into the vault")
            }
            deepest = (real, index)
        }
        guard let deepest else { return (nil, nil) }
        return (components[(deepest.index + 1)...].reduce(deepest.realPath) { $0 + "/" + Self.decodeName($1) }, nil)
    }

    /// Lists one of Rhizome's own temporary files (a regular file, not through a symlink of its own) for the sweep.
    private func noteTemporaryFile(_ nameBytes: [UInt8], kind: TemporaryFileName.Kind, in directory: PendingDirectory, descriptor: Int32, into result: inout VaultScan) {
        var status = stat()
        guard nameBytes.withCString({ fstatat(descriptor, $0, &status, AT_SYMLINK_NOFOLLOW) }) == 0, status.st_mode & S_IFMT == S_IFREG else { return }
        let name = Self.decodeName(nameBytes)
        result.temporaryFiles.append(TemporaryFileFound(
            path: directory.relativePath.isEmpty ? name : directory.relativePath + "/" + name,
            diskPath: DiskPath(bytes: directory.diskPath + [UInt8(ascii: "/")] + nameBytes),
            modificationTime: Self.modificationTime(status), kind: kind))
    }

    /// Whether the folder holding `diskPath` has another entry whose name is the same in NFC.
    private func hasNormalizationTwin(_ diskPath: [UInt8]) -> Bool {
        guard let slash = diskPath.lastIndex(of: UInt8(ascii: "/")) else { return false }
        let name = UnicodeNormalization.nfc(Self.decodeName(Array(diskPath[(slash + 1)...])))
        guard let handle = Array(diskPath[..<slash]).withCString({ opendir($0) }) else { return false }
        defer { closedir(handle) }
        var matches = 0
        while let entry = readdir(handle) {
            let (entryName, _) = Self.nameAndType(entry)
            if UnicodeNormalization.nfc(Self.decodeName(entryName)) == name { matches += 1 }
        }
        return matches > 1
    }

    private struct PendingDirectory {
        var diskPath: [UInt8]
        var relativePath: String
        var realPath: String?
        var identity: FolderIdentity
    }

    private static func nameAndType(_ entry: UnsafeMutablePointer<dirent>) -> ([UInt8], Int) {
        let type = Int(entry.pointee.d_type)
        let name = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
            pointer.withMemoryRebound(to: UInt8.self, capacity: Int(NAME_MAX) + 1) { bytes in
                Array(UnsafeBufferPointer(start: bytes, count: strlen(UnsafeRawPointer(bytes).assumingMemoryBound(to: CChar.self))))
            }
        }
        return (name, type)
    }

    /// Nanoseconds since 1970, clamped: dates before 1678 or after 2262 do not fit in Int64 nanoseconds.
    private static func modificationTime(_ status: stat) -> Int64 {
        #if canImport(Darwin)
        let (seconds, nanoseconds) = (Int64(status.st_mtimespec.tv_sec), Int64(status.st_mtimespec.tv_nsec))
        #else
        let (seconds, nanoseconds) = (Int64(status.st_mtim.tv_sec), Int64(status.st_mtim.tv_nsec))
        #endif
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? Int64.min : Int64.max }
        let (total, overflowAdding) = scaled.addingReportingOverflow(nanoseconds)
        return overflowAdding ? Int64.max : total
    }

    /// A file name as text: UTF-8 as it is; invalid bytes written as `%XX`, so distinct names stay distinct.
    static func decodeName(_ bytes: [UInt8]) -> String {
        if let valid = UTF8Validation.string(validating: bytes) { return valid }
        var text = ""
        var index = 0
        while index < bytes.count {
            let remaining = Array(bytes[index...])
            if let invalid = UTF8Validation.firstInvalidOffset(remaining) {
                text += String(decoding: remaining[..<invalid], as: UTF8.self)
                let hex = String(remaining[invalid], radix: 16, uppercase: true)
                text += "%" + (hex.count == 1 ? "0" + hex : hex)
                index += invalid + 1
            } else {
                text += String(decoding: remaining, as: UTF8.self)
                break
            }
        }
        return text
    }

    private static func realPath(of diskPath: [UInt8]) -> String? {
        diskPath.withCString { path in
            guard let resolved = realpath(path, nil) else { return nil }
            defer { free(resolved) }
            return String(cString: resolved)
        }
    }
}

/// The outcome of a walk.
public struct VaultScan: Sendable {
    /// Every file found, sorted by path.
    public var files: [ScannedFile] = []
    /// Vault-relative paths (folders or files) whose contents could not be determined.
    public var uncertainPaths: [String] = []
    public var findings: [Finding] = []
    /// Rhizome's own temporary files (`TemporaryFileName`), which are not vault files: for `LeftoverSweeper`.
    public var temporaryFiles: [TemporaryFileFound] = []

    public init() {}

    /// Marks a folder whose listing is incomplete: what was indexed under it is kept.
    mutating func keepUnreadableFolder(_ relativePath: String, problem: String, fix: String) {
        uncertainPaths.append(relativePath)
        findings.append(Finding(
            code: .unreadableDirectory, severity: .error,
            message: "\(problem); what was indexed under it is kept as it was", path: relativePath, fix: fix))
    }

    /// Whether `path` lies at or under one of the uncertain paths.
    public func isUncertain(_ path: String) -> Bool {
        uncertainPaths.contains { $0 == path || path.hasPrefix($0 + "/") || $0.isEmpty }
    }
}

/// What `VaultScanner.scan(paths:)` found at the paths it was given.
public struct ScopedScan: Sendable {
    /// The paths that are regular files (or symlinks to them), sorted by path.
    public var files: [ScannedFile] = []
    /// Paths confirmed absent: what was indexed there is gone.
    public var missing: [String] = []
    /// Paths whose state could not be determined: what was indexed there is kept.
    public var uncertainPaths: [String] = []
    /// Findings about the paths looked at (broken symlinks, unreadable files, non-UTF-8 names).
    public var findings: [Finding] = []
    /// Every vault path looked at: findings stored for these are replaced by `findings`.
    public var scopedPaths: Set<String> = []
    /// Why the answer needs a full walk instead (a folder, a symlinked folder, a name collision); nil if not.
    public var needsFullScan: String?

    public init() {}
}

/// One file found by the walk.
public struct ScannedFile: Sendable, Hashable {
    /// Vault-relative, `/`-separated, NFC.
    public var path: String
    /// The absolute path with the exact bytes on disk (which may be NFD or not even UTF-8).
    public var diskPath: DiskPath
    public var size: Int64
    /// Nanoseconds since 1970 (of the symlink target for symlinked files).
    public var modificationTime: Int64
    /// The resolved real path when the file was reached through a symlink.
    public var realPath: String?

    public var kind: VaultFileKind { VaultFileKind(path: path) }
}

/// Which folder a path leads to (device and inode): the same folder reached by two paths is one folder.
public struct FolderIdentity: Hashable, Sendable {
    public var device: UInt64
    public var inode: UInt64

    public init(_ status: stat) {
        device = UInt64(truncatingIfNeeded: status.st_dev)
        inode = UInt64(truncatingIfNeeded: status.st_ino)
    }
}

/// An absolute file-system path as raw bytes.
public struct DiskPath: Sendable, Hashable {
    public var bytes: [UInt8]

    public init(bytes: [UInt8]) { self.bytes = bytes }
    public init(_ path: String) { self.bytes = Array(path.utf8) }

    public var description: String { String(decoding: bytes, as: UTF8.self) }
}

extension Array where Element == UInt8 {
    /// The bytes as a NUL-terminated C string (a path with the exact bytes on disk).
    public func withCString<Result>(_ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
        var terminated = self
        terminated.append(0)
        return try terminated.withUnsafeBufferPointer { buffer in
            try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
        }
    }
}

/// The system's message for the current `errno`.
public func errnoDescription() -> String {
    String(cString: strerror(errno))
}
