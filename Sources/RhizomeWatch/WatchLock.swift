import Foundation
import RhizomeCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The watch lock, `<database>.watch.lock`: one watcher per index holds it (`flock`) while it lives, and
/// writes in it, one per line, for readers in other processes (`rhizome status`, any query, an MCP server
/// that leaves the watching to another process):
///
///     <process id>
///     <state>                  how current it keeps the index (`WatchStatus.State`)
///     heartbeat <unix ms>      when the watcher last looked at the vault folder and found its watches live
///     pending <0|1>            1 while changes it has seen are not in the index yet
///
/// Readers that know only the first two lines (older versions) still read them.
final class WatchLock: Sendable {
    let path: String
    private let descriptor: Int32
    /// What the file says now; the file is written while this is held, so that of two threads publishing
    /// the last writes the latest truth.
    private let published = Locked<Published?>(nil)

    /// What the file says now.
    private struct Published: Equatable, Sendable {
        var state: WatchStatus.State?
        var heartbeat: Date?
        var isPending = false
    }

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
        published.withLock { $0 = Published() }
        write(Published())
    }

    deinit {
        close(descriptor)  // releases the lock
    }

    /// Writes `state` for other processes, when it changed.
    func publish(_ state: WatchStatus.State) {
        update { $0.state = state }
    }

    /// Writes a heartbeat: the watcher has just found the vault folder watched and live. `isPending` is read
    /// while `published` is held, so that of two threads publishing it the last writes the latest truth.
    func beat(at time: Date = Date(), isPending: () -> Bool) {
        update {
            $0.heartbeat = time
            $0.isPending = isPending()
        }
    }

    /// Writes whether changes are waiting to be applied, when that changed.
    func publish(isPending: () -> Bool) {
        update { $0.isPending = isPending() }
    }

    private func update(_ change: (inout Published) -> Void) {
        published.withLock { published in
            var next = published ?? Published()
            change(&next)
            guard next != published else { return }
            published = next
            write(next)
        }
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
        var watcher = contents(of: path)
        watcher.isWatched = true
        return watcher
    }

    /// Writes `next` over the file's text (callers hold `published`, or are the initializer).
    private func write(_ next: Published) {
        var text = "\(getpid())\n"
        if let state = next.state {
            text += state.rawValue + "\n"
            if let heartbeat = next.heartbeat { text += "heartbeat \(Int64((heartbeat.timeIntervalSince1970 * 1_000).rounded()))\n" }
            text += "pending \(next.isPending ? 1 : 0)\n"
        }
        let bytes = Array(text.utf8)
        // Over the old text, then cut to length: a reader in between may see a line cut short, which
        // `contents(of:)` takes for a watcher that vouches for nothing.
        _ = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        _ = ftruncate(descriptor, off_t(bytes.count))
    }

    /// The process id on the first line, the state on the second (absent from older versions), then the
    /// heartbeat and pending lines.
    private static func contents(of path: String) -> ActiveWatcher {
        var watcher = ActiveWatcher(isWatched: false)
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return watcher }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        watcher.processID = lines.first.flatMap { Int32($0) }
        watcher.state = lines.count > 1 ? WatchStatus.State(rawValue: lines[1]) : nil
        // A line counts only when the newline after it was written too, and only its first occurrence (a
        // reader racing a shorter rewrite may see the old text's tail after the new lines). Without a
        // whole `pending 0` line, changes may be waiting.
        var heartbeat: Date??, pending: Bool?
        for line in lines.dropFirst(2).dropLast() {
            let parts = line.split(separator: " ")
            guard parts.count == 2 else { continue }
            if parts[0] == "heartbeat", heartbeat == nil { heartbeat = .some(Int64(parts[1]).map { Date(timeIntervalSince1970: Double($0) / 1_000) }) }
            if parts[0] == "pending", pending == nil { pending = parts[1] != "0" }
        }
        watcher.heartbeat = heartbeat ?? nil
        watcher.isPending = pending ?? true
        return watcher
    }
}

/// A watcher of an index, found through its watch lock (`VaultWatcher.activeWatcher`).
public struct ActiveWatcher: Sendable, Equatable {
    public var isWatched: Bool
    /// Nil when not watched, or when the holder did not write it.
    public var processID: Int32?
    /// How current the watcher keeps the index; nil when not watched, or from a version that does not say.
    public var state: WatchStatus.State?
    /// When the watcher last found the vault folder watched and live (it looks every
    /// `VaultWatcher.Options.vaultCheckInterval`, and after every batch); nil from versions that do not say.
    public var heartbeat: Date?
    /// Whether the watcher has seen changes that are not in the index yet.
    public var isPending = false

    public init(isWatched: Bool, processID: Int32? = nil, state: WatchStatus.State? = nil, heartbeat: Date? = nil, isPending: Bool = false) {
        self.isWatched = isWatched
        self.processID = processID
        self.state = state
        self.heartbeat = heartbeat
        self.isPending = isPending
    }

    /// A heartbeat older than this means the watcher is stuck (a batch that never ends, a process stopped
    /// with SIGSTOP): it vouches for nothing.
    public static let heartbeatLimit: TimeInterval = 2

    /// Whether the watcher vouches that the index holds every change to the vault it has seen: it is
    /// `current`, nothing is waiting to be applied, and its heartbeat is recent.
    public func vouches(now: Date = Date()) -> Bool {
        isWatched && state == .current && !isPending && isBeating(now: now)
    }

    /// Whether the watcher is `unresponsive`: it holds the lock, its heartbeat stopped (SIGSTOP, a debugger,
    /// a batch that never ends), and its state does not already say that the index is not current
    /// (`starting`, `indexing`, `behind`, `settling`, `vault-missing` say more than "unresponsive" would).
    /// The one rule `rhizome status` and MCP `freshness` both follow.
    public func isUnresponsive(now: Date = Date()) -> Bool {
        guard isWatched, !isBeating(now: now) else { return false }
        switch state {
        case .starting?, .indexing?, .behind?, .settling?, .vaultMissing?: return false
        case .current?, .stopped?, nil: return true
        }
    }

    /// How long the heartbeat has been silent, for messages: "no heartbeat for 12 s" or "no heartbeat".
    public func silence(now: Date = Date()) -> String {
        heartbeat.map { "no heartbeat for \(Int(now.timeIntervalSince($0))) s" } ?? "no heartbeat"
    }

    /// Whether the heartbeat is recent: the watcher is alive and watching (it may be applying changes).
    public func isBeating(now: Date = Date()) -> Bool {
        guard let heartbeat else { return false }
        return abs(now.timeIntervalSince(heartbeat)) < Self.heartbeatLimit
    }
}
