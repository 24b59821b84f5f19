import Foundation
import Testing
import RhizomeCore
import RhizomeStore
import RhizomeOperations
import RhizomeTestSupport

/// Random vaults written to real folders, and random sequences of `mv`, `rm`, `rename-heading` and `undo`
/// through `VaultEditor` (journal, real files, the index re-indexed by each change). After each step the
/// index's graph is the expected one: moves map sources and targets, a heading rename and a trash of files
/// no one else links to change no edge, an undo brings back the graph before the change it reverses; and
/// no file outside a plan's changes and moves changes a byte. `RHIZOME_EDIT_SEQUENCES` sets how many (default 1,000).
@Suite struct EditSequencePropertyTests {
    static let sequences = ProcessInfo.processInfo.environment["RHIZOME_EDIT_SEQUENCES"].flatMap(Int.init) ?? 1_000

    @Test func randomEditSequencesKeepTheGraph() throws {
        var counts: [String: Int] = [:]
        for seed in 0..<UInt64(Self.sequences) {
            var generator = SeededGenerator(state: 10_000 + seed)
            let vault = try TemporaryVault()
            for (path, bytes) in RandomVault(generator: &generator, fileCount: 12).files { try vault.write(path, bytes: bytes) }
            _ = try vault.index()
            let store = try vault.store()
            let editor = try VaultEditor(vaultPath: vault.path, databasePath: vault.databasePath, store: store)
            var graphs: [GraphSnapshot] = [try GraphSnapshot(store, vault: vault.path)]
            for step in 0..<4 {
                let before = graphs.last!
                let files = try store.filePaths()
                let diskBefore = try diskFiles(vault)
                let choice = Int.random(in: 0..<10, using: &generator)
                let context = "seed \(10_000 + seed) step \(step)"
                if choice < 5 {
                    guard let (source, destination) = randomMove(files, generator: &generator) else { continue }
                    // Without --resolve-links a move that would give unresolved links a target is refused, and
                    // the graph is kept exactly; with it, those links (and only those) may resolve.
                    let resolving = Int.random(in: 0..<4, using: &generator) == 0
                    guard let plan = plan(context, { try editor.planMove(source, to: destination, resolvingLinks: resolving) }) else { continue }
                    #expect(resolving || plan.newlyResolved.isEmpty, "\(context)")
                    try editor.apply(plan)
                    let expected = before.moved(Dictionary(uniqueKeysWithValues: plan.moves.map { ($0.from, $0.to) }))
                    try checkGraph(store, vault: vault, expected: expected, newlyResolved: !plan.newlyResolved.isEmpty, context: "\(context) mv \(source) → \(destination)")
                    try checkUntouched(vault, before: diskBefore, changed: Set(plan.changes.map(\.path)), moves: plan.moves, context: context)
                    counts["mv", default: 0] += 1
                } else if choice < 7 {
                    // Mostly a note that heading links reach, where a rename has links to follow or keep.
                    let linkedHeadings = Set(before.edges.values.joined().filter { $0.headings?.isEmpty == false }.compactMap(\.target)).sorted()
                    let notes = Int.random(in: 0..<4, using: &generator) > 0 && !linkedHeadings.isEmpty ? linkedHeadings : files.filter { VaultFileKind(path: $0) == .note }
                    guard let note = notes.randomElement(using: &generator) else { continue }
                    let headings = NoteParser.parse(Array(diskBefore[note] ?? Data()), path: note, includeBodyText: false).headings
                    guard let heading = headings.randomElement(using: &generator) else { continue }
                    // The second `## Dup` is reached by its heading path; a new name another heading has is
                    // refused when a link would then reach another heading, and keeps the graph when not.
                    let old = heading.text == "Dup" && Bool.random(using: &generator) ? "Second#Dup" : heading.text
                    let new = ["Renamed \(step)", "Renamed \(step)", "Dup", "Second", "sub", "Heading"].randomElement(using: &generator)!
                    let resolving = Bool.random(using: &generator)
                    guard let plan = plan(context, { try editor.planRenameHeading(old, to: new, in: note, resolvingLinks: resolving) }) else { continue }
                    #expect(resolving || plan.newlyResolved.isEmpty, "\(context)")
                    try editor.apply(plan)
                    try checkGraph(store, vault: vault, expected: before, newlyResolved: !plan.newlyResolved.isEmpty, context: "\(context) rename-heading \(note)#\(old) → \(new)")
                    try checkUntouched(vault, before: diskBefore, changed: Set(plan.changes.map(\.path)), moves: [], context: context)
                    counts["rename-heading", default: 0] += 1
                } else if choice < 8 {
                    guard let path = files.randomElement(using: &generator) else { continue }
                    let plan = try editor.planTrash([path])
                    try editor.apply(plan)
                    // The rest of the vault keeps its bytes; its edges to other files stay.
                    try checkUntouched(vault, before: diskBefore, changed: [], moves: plan.moves, context: context)
                    let after = try GraphSnapshot(store, vault: vault.path)
                    for (source, edges) in before.edges where source != path {
                        let now = try #require(after.edges[source], "\(context): \(source) lost")
                        for (index, edge) in edges.enumerated() where edge.target != path && edge.target != nil {
                            #expect(now[index] == edge, "\(context): rm \(path) changed \(source)'s link \(index)")
                        }
                    }
                    counts["rm", default: 0] += 1
                } else {
                    guard graphs.count > 1, (try? editor.planUndo()) != nil else { continue }
                    try editor.apply(try editor.planUndo())
                    graphs.removeLast()
                    try checkGraph(store, vault: vault, expected: graphs.last!, newlyResolved: false, context: "\(context) undo")
                    counts["undo", default: 0] += 1
                    continue
                }
                graphs.append(try GraphSnapshot(store, vault: vault.path))
            }
            // What the edits left in the index (full text written ahead of a move included) is what a
            // rebuild of the vault holds.
            let fresh = vault.scratchDatabasePath()
            _ = try vault.index(database: fresh)
            #expect(try store.canonicalDump() == vault.store(database: fresh).canonicalDump(), "seed \(10_000 + seed): the index after the edits ≠ a rebuild")
        }
        #expect(counts.values.reduce(0, +) > Self.sequences * 2, "\(counts)")
        #expect(counts.count == 4, "every kind of edit ran: \(counts)")
    }

