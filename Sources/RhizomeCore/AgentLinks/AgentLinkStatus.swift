/// What the vault's links to Claude Code look like: each linked project's agents, skills and broken
/// links, and the vault's global agents, skills and plans with their links into `~/.claude`.
/// `rhizome status` shows it (its `projects`, `global` and `broken` in `--json`); field names are part of
/// that contract.
public struct AgentLinkStatus: Sendable, Encodable {
    public struct Project: Sendable, Encodable {
        public var name: String
        /// Agent files (`*.md`) in the project's agents folder.
        public var agents: Int
        /// Entries in the project's skills folder.
        public var skills: Int
        /// The project's links whose target is gone.
        public var broken: [LinkedItem]
    }

    public struct SkillLink: Sendable, Encodable {
        public var name: String
        /// `linked`, `missing`, `broken`, `elsewhere` (a symlink not Rhizome's) or `real` (Claude Code's own).
        public var link: String
    }

    /// The vault's own agents, skills and plans, and whether `~/.claude` links to them.
    public struct Global: Sendable, Encodable {
        public var agents = 0
        public var agentsLink = "missing"
        public var skills: [SkillLink] = []
        public var plans = 0
        public var plansLink = "missing"

        public init() {}
    }

    public var projects: [Project] = []
    public var global = Global()
    /// Every link under the Claude Code folder whose target is gone.
    public var broken: [LinkedItem] = []

    public init() {}
}

extension ClaudeLinker {
    /// The state of every link, read from the file system (nothing is changed).
    public func status() -> AgentLinkStatus {
        var status = AgentLinkStatus()
        status.broken = brokenLinks()
        for project in layout.linkedProjects {
            let folders = [layout.folderName + "/Agents/\(project)/", layout.folderName + "/Skills/\(project)/"]
            status.projects.append(AgentLinkStatus.Project(
                name: project,
                agents: FileSystemEntry.namesOfEntries(in: layout.agentsFolder(project)).count { $0.hasSuffix(".md") },
                skills: FileSystemEntry.namesOfEntries(in: layout.skillsFolder(project)).count,
                broken: status.broken.filter { item in folders.contains { item.path.hasPrefix($0) } }))
        }
        let globalAgents = layout.agentsFolder(ClaudeCodeLayout.globalName)
        let globalSkills = layout.skillsFolder(ClaudeCodeLayout.globalName)
        status.global.agents = FileSystemEntry.namesOfEntries(in: globalAgents).count { $0.hasSuffix(".md") }
        status.global.agentsLink = homeLinkState(layout.homeAgents, expected: globalAgents).name
        status.global.skills = FileSystemEntry.namesOfEntries(in: globalSkills).map { name in
            AgentLinkStatus.SkillLink(name: name, link: homeLinkState(layout.homeSkills + "/" + name, expected: globalSkills + "/" + name).name)
        }
        status.global.plans = FileSystemEntry.namesOfEntries(in: layout.plansFolder).count { $0.hasSuffix(".md") }
        status.global.plansLink = homeLinkState(layout.homePlans, expected: layout.plansFolder).name
        return status
    }
}
