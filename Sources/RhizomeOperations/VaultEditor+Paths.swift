import Foundation
import RhizomeCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turning path arguments into vault paths, and what Rhizome refuses to move or rewrite.
extension VaultEditor {
    /// A vault-relative path (NFC, no leading or trailing `/`) from a path argument: relative to the vault,
    /// or absolute inside it. `..` and paths outside the vault are refused.
    func vaultRelative(_ argument: String) throws(EditError) -> String {
        var path = UnicodeNormalization.nfc(argument.trimmingSpaces)
        if path.hasPrefix("/") {
            let root = URL(fileURLWithPath: vaultPath).standardizedFileURL.path
            guard path == root || path.hasPrefix(root + "/") else { throw .outsideVault(path: argument) }
            path = String(path.dropFirst(root.count))
        }
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        if parts.contains("..") { throw .outsideVault(path: argument) }
        return parts.joined(separator: "/")
    }

    /// Refuses paths in hidden folders: Obsidian's settings, its trash, anything else it does not see.
    func checkVisible(_ path: String, asDestination: Bool) throws(EditError) {
        guard let hidden = path.split(separator: "/").first(where: { $0.hasPrefix(".") }) else { return }
        switch hidden {
        case ".obsidian":
            throw .protectedPath(path: path, reason: "that is Obsidian's own settings folder; Rhizome never moves files into or out of it")
        case ".trash" where asDestination:
            throw .protectedPath(path: path, reason: "that is the vault's trash; use `rhizome rm` to delete a file")
        default:
            throw .protectedPath(path: path, reason: "files and folders whose name starts with `.` are not part of the vault (Obsidian does not see them)")
        }
    }

    func resolveSource(_ argument: String, files: VaultFiles) throws(EditError) -> String {
        let path = try vaultRelative(argument)
        guard !path.isEmpty else { throw .protectedPath(path: argument, reason: "that is the vault itself, which Rhizome does not move") }
        try checkVisible(path, asDestination: false)
        if files.diskPath(of: path) != nil || files.folders.contains(path) { return path }
        // A folder with no vault file, or a symlink the walk did not follow (its target seen already).
        switch FileSystemEntry.at(vaultPath + "/" + path) {
        case .directory, .symlink: return path
        default: break
        }
        if let note = try storeCall({ try store.resolveNote(argument) }) { return note.path }
        throw .sourceNotFound(argument: argument, suggestions: (try? store.suggestions(for: argument)) ?? [])
    }

    func resolveDestination(_ argument: String, source: String, isFolder: Bool, files: VaultFiles) throws(EditError) -> String {
        var path = try vaultRelative(argument)
        let name = String(VaultPath.fileName(of: source))
        let intoFolder = path.isEmpty || argument.trimmingSpaces.hasSuffix("/") || files.folders.contains(path)
            || FileSystemEntry.at(vaultPath + "/" + path) == .directory
        if intoFolder {
            path = path.isEmpty ? name : path + "/" + name
        } else if !isFolder, VaultFileKind(path: source) == .note, VaultFileKind(path: path) != .note {
            path += ".md"  // `mv "Old name" "New name"`: a note stays a note
        }
        try checkVisible(path, asDestination: true)
        for part in path.split(separator: "/") { try checkName(String(part), path: path) }
        try checkStaysInVault(path)
        var status = stat(), sourceStatus = stat()
        // Also a name that differs only in Unicode form (`Café` in NFD, as macOS writes it): Obsidian takes
        // both for one note. But a new name that differs only in letter case finds the source itself on a
        // file system that ignores case (macOS): that is a rename, not a clash.
        let sourceDisk = files.diskPath(of: source) ?? vaultPath + "/" + files.relativeDiskPath(ofFolder: source)
        if lstat(vaultPath + "/" + path, &status) == 0, lstat(sourceDisk, &sourceStatus) == 0,
           status.st_dev == sourceStatus.st_dev, status.st_ino == sourceStatus.st_ino, path != source {
            return path
        }
        if lstat(vaultPath + "/" + path, &status) == 0 || files.diskPath(of: path) != nil || files.folders.contains(path) {
            throw .destinationExists(path: path)
        }
        return path
    }

    /// Refuses a path to be written whose folders lead out of the vault through a symlink: the deepest of
    /// its folders that exists must really be inside the vault (`ext/Note.md` with `ext` a symlink to a
    /// folder elsewhere would write outside).
    func checkStaysInVault(_ path: String) throws(EditError) {
        let (existing, realPath) = FileMover.deepestExistingFolder(of: vaultPath + "/" + path, root: vaultPath)
        guard existing.count > vaultPath.count else { return }
        let folder = String(existing.dropFirst(vaultPath.count + 1))
        let root = FileSystemEntry.realPath(vaultPath) ?? vaultPath
        guard let real = realPath else {
            throw .protectedPath(path: path, reason: "its folder \(folder) is a symlink that leads nowhere; fix or remove the link first")
        }
        if !FileSystemEntry.lies(real, inside: root) {
            throw .protectedPath(path: path, reason: "its folder \(folder) is a symlink to \(real), outside the vault, and Rhizome only writes inside the vault; choose a folder in the vault")
        }
    }

