import Foundation
import Testing
@testable import RhizomeStore
import RhizomeTestSupport

/// Opening an index that does not exist yet, from several connections at once (two commands started
/// together on a new vault): switching a new file to WAL needs it to itself, and SQLite reports a
/// connection opening it meanwhile as "database is locked" at once, without waiting out its busy timeout.
/// Without retrying that answer, 5 to 11 of these 240 openings failed.
@Suite struct IndexOpeningTests {
    @Test func `connections opening a new index at the same moment all open it`() throws {
        let folder = try TemporaryVault()
        let failures = Failures()
        for round in 0..<60 {
            let path = folder.outside.appendingPathComponent("index-\(round).sqlite").path
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                do { _ = try IndexStore(path: path) } catch { failures.record(error) }
            }
        }
        #expect(failures.all.isEmpty)
    }

    /// The race behind a failure of the scenario above on CI: a connection closing the index removes its
    /// `-shm` between the check that it exists and the check that it can be written, and the second check's
    /// "No such file or directory" was reported as a read-only index. A file that vanishes is no obstacle.
    @Test func `a -shm file removed while the index is checked is not taken for a read-only one`() throws {
        let folder = try TemporaryVault()
        let path = folder.outside.appendingPathComponent("index.sqlite").path
        _ = try IndexStore(path: path)
        let shm = path + "-shm"
        let stop = Failures()
        let churn = Thread {
            while stop.all.isEmpty {
                FileManager.default.createFile(atPath: shm, contents: Data())
                unlink(shm)
            }
        }
        churn.start()
        var problems: [String] = []
        for _ in 0..<20_000 {
            if let problem = IndexStore.writeProblem(ofIndexAt: path) { problems.append("\(problem)") }
        }
        stop.record(CancellationError())
        #expect(problems.isEmpty, "\(problems.count) checks: \(problems.first ?? "")")
    }
}

/// What failed, from any thread.
private final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [String] = []
    var all: [String] { lock.withLock { errors } }
    func record(_ error: any Error) { lock.withLock { errors.append("\(error)") } }
}
