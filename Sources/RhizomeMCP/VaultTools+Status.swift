import Foundation
import MCP
import RhizomeCore
import RhizomeOperations
import RhizomeStore

/// The `status` tool: the health check of `rhizome status --json` (`VaultStatusCheck`), so that an agent can
/// tell how current the index is, whether schema findings wait, and whether a Claude Code link is broken.
extension VaultTools {
    static let statusCatalog: [Entry] = [
        Entry(
            tool: tool("status", title: "Vault and index health",
                       """
                       The health of the vault, as `rhizome status --json` reports it: index {lastRunAt, lastChangeAt, staleFiles \
                       (files added, removed or changed since the last run; 0 when current)}, watcher {watched, processID, state, \
                       heartbeatAt, vouches}, schemaFindings {errors, warnings, claudeCodeErrors} (list them with `validate`), the \
                       Claude Code projects linked into the vault (agents, skills, broken links), broken (links whose target is gone) \
                       and healthy (false when a link is broken). Reads only; never changes the vault or the index.
                       """,
                       properties: [:]),
            run: { tools, _, store in
                guard let home = ProcessInfo.processInfo.environment["HOME"], !home.isEmpty else {
                    throw ToolError.failed(code: "home-not-set", message: "HOME is not set in the server's environment, so `~/.claude` cannot be checked")
                }
                let config = try VaultConfig.load(vaultRoot: tools.vaultPath)
                let linker = ClaudeLinker(layout: ClaudeCodeLayout(vaultRoot: tools.vaultPath, folderName: config.claudeCodeFolder, home: home))
                let report = try VaultStatusCheck(vault: tools.vaultPath, databasePath: store.databasePath, linker: linker).run()
                return ToolOutput(report, total: nil, truncated: false)
            }),
    ]
}
