import ArgumentParser
import RhizomeCore
import RhizomeStore

/// `rhizome tags [TAG]`: tag counts (nested tags roll up), or the notes carrying one tag.
struct TagsCommand: RhizomeSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "tags",
        abstract: "List tags with counts (nested tags roll up into their parents), or the notes with TAG.")

    enum SortOrder: String, ExpressibleByArgument, CaseIterable { case name, count }

    @OptionGroup var global: GlobalOptions

    @Argument(help: "A tag (with or without #); matches nested tags too: #project matches #project/rhizome.")
    var tag: String?

    @Option(name: .long, help: "Order of the tag list: name or count.")
    var sort: SortOrder = .name

    func execute(in context: CommandContext) throws -> ExitStatus {
        let session = try VaultSession.open(global, context: context)
        if let tag {
            let files = try session.store.files(withTag: tag)
            if global.json {
                printJSON(files.map(\.path), vault: session.vaultPath, context: context)
            } else {
                let name = tag.hasPrefix("#") ? String(tag.dropFirst()) : tag
                context.print("\(files.count) file\(files.count == 1 ? "" : "s") tagged #\(name)")
                for file in files { context.print("  " + file.path) }
                if files.isEmpty, let near = NearestName.nearest(name, among: try session.store.tagCounts().map(\.tag)) {
                    context.printError("Did you mean #\(near)?")
                }
            }
            return .success
        }
        var counts = try session.store.tagCounts()
        if sort == .count { counts.sort { ($1.count, $0.tag.lowercased()) < ($0.count, $1.tag.lowercased()) } }
        if global.json {
            printJSON(counts, vault: session.vaultPath, context: context)
            return .success
        }
        var table = TextTable("TAG", "COUNT", "NOTES")
        for count in counts {
            let depth = count.tag.filter { $0 == "/" }.count
            table.add(String(repeating: "  ", count: sort == .name ? depth : 0) + "#" + count.tag, count.count.grouped, count.notes.grouped)
        }
        context.print(table.render())
        return .success
    }
}

/// `rhizome tasks`: task list items across the vault.
struct TasksCommand: RhizomeSubcommand {
    static let configuration = CommandConfiguration(commandName: "tasks", abstract: "List tasks (`- [ ]` items) across the vault.")

    @OptionGroup var global: GlobalOptions

    @Flag(name: .long, help: "Only open tasks (`[ ]`).")
    var open = false

    @Flag(name: .long, help: "Only done tasks (`[x]`, `[X]`).")
    var done = false

    func validate() throws {
        if open && done { throw ValidationError("--open and --done exclude each other") }
    }

    func execute(in context: CommandContext) throws -> ExitStatus {
        let session = try VaultSession.open(global, context: context)
        let tasks = try session.store.tasks(open ? .open : done ? .done : .all)
        if global.json {
            printJSON(tasks, vault: session.vaultPath, context: context)
            return .success
        }
        context.print("\(tasks.count) task\(tasks.count == 1 ? "" : "s")")
        for task in tasks { context.print("  [\(task.status)] \(task.text)  — \(task.path):\(task.line)") }
        return .success
    }
}

/// `rhizome properties [KEY]`: frontmatter keys and their types, or one key's values.
struct PropertiesCommand: RhizomeSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "properties", abstract: "List frontmatter properties with note counts and types, or the values of KEY.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "A property key (case-sensitive, as Obsidian reads it).")
    var key: String?

    func execute(in context: CommandContext) throws -> ExitStatus {
        let session = try VaultSession.open(global, context: context)
        if let key {
            let values = try session.store.propertyValues(key: key)
            if global.json {
                printJSON(values, vault: session.vaultPath, context: context)
                return .success
            }
            context.print("\(values.count) note\(values.count == 1 ? "" : "s") with `\(key)`")
            if values.isEmpty {
                // Keys are case-sensitive, as Obsidian reads them: `Rating` is not `rating`.
                let keys = try session.store.propertySummaries().map(\.key)
                if let near = keys.first(where: { $0.lowercased() == key.lowercased() }) ?? NearestName.nearest(key, among: keys) {
                    context.printError("Did you mean `\(near)`? (keys are case-sensitive)")
                }
                return .success
            }
            var table = TextTable("NOTE", "TYPE", "VALUE")
            for value in values { table.add(value.path, value.type, value.value.displayText) }
            context.print(table.render(indent: "  "))
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
