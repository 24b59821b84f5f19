import RhizomeCore
import RhizomeStore

/// `rhizome rename-heading`: a heading renamed in its note, and every link to it with it.
extension VaultEditor {
    /// Plans renaming the heading `old` of `note` to `new`, and the subpath of every link to it (from any
    /// note, canvas, or the note itself). A plan like a move: a diff per file, applied through the journal.
    public func planRenameHeading(_ old: String, to new: String, in note: String) throws -> MovePlan {
        let (path, _, bytes) = try readNote(note, expectedHash: nil)
        let headings = NoteParser.parse(bytes, path: path, includeBodyText: false).headings
        guard let index = Self.headingIndex(old, in: headings) else {
            throw EditError.headingNotFound(path: path, heading: old, headings: headings.map(\.text))
        }
        let oldText = headings[index].text
        // The graph is kept: a link in the heading's text would leave it with the old text.
        if !MarkdownScanner.scan(oldText).links.isEmpty {
            throw EditError.refused(path: path, reason: "the heading `\(oldText)` holds a link, which renaming it would take out of the graph; edit that heading by hand")
        }
        let newText = new.trimmingSpaces
        guard !newText.isEmpty, !newText.contains(where: \.isNewline), !newText.contains("#"), !newText.contains("|"), !newText.contains("[["), !newText.contains("]]") else {
            throw EditError.invalidName(path: newText, reason: "a heading that links reach holds no `#`, `|`, `[[`, `]]` or line break, and is not empty")
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
        let planner = HeadingRenamePlanner(filePaths: try storeCall { try store.filePaths() }, notePath: path, oldHeading: oldText, newHeading: newText)
        let result = planner.plan(sources)
        if !result.problems.isEmpty { throw EditError.linksCannotBeKept(problems: result.problems) }
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
            source: path + "#" + oldText, destination: path + "#" + newText, isFolder: false, moves: [], changes: changes, newlyResolved: [],
            operation: VaultOperation(kind: "rename-heading", summary: summary, steps: steps, result: states), contents: contents)
    }
}
