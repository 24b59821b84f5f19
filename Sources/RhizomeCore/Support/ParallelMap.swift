import Foundation

/// Work spread over a few threads with results in order: the indexer's parsing, loading a base's files,
/// evaluating a base's rows. Each thread takes the next item not taken yet, so a thread slowed down by
/// other work on its core leaves more to the others.
public enum ParallelMap {
    /// `transform` over `items` on `workers` threads; results in the order of `items`.
    public static func map<T: Sendable, R: Sendable>(_ items: [T], workers: Int, _ transform: @Sendable (T) -> R) -> [R] {
        map(items, workers: workers) { _, item in transform(item) }
    }

    /// `transform` also gets the number of the worker that runs it (below `workers`; one thread each).
    public static func map<T: Sendable, R: Sendable>(_ items: [T], workers: Int, _ transform: @Sendable (Int, T) -> R) -> [R] {
        let buffer = ResultBuffer<R>(pointer: .allocate(capacity: items.count))
        buffer.pointer.initialize(repeating: nil)
        defer {
            // Release the results before freeing the memory (deallocate alone would leak them).
            buffer.pointer.deinitialize()
            buffer.pointer.deallocate()
        }
        let workerCount = max(1, min(workers, items.count))
        let next = WorkCounter()
        DispatchQueue.concurrentPerform(iterations: workerCount) { worker in
            while let index = next.claim(below: items.count) {
                buffer.pointer[index] = transform(worker, items[index])  // each slot is written by one thread only
            }
        }
        return buffer.pointer.map { $0! }
    }

    /// How many threads work on `count` items that are each cheap: one below `threshold`, else up to four
    /// (no more than the cores).
    public static func workers(for count: Int, threshold: Int) -> Int {
        count >= threshold ? max(1, min(ProcessInfo.processInfo.activeProcessorCount, 4)) : 1
    }
}

/// The results of `ParallelMap.map`: each slot is written by one thread, read after all have finished.
private struct ResultBuffer<R>: @unchecked Sendable {  // hot path: workers write distinct slots of one buffer, read after they all finish
    let pointer: UnsafeMutableBufferPointer<R?>
}

/// Hands out item numbers to worker threads, each number once, in order.
private final class WorkCounter: Sendable {
    private let next = Locked(0)

    func claim(below count: Int) -> Int? {
        next.withLock { next in
            guard next < count else { return nil }
            next += 1
            return next - 1
        }
    }
}
