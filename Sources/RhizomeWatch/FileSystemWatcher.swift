import RhizomeCore

/// Watches a vault folder for changes and reports them as vault-relative paths. One implementation per
/// platform (inotify on Linux, FSEvents on macOS); `VaultWatcher` holds the logic they share.
///
/// An implementation must:
/// - report every change below the vault root, including in folders created after it started;
/// - report changes to the targets of symlinks in the vault (files and folders) at the symlink's path;
/// - report `.rescan` when it may have missed something (an overflowing event queue), after which a walk
///   of the whole vault is the only safe answer, and when the vault folder itself is moved or removed: its
///   watches may follow the folder away, so `VaultWatcher` then compares the folder at the vault path with
///   the one watched, and starts a new watcher there if it changed;
/// - leave out hidden names except the configuration folder `.rhizome/`, which it reports as `.configuration`.
public protocol FileSystemWatcher: AnyObject, Sendable {
    /// Starts watching; `handler` is called on the watcher's own thread.
    func start(_ handler: @escaping @Sendable ([FileSystemChange]) -> Void) throws(WatchError)
    /// Stops watching; no handler call starts after it returns.
    func stop()
    /// Returns once every change made before the call has been passed to the handler (or after `timeout`,
    /// or at once when not watching): a reader calls it so that a note saved just before a question is in
    /// the answer, even when the watcher's thread has not been scheduled since. Returns whether it did.
    func flush(timeout: Duration) -> Bool
}

/// One thing a watcher saw.
public enum FileSystemChange: Sendable, Hashable {
    /// Something changed at this vault-relative path (the bytes on disk, `/`-separated): created, written,
    /// deleted, renamed to or from, or its attributes changed. `isFolder` when the watcher knows it is a folder.
    case path([UInt8], isFolder: Bool)
    /// The vault's configuration or schemas (`.rhizome/`) changed.
    case configuration
    /// Events may have been lost: walk the whole vault.
    case rescan(reason: String)
}

extension FileSystemChange {
    /// Whether a change to `name` inside `.rhizome/` is one of what the configuration is read from:
    /// `config.yaml`, schema files, the `schemas` folder, or the folder itself (an empty name). An index
    /// kept in `.rhizome/` changes on every batch and must not count.
    static func isConfigurationEntry(_ name: String) -> Bool {
        name.isEmpty || name == "schemas" || name.hasSuffix(".yaml") || name.hasSuffix(".yml") || name.hasSuffix(".json")
    }
}

/// Why watching could not start or go on.
public enum WatchError: Error, Sendable, Equatable {
    /// Another `rhizome watch` or `rhizome mcp` already watches this index.
    case alreadyWatched(vault: String, lockPath: String, processID: Int32?)
    /// The kernel refused a watch (inotify limits, a missing folder).
    case cannotWatch(path: String, reason: String, fix: String)
    case lockUnavailable(path: String, reason: String)
}

extension WatchError: RhizomeError {
    /// Another process watching is the user's to sort out; a refused watch or lock is Rhizome's failure.
    public var isUserMistake: Bool {
        if case .alreadyWatched = self { return true }
        return false
    }

    /// Stable machine-readable code for JSON output.
    public var code: String {
        switch self {
        case .alreadyWatched: return "already-watched"
        case .cannotWatch: return "watch-failed"
        case .lockUnavailable: return "lock-unavailable"
        }
    }

    public var description: String {
        switch self {
        case .alreadyWatched(let vault, let lockPath, let processID):
            let who = processID.map { "process \($0)" } ?? "another process"
            return "the vault \(vault) is already watched by \(who) (`rhizome watch` or `rhizome mcp`), which keeps the index current; "
                + "query it as usual, or stop that process first. Lock: \(lockPath)"
        case .cannotWatch(let path, let reason, let fix):
            return "cannot watch \(path): \(reason). \(fix)"
        case .lockUnavailable(let path, let reason):
            return "cannot open the watch lock \(path): \(reason). Check that the index folder is writable."
        }
    }
}
