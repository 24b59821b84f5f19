// A task executor with one thread of its own: async work that must not depend on the concurrency pool.
import Foundation

/// Runs jobs in order on a thread of its own. Async work run under it (`Task(executorPreference:)`,
/// `withTaskExecutorPreference`) never waits for a thread of the concurrency pool, which has one per core
/// and stalls for as long as its threads are blocked: a synchronous caller waiting on a semaphore for the
/// very work it started would otherwise deadlock on a two-core machine.
///
/// Call `shutdown()` when the work is done; the thread ends once its queue is empty. A job that still
/// arrives afterwards runs on a thread started for it, so nothing is ever left waiting.
public final class DedicatedThreadExecutor: TaskExecutor, @unchecked Sendable {  // a Thread and the NSCondition its queue waits on
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopped = false

    public init(name: String) {
        let thread = Thread { [self] in drain() }
        thread.name = name
        thread.start()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let accepted = condition.withLock {
            guard !stopped else { return false }
            jobs.append(job)
            condition.signal()
            return true
        }
        if !accepted {
            let executor = asUnownedTaskExecutor()
            Thread.detachNewThread { job.runSynchronously(on: executor) }
        }
    }

    /// Lets the thread end once the jobs already queued have run.
    public func shutdown() {
        condition.withLock {
            stopped = true
            condition.signal()
        }
    }

    private func drain() {
        let executor = asUnownedTaskExecutor()
        while true {
            condition.lock()
            while jobs.isEmpty && !stopped { condition.wait() }
            let batch = jobs
            jobs.removeAll()
            condition.unlock()
            if batch.isEmpty { return }  // stopped, and nothing left to run
            for job in batch { job.runSynchronously(on: executor) }
        }
    }
}
