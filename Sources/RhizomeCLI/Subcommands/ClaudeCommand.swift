import ArgumentParser
import RhizomeCore

/// `rhizome claude link|unlink|status|init`: Claude Code's agents, skills and plans in the vault, under one
/// name that does not sound like `links` (a note's outgoing links). The top-level `link`, `unlink` and
/// `init` are the same commands, kept for scripts that use them; top-level `status` also checks the index.
struct ClaudeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "claude",
        abstract: "Claude Code's agents, skills and plans in the vault: link a project, unlink it, check the links, set up the folders.",
        discussion: "The same commands as top-level `link`, `unlink` and `init`; `claude status` shows only the links (top-level `status` adds the index).",
        subcommands: [LinkCommand.self, UnlinkCommand.self, ClaudeStatusCommand.self, InitCommand.self])
}

/// `rhizome claude status`: the links part of `rhizome status`, without opening the index.
struct ClaudeStatusCommand: RhizomeSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Check the links to Claude Code: linked projects (agents, skills, broken links) and the ~/.claude links.",
        discussion: "Exit status 1 when a link is broken.")

    /// Apart from top-level `status`, whose JSON has the index too.
    static var name: String { "claude status" }

    @OptionGroup var global: GlobalOptions

    func execute(in context: CommandContext) throws -> ExitStatus {
        let vault = try VaultLocator.locate(explicit: global.vault, environment: context.environment, currentDirectory: context.currentDirectory)
        let links = try ClaudeLinking.linker(vault: vault, context: context).status()
        if global.json {
            printJSON(Report(links: links), vault: vault, context: context)
        } else {
            context.print("Vault \(vault)")
            ClaudeLinking.print(links, context: context)
        }
        return links.broken.isEmpty ? .success : .problemsFound
    }

    /// `--json`: the same keys as `rhizome status --json` has for the links.
    struct Report: Encodable {
        var projects: [AgentLinkStatus.Project]
        var global: AgentLinkStatus.Global
        var broken: [LinkedItem]
        var healthy: Bool

        init(links: AgentLinkStatus) {
            (projects, global, broken, healthy) = (links.projects, links.global, links.broken, links.broken.isEmpty)
        }
    }
}
