import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The watch lock, `<database>.watch.lock`: one watcher per index holds it (`flock`) while it lives, and
/// writes in it its process id and how current it keeps the index (`WatchStatus.State`), one per line, for
/// readers in other processes (`rhizome status`, an MCP server that leaves the watching to another process).
final class WatchLock {
    let path: String
    private let descriptor: Int32
    private var published: WatchStatus.State?

    /// Takes the lock; throws `WatchError.alreadyWatched` when another process holds it.
    init(databasePath: String, vault: String) throws(WatchError) {
        path = databasePath + ".watch.lock"
        // A vault never indexed has no index folder yet.
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            try? FileManager.default.createDirectory(atPath: String(path[..<slash]), withIntermediateDirectories: true)
        }
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .lockUnavailable(path: path, reason: String(cString: strerror(errno))) }
        var attempts = 0
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            // `holder` probes the lock for an instant (`rhizome status`): try again before giving up.
            attempts += 1
            if attempts < 5 {
                usleep(20_000)
                continue
            }
            let holder = Self.contents(of: path).processID
            close(descriptor)
            throw .alreadyWatched(vault: vault, lockPath: path, processID: holder)
        }
        write(state: nil)
    }

    deinit {
        close(descriptor)  // releases the lock
    }

    /// Writes `state` for other processes, when it changed.
    func publish(_ state: WatchStatus.State) {
        guard state != published else { return }
        write(state: state)
    }

    /// Whether a watcher (in any process) holds the lock of this index, and what it wrote in it.
    static func holder(databasePath: String) -> ActiveWatcher {
        let path = databasePath + ".watch.lock"
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return ActiveWatcher(isWatched: false) }
        defer { close(descriptor) }
        if flock(descriptor, LOCK_SH | LOCK_NB) == 0 {
            flock(descriptor, LOCK_UN)
            return ActiveWatcher(isWatched: false)
        }
        let (processID, state) = contents(of: path)
        return ActiveWatcher(isWatched: true, processID: processID, state: state)
    }

    private func write(state: WatchStatus.State?) {
        published = state
        let text = Array("\(getpid())\n\(state.map { $0.rawValue + "\n" } ?? "")".utf8)
        // Over the old text, then cut to length: a reader in between sees the new lines first.
        _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        _ = ftruncate(descriptor, off_t(text.count))
    }

    /// The process id on the first line, the state on the second (absent from older versions).
    private static func contents(of path: String) -> (processID: Int32?, state: WatchStatus.State?) {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return (nil, nil) }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).prefix(2).map { $0.trimmingCharacters(in: .whitespaces) }
        return (lines.first.flatMap { Int32($0) }, lines.count > 1 ? WatchStatus.State(rawValue: lines[1]) : nil)
    }
}

/// A watcher of an index, found through its watch lock (`VaultWatcher.activeWatcher`).
public struct ActiveWatcher: Sendable, Equatable {
    public var isWatched: Bool
    /// Nil when not watched, or when the holder did not write it.
    public var processID: Int32?
    /// How current the watcher keeps the index; nil when not watched, or from a version that does not say.
    public var state: WatchStatus.State?

    public init(isWatched: Bool, processID: Int32? = nil, state: WatchStatus.State? = nil) {
        self.isWatched = isWatched
        self.processID = processID
        self.state = state
    }
}
