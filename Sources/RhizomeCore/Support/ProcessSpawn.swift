import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts a child process with `posix_spawn`, with no signal blocked and the default action for the
/// signals given: Rhizome's threads block SIGINT and SIGTERM (they are handled in one place), and a child
/// started by Foundation's `Process` inherits that mask, so it could not be stopped. Used for the `claude`
/// CLI (in a process group of its own) and for the pager.
public enum ProcessSpawn {
    /// What the child's descriptors are set to before it runs.
    public enum FileAction: Sendable {
        /// `dup2(descriptor, target)`: the child gets `descriptor` as `target` (0, 1, 2).
        case duplicate(Int32, as: Int32)
        case close(Int32)
    }

    /// `posix_spawn` failed: its error number, and what it means.
    public struct Failure: Error, Sendable {
        public var code: Int32
        public var reason: String { String(cString: strerror(code)) }
    }

    /// Starts `executable` with `arguments` (without its own name) and exactly `environment`; returns its
    /// process id. With `ownProcessGroup`, the child leads a group of its own (to be signalled as one).
    public static func start(
        _ executable: String, arguments: [String], environment: [String: String], fileActions: [FileAction],
        defaultedSignals: [Int32], ownProcessGroup: Bool
    ) throws(Failure) -> pid_t {
        #if canImport(Darwin)
        var attributes: posix_spawnattr_t? = nil
        var actions: posix_spawn_file_actions_t? = nil
        #else
        var attributes = posix_spawnattr_t()
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawnattr_init(&attributes)
        posix_spawn_file_actions_init(&actions)
        defer {
            posix_spawnattr_destroy(&attributes)
            posix_spawn_file_actions_destroy(&actions)
        }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaulted = sigset_t()
        sigemptyset(&defaulted)
        for signal in defaultedSignals { sigaddset(&defaulted, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaulted)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if ownProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)  // a group of its own, led by the child
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))
        for action in fileActions {
            switch action {
            case .duplicate(let descriptor, let target): posix_spawn_file_actions_adddup2(&actions, descriptor, target)
            case .close(let descriptor): posix_spawn_file_actions_addclose(&actions, descriptor)
            }
        }
        let words: [String] = [executable] + arguments
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard status == 0 else { throw Failure(code: status) }
        return child
    }
}
