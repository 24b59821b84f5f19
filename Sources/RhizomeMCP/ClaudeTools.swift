import Foundation
import MCP
import RhizomeCore
import RhizomeOperations
import RhizomeStore

/// The `explore` tool: `rhizome explore` for an agent, through the same operation (`ExploreOperation`):
/// the vault's most relevant notes sent to a fast model, which answers in 2–4 sentences citing them as
/// `[[wikilinks]]`. It costs API usage: the key comes from the server's environment (`ANTHROPIC_API_KEY`),
/// the vault's budget applies and every call goes in the usage ledger. `dryRun` returns the notes, the
/// exact prompt and the estimate without calling the API. Not a write tool: it changes nothing in the vault.
enum ClaudeTools {
    static var definitions: [Tool] { [explore] }

    static func handles(_ name: String) -> Bool { name == "explore" }

    static let explore = Tool(
        name: "explore", title: "Ask the vault (a model answers)",
        description: """
            A short answer (2–4 sentences) to a question about the vault, written by a fast Claude model from the notes \
            `relevant_notes` finds, each claim citing its note as a [[wikilink]]: what `rhizome explore` prints. Costs API \
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

    /// What a dry run returns: the call as `explore --dry-run --json` describes it, and the search.
    struct DryRun: Encodable, Sendable {
        var call: PromptPlan
        var searchWords: [String]
        var scores: [IndexStore.RelevantNote]
    }

    /// Plans on a pooled read connection (`plan` reads the index), then asks the model outside the pool,
    /// so a slow answer holds no connection. Retries and warnings (`notice`) come back in the result's `note`.
    static func call(
        _ name: String, arguments: ToolArguments, vaultPath: String, reader: ReaderPool, deadline: QueryDeadline,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws -> ToolOutput {
        guard handles(name) else { throw ToolError.unknownTool(name) }
        let question = try arguments.string("question")
        guard !question.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw ToolError.invalidArgument("`question` is empty") }
        let model = arguments.optionalString("model")
        let dryRun = try arguments.bool("dryRun", default: false)
        let settings = try VaultConfig.load(vaultRoot: vaultPath).claude
        let notices = Locked<[String]>([])
        let plan = try await reader.perform(deadline) { store in
            try ExploreOperation(
                store: store, vaultPath: vaultPath, settings: settings, question: question, choice: .init(model: model),
                environment: environment, notice: { line in notices.withLock { $0.append(line) } }
            ).plan()
        }
        if dryRun {
            let scores = plan.relevant.filter { note in plan.included.contains { $0.path == note.path } }
            return ToolOutput(DryRun(call: plan.call, searchWords: plan.searchWords, scores: scores), total: nil, truncated: false)
        }
        let answer = try await plan.answer { _ in }
        let said = notices.withLock { $0 }
        return ToolOutput(answer, total: nil, truncated: false, note: said.isEmpty ? nil : said.joined(separator: "; "))
    }
}
