import Foundation
import RhizomeClaude
import RhizomeCore
import RhizomeStore

/// What `explore` and `reflect` share: the feature's settings (built-in defaults, then the vault config,
/// then an explicit model), the monthly budget, the call through the chosen backend with its retries
/// reported as notices, and the usage ledger (a call that fails after being billed is recorded too).
public struct ClaudeFeatureCall: Sendable {
    /// A feature's built-in settings.
    public struct Defaults: Sendable {
        public var model: String
        public var maxTokens: Int
        public var temperature: Double
        public var prompt: String

        public init(model: String, maxTokens: Int, temperature: Double, prompt: String) {
            self.model = model
            self.maxTokens = maxTokens
            self.temperature = temperature
            self.prompt = prompt
        }
    }

    /// How a call is made: the backend, the model asked for, whether `claude` sees the API key.
    public struct Choice: Sendable {
        public var backend: ClaudeBackend
        /// Overrides the vault config's model and the default (`--model`).
        public var model: String?
        /// Whether the Claude Code CLI backend sees `ANTHROPIC_API_KEY` (`--pass-api-key`).
        public var passesAPIKey: Bool

        public init(backend: ClaudeBackend = .api, model: String? = nil, passesAPIKey: Bool = false) {
            self.backend = backend
            self.model = model
            self.passesAPIKey = passesAPIKey
        }
    }

    public let feature: String
    public let backend: ClaudeBackend
    public let model: String
    public let maxTokens: Int
    public let temperature: Double
    public let systemPrompt: String
    /// Whether an answer cut off at `maxTokens` is reported with how to raise the limit (not for a call
    /// whose limit is not a setting, such as explore's translation of a question).
    public var reportsCutOff = true
    let budgetUSD: Double?
    let prices: [String: (input: Double, output: Double)]
    let environment: [String: String]
    let ledger: UsageLedger
    let passesAPIKey: Bool
    /// `claude: timeouts:` in seconds; nil keeps the client's default.
    let timeouts: (firstByte: Double?, idle: Double?, total: Double?)
    /// Lines for the person beside the answer (a retry, a warning); the CLI writes them to standard error.
    let notice: @Sendable (String) -> Void

    public init(
        feature: String, defaults: Defaults, settings: ClaudeSettings, configured: ClaudeSettings.Feature, choice: Choice,
        environment: [String: String], notice: @escaping @Sendable (String) -> Void
    ) {
        self.feature = feature
        backend = choice.backend
        passesAPIKey = choice.passesAPIKey
        timeouts = (settings.firstByteTimeout, settings.idleTimeout, settings.totalTimeout)
        model = choice.model ?? configured.model ?? defaults.model
        maxTokens = configured.maxTokens ?? defaults.maxTokens
        temperature = configured.temperature ?? defaults.temperature
        systemPrompt = configured.prompt ?? defaults.prompt
        budgetUSD = settings.budgetUSD
        prices = settings.prices
        self.environment = environment
        self.notice = notice
        ledger = UsageLedger.standard(environment: environment)
    }

    func request(_ userMessage: String) -> MessagesAPI.Request {
        MessagesAPI.Request(model: model, maxTokens: maxTokens, messages: [.init(role: .user, content: userMessage)], system: systemPrompt, temperature: temperature)
    }

