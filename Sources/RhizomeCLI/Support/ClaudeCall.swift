import ArgumentParser
import Foundation
import RhizomeClaude
import RhizomeCore

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
    let context: CommandContext
    let ledger: UsageLedger

    init(feature: String, backend: Backend = .api, defaults: (model: String, maxTokens: Int, temperature: Double, prompt: String),
         configured: ClaudeSettings.Feature, budgetUSD: Double?, modelOverride: String?, context: CommandContext) {
        self.feature = feature
        self.backend = backend
        model = modelOverride ?? configured.model ?? defaults.model
        maxTokens = configured.maxTokens ?? defaults.maxTokens
        temperature = configured.temperature ?? defaults.temperature
        systemPrompt = configured.prompt ?? defaults.prompt
        self.budgetUSD = budgetUSD
        self.context = context
        ledger = UsageLedger.standard(environment: context.environment)
    }

    func request(_ userMessage: String) -> MessagesAPI.Request {
        MessagesAPI.Request(model: model, maxTokens: maxTokens, messages: [.init(role: .user, content: userMessage)], system: systemPrompt, temperature: temperature)
    }

    /// The most a call with this message can cost (estimated input, all of `maxTokens` output); nil without a price.
    func maximumCost(_ userMessage: String) -> (inputTokens: Int, costUSD: Double?) {
        let input = Explore.estimatedTokens(systemPrompt) + Explore.estimatedTokens(userMessage)
        return (input, ModelPrices.cost(model: model, inputTokens: input, outputTokens: maxTokens))
    }

    /// Checks the key and the budget, streams the answer (`onText` per piece), records the usage.
    func stream(_ userMessage: String, vault: String, onText: @escaping @Sendable (String) -> Void) throws -> (AnthropicClient.Answer, Double?) {
        let key = backend == .api ? APIKey.resolve(environment: context.environment) : nil
        if backend == .api && key == nil { throw ClaudeError.missingAPIKey }
        if let budgetUSD {
            let month = String(ISO8601DateFormatter().string(from: Date()).prefix(7))
            let spent = ledger.spent(inMonth: month)
            let estimate = maximumCost(userMessage).costUSD ?? 0
            if spent + estimate > budgetUSD { throw ClaudeError.overBudget(spentUSD: spent, budgetUSD: budgetUSD, estimateUSD: estimate) }
        }
        let answer: AnthropicClient.Answer
        var reportedCost: Double?
        switch backend {
        case .api:
            let client = AnthropicClient(settings: AnthropicClient.Settings(baseURL: APIKey.baseURL(environment: context.environment), apiKey: key!))
            let request = self.request(userMessage)
            let context = self.context
            answer = try AsyncWork.wait {
                try await client.stream(request, onText: onText, onRetry: { retry in
                    let seconds = Double(retry.wait.components.seconds) + Double(retry.wait.components.attoseconds) / 1e18
                    context.printError("(\(retry.problem); retrying in \(String(format: "%.1f", seconds)) s)")
                })
            }
        case .claudeCLI:
            guard let cli = ClaudeCodeCLI.locate(environment: context.environment) else {
                throw ClaudeError.cliUnavailable(reason: "no `claude` executable on PATH")
            }
            let (system, model, environment) = (systemPrompt, self.model, context.environment)
            (answer, reportedCost) = try AsyncWork.wait {
                try await cli.run(system: system, prompt: userMessage, model: model, environment: environment, onText: onText)
            }
        }
        let model = answer.model.isEmpty ? self.model : answer.model
        let cost = reportedCost ?? ModelPrices.cost(model: model, inputTokens: answer.usage.inputTokens ?? 0, outputTokens: answer.usage.outputTokens ?? 0)
        do {
            try ledger.record(UsageLedger.Entry(time: Date(), feature: feature, model: model, vault: vault, usage: answer.usage, costUSD: cost))
        } catch {
            context.printError("warning: \(error)")
        }
        return (answer, cost)
    }
}

/// Runs async work from a synchronous command; Ctrl-C cancels it (an API request stops cleanly).
enum AsyncWork {
    static func wait<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
        let box = ResultBox<T>()
        let task = Task {
            do { box.result = .success(try await work()) } catch { box.result = .failure(error) }
            box.done.signal()
        }
        let signals = StopSignals({ task.cancel() })
        defer { signals.cancel() }
        box.done.wait()
        return try box.result!.get()
    }

    private final class ResultBox<T>: @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        var result: Result<T, Error>?
    }
}
