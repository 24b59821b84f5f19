/// `IndexStore.recentlyModifiedNotes` (MCP `recent_changes`): narrowed by folder, by tag with its nested
/// tags, and by schema or declared type, as `search` narrows.
import Foundation
import Testing
import RhizomeStore
import RhizomeTestSupport

@Suite struct RecentlyModifiedNotesTests {
    @Test func `recent notes narrow by folder, by tag with nested tags, and by type`() throws {
        let vault = try TemporaryVault()
        try vault.write("Work/Plan.md", "---\ntype: plan\n---\n#project/rhizome\n")
        try vault.write("Work/Log.md", "#project\n")
        try vault.write("Home/Shopping.md", "---\ntype: list\n---\n#projects\n")
        try vault.index()
        let store = try vault.store()
        func paths(folder: String? = nil, tag: String? = nil, type: String? = nil) throws -> [String] {
            try store.recentlyModifiedNotes(since: 0, folder: folder, tag: tag, type: type, limit: 10).map(\.path).sorted()
        }
        #expect(try paths() == ["Home/Shopping.md", "Work/Log.md", "Work/Plan.md"])
        #expect(try paths(folder: "Work") == ["Work/Log.md", "Work/Plan.md"])
        #expect(try paths(tag: "#project") == ["Work/Log.md", "Work/Plan.md"], "nested tags count, a longer name does not")
        #expect(try paths(tag: "project/rhizome") == ["Work/Plan.md"])
        #expect(try paths(type: "plan") == ["Work/Plan.md"])
        #expect(try paths(folder: "Work", tag: "project", type: "list").isEmpty)
    }
}
