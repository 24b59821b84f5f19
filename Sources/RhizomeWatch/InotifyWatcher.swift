#if canImport(Glibc)
import Foundation
import Glibc
import RhizomeCore

/// Linux: one inotify watch per folder of the vault (inotify is not recursive).
///
/// - Folders reached through symlinks are watched too (a watch follows the symlink to the folder), and
///   events there are reported at the symlink's path. For a symlink to a *file*, the folder holding the
///   target is watched and only events for that name are reported, at the symlink's path.
/// - A folder created or moved in is watched at once and reported as a folder: files created in it before
///   the watch existed produce no event, so the indexer walks the vault to find them.
/// - A full event queue (`IN_Q_OVERFLOW`) is reported as `.rescan` and every watch is set up again.
///
/// All state lives on the watcher's thread; `stop()` and `flush(timeout:)` wake it through a pipe. The
/// kernel queues an inotify event during the system call that changed the file, so a flush only has to
/// drain the queue once after the request: every change made before it is then in the handler's hands.
public final class InotifyWatcher: FileSystemWatcher, @unchecked Sendable {  // an inotify descriptor and its reading thread
    private let root: String
    private var descriptor: Int32 = -1
    private var wakePipe: [Int32] = [-1, -1]
    /// Watch → the vault-relative folders it stands for ("" is the root). Several when symlinks lead to one folder.
    private var folders: [Int32: [[UInt8]]] = [:]
    /// Watch → target name → the vault paths of symlinks to that file.
    private var fileTargets: [Int32: [[UInt8]: Set<[UInt8]>]] = [:]
    /// Watches on `.rhizome/` and `.rhizome/schemas/`.
    private var configurationWatches: Set<Int32> = []
    /// Folders already watched as part of the vault (each once), and which folder each watch is.
    private var claimed: Set<FolderIdentity> = []
    private var identities: [Int32: FolderIdentity] = [:]
    private var thread: Thread?
    /// Guards `isRunning` and the flush tickets, and signals their changes.
    private let stopped = NSCondition()
    private var isRunning = false
    /// The last flush asked for, and the last one the thread has drained the queue for.
    private var flushRequested = 0
    private var flushDone = 0
    private static let stopByte: UInt8 = 1
    private static let flushByte: UInt8 = 2

    private static let folderMask = UInt32(
        IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF
            | IN_ONLYDIR)
    private static let configurationFolder = Array(".rhizome".utf8)

    /// `root` is the vault folder (absolute).
    public init(root: String) {
        self.root = root
    }

    deinit {
        stop()
    }

    public func start(_ handler: @escaping @Sendable ([FileSystemChange]) -> Void) throws(WatchError) {
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else {
            throw .cannotWatch(path: root, reason: "inotify is not available (\(errnoDescription()))",
                               fix: "raise fs.inotify.max_user_instances (`sudo sysctl fs.inotify.max_user_instances=1024`)")
        }
        guard pipe(&wakePipe) == 0 else { throw .cannotWatch(path: root, reason: errnoDescription(), fix: "close other programs and try again") }
        if let problem = watchTree() {
            close(descriptor)
            close(wakePipe[0])
            close(wakePipe[1])
            throw problem
        }
        isRunning = true
        let thread = Thread { [self] in self.readEvents(handler) }
        thread.name = "rhizome.inotify"
        self.thread = thread
        thread.start()
    }

    public func stop() {
        stopped.lock()
        guard isRunning else { stopped.unlock(); return }
        var byte = Self.stopByte
        _ = write(wakePipe[1], &byte, 1)
        while isRunning { stopped.wait() }
        stopped.unlock()
        close(descriptor)
        close(wakePipe[0])
        close(wakePipe[1])
    }

    public func flush(timeout: Duration) -> Bool {
        let deadline = Date() + timeout.inSeconds
        stopped.lock()
        defer { stopped.unlock() }
        guard isRunning else { return false }
        flushRequested += 1
        let ticket = flushRequested
        var byte = Self.flushByte
        _ = write(wakePipe[1], &byte, 1)
        while isRunning, flushDone < ticket {
            guard stopped.wait(until: deadline) else { return false }
        }
        return flushDone >= ticket
    }

