import Foundation

/// Where the operation journal of an index lives: `<index folder>/.<index name>.operations/`, beside the
/// index and never in the vault. `OperationJournal` (RhizomeOperations) keeps its records there; the
/// indexer looks for a pending change before it sweeps temporary files that change may still need.
public enum OperationJournalLocation {
    /// The journal's folder for the index at `databasePath`.
    public static func folder(databasePath: String) -> String {
        let url = URL(fileURLWithPath: databasePath)
        return url.deletingLastPathComponent().path + "/." + url.lastPathComponent + ".operations"
    }

    /// The record of a change begun and not finished yet (present only until it is done or recovered).
    public static func pendingRecord(databasePath: String) -> String {
        folder(databasePath: databasePath) + "/pending.json"
    }
}
