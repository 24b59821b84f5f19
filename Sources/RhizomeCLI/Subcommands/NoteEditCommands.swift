import ArgumentParser
import Foundation
import RhizomeCore
import RhizomeOperations

/// `rhizome append`, `prepend`, `set` and `unset`: single-note edits through the operations layer. They act
/// at once (journaled: `rhizome undo --write` reverses them) and print what changed; `--dry-run` only shows
/// the diff.
struct AppendCommand: RhizomeSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "append",
        abstract: "Add text at the end of a note, or of one of its sections (--heading).",
        discussion: "TEXT is the markdown to add, on lines of its own (`-` reads it from standard input). Line endings follow the note's. Everything else in the note keeps its bytes.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The note (resolved like a wikilink).", completion: NoteCompletion.kind) var note: String
    @Argument(parsing: .allUnrecognized, help: "The text to add (a list item `- …` too), or - to read standard input.") var text: [String]
    @Option(help: "Add at the end of the section under this heading.") var heading: String?
    @Flag(help: "Only show the change.") var dryRun = false

    func execute(in context: CommandContext) throws -> ExitStatus {
        try NoteEdit.run(self, dryRun: dryRun, context: context) { editor in
            try editor.planInsert(try NoteEdit.text(text, command: "append"), into: NoteEdit.unmarked(note), heading: heading.map(NoteEdit.unmarked), atStart: false)
        }
    }
}

struct PrependCommand: RhizomeSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "prepend",
        abstract: "Add text at the start of a note (after its frontmatter), or right under a heading (--heading).",
        discussion: "TEXT is the markdown to add, on lines of its own (`-` reads it from standard input). Everything else in the note keeps its bytes.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The note (resolved like a wikilink).", completion: NoteCompletion.kind) var note: String
    @Argument(parsing: .allUnrecognized, help: "The text to add (a list item `- …` too), or - to read standard input.") var text: [String]
    @Option(help: "Add right under this heading.") var heading: String?
    @Flag(help: "Only show the change.") var dryRun = false

    func execute(in context: CommandContext) throws -> ExitStatus {
        try NoteEdit.run(self, dryRun: dryRun, context: context) { editor in
            try editor.planInsert(try NoteEdit.text(text, command: "prepend"), into: NoteEdit.unmarked(note), heading: heading.map(NoteEdit.unmarked), atStart: true)
        }
    }
}

