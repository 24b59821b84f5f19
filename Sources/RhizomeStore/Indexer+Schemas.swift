import Foundation
import RhizomeCore

/// The schemas an indexing run checks notes against, and the re-check of unchanged notes when the
/// schemas changed (their frontmatter only).
extension Indexer {
    /// Re-checks unchanged notes against new schemas: reads just their frontmatter (in parallel) and
    /// replaces only what the checks stored. A note that cannot be read keeps its previous results.
    func recheck(_ notes: [(id: Int64, file: ScannedFile)], checker: NoteChecker?) throws {
        guard !notes.isEmpty else { return }
        let writer = try BatchWriter(connection: store.connection, fullText: false)
        let maxBytes = options.maxNoteBytes
        for start in stride(from: 0, to: notes.count, by: 2_048) {
            let batch = Array(notes[start..<min(start + 2_048, notes.count)])
            let checks = Self.parallelMap(batch, workers: options.parallelism) { note -> NoteCheck? in
                guard case .success(let bytes) = FileReader.read(note.file.diskPath, maxBytes: maxBytes),
                      !UTF8Validation.containsNUL(bytes) else { return nil }
                return checker?.check(NoteParser.frontmatter(bytes, path: note.file.path), path: note.file.path) ?? NoteCheck()
            }
            try store.connection.transaction {
                for (note, check) in zip(batch, checks) {
                    if let check { try writer.replaceSchemaCheck(check, fileID: note.id) }
                }
                try writer.flush()
            }
        }
    }

    struct LoadedSchemas {
        var checker: NoteChecker?
        /// Why notes are not checked, as a vault-level finding.
        var problem: Finding?
        var fingerprint: String
        /// The vault-relative folder the vault's own schemas are read from, when known.
        var schemaFolder: String?
    }

    func loadSchemas() -> LoadedSchemas {
        switch options.schemas {
        case .none:
            return LoadedSchemas(checker: nil, problem: nil, fingerprint: "none")
        case .catalog(let catalog):
            return LoadedSchemas(checker: NoteChecker(catalog: catalog), problem: nil, fingerprint: catalog.fingerprint)
        case .vault:
            do {
                let catalog = try SchemaCatalog.load(vaultRoot: vaultRoot)
                return LoadedSchemas(
                    checker: NoteChecker(catalog: catalog), problem: nil, fingerprint: catalog.fingerprint, schemaFolder: catalog.config.schemaFolder)
            } catch {
                let finding = Finding(
                    code: .schemaUnavailable, severity: .error,
                    message: "schemas could not be loaded, so notes were not validated: \(error.message) [\(error.code)]",
                    path: error.file, line: error.line, column: error.column, fix: error.fix ?? "correct the file (see Schemas/README.md)")
                // A broken schema file: the next change to it must still reach a walk.
                let folder = (try? VaultConfig.load(vaultRoot: vaultRoot))?.schemaFolder
                return LoadedSchemas(checker: nil, problem: finding, fingerprint: "unavailable:" + error.description, schemaFolder: folder)
            }
        }
    }
}
