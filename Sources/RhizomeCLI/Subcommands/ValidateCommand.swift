import ArgumentParser
import RhizomeCore
import RhizomeStore

/// `rhizome validate`: frontmatter checked against the note types' schemas, plus vault-wide checks.
struct ValidateCommand: RhizomeSubcommand {
    static let pagesOutput = true  // a list a terminal may page

    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check notes' frontmatter against their type's schema, ids and references across the vault, and .base files.",
        discussion: "Exit status 1 when any error is found. `rhizome schema TYPE` shows what a type expects; `rhizome fix` repairs what it safely can.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Notes or folders to report on (default: the whole vault). Vault-wide checks still consider every note.")
    var paths: [String] = []

    /// The list options; `--type` means the notes of that type (schema type or `type:` value); the summary
    /// counts every finding of the notes looked at, whatever `--limit` shows.
    @OptionGroup var shaping: ListShaping

    private var type: String? { shaping.type }

    func execute(in context: CommandContext) throws -> ExitStatus {
        let vault = try VaultLocator.locate(explicit: global.vault, environment: context.environment, currentDirectory: context.currentDirectory)
        let catalog = try SchemaCatalog.load(vaultRoot: vault)  // a broken schema stops here, with its file and line
        if let type, catalog.schema(forTypeValue: type) == nil, catalog.schema(forType: type) == nil {
            throw CLIError.invalidArgument("no schema for the type `\(type)`; known types: \(catalog.schemas.map(\.type).joined(separator: ", "))")
        }
        let session = try VaultSession.open(global, context: context)
        if global.noRefresh, try session.store.checkedSchemaFingerprint() != catalog.fingerprint {
            context.printError("warning: the schemas or the config changed since the index was last refreshed; these results are from the old ones (drop --no-refresh)")
        }
        let filter = try PathFilter(paths, vaultPath: session.vaultPath, context: context, knownPaths: try session.store.notePaths(), resolveNote: { try? session.store.resolveNote($0)?.path })
        let wantedType = type.map { catalog.schema(forTypeValue: $0)?.type ?? $0 }
        // `--type` is applied here (as schemas map it), the other narrowing options by `shaping.narrow`.
        var narrowing = shaping
        narrowing.type = nil
        var findings = try session.store.validationFindings().filter { item in
            guard let path = item.finding.path, filter.includes(path) else { return filter.prefixes.isEmpty && type == nil }
            // Excluded notes (templates) are left alone entirely, parse findings included.
            if catalog.config.isExcluded(path) { return false }
            guard let wantedType else { return true }
            return item.schemaType == wantedType || item.declaredType == type
        }.map(\.finding)
        // `.base` files have no type: checked unless the run is about one type.
        if type == nil {
            let bases = try session.store.baseFindings().filter { finding in
                guard let path = finding.path else { return false }
                return filter.includes(path) && !catalog.config.isExcluded(path)
            }
            findings = (findings + bases).enumerated().sorted { a, b in
                if a.element.severity != b.element.severity { return a.element.severity > b.element.severity }
                if a.element.path != b.element.path { return (a.element.path ?? "") < (b.element.path ?? "") }
                return a.offset < b.offset
            }.map(\.element)
        }
        // The notes and other files (`.base`) the other options keep; nil when they keep everything.
        let kept = narrowing.narrows
            ? Set(try narrowing.narrow(try session.store.notePaths() + findings.compactMap(\.path), path: { $0 }, store: session.store)) : nil
        if let kept { findings = findings.filter { $0.path.map(kept.contains) ?? false } }
        let typed = try session.store.typedNotes().filter { note in
            filter.includes(note.path) && note.type != nil && (wantedType == nil || note.type == wantedType) && kept.map { $0.contains(note.path) } ?? true
        }
        findings = try shaping.sorted(findings, by: SortField.findingFields)
        let summary = Summary(
            checkedNotes: typed.count,
            notesWithErrors: Set(findings.filter { $0.severity == .error }.compactMap(\.path)).count,
            errors: findings.count { $0.severity == .error },
            warnings: findings.count { $0.severity == .warning },
            infos: findings.count { $0.severity == .info })

        let shown = shaping.page(findings)
        switch shaping.format ?? (global.json ? .json : .text) {
        case .json:
            context.print(JSONOutput.encode(JSONOutput.Envelope(
                command: Self.name, vault: session.vaultPath, data: Report(findings: shown, summary: summary),
                total: findings.count, truncated: findings.count > shown.count)))
        case .text:
            for finding in shown { context.print(finding.diagnosticDescription) }
            if !shown.isEmpty { context.print() }
            shaping.printCutLine(shown: shown.count, total: findings.count, context: context)
            // Errors count every note (invalid YAML anywhere is one); "typed" says how many had a schema.
            context.print("\(summary.errors) error\(summary.errors == 1 ? "" : "s") in \(summary.notesWithErrors) note\(summary.notesWithErrors == 1 ? "" : "s"), \(summary.warnings) warning\(summary.warnings == 1 ? "" : "s"), \(summary.infos) for information · \(summary.checkedNotes) typed note\(summary.checkedNotes == 1 ? "" : "s") checked against a schema")
        default:
            shaping.print(shown, total: findings.count, columns: ListColumns.findings, path: { $0.path ?? "" }, command: self, session: session, context: context) {}
        }
        return summary.errors > 0 ? .problemsFound : .success
    }

    struct Summary: Encodable {
        var checkedNotes: Int
        var notesWithErrors: Int
        var errors: Int
        var warnings: Int
        var infos: Int
    }

    struct Report: Encodable {
        var findings: [Finding]
        var summary: Summary
    }
}
