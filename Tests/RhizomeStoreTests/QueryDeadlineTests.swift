import Foundation
import Testing
import RhizomeCore
import RhizomeStore
import RhizomeTestSupport

/// A deadline set on a store's connection ends SQL inside SQLite and Dataview between rows, with a typed
/// error; cancelling it ends the work at once. On a real index of a small, densely linked vault.
@Suite struct QueryDeadlineTests {
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

    @Test func `cancelling a deadline ends a running query at once`() async throws {
        let vault = try Self.indexedDenseVault()
        let path = vault.databasePath
        let deadline = QueryDeadline(limit: .seconds(60), scope: "a test", setting: "--limit")
        let clock = ContinuousClock()
        let started = clock.now
        let outcome = Task.detached { () -> Error? in
            do {
                let store = try IndexStore(readOnlyPath: path)
                _ = try store.withDeadline(deadline) { try store.readOnlyQuery(Self.endlessSQL) }
                return nil
            } catch {
                return error
            }
        }
        try await Task.sleep(for: .milliseconds(200))
        deadline.cancel()
        let error = await outcome.value
        #expect(error.map(Self.cancelled) == true, "\(String(describing: error))")
        #expect(clock.now - started < .seconds(5), "cancelled long before its 60 s limit")
    }
}
