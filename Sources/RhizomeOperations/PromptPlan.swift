import RhizomeClaude
import RhizomeCore

/// A call that a dry run describes instead of making: the model and its limits, the numbered notes, the
/// exact prompt and the most it can cost. Its JSON keys are part of `explore` and `reflect --dry-run --json`.
public struct PromptPlan: Encodable, Sendable {
    public var model: String
    public var maxTokens: Int
    public var temperature: Double
    public var notes: [Explore.ContextNote]
    public var system: String
    public var prompt: String
    public var estimatedInputTokens: Int
    @NullEncoded public var estimatedCostUSD: Double?

    enum CodingKeys: String, CodingKey { case model, maxTokens, temperature, notes, system, prompt, estimatedInputTokens, estimatedCostUSD }
}
