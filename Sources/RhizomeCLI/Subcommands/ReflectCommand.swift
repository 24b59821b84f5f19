import ArgumentParser
import Foundation
import RhizomeClaude
import RhizomeCore
import RhizomeStore

/// `rhizome reflect`: a reflection on the notes of a period, written back into the vault as a note.
struct ReflectCommand: RhizomeSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "reflect",
        abstract: "Write a short reflection on the notes created or changed in a period into the vault (Reflections/).",
        discussion: """
            Gathers the notes created (a `created` or `date` property) or changed in the period, asks a stronger \
            model (default \(Reflect.defaultModel), at most \(Reflect.defaultMaxTokens) output tokens, temperature \
            \(Reflect.defaultTemperature)) for a reflection of about 150–200 words citing them, streams it, and writes \
            it as a `reflection` note whose body links its evidence. A reflection of the same period that you have \
            edited is never replaced: a new version is written beside it; an unedited one is replaced only with --force.
            """)

    @OptionGroup var global: GlobalOptions

    @Option(name: .long, help: ArgumentHelp("The period: the last N days (`7d`) or weeks (`2w`), today included. Default 7d.", valueName: "Nd"))
    var since: String?

    @Option(name: .long, help: ArgumentHelp("The first day, YYYY-MM-DD (with --to).", valueName: "date"))
    var from: String?

    @Option(name: .long, help: ArgumentHelp("The last day, YYYY-MM-DD (with --from).", valueName: "date"))
    var to: String?

    @Flag(name: .long, help: "Show the notes, the exact prompt, the note's path and an estimated cost; call nothing, write nothing.")
    var dryRun = false

    @Flag(name: .long, help: "Replace an existing reflection of the period that has not been edited since it was written.")
    var force = false

    @Option(name: .long, help: ArgumentHelp("The model (default \(Reflect.defaultModel), or `claude: reflect: model:` in the vault config).", valueName: "id"))
    var model: String?

    @Option(name: .long, help: ArgumentHelp("api (ANTHROPIC_API_KEY) or claude-cli (the Claude Code CLI and its login; no token limit or temperature).", valueName: "backend"))
    var backend: ClaudeCall.Backend = .api

    @Flag(name: .customLong("pass-api-key"), help: "With --backend claude-cli: let `claude` see ANTHROPIC_API_KEY (it then bills that key, not your subscription; by default the key is removed from its environment).")
    var passAPIKey = false

    func validate() throws {
        if since != nil && (from != nil || to != nil) { throw ValidationError("give either --since or --from and --to") }
        if (from == nil) != (to == nil) { throw ValidationError("--from and --to go together") }
        if let since, Reflect.Period.parseSince(since) == nil { throw ValidationError("--since takes a number of days or weeks, like 7d or 2w") }
        for day in [from, to].compactMap({ $0 }) where Reflect.Period.date(day) == nil {
            throw ValidationError("`\(day)` is not a date; write it as YYYY-MM-DD")
        }
        if let from, let to, from > to { throw ValidationError("--from \(from) comes after --to \(to)") }
    }

    func execute(in context: CommandContext) throws -> ExitStatus {
        let period = from.map { Reflect.Period(fromDay: $0, toDay: to!) } ?? Reflect.Period.parseSince(since ?? "7d")!
        let session = try VaultSession.open(global, context: context)
        let config = try VaultConfig.load(vaultRoot: session.vaultPath)
        let folder = config.claude.reflect.folder ?? Reflect.defaultFolder
        let call = ClaudeCall(
            feature: "reflect", backend: backend, passesAPIKey: passAPIKey, defaults: (Reflect.defaultModel, Reflect.defaultMaxTokens, Reflect.defaultTemperature, Reflect.systemPrompt),
            settings: config.claude, configured: config.claude.reflect, modelOverride: model, context: context)
        guard let bounds = period.bounds() else { throw CLIError.invalidArgument("the period \(period.description) has no days") }
        let notes = try session.store.notesInPeriod(from: bounds.from, to: bounds.to, fromDay: period.fromDay, toDay: period.toDay, excludingFolder: folder)
        let (prompt, included) = Explore.prompt(
            question: "Write the reflection on my notes from \(period.description).", notes: ClaudeCall.sources(notes, vault: session.vaultPath),
            tokenBudget: Reflect.defaultContextTokens)
        let target = Self.target(folder: folder, period: period, vault: session.vaultPath, force: force)

        if dryRun {
            let plan = call.plan(prompt, notes: included)
            if global.json {
                printJSON(DryRun(plan: plan, period: period.description, path: target.path, action: target.action.rawValue), vault: session.vaultPath, context: context)
            } else {
                context.print("Period \(period.description): \(notes.count) note\(notes.count == 1 ? "" : "s") created or changed, \(included.count) sent")
                for note in included { context.print("  [\(note.number)] \(note.path)  (\(note.date))") }
                context.print("\nWould write \(target.path) (\(target.action.explanation))")
                plan.print(to: context)
            }
            return .success
        }
        guard !included.isEmpty else {
            throw CLIError.invalidArgument("no note was created or changed in \(period.description); try a longer period (--since 30d)")
        }
        if case .refuse(let reason) = target.action.decision { throw CLIError.invalidArgument(reason) }

        let links = Dictionary(uniqueKeysWithValues: included.map { ($0.number, ClaudeCall.linkTarget($0, store: session.store)) })
        let printer = StreamPrinter(context: context, links: links, show: !global.json)
        let (answer, cost) = try call.stream(prompt, vault: session.vaultPath) { printer.write($0) }
        let text = printer.finish()
        let model = answer.model.isEmpty ? call.model : answer.model
        let note = Reflect.note(period: period, text: text, sources: included.map { links[$0.number]! }, model: model, created: Date(), usage: answer.usage, costUSD: cost)
        let written: (relative: String, absolute: String)
        do {
            written = try target.write(Array(note.utf8))
        } catch let error as FileWriteError where [.alreadyExists(path: target.absolute), .changedOnDisk(path: target.absolute)].contains(error) {
            // The note appeared or changed while the reflection was being written: keep both (the answer is paid for).
            let next = Self.target(folder: folder, period: period, vault: session.vaultPath, force: false, forceNewVersion: true)
            written = try next.write(Array(note.utf8))
            context.printError("note: \(target.path) changed while the reflection was being written; it is kept, and the reflection saved as \(next.path)")
        }
        if global.json {
            printJSON(Result(path: written.relative, action: target.action.rawValue, answer: text, sources: included.map { "[[\(links[$0.number]!)]]" },
                             inputTokens: answer.usage.inputTokens, outputTokens: answer.usage.outputTokens, costUSD: cost, model: model),
                      vault: session.vaultPath, context: context)
        } else {
            context.print("\n\nWrote \(written.relative) (\(target.action.explanation))")
            context.printError("\(model) · \((answer.usage.inputTokens ?? 0).grouped) in / \((answer.usage.outputTokens ?? 0).grouped) out tokens"
                + (cost.map { String(format: " · $%.4f", $0) } ?? ""))
        }
        return .success
    }

    // MARK: Where the note goes

    /// What happens at the reflection's path.
    enum Action: String {
        case create, replace, newVersion = "new-version", refuse

        var explanation: String {
            switch self {
            case .create: return "a new note"
            case .replace: return "replacing the unedited reflection of this period (--force)"
            case .newVersion: return "a new version: the reflection of this period was edited since it was written, so it is kept"
            case .refuse: return "nothing: a reflection of this period exists; --force replaces it, since it was not edited"
            }
        }

        var decision: Decision { self == .refuse ? .refuse(explanation) : .write }
        enum Decision { case write, refuse(String) }
    }

    struct Target {
        var path: String
        var absolute: String
        var action: Action
        /// The bytes the existing note held when it was read (for a replace that must not race an edit).
        var existing: [UInt8]?

        func write(_ bytes: [UInt8]) throws -> (relative: String, absolute: String) {
            switch action {
            case .replace:
                try AtomicFileWriter.replace(absolute, expecting: existing ?? [], with: bytes)
            case .create, .newVersion:
                try AtomicFileWriter.create(absolute, bytes: bytes)
            case .refuse:
                throw CLIError.invalidArgument(action.explanation)
            }
            return (path, absolute)
        }
    }

    /// The period's latest reflection (`… (2).md` after a first one was edited): replaced only with --force and
    /// only while unedited; when edited, the next version is written beside it. Never a file Rhizome did not write.
    static func target(folder: String, period: Reflect.Period, vault: String, force: Bool, forceNewVersion: Bool = false) -> Target {
        func paths(_ version: Int) -> (relative: String, absolute: String) {
            let relative = folder + "/" + Reflect.fileName(for: period, version: version)
            return (relative, vault + "/" + relative)
        }
        func exists(_ version: Int) -> Bool {
            let path = paths(version).absolute
            return FileManager.default.fileExists(atPath: path) || (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil
        }
        guard exists(1) else { return Target(path: paths(1).relative, absolute: paths(1).absolute, action: .create) }
        var latest = 1
        while exists(latest + 1) { latest += 1 }
        let (relative, absolute) = paths(latest)
        if !forceNewVersion, let (text, _) = NoteText.read(vaultRoot: vault, path: relative), Reflect.isUnedited(text) {
            return force ? Target(path: relative, absolute: absolute, action: .replace, existing: Array(text.utf8))
                : Target(path: relative, absolute: absolute, action: .refuse)
        }
        let next = paths(latest + 1)
        return Target(path: next.relative, absolute: next.absolute, action: .newVersion)
    }

    /// `--dry-run --json`: the plan, the period and what would be written where.
    struct DryRun: Encodable {
        var plan: PromptPlan
        var period: String
        var path: String
        var action: String

        func encode(to encoder: Encoder) throws {
            try plan.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(period, forKey: .period)
            try container.encode(path, forKey: .path)
            try container.encode(action, forKey: .action)
        }

        enum CodingKeys: String, CodingKey { case period, path, action }
    }

    struct Result: Encodable {
        var path: String
        var action: String
        var answer: String
        var sources: [String]
        @NullEncoded var inputTokens: Int?
        @NullEncoded var outputTokens: Int?
        @NullEncoded var costUSD: Double?
        var model: String

        enum CodingKeys: String, CodingKey { case path, action, answer, sources, inputTokens, outputTokens, costUSD, model }
    }
}
