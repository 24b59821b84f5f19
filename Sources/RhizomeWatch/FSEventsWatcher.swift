#if canImport(CoreServices)
import CoreServices
import Darwin
import Foundation
import RhizomeCore

/// macOS: one FSEvents stream over the vault and over the targets of its symlinks (FSEvents reports real
/// paths and does not follow symlinks), with file-level events.
///
/// - Events are mapped from real paths back to vault paths: under the vault's real path, or under the real
///   path of a symlinked folder or file, reported at the symlink's path.
/// - A rename is reported as `.rescan`: on a case-insensitive volume `note.md` → `Note.md` names one file
///   twice, and only a walk tells which name is current.
/// - Dropped events (`MustScanSubDirs`, `UserDropped`, `KernelDropped`) are reported as `.rescan`.
/// - New symlinks restart the stream so that their targets are watched too.
public final class FSEventsWatcher: FileSystemWatcher, @unchecked Sendable {  // an FSEventStreamRef and its dispatch queue
    private let root: String
    private let queue = DispatchQueue(label: "rhizome.fsevents")
    private var stream: FSEventStreamRef?
    private var handler: (@Sendable ([FileSystemChange]) -> Void)?
    /// Real path prefix → vault-relative path it stands for ("" is the vault root).
    private var prefixes: [(real: String, vault: String)] = []

    public init(root: String) {
        self.root = root
    }

    deinit {
        stop()
    }

    public func start(_ handler: @escaping @Sendable ([FileSystemChange]) -> Void) throws(WatchError) {
        self.handler = handler
        var problem: WatchError?
        queue.sync { problem = self.startStream() }
        if let problem { throw problem }
    }

    public func stop() {
        queue.sync {
            guard let stream else { return }
            FSEventStreamStop(stream)
            FSEventStreamInvalidate(stream)
            FSEventStreamRelease(stream)
            self.stream = nil
        }
    }

    /// Asks FSEvents to deliver what it holds back for the stream's latency, then lets the callbacks
    /// already queued run. FSEvents learns of changes from the kernel asynchronously, so this narrows the
    /// window rather than closing it as inotify's flush does.
    public func flush(timeout: Duration) -> Bool {
        let flushed = queue.sync { () -> Bool in
            guard let stream else { return false }
            _ = FSEventStreamFlushAsync(stream)
            return true
        }
        guard flushed else { return false }
        let done = DispatchSemaphore(value: 0)
        queue.async { done.signal() }
        return done.wait(timeout: .now() + timeout.inSeconds) == .success
    }

    // MARK: Stream

    private func startStream() -> WatchError? {
        prefixes = [(Self.realPath(root) ?? root, "")] + symlinkTargets()
        let paths = prefixes.map(\.real) as CFArray
        var context = FSEventStreamContext(version: 0, info: Unmanaged.passUnretained(self).toOpaque(), retain: nil, release: nil, copyDescription: nil)
        let flags = FSEventStreamCreateFlags(kFSEventStreamCreateFlagFileEvents | kFSEventStreamCreateFlagNoDefer | kFSEventStreamCreateFlagWatchRoot)
        let callback: FSEventStreamCallback = { _, info, count, paths, flags, _ in
            guard let info else { return }
            let watcher = Unmanaged<FSEventsWatcher>.fromOpaque(info).takeUnretainedValue()
            let names = paths.assumingMemoryBound(to: UnsafePointer<CChar>.self)
            var events: [(String, FSEventStreamEventFlags)] = []
            for index in 0..<count { events.append((String(cString: names[index]), flags[index])) }
            watcher.deliver(events)
        }
        guard let created = FSEventStreamCreate(nil, callback, &context, paths, FSEventStreamEventId(kFSEventStreamEventIdSinceNow), 0.005, flags) else {
            return .cannotWatch(path: root, reason: "FSEvents refused to create a stream", fix: "check that the folder exists and is readable")
        }
        FSEventStreamSetDispatchQueue(created, queue)
        guard FSEventStreamStart(created) else {
            FSEventStreamInvalidate(created)
            FSEventStreamRelease(created)
            return .cannotWatch(path: root, reason: "FSEvents could not start the stream", fix: "check that the folder exists and is readable")
        }
        stream = created
        return nil
    }

