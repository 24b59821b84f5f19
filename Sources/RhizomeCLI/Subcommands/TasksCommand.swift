import ArgumentParser
import Foundation
import RhizomeCore
import RhizomeStore

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
