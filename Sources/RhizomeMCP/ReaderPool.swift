import Dispatch
import Foundation
import RhizomeCore
import RhizomeStore

/// The read tools' connections to the index: a few lanes, each a thread (a serial queue) with a
/// read-only connection of its own, so calls run side by side and a slow one never holds up a fast one.
/// A call takes an idle lane, or waits for one until its deadline; the deadline is set on the lane's
/// connection for the call (SQL and Dataview end at it). Connections open lazily, and again until the
/// first index exists.
final class ReaderPool: Sendable {
    /// Four lanes: calls beyond that (rare: agents send a handful at a time) wait for one.
    static let defaultSize = 4

    private let databasePath: String
    private let lanes: [Lane]
    /// The idle lanes' numbers, and when the index last caught up as of the last call.
    private let state: Locked<(idle: [Int], lastKnownIndexedAt: String?)>

    init(databasePath: String, size: Int = ReaderPool.defaultSize) {
        self.databasePath = databasePath
        lanes = (0..<max(1, size)).map { Lane(queue: DispatchQueue(label: "rhizome.mcp.reader.\($0)")) }
        state = Locked((Array(lanes.indices.reversed()), nil))
    }

    /// Runs `body` on an idle lane's connection, ended by `deadline` (which also bounds the wait for a lane).
    func perform<Result: Sendable>(_ deadline: QueryDeadline, _ body: @escaping @Sendable (IndexStore) throws -> Result) async throws -> Result {
        let index = try await takeLane(deadline)
        defer { state.withLock { $0.idle.append(index) } }
        let lane = lanes[index]
        return try await withCheckedThrowingContinuation { continuation in
            lane.queue.async { [databasePath, state] in
                do {
                    let store = try lane.store(databasePath: databasePath)
                    let result = try store.withDeadline(deadline) { try body(store) }
                    let indexedAt = store.lastIndexedAt
                    state.withLock { $0.lastKnownIndexedAt = indexedAt }
                    continuation.resume(returning: result)
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    /// When the index last caught up, as of the last call (for freshness without a watcher of our own).
    var lastIndexedAt: String? {
        state.withLock { $0.lastKnownIndexedAt }
    }

    /// An idle lane's number; while every lane is busy, waits (polling: lanes free up within a time
    /// limit, and this keeps the wait cancellable without bookkeeping).
    private func takeLane(_ deadline: QueryDeadline) async throws -> Int {
        while true {
            if let index = state.withLock({ $0.idle.popLast() }) { return index }
            try deadline.check()
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// One lane: its queue, and its connection once the index exists (used only on that queue).
    private final class Lane: @unchecked Sendable {  // a SQLite connection, used only on `queue`
        let queue: DispatchQueue
        private var opened: IndexStore?

        init(queue: DispatchQueue) { self.queue = queue }

        func store(databasePath: String) throws -> IndexStore {
            if let opened { return opened }
            let store = try IndexStore(readOnlyPath: databasePath)
            guard store.hasIndexedOnce else { throw StoreError.notIndexed(path: databasePath) }
            opened = store
            return store
        }
    }
}