    /// The most a call with this message can cost (estimated input, all of `maxTokens` output; a model
    /// without a known price at its family's or the highest known rate). `plusInputTokens`: input the
    /// message will also hold, not known yet (the notes of a prompt trimmed to that many tokens).
    func maximumCost(_ userMessage: String, plusInputTokens: Int = 0) -> (inputTokens: Int, costUSD: Double) {
        let input = Explore.estimatedTokens(systemPrompt) + Explore.estimatedTokens(userMessage) + plusInputTokens
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

    /// The wikilink target for each quoted note, by number: its name when that resolves to it in this vault
    /// (as Obsidian would resolve it), else its path without `.md`.
    static func linkTargets(_ notes: [Explore.ContextNote], store: IndexStore) -> [Int: String] {
        Dictionary(uniqueKeysWithValues: notes.map { note in
            if (try? store.resolveNote(note.name))?.path == note.path { return (note.number, note.name) }
            return (note.number, note.path.hasSuffix(".md") ? String(note.path.dropLast(3)) : note.path)
        })
    }

    /// What a dry run shows of a call: the model and its limits, the exact prompt, the estimate.
    func plan(_ userMessage: String, notes: [Explore.ContextNote]) -> PromptPlan {
        let (inputTokens, cost) = maximumCost(userMessage)
        return PromptPlan(model: model, maxTokens: maxTokens, temperature: temperature, notes: notes, system: systemPrompt, prompt: userMessage,
                          estimatedInputTokens: inputTokens, estimatedCostUSD: cost)
    }

    /// Checks the key and the budget, streams the answer (`onText` per piece), records the usage. Returns
    /// the answer and its cost. `reservingUSD`: what a later call this one is for may cost, checked against
    /// the budget with it (a translation is not worth paying for when the answer it serves is refused).
    func stream(
        _ userMessage: String, vault: String, reservingUSD reserve: Double = 0, onText: @escaping @Sendable (String) -> Void
    ) async throws -> (AnthropicClient.Answer, Double?) {
        let key = backend == .api ? APIKey.resolve(environment: environment) : nil
        if backend == .api && key == nil { throw ClaudeError.missingAPIKey }
        guard let baseURL = APIKey.baseURL(environment: environment) else {
            throw ClaudeError.invalidRequest("ANTHROPIC_BASE_URL must be an http(s) URL with a host, like https://api.anthropic.com")
        }
        if let budgetUSD {
            let month = String(ISO8601DateFormatter().string(from: Date()).prefix(7))
            let spent = ledger.spent(inMonth: month)
            let estimate = maximumCost(userMessage).costUSD + reserve
            if spent + estimate > budgetUSD { throw ClaudeError.overBudget(spentUSD: spent, budgetUSD: budgetUSD, estimateUSD: estimate) }
        }
        let answer: AnthropicClient.Answer
        let reportedCost: Double?
        let billing = BilledUsage()
        do {
            (answer, reportedCost) = try await call(userMessage, baseURL: baseURL, key: key, billing: billing, onText: onText)
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
        if answer.stopReason == "max_tokens" && reportsCutOff {
            notice("\nwarning: the answer was cut off at its token limit (\(maxTokens) tokens); raise `maxTokens:` under "
                + "`claude: \(feature):` in .rhizome/config.yaml for a longer one")
        }
        return (answer, cost)
    }

    /// One call through the chosen backend.
    private func call(
        _ userMessage: String, baseURL: URL, key: String?, billing: BilledUsage, onText: @escaping @Sendable (String) -> Void
    ) async throws -> (AnthropicClient.Answer, Double?) {
        switch backend {
        case .api:
            var clientSettings = AnthropicClient.Settings(baseURL: baseURL, apiKey: key!)
            if let seconds = timeouts.firstByte { clientSettings.firstByteTimeout = .seconds(seconds) }
            if let seconds = timeouts.idle { clientSettings.idleTimeout = .seconds(seconds) }
            if let seconds = timeouts.total { clientSettings.totalTimeout = .seconds(seconds) }
            let notice = self.notice
            let answer = try await AnthropicClient(settings: clientSettings).stream(request(userMessage), billing: billing, onText: onText, onRetry: { retry in
                notice("(\(retry.problem); retrying in \(String(format: "%.1f", retry.wait.inSeconds)) s)")
            })
            return (answer, nil)
        case .claudeCLI:
            guard var cli = ClaudeCodeCLI.locate(environment: environment) else {
                throw ClaudeError.cliUnavailable(reason: "no `claude` executable on PATH")
            }
            cli.passesAPIKey = passesAPIKey
            if let seconds = timeouts.firstByte { cli.firstByteTimeout = .seconds(seconds) }
            if let seconds = timeouts.total { cli.totalTimeout = .seconds(seconds) }
            return try await cli.run(system: systemPrompt, prompt: userMessage, model: model, environment: environment, billing: billing, onText: onText)
        }
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
            notice("note: `\(model)` has no known price; its cost is estimated at " + (listed.basis == .family ? "its family's" : "the highest known")
                + " rate (add it under `claude: prices:` in .rhizome/config.yaml)")
        }
        do {
            try ledger.record(UsageLedger.Entry(
                time: Date(), feature: feature, model: model, vault: vault, usage: usage, costUSD: cost,
                priceBasis: reportedCost != nil ? "reported" : listed.basis.rawValue, incomplete: incomplete ? true : nil))
        } catch {
            notice("warning: \(error)")
        }
        return cost
    }
}
