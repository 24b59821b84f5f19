import Foundation
import RhizomeCore

/// Where each vault file is on disk. Index paths are NFC; a file saved on macOS may be named in NFD, so
/// commands that rewrite or move files take the exact name from a fresh walk of the vault.
public struct VaultFiles: Sendable {
    private let diskPaths: [String: String]
    /// The disk paths of files the walk reached with no symlink on the way (most of them): inside the
    /// vault without asking the file system again.
    private let reachedDirectly: Set<String>
    /// Vault-relative folders (NFC) that hold at least one vault file.
    public let folders: Set<String>
    private let vaultRealPath: String
    public let vaultPath: String

    /// Walks the vault. `notesOnly`: only `.md` files (cheaper for commands that rewrite notes).
    public init(vaultPath: String, notesOnly: Bool = false) throws {
        self.vaultPath = vaultPath
        vaultRealPath = URL(fileURLWithPath: vaultPath).resolvingSymlinksInPath().path
        var paths: [String: String] = [:]
        var folders: Set<String> = []
        var direct: Set<String> = []
        for file in try VaultScanner(root: vaultPath).scan().files where !notesOnly || file.kind == .note {
            // A name that is not UTF-8 cannot be handed to the writer faithfully: such files are skipped.
            guard let disk = String(bytes: file.diskPath.bytes, encoding: .utf8) else { continue }
            paths[file.path] = disk
            if file.realPath == nil { direct.insert(disk) }
            var folder = VaultPath.folder(of: file.path)
            while !folder.isEmpty, folders.insert(folder).inserted { folder = VaultPath.folder(of: folder) }
        }
        diskPaths = paths
        reachedDirectly = direct
        self.folders = folders
    }

    /// The absolute path on disk of the file at vault-relative `path`, or nil when the walk did not find it.
    public func diskPath(of path: String) -> String? { diskPaths[path] }

    /// `diskPath(of:)` relative to the vault.
    public func relativeDiskPath(of path: String) -> String? {
        diskPaths[path].map { String($0.dropFirst(vaultPath.count + 1)) }
    }

    /// A folder's vault-relative path as spelled on disk (its name may be NFD), from a file under it; the
    /// path itself when no file is under it.
    public func relativeDiskPath(ofFolder folder: String) -> String {
        let depth = folder.split(separator: "/").count
        guard let file = diskPaths.keys.first(where: { $0.hasPrefix(folder + "/") }), let disk = relativeDiskPath(of: file) else { return folder }
        return disk.split(separator: "/", omittingEmptySubsequences: false).prefix(depth).joined(separator: "/")
    }

    /// The path of a note whose vault path equals `path` ignoring Unicode form and letter case, if any.
    public func existingNote(named path: String) -> String? {
        let wanted = UnicodeNormalization.nfc(path).lowercased()
        return diskPaths.first { $0.key.lowercased() == wanted && VaultFileKind(path: $0.key) == .note }?.value
    }

    /// Where a file really is when that is outside the vault (reached through a symlink, as linked
    /// Claude Code agents are); nil when it is inside.
    public func targetOutsideVault(_ diskPath: String) -> String? {
        // Resolving a path's symlinks asks the file system about each of its folders (1,000 notes whose
        // links a move rewrites: 25 ms). A file the walk reached with no symlinked folder on the way is
        // inside the vault if it is not a symlink itself, which one `lstat` tells.
        var status = stat()
        if reachedDirectly.contains(diskPath), lstat(diskPath, &status) == 0, status.st_mode & S_IFMT != S_IFLNK { return nil }
        let real = URL(fileURLWithPath: diskPath).resolvingSymlinksInPath().path
        return FileSystemEntry.lies(real, inside: vaultRealPath) ? nil : real
    }
}
