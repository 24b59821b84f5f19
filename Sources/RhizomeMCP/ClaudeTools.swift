import Foundation
import MCP
import RhizomeClaude
import RhizomeCore
import RhizomeOperations
import RhizomeStore

/// The tools that ask Claude, through the operations the commands use. `explore` (`ExploreOperation`): the
/// vault's most relevant notes sent to a fast model, which answers in 2–4 sentences citing them as
/// `[[wikilinks]]`; it changes nothing in the vault. `reflect` (`ReflectOperation`): a reflection note on
/// a period's notes by a stronger model, written through the journal (so `undo` takes it back), listed
/// only when the server may write. Both cost API usage: the key comes from the server's environment
/// (`ANTHROPIC_API_KEY`), the vault's budget applies and every call goes in the usage ledger; `dryRun`
/// shows the notes, the exact prompt and the estimate without calling the API.
enum ClaudeTools {
    static func definitions(readOnly: Bool) -> [Tool] { readOnly ? [explore] : [explore, reflect] }

    static func handles(_ name: String) -> Bool { name == "explore" || name == "reflect" }

    /// Whether the tool writes to the vault (refused by a `--read-only` server).
    static func writes(_ name: String) -> Bool { name == "reflect" }

    static let explore = Tool(
        name: "explore", title: "Ask the vault (a model answers)",
        description: """
            A short answer (2–4 sentences) to a question about the vault, written by a fast Claude model from the notes \
            `relevant_notes` finds, each claim citing its note as a [[wikilink]]: what `rhizome explore` prints. A question in \
            Chinese, Japanese or Korean asked of a vault whose note names are not is first turned into English search words \
            by one short call (`claude: explore: translate:` in the vault config; returned as `translation`). Costs API \
            usage (the server's ANTHROPIC_API_KEY; the vault's budget applies; logged in the usage ledger); `dryRun` returns \
            the notes, the exact prompt and the estimated cost without calling the API. Returns answer, sources (number, \
            path, link, cited), model, usage, costUSD, stopReason and attempts. Prefer `relevant_notes` and `read_note` \
            when you can read the notes yourself.
            """,
        inputSchema: .object([
            "type": "object",
            "properties": .object([
                "question": VaultTools.string("The question, as you would ask it (English, Chinese or Japanese)."),
                "model": VaultTools.string("A model id instead of the vault config's (`claude: explore: model:`) or the default."),
                "dryRun": .object(["type": "boolean", "description": "Only pick the notes and build the prompt; send nothing (default false)."]),
            ]),
            "required": ["question"], "additionalProperties": false,
        ]),
        annotations: Tool.Annotations(title: "Ask the vault (a model answers)", readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: true))

    static let reflect = Tool(
        name: "reflect", title: "Write a reflection note (a model writes it)",
        description: """
            Writes a reflection note (150–200 words by a stronger Claude model) on the notes created or changed in a period, \
            linking them as evidence: what `rhizome reflect` does. The note goes in the reflections folder \
            (`Reflections/` unless the vault config says otherwise); an existing reflection of the period is refused unless \
            `force` (and even then only replaced when unedited; an edited one gets a new version beside it). Journaled: \
            `undo` takes it back. Costs API usage (the server's ANTHROPIC_API_KEY; the vault's budget; the usage ledger); \
            `dryRun` returns the period's notes, the target path and action, the exact prompt and the estimate, and sends \
            nothing. Returns path, action, answer, sources, tokens, costUSD and model.
            """,
        inputSchema: .object([
            "type": "object",
            "properties": .object([
                "since": VaultTools.string("The period: the last N days (`7d`) or weeks (`2w`), today included. Default `7d`."),
                "from": VaultTools.string("The first day, YYYY-MM-DD (with `to`, instead of `since`)."),
                "to": VaultTools.string("The last day, YYYY-MM-DD (with `from`)."),
                "force": .object(["type": "boolean", "description": "Replace the period's reflection when it was not edited since it was written (default false)."]),
                "model": VaultTools.string("A model id instead of the vault config's (`claude: reflect: model:`) or the default."),
                "dryRun": .object(["type": "boolean", "description": "Only gather the notes and build the prompt; send and write nothing (default false)."]),
            ]),
            "additionalProperties": false,
        ]),
        annotations: Tool.Annotations(title: "Write a reflection note (a model writes it)", readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true))

    /// What a reflect dry run returns: the call, the period and where the note would go.
    struct ReflectDryRun: Encodable, Sendable {
        var call: PromptPlan
        var period: String
        var path: String
        var action: String
    }

    /// What a dry run returns: the call as `explore --dry-run --json` describes it, and the search.
    struct DryRun: Encodable, Sendable {
        var call: PromptPlan
        var searchWords: [String]
        var scores: [IndexStore.RelevantNote]
        /// Whether a real call would first turn the question into English search words (the notes shown
        /// are found without them).
        var translatesFirst: Bool
        /// What that call can cost at most; null when there is none.
        @NullEncoded var translationEstimatedCostUSD: Double?
    }

