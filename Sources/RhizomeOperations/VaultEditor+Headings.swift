import RhizomeCore
import RhizomeStore

/// `rhizome rename-heading`: a heading renamed in its note, and every link to it with it.
extension VaultEditor {
    /// Plans renaming the heading `old` of `note` to `new`, and the subpath of every link to it (from any
    /// note, canvas, or the note itself). A plan like a move: a diff per file, applied through the journal.
    /// Unless `resolvingLinks`, refuses when a heading link that reaches no heading would reach the renamed one.
    public func planRenameHeading(_ old: String, to new: String, in note: String, resolvingLinks: Bool = false) throws -> MovePlan {
        let (path, _, bytes) = try readNote(note, expectedHash: nil)
        let headings = NoteParser.parse(bytes, path: path, includeBodyText: false).headings
        // `B#Dup`: a heading path, read as a link's subpath is (the `Dup` after `B`).
        let headingPath = HeadingRenamePlanner.parts(of: String(old.trimmingSpaces.drop(while: { $0 == "#" })))
        guard let index = Self.headingIndex(old, in: headings) ?? HeadingRenamePlanner.resolve(headingPath, in: headings.map(\.text))?.last else {
            throw EditError.headingNotFound(path: path, heading: old, headings: headings.map(\.text))
        }
        let oldText = headings[index].text
        // The graph is kept: a link in the heading's text would leave it with the old text.
        if !MarkdownScanner.scan(oldText).links.isEmpty {
            throw EditError.refused(path: path, reason: "the heading `\(oldText)` holds a link, which renaming it would take out of the graph; edit that heading by hand")
        }
        let newText = new.trimmingSpaces
        guard !newText.isEmpty, !newText.contains(where: \.isNewline), !newText.contains("#"), !newText.contains("|"), !newText.contains("[["), !newText.contains("]]") else {
            throw EditError.invalidHeading(path: path, heading: new, reason: "a heading that links reach holds no `#`, `|`, `[[`, `]]` or line break, and is not empty")
        }
        let files = try walk()
        var sourcePaths = Set(try storeCall { try store.backlinks(toPaths: [path]) }.map(\.source))
        sourcePaths.insert(path)
        var sources: [RelinkPlanner.Source] = []
        for source in sourcePaths.sorted() {
            guard let disk = files.diskPath(of: source), case .success(let sourceBytes) = FileReader.read(DiskPath(disk), maxBytes: 64 << 20) else {
                throw EditError.refused(path: source, reason: "it cannot be read, so its links cannot be checked")
            }
            sources.append(RelinkPlanner.Source(path: source, bytes: sourceBytes))
        }
        let planner = HeadingRenamePlanner(filePaths: try storeCall { try store.filePaths() }, notePath: path, headings: headings.map(\.text), index: index, newHeading: newText)
        let result = planner.plan(sources)
        if !result.problems.isEmpty {
            // The new name is another heading's: links to that one (or through it) would change their heading.
            let others = headings.indices.filter { $0 != index && headings[$0].text.lowercased() == newText.lowercased() }
            if !others.isEmpty {
                let listed = result.problems.prefix(5).map { "\($0.path)\($0.line.map { ":\($0)" } ?? "")" }.joined(separator: ", ")
                throw EditError.invalidHeading(path: path, heading: newText, reason: "the note already has a heading `\(headings[others[0]].text)`, and links to its headings (\(listed)) would then reach a different one; choose a name no other heading of the note has")
            }
            throw EditError.linksCannotBeKept(problems: result.problems)
        }
        if !resolvingLinks, !result.newlyResolved.isEmpty { throw EditError.wouldResolveLinks(links: result.newlyResolved) }
        var steps: [VaultOperation.Step] = []
        var contents: [[UInt8]] = []
        var changes: [MovePlan.FileChange] = []
        var states: [String: VaultOperation.FileState] = [:]
        for edit in result.fileEdits {
            guard let disk = files.diskPath(of: edit.oldPath) else { continue }
            try checkRewritable(edit.oldPath, diskPath: disk, files: files)
            let relative = String(disk.dropFirst(vaultPath.count + 1))
            let after = VaultOperation.FileState(bytes: edit.newBytes)
            steps.append(.write(path: relative, before: VaultOperation.FileState(bytes: edit.oldBytes), after: after))
            states[relative] = after
            contents += [edit.oldBytes, edit.newBytes]
            changes.append(MovePlan.FileChange(path: edit.newPath, oldPath: edit.oldPath, edits: edit.edits, oldBytes: edit.oldBytes, newBytes: edit.newBytes))
        }
        let links = changes.reduce(0) { $0 + $1.edits.count }
        let summary = "rename-heading \(path)#\(oldText) → \(newText) (\(links) link\(links == 1 ? "" : "s") in \(changes.count) file\(changes.count == 1 ? "" : "s"))"
        return MovePlan(
            source: path + "#" + oldText, destination: path + "#" + newText, isFolder: false, moves: [], changes: changes, newlyResolved: result.newlyResolved,
            operation: VaultOperation(kind: "rename-heading", summary: summary, steps: steps, result: states), contents: contents)
    }
}