    // MARK: Events

    private func readEvents(_ handler: @Sendable ([FileSystemChange]) -> Void) {
        defer {
            stopped.lock()
            isRunning = false
            stopped.broadcast()
            stopped.unlock()
        }
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        while true {
            var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0), pollfd(fd: wakePipe[0], events: Int16(POLLIN), revents: 0)]
            let ready = poll(&descriptors, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                handler([.rescan(reason: "waiting for file events failed (\(errnoDescription()))")])
                return
            }
            // Read before the queue is drained: a flush asked for by then is answered by this drain.
            var flushing: Int?
            if descriptors[1].revents != 0 {
                var bytes = [UInt8](repeating: 0, count: 64)
                let count = read(wakePipe[0], &bytes, bytes.count)
                if count <= 0 || bytes[..<count].contains(Self.stopByte) { return }
                stopped.lock()
                flushing = flushRequested
                stopped.unlock()
            }
            var changes: [FileSystemChange] = []
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count <= 0 { break }  // EAGAIN: drained
                changes += decode(buffer[..<count])
            }
            if !changes.isEmpty { handler(changes) }
            if let flushing {
                stopped.lock()
                flushDone = max(flushDone, flushing)
                stopped.broadcast()
                stopped.unlock()
            }
        }
    }

    private func decode(_ bytes: ArraySlice<UInt8>) -> [FileSystemChange] {
        var changes: [FileSystemChange] = []
        var offset = bytes.startIndex
        while offset + 16 <= bytes.endIndex {
            let (watch, mask, length) = bytes.withUnsafeBytes { raw -> (Int32, UInt32, Int) in
                let base = offset - bytes.startIndex
                return (raw.loadUnaligned(fromByteOffset: base, as: Int32.self), raw.loadUnaligned(fromByteOffset: base + 4, as: UInt32.self),
                        Int(raw.loadUnaligned(fromByteOffset: base + 12, as: UInt32.self)))
            }
            let nameBytes = bytes[(offset + 16)..<min(offset + 16 + length, bytes.endIndex)]
            let name = Array(nameBytes.prefix { $0 != 0 })
            offset += 16 + length
            changes += interpret(watch: watch, mask: mask, name: name)
        }
        return changes
    }

    private func interpret(watch: Int32, mask: UInt32, name: [UInt8]) -> [FileSystemChange] {
        if mask & UInt32(IN_Q_OVERFLOW) != 0 {
            folders = [:]
            fileTargets = [:]
            configurationWatches = []
            let problem = watchTree()
            return [.rescan(reason: "the kernel's event queue overflowed" + (problem.map { "; \($0)" } ?? ""))]
        }
        if mask & UInt32(IN_UNMOUNT) != 0 || (mask & UInt32(IN_IGNORED) != 0 && folders[watch]?.contains([]) == true) {
            // The vault's file system went away (unmounted) or the vault folder was removed: the walk that
            // follows fails on the vault root and changes nothing.
            folders[watch] = nil
            fileTargets[watch] = nil
            return [.rescan(reason: "the vault folder was unmounted or removed")]
        }
        if mask & UInt32(IN_IGNORED) != 0 || (mask & UInt32(IN_MOVE_SELF) != 0 && folders[watch]?.contains([]) != true) {
            // A watched folder is gone or moved away. Reached through a symlink, its link may now lead to a
            // new folder (the target regenerated): watch that, and let a walk sort out what is there.
            let throughLinks = (folders[watch] ?? []).filter { isSymlinkedFolderPath($0) }
            if mask & UInt32(IN_MOVE_SELF) != 0 {
                // Moved within the vault, its parent reports it; only symlinked targets need help here.
                guard !throughLinks.isEmpty else { return [] }
                inotify_rm_watch(descriptor, watch)
            }
            if let identity = identities.removeValue(forKey: watch) { claimed.remove(identity) }
            folders[watch] = nil
            fileTargets[watch] = nil
            configurationWatches.remove(watch)
            var changes: [FileSystemChange] = []
            for path in throughLinks {
                if let problem = watchNewEntry(path) { changes.append(.rescan(reason: problem.description)) }
                changes.append(.path(path, isFolder: true))
            }
            return changes
        }
        if mask & UInt32(IN_MOVE_SELF) != 0 {
            // Only the vault folder itself matters (other folders' moves are reported by their parents).
            return folders[watch]?.contains([]) == true ? [.rescan(reason: "the vault folder itself was moved")] : []
        }
        if configurationWatches.contains(watch) {
            if mask & UInt32(IN_ISDIR) != 0, name == Array("schemas".utf8) { watchConfiguration() }
            // Only what the configuration is read from: an index kept in `.rhizome/` changes on every batch.
            return FileSystemChange.isConfigurationEntry(String(decoding: name, as: UTF8.self)) ? [.configuration] : []
        }
        var changes: [FileSystemChange] = []
        if mask & UInt32(IN_DELETE_SELF) != 0, folders[watch]?.contains([]) == true {
            changes.append(.rescan(reason: "the vault folder itself was removed or replaced"))
        }
        if let targets = fileTargets[watch]?[name] {
            for target in targets {
                // The target of a folder symlink that was missing may exist now.
                if isDirectory(target) {
                    if let problem = watchNewEntry(target) { changes.append(.rescan(reason: problem.description)) }
                    changes.append(.path(target, isFolder: true))
                } else {
                    changes.append(.path(target, isFolder: false))
                }
            }
        }
        guard !name.isEmpty, let paths = folders[watch] else { return changes }
        let isFolder = mask & UInt32(IN_ISDIR) != 0
        for folder in paths {
            if folder.isEmpty && name == Self.configurationFolder {
                watchConfiguration()
                changes.append(.configuration)
                continue
            }
            guard !VaultScanner.isIgnoredName(name) else { continue }
            let path = folder.isEmpty ? name : folder + [UInt8(ascii: "/")] + name
            if isFolder && mask & UInt32(IN_MOVED_FROM | IN_DELETE) != 0 {
                forgetFolders(under: path)
            }
            var reportsFolder = isFolder
            // A new entry, or a folder whose permissions changed (it may be readable now): watch it.
            if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 || (isFolder && mask & UInt32(IN_ATTRIB) != 0) {
                // A new folder (or symlink to one) is watched now; a new symlink to a file has its target watched.
                if let problem = watchNewEntry(path) {
                    changes.append(.rescan(reason: problem.description))
                }
                reportsFolder = reportsFolder || isDirectory(path)
            }
            changes.append(.path(path, isFolder: reportsFolder))
        }
        return changes
    }

    // MARK: Watches

    /// Watches every folder of the vault, following symlinks, and the targets of symlinked files.
    private func watchTree() -> WatchError? {
        claimed = []
        identities = [:]
        if let problem = watchFolder(diskPath: Array(root.utf8), relative: []) { return problem }
        watchConfiguration()
        return nil
    }

    /// Watches a folder and everything under it. As the vault walk does, real folders are claimed before
    /// folders reached through symlinks, and a folder is claimed once: a symlink to a folder that is
    /// already part of the vault is not followed (the walk reports it as a loop).
    private func watchFolder(diskPath start: [UInt8], relative startRelative: [UInt8]) -> WatchError? {
        var pending = [(start, startRelative)]
        var pendingThroughSymlinks: [([UInt8], [UInt8])] = []
        while let (diskPath, relative) = pending.popLast() ?? pendingThroughSymlinks.popLast() {
            var status = stat()
            guard diskPath.withCString({ stat($0, &status) }) == 0 else { continue }
            let identity = FolderIdentity(status)
            if !claimed.insert(identity).inserted {
                // Claimed already: by a symlink loop (skip it), or by this very folder before it moved here
                // (its old path no longer leads to it: it belongs to the new path now).
                guard let owner = identities.first(where: { $0.value == identity })?.key,
                      !(folders[owner] ?? []).contains(where: { leadsTo($0, identity) }) else { continue }
                folders[owner] = nil
            }
            let watch = diskPath.withCString { inotify_add_watch(descriptor, $0, Self.folderMask) }
            if watch < 0 {
                claimed.remove(FolderIdentity(status))
                if errno == ENOENT || errno == ENOTDIR || errno == EACCES { continue }  // gone meanwhile, or unreadable: the scan reports it
                return limitError(diskPath)
            }
            identities[watch] = FolderIdentity(status)
            if folders[watch]?.contains(relative) != true { folders[watch, default: []].append(relative) }
            guard let handle = diskPath.withCString({ opendir($0) }) else { continue }
            defer { closedir(handle) }
            while let entry = readdir(handle) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
                guard !VaultScanner.isIgnoredName(name) else { continue }
                let childDisk = diskPath + [UInt8(ascii: "/")] + name
                let childRelative = relative.isEmpty ? name : relative + [UInt8(ascii: "/")] + name
                let type = Int32(entry.pointee.d_type)
                if type == Int32(DT_DIR) {
                    pending.append((childDisk, childRelative))
                } else if type == Int32(DT_LNK) || type == Int32(DT_UNKNOWN) {
                    if isDirectory(diskPath: childDisk) {
                        if type == Int32(DT_LNK) || isSymlink(childDisk) {
                            pendingThroughSymlinks.append((childDisk, childRelative))
                        } else {
                            pending.append((childDisk, childRelative))
                        }
                    } else if type == Int32(DT_LNK) || isSymlink(childDisk) {
                        watchSymlinkTarget(diskPath: childDisk, relative: childRelative)
                    }
                }
            }
        }
        return nil
    }

    /// Whether the vault-relative folder path currently leads to the folder `identity`.
    private func leadsTo(_ relative: [UInt8], _ identity: FolderIdentity) -> Bool {
        var status = stat()
        let diskPath = relative.isEmpty ? Array(root.utf8) : Array(root.utf8) + [UInt8(ascii: "/")] + relative
        return diskPath.withCString { stat($0, &status) } == 0 && FolderIdentity(status) == identity
    }

    private func isSymlink(_ diskPath: [UInt8]) -> Bool {
        var status = stat()
        return diskPath.withCString { lstat($0, &status) } == 0 && status.st_mode & S_IFMT == S_IFLNK
    }

    /// A symlink to a file: watch the folder that holds the target, for that name only. A broken symlink:
    /// watch the folder where its target would be, so that the target appearing is seen.
    ///
    /// The caller found no folder at the end of the link; one may be there by now (a tool regenerating a
    /// folder: moved away, made anew). Created before the watch above it, it made no event: so the target is
    /// looked at again once that watch is set, and a folder found is watched as one.
    private func watchSymlinkTarget(diskPath: [UInt8], relative: [UInt8]) {
        guard let real = diskPath.withCString({ realpath($0, nil) }) else {
            watchMissingTarget(diskPath: diskPath, relative: relative)
            return
        }
        let target = Array(String(cString: real).utf8)
        free(real)
        guard let slash = target.lastIndex(of: UInt8(ascii: "/")) else { return }
        let folder = slash == 0 ? [UInt8(ascii: "/")] : Array(target[..<slash])
        let name = Array(target[(slash + 1)...])
        let watch = folder.withCString { inotify_add_watch(descriptor, $0, Self.folderMask) }
        guard watch >= 0 else { return }
        fileTargets[watch, default: [:]][name, default: []].insert(relative)
        if isDirectory(diskPath: diskPath) { _ = watchFolder(diskPath: diskPath, relative: relative) }
    }

    private func watchMissingTarget(diskPath: [UInt8], relative: [UInt8]) {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = diskPath.withCString { path in buffer.withUnsafeMutableBufferPointer { readlink(path, UnsafeMutableRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), $0.count - 1) } }
        guard length > 0 else { return }
        var target = Array(buffer[..<length])
        if target.first != UInt8(ascii: "/"), let slash = diskPath.lastIndex(of: UInt8(ascii: "/")) {
            target = Array(diskPath[..<slash]) + [UInt8(ascii: "/")] + target
        }
        guard let slash = target.lastIndex(of: UInt8(ascii: "/")), slash + 1 < target.count else { return }
        let folder = slash == 0 ? [UInt8(ascii: "/")] : Array(target[..<slash])
        let watch = folder.withCString { inotify_add_watch(descriptor, $0, Self.folderMask) }
        guard watch >= 0 else { return }
        fileTargets[watch, default: [:]][Array(target[(slash + 1)...]), default: []].insert(relative)
        // Watch first, then look (see `watchSymlinkTarget`).
        if isDirectory(diskPath: diskPath) { _ = watchFolder(diskPath: diskPath, relative: relative) }
    }

    private func watchNewEntry(_ relative: [UInt8]) -> WatchError? {
        let diskPath = Array(root.utf8) + [UInt8(ascii: "/")] + relative
        var linkStatus = stat()
        guard diskPath.withCString({ lstat($0, &linkStatus) }) == 0 else { return nil }
        if isDirectory(diskPath: diskPath) {
            return watchFolder(diskPath: diskPath, relative: relative)
        }
        if linkStatus.st_mode & S_IFMT == S_IFLNK { watchSymlinkTarget(diskPath: diskPath, relative: relative) }
        return nil
    }

    private func watchConfiguration() {
        for folder in [".rhizome", ".rhizome/schemas"] {
            let watch = (root + "/" + folder).withCString { inotify_add_watch(descriptor, $0, Self.folderMask) }
            if watch >= 0 { configurationWatches.insert(watch) }
        }
    }

    /// A folder moved away or deleted: its watches no longer stand for paths under it.
    private func forgetFolders(under path: [UInt8]) {
        for (watch, paths) in folders {
            let kept = paths.filter { !($0 == path || ($0.starts(with: path) && $0.count > path.count && $0[path.count] == UInt8(ascii: "/"))) }
            guard kept.count != paths.count else { continue }
            folders[watch] = kept.isEmpty ? nil : kept
            if kept.isEmpty, let identity = identities.removeValue(forKey: watch) { claimed.remove(identity) }
            // A folder moved out of the vault: stop watching it (it would use up the watch budget). If it
            // was moved within the vault, its new path is watched again by the same call that reports it.
            if kept.isEmpty && fileTargets[watch] == nil && !configurationWatches.contains(watch) {
                inotify_rm_watch(descriptor, watch)
            }
        }
    }

    /// Whether a vault-relative folder path goes through a symlink (the folder or one above it).
    private func isSymlinkedFolderPath(_ relative: [UInt8]) -> Bool {
        var diskPath = Array(root.utf8)
        for component in relative.split(separator: UInt8(ascii: "/")) {
            diskPath.append(UInt8(ascii: "/"))
            diskPath.append(contentsOf: component)
            var status = stat()
            if diskPath.withCString({ lstat($0, &status) }) == 0, status.st_mode & S_IFMT == S_IFLNK { return true }
        }
        return false
    }

    private func isDirectory(_ relative: [UInt8]) -> Bool {
        isDirectory(diskPath: Array(root.utf8) + [UInt8(ascii: "/")] + relative)
    }

    private func isDirectory(diskPath: [UInt8]) -> Bool {
        var status = stat()
        return diskPath.withCString { stat($0, &status) } == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    private func limitError(_ diskPath: [UInt8]) -> WatchError {
        let code = errno
        let reason = String(cString: strerror(code))
        let path = String(decoding: diskPath, as: UTF8.self)
        if code == ENOSPC {
            let limit = (try? String(contentsOfFile: "/proc/sys/fs/inotify/max_user_watches", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
            return .cannotWatch(path: path, reason: "the inotify watch limit is reached (fs.inotify.max_user_watches = \(limit))",
                                fix: "raise it: `sudo sysctl fs.inotify.max_user_watches=524288` (add it to /etc/sysctl.conf to keep it)")
        }
        return .cannotWatch(path: path, reason: reason, fix: "check the folder's permissions")
    }
}

#endif
