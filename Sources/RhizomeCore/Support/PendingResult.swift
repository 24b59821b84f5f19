import Dispatch

/// A result another thread delivers: it calls `fulfill` once; `wait()` blocks until then, from any thread
/// and as often as asked, and returns the value or throws the error. What a thread of our own
/// (`VaultEditor`'s journal writer) or async work run from synchronous code (`AsyncWork`) hands back.
public final class PendingResult<Value: Sendable>: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let result = Locked<Result<Value, any Error>?>(nil)

    public init() {}

    /// Delivers the outcome; only the first call counts.
    public func fulfill(_ outcome: Result<Value, any Error>) {
        let first = result.withLock { stored -> Bool in
            guard stored == nil else { return false }
            stored = outcome
            return true
        }
        if first { done.signal() }
    }

    public func wait() throws -> Value {
        done.wait()
        done.signal()  // for the next wait
        return try result.withLock { $0! }.get()
    }
}
