import ArgumentParser
import Foundation
import RhizomeClaude
import RhizomeCore
import RhizomeStore

/// What `explore` and `reflect` share: the feature's settings (built-in defaults, then the vault config,
/// then `--model`), the monthly budget, the API call with retries shown on standard error, and the
/// usage ledger.
struct ClaudeCall {
    /// Where the answer comes from.
    enum Backend: String, ExpressibleByArgument, CaseIterable {
        /// The Anthropic API with `ANTHROPIC_API_KEY`.
        case api
        /// The Claude Code CLI (`claude -p`), with its own login; it takes no token limit or temperature.
        case claudeCLI = "claude-cli"
    }

    let feature: String
    let backend: Backend
    let model: String
    let maxTokens: Int
    let temperature: Double
    let systemPrompt: String
    let budgetUSD: Double?
    let prices: [String: (input: Double, output: Double)]
    let context: CommandContext
    let ledger: UsageLedger
    /// Whether the Claude Code CLI backend sees `ANTHROPIC_API_KEY` (`--pass-api-key`).
    let passesAPIKey: Bool
    /// `claude: timeouts:` in seconds; nil keeps the client's default.
    let timeouts: (firstByte: Double?, idle: Double?, total: Double?)

    init(feature: String, backend: Backend = .api, passesAPIKey: Bool = false, defaults: (model: String, maxTokens: Int, temperature: Double, prompt: String),
         settings: ClaudeSettings, configured: ClaudeSettings.Feature, modelOverride: String?, context: CommandContext) {
        self.feature = feature
        self.backend = backend
        self.passesAPIKey = passesAPIKey
        timeouts = (settings.firstByteTimeout, settings.idleTimeout, settings.totalTimeout)
        model = modelOverride ?? configured.model ?? defaults.model
        maxTokens = configured.maxTokens ?? defaults.maxTokens
        temperature = configured.temperature ?? defaults.temperature
        systemPrompt = configured.prompt ?? defaults.prompt
        budgetUSD = settings.budgetUSD
        prices = settings.prices
        self.context = context
        ledger = UsageLedger.standard(environment: context.environment)
    }

    func request(_ userMessage: String) -> MessagesAPI.Request {
        MessagesAPI.Request(model: model, maxTokens: maxTokens, messages: [.init(role: .user, content: userMessage)], system: systemPrompt, temperature: temperature)
    }

    /// The most a call with this message can cost (estimated input, all of `maxTokens` output; a model
    /// without a known price at its family's or the highest known rate).
    func maximumCost(_ userMessage: String) -> (inputTokens: Int, costUSD: Double) {
        let input = Explore.estimatedTokens(systemPrompt) + Explore.estimatedTokens(userMessage)
        return (input, ModelPrices.cost(model: model, inputTokens: input, outputTokens: maxTokens, configured: prices).usd)
    }

    /// The text of the notes to quote: body after the frontmatter (at most 256 KB read), and the note's own
    /// date, else its modification day.
    static func sources(_ notes: [IndexStore.RelevantNote], vault: String) -> [(path: String, name: String, date: String, body: String)] {
        // A prompt takes at most 20 notes (some may turn out empty): never read a whole period's notes.
        notes.prefix(40).map { note in
            let text = NoteText.read(vaultRoot: vault, path: note.path, maxBytes: 256 * 1024)?.text ?? ""
            return (note.path, note.name, note.date ?? note.modified.map { Reflect.Period.day(Date(timeIntervalSince1970: Double($0) / 1e9)) } ?? "undated", String(NoteText.body(of: text)))
        }
    }

    /// The wikilink target for a quoted note: its name when that resolves to it in this vault (as Obsidian
    /// would resolve it), else its path without `.md`.
    static func linkTarget(_ note: Explore.ContextNote, store: IndexStore) -> String {
        if (try? store.resolveNote(note.name))?.path == note.path { return note.name }
        return note.path.hasSuffix(".md") ? String(note.path.dropLast(3)) : note.path
    }

