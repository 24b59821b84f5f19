import RhizomeCore
import RhizomeOperations

/// The shared end of `fix` and `types migrate`: each note's new bytes become a diff and, with `--write`,
/// the file, unless Rhizome must leave the note alone (a symlink leading outside the vault, a read-only or
/// hard-linked file, a note changed on disk since it was read). What a write would refuse, the dry run
/// reports too.
struct NoteRewrite {
    struct Change: Encodable {
        var path: String
        var fixes: [FixPlanner.AppliedFix]
        var diff: String
        var written: Bool
    }

    struct Skipped: Encodable {
        var path: String
        var reason: String
    }

    struct Report: Encodable {
        var changes: [Change]
        var skipped: [Skipped]
        var wrote: Bool
    }

    let files: VaultFiles
    let write: Bool
    private(set) var changes: [Change] = []
    private(set) var skipped: [Skipped] = []
    /// Writes that failed (not refusals): the command exits 70.
    private(set) var writeFailures = 0

    init(vaultPath: String, write: Bool) throws {
        files = try VaultFiles(vaultPath: vaultPath, notesOnly: true)
        self.write = write
    }

    var report: Report { Report(changes: changes, skipped: skipped, wrote: write) }

    /// A note's exact name on disk and its bytes; nil (and reported) when it cannot be found or read.
    mutating func read(_ path: String) -> (diskPath: String, bytes: [UInt8])? {
        guard let diskPath = files.diskPath(of: path) else {
            skip(path, "not found on disk under this name (a name that is not UTF-8?)")
            return nil
        }
        guard case .success(let bytes) = FileReader.read(DiskPath(diskPath), maxBytes: 16 << 20) else {
            skip(path, "cannot be read, or is over 16 MiB")
            return nil
        }
        return (diskPath, bytes)
    }

    mutating func skip(_ path: String, _ reason: String) {
        skipped.append(Skipped(path: path, reason: reason))
    }

    /// Records the change from `bytes` to `newBytes` (nothing when they are equal) and, with `write`,
    /// replaces the file atomically.
    mutating func apply(path: String, diskPath: String, bytes: [UInt8], newBytes: [UInt8], fixes: [FixPlanner.AppliedFix]) {
        guard newBytes != bytes else { return }
        if let outside = files.targetOutsideVault(diskPath) {
            return skip(path, "it is a symlink to \(outside), outside the vault; Rhizome only rewrites files inside the vault")
        }
        do {
            try AtomicFileWriter.checkReplaceable(diskPath)
        } catch {
            return skip(path, error.description)
        }
        var change = Change(path: path, fixes: fixes, diff: UnifiedDiff.render(old: bytes, new: newBytes, path: path), written: false)
        if write {
            do {
                try AtomicFileWriter.replace(diskPath, expecting: bytes, with: newBytes)
                change.written = true
            } catch {
                skip(path, error.description)
                if case .refused = error {} else { writeFailures += 1 }
                return
            }
        }
        changes.append(change)
    }
}
