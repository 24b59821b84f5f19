import ArgumentParser
import Foundation
import RhizomeClaude
import RhizomeCore
import RhizomeOperations
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
            2–4 sentence answer. A question in Chinese, Japanese or Korean asked of a vault written in another \
            language is first turned into English search words by one short call to the same model (--translate, \
            or `claude: explore: translate:`). Needs ANTHROPIC_API_KEY (or, on macOS, the Keychain item \
            rhizome/anthropic); --dry-run shows the notes, the exact prompt and an estimated cost without calling the API.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The question.")
    var question: String

    @Flag(name: .long, help: "Show the selected notes, the exact prompt and an estimated cost; do not call the API.")
    var dryRun = false

    @Option(name: .long, help: ArgumentHelp("The model (default \(Explore.defaultModel), or `claude: explore: model:` in the vault config).", valueName: "id"))
    var model: String?

    @Option(name: .long, help: ArgumentHelp("api (ANTHROPIC_API_KEY) or claude-cli (the Claude Code CLI and its login; no token limit or temperature).", valueName: "backend"))
    var backend: ClaudeBackend = .api

    @Option(name: .long, help: ArgumentHelp(
        "auto (default): turn a question in Chinese, Japanese or Korean into English search words first, by one short call, when fewer than a fifth of the vault's note names (dates not counted) are in those scripts; always; never.",
        valueName: "mode"))
    var translate: ClaudeSettings.TranslateMode?

    @Flag(name: .customLong("pass-api-key"), help: "With --backend claude-cli: let `claude` see ANTHROPIC_API_KEY (it then bills that key, not your subscription; by default the key is removed from its environment).")
    var passAPIKey = false

    func validate() throws {
        if question.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { throw ValidationError("the question is empty") }
    }

    func execute(in context: CommandContext) throws -> ExitStatus {
        let session = try VaultSession.open(global, context: context)
        let config = try VaultConfig.load(vaultRoot: session.vaultPath)
        let explore = ExploreOperation(
            store: session.store, vaultPath: session.vaultPath, settings: config.claude, question: question,
            choice: .init(backend: backend, model: model, passesAPIKey: passAPIKey), translate: translate, environment: context.environment,
            notice: { context.printError($0) })
        let translates = try explore.translatesQuestion()

        if dryRun {
            // Nothing is sent: the notes are those of the question as written.
            let plan = try explore.plan()
            let estimate = translates ? explore.translator.estimate : nil
            if global.json {
                printJSON(MergedJSON(plan.call, DryRunScores(
                              scores: plan.relevant.filter { note in plan.included.contains { $0.path == note.path } }, searchWords: plan.searchWords,
                              translatesFirst: translates, translationEstimatedCostUSD: estimate?.costUSD)),
                          vault: session.vaultPath, context: context)
            } else {
                if let estimate {
                    context.print(String(format: "The question would first be turned into English search words by one call (about %d input tokens, at most %d output, at most $%.4f); the notes below are found without them.",
                                         estimate.inputTokens, Explore.translationMaxTokens, estimate.costUSD))
                }
                context.print("Searched for: " + plan.searchWords.joined(separator: ", "))
                context.print("Notes (\(plan.included.count)):")
                for note in plan.included {
                    context.print(String(format: "  [%d] %@  (score %.2f, %@)", note.number, note.path, plan.score(of: note), note.date))
                }
                plan.call.print(to: context)
            }
            return .success
        }
        let translator = explore.translator
        let translation = translates ? try AsyncWork.wait { try await translator.searchWords() } : nil
        if let translation, !global.json { context.printError("(searched also for: \(translation.searchWords))") }
        let plan = try explore.plan(translation: translation)
        let show = !global.json
        let answer = try AsyncWork.wait { try await plan.answer { piece in if show { context.standardOutput.write(piece) } } }
        if global.json {
            printJSON(answer, vault: session.vaultPath, context: context)
        } else {
            context.print("\n")
            let sources = answer.sources.filter(\.cited)
            if !sources.isEmpty {
                context.print("Sources:")
                for source in sources { context.print("  \(source.link) — \(source.path)") }
            }
            let usage = "\((answer.usage.inputTokens ?? 0).grouped) in / \((answer.usage.outputTokens ?? 0).grouped) out tokens"
            let translated = answer.translation?.costUSD.map { String(format: " (+ $%.4f for the translation)", $0) } ?? ""
            context.printError("\(answer.model) · \(usage)" + (answer.costUSD.map { String(format: " · $%.4f", $0) } ?? "") + translated)
        }
        return .success
    }

    /// `--dry-run --json`, beside the plan's keys: how each note scored.
    struct DryRunScores: Encodable {
        var scores: [IndexStore.RelevantNote]
        /// What the notes were searched for: the question's words and the English words of its Chinese
        /// or Japanese terms.
        var searchWords: [String]
        /// Whether a real run would first turn the question into English search words, and what that
        /// call can cost at most.
        var translatesFirst: Bool
        @NullEncoded var translationEstimatedCostUSD: Double?
    }
}

/// `--translate auto|always|never`.
extension ClaudeSettings.TranslateMode: ExpressibleByArgument {}

/// `--backend api|claude-cli` for `explore` and `reflect`.
extension ClaudeBackend: ExpressibleByArgument {}
