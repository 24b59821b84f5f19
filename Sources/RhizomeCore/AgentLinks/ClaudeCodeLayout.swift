/// Where Claude Code's artefacts live in a vault and in `~/.claude`:
///
///     <vault>/ClaudeCode/README.md           the generated index note
///     <vault>/ClaudeCode/Agents/global/      real agent files; ~/.claude/agents points here
///     <vault>/ClaudeCode/Agents/<project>/   symlinks to <repo>/.claude/agents/*.md
///     <vault>/ClaudeCode/Skills/global/      real skill folders, each linked as ~/.claude/skills/<name>
///     <vault>/ClaudeCode/Skills/<project>/   symlinks to <repo>/.claude/skills/<name>/
///     <vault>/ClaudeCode/Plans/              real plan files; ~/.claude/plans points here
public struct ClaudeCodeLayout: Sendable {
    public static let globalName = "global"

    public var vaultRoot: String
    /// The layout's folder in the vault (configurable; `ClaudeCode` by default).
    public var folderName: String
    /// `~/.claude`.
    public var claudeHome: String

    public init(vaultRoot: String, folderName: String = "ClaudeCode", home: String) {
        self.vaultRoot = vaultRoot
        self.folderName = folderName
        self.claudeHome = home + "/.claude"
    }

    public var root: String { vaultRoot + "/" + folderName }
    public var agentsRoot: String { root + "/Agents" }
    public var skillsRoot: String { root + "/Skills" }
    public var plansFolder: String { root + "/Plans" }
    public var indexNote: String { root + "/README.md" }

    public func agentsFolder(_ project: String) -> String { agentsRoot + "/" + project }
    public func skillsFolder(_ project: String) -> String { skillsRoot + "/" + project }

    /// `~/.claude/agents`, `~/.claude/skills`, `~/.claude/plans`.
    public var homeAgents: String { claudeHome + "/agents" }
    public var homeSkills: String { claudeHome + "/skills" }
    public var homePlans: String { claudeHome + "/plans" }

    /// Projects linked into the vault: the folders of `Agents/` and `Skills/` other than `global`.
    public var linkedProjects: [String] {
        // Only real folders holding something visible (a folder with just `.DS_Store` is not a project), and
        // project plan links (`Plans/<project>` symlinks).
        let names = Set(FileSystemEntry.names(in: agentsRoot) + FileSystemEntry.names(in: skillsRoot))
        var projects = names.filter { name in
            name != Self.globalName && !name.hasPrefix(".")
                && [agentsFolder(name), skillsFolder(name)].contains { FileSystemEntry.isRealDirectory($0) && !FileSystemEntry.namesOfEntries(in: $0).isEmpty }
        }
        for name in FileSystemEntry.namesOfEntries(in: plansFolder) {
            if case .symlink = FileSystemEntry.at(plansFolder + "/" + name) { projects.insert(name) }
        }
        return projects.sorted()
    }

    /// `path` relative to the vault, for messages and wikilinks (absolute paths outside it stay as they are).
    public func vaultRelative(_ path: String) -> String {
        path.hasPrefix(vaultRoot + "/") ? String(path.dropFirst(vaultRoot.count + 1)) : path
    }
}