    /// A plan, or nil when it was refused. Refusals are fine (a taken name, a name links cannot reach);
    /// links that cannot be kept are not, in these vaults.
    func plan(_ context: String, _ make: () throws -> MovePlan) -> MovePlan? {
        do {
            return try make()
        } catch {
            if let edit = error as? EditError, edit.code == "links-cannot-be-kept" { Issue.record("\(context): \(edit)") }
            return nil
        }
    }

    func randomMove(_ files: [String], generator: inout SeededGenerator) -> (String, String)? {
        guard let path = files.randomElement(using: &generator) else { return nil }
        let folders = Set(files.map { VaultPath.folder(of: $0) }.filter { !$0.isEmpty }).sorted()
        if Int.random(in: 0..<4, using: &generator) == 0, let folder = folders.randomElement(using: &generator) {
            return (folder, ["Moved", "Archive/Old", "Deep/er"].randomElement(using: &generator)! + "/")
        }
        let name = String(VaultPath.fileName(of: path))
        let newName = Bool.random(using: &generator) ? ["Note", "Plan", "Moved", "Café", "index"].randomElement(using: &generator)! + (name.hasSuffix(".md") ? "" : "." + VaultPath.lowercasedExtension(of: name)) : name
        let folder = (["", "Projects", "Elsewhere"] + folders).randomElement(using: &generator)!
        return (path, folder.isEmpty ? newName : folder + "/" + newName)
    }

    /// The index's graph equals `expected` (an unresolved link, or a heading link that reached no heading,
    /// may resolve when the plan said so).
    func checkGraph(_ store: IndexStore, vault: TemporaryVault, expected: GraphSnapshot, newlyResolved: Bool, context: String) throws {
        let graph = try GraphSnapshot(store, vault: vault.path)
        if newlyResolved {
            #expect(graph.edges.keys.sorted() == expected.edges.keys.sorted(), "\(context)")
            for (source, edges) in expected.edges {
                for (index, edge) in edges.enumerated() where edge.target != nil {
                    // A heading link that reached no heading may now reach one; its file stays.
                    if edge.headings == [] {
                        #expect(graph.edges[source]?[index].target == edge.target, "\(context): \(source) link \(index)")
                    } else {
                        #expect(graph.edges[source]?[index] == edge, "\(context): \(source) link \(index)")
                    }
                }
            }
        } else {
            #expect(graph == expected, "\(context):\n\(graph.differences(from: expected).prefix(8).joined(separator: "\n"))")
        }
    }

    /// Files neither rewritten nor moved keep every byte; moved ones keep theirs unless rewritten.
    func checkUntouched(_ vault: TemporaryVault, before: [String: Data], changed: Set<String>, moves: [MovePlan.Move], context: String) throws {
        let after = try diskFiles(vault)
        for (path, data) in before {
            // A move of a folder (rm lists folders) moves what is under it.
            let move = moves.first { $0.from == path || path.hasPrefix($0.from + "/") }
            let now = move.map { $0.to + path.dropFirst($0.from.count) } ?? path
            if changed.contains(now) || now.hasPrefix(".") { continue }  // rewritten, or in the trash
            #expect(after[now] == data, "\(context): \(path) changed although the plan did not rewrite it")
        }
    }

    func diskFiles(_ vault: TemporaryVault) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: vault.path)
        while let relative = enumerator?.nextObject() as? String {
            guard !relative.hasPrefix(".") else { continue }
            var isFolder: ObjCBool = false
            let path = vault.url(relative).path
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
                files[UnicodeNormalization.nfc(relative)] = FileManager.default.contents(atPath: path)
            }
        }
        return files
    }
}
