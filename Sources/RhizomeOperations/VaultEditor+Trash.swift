import Foundation
import RhizomeCore
import RhizomeStore

/// `rhizome rm`: files and folders go to the vault's `.trash/` folder, as Obsidian's "Move to Obsidian
/// trash" does, never deleted.
extension VaultEditor {
    /// Plans moving `arguments` (notes, file or folder paths) to `.trash/`. `allowLocalTrash`: go ahead
    /// although the vault's settings send deleted files to the system trash or delete them for good.
    public func planTrash(_ arguments: [String], allowLocalTrash: Bool = false) throws(EditError) -> TrashPlan {
        if let option = settings.trashOption, option != .local, !allowLocalTrash { throw .trashNotLocal(option: option.rawValue) }
        if case .file = FileSystemEntry.at(vaultPath + "/.trash") {
            throw .protectedPath(path: ".trash", reason: "it is a file, not the trash folder Obsidian uses; rename or remove it first")
        }
        let files = try walk()
        var sources: [(path: String, isFolder: Bool)] = []
        for argument in arguments {
            let path = try resolveSource(argument, files: files)
            let isFolder = files.folders.contains(path) || FileSystemEntry.at(vaultPath + "/" + path) == .directory
            if !sources.contains(where: { $0.path == path }) { sources.append((path, isFolder)) }
        }
        let allPaths = try storeCall { try store.filePaths() }
        var trashed = Set<String>()
        for source in sources {
            try checkSourceStaysInVault(source.path, isFolder: source.isFolder)
            if source.isFolder {
                trashed.formUnion(allPaths.filter { $0.hasPrefix(source.path + "/") })
            } else {
                try checkMovable(source.path, files: files)
                trashed.insert(source.path)
            }
        }
        for path in trashed.sorted() { try checkMovable(path, files: files) }

        var steps: [VaultOperation.Step] = []
        var moves: [MovePlan.Move] = []
        var taken = Set<String>()
        var result: [String: VaultOperation.FileState] = [:]
        for source in sources {
            let from = source.isFolder ? files.relativeDiskPath(ofFolder: source.path) : (files.relativeDiskPath(of: source.path) ?? source.path)
            let to = freeTrashPath(for: String(VaultPath.fileName(of: source.path)), taken: &taken)
            try checkStaysInVault(to)
            steps.append(.move(from: from, to: to))
            moves.append(MovePlan.Move(from: source.path, to: to))
            if !source.isFolder, let disk = files.diskPath(of: source.path), case .success(let bytes) = FileReader.read(DiskPath(disk), maxBytes: 16 << 20) {
                result[to] = VaultOperation.FileState(bytes: bytes)
            }
        }
        // Links from the rest of the vault to the trashed files: unresolved after, or taken by a file of the same name.
        let remaining = LinkResolver(files: allPaths.filter { !trashed.contains($0) }.enumerated().map { (path: $0.element, id: $0.offset) })
        let backlinks = try storeCall { try store.backlinks(toPaths: trashed.sorted()) }
        let broken = backlinks.filter { !trashed.contains($0.source) }.map { link in
            let markdown = link.kind == "markdown" || link.kind == "markdown-embed"
            let now = remaining.resolve(linkPath: link.linkPath, relativeFirst: markdown, from: link.source)?.path
            return TrashPlan.BrokenLink(source: link.source, line: link.line, column: link.column, linkPath: link.linkPath, target: now ?? "")
        }
        let count = trashed.count
        let summary = "rm " + sources.map { $0.path + ($0.isFolder ? "/" : "") }.joined(separator: " ")
            + " (\(count) file\(count == 1 ? "" : "s") to .trash/, \(broken.count) link\(broken.count == 1 ? "" : "s") left without a target)"
        let createdFolders = FileSystemEntry.at(vaultPath + "/.trash") == .missing ? [".trash"] : []
        return TrashPlan(moves: moves, brokenLinks: broken, operation: VaultOperation(kind: "rm", summary: summary, steps: steps, result: result, createdFolders: createdFolders))
    }

    @discardableResult
    public func apply(_ plan: TrashPlan) throws -> VaultOperation {
        let applied = try journal.apply(plan.operation, contents: [])
        try reindex(after: applied)
        return applied
    }

    /// `.trash/Name.md`, or `.trash/Name 1.md`, `Name 2.md` … when taken (in the trash or by this plan).
    func freeTrashPath(for name: String, taken: inout Set<String>) -> String {
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        let stem = dot.map { String(name[..<$0]) } ?? name
        let suffix = dot.map { String(name[$0...]) } ?? ""
        var number = 0
        while true {
            let candidate = ".trash/" + (number == 0 ? name : "\(stem) \(number)\(suffix)")
            if !taken.contains(candidate), FileSystemEntry.at(vaultPath + "/" + candidate) == .missing {
                taken.insert(candidate)
                return candidate
            }
            number += 1
        }
    }
}
