import Foundation
import Testing
import RhizomeCore
import RhizomeStore
import RhizomeTestSupport

/// A deadline set on a store's connection ends SQL inside SQLite and Dataview between rows, with a typed
/// error; cancelling it ends the work at once. On a real index of a small, densely linked vault.
@Suite(.ownThread) struct QueryDeadlineTests {
    static let endlessSQL = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"

    static func indexedDenseVault() throws -> TemporaryVault {
        let vault = try TemporaryVault()
        let names = (1...20).map { "Note \($0)" }
        for name in names { try vault.write("\(name).md", names.map { "[[\($0)]]" }.joined(separator: " ") + "\n") }
        try vault.index()
        return vault
    }

    static func timedOut(_ error: Error) -> Bool {
        if case .timedOut(_, let scope, let setting)? = error as? StoreError { return scope == "a test" && setting == "--limit" }
        return false
    }

    static func cancelled(_ error: Error) -> Bool {
        if case .cancelled? = error as? StoreError { return true }
        return false
    }

    @Test func `an endless query ends at the deadline with timed-out, and the connection works afterwards`() throws {
        let vault = try Self.indexedDenseVault()
        let store = try IndexStore(readOnlyPath: vault.databasePath)
        let deadline = QueryDeadline(limit: .milliseconds(300), scope: "a test", setting: "--limit")
        let started = ContinuousClock.now
        #expect(performing: { try store.withDeadline(deadline) { try store.readOnlyQuery(Self.endlessSQL) } }, throws: Self.timedOut)
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(try store.readOnlyQuery("SELECT count(*) FROM notes").rows == [[.integer(20)]], "the deadline is gone after the call")
    }

    @Test func `a FLATTEN chain ends at the deadline instead of being dropped row by row`() throws {
        let vault = try Self.indexedDenseVault()
        let store = try IndexStore(readOnlyPath: vault.databasePath)
        let query = try DataviewParser.parse("TABLE a FROM \"\" " + Array(repeating: "FLATTEN file.outlinks AS a", count: 5).joined(separator: " "))
        let deadline = QueryDeadline(limit: .milliseconds(300), scope: "a test", setting: "--limit")
        let started = ContinuousClock.now
        #expect(performing: { try store.withDeadline(deadline) { try store.runDataview(query) } }, throws: Self.timedOut)
        #expect(ContinuousClock.now - started < .seconds(5), "20⁶ rows would take minutes")
    }

    // On a thread of its own, not a task: with every thread of the concurrency pool busy (tests run side by
    // side on two cores), a task or a `Task.sleep` could start seconds late and the time measured be theirs.
    @Test func `cancelling a deadline ends a running query at once`() throws {
        let vault = try Self.indexedDenseVault()
        let path = vault.databasePath
        let deadline = QueryDeadline(limit: .seconds(60), scope: "a test", setting: "--limit")
        let clock = ContinuousClock()
        final class Outcome: @unchecked Sendable { var error: Error?; var endedAt: ContinuousClock.Instant? }
        let outcome = Outcome()
        let running = DispatchSemaphore(value: 0), finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            do {
                let store = try IndexStore(readOnlyPath: path)
                running.signal()
                _ = try store.withDeadline(deadline) { try store.readOnlyQuery(Self.endlessSQL) }
            } catch {
                outcome.error = error
            }
            outcome.endedAt = clock.now
            finished.signal()
        }
        running.wait()
        usleep(200_000)
        let cancelledAt = clock.now
        deadline.cancel()
        #expect(finished.wait(timeout: .now() + 30) == .success, "the query was not ended by its cancelled deadline")
        #expect(outcome.error.map(Self.cancelled) == true, "\(String(describing: outcome.error))")
        #expect((outcome.endedAt ?? clock.now) - cancelledAt < .seconds(5), "cancelled long before its 60 s limit")
    }
}