    /// What `--dry-run` shows of a call: the model and its limits, the exact prompt, the estimate.
    func plan(_ userMessage: String, notes: [Explore.ContextNote]) -> PromptPlan {
        let (inputTokens, cost) = maximumCost(userMessage)
        return PromptPlan(model: model, maxTokens: maxTokens, temperature: temperature, notes: notes, system: systemPrompt, prompt: userMessage,
                          estimatedInputTokens: inputTokens, estimatedCostUSD: cost)
    }

    /// Checks the key and the budget, streams the answer (`onText` per piece), records the usage.
    func stream(_ userMessage: String, vault: String, onText: @escaping @Sendable (String) -> Void) throws -> (AnthropicClient.Answer, Double?) {
        let key = backend == .api ? APIKey.resolve(environment: context.environment) : nil
        if backend == .api && key == nil { throw ClaudeError.missingAPIKey }
        guard let baseURL = APIKey.baseURL(environment: context.environment) else {
            throw CLIError.invalidArgument("ANTHROPIC_BASE_URL must be an http(s) URL with a host, like https://api.anthropic.com")
        }
        if let budgetUSD {
            let month = String(ISO8601DateFormatter().string(from: Date()).prefix(7))
            let spent = ledger.spent(inMonth: month)
            let estimate = maximumCost(userMessage).costUSD
            if spent + estimate > budgetUSD { throw ClaudeError.overBudget(spentUSD: spent, budgetUSD: budgetUSD, estimateUSD: estimate) }
        }
        let answer: AnthropicClient.Answer
        let reportedCost: Double?
        let billing = BilledUsage()
        do {
            (answer, reportedCost) = try call(userMessage, baseURL: baseURL, key: key, billing: billing, onText: onText)
        } catch {
            // A call that ends without an answer may still have been billed: recorded as incomplete.
            if billing.isBilled {
                let model = billing.model.isEmpty ? self.model : billing.model
                _ = record(model: model, usage: billing.usage, reportedCost: billing.reportedCostUSD, vault: vault, incomplete: true)
            }
            throw error
        }
        let model = answer.model.isEmpty ? self.model : answer.model
        let cost = record(model: model, usage: answer.usage, reportedCost: reportedCost, vault: vault, incomplete: false)
        if answer.stopReason == "max_tokens" {
            context.printError("\nwarning: the answer was cut off at its token limit (\(maxTokens) tokens); raise `maxTokens:` under "
                + "`claude: \(feature):` in .rhizome/config.yaml for a longer one")
        }
        return (answer, cost)
    }

    /// One call through the chosen backend.
    private func call(
        _ userMessage: String, baseURL: URL, key: String?, billing: BilledUsage, onText: @escaping @Sendable (String) -> Void
    ) throws -> (AnthropicClient.Answer, Double?) {
        let answer: AnthropicClient.Answer
        var reportedCost: Double?
        switch backend {
        case .api:
            var clientSettings = AnthropicClient.Settings(baseURL: baseURL, apiKey: key!)
            if let seconds = timeouts.firstByte { clientSettings.firstByteTimeout = .seconds(seconds) }
            if let seconds = timeouts.idle { clientSettings.idleTimeout = .seconds(seconds) }
            if let seconds = timeouts.total { clientSettings.totalTimeout = .seconds(seconds) }
            let client = AnthropicClient(settings: clientSettings)
            let request = self.request(userMessage)
            let context = self.context
            answer = try AsyncWork.wait {
                try await client.stream(request, billing: billing, onText: onText, onRetry: { retry in
                    context.printError("(\(retry.problem); retrying in \(String(format: "%.1f", retry.wait.inSeconds)) s)")
                })
            }
        case .claudeCLI:
            guard var located = ClaudeCodeCLI.locate(environment: context.environment) else {
                throw ClaudeError.cliUnavailable(reason: "no `claude` executable on PATH")
            }
            located.passesAPIKey = passesAPIKey
            if let seconds = timeouts.firstByte { located.firstByteTimeout = .seconds(seconds) }
            if let seconds = timeouts.total { located.totalTimeout = .seconds(seconds) }
            let cli = located
            let (system, model, environment) = (systemPrompt, self.model, context.environment)
            (answer, reportedCost) = try AsyncWork.wait {
                try await cli.run(system: system, prompt: userMessage, model: model, environment: environment, billing: billing, onText: onText)
            }
        }
        return (answer, reportedCost)
    }

