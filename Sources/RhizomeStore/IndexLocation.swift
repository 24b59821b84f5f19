import Foundation
import RhizomeCore

/// Where a vault's index lives by default: a per-vault folder in the user's cache directory, outside the
/// vault, because sync tools (iCloud, Dropbox, Obsidian Sync, git) corrupt or conflict on live SQLite files.
public enum IndexLocation {
    /// `$XDG_CACHE_HOME` or `~/.cache` on Linux, `~/Library/Caches` on macOS, then
    /// `rhizome/<vault name>-<hash of the vault path>/index.sqlite`.
    public static func defaultDatabasePath(forVault vaultPath: String, environment: [String: String]) -> String {
        let home = environment["HOME"] ?? NSHomeDirectory()
        #if os(macOS)
        let cacheRoot = home + "/Library/Caches"
        #else
        let cacheRoot = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.cache"
        #endif
        let realPath = URL(fileURLWithPath: vaultPath).resolvingSymlinksInPath().path
        let name = String(VaultPath.fileName(of: realPath)).unicodeScalars.map { scalar -> String in
            let isSafe = (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || (scalar >= "0" && scalar <= "9") || scalar == "-" || scalar == "_"
            return isSafe ? String(scalar) : "_"
        }.joined()
        let hash = String(ContentHash.hex(of: Array(realPath.utf8)).prefix(12))
        return "\(cacheRoot)/rhizome/\(name.isEmpty ? "vault" : name)-\(hash)/index.sqlite"
    }

    /// Vault-relative paths of the database and its WAL files when the index is kept inside the vault.
    public static func excludedPaths(databasePath: String, vaultPath: String) -> Set<String> {
        let vault = URL(fileURLWithPath: vaultPath).standardizedFileURL.path + "/"
        let database = URL(fileURLWithPath: databasePath).standardizedFileURL.path
        guard database.hasPrefix(vault) else { return [] }
        let relative = String(database.dropFirst(vault.count))
        return [relative, relative + "-wal", relative + "-shm", relative + "-journal", relative + ".lock", relative + ".watch.lock"]
    }
}
