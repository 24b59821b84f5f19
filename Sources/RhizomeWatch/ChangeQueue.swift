import Foundation
import RhizomeCore

/// File-system changes waiting to be applied, grouped into bursts.
final class ChangeQueue: @unchecked Sendable {  // an NSCondition that waiters sleep on (a lock box cannot wait)
    struct Batch {
        var changes: [FileSystemChange]
        var firstEventAt: ContinuousClock.Instant
    }

    private let condition = NSCondition()
    private var pending: [FileSystemChange] = []
    private var firstEventAt: ContinuousClock.Instant?
    private var lastEventAt: ContinuousClock.Instant?
    private var isClosed = false
    private let clock = ContinuousClock()

    /// Whether changes are waiting to be taken.
    var hasPending: Bool {
        condition.lock()
        defer { condition.unlock() }
        return !pending.isEmpty
    }

    func append(_ changes: [FileSystemChange]) {
        condition.lock()
        defer { condition.unlock() }
        let now = clock.now
        pending += changes
        if firstEventAt == nil { firstEventAt = now }
        lastEventAt = now
        condition.broadcast()
    }

    /// Drops the changes not yet taken: those of a folder that is no longer at the vault path.
    func discardPending() {
        condition.lock()
        defer { condition.unlock() }
        pending = []
        firstEventAt = nil
        lastEventAt = nil
    }

    func close() {
        condition.lock()
        defer { condition.unlock() }
        isClosed = true
        condition.broadcast()
    }

    /// Waits for a burst to end (quiet for `debounce`, or `maximumDelay` after its first event); nil once
    /// closed. With `idleLimit`, an empty batch when nothing happened for that long.
    func nextBatch(debounce: Duration, maximumDelay: Duration, orAfter idleLimit: Duration? = nil) -> Batch? {
        condition.lock()
        defer { condition.unlock() }
        let idleDeadline = idleLimit.map { clock.now + $0 }
        while true {
            if isClosed { return nil }
            if let first = firstEventAt, let last = lastEventAt {
                let now = clock.now
                let quietUntil = last + debounce
                let deadline = first + maximumDelay
                if now >= quietUntil || now >= deadline {
                    let batch = Batch(changes: pending, firstEventAt: first)
                    pending = []
                    firstEventAt = nil
                    lastEventAt = nil
                    return batch
                }
                _ = condition.wait(until: Date() + (min(quietUntil, deadline) - now).inSeconds)
            } else if let idleDeadline {
                let now = clock.now
                if now >= idleDeadline { return Batch(changes: [], firstEventAt: now) }
                _ = condition.wait(until: Date() + (idleDeadline - now).inSeconds)
            } else {
                condition.wait()
            }
        }
    }
}
