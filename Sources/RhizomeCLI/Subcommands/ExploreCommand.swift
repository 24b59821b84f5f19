import ArgumentParser
import Foundation
import RhizomeClaude
import RhizomeCore
import RhizomeStore

/// `rhizome explore "QUESTION"`: answers from the most relevant notes, streamed, with [[wikilink]] citations.
struct ExploreCommand: RhizomeSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "explore",
        abstract: "Ask your notes: a short answer from the most relevant notes, streamed, citing them as [[wikilinks]].",
        discussion: """
            Picks at most 20 notes (full-text rank over the question's words, boosted by links among the best \
            matches and by recency), sends them as numbered excerpts to a fast model (default \(Explore.defaultModel), \
            at most \(Explore.defaultMaxTokens) output tokens, temperature \(Explore.defaultTemperature)) and streams its \
            2–4 sentence answer. Needs ANTHROPIC_API_KEY (or, on macOS, the Keychain item rhizome/anthropic); \
            --dry-run shows the notes, the exact prompt and an estimated cost without calling the API.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The question.")
    var question: String

    @Flag(name: .long, help: "Show the selected notes, the exact prompt and an estimated cost; do not call the API.")
    var dryRun = false

    @Option(name: .long, help: ArgumentHelp("The model (default \(Explore.defaultModel), or `claude: explore: model:` in the vault config).", valueName: "id"))
    var model: String?

    @Option(name: .long, help: ArgumentHelp("api (ANTHROPIC_API_KEY) or claude-cli (the Claude Code CLI and its login; no token limit or temperature).", valueName: "backend"))
    var backend: ClaudeCall.Backend = .api

    @Flag(name: .customLong("pass-api-key"), help: "With --backend claude-cli: let `claude` see ANTHROPIC_API_KEY (it then bills that key, not your subscription; by default the key is removed from its environment).")
    var passAPIKey = false

    func validate() throws {
        if question.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { throw ValidationError("the question is empty") }
    }

    func execute(in context: CommandContext) throws -> ExitStatus {
        let session = try VaultSession.open(global, context: context)
        let config = try VaultConfig.load(vaultRoot: session.vaultPath)
        let call = ClaudeCall(
            feature: "explore", backend: backend, passesAPIKey: passAPIKey, defaults: (Explore.defaultModel, Explore.defaultMaxTokens, Explore.defaultTemperature, Explore.systemPrompt),
            settings: config.claude, configured: config.claude.explore, modelOverride: model, context: context)
        let relevant = try session.store.relevantNotes(for: question)
        let (prompt, included) = Explore.prompt(question: question, notes: ClaudeCall.sources(relevant, vault: session.vaultPath))

        if dryRun {
            let plan = call.plan(prompt, notes: included)
            if global.json {
                printJSON(DryRun(plan: plan, scores: relevant.filter { note in included.contains { $0.path == note.path } },
                                 searchWords: IndexStore.searchWords(for: question)),
                          vault: session.vaultPath, context: context)
            } else {
                context.print("Searched for: " + IndexStore.searchWords(for: question).joined(separator: ", "))
                context.print("Notes (\(included.count)):")
                for note in included {
                    let score = relevant.first { $0.path == note.path }?.score ?? 0
                    context.print(String(format: "  [%d] %@  (score %.2f, %@)", note.number, note.path, score, note.date))
                }
                plan.print(to: context)
            }
            return .success
        }
        guard !included.isEmpty else {
            throw CLIError.invalidArgument("no note matches the words of the question; try other words (`rhizome search` finds notes by word)")
        }
        let links = Dictionary(uniqueKeysWithValues: included.map { ($0.number, ClaudeCall.linkTarget($0, store: session.store)) })
        let printer = StreamPrinter(context: context, links: links, show: !global.json)
        let (answer, cost) = try call.stream(prompt, vault: session.vaultPath) { printer.write($0) }
        let shown = printer.finish()
        let cited = printer.cited
        let model = answer.model.isEmpty ? call.model : answer.model
        if global.json {
            printJSON(ExploreResult(
                answer: shown, model: model, stopReason: answer.stopReason,
                sources: included.map { ExploreResult.Source(number: $0.number, path: $0.path, link: "[[\(links[$0.number]!)]]", cited: cited.contains($0.number)) },
                usage: .init(inputTokens: answer.usage.inputTokens, outputTokens: answer.usage.outputTokens,
                             cacheReadInputTokens: answer.usage.cacheReadInputTokens, cacheCreationInputTokens: answer.usage.cacheCreationInputTokens),
                costUSD: cost, attempts: answer.attempts), vault: session.vaultPath, context: context)
        } else {
            context.print("\n")
            let sources = included.filter { cited.contains($0.number) }
            if !sources.isEmpty {
                context.print("Sources:")
                for note in sources { context.print("  [[\(links[note.number]!)]] — \(note.path)") }
            }
            let usage = "\((answer.usage.inputTokens ?? 0).grouped) in / \((answer.usage.outputTokens ?? 0).grouped) out tokens"
            context.printError("\(model) · \(usage)" + (cost.map { String(format: " · $%.4f", $0) } ?? ""))
        }
        return .success
    }

    /// `--dry-run --json`: the plan, and how each note scored.
    struct DryRun: Encodable {
        var plan: PromptPlan
        var scores: [IndexStore.RelevantNote]
        /// What the notes were searched for: the question's words and the English words of its Chinese
        /// or Japanese terms.
        var searchWords: [String]

        func encode(to encoder: Encoder) throws {
            try plan.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(scores, forKey: .scores)
            try container.encode(searchWords, forKey: .searchWords)
        }

        enum CodingKeys: String, CodingKey { case scores, searchWords }
    }

    struct ExploreResult: Encodable {
        struct Source: Encodable {
            var number: Int
            var path: String
            var link: String
            var cited: Bool
        }
        struct Usage: Encodable {
            @NullEncoded var inputTokens: Int?
            @NullEncoded var outputTokens: Int?
            @NullEncoded var cacheReadInputTokens: Int?
            @NullEncoded var cacheCreationInputTokens: Int?

            enum CodingKeys: String, CodingKey { case inputTokens, outputTokens, cacheReadInputTokens, cacheCreationInputTokens }
        }
        var answer: String
        var model: String
        @NullEncoded var stopReason: String?
        var sources: [Source]
        var usage: Usage
        @NullEncoded var costUSD: Double?
        var attempts: Int

        enum CodingKeys: String, CodingKey { case answer, model, stopReason, sources, usage, costUSD, attempts }
    }
}

/// Writes streamed text as it arrives, with `[n]` citations turned into `[[wikilinks]]`.
final class StreamPrinter: @unchecked Sendable {
    private let context: CommandContext
    private let show: Bool
    private let lock = NSLock()
    private var rewriter: CitationRewriter
    private var text = ""

    init(context: CommandContext, links: [Int: String], show: Bool) {
        self.context = context
        self.show = show
        rewriter = CitationRewriter(links: links)
    }

    func write(_ piece: String) {
        lock.withLock {
            let ready = rewriter.feed(piece)
            text += ready
            if show && !ready.isEmpty { context.standardOutput.write(ready) }
        }
    }

    /// The whole answer as shown.
    func finish() -> String {
        lock.withLock {
            let rest = rewriter.finish()
            text += rest
            if show && !rest.isEmpty { context.standardOutput.write(rest) }
            return text
        }
    }

    var cited: [Int] { lock.withLock { rewriter.cited } }
}
