import Foundation

/// A value shared between threads, behind a lock: the one place Rhizome's own types get thread safety
/// by hand, so that a class holding such state is checked `Sendable` instead of `@unchecked`.
/// (`Synchronization.Mutex` does the same from macOS 15, above this package's macOS 13.)
public final class Locked<State> {
    private let lock = NSLock()
    private var state: State

    public init(_ state: State) {
        self.state = state
    }

    /// Runs `body` with the state, alone: no other thread reads or changes it meanwhile.
    public func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }

    /// Runs `body` with the state when no other thread holds it; nil (and `body` not run) when one does.
    public func withLockIfAvailable<Result>(_ body: (inout State) throws -> Result) rethrows -> Result? {
        guard lock.try() else { return nil }
        defer { lock.unlock() }
        return try body(&state)
    }
}

// Every access to `state` goes through `withLock`.
extension Locked: @unchecked Sendable where State: Sendable {}
