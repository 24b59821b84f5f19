import Foundation
import RhizomeCore

/// Where each note is on disk. Index paths are NFC; a file saved on macOS may be named in NFD, so
/// commands that rewrite notes take the exact name from a fresh walk of the vault.
struct NoteFiles {
    private let diskPaths: [String: String]
    private let vaultRealPath: String

    init(vaultPath: String) throws {
        vaultRealPath = URL(fileURLWithPath: vaultPath).resolvingSymlinksInPath().path
        var paths: [String: String] = [:]
        for file in try VaultScanner(root: vaultPath).scan().files where file.kind == .note {
            // A name that is not UTF-8 cannot be handed to the writer faithfully: such notes are skipped.
            if let disk = String(bytes: file.diskPath.bytes, encoding: .utf8) { paths[file.path] = disk }
        }
        diskPaths = paths
    }

    /// The absolute path on disk of the note at vault-relative `path`, or nil when the walk did not find it.
    func diskPath(of path: String) -> String? { diskPaths[path] }

    /// The path of a note whose vault path equals `path` ignoring Unicode form and letter case, if any.
    func existingNote(named path: String) -> String? {
        let wanted = UnicodeNormalization.nfc(path).lowercased()
        return diskPaths.first { $0.key.lowercased() == wanted }?.value
    }

    /// Where a note's file really is when that is outside the vault (reached through a symlink, as linked
    /// Claude Code agents are); nil when it is inside.
    func targetOutsideVault(_ diskPath: String) -> String? {
        let real = URL(fileURLWithPath: diskPath).resolvingSymlinksInPath().path
        return real == vaultRealPath || real.hasPrefix(vaultRealPath + "/") ? nil : real
    }
}