    /// Refuses moving a file whose folder leads outside the vault, a symlink (to a file or a folder) that
    /// does, and a folder holding one or a relative one the move would break: Rhizome moves only what is in
    /// the vault.
    func checkSourceStaysInVault(_ path: String, isFolder: Bool) throws(EditError) {
        let root = FileSystemEntry.realPath(vaultPath) ?? vaultPath
        func inside(_ real: String) -> Bool { FileSystemEntry.lies(real, inside: root) }
        let disk = vaultPath + "/" + path
        // A file reached through a folder symlinked to elsewhere is not the vault's to move away.
        let parent = VaultPath.folder(of: path)
        if !parent.isEmpty, let real = FileSystemEntry.realPath(vaultPath + "/" + parent), !inside(real) {
            throw .refused(path: path, reason: "it is in \(parent), a symlink to \(real) outside the vault; Rhizome only moves files that are in the vault")
        }
        if case .symlink(let target, _) = FileSystemEntry.at(disk) {
            let real = FileSystemEntry.resolvedTarget(of: disk, target: target)
            if !inside(real) {
                throw .refused(path: path, reason: "it is a symlink to \(real), outside the vault; move the link by hand if you mean to")
            }
            return
        }
        guard isFolder else { return }
        var pending = [path]
        while let folder = pending.popLast() {
            for name in FileSystemEntry.names(in: vaultPath + "/" + folder) {
                let child = folder + "/" + name
                switch FileSystemEntry.at(vaultPath + "/" + child) {
                case .directory: pending.append(child)
                case .symlink(let target, _):
                    let real = FileSystemEntry.resolvedTarget(of: vaultPath + "/" + child, target: target)
                    if !inside(real) {
                        throw .refused(path: path, reason: "it holds \(child), a symlink to \(real) outside the vault; move or remove that link by hand first")
                    }
                    if !target.hasPrefix("/"), !real.hasPrefix((FileSystemEntry.realPath(vaultPath + "/" + path) ?? disk) + "/") {
                        throw .refused(path: path, reason: "it holds \(child), a symlink with a relative target (\(target)) that moving the folder would break")
                    }
                default: continue
                }
            }
        }
    }

    /// A name a link can reach and every file system takes.
    func checkName(_ name: String, path: String) throws(EditError) {
        // The whole path too: past PATH_MAX the system refuses it, after folders were made.
        if vaultPath.utf8.count + 1 + path.utf8.count >= Int(PATH_MAX) {
            throw .invalidName(path: String(path.prefix(80)) + "…", reason: "the path would be longer than the system allows (\(PATH_MAX) bytes with the vault's own)")
        }
        if name.utf8.count > 255 { throw .invalidName(path: path, reason: "a name may have at most 255 bytes") }
        if name == "." || name == ".." { throw .invalidName(path: path, reason: "`.` and `..` are not file names") }
        if let bad = name.unicodeScalars.first(where: { "#|^[]\\".unicodeScalars.contains($0) || $0.value < 0x20 || $0.value == 0x7F }) {
            let shown = bad.value < 0x20 || bad.value == 0x7F ? "a control character" : "`\(bad)`"
            throw .invalidName(path: path, reason: "it holds \(shown), which Obsidian does not allow in file names (links cannot reach such a file)")
        }
        if name.trimmingSpaces != name { throw .invalidName(path: path, reason: "it starts or ends with a space, which links trim away") }
    }

    /// Refuses files that must not move: symlinks leading outside the vault (or relative ones, which the
    /// move would break) and read-only files.
    func checkMovable(_ path: String, files: VaultFiles) throws(EditError) {
        guard let disk = files.diskPath(of: path) else { return }
        var status = stat()
        guard lstat(disk, &status) == 0 else { throw .changedSincePlanned(path: path) }
        if status.st_mode & S_IFMT == S_IFLNK {
            if let outside = files.targetOutsideVault(disk) {
                throw .refused(path: path, reason: "it is a symlink to \(outside), outside the vault; move the link by hand if you mean to")
            }
            if case .symlink(let target, _) = FileSystemEntry.at(disk), !target.hasPrefix("/") {
                throw .refused(path: path, reason: "it is a symlink with a relative target (\(target)), which moving it would break")
            }
        } else if status.st_mode & 0o222 == 0 {
            throw .refused(path: path, reason: "it is read-only; make it writable first if it should move")
        }
    }

    /// Refuses files whose text must not be rewritten (outside the vault through a symlink, read-only,
    /// hard-linked).
    /// `why`: what the change would do to the file, for the message.
    func checkRewritable(_ path: String, diskPath: String, files: VaultFiles, why: String = "its links must change") throws(EditError) {
        if let outside = files.targetOutsideVault(diskPath) {
            throw .refused(path: path, reason: "\(why), but it is a symlink to \(outside), outside the vault, which Rhizome does not rewrite")
        }
        do {
            try AtomicFileWriter.checkReplaceable(diskPath)
        } catch {
            switch error {
            case .refused(_, let reason): throw .refused(path: path, reason: "\(why), but \(reason)")
            default: throw .refused(path: path, reason: "\(why), but \(error.description)")
            }
        }
    }
}