    /// Records a call in the ledger (a failure to is a warning) and returns its cost: the one reported,
    /// else from list prices (said when estimated for a model without a known price).
    private func record(model: String, usage: MessagesAPI.Usage, reportedCost: Double?, vault: String, incomplete: Bool) -> Double {
        let listed = ModelPrices.cost(
            model: model, inputTokens: usage.inputTokens ?? 0, outputTokens: usage.outputTokens ?? 0,
            cacheCreationInputTokens: usage.cacheCreationInputTokens ?? 0, cacheReadInputTokens: usage.cacheReadInputTokens ?? 0,
            configured: prices)
        let cost = reportedCost ?? listed.usd
        if reportedCost == nil && listed.isEstimate {
            context.printError("note: `\(model)` has no known price; its cost is estimated at " + (listed.basis == .family ? "its family's" : "the highest known")
                + " rate (add it under `claude: prices:` in .rhizome/config.yaml)")
        }
        do {
            try ledger.record(UsageLedger.Entry(
                time: Date(), feature: feature, model: model, vault: vault, usage: usage, costUSD: cost,
                priceBasis: reportedCost != nil ? "reported" : listed.basis.rawValue, incomplete: incomplete ? true : nil))
        } catch {
            context.printError("warning: \(error)")
        }
        return cost
    }
}

/// Runs async work from a synchronous command, on a thread of its own. With `cancelledByInterrupt`, Ctrl-C cancels it (an API
/// request stops cleanly); without, signals keep their usual effect.
enum AsyncWork {
    static func wait<T: Sendable>(cancelledByInterrupt: Bool = true, _ work: @escaping @Sendable () async throws -> T) throws -> T {
        let box = ResultBox<T>()
        // The work runs on a thread of its own: the caller blocks its thread until the work is done, and
        // in-process callers (tests, an embedding app) may be on the concurrency pool, which has one thread
        // per core and would deadlock if every one of them waited here for work queued behind them.
        let executor = DedicatedThreadExecutor(name: "rhizome.async-work")
        defer { executor.shutdown() }
        let task = Task(executorPreference: executor) {
            do { box.result = .success(try await work()) } catch { box.result = .failure(error) }
            box.done.signal()
        }
        let signals = cancelledByInterrupt ? StopSignals({ task.cancel() }) : nil
        defer { signals?.cancel() }
        box.done.wait()
        return try box.result!.get()
    }

    private final class ResultBox<T>: @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        var result: Result<T, Error>?
    }
}

/// A call that `--dry-run` describes instead of making; its JSON keys are part of the command's dry-run output.
struct PromptPlan: Encodable {
    var model: String
    var maxTokens: Int
    var temperature: Double
    var notes: [Explore.ContextNote]
    var system: String
    var prompt: String
    var estimatedInputTokens: Int
    @NullEncoded var estimatedCostUSD: Double?

    /// The lines after the list of notes.
    func print(to context: CommandContext) {
        context.print("\nModel: \(model) · max \(maxTokens) output tokens · temperature \(temperature)")
        context.print("\nSystem prompt:\n\(system)\n\nUser message:\n\(prompt)\n")
        context.print("Estimated: about \(estimatedInputTokens.grouped) input tokens, at most \(maxTokens) output tokens"
            + (estimatedCostUSD.map { String(format: " · at most $%.4f", $0) } ?? " · no price known for \(model)"))
    }

    enum CodingKeys: String, CodingKey { case model, maxTokens, temperature, notes, system, prompt, estimatedInputTokens, estimatedCostUSD }
}
