import Foundation
import RhizomeClaude
import RhizomeCore

/// Where a period's reflection goes, and what happens there: a new note, the unedited one replaced
/// (only when asked), a new version beside an edited one, or nothing. Never a file Rhizome did not write.
public struct ReflectionTarget: Sendable {
    /// What happens at the reflection's path.
    public enum Action: String, Sendable {
        case create, replace, newVersion = "new-version", refuse

        public var explanation: String {
            switch self {
            case .create: return "a new note"
            case .replace: return "replacing the unedited reflection of this period (--force)"
            case .newVersion: return "a new version: the reflection of this period was edited since it was written, so it is kept"
            case .refuse: return "nothing: a reflection of this period exists; --force replaces it, since it was not edited"
            }
        }
    }

    /// Vault-relative.
    public var path: String
    public var absolute: String
    public var action: Action
    /// The bytes the existing note held when it was read (for a replace that must not race an edit).
    var existing: [UInt8]?

    /// Writes the note through the journal, so that `rhizome undo` takes it back like any other change:
    /// created new, or replaced only while it still holds what was read. Throws
    /// `EditError.changedSincePlanned` when the file appeared or changed since it was chosen.
    func write(_ bytes: [UInt8], journal: OperationJournal) throws {
        if action == .refuse { throw ClaudeError.invalidRequest(action.explanation) }
        let after = VaultOperation.FileState(bytes: bytes)
        let replaced = action == .replace ? existing ?? [] : nil
        let operation = VaultOperation(
            kind: "reflect", summary: (replaced == nil ? "created " : "replaced ") + path,
            steps: [.write(path: path, before: replaced.map(VaultOperation.FileState.init(bytes:)), after: after)],
            result: [path: after], createdFolders: VaultEditor.missingFolders(above: path, vaultPath: journal.vaultPath))
        _ = try journal.apply(operation, contents: [bytes] + (replaced.map { [$0] } ?? []))
    }

    /// The period's latest reflection (`… (2).md` after a first one was edited): replaced only with `force`
    /// and only while unedited; when edited, the next version is written beside it.
    static func choose(folder: String, period: Reflect.Period, vault: String, force: Bool, forceNewVersion: Bool = false) -> ReflectionTarget {
        func paths(_ version: Int) -> (relative: String, absolute: String) {
            let relative = folder + "/" + Reflect.fileName(for: period, version: version)
            return (relative, vault + "/" + relative)
        }
        func exists(_ version: Int) -> Bool {
            let path = paths(version).absolute
            return FileManager.default.fileExists(atPath: path) || (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil
        }
        guard exists(1) else { return ReflectionTarget(path: paths(1).relative, absolute: paths(1).absolute, action: .create) }
        var latest = 1
        while exists(latest + 1) { latest += 1 }
        let (relative, absolute) = paths(latest)
        if !forceNewVersion, let (text, _) = NoteText.read(vaultRoot: vault, path: relative), Reflect.isUnedited(text) {
            return force ? ReflectionTarget(path: relative, absolute: absolute, action: .replace, existing: Array(text.utf8))
                : ReflectionTarget(path: relative, absolute: absolute, action: .refuse)
        }
        let next = paths(latest + 1)
        return ReflectionTarget(path: next.relative, absolute: next.absolute, action: .newVersion)
    }
}
