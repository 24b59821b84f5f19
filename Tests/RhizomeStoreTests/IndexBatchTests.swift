import Dispatch
import Foundation
import Testing
@testable import RhizomeCore
@testable import RhizomeStore

/// How an indexing run cuts its files into batches: smaller ones first (writing starts soon after
/// parsing does) and last (the last is written while the workers idle), every file once, in order.
@Suite struct IndexBatchTests {
    private func jobs(_ count: Int) -> [Indexer.ParseJob] {
        (0..<count).map { number in
            Indexer.ParseJob(
                id: Int64(number + 1), file: ScannedFile(path: "N\(number).md", diskPath: DiskPath("N\(number).md"), size: 1, modificationTime: 1),
                previousHash: nil, isNew: true)
        }
    }

    @Test(arguments: [
        (0, [Int]()), (1, [1]), (100, [100]), (128, [128]), (300, [128, 172]), (500, [128, 256, 116]), (600, [128, 256, 88, 128]),
        (1_000, [128, 256, 232, 256, 128]), (2_000, [128, 256, 512, 512, 208, 256, 128]), (2_048, [128, 256, 512, 512, 256, 256, 128]),
    ])
    func `batches ramp up to the batch size, down again at the end, and hold every file once, in order`(count: Int, sizes: [Int]) {
        let batches = Indexer.batches(of: jobs(count), size: 512)
        #expect(batches.map(\.count) == sizes)
        #expect(batches.flatMap { $0.map(\.id) } == (0..<count).map { Int64($0 + 1) })
    }

    @Test func `a batch size of one still gives batches of one`() {
        #expect(Indexer.batches(of: jobs(3), size: 1).map(\.count) == [1, 1, 1])
    }

    @Test func `parallel map returns every result in order, each item once, with worker numbers below the worker count`() {
        let seen = NSLock()
        nonisolated(unsafe) var calls: [Int] = []
        let results = Indexer.parallelMap(Array(0..<1_000), workers: 3) { worker, item -> String in
            seen.withLock { calls.append(item) }
            #expect((0..<3).contains(worker))
            return "item \(item)"
        }
        #expect(results == (0..<1_000).map { "item \($0)" })
        #expect(calls.sorted() == Array(0..<1_000))
    }

    @Test(.enabled(if: ProcessInfo.processInfo.activeProcessorCount >= 2, "needs two cores: one worker is held up while the other works"))
    func `a worker held up on one item leaves every other item to the other worker`() {
        // Item 0 waits until every other item is done. Items dealt out in turn (worker 0 also owning
        // items 2, 4, …) would never let it finish; taken as workers come free, the other worker takes them.
        let othersDone = DispatchSemaphore(value: 0)
        let results = Indexer.parallelMap(Array(0..<64), workers: 2) { item -> Bool in
            if item == 0 {
                for _ in 1..<64 where othersDone.wait(timeout: .now() + 10) == .timedOut { return false }
                return true
            }
            othersDone.signal()
            return true
        }
        #expect(results.allSatisfy { $0 }, "item 0 gave up waiting for the other items: they were not taken by the free worker")
    }
}