    /// Plans on a pooled read connection (`plan` reads the index), then asks the model outside the pool,
    /// so a slow answer holds no connection. Retries and warnings (`notice`) come back in the result's `note`.
    static func call(
        _ name: String, arguments: ToolArguments, vaultPath: String, reader: ReaderPool, deadline: QueryDeadline,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws -> ToolOutput {
        guard handles(name) else { throw ToolError.unknownTool(name) }
        if name == "reflect" { return try await reflect(arguments: arguments, vaultPath: vaultPath, reader: reader, deadline: deadline, environment: environment) }
        let question = try arguments.string("question")
        guard !question.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw ToolError.invalidArgument("`question` is empty") }
        let model = arguments.optionalString("model")
        let dryRun = try arguments.bool("dryRun", default: false)
        let settings = try VaultConfig.load(vaultRoot: vaultPath).claude
        let notices = Locked<[String]>([])
        @Sendable func operation(_ store: IndexStore) -> ExploreOperation {
            ExploreOperation(
                store: store, vaultPath: vaultPath, settings: settings, question: question, choice: .init(model: model),
                environment: environment, notice: { line in notices.withLock { $0.append(line) } })
        }
        // A question the vault shares no script with is first turned into English search words (one short
        // call, made outside the pool), as `rhizome explore` does.
        let (translator, translates) = try await reader.perform(deadline) { store in
            let explore = operation(store)
            return (explore.translator, try explore.translatesQuestion())
        }
        let translation = translates && !dryRun ? try await translator.searchWords() : nil
        // The model call took time that was not the index's: the plan's read gets the full limit again.
        let planDeadline = translation == nil ? deadline : deadline.restarted()
        let plan = try await reader.perform(planDeadline) { store in try operation(store).plan(translation: translation) }
        if dryRun {
            let scores = plan.relevant.filter { note in plan.included.contains { $0.path == note.path } }
            return ToolOutput(DryRun(
                call: plan.call, searchWords: plan.searchWords, scores: scores, translatesFirst: translates,
                translationEstimatedCostUSD: translates ? translator.estimate.costUSD : nil), total: nil, truncated: false)
        }
        let answer = try await plan.answer { _ in }
        let said = notices.withLock { $0 }
        return ToolOutput(answer, total: nil, truncated: false, note: said.isEmpty ? nil : said.joined(separator: "; "))
    }

    /// Plans on a pooled read connection, asks the model outside the pool, then writes the note through
    /// the journal (the operation does both).
    private static func reflect(
        arguments: ToolArguments, vaultPath: String, reader: ReaderPool, deadline: QueryDeadline, environment: [String: String]
    ) async throws -> ToolOutput {
        let period = try period(arguments)
        let force = try arguments.bool("force", default: false)
        let dryRun = try arguments.bool("dryRun", default: false)
        let model = arguments.optionalString("model")
        let settings = try VaultConfig.load(vaultRoot: vaultPath).claude
        let notices = Locked<[String]>([])
        let plan = try await reader.perform(deadline) { store in
            try ReflectOperation(
                store: store, vaultPath: vaultPath, settings: settings, period: period, force: force, choice: .init(model: model),
                environment: environment, notice: { line in notices.withLock { $0.append(line) } }
            ).plan()
        }
        if dryRun {
            let target = ReflectDryRun(call: plan.call, period: period.description, path: plan.target.path, action: plan.target.action.rawValue)
            return ToolOutput(target, total: nil, truncated: false)
        }
        let written = try await plan.write { _ in }
        let said = notices.withLock { $0 }
        return ToolOutput(written, total: nil, truncated: false, note: said.isEmpty ? nil : said.joined(separator: "; "))
    }

    /// `since`, or `from` with `to`, as `rhizome reflect` reads them.
    private static func period(_ arguments: ToolArguments) throws -> Reflect.Period {
        let since = arguments.optionalString("since"), from = arguments.optionalString("from"), to = arguments.optionalString("to")
        if since != nil && (from != nil || to != nil) { throw ToolError.invalidArgument("give either `since` or `from` and `to`") }
        guard let from, let to else {
            if from != nil || to != nil { throw ToolError.invalidArgument("`from` and `to` go together") }
            guard let period = Reflect.Period.parseSince(since ?? "7d") else {
                throw ToolError.invalidArgument("`since` takes a number of days or weeks, like `7d` or `2w`")
            }
            return period
        }
        for day in [from, to] where Reflect.Period.date(day) == nil { throw ToolError.invalidArgument("`\(day)` is not a date; write it as YYYY-MM-DD") }
        if from > to { throw ToolError.invalidArgument("`from` \(from) comes after `to` \(to)") }
        return Reflect.Period(fromDay: from, toDay: to)
    }
}
