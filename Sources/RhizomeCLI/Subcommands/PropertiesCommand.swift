import ArgumentParser
import Foundation
import RhizomeCore
import RhizomeStore

/// `rhizome properties [KEY]`: frontmatter keys and their types, or one key's values.
struct PropertiesCommand: RhizomeSubcommand {
    static let pagesOutput = true  // a list a terminal may page

    static let configuration = CommandConfiguration(
        commandName: "properties", abstract: "List frontmatter properties with note counts and types, or the values of KEY.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "A property key (case-sensitive, as Obsidian reads it).")
    var key: String?

    @OptionGroup var shaping: ListShaping

    func validate() throws {
        if key == nil && !shaping.isDefault { throw ValidationError("the list options narrow the notes of one property: give a KEY") }
    }

    func execute(in context: CommandContext) throws -> ExitStatus {
        let session = try VaultSession.open(global, context: context)
        if let key {
            let all = try session.store.propertyValues(key: key)
            let valueFields: [SortField<PropertyValueRecord>] = [
                .text("path", \.path), .text("type", \.type),
                // Numbers by value, other values as text, numbers first.
                SortField(name: "value", descendingByDefault: false) { a, b in
                    switch (Double(a.value.displayText), Double(b.value.displayText)) {
                    case let (left?, right?): return left < right
                    case (.some, nil): return true
                    case (nil, .some): return false
                    case (nil, nil): return a.value.displayText.lowercased() < b.value.displayText.lowercased()
                    }
                },
            ]
            let values = try shaping.sorted(try shaping.narrow(all, path: \.path, store: session.store), by: valueFields)
            let shown = shaping.page(values)
            let columns: [(name: String, value: (PropertyValueRecord) -> String)] = [
                ("path", \.path), ("type", \.type), ("value", \.value.displayText), ("line", { String($0.line) }),
            ]
            var suggests = false
            shaping.print(shown, total: values.count, columns: columns, path: \.path, command: self, session: session, context: context) {
                context.print("\(values.count.grouped) note\(values.count == 1 ? "" : "s") with `\(key)`")
                suggests = all.isEmpty
                if !shown.isEmpty {
                    var table = TextTable("NOTE", "TYPE", "VALUE")
                    for value in shown { table.add(value.path, value.type, value.value.displayText) }
                    context.print(table.render(indent: "  "))
                }
            }
            if suggests {
                // Keys are case-sensitive, as Obsidian reads them: `Rating` is not `rating`.
                let keys = try session.store.propertySummaries().map(\.key)
                if let near = keys.first(where: { $0.lowercased() == key.lowercased() }) ?? NearestName.nearest(key, among: keys) {
                    context.printError("Did you mean `\(near)`? (keys are case-sensitive)")
                }
            }
            return .success
        }
        let summaries = try session.store.propertySummaries()
        if global.json {
            printJSON(summaries, vault: session.vaultPath, context: context)
            return .success
        }
        var table = TextTable("KEY", "NOTES", "TYPES")
        for summary in summaries { table.add(summary.key, summary.notes.grouped, summary.types.joined(separator: ", ")) }
        context.print(table.render())
        return .success
    }
}

/// A task's due date, as the Tasks plugin and Dataview write it: `📅 2024-04-15` or `🗓️ 2024-04-15`, else an
