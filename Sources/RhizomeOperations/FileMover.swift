import Foundation
import RhizomeCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Renames a file or folder without ever replacing what is at the destination.
///
/// A file gets a second name (link(2), which fails if the name exists) and then loses its first; a folder
/// is renamed onto a new empty folder made for it (mkdir(2) fails if the name exists; rename(2) replaces only
/// an empty folder). A run killed in between leaves both names of one file, or an empty destination folder:
/// `OperationJournal` recognizes both and completes the move.
enum FileMover {
    static func move(_ source: String, to destination: String, displayPath: String) throws(EditError) {
        var status = stat()
        guard lstat(source, &status) == 0 else { throw .changedSincePlanned(path: displayPath) }
        try makeFolders(VaultPathOnDisk.folder(of: destination), displayPath: displayPath)
        if status.st_mode & S_IFMT == S_IFDIR {
            if mkdir(destination, 0o755) != 0 {
                if errno == EEXIST { throw .destinationExists(path: displayPath) }
                throw .io(path: displayPath, operation: "create the folder", reason: lastError())
            }
            CrashPoint.hit()
            guard rename(source, destination) == 0 else {
                let reason = lastError()
                rmdir(destination)
                throw .io(path: displayPath, operation: "move the folder to", reason: reason)
            }
        } else if link(source, destination) == 0 {
            CrashPoint.hit()
            guard unlink(source) == 0 else { throw .io(path: displayPath, operation: "remove the old name of", reason: lastError()) }
        } else {
            let linkError = errno
            if linkError == EEXIST { throw .destinationExists(path: displayPath) }
            // A file system without hard links: check, then rename (the check and the rename are not one step).
            guard [EPERM, ENOTSUP, EOPNOTSUPP, EMLINK, EXDEV].contains(linkError) else {
                throw .io(path: displayPath, operation: "move the file to", reason: String(cString: strerror(linkError)))
            }
            var existing = stat()
            if lstat(destination, &existing) == 0 { throw .destinationExists(path: displayPath) }
            guard rename(source, destination) == 0 else { throw .io(path: displayPath, operation: "move the file to", reason: lastError()) }
        }
        syncFolder(VaultPathOnDisk.folder(of: destination))
        syncFolder(VaultPathOnDisk.folder(of: source))
    }

    /// `mkdir -p`.
    /// The deepest of `path`'s folders that exists, inside `root` or `root` itself (absolute paths), and
    /// where it really is (nil: a symlink that leads nowhere). Whether a new path stays in the vault is
    /// decided here, before any folder is made: making `ext/new/` with `ext` a symlink to elsewhere would
    /// already write outside.
    static func deepestExistingFolder(of path: String, root: String) -> (folder: String, realPath: String?) {
        var folder = VaultPathOnDisk.folder(of: path)
        while folder.count > root.count, FileSystemEntry.at(folder) == .missing { folder = VaultPathOnDisk.folder(of: folder) }
        return (folder, FileSystemEntry.realPath(folder))
    }

    static func makeFolders(_ path: String, displayPath: String) throws(EditError) {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw .io(path: displayPath, operation: "create the folders of", reason: (error as NSError).localizedDescription)
        }
    }

    static func syncFolder(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}

/// Absolute disk paths: their folder.
enum VaultPathOnDisk {
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
