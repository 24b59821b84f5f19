import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Links a project's Claude Code agents and skills into the vault, and the vault's global ones into
/// `~/.claude`, with symlinks: one true copy of every file. Idempotent. Never replaces or deletes a real
/// file or folder, never replaces a symlink that is not its own, never deletes a broken link.
public struct ClaudeLinker: Sendable {
    public let layout: ClaudeCodeLayout

    public init(layout: ClaudeCodeLayout) { self.layout = layout }

    /// The top-level folder of the git repository holding `directory`, if any.
    public static func repositoryRoot(for directory: String) -> String? {
        var folder = directory
        while !folder.isEmpty {
            if FileSystemEntry.at(folder + "/.git") != .missing { return folder }
            guard let slash = folder.lastIndex(of: "/") else { break }
            folder = String(folder[..<slash])
        }
        return nil
    }

    /// The project name for a folder: its git repository's top-level folder name, lowercased.
    public static func projectName(for directory: String) -> String? {
        repositoryRoot(for: directory).map { String($0.split(separator: "/").last ?? "").lowercased() }
    }

    /// The project that `rhizome link` links from `path` (an absolute folder), and its name: a folder with
    /// its own `.claude/` is the project, otherwise its git repository's top folder is; the name is `name`
    /// when given, else that repository's folder name, lowercased. The folder is given in one spelling
    /// (symlinks resolved: `/tmp` is `/private/tmp` on macOS), so links never flip between two.
    public static func project(at path: String, name: String? = nil) throws(AgentLinkError) -> (directory: String, name: String) {
        let real = FileSystemEntry.realPath(path) ?? path
        let directory = FileSystemEntry.at(real + "/.claude") == .directory ? real : (repositoryRoot(for: real) ?? real)
        guard let project = name ?? projectName(for: directory) else { throw .notInGitRepository(directory) }
        return (directory, project)
    }

    /// The `plansDirectory` a project's `.claude/settings.json` sets (relative to the project, or absolute,
    /// `~` for the home folder), resolved; nil when it sets none.
    public static func plansDirectory(forProject directory: String, home: String) -> String? {
        guard case .success(let bytes) = FileReader.read(DiskPath(directory + "/.claude/settings.json"), maxBytes: 1 << 20),
              let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
              let value = object["plansDirectory"] as? String, !value.isEmpty else { return nil }
        if value.hasPrefix("/") { return value }
        if value == "~" { return home }
        if value.hasPrefix("~/") { return home + value.dropFirst() }
        return directory + "/" + value
    }

    /// Characters a project name cannot hold: they would break the folder name or the index note's wikilinks.
    static let forbiddenNameCharacters = Set("/\\#|[]^:*?\"<>")

