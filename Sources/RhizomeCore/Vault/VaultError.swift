/// Errors that stop Rhizome from working on a vault at all (problems *inside* a vault are `Finding`s).
public enum VaultError: Error, Sendable, Equatable {
    case notFound(searched: [String])
    case missingFolder(path: String)
    case unreadableRoot(path: String, reason: String)
    case notADirectory(path: String)
    case emptiedVault(path: String, indexedFiles: Int, databasePath: String)
    /// A walk would remove more of the index than the caller allows (`IndexOptions.removalGuardFraction`).
    case massRemoval(path: String, removing: Int, indexedFiles: Int)
}

extension VaultError {
    /// Stable machine-readable code for JSON output.
    public var code: String {
        switch self {
        case .notFound: return "vault-not-found"
        case .missingFolder: return "vault-missing"
        case .unreadableRoot: return "vault-unreadable"
        case .notADirectory: return "vault-not-a-directory"
        case .emptiedVault: return "vault-emptied"
        case .massRemoval: return "vault-mass-removal"
        }
    }

    /// What went wrong, then how to fix it (`RhizomeError.fix`).
    public var message: ErrorMessage {
        switch self {
        case .notFound(let searched):
            return ErrorMessage("no vault found", ". ", """
                Tell Rhizome where your vault is in one of these ways:
                  1. --vault PATH
                  2. the RHIZOME_VAULT environment variable (or OBSIDIAN_VAULT)
                  3. a file ~/.obsidian-vault containing the vault's path on one line
                  4. run Rhizome from inside the vault (a folder with an .obsidian/ folder)
                \(searched.isEmpty ? "" : "searched: " + searched.joined(separator: ", "))
                """)
        case .missingFolder(let path):
            return ErrorMessage("there is no folder at \(path)", ". ", "Check the vault path (--vault, $RHIZOME_VAULT, $OBSIDIAN_VAULT or ~/.obsidian-vault).")
        case .unreadableRoot(let path, let reason):
            return ErrorMessage("cannot read the vault folder \(path): \(reason). Nothing was changed", ". ", "Check that the path exists and that you may read it.")
        case .notADirectory(let path):
            return ErrorMessage("the vault path \(path) is not a folder", ". ", "Point --vault at the folder that contains your notes.")
        case .emptiedVault(let path, let indexedFiles, let databasePath):
            return ErrorMessage(
                "the vault folder \(path) lists no files, but the index holds \(indexedFiles). Nothing was changed", ": ",
                "if the vault is on a drive or in a sync folder, check that it is mounted and synced. If you really emptied the vault, delete the index (\(databasePath)).")
        case .massRemoval(let path, let removing, let indexedFiles):
            return ErrorMessage("a walk of the vault folder \(path) would remove \(removing) of the \(indexedFiles) indexed files. Nothing was changed: the folder may be half-way through being copied or synced into place.")
        }
    }
}

extension VaultError: ExplainedError {
    /// A vault that cannot be read or that emptied under a run is Rhizome's failure to report; the rest
    /// (a missing vault, a path outside it) are the user's to fix.
    public var isUserMistake: Bool {
        switch self {
        case .unreadableRoot, .emptiedVault: return false
        default: return true
        }
    }
}
