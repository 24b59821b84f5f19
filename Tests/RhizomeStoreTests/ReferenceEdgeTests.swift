import Foundation
import Testing
import RhizomeCore
import RhizomeStore
import RhizomeTestSupport

/// Reference fields whose values are ids (`project: rhizome`) become graph edges in the index: links of
/// kind `property` with the key and `reference = 1`, followed by backlinks, neighbors and paths, kept up
/// to date incrementally, never listed as unresolved, and leaving Obsidian's own links as they were.
@Suite struct ReferenceEdgeTests {
    /// A project with an id, a plan referring to it by id, and ordinary links beside.
    private func makeVault() throws -> TemporaryVault {
        let vault = try TemporaryVault()
        try vault.write("Projects/Rhizome.md", "---\ntype: project\nid: rhizome\nstatus: active\n---\n# Rhizome\nSee [[Launch]].\n")
        try vault.write("Plans/Launch.md", "---\ntype: plan\nstatus: draft\nproject: rhizome\nrelated: \"[[Notes]]\"\n---\n# Launch\nA [[Missing note]] and [markdown](Notes.md).\n")
        try vault.write("Notes.md", "Plain notes, linking [[Rhizome]].\n")
        return vault
    }

    private func referenceRows(_ store: IndexStore) throws -> [String] {
        try store.readOnlyQuery("""
            SELECT source, target, kind, property_key, link_path, line, "column", resolved FROM links WHERE reference = 1 ORDER BY source, line, "column"
            """).rows.map { $0.map(\.displayText).joined(separator: " | ") }
    }

    /// Rewrites a note so the next run sees it changed, whatever the clock's resolution.
    private func edit(_ vault: TemporaryVault, _ path: String, _ text: String) throws {
        let previous = try? FileManager.default.attributesOfItem(atPath: vault.url(path).path)[.modificationDate] as? Date
        try vault.write(path, text)
        try vault.setModificationDate(path, max(previous ?? Date(), Date()).addingTimeInterval(2))
    }

    @Test func `an id reference becomes a property edge with its key, flagged as a reference`() throws {
        let vault = try makeVault()
        let report = try vault.index()
        #expect(report.referenceEdges == 1)
        let store = try vault.store()
        #expect(try referenceRows(store) == ["Plans/Launch.md | Projects/Rhizome.md | property | project | rhizome | 4 | 10 | 1"])
        // Only the id value is a reference edge: Obsidian's own property link keeps reference = 0.
        let obsidian = try store.readOnlyQuery("SELECT reference FROM links WHERE source = 'Plans/Launch.md' AND property_key = 'related'")
        #expect(obsidian.rows.map { $0.map(\.displayText) } == [["0"]])
        #expect(try store.readOnlyQuery("SELECT count(*) FROM links WHERE reference = 1").rows.first?.first?.displayText == "1")
    }

    @Test func `backlinks, neighbors and paths follow id references`() throws {
        let vault = try makeVault()
        try vault.write("Sessions/Pairing.md", "---\ntype: session\ndate: 2024-05-02\nplan: launch-plan\n---\n")
        try edit(vault, "Plans/Launch.md", "---\ntype: plan\nid: launch-plan\nstatus: draft\nproject: rhizome\n---\n")
        try vault.index()
        let store = try vault.store()
        let project = try #require(try store.resolveNote("Projects/Rhizome"))
        let plan = try #require(try store.resolveNote("Plans/Launch"))
        let session = try #require(try store.resolveNote("Sessions/Pairing"))
        let backlinks = try store.backlinks(of: project.id)
        let fromPlan = try #require(backlinks.first { $0.source == "Plans/Launch.md" })
        #expect(fromPlan.kind == "property")
        #expect(fromPlan.propertyKey == "project")
        #expect(fromPlan.linkPath == "rhizome")
        #expect(fromPlan.line == 5)
        #expect(fromPlan.isReference)
        #expect(backlinks.first { $0.source == "Notes.md" }?.isReference == false)
        #expect(backlinks.map(\.source).sorted() == ["Notes.md", "Plans/Launch.md"])
        #expect(try store.neighbors(of: plan.id, depth: 1, direction: .outgoing).map(\.path) == ["Projects/Rhizome.md"])
        #expect(try store.neighbors(of: project.id, depth: 1, direction: .incoming).map(\.path).sorted() == ["Notes.md", "Plans/Launch.md"])
        let twoHops = try store.neighbors(of: session.id, depth: 2, direction: .outgoing)
        #expect(twoHops.map { "\($0.distance) \($0.path)" } == ["1 Plans/Launch.md", "2 Projects/Rhizome.md"])
        let path = try #require(try store.shortestPath(from: session.id, to: project.id))
        #expect(path.map(\.path) == ["Sessions/Pairing.md", "Plans/Launch.md", "Projects/Rhizome.md"])
        #expect(try store.graph().edges.contains { $0.source == "Plans/Launch.md" && $0.target == "Projects/Rhizome.md" })
        // The note view lists the edge among the plan's links.
        #expect(try store.note(plan).links.contains { $0.target == "Projects/Rhizome.md" && $0.propertyKey == "project" })
    }

