import ArgumentParser
import RhizomeCore
import RhizomeStore
import RhizomeOperations

/// `rhizome types`: the `type:` values in the vault and which have schemas; `types migrate` renames one.
struct TypesCommand: RhizomeSubcommand {
    static let pagesOutput = true  // a list a terminal may page

    static let configuration = CommandConfiguration(
        commandName: "types",
        abstract: "List the `type:` values in the vault with counts and schemas; `types migrate --from OLD --to NEW` renames a type.",
        discussion: "`migrate` is a dry run showing a diff unless --write; it rewrites only the `type:` line of each note.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "`migrate` to rename a type across the vault.")
    var action: String?

    @Option(help: "The `type:` value to rename (migrate).")
    var from: String?

    @Option(help: "The new `type:` value (migrate).")
    var to: String?

    @Flag(help: "Write the changes (migrate; default: show them).")
    var write = false

    /// The list options: `--folder`, `--tag` and `--type` narrow the notes counted; the values sort by `type`
    /// or `notes` (the default: most first).
    @OptionGroup var shaping: ListShaping

    func validate() throws {
        switch action {
        case nil:
            guard from == nil, to == nil, !write else { throw ValidationError("--from, --to and --write belong to `rhizome types migrate`") }
        case "migrate" where !shaping.isDefault:
            throw ValidationError("the list options belong to the list of types, not to `types migrate`")
        case "migrate":
            guard let from, let to, !from.isEmpty, !to.isEmpty else { throw ValidationError("`types migrate` needs --from OLD and --to NEW") }
            guard from != to else { throw ValidationError("--from and --to are the same type") }
        case let other?:
            throw ValidationError("unknown action `\(other)`; the only one is `migrate`")
        }
    }

    func execute(in context: CommandContext) throws -> ExitStatus {
        let vault = try VaultLocator.locate(explicit: global.vault, environment: context.environment, currentDirectory: context.currentDirectory)
        let catalog = try SchemaCatalog.load(vaultRoot: vault)
        let session = try VaultSession.open(global, context: context)
        if action == "migrate", let from, let to { return try migrate(from: from, to: to, catalog: catalog, session: session, context: context) }

        var notes: Set<String>? = nil
        if shaping.narrows { notes = Set(try shaping.narrow(try session.store.notePaths(), path: { $0 }, store: session.store)) }
        let all = try session.store.typePropertyCounts(key: catalog.config.typeKey, inNotes: notes).map { item in
            TypeValue(value: item.value, notes: item.notes, schema: catalog.schema(forTypeValue: item.value)?.type)
        }
        let sorted = try shaping.sorted(all, by: [.text("type", \.value), .number("notes") { Double($0.notes) }])
        let values = shaping.page(sorted)
        var byPath: [String: Int] = [:]
        for note in try session.store.typedNotes() where note.declaredType == nil && notes.map({ $0.contains(note.path) }) ?? true {
            if let type = note.type { byPath[type, default: 0] += 1 }
        }
        let pathTyped = byPath.sorted { $0.key < $1.key }.map { PathTyped(type: $0.key, notes: $0.value) }
        switch shaping.format ?? (global.json ? .json : .text) {
        case .json:
            context.print(JSONOutput.encode(JSONOutput.Envelope(
                command: Self.name, vault: session.vaultPath, data: Listing(values: values, typedByPath: pathTyped),
                total: sorted.count, truncated: sorted.count > values.count)))
            return .success
        case .text:
            break
        default:
            let columns: [(name: String, value: (TypeValue) -> String)] = [("type", \.value), ("notes", { String($0.notes) }), ("schema", { $0.schema ?? "" })]
            shaping.print(values, total: sorted.count, columns: columns, path: \.value, command: self, session: session, context: context) {}
            return .success
        }
        var table = TextTable(headers: ["TYPE VALUE", "NOTES", "SCHEMA"])
        for value in values {
            let schema = value.schema.map { $0 == value.value ? $0 : "\($0) (mapped)" } ?? "none"
            table.add(cells: [value.value, value.notes.grouped, schema])
        }
        context.print(values.isEmpty ? "no note has a `\(catalog.config.typeKey):` property" : table.render())
        shaping.printCutLine(shown: values.count, total: sorted.count, context: context)
        if !pathTyped.isEmpty {
            context.print("\nTyped by path (no `type:`): " + pathTyped.map { "\($0.type) \($0.notes)" }.joined(separator: ", "))
        }
        let missing = values.filter { $0.schema == nil }
        if !missing.isEmpty {
            context.print("\n\(missing.count) value\(missing.count == 1 ? " has" : "s have") no schema: add one in \(catalog.config.schemaFolder)/, map it in \(VaultConfig.relativePath), or rename it with `rhizome types migrate`.")
        }
        return .success
    }

    private func migrate(from: String, to: String, catalog: SchemaCatalog, session: VaultSession, context: CommandContext) throws -> ExitStatus {
        let migration = TypeMigration(vaultPath: session.vaultPath, databasePath: session.databasePath, typeKey: catalog.config.typeKey, write: write)
        let report = try migration.run(from: from, to: to, store: session.store).report
        let (changes, skipped) = (report.changes, report.skipped)
        if write && !changes.isEmpty { _ = try VaultSession.open(global, context: context) }
        if global.json {
            printJSON(report, vault: session.vaultPath, context: context)
        } else {
            for change in changes { context.print(change.diff, terminator: "") }
            for item in skipped { context.printError("warning: \(item.path): not changed: \(item.reason)") }
            if catalog.schema(forTypeValue: to) == nil {
                context.printError("warning: no schema for the type `\(to)`; notes of that type will not be validated")
            }
            let notes = "\(changes.count) note\(changes.count == 1 ? "" : "s")"
            if changes.isEmpty {
                context.print("no note has `\(catalog.config.typeKey): \(from)`")
            } else {
                context.print(write ? "changed \(notes): type \(from) → \(to)" : "\(notes) would change. Run `rhizome types migrate --from \(from) --to \(to) --write` to apply.")
            }
        }
        return .success
    }

    struct TypeValue: Encodable {
        var value: String
        var notes: Int
        /// The schema type the value means, or nil (`null` in JSON).
        @NullEncoded var schema: String?

        private enum CodingKeys: String, CodingKey { case value, notes, schema }
    }

    struct PathTyped: Encodable {
        var type: String
        var notes: Int
    }

    struct Listing: Encodable {
        var values: [TypeValue]
        var typedByPath: [PathTyped]
    }
}
