import ArgumentParser
import Foundation
import RhizomeClaude
import RhizomeCore
import RhizomeOperations

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
    var backend: ClaudeBackend = .api

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
        let reflect = ReflectOperation(
            store: session.store, vaultPath: session.vaultPath, settings: config.claude, period: period, force: force,
            choice: .init(backend: backend, model: model, passesAPIKey: passAPIKey), environment: context.environment,
            notice: { context.printError($0) })
        let plan = try reflect.plan()

        if dryRun {
            if global.json {
                printJSON(MergedJSON(plan.call, DryRunTarget(period: period.description, path: plan.target.path, action: plan.target.action.rawValue)),
                          vault: session.vaultPath, context: context)
            } else {
                context.print("Period \(period.description): \(plan.noteCount) note\(plan.noteCount == 1 ? "" : "s") created or changed, \(plan.included.count) sent")
                for note in plan.included { context.print("  [\(note.number)] \(note.path)  (\(note.date))") }
                context.print("\nWould write \(plan.target.path) (\(plan.target.action.explanation))")
                plan.call.print(to: context)
            }
            return .success
        }
        let show = !global.json
        let written = try AsyncWork.wait { try await plan.write { piece in if show { context.standardOutput.write(piece) } } }
        if global.json {
            printJSON(written, vault: session.vaultPath, context: context)
        } else {
            context.print("\n\nWrote \(written.path) (\(plan.target.action.explanation))")
            context.printError("\(written.model) · \((written.inputTokens ?? 0).grouped) in / \((written.outputTokens ?? 0).grouped) out tokens"
                + (written.costUSD.map { String(format: " · $%.4f", $0) } ?? ""))
        }
        return .success
    }

    /// `--dry-run --json`, beside the plan's keys: the period and what would be written where.
    struct DryRunTarget: Encodable {
        var period: String
        var path: String
        var action: String
    }
}
