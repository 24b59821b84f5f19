import RhizomeCore

/// Why a call to Claude gave no answer. Messages say what failed and how to fix it, and never contain the
/// API key.
public enum ClaudeError: Error, Sendable, Equatable {
    /// No `ANTHROPIC_API_KEY` (nor a Keychain entry on macOS).
    case missingAPIKey
    /// The API refused the request (4xx other than 429), with its error type and message.
    case refused(status: Int, type: String, message: String)
    /// Rate limited, overloaded or failing (429, 529, 5xx, dropped connections) after every retry.
    case gaveUp(attempts: Int, lastProblem: String)
    /// No first byte within the limit, or the whole answer took too long.
    case timedOut(what: String, seconds: Double)
    /// The stream broke after part of the answer was shown (retrying would show it twice).
    case interrupted(problem: String)
    /// A response that is not what the API documents.
    case malformedResponse(String)
    case cannotConnect(url: String, reason: String)
    case cancelled
    /// The call would take this month's spending over the budget set in the vault config.
    case overBudget(spentUSD: Double, budgetUSD: Double, estimateUSD: Double)
    /// `--backend claude-cli`: no `claude` to run.
    case cliUnavailable(reason: String)
    /// `--backend claude-cli`: `claude` ran but gave no answer.
    case cliFailed(message: String)
    /// Nothing to ask, or a setting that cannot work (no note matches the question, a period without
    /// notes, an `ANTHROPIC_BASE_URL` that is not a URL): the user changes the request.
    case invalidRequest(String)
}

extension ClaudeError: CustomStringConvertible {
    /// Stable machine-readable code for JSON output.
    public var code: String {
        switch self {
        case .missingAPIKey: return "missing-api-key"
        case .refused: return "api-refused"
        case .gaveUp: return "api-unavailable"
        case .timedOut: return "api-timeout"
        case .interrupted: return "api-interrupted"
        case .malformedResponse: return "api-malformed-response"
        case .cannotConnect: return "api-unreachable"
        case .cancelled: return "cancelled"
        case .overBudget: return "over-budget"
        case .cliUnavailable: return "claude-cli-unavailable"
        case .cliFailed: return "claude-cli-failed"
        case .invalidRequest: return "invalid-argument"
        }
    }

    /// The message as what went wrong, then how to fix it, and what joins them.
    public var message: ErrorMessage {
        switch self {
        case .missingAPIKey:
            #if os(macOS)
            let keychain = " or store it in the Keychain (`security add-generic-password -s rhizome -a anthropic -w`)"
            #else
            let keychain = ""
            #endif
            return ErrorMessage("no Anthropic API key", ": ", "set ANTHROPIC_API_KEY (https://console.anthropic.com/settings/keys)\(keychain), "
                + "or use your Claude Code login with --backend claude-cli. "
                + "Add --dry-run to see the notes and the exact prompt without calling the API.")
        case .refused(let status, let type, let message):
            let fix: String
            switch status {
            case 401: fix = "check ANTHROPIC_API_KEY"
            case 403: fix = "the key may not have access to this model; try another with --model"
            case 404: fix = "check the model name (--model) and ANTHROPIC_BASE_URL"
            case 413: fix = "the prompt is too large; lower the token budget in the vault config"
            case 400 where message.lowercased().contains("model"):
                fix = "check the model name (--model, or `model:` under `claude:` in .rhizome/config.yaml)"
            case 400: fix = "check the settings under `claude:` in .rhizome/config.yaml (model, maxTokens, temperature)"
            default: fix = "see the message"
            }
            // An error event inside a 200 stream has no HTTP status of its own to show.
            let what = status == 200 ? "an error event, \(type): \(message)" : "HTTP \(status) \(type): \(message)"
            return ErrorMessage("the Anthropic API refused the request (\(what))", "; ", fix)
        case .gaveUp(let attempts, let lastProblem):
            return ErrorMessage("the Anthropic API did not answer after \(attempts) attempt\(attempts == 1 ? "" : "s") (last: \(lastProblem))", "; ", "try again in a minute")
        case .timedOut(let what, let seconds):
            return ErrorMessage("\(what) did not come within \(Self.roundedSeconds(seconds)) s", "; ", "check your connection or try again")
        case .interrupted(let problem):
            return ErrorMessage("the answer broke off part way (\(problem))", "; ", "run the command again")
        case .malformedResponse(let detail):
            return ErrorMessage("the Anthropic API sent a response Rhizome cannot read (\(detail))", "; ", "check ANTHROPIC_BASE_URL")
        case .cannotConnect(let url, let reason):
            return ErrorMessage("cannot reach \(url) (\(reason))", "; ", "check your connection and ANTHROPIC_BASE_URL")
        case .cancelled:
            return ErrorMessage("cancelled")
        case .cliUnavailable(let reason):
            return ErrorMessage(reason, ". ", "Install Claude Code (https://docs.anthropic.com/en/docs/claude-code) and log in, or set ANTHROPIC_API_KEY and drop --backend claude-cli")
        case .invalidRequest(let message):
            return ErrorMessage(message)
        case .cliFailed(let message):
            return ErrorMessage(message, "; ", "run `claude -p hello` to check that Claude Code works and is logged in")
        case .overBudget(let spent, let budget, let estimate):
            // Cents, unless the budget has a finer part (a budget of $0.002 is not "$0.00").
            let cents = budget * 100
            let budgetText = String(format: abs(cents - cents.rounded()) < 1e-9 ? "%.2f" : "%.4f", budget)
            return ErrorMessage(String(format: "this call (up to $%.4f) would take this month's spending ($%.4f so far) over the budget of $", estimate, spent)
                + budgetText + " (`claude: budget:` in .rhizome/config.yaml)", "; ", "raise the budget, or wait for next month")
        }
    }
}

