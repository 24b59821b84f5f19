import Foundation
import RhizomeCore

/// Runs async work from a synchronous command, on a thread of its own. With `cancelledByInterrupt`, Ctrl-C cancels it (an API
/// request stops cleanly); without, signals keep their usual effect.
enum AsyncWork {
    static func wait<T: Sendable>(cancelledByInterrupt: Bool = true, _ work: @escaping @Sendable () async throws -> T) throws -> T {
        let pending = PendingResult<T>()
        // The work runs on a thread of its own: the caller blocks its thread until the work is done, and
        // in-process callers (tests, an embedding app) may be on the concurrency pool, which has one thread
        // per core and would deadlock if every one of them waited here for work queued behind them.
        let executor = DedicatedThreadExecutor(name: "rhizome.async-work")
        defer { executor.shutdown() }
        let task = Task(executorPreference: executor) {
            let outcome: Result<T, Error>
            do { outcome = .success(try await work()) } catch { outcome = .failure(error) }
            pending.fulfill(outcome)
        }
        let signals = cancelledByInterrupt ? StopSignals({ task.cancel() }) : nil
        defer { signals?.cancel() }
        return try pending.wait()
    }
}
