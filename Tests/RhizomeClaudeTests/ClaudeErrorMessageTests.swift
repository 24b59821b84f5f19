import Testing
import RhizomeClaude

/// `ClaudeError`'s messages as people read them, and the fix an agent gets apart in JSON (`fix`): the
/// message is the problem, then the fix.
@Suite struct ClaudeErrorMessageTests {
    @Test func `a message is its problem then its fix, and the fix stands alone too`() {
        let budget = ClaudeError.overBudget(spentUSD: 1.5, budgetUSD: 2, estimateUSD: 0.75)
        #expect(budget.description == "this call (up to $0.7500) would take this month's spending ($1.5000 so far) over the budget of $2.00 "
            + "(`claude: budget:` in .rhizome/config.yaml); raise the budget, or wait for next month")
        #expect(budget.fix == "raise the budget, or wait for next month")
        let small = ClaudeError.overBudget(spentUSD: 0, budgetUSD: 0.002, estimateUSD: 0.0062)
        #expect(small.description.contains("over the budget of $0.0020 ("), "a budget under a cent is not shown as $0.00: \(small.description)")
        #expect(ClaudeError.overBudget(spentUSD: 0, budgetUSD: 0.1, estimateUSD: 0.2).description.contains("over the budget of $0.10 ("))

        let refused = ClaudeError.refused(status: 401, type: "authentication_error", message: "invalid x-api-key")
        #expect(refused.description == "the Anthropic API refused the request (HTTP 401 authentication_error: invalid x-api-key); check ANTHROPIC_API_KEY")
        #expect(refused.fix == "check ANTHROPIC_API_KEY")

        let missing = ClaudeError.cliUnavailable(reason: "no `claude` executable on PATH")
        #expect(missing.description == "no `claude` executable on PATH. Install Claude Code (https://docs.anthropic.com/en/docs/claude-code) and log in, "
            + "or set ANTHROPIC_API_KEY and drop --backend claude-cli")

        #expect(ClaudeError.missingAPIKey.description.hasPrefix("no Anthropic API key: set ANTHROPIC_API_KEY (https://console.anthropic.com/settings/keys)"))
        #expect(ClaudeError.missingAPIKey.fix?.hasPrefix("set ANTHROPIC_API_KEY") == true)
        #expect(ClaudeError.missingAPIKey.description.hasSuffix("Add --dry-run to see the notes and the exact prompt without calling the API."))
        #expect(ClaudeError.timedOut(what: "the first byte", seconds: 30.0309).description == "the first byte did not come within 30 s; check your connection or try again")

        #expect(ClaudeError.cancelled.fix == nil && ClaudeError.cancelled.description == "cancelled")
        #expect(ClaudeError.invalidRequest("no note matches").fix == nil)
    }
}