    /// Links `projectDirectory`'s `.claude/agents/*.md` and `.claude/skills/*/` into the vault under
    /// `project`, and the global agents, skills and plans into `~/.claude` where those are absent.
    public func link(projectDirectory: String, project: String) throws(AgentLinkError) -> LinkReport {
        guard !project.isEmpty, !project.hasPrefix("."), project != ClaudeCodeLayout.globalName,
              !project.contains(where: { Self.forbiddenNameCharacters.contains($0) }) else {
            throw .invalidProjectName(project)
        }
        guard FileSystemEntry.isDirectory(projectDirectory) else { throw .notAFolder(projectDirectory) }
        var report = LinkReport(project: project)
        let claude = projectDirectory + "/.claude"
        // `~/.claude` or the vault itself is not a project: linking it would loop the vault into itself.
        if let real = FileSystemEntry.realPath(claude),
           real == FileSystemEntry.realPath(layout.claudeHome) || isInsideVault(real) {
            throw .notAProject(projectDirectory)
        }
        // The layout's folders must be real folders: one that is a symlink leads outside Rhizome's own files.
        for folder in [layout.root, layout.agentsRoot, layout.skillsRoot, layout.plansFolder, layout.agentsFolder(project), layout.skillsFolder(project)] {
            if case .symlink(let target, _) = FileSystemEntry.at(folder) { throw .layoutIsSymlink(layout.vaultRelative(folder), target: target) }
        }
        // A project name is one repository's: another, still existing repository behind the same name is refused.
        if let other = otherRepository(behind: project, than: projectDirectory) { throw .nameTaken(project, by: other) }
        let agents = FileSystemEntry.names(in: claude + "/agents").filter { $0.hasSuffix(".md") && !$0.hasPrefix(".") }
        let skills = FileSystemEntry.names(in: claude + "/skills").filter { !$0.hasPrefix(".") && FileSystemEntry.isDirectory(claude + "/skills/" + $0) }
        report.foundNothing = agents.isEmpty && skills.isEmpty
        // A repository without agents or skills gets no (empty) project folders.
        let projectFolders = report.foundNothing ? [] : [layout.agentsFolder(project), layout.skillsFolder(project)]
        for folder in [layout.agentsFolder(ClaudeCodeLayout.globalName), layout.skillsFolder(ClaudeCodeLayout.globalName), layout.plansFolder] + projectFolders {
            do { try FileSystemEntry.makeFolders(folder) } catch { throw .cannotCreate(error.path, reason: error.reason) }
        }

        // The project's artefacts, into the vault.
        for name in agents {
            report.links.append(ensureLink(at: layout.agentsFolder(project) + "/" + name, to: claude + "/agents/" + name, ownedByLayout: true))
        }
        for name in skills {
            report.links.append(ensureLink(at: layout.skillsFolder(project) + "/" + name, to: claude + "/skills/" + name, ownedByLayout: true))
        }

        // The vault's global skills, into ~/.claude/skills — only when that is a real folder (or absent): a
        // symlinked one is either the vault's own global folder already, or someone else's.
        let globalSkills = FileSystemEntry.namesOfEntries(in: layout.skillsFolder(ClaudeCodeLayout.globalName))
            .filter { FileSystemEntry.isRealDirectory(layout.skillsFolder(ClaudeCodeLayout.globalName) + "/" + $0) }
        try? FileSystemEntry.makeFolders(layout.claudeHome)  // a failure shows up as the links it prevents
        switch FileSystemEntry.at(layout.homeSkills) {
        case .symlink(let target, _):
            if FileSystemEntry.resolvedTarget(of: layout.homeSkills, target: target) != FileSystemEntry.realPath(layout.skillsFolder(ClaudeCodeLayout.globalName)) {
                report.links.append(LinkResult(path: layout.homeSkills, target: target, outcome: .skipped(reason: "~/.claude/skills is a symlink to \(target), not Rhizome's; global skills were not linked into it")))
            }
        case .file:
            report.links.append(LinkResult(path: layout.homeSkills, target: "", outcome: .skipped(reason: "~/.claude/skills is a file; global skills were not linked")))
        case .missing, .directory:
            if !globalSkills.isEmpty { try? FileSystemEntry.makeFolders(layout.homeSkills) }
            for name in globalSkills {
                report.links.append(ensureLink(at: layout.homeSkills + "/" + name, to: layout.skillsFolder(ClaudeCodeLayout.globalName) + "/" + name, ownedByLayout: false))
            }
        }
        // A project that keeps its plans in its own folder (`plansDirectory`): that folder, linked as Plans/<project>.
        if let plans = Self.plansDirectory(forProject: projectDirectory, home: String(layout.claudeHome.dropLast("/.claude".count))),
           FileSystemEntry.isDirectory(plans), let realPlans = FileSystemEntry.realPath(plans),
           !isInsideVault(realPlans), realPlans != FileSystemEntry.realPath(layout.homePlans) {
            report.plansDirectory = plans
            report.links.append(ensureLink(at: layout.plansFolder + "/" + project, to: plans, ownedByLayout: true))
        }
        report.links.append(ensureLink(at: layout.homeAgents, to: layout.agentsFolder(ClaudeCodeLayout.globalName), ownedByLayout: false))
        report.links.append(ensureLink(at: layout.homePlans, to: layout.plansFolder, ownedByLayout: false))
        report.broken = brokenLinks()
        return report
    }

