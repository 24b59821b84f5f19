#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What is at a path, without following a final symlink: the facts every link decision rests on.
public enum FileSystemEntry: Sendable, Equatable {
    case missing
    /// A symlink, with its target as written and whether that target exists.
    case symlink(target: String, resolves: Bool)
    case file
    case directory

    public static func at(_ path: String) -> FileSystemEntry {
        var status = stat()
        guard lstat(path, &status) == 0 else { return .missing }
        switch status.st_mode & S_IFMT {
        case S_IFLNK:
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(path, &buffer, buffer.count - 1)
            let target = count >= 0 ? String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
            var targetStatus = stat()
            return .symlink(target: target, resolves: stat(path, &targetStatus) == 0)
        case S_IFDIR:
            return .directory
        default:
            return .file
        }
    }

    /// Names in a folder (not `.`/`..`), sorted; empty when it cannot be read.
    public static func names(in folder: String) -> [String] {
        (try? readNames(in: folder)) ?? []
    }

    /// Names in a folder (not `.`/`..`), sorted; throws the system's reason when it cannot be read.
    static func readNames(in folder: String) throws(FileSystemError) -> [String] {
        guard let directory = opendir(folder) else { throw FileSystemError(reason: lastError) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// Visible names in a folder (not starting with `.`), sorted.
    public static func namesOfEntries(in folder: String) -> [String] {
        names(in: folder).filter { !$0.hasPrefix(".") }
    }

    /// A real folder (not a symlink to one): the only kind the layout writes into.
    static func isRealDirectory(_ path: String) -> Bool { at(path) == .directory }

    /// The path with every symlink resolved, or nil when it does not exist.
    public static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether a real path (symlinks resolved) is `root` or under it: the one test of "inside the vault".
    public static func lies(_ realPath: String, inside root: String) -> Bool {
        realPath == root || realPath.hasPrefix(root + "/")
    }

    /// Where a symlink at `linkPath` written as `target` points, as an absolute path, real when it exists.
    public static func resolvedTarget(of linkPath: String, target: String) -> String {
        var absolute = target
        if !target.hasPrefix("/") {
            let parent = linkPath.lastIndex(of: "/").map { String(linkPath[..<$0]) } ?? "."
            absolute = parent + "/" + target
        }
        return realPath(absolute) ?? absolute
    }

    static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    /// Creates `path` and its missing parents (0755). Throws the folder that could not be made and the
    /// system's reason (taken right after the failing `mkdir`, before anything can change `errno`).
    static func makeFolders(_ path: String) throws(FileSystemError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            prefix += "/" + part
            if mkdir(prefix, 0o755) != 0, errno != EEXIST { throw FileSystemError(path: prefix, reason: lastError) }
        }
        guard isDirectory(path) else { throw FileSystemError(path: path, reason: "something other than a folder is there") }
    }

    static var lastError: String { String(cString: strerror(errno)) }
}

/// A failed system call on a path, with the system's reason.
struct FileSystemError: Error {
    var path = ""
    var reason: String
}
