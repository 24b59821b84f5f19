import ArgumentParser
import Foundation
import RhizomeCore
import RhizomeStore

/// `rhizome tags [TAG]`: tag counts (nested tags roll up), or the notes carrying one tag.
struct TagsCommand: RhizomeSubcommand {
    static let pagesOutput = true  // a list a terminal may page

    static let configuration = CommandConfiguration(
        commandName: "tags",
        abstract: "List tags with counts (nested tags roll up into their parents), or the notes with TAG.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "A tag (with or without #); matches nested tags too: #project matches #project/rhizome.")
    var tag: String?

    /// The list options: with TAG they narrow and page its notes (sorted by path, name, modified or size);
    /// without, `--folder`, `--tag` and `--type` narrow the notes whose tags are counted, and the tags sort
    /// by name (nested under their parents), count or notes.
    @OptionGroup var shaping: ListShaping

    func execute(in context: CommandContext) throws -> ExitStatus {
        let session = try VaultSession.open(global, context: context)
        if let tag {
            let tagged = try session.store.files(withTag: tag)
            let (files, total) = try shaping.shape(tagged, path: \.path, store: session.store, sortBy: SortField.fileFields)
            let name = tag.hasPrefix("#") ? String(tag.dropFirst()) : tag
            shaping.print(files.map(\.path), total: total, title: "files tagged #\(name)", singular: "file tagged #\(name)", command: self, session: session, context: context)
            if tagged.isEmpty, !global.json, shaping.format == nil, let near = NearestName.nearest(name, among: try session.store.tagCounts().map(\.tag)) {
                context.printError("Did you mean #\(near)?")
            }
            return .success
        }
        var notes: Set<String>? = nil
        if shaping.narrows { notes = Set(try shaping.narrow(try session.store.notePaths(), path: { $0 }, store: session.store)) }
        let fields: [SortField<TagCount>] = [.text("name", \.tag), .number("count") { Double($0.count) }, .number("notes") { Double($0.notes) }]
        let counts = try shaping.sorted(try session.store.tagCounts(inNotes: notes), by: fields)
        let shown = shaping.page(counts)
        let nested = shaping.sort.flatMap(SortRequest.init).map { $0.field == "name" && $0.descending != true } ?? true
        let columns: [(name: String, value: (TagCount) -> String)] = [("tag", \.tag), ("count", { String($0.count) }), ("notes", { String($0.notes) })]
        shaping.print(shown, total: counts.count, columns: columns, path: \.tag, command: self, session: session, context: context) {
            var table = TextTable("TAG", "COUNT", "NOTES")
            for count in shown {
                let depth = count.tag.filter { $0 == "/" }.count
                table.add(String(repeating: "  ", count: nested ? depth : 0) + "#" + count.tag, count.count.grouped, count.notes.grouped)
            }
            context.print(table.render())
        }
        return .success
    }
}

/// `rhizome tasks`: task list items across the vault.
struct TasksCommand: RhizomeSubcommand {
    static let pagesOutput = true  // a list a terminal may page

    static let configuration = CommandConfiguration(commandName: "tasks", abstract: "List tasks (`- [ ]` items) across the vault.")

    @OptionGroup var global: GlobalOptions

    @Flag(name: .long, help: "Only open tasks (`[ ]`).")
    var open = false

    @Flag(name: .long, help: "Only done tasks (`[x]`, `[X]`).")
    var done = false

    @Argument(help: "Only the tasks of these notes or folders (default: the whole vault).", completion: NoteCompletion.kind)
    var paths: [String] = []

    @Option(name: .long, help: "Only tasks with this status character (`-` for `- [-]`, `/`, `>`…).")
    var status: String?

    @Option(name: .long, help: "Only tasks due by then (📅/🗓️ DATE or [due:: DATE] in their text): today, tomorrow, week or YYYY-MM-DD; earliest first.")
    var due: String?

    @OptionGroup var shaping: ListShaping

    func validate() throws {
        if open && done { throw ValidationError("--open and --done exclude each other") }
        if let status, status.count != 1 { throw ValidationError("--status takes one character, as written between `[` and `]`") }
        if let due, TaskDue.limit(due, today: Date()) == nil {
            throw ValidationError("--due takes today, tomorrow, week or a date written YYYY-MM-DD, not `\(due)`")
        }
    }

    func execute(in context: CommandContext) throws -> ExitStatus {
        let session = try VaultSession.open(global, context: context)
        var tasks = try session.store.tasks(open ? .open : done ? .done : .all)
        if !paths.isEmpty {
            let filter = try PathFilter(
                paths, vaultPath: session.vaultPath, context: context, knownPaths: try session.store.notePaths(),
                resolveNote: { try? session.store.resolveNote($0)?.path })
            tasks = tasks.filter { filter.includes($0.path) }
        }
        if let status { tasks = tasks.filter { $0.status == status } }
        var dueDates: [String: String] = [:]
        if let due, let limit = TaskDue.limit(due, today: Date()) {
            tasks = tasks.compactMap { task in
                guard let date = TaskDue.date(in: task.text), date <= limit else { return nil }
                dueDates["\(task.path):\(task.line)"] = date
                return task
            }
            tasks.sort { (dueDates["\($0.path):\($0.line)"]!, $0.path, $0.line) < (dueDates["\($1.path):\($1.line)"]!, $1.path, $1.line) }
        }
        let taskFields: [SortField<TaskRecord>] = [
            .text("path", \.path), .number("line", descendingByDefault: false) { Double($0.line) }, .text("status", \.status), .text("text", \.text),
            .optionalText("due") { dueDates["\($0.path):\($0.line)"] ?? TaskDue.date(in: $0.text) },
        ]
        let (shown, total) = try shaping.shape(tasks, path: \.path, store: session.store, sortBy: taskFields)
        let columns: [(name: String, value: (TaskRecord) -> String)] = [
            ("path", \.path), ("line", { String($0.line) }), ("status", \.status), ("text", \.text),
            ("due", { dueDates["\($0.path):\($0.line)"] ?? TaskDue.date(in: $0.text) ?? "" }),
        ]
        shaping.print(shown, total: total, columns: columns, path: \.path, command: self, session: session, context: context) {
            context.print("\(total.grouped) task\(total == 1 ? "" : "s")")
            for task in shown {
                let date = dueDates["\(task.path):\(task.line)"].map { "  (due \($0))" } ?? ""
                context.print("  [\(task.status)] \(task.text)\(date)  — \(task.path):\(task.line)")
            }
        }
        return .success
    }
}

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
/// inline field `[due:: 2024-04-15]` or `(due:: 2024-04-15)` in its text.
enum TaskDue {
    static func date(in text: String) -> String? {
        if let emoji = DataviewTaskShorthand.fields(in: text).first(where: { $0.key == "due" }) { return emoji.date }
        for opening in ["[due::", "(due::"] {
            guard let start = text.range(of: opening, options: .caseInsensitive) else { continue }
            let rest = text[start.upperBound...].drop { $0 == " " }
            let date = String(rest.prefix(10))
            if isDate(date) { return date }
        }
        return nil
    }

    /// The last day `--due WHEN` includes, as `YYYY-MM-DD` (which sorts as text); nil when WHEN is none of
    /// today, tomorrow, week or a date.
    static func limit(_ when: String, today: Date) -> String? {
        let days: Int
        switch when.lowercased() {
        case "today": days = 0
        case "tomorrow": days = 1
        case "week": days = 7
        default: return isDate(when) ? when : nil
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        guard let day = calendar.date(byAdding: .day, value: days, to: today) else { return nil }
        let parts = calendar.dateComponents([.year, .month, .day], from: day)
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }

    /// A real `YYYY-MM-DD` day, as schema `format: date` checks it.
    private static func isDate(_ text: String) -> Bool { DateText.matches(text, format: .date) }
}
