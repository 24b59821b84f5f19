import ArgumentParser
import Foundation
import RhizomeCore
import RhizomeStore

/// `rhizome link`: a project's Claude Code agents and skills into the vault, global ones into `~/.claude`.
struct LinkCommand: RhizomeSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "link",
        abstract: "Link a project's Claude Code agents and skills into the vault (and the vault's global ones into ~/.claude).",
        discussion: """
            Symlinks only: one true copy of every file. Running it again changes nothing. It never replaces a real \
            file or folder, never replaces a symlink that is not its own, and never deletes a broken link: it reports them.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The project's folder (default: the current folder).")
    var projectDirectory: String?

    @Option(help: "The project's name in the vault (default: its git repository's folder name, lowercased).")
    var name: String?

    func execute(in context: CommandContext) throws -> ExitStatus {
        let vault = try VaultLocator.locate(explicit: global.vault, environment: context.environment, currentDirectory: context.currentDirectory)
        let linker = try ClaudeLinking.linker(vault: vault, context: context)
        let given = URL(fileURLWithPath: projectDirectory ?? context.currentDirectory, relativeTo: URL(fileURLWithPath: context.currentDirectory))
            .standardizedFileURL.path
        let (directory, project) = try ClaudeLinker.project(at: given, name: name)
        let report = try linker.link(projectDirectory: directory, project: project)
        let note = try ClaudeIndexNote.update(linker)
        _ = try VaultSession.open(global, context: context)  // the graph takes in what was linked

        if global.json {
            printJSON(LinkOutput(report: report, indexNote: note.rawValue), vault: vault, context: context)
            return .success
        }
        if report.foundNothing { context.printError("warning: \(directory)/.claude has no agents (agents/*.md) or skills (skills/*/): no project folders were made") }
        context.print("Linked \(project) into \(linker.layout.vaultRelative(linker.layout.root))/: \(report.created) new, \(report.alreadyLinked) already linked, \(report.updated) updated, \(report.skipped) skipped")
        for result in report.links {
            switch result.outcome {
            case .created: context.print("  + \(result.path) → \(result.target)")
            case .updated(let previous): context.print("  ~ \(result.path) → \(result.target) (was \(previous))")
            case .skipped(let reason): context.printError("warning: \(result.path): \(reason)")
            case .alreadyLinked: break
            }
        }
        ClaudeLinking.printBroken(report.broken, context: context)
        if let own = report.plansDirectory {
            context.print("this project keeps its plans in \(own) (plansDirectory in .claude/settings.json): linked as \(linker.layout.vaultRelative(linker.layout.plansFolder))/\(project)")
        }
        let plans = linker.homeLinkState(linker.layout.homePlans, expected: linker.layout.plansFolder)
        context.print("~/.claude/plans: \(ClaudeLinking.describe(plans, expected: linker.layout.vaultRelative(linker.layout.plansFolder)))")
        context.print("index note \(linker.layout.vaultRelative(linker.layout.indexNote)): \(note == .notOurs ? "left alone (not written by Rhizome)" : note.rawValue)")
        return .success
    }

    struct LinkOutput: Encodable {
        var report: LinkReport
        var indexNote: String
    }
}

/// `rhizome unlink PROJECT`: removes a project's symlinks from the vault, after confirmation.
struct UnlinkCommand: RhizomeSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "unlink",
        abstract: "Remove a project's links from the vault (the files they point to are never touched).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The project's name in the vault (see `rhizome status`).")
    var project: String

    @Flag(help: "Do not ask for confirmation.")
    var yes = false

    func execute(in context: CommandContext) throws -> ExitStatus {
        let vault = try VaultLocator.locate(explicit: global.vault, environment: context.environment, currentDirectory: context.currentDirectory)
        let linker = try ClaudeLinking.linker(vault: vault, context: context)
        guard linker.layout.linkedProjects.contains(project) else {
            throw AgentLinkError.unknownProject(project, known: linker.layout.linkedProjects)
        }
        let plan = linker.unlinkPlan(project: project)
        let needsConfirmation = !plan.symlinks.isEmpty
        if !global.json {
            context.print("Unlinking \(project): \(plan.symlinks.count) link\(plan.symlinks.count == 1 ? "" : "s") to remove")
            for item in plan.symlinks { context.print("  - \(item.path) → \(item.target)") }
            for path in plan.realFiles { context.print("  (kept: \(path) is a real file or folder, not a link)") }
        }
        if !yes && needsConfirmation {
            context.standardError.write("Remove these links? [y/N] ")
            let answer = context.readAnswer()?.trimmingCharacters(in: .whitespaces).lowercased()
            guard answer == "y" || answer == "yes" else {
                context.printError("nothing removed" + (answer == nil ? " (no answer; use --yes when not at a terminal)" : ""))
                return .problemsFound
            }
        }
        let done = try linker.unlink(plan)
        let note = try ClaudeIndexNote.update(linker)
        _ = try VaultSession.open(global, context: context)
        if global.json {
            printJSON(UnlinkOutput(removed: done.symlinks, kept: done.realFiles, indexNote: note.rawValue), vault: vault, context: context)
        } else {
            context.print("removed \(done.symlinks.count) link\(done.symlinks.count == 1 ? "" : "s")" + (done.realFiles.isEmpty ? "" : "; kept \(done.realFiles.count) real file\(done.realFiles.count == 1 ? "" : "s")"))
        }
        return .success
    }

    struct UnlinkOutput: Encodable {
        var removed: [LinkedItem]
        var kept: [String]
        var indexNote: String
    }
}

/// Shared by the link commands.
enum ClaudeLinking {
    static func linker(vault: String, context: CommandContext) throws -> ClaudeLinker {
        guard let home = context.environment["HOME"], !home.isEmpty else {
            throw CLIError.invalidArgument("HOME is not set, so `~/.claude` cannot be found")
        }
        let config = try VaultConfig.load(vaultRoot: vault)
        return ClaudeLinker(layout: ClaudeCodeLayout(vaultRoot: vault, folderName: config.claudeCodeFolder, home: home))
    }

    /// The agent-link part of `status` and `claude status`: linked projects, the vault's own agents,
    /// skills and plans and their `~/.claude` links, and the broken links.
    static func print(_ links: AgentLinkStatus, context: CommandContext) {
        context.print("\nProjects")
        if links.projects.isEmpty { context.print("  none linked (run `rhizome claude link` in a repository)") }
        for project in links.projects {
            context.print("  \(project.name): \(project.agents) agent\(project.agents == 1 ? "" : "s"), \(project.skills) skill\(project.skills == 1 ? "" : "s")" + (project.broken.isEmpty ? "" : ", \(project.broken.count) broken"))
        }
        context.print("\nGlobal")
        context.print("  agents: \(links.global.agents) · ~/.claude/agents: \(links.global.agentsLink)")
        let linkedSkills = links.global.skills.count { $0.link == "linked" }
        context.print("  skills: \(links.global.skills.count) · linked into ~/.claude/skills: \(linkedSkills)")
        context.print("  plans: \(links.global.plans) · ~/.claude/plans: \(links.global.plansLink)")
        printBroken(links.broken, context: context)
    }

    static func printBroken(_ broken: [LinkedItem], context: CommandContext) {
        guard !broken.isEmpty else { return }
        context.print("\(broken.count) broken link\(broken.count == 1 ? "" : "s") (left in place; relink, or remove them yourself):")
        for item in broken { context.print("  ! \(item.path) → \(item.target) (missing)") }
    }

    static func describe(_ state: HomeLinkState, expected: String) -> String {
        switch state {
        case .linked: return "linked to \(expected)"
        case .missing: return "not linked"
        case .broken(let target): return "broken (points to \(target))"
        case .elsewhere(let target): return "a symlink to \(target), not Rhizome's: left alone"
        case .realFolder: return "a real folder: left alone"
        }
    }
}
