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

    /// Vault-relative paths of the index's own files when it is kept inside the vault: the database, its
    /// `-wal`, `-shm` and `-journal`, the write and watch locks, and the journal folder of vault changes.
    /// None of them is ever a file of the vault (not in a walk, not to a watcher, not in `status`). The vault
    /// and the index may be named through different symlinks (`/tmp` and `/private/tmp` on macOS): both are
    /// compared as given, then as real paths.
    public static func excludedPaths(databasePath: String, vaultPath: String) -> Set<String> {
        guard let relative = relativePath(of: databasePath, inVault: vaultPath) else { return [] }
        let name = String(VaultPath.fileName(of: relative))
        let folder = String(relative.dropLast(name.count))
        return [
            relative, relative + "-wal", relative + "-shm", relative + "-journal", relative + ".lock", relative + ".watch.lock",
            folder + "." + name + ".operations",
        ]
    }

    /// The database's path relative to the vault (NFC, as the walk names files), nil when it lies outside.
    private static func relativePath(of databasePath: String, inVault vaultPath: String) -> String? {
        let vault = URL(fileURLWithPath: vaultPath).standardizedFileURL.path + "/"
        let database = URL(fileURLWithPath: databasePath).standardizedFileURL.path
        if database.hasPrefix(vault) { return UnicodeNormalization.nfc(String(database.dropFirst(vault.count))) }
        // The database file may not exist yet; its folder does once the index is opened.
        let databaseURL = URL(fileURLWithPath: database)
        let realVault = URL(fileURLWithPath: vaultPath).resolvingSymlinksInPath().path + "/"
        let realDatabase = databaseURL.deletingLastPathComponent().resolvingSymlinksInPath().path + "/" + databaseURL.lastPathComponent
        guard realDatabase.hasPrefix(realVault) else { return nil }
        return UnicodeNormalization.nfc(String(realDatabase.dropFirst(realVault.count)))
    }
}
