/// Where an answer from Claude comes from.
public enum ClaudeBackend: String, Sendable, CaseIterable {
    /// The Anthropic Messages API with `ANTHROPIC_API_KEY`.
    case api
    /// The Claude Code CLI (`claude -p`), with its own login; it takes no token limit or temperature.
    case claudeCLI = "claude-cli"
}