    /// What `unlink(project)` would do: the project's symlinks, and the real files it would leave.
    public func unlinkPlan(project: String) -> UnlinkPlan {
        var plan = UnlinkPlan(project: project)
        // Only Rhizome's real project folders are looked into: a symlinked one leads outside the vault.
        let plansLink = layout.plansFolder + "/" + project
        if case .symlink(let target, _) = FileSystemEntry.at(plansLink) {
            plan.symlinks.append(LinkedItem(path: layout.vaultRelative(plansLink), target: target))
        }
        for folder in [layout.agentsFolder(project), layout.skillsFolder(project)] where FileSystemEntry.isRealDirectory(folder) {
            for name in FileSystemEntry.names(in: folder) {
                let path = folder + "/" + name
                if case .symlink(let target, _) = FileSystemEntry.at(path) {
                    plan.symlinks.append(LinkedItem(path: layout.vaultRelative(path), target: target))
                } else {
                    plan.realFiles.append(layout.vaultRelative(path))
                }
            }
        }
        return plan
    }

    /// Removes the project's symlinks (never their targets) and the folders they leave empty.
    public func unlink(_ plan: UnlinkPlan) throws(AgentLinkError) -> UnlinkPlan {
        var done = plan
        done.symlinks = []
        for item in plan.symlinks {
            let path = layout.vaultRoot + "/" + item.path
            // Checked again: only a symlink is ever removed, whatever appeared since the plan was made.
            guard case .symlink = FileSystemEntry.at(path) else { continue }
            guard removeLink(path) == 0 else { throw .cannotRemove(item.path, reason: FileSystemEntry.lastError) }
            done.symlinks.append(item)
        }
        for folder in [layout.agentsFolder(plan.project), layout.skillsFolder(plan.project)]
        where FileSystemEntry.isRealDirectory(folder) && FileSystemEntry.names(in: folder).isEmpty {
            rmdir(folder)
        }
        return done
    }

    /// Every symlink in the layout, and Rhizome's links in `~/.claude`, whose target is missing.
    public func brokenLinks() -> [LinkedItem] {
        var broken: [LinkedItem] = []
        for root in [layout.agentsRoot, layout.skillsRoot] {
            for project in FileSystemEntry.names(in: root) {
                for name in FileSystemEntry.names(in: root + "/" + project) {
                    let path = root + "/" + project + "/" + name
                    if case .symlink(let target, false) = FileSystemEntry.at(path) {
                        broken.append(LinkedItem(path: layout.vaultRelative(path), target: target))
                    }
                }
            }
        }
        for name in FileSystemEntry.names(in: layout.plansFolder) {
            if case .symlink(let target, false) = FileSystemEntry.at(layout.plansFolder + "/" + name) {
                broken.append(LinkedItem(path: layout.vaultRelative(layout.plansFolder + "/" + name), target: target))
            }
        }
        for path in [layout.homeAgents, layout.homePlans] + FileSystemEntry.names(in: layout.homeSkills).map({ layout.homeSkills + "/" + $0 }) {
            if case .symlink(let target, false) = FileSystemEntry.at(path), isInsideLayout(target) {
                broken.append(LinkedItem(path: path, target: target))
            }
        }
        return broken
    }

    /// The state of one of `~/.claude`'s links to the vault.
    public func homeLinkState(_ path: String, expected: String) -> HomeLinkState {
        switch FileSystemEntry.at(path) {
        case .missing: return .missing
        case .symlink(let target, let resolves):
            // Compared as real paths: a relative link, or a vault reached through a symlink, is still the same place.
            let pointsTo = FileSystemEntry.resolvedTarget(of: path, target: target)
            if pointsTo == (FileSystemEntry.realPath(expected) ?? normalised(expected)) || normalised(target) == normalised(expected) {
                return resolves ? .linked : .broken(target: target)
            }
            return .elsewhere(target: target)
        case .file, .directory: return .realFolder
        }
    }

    // MARK: Helpers

