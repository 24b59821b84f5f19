import Testing
@testable import RhizomeCore
@testable import RhizomeStore

/// How an indexing run cuts its files into batches: smaller ones first (writing starts soon after
/// parsing does), every file once, in order.
@Suite struct IndexBatchTests {
    private func jobs(_ count: Int) -> [Indexer.ParseJob] {
        (0..<count).map { number in
            Indexer.ParseJob(
                id: Int64(number + 1), file: ScannedFile(path: "N\(number).md", diskPath: DiskPath("N\(number).md"), size: 1, modificationTime: 1),
                previousHash: nil, isNew: true)
        }
    }

    @Test(arguments: [(0, [Int]()), (1, [1]), (100, [100]), (128, [128]), (300, [128, 172]), (1_000, [128, 256, 512, 104]), (2_000, [128, 256, 512, 512, 512, 80])])
    func `batches ramp up to the batch size and hold every file once, in order`(count: Int, sizes: [Int]) {
        let batches = Indexer.batches(of: jobs(count), size: 512)
        #expect(batches.map(\.count) == sizes)
        #expect(batches.flatMap { $0.map(\.id) } == (0..<count).map { Int64($0 + 1) })
    }

    @Test func `a batch size of one still gives batches of one`() {
        #expect(Indexer.batches(of: jobs(3), size: 1).map(\.count) == [1, 1, 1])
    }
}
