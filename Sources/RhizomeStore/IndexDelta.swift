import RhizomeCore

/// Stage "plan" of an indexing run: what a look at the vault found different from the index, and how to
/// bring the index level with it. Built without I/O from the walk (or a look at some paths) and the
/// index's file states (`IndexStore.fileStates`), so the comparison is testable alone.
struct IndexDelta {
    var added: [ScannedFile] = []
    var changed: [(ScannedFile, IndexStore.FileState)] = []
    var removed: [IndexStore.FileState] = []
    var unchanged = 0
    /// Every vault-level finding of the scan (stored with no file).
    var scanFindings: [Finding] = []
    var scanFindingsChanged = false
    /// The scan findings this run reports (a scoped update: only those about the paths it looked at).
    var reportedFindings: [Finding]?
    /// The scan findings the index held before this run (`diagnosticDescription`s): what is not new.
    var storedScanFindings: Set<String> = []
    var schemas: Indexer.LoadedSchemas
    var schemaFingerprintChanged = false
    var forceReparse = false
    /// A first index of a big vault: bulk-load mode.
    var isColdIndex = false
    /// Notes to re-check against new schemas unless this run parses them anyway.
    var recheckCandidates: [(id: Int64, file: ScannedFile)] = []
    /// Count every note, link and finding for the report (a watcher's small updates skip it).
    var fillTotals = true

    init(schemas: Indexer.LoadedSchemas) { self.schemas = schemas }

    /// Whether nothing needs writing: no file to add, change or remove, and the stored vault-level
    /// findings and schema checks still hold. (Pending link keys and unfinished vault checks are the
    /// index's, not the delta's: `Indexer` looks at those too.)
    var changesNothing: Bool {
        added.isEmpty && removed.isEmpty && changed.isEmpty && !scanFindingsChanged && !schemaFingerprintChanged
    }

    /// A file whose size, modification time or symlink target differs from what the index holds is read
    /// again (its content hash then tells whether it really changed).
    static func differs(_ file: ScannedFile, from state: IndexStore.FileState) -> Bool {
        state.size != file.size || state.modificationTime != file.modificationTime || state.realPath != file.realPath
    }

    /// Compares a walk of the whole vault with every indexed file: the files walked are added, changed or
    /// unchanged (every one changed when `forceReparse`); an indexed file the walk did not list is removed,
    /// unless it lies where the walk could not look (`isUncertain`: an unreadable folder keeps its files).
    mutating func compareWalk(
        _ files: [ScannedFile], with previous: [String: IndexStore.FileState], isUncertain: (String) -> Bool
    ) {
        // Nothing to compare with in an empty index: every file is new.
        guard !previous.isEmpty else {
            added = files
            return
        }
        var seen = Set<String>()
        seen.reserveCapacity(files.count)
        for file in files {
            seen.insert(file.path)
            if let state = previous[file.path] {
                if forceReparse || Self.differs(file, from: state) {
                    changed.append((file, state))
                } else {
                    unchanged += 1
                }
            } else {
                added.append(file)
            }
        }
        removed = previous.values.filter { !seen.contains($0.path) && !isUncertain($0.path) }
    }

    /// Compares the files found at some paths (a watcher's) with what the index holds at those paths;
    /// `missing` are the paths looked at where nothing is now.
    mutating func compareScoped(_ files: [ScannedFile], missing: [String], with previous: [String: IndexStore.FileState]) {
        for file in files {
            if let state = previous[file.path] {
                if Self.differs(file, from: state) {
                    changed.append((file, state))
                } else {
                    unchanged += 1
                }
            } else {
                added.append(file)
            }
        }
        removed = missing.compactMap { previous[$0] }
    }
}
