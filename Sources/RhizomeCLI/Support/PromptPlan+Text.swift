import RhizomeCore
import RhizomeOperations

extension PromptPlan {
    /// The lines of a dry run after its list of notes: the model and its limits, the exact prompt, the estimate.
    func print(to context: CommandContext) {
        context.print("\nModel: \(model) · max \(maxTokens) output tokens · temperature \(temperature)")
        context.print("\nSystem prompt:\n\(system)\n\nUser message:\n\(prompt)\n")
        context.print("Estimated: about \(estimatedInputTokens.grouped) input tokens, at most \(maxTokens) output tokens"
            + (estimatedCostUSD.map { String(format: " · at most $%.4f", $0) } ?? " · no price known for \(model)"))
    }
}
