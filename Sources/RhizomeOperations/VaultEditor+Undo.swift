import RhizomeCore

/// `rhizome undo` and `rhizome history`.
extension VaultEditor {
    /// Recorded changes, newest first.
    public func history(limit: Int = 20) -> [VaultOperation] { journal.history(limit: limit) }

    /// Plans reversing the newest change that is not undone yet. Throws `.undoBlocked` naming the first
    /// file that changed since, and `.nothingToUndo`.
    public func planUndo() throws(EditError) -> UndoPlan {
        guard let original = journal.newest(where: { $0.state == .applied && $0.kind != "undo" }) else { throw .nothingToUndo }
        var steps: [VaultOperation.Step] = []
        var trashNames = Set<String>()
        for step in original.steps.reversed() {
            // A created file is not deleted: it goes to the trash, where Obsidian's deleted files go.
            if case .write(let path, nil, let after) = step {
                if case .success(let bytes) = FileReader.read(DiskPath(vaultPath + "/" + path), maxBytes: Int64(after.size) + 1),
                   VaultOperation.FileState(bytes: bytes) == after {
                    steps.append(.move(from: path, to: freeTrashPath(for: String(VaultPath.fileName(of: path)), taken: &trashNames)))
                    continue
                }
                throw .undoBlocked(operation: original.summary, path: path, reason: "was changed or moved")
            }
            guard let reverse = step.reversed else { continue }
            switch journal.status(of: reverse) {
            case .notDone: break
            case .done, .conflict:
                switch step {
                case .move(let from, let to):
                    let reason = FileSystemEntry.at(vaultPath + "/" + to) == .missing ? "was moved or deleted" : "no longer has its old place free (\(from) exists)"
                    throw .undoBlocked(operation: original.summary, path: to, reason: reason)
                case .write(let path, _, _):
                    throw .undoBlocked(operation: original.summary, path: path, reason: "was changed")
                }
            }
            steps.append(reverse)
        }
        for (path, state) in original.result.sorted(by: { $0.key < $1.key }) {
            if case .success(let bytes) = FileReader.read(DiskPath(vaultPath + "/" + path), maxBytes: Int64(state.size) + 1),
               VaultOperation.FileState(bytes: bytes) == state { continue }
            throw .undoBlocked(operation: original.summary, path: path, reason: "was changed")
        }
        let operation = VaultOperation(kind: "undo", summary: "undo " + original.summary, steps: steps, result: [:], undoes: original.id)
        return UndoPlan(original: original, operation: operation)
    }

    @discardableResult
    public func apply(_ plan: UndoPlan) throws -> VaultOperation {
        let applied = try journal.apply(plan.operation, contents: [])
        try reindex(after: applied)
        return applied
    }
}
