import Foundation
import RhizomeCore
import RhizomeStore

/// Changes a vault for people (the CLI) and agents (MCP) alike, keeping its link graph: each change is
/// planned first (nothing written), then applied through the journal (`OperationJournal`), and the index
/// is brought up to date in the same call.
///
///     let editor = try VaultEditor(vaultPath: vault, databasePath: database, store: store)
///     let plan = try editor.planMove("Inbox/Idea", to: "Projects/")
///     let applied = try editor.apply(plan)
public struct VaultEditor {
    public let vaultPath: String
    public let databasePath: String
    public let store: IndexStore
    public let settings: ObsidianSettings
    public let journal: OperationJournal
    /// Options for re-indexing after a change (the index's own files when it is kept in the vault).
    public var indexOptions: IndexOptions

    /// `store` must be current (the caller refreshed it). Completes or reverses a change that a killed run
    /// left half done before anything else.
    public init(vaultPath: String, databasePath: String, store: IndexStore, indexOptions: IndexOptions = IndexOptions()) throws {
        self.vaultPath = vaultPath
        self.databasePath = databasePath
        self.store = store
        self.indexOptions = indexOptions
        settings = ObsidianSettings.load(vaultRoot: vaultPath)
        journal = OperationJournal(vaultPath: vaultPath, databasePath: databasePath)
        try journal.recover()
    }

    // MARK: Move

    /// Plans moving `source` (a note name resolved like a wikilink, or a vault-relative file or folder
    /// path) to `destination` (a vault-relative path; an existing folder or a path ending in `/` means
    /// into that folder). Throws when the move is not allowed or would break a link, and (unless
    /// `resolvingLinks`) when it would make unresolved links reach the moved file.
    public func planMove(_ source: String, to destination: String, resolvingLinks: Bool = false) throws(EditError) -> MovePlan {
        var phases = PhaseTimer(label: "plan")
        defer { phases.finish() }
        let files = try walk()
        phases.mark("walk")
        let sourcePath = try resolveSource(source, files: files)
        let isFolder = files.folders.contains(sourcePath) || FileSystemEntry.at(vaultPath + "/" + sourcePath) == .directory
        try checkSourceStaysInVault(sourcePath, isFolder: isFolder)
        let destinationPath = try resolveDestination(destination, source: sourcePath, isFolder: isFolder, files: files)
        if isFolder, destinationPath.lowercased().hasPrefix(sourcePath.lowercased() + "/") || destinationPath == sourcePath {
            throw .intoItself(source: sourcePath, destination: destinationPath)
        }
        let allPaths = try storeCall { try store.filePaths() }
        var moves: [String: String] = [:]
        if isFolder {
            for path in allPaths where path.hasPrefix(sourcePath + "/") {
                moves[path] = destinationPath + String(path.dropFirst(sourcePath.count))
            }
        } else {
            moves[sourcePath] = destinationPath
        }
        for old in moves.keys.sorted() { try checkMovable(old, files: files) }

        phases.mark("paths")
        let planner = RelinkPlanner(filePaths: allPaths, moves: moves, format: settings.newLinkFormat)
        phases.mark("planner")
        var sourcePaths = Set(try storeCall { try store.linkSources(withLinkKeys: planner.affectedKeys) })
        phases.mark("link sources")
        sourcePaths.formUnion(moves.keys.filter { VaultFileKind(path: $0).isParsed })
        var sources: [RelinkPlanner.Source] = []
        for path in sourcePaths.sorted() {
            guard let disk = files.diskPath(of: path) else { continue }
            guard case .success(let bytes) = FileReader.read(DiskPath(disk), maxBytes: 64 << 20) else {
                throw .refused(path: path, reason: "it cannot be read, so its links cannot be checked")
            }
            sources.append(RelinkPlanner.Source(path: path, bytes: bytes))
        }
        phases.mark("read sources")
        let result = planner.plan(sources)
        phases.mark("relink")
        if !result.problems.isEmpty { throw .linksCannotBeKept(problems: result.problems) }
        if !resolvingLinks, !result.newlyResolved.isEmpty { throw .wouldResolveLinks(links: result.newlyResolved) }

        // The journal's steps, in paths as spelled on disk: the move, then the rewrites at the new paths.
        let relativeSource = isFolder ? files.relativeDiskPath(ofFolder: sourcePath) : (files.relativeDiskPath(of: sourcePath) ?? sourcePath)
        var steps: [VaultOperation.Step] = [.move(from: relativeSource, to: destinationPath)]
        var contents: [[UInt8]] = []
        var changes: [MovePlan.FileChange] = []
        var resultStates: [String: VaultOperation.FileState] = [:]
        for edit in result.fileEdits {
            guard let disk = files.diskPath(of: edit.oldPath) else { continue }
            try checkRewritable(edit.oldPath, diskPath: disk, files: files)
            // Where the file is on disk after the move: a folder's rename keeps its files' own spelling of
            // their names (an NFD name stays NFD); a moved file gets the name given.
            let relativeDisk = String(disk.dropFirst(vaultPath.count + 1))
            let newDisk: String
            if moves[edit.oldPath] == nil {
                newDisk = relativeDisk
            } else if isFolder, relativeDisk.hasPrefix(relativeSource + "/") {
                newDisk = destinationPath + relativeDisk.dropFirst(relativeSource.count)
            } else {
                newDisk = edit.newPath
            }
            steps.append(.write(path: newDisk, before: VaultOperation.FileState(bytes: edit.oldBytes), after: VaultOperation.FileState(bytes: edit.newBytes)))
            contents += [edit.oldBytes, edit.newBytes]
            resultStates[newDisk] = VaultOperation.FileState(bytes: edit.newBytes)
            changes.append(MovePlan.FileChange(path: edit.newPath, oldPath: edit.oldPath, edits: edit.edits, oldBytes: edit.oldBytes, newBytes: edit.newBytes))
        }
        let rewritten = Set(result.fileEdits.map(\.oldPath))
        for (old, new) in moves where !rewritten.contains(old) {
            if let bytes = sources.first(where: { $0.path == old })?.bytes {
                resultStates[new] = VaultOperation.FileState(bytes: bytes)
            } else if let disk = files.diskPath(of: old), case .success(let bytes) = FileReader.read(DiskPath(disk), maxBytes: 16 << 20) {
                resultStates[new] = VaultOperation.FileState(bytes: bytes)
            }
        }
        phases.mark("steps and states")
        let linkCount = changes.reduce(0) { $0 + $1.edits.count }
        let summary = "mv \(sourcePath)\(isFolder ? "/" : "") → \(destinationPath)\(isFolder ? "/" : "") (\(moves.count) file\(moves.count == 1 ? "" : "s"), \(linkCount) link\(linkCount == 1 ? "" : "s") in \(changes.count) file\(changes.count == 1 ? "" : "s"))"
        return MovePlan(
            source: sourcePath, destination: destinationPath, isFolder: isFolder,
            moves: moves.map { MovePlan.Move(from: $0.key, to: $0.value) }.sorted { $0.from < $1.from },
            changes: changes.sorted { $0.path < $1.path }, newlyResolved: result.newlyResolved,
            operation: VaultOperation(kind: "mv", summary: summary, steps: steps, result: resultStates, createdFolders: missingFolders(above: destinationPath)),
            contents: contents)
    }