extension ClaudeError {
    /// Seconds as people write them: whole from 10 on (`300`), else to a tenth (`2.5`, `0.3`).
    static func roundedSeconds(_ seconds: Double) -> String {
        if seconds >= 10 { return String(format: "%.0f", seconds.rounded()) }
        let tenths = (seconds * 10).rounded() / 10
        return tenths == tenths.rounded() ? String(format: "%.0f", tenths) : String(format: "%.1f", tenths)
    }

    /// Whether the request itself was wrong (a model name, a setting, a key: the user fixes it, exit 2),
    /// rather than the service failing: a 4xx refusal other than a timeout or rate limit.
    public var isRequestProblem: Bool {
        guard case .refused(let status, _, _) = self else { return false }
        return (400..<500).contains(status) && status != 408 && status != 429
    }

    /// The same error with every occurrence of `key` replaced (a server may echo anything).
    func redacting(_ key: String) -> ClaudeError {
        func clean(_ text: String) -> String { AnthropicClient.redact(text, key: key) }
        switch self {
        case .refused(let status, let type, let message): return .refused(status: status, type: clean(type), message: clean(message))
        case .gaveUp(let attempts, let lastProblem): return .gaveUp(attempts: attempts, lastProblem: clean(lastProblem))
        case .timedOut(let what, let seconds): return .timedOut(what: clean(what), seconds: seconds)
        case .interrupted(let problem): return .interrupted(problem: clean(problem))
        case .malformedResponse(let detail): return .malformedResponse(clean(detail))
        case .cannotConnect(let url, let reason): return .cannotConnect(url: clean(url), reason: clean(reason))
        case .cliFailed(let message): return .cliFailed(message: clean(message))
        case .missingAPIKey, .cancelled, .overBudget, .cliUnavailable, .invalidRequest: return self
        }
    }
}

extension ClaudeError: ExplainedError {
    /// A missing key, a spent budget, a missing `claude` and a request the API refuses as malformed (a
    /// wrong model, a bad setting) are the user's to fix; the rest is the call failing.
    public var isUserMistake: Bool {
        switch self {
        case .missingAPIKey, .overBudget, .cliUnavailable, .invalidRequest: return true
        case .refused where isRequestProblem: return true
        default: return false
        }
    }
}
