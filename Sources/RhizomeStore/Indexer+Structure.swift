import RhizomeCore

/// Stage (1) of an indexing run, structure, and stage (2b), removal: the transactions that give added files
/// their rows before their content is parsed, and take removed files out once the content is written.
extension Indexer {
    /// Stage (1), structure: added files get rows, and added and removed files mark their resolve keys for
    /// re-resolution (removed files leave once the content is written: 2b). Returns the id of each added
    /// file, in the order of `delta.added`.
    func writeStructure(_ delta: IndexDelta) throws -> [Int64] {
        let connection = store.connection
        if delta.isColdIndex {
            // A first index of a big vault writes each file's row with its content, numbering the files
            // itself (the table is empty), so that nothing waits for a transaction of every file before the
            // first notes are written. Secondary indexes are built once at the end (much faster than row by
            // row; if the run is killed, the next open recreates them). Until every batch is in, the index
            // is marked unfinished: a run killed part-way is started over by the next (links written so far
            // may point at files it never wrote).
            try connection.transaction {
                try store.dropSecondaryIndexes()
                try store.setMeta(Self.unfinishedFirstIndexKey, "1")
                if delta.scanFindingsChanged { try store.replaceVaultLevelFindings(delta.scanFindings) }
            }
            return delta.added.indices.map { Int64($0 + 1) }
        }
        guard !delta.added.isEmpty || !delta.removed.isEmpty || delta.scanFindingsChanged else { return [] }
        return try connection.transaction {
            let ids = try store.insertFileRows(delta.added, markingPendingAlso: delta.removed)
            if delta.scanFindingsChanged { try store.replaceVaultLevelFindings(delta.scanFindings) }
            return ids
        }
    }

    /// Stage (2b), removal: the files gone leave in one transaction; links to them become unresolved (a
    /// foreign-key action), which by now concerns only links this run did not write.
    func removeFiles(_ ids: [Int64]) throws {
        try store.connection.transaction { try FileDeletion(store.connection).run(ids) }
    }
}