struct SetCommand: RhizomeSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Set frontmatter properties of a note (KEY=VALUE, typed as Obsidian reads YAML).",
        discussion: """
            VALUE is typed as Obsidian's properties read it: true/false a checkbox, 12 a number, 2026-11-25 a date, \
            [a, b] a list, [[Note]] a link (quoted for you), anything else text. Only those lines change: comments, \
            key order and the body are kept. When the note has a schema, a change that makes it invalid is refused \
            with the schema's message (--force writes it anyway).
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The note (resolved like a wikilink).", completion: NoteCompletion.kind) var note: String
    @Argument(help: "KEY=VALUE assignments.") var assignments: [String]
    @Flag(help: "Write even when the note's schema says the result is invalid.") var force = false
    @Flag(help: "Only show the change.") var dryRun = false

    func execute(in context: CommandContext) throws -> ExitStatus {
        let changes = try assignments.map { assignment -> (key: String, value: FrontmatterValue?) in
            guard let parsed = PropertyAssignment.parse(assignment) else {
                throw CLIError.invalidArgument("expected KEY=VALUE, got `\(assignment)`")
            }
            return (parsed.key, parsed.value)
        }
        guard !changes.isEmpty else { throw CLIError.invalidArgument("give at least one KEY=VALUE") }
        return try NoteEdit.run(self, dryRun: dryRun, context: context) { editor in
            try editor.planProperties(changes, of: note, force: force)
        }
    }
}

struct UnsetCommand: RhizomeSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "unset",
        abstract: "Remove frontmatter properties from a note.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The note (resolved like a wikilink).", completion: NoteCompletion.kind) var note: String
    @Argument(help: "The keys to remove.") var keys: [String]
    @Flag(help: "Write even when the note's schema says the result is invalid.") var force = false
    @Flag(help: "Only show the change.") var dryRun = false

    func execute(in context: CommandContext) throws -> ExitStatus {
        guard !keys.isEmpty else { throw CLIError.invalidArgument("give at least one key to remove") }
        return try NoteEdit.run(self, dryRun: dryRun, context: context) { editor in
            try editor.planProperties(keys.map { ($0, nil) }, of: note, force: force)
        }
    }
}

/// What the single-note commands share: plan, apply unless a dry run, print.
enum NoteEdit {
    static func run(
        _ command: some RhizomeSubcommand, dryRun: Bool, context: CommandContext, plan makePlan: (VaultEditor) throws -> NoteEditPlan
    ) throws -> ExitStatus {
        let session = try VaultSession.open(command.global, context: context, writes: true)
        let editor = try session.editor()
        let plan = try makePlan(editor)
        let changed = plan.oldBytes != plan.newBytes
        let operation = dryRun || !changed ? nil : try editor.apply(plan)
        if command.global.json {
            command.printJSON(Output(plan: plan, operation: operation, changed: changed), vault: session.vaultPath, context: context)
            return .success
        }
        if dryRun, let old = plan.oldBytes { context.print(UnifiedDiff.render(old: old, new: plan.newBytes, path: plan.path), terminator: "") }
        if !changed {
            context.print("nothing to change in \(plan.path)")
        } else if let operation {
            context.print("\(plan.summary). Undo with `rhizome undo --write` (operation \(operation.id)).")
        } else {
            context.print("would have \(plan.summary). Nothing was changed.")
        }
        return .success
    }

    /// TEXT (its words joined by spaces), or standard input for `-`. TEXT takes every word the command does
    /// not know (so `- item` is text), which would make a mistyped or borrowed option part of the note:
    /// a word that looks like a long option (`--write`, `--force=1`) is refused instead. `command` is nil for
    /// an option's single value (`daily --append`), which is text as given.
    static func text(_ words: [String], command: String?) throws -> String {
        guard !words.isEmpty else { throw CLIError.invalidArgument("give the text to add, or - to read it from standard input") }
        guard words != ["-"] else { return try standardInput() }
        if let command, let option = words.first(where: looksLikeOption) {
            throw CLIError.invalidArgument(
                "`\(option)` is not an option of `rhizome \(command)` (it writes unless --dry-run); nothing was added. "
                    + "To add text that is a word starting with `--`, read it from standard input: `echo '\(option)' | rhizome \(command) NOTE -`")
        }
        return words.map(unmarked).joined(separator: " ")
    }

    /// Marks a word of dashes (`---`) as text for the argument parser (`CLI.keepingRulesAsText`): a NUL,
    /// which no command-line argument can hold (a private-use character can: U+F8FF is the Apple logo that
    /// macOS types with ⌥⇧K).
    static let ruleMark = "\u{0}"

    /// `word` without `ruleMark`.
    static func unmarked(_ word: String) -> String {
        word.hasPrefix(ruleMark) ? String(word.dropFirst(ruleMark.count)) : word
    }

    /// `--name` or `--name=value`: two dashes, a letter, then letters, digits and dashes (not `---` or `-- done`).
    static func looksLikeOption(_ word: String) -> Bool {
        guard word.hasPrefix("--"), let first = word.dropFirst(2).first, first.isASCII, first.isLetter else { return false }
        let name = word.dropFirst(2).prefix { $0 != "=" }
        return name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
    }

    static func standardInput() throws -> String {
        let data = FileHandle.standardInput.readDataToEndOfFile()
        guard let text = String(data: data, encoding: .utf8) else { throw CLIError.invalidArgument("standard input is not UTF-8 text") }
        return text
    }

    struct Output: Encodable {
        var path: String
        var summary: String
        var changed: Bool
        var written: Bool
        var hash: String
        @NullEncoded var operation: String?

        init(plan: NoteEditPlan, operation: VaultOperation?, changed: Bool) {
            path = plan.path
            summary = plan.summary
            self.changed = changed
            written = operation != nil
            hash = plan.newHash
            self.operation = operation?.id
        }

        private enum CodingKeys: String, CodingKey { case path, summary, changed, written, hash, operation }

    }
}

struct TaskCommand: RhizomeSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "task",
        abstract: "Mark a task done, open, or with another status character (NOTE:LINE, as `tasks` lists them).",
        discussion: "Only the character between the brackets changes. `rhizome tasks` prints each task's file and line.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The task: NOTE:LINE (the note resolved like a wikilink).") var task: String
    @Flag(help: "Mark it done (`x`).") var done = false
    @Flag(help: "Mark it open (a space).") var undone = false
    @Option(help: "Set this status character (`-` cancelled, `/` in progress, …).") var status: String?
    @Flag(help: "Only show the change.") var dryRun = false

    func execute(in context: CommandContext) throws -> ExitStatus {
        guard let colon = task.lastIndex(of: ":"), let line = Int(task[task.index(after: colon)...]), line > 0 else {
            throw CLIError.invalidArgument("give the task as NOTE:LINE (e.g. `Inbox:12`), as `rhizome tasks` lists them")
        }
        let chosen = [done ? "x" : nil, undone ? " " : nil, status].compactMap { $0 }
        guard chosen.count == 1, let character = chosen[0].first, chosen[0].count == 1 else {
            throw CLIError.invalidArgument("give exactly one of --done, --undone or --status C (one character)")
        }
        let note = String(task[..<colon])
        return try NoteEdit.run(self, dryRun: dryRun, context: context) { editor in
            try editor.planTaskStatus(character, note: note, line: line)
        }
    }
}

struct DailyCommand: RhizomeSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "daily",
        abstract: "Open or create the day's note where Obsidian's daily notes settings put it; print its path.",
        discussion: """
            Uses .obsidian/daily-notes.json (folder, Moment.js format, template), or the Periodic Notes plugin's \
            daily settings when they are enabled. A new note starts from the template with {{date}}, {{time}}, \
            {{title}} and {{date:FORMAT}} filled as Obsidian's Templates plugin fills them. Never overwrites; \
            journaled, so `rhizome undo --write` moves a new note to the trash.
            """)

    @OptionGroup var global: GlobalOptions
    @Option(help: "The day: today (default), yesterday, tomorrow, +N or -N days, or YYYY-MM-DD.") var date = "today"
    @Option(parsing: .unconditional, help: "Text to add at the end of the note (a list item `- …` too; - reads standard input).") var append: String?

    func execute(in context: CommandContext) throws -> ExitStatus {
        guard let day = VaultEditor.day(date) else {
            throw CLIError.invalidArgument("--date takes today, yesterday, tomorrow, +N or -N days, or YYYY-MM-DD (got `\(date)`)")
        }
        let session = try VaultSession.open(global, context: context, writes: true)
        let editor = try session.editor()
        let daily = try editor.planDaily(for: day)
        if let problem = daily.templateProblem { context.printError("warning: " + problem) }
        if let create = daily.create { try editor.apply(create) }
        if let append {
            try editor.apply(try editor.planInsert(try NoteEdit.text([append], command: nil), into: daily.path))
        }
        if global.json {
            printJSON(Output(path: daily.path, absolutePath: session.vaultPath + "/" + daily.path, created: daily.create != nil, appended: append != nil),
                      vault: session.vaultPath, context: context)
        } else {
            context.print(daily.path)
        }
        return .success
    }

    struct Output: Encodable {
        var path: String
        var absolutePath: String
        var created: Bool
        var appended: Bool
    }
}