    /// Applies a plan through the journal, then brings the index up to date. While the journal writes the
    /// files (on a thread of its own), the full text of the notes rewritten in place goes into the index
    /// ahead of them (`IndexStore.writeFullTextAhead`): for a note with 1,000 backlinks, 400 ms of
    /// re-indexing done while the vault is written rather than after.
    @discardableResult
    public func apply(_ plan: MovePlan) throws -> VaultOperation {
        var phases = PhaseTimer(label: "apply")
        defer { phases.finish() }
        let journal = journal, operation = plan.operation, contents = plan.contents
        let journaled = ThreadResult { try journal.apply(operation, contents: contents) }
        let rewrites = plan.changes.filter { $0.path == $0.oldPath }.map {
            IndexStore.PlannedRewrite(path: $0.path, before: $0.oldBytes, after: $0.newBytes)
        }
        // Not needed for the change to be right: when it fails, the re-index writes the full text itself.
        _ = try? store.writeFullTextAhead(of: rewrites, options: indexOptions)
        phases.mark("full text ahead")
        let applied: VaultOperation
        do {
            applied = try journaled.wait()
        } catch {
            // The journal reversed what it did: the notes written ahead are read again as they are.
            try? reindex(operation)
            throw error
        }
        phases.mark("journal (waiting)")
        try reindex(after: applied)
        phases.mark("re-index")
        return applied
    }

    /// Re-indexes after a change that is done: a failure says so (the change stands, journaled and
    /// undoable; only the index is behind).
    func reindex(after applied: VaultOperation) throws {
        do {
            try reindex(applied)
        } catch let error as any RhizomeError {
            throw error.inContext("updating the index after `\(applied.summary)` (the change itself is done and can be undone; `rhizome index` brings the index up to date)")
        }
    }

    /// Re-indexes after a change: the paths its steps touched, as a watcher reports changes (the
    /// indexer walks the vault itself when a folder moved).
    public func reindex(_ operation: VaultOperation) throws {
        var paths: [[UInt8]] = []
        for step in operation.steps {
            switch step {
            case .move(let from, let to): paths += [Array(from.utf8), Array(to.utf8)]
            case .write(let path, _, _): paths.append(Array(path.utf8))
            }
        }
        _ = try Indexer(store: store, vaultRoot: vaultPath, options: indexOptions).update(changedPaths: paths)
    }

    // MARK: Helpers

    /// The folders on the way to `path` that do not exist yet, parents first.
    func missingFolders(above path: String) -> [String] { Self.missingFolders(above: path, vaultPath: vaultPath) }

    /// The folders above `path` (vault-relative) that do not exist yet, outermost first.
    static func missingFolders(above path: String, vaultPath: String) -> [String] {
        var missing: [String] = []
        var folder = VaultPath.folder(of: path)
        while !folder.isEmpty, FileSystemEntry.at(vaultPath + "/" + folder) == .missing {
            missing.insert(folder, at: 0)
            folder = VaultPath.folder(of: folder)
        }
        return missing
    }

    func walk() throws(EditError) -> VaultFiles {
        do {
            return try VaultFiles(vaultPath: vaultPath)
        } catch {
            throw .io(path: vaultPath, operation: "list the files of", reason: "\(error)")
        }
    }

    func storeCall<Result>(_ body: () throws -> Result) throws(EditError) -> Result {
        do {
            return try body()
        } catch {
            throw .io(path: databasePath, operation: "read the index", reason: "\(error)")
        }
    }
}

/// Runs `body` on a thread of its own (not the concurrency pool's, nor a global queue's); `wait()`
/// returns what it returned or throws what it threw.
private struct ThreadResult<Value: Sendable>: Sendable {
    private let pending = PendingResult<Value>()

    init(_ body: @escaping @Sendable () throws -> Value) {
        Thread.detachNewThread { [pending] in pending.fulfill(Result { try body() }) }
    }

    func wait() throws -> Value { try pending.wait() }
}