    /// Runs on `queue`.
    private func deliver(_ events: [(path: String, flags: FSEventStreamEventFlags)]) {
        var changes: [FileSystemChange] = []
        var restart = false
        for event in events {
            let flags = Int(event.flags)
            if flags & (kFSEventStreamEventFlagMustScanSubDirs | kFSEventStreamEventFlagUserDropped | kFSEventStreamEventFlagKernelDropped) != 0 {
                changes.append(.rescan(reason: "FSEvents dropped events"))
                continue
            }
            if flags & kFSEventStreamEventFlagRootChanged != 0 {
                changes.append(.rescan(reason: "the vault folder itself was moved or removed"))
                continue
            }
            for vaultPath in vaultPaths(forReal: event.path) {
                let components = vaultPath.split(separator: "/")
                if components.first == ".rhizome" {
                    // Only what the configuration is read from: an index kept in `.rhizome/` changes on every batch.
                    if FileSystemChange.isConfigurationEntry(components.count == 1 ? "" : String(components.last!)) {
                        changes.append(.configuration)
                    }
                    continue
                }
                guard !vaultPath.isEmpty, !components.contains(where: { VaultScanner.isIgnoredName(Array($0.utf8)) }) else { continue }
                // A symlink created or renamed into place may lead somewhere not watched yet.
                if flags & kFSEventStreamEventFlagItemIsSymlink != 0
                    && flags & (kFSEventStreamEventFlagItemCreated | kFSEventStreamEventFlagItemRenamed) != 0 { restart = true }
                if flags & kFSEventStreamEventFlagItemRenamed != 0 {
                    changes.append(.rescan(reason: "`\(vaultPath)` was renamed"))
                    continue
                }
                changes.append(.path(Array(vaultPath.utf8), isFolder: flags & kFSEventStreamEventFlagItemIsDir != 0))
            }
        }
        if !changes.isEmpty { handler?(changes) }
        // Not from inside the stream's own callback: next on the queue.
        if restart { queue.async { [weak self] in self?.restartStream() } }
    }

    /// Runs on `queue`: a new symlink appeared, so its target joins the watched paths.
    private func restartStream() {
        guard let stream else { return }
        FSEventStreamStop(stream)
        FSEventStreamInvalidate(stream)
        FSEventStreamRelease(stream)
        self.stream = nil
        // Events between the two streams would be lost: a walk covers them.
        let problem = startStream()
        handler?([.rescan(reason: problem?.description ?? "a new symlink's target is now watched")])
    }

    /// The vault paths a real path stands for: under the vault, and under each symlink leading to it.
    private func vaultPaths(forReal path: String) -> [String] {
        prefixes.compactMap { prefix in
            if path == prefix.real { return prefix.vault }
            guard path.hasPrefix(prefix.real + "/") else { return nil }
            let rest = String(path.dropFirst(prefix.real.count + 1))
            return prefix.vault.isEmpty ? rest : prefix.vault + "/" + rest
        }
    }

    /// Every symlink in the vault (to a file or a folder), with its real target.
    private func symlinkTargets() -> [(real: String, vault: String)] {
        var result: [(real: String, vault: String)] = []
        var pending: [(disk: String, vault: String)] = [(root, "")]
        var visited = Set<String>()
        while let folder = pending.popLast() {
            guard let real = Self.realPath(folder.disk), visited.insert(real).inserted,
                  let names = try? FileManager.default.contentsOfDirectory(atPath: folder.disk) else { continue }
            for name in names where !VaultScanner.isIgnoredName(Array(name.utf8)) {
                let disk = folder.disk + "/" + name
                let vault = folder.vault.isEmpty ? name : folder.vault + "/" + name
                var linkStatus = stat()
                guard lstat(disk, &linkStatus) == 0 else { continue }
                let isLink = linkStatus.st_mode & S_IFMT == S_IFLNK
                var status = stat()
                let isFolder = stat(disk, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
                if isLink, let target = Self.realPath(disk) { result.append((target, vault)) }
                if isFolder { pending.append((disk, vault)) }
            }
        }
        return result
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
#endif