    /// Makes `path` a symlink to `target` when that is safe; says what it did.
    private func ensureLink(at path: String, to target: String, ownedByLayout: Bool) -> LinkResult {
        var result = LinkResult(path: layout.vaultRelative(path), target: target, outcome: .created)
        switch FileSystemEntry.at(path) {
        case .missing:
            if symlink(target, path) != 0 { result.outcome = .skipped(reason: "could not create the link: \(FileSystemEntry.lastError)") }
        case .symlink(let existing, _):
            let pointsTo = FileSystemEntry.resolvedTarget(of: path, target: existing)
            if normalised(existing) == normalised(target) || pointsTo == FileSystemEntry.realPath(target) {
                result.outcome = .alreadyLinked
            } else if ownedByLayout || isInsideLayout(pointsTo) {
                // A link of Rhizome's own layout with an old target (a moved repository): pointed at the new one.
                result.outcome = replaceLink(at: path, with: target, previous: existing)
            } else {
                result.outcome = .skipped(reason: "a symlink to \(existing) is already there, not made by Rhizome; left alone")
            }
        case .file:
            result.outcome = .skipped(reason: "a real file is already there; left alone")
        case .directory:
            result.outcome = .skipped(reason: "a real folder is already there; left alone")
        }
        return result
    }

    /// Swaps the symlink at `path` for one to `target`: a new link under a fresh name beside it, renamed
    /// over it. The temporary name is one this call created (symlink(2) fails when anything is there).
    private func replaceLink(at path: String, with target: String, previous: String) -> LinkResult.Outcome {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        for _ in 0..<16 {
            let temporary = folder + "/.rhizome-link-\(getpid())-\(String(UInt32.random(in: .min ... .max), radix: 36))"
            guard symlink(target, temporary) == 0 else {
                if errno == EEXIST { continue }
                return .skipped(reason: "could not update the link: \(FileSystemEntry.lastError)")
            }
            // Checked again just before the swap: only ever replace a symlink.
            guard case .symlink = FileSystemEntry.at(path) else {
                removeLink(temporary)
                return .skipped(reason: "it is no longer a symlink; left alone")
            }
            guard rename(temporary, path) == 0 else {
                let reason = FileSystemEntry.lastError
                removeLink(temporary)
                return .skipped(reason: "could not update the link: \(reason)")
            }
            return .updated(previousTarget: previous)
        }
        return .skipped(reason: "could not find a free temporary name beside the link")
    }

    /// Whether a target (resolved) lies in the layout: such links in `~/.claude` are Rhizome's.
    private func isInsideLayout(_ target: String) -> Bool {
        let root = FileSystemEntry.realPath(layout.root) ?? normalised(layout.root)
        let path = FileSystemEntry.realPath(target) ?? normalised(target)
        return path == root || path.hasPrefix(root + "/")
    }

    private func isInsideVault(_ realPath: String) -> Bool {
        let vault = FileSystemEntry.realPath(layout.vaultRoot) ?? layout.vaultRoot
        return realPath == vault || realPath.hasPrefix(vault + "/")
    }

    /// Another repository, still on disk, whose files the project's existing links point at.
    private func otherRepository(behind project: String, than directory: String) -> String? {
        let own = FileSystemEntry.realPath(directory) ?? directory
        for folder in [layout.agentsFolder(project), layout.skillsFolder(project)] where FileSystemEntry.isRealDirectory(folder) {
            for name in FileSystemEntry.names(in: folder) {
                guard case .symlink(let target, true) = FileSystemEntry.at(folder + "/" + name) else { continue }
                let absolute = target.hasPrefix("/") ? target : folder + "/" + target
                guard let range = absolute.range(of: "/.claude/") else { continue }
                let repository = String(absolute[..<range.lowerBound])
                if (FileSystemEntry.realPath(repository) ?? repository) != own { return repository }
            }
        }
        return nil
    }

    private func normalised(_ path: String) -> String {
        var text = path
        while text.count > 1, text.hasSuffix("/") { text.removeLast() }
        return text
    }
}

/// `unlink(2)` on a symlink (never a target), named apart from `ClaudeLinker.unlink(_:)`.
@discardableResult
private func removeLink(_ path: String) -> Int32 {
    unlink(path)
}
