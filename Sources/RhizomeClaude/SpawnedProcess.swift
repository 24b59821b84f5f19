import Foundation
import RhizomeCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process (the `claude` CLI) started in a process group of its own, with no signal blocked and
/// the default action for the signals that stop it, and reaped by a thread of its own.
///
/// Foundation's `Process` can do neither: its child inherits the signal mask of the thread that spawns
/// it, and Rhizome's threads block SIGINT and SIGTERM (they are handled in one place), so the SIGTERM
/// meant to stop `claude` did nothing; and what `claude` started itself (a shell's `sleep`, a helper)
/// outlived it. `terminate()` signals the whole group: SIGTERM, then SIGKILL after a grace period.
final class SpawnedProcess: @unchecked Sendable {  // a child pid and its pipe descriptors
    let processID: pid_t
    private let condition = NSCondition()
    /// The raw wait status once reaped.
    private var waitStatus: Int32?

    /// The signals whose action the child gets back to the default (the parent may ignore SIGPIPE).
    private static let defaultedSignals = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE]

    /// Starts `executable` with `arguments` and exactly `environment`, its standard input, output and
    /// error on the given descriptors (which it gets as 0, 1 and 2).
    init(
        executable: String, arguments: [String], environment: [String: String], standardInput: Int32, standardOutput: Int32, standardError: Int32
    ) throws(ClaudeError) {
        do {
            processID = try ProcessSpawn.start(
                executable, arguments: arguments, environment: environment,
                fileActions: [.duplicate(standardInput, as: 0), .duplicate(standardOutput, as: 1), .duplicate(standardError, as: 2)],
                defaultedSignals: Self.defaultedSignals, ownProcessGroup: true)
        } catch {
            throw .cliUnavailable(reason: "cannot start \(executable) (\(error.reason))")
        }
        let reaper = Thread { [self] in reap() }
        reaper.name = "rhizome.claude-cli.reaper"
        reaper.start()
    }

    var isRunning: Bool { condition.withLock { waitStatus == nil } }

    /// The exit status, or 128 + the signal that ended it; -1 while it runs.
    var terminationStatus: Int32 {
        guard let status = condition.withLock({ waitStatus }) else { return -1 }
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    /// Sends `signal` to the child and everything in its process group.
    func signalGroup(_ signal: Int32) {
        _ = kill(-processID, signal)
    }

    /// SIGTERM to the group, and SIGKILL to what is left of it `grace` seconds later; returns once the
    /// child is reaped (at most `grace` plus a moment).
    func terminate(grace: TimeInterval = 0.5) {
        signalGroup(SIGTERM)
        if !waitUntilExit(timeout: grace) { signalGroup(SIGKILL) }
        _ = waitUntilExit(timeout: 2)
        // What the child started and left in its group, even when the child itself went quietly.
        signalGroup(SIGKILL)
    }

    /// Whether the child was reaped within `timeout` seconds.
    @discardableResult
    func waitUntilExit(timeout: TimeInterval) -> Bool {
        let deadline = Date() + timeout
        condition.lock()
        defer { condition.unlock() }
        while waitStatus == nil {
            guard condition.wait(until: deadline) else { return waitStatus != nil }
        }
        return true
    }

    private func reap() {
        var status: Int32 = 0
        while waitpid(processID, &status, 0) < 0 && errno == EINTR {}
        condition.withLock {
            waitStatus = status
            condition.broadcast()
        }
    }
}
