import RhizomeCore

extension IndexStore {
    /// How current the index is: when it was last brought up to date, and how many files differ from it now.
    public struct Freshness: Sendable, Encodable {
        /// When a run last changed the index (ISO 8601): the same as `lastChangeAt`, kept for older readers.
        public var lastIndexedAt: String?
        /// When a run last compared the vault with the index, whether or not it changed anything.
        public var lastRunAt: String?
        /// When a run last changed the index (files added, changed or removed; findings updated).
        public var lastChangeAt: String?
        /// Files added, removed or changed (size, mtime) since the last run.
        public var staleFiles: Int
        public var isFresh: Bool { staleFiles == 0 }
    }

    /// Compares a walk of the vault with the stored sizes and times (no file is read). The index's own files,
    /// when it is kept inside the vault, are not files of the vault.
    public func freshness(vaultRoot: String) throws -> Freshness {
        let excluded = IndexLocation.excludedPaths(databasePath: databasePath, vaultPath: vaultRoot)
        let scan = try VaultScanner(root: vaultRoot, excludedPaths: excluded).scan()
        let statement = try connection.prepare("SELECT path, size, mtime_ns FROM file")
        var stored: [String: (Int64?, Int64?)] = [:]
        while try statement.step() { stored[statement.text(0)] = (statement.optionalInt(1), statement.optionalInt(2)) }
        var stale = 0
        for file in scan.files {
            if let (size, time) = stored.removeValue(forKey: file.path) {
                if size != file.size || time != file.modificationTime { stale += 1 }
            } else {
                stale += 1
            }
        }
        stale += stored.keys.filter { !scan.isUncertain($0) }.count
        let lastChange = try metaValue("last_indexed_at")
        return Freshness(lastIndexedAt: lastChange, lastRunAt: lastRunAt, lastChangeAt: lastChange, staleFiles: stale)
    }

    /// Whether any indexed file lies under the folder `path` (a range on the path index: `/` sorts just before `0`).
    func hasIndexedFiles(under path: String) throws(StoreError) -> Bool {
        let statement = try connection.prepare("SELECT 1 FROM file WHERE path > ? AND path < ? LIMIT 1")
        statement.bind(.text(path + "/"), .text(path + "0"))
        return try statement.step()
    }

    /// How many files the index holds.
    func fileCount() throws(StoreError) -> Int {
        let statement = try connection.prepare("SELECT count(*) FROM file")
        return try statement.step() ? Int(statement.int(0)) : 0
    }
}