    @Test func `each id in a list of references is its own edge`() throws {
        let vault = try makeVault()
        try vault.write("Projects/Kettle.md", "---\ntype: project\nid: kettle\nstatus: active\n---\n")
        try vault.write("Plans/Both.md", "---\ntype: plan\nstatus: draft\nprojects:\n  - rhizome\n  - kettle\n---\n")
        try vault.index()
        let store = try vault.store()
        #expect(try referenceRows(store).filter { $0.hasPrefix("Plans/Both.md") } == [
            "Plans/Both.md | Projects/Rhizome.md | property | projects | rhizome | 5 | 5 | 1",
            "Plans/Both.md | Projects/Kettle.md | property | projects | kettle | 6 | 5 | 1",
        ])
    }

    @Test func `edges disappear when the reference is removed or stops resolving`() throws {
        let vault = try makeVault()
        try vault.index()
        let store = try vault.store()
        let project = try #require(try store.resolveNote("Projects/Rhizome"))
        #expect(try store.backlinks(of: project.id).contains { $0.source == "Plans/Launch.md" })
        // The reference is removed from the plan.
        try edit(vault, "Plans/Launch.md", "---\ntype: plan\nstatus: draft\n---\n# Launch\n")
        let removed = try vault.index()
        #expect(removed.referenceEdges == 0)
        #expect(try referenceRows(store).isEmpty)
        #expect(try !store.backlinks(of: project.id).contains { $0.source == "Plans/Launch.md" })
        // Back, then the target changes its id: the unchanged plan loses its edge.
        try edit(vault, "Plans/Launch.md", "---\ntype: plan\nstatus: draft\nproject: rhizome\n---\n# Launch\n")
        #expect(try vault.index().referenceEdges == 1)
        try edit(vault, "Projects/Rhizome.md", "---\ntype: project\nid: rhizome-2\nstatus: active\n---\n# Rhizome\n")
        #expect(try vault.index().referenceEdges == 0)
        #expect(try referenceRows(store).isEmpty)
        #expect(try store.findings().contains { $0.code == .brokenReference && $0.path == "Plans/Launch.md" })
        // The target is deleted: no edge to a missing file survives.
        try edit(vault, "Projects/Rhizome.md", "---\ntype: project\nid: rhizome\nstatus: active\n---\n")
        #expect(try vault.index().referenceEdges == 1)
        try vault.remove("Projects/Rhizome.md")
        #expect(try vault.index().referenceEdges == 0)
        #expect(try store.readOnlyQuery("SELECT count(*) FROM links WHERE reference = 1").rows.first?.first?.displayText == "0")
    }

    @Test func `an edge appears when the note with the id is created after the reference`() throws {
        let vault = try TemporaryVault()
        try vault.write("Plans/Early.md", "---\ntype: plan\nstatus: draft\nproject: later\n---\n")
        #expect(try vault.index().referenceEdges == 0)
        try vault.write("Projects/Later.md", "---\ntype: project\nid: later\nstatus: active\n---\n")
        let report = try vault.index()
        #expect(report.modified == 0 && report.added == 1, "the plan itself is not re-read")
        #expect(report.referenceEdges == 1)
        let store = try vault.store()
        #expect(try referenceRows(store) == ["Plans/Early.md | Projects/Later.md | property | project | later | 4 | 10 | 1"])
        #expect(try !store.findings().contains { $0.code == .brokenReference })
    }

    @Test func `unresolved never lists id references`() throws {
        let vault = try makeVault()
        try vault.write("Plans/Dangling.md", "---\ntype: plan\nstatus: draft\nproject: nothere\nprojects: [rhizome, alsonothere]\n---\n")
        try vault.index()
        let store = try vault.store()
        let unresolved = try store.unresolvedLinks()
        #expect(unresolved.map(\.linkPath).sorted() == ["Missing note"], "\(unresolved)")
        #expect(try store.orphans().map(\.path).contains("Plans/Dangling.md"))
        // The broken ids are findings instead.
        let broken = try store.findings().filter { $0.code == .brokenReference }
        #expect(broken.map { "\($0.path ?? ""):\($0.line ?? 0):\($0.column ?? 0)" }.sorted() == ["Plans/Dangling.md:4:10", "Plans/Dangling.md:5:21"])
        #expect(try store.stats().unresolvedLinks == 1)
        // A reference edge resolves by id, never by file name: `project: notes` does not reach Notes.md.
        try vault.write("Plans/By name.md", "---\ntype: plan\nstatus: draft\nproject: notes\n---\n")
        try vault.index()
        #expect(try referenceRows(store).allSatisfy { !$0.hasPrefix("Plans/By name.md") })
        #expect(try store.unresolvedLinks().map(\.linkPath) == ["Missing note"])
    }

    @Test func `Obsidian's own links are the same with and without schemas`() throws {
        let vault = try makeVault()
        try vault.write("Projects/Kettle.md", "---\ntype: project\nid: kettle\nstatus: active\n---\n[[Rhizome]] ![[Notes]]\n")
        try vault.write("Plans/Both.md", "---\ntype: plan\nstatus: draft\nprojects: [rhizome, kettle]\nrelated: [\"[[Kettle]]\", rhizome]\n---\n")
        try vault.index()
        let plain = vault.scratchDatabasePath()
        var options = IndexOptions()
        options.schemas = .none
        try vault.index(database: plain, options: options)
        let query = """
            SELECT source, coalesce(target, '∅'), link_path, coalesce(subpath, ''), coalesce(display, ''), kind, coalesce(property_key, ''), line, "column"
            FROM links WHERE reference = 0 ORDER BY 1, 8, 9, 3
            """
        let withSchemas = try vault.store().readOnlyQuery(query).rows.map { $0.map(\.displayText) }
        let withoutSchemas = try vault.store(database: plain).readOnlyQuery(query).rows.map { $0.map(\.displayText) }
        #expect(!withSchemas.isEmpty)
        #expect(withSchemas == withoutSchemas)
        #expect(try vault.store(database: plain).readOnlyQuery("SELECT count(*) FROM links WHERE reference = 1").rows.first?.first?.displayText == "0")
        #expect(try referenceRows(try vault.store()).count == 4)
    }

    @Test func `links --all, the Obsidian fidelity contract, lists only Obsidian's links`() throws {
        // `allLinks()` backs `rhizome links --all --json`, "the contract others check Rhizome's fidelity
        // against". Obsidian draws no link for `project: rhizome`, and the contract's objects have no key
        // that would let a checker tell a reference edge apart.
        let vault = try makeVault()
        try vault.index()
        let plain = vault.scratchDatabasePath()
        var options = IndexOptions()
        options.schemas = .none
        try vault.index(database: plain, options: options)
        let withSchemas = try vault.store().allLinks()
        let withoutSchemas = try vault.store(database: plain).allLinks()
        #expect(withSchemas == withoutSchemas, "extra: \(Set(withSchemas).subtracting(withoutSchemas))")
        #expect(withSchemas.allSatisfy { !$0.isReference })
        #expect(try vault.store().stats().links == (try vault.store(database: plain).stats().links), "link totals are Obsidian's")
        // Orphans and dead ends are Obsidian's view too: a note reached only by an id reference is an orphan.
        try vault.write("Projects/Only by id.md", "---\ntype: project\nid: only\nstatus: active\n---\n")
        try vault.write("Plans/Pointer.md", "---\ntype: plan\nstatus: draft\nproject: only\n---\n")
        try vault.index()
        #expect(try referenceRows(try vault.store()).contains { $0.hasPrefix("Plans/Pointer.md | Projects/Only by id.md") })
        #expect(try vault.store().orphans().map(\.path).contains("Projects/Only by id.md"))
        #expect(try vault.store().deadEnds().map(\.path).contains("Plans/Pointer.md"))
    }

    @Test func `incremental reference edges equal a full rebuild`() throws {
        let vault = try makeVault()
        try vault.index()
        try vault.write("Projects/Kettle.md", "---\ntype: project\nid: kettle\nstatus: active\n---\n")
        try edit(vault, "Plans/Launch.md", "---\ntype: plan\nstatus: draft\nprojects: [kettle, rhizome]\n---\n")
        try vault.index()
        try vault.move("Projects/Rhizome.md", to: "Archive/Rhizome.md")
        try vault.index()
        try vault.write("Sessions/S.md", "---\ntype: session\ndate: 2024-01-01\nproject: kettle\n---\n")
        try vault.remove("Notes.md")
        try vault.index()
        let rebuilt = vault.scratchDatabasePath()
        try vault.index(database: rebuilt)
        let incremental = try referenceRows(try vault.store())
        #expect(incremental == (try referenceRows(try vault.store(database: rebuilt))))
        #expect(incremental == [
            "Plans/Launch.md | Projects/Kettle.md | property | projects | kettle | 4 | 12 | 1",
            "Plans/Launch.md | Archive/Rhizome.md | property | projects | rhizome | 4 | 20 | 1",
            "Sessions/S.md | Projects/Kettle.md | property | project | kettle | 4 | 10 | 1",
        ])
        #expect(try vault.store().canonicalDump() == (try vault.store(database: rebuilt).canonicalDump()))
    }
}
