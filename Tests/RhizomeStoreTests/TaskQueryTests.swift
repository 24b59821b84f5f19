/// `IndexStore.tasks`: every task in path and line order, and the first few with the count of all (what
/// MCP's `tasks` tool answers), which must be the start of the same list.
import Testing
@testable import RhizomeStore
import RhizomeTestSupport

@Suite struct TaskQueryTests {
    @Test func `the first tasks and their count agree with the whole list, for each status`() throws {
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        try vault.index()
        let store = try vault.store()
        for filter in [IndexStore.TaskFilter.all, .open, .done] {
            let all = try store.tasks(filter)
            #expect(all.count > 5, "\(filter)")
            for limit in [1, 5, all.count, all.count + 10] {
                let page = try store.tasks(filter, limit: limit)
                #expect(page.total == all.count, "\(filter)")
                #expect(page.tasks == Array(all.prefix(limit)), "\(filter), limit \(limit)")
            }
        }
        #expect(try store.tasks(.open).allSatisfy { $0.status == " " })
        #expect(try store.tasks(.done).allSatisfy(\.done))
    }
}
