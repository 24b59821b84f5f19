/// What `link`, `unlink` and `status` found and did; field names are part of the `--json` contract.
public struct LinkResult: Sendable, Equatable, Encodable {
    public enum Outcome: Sendable, Equatable {
        case created, alreadyLinked
        case updated(previousTarget: String)
        case skipped(reason: String)
    }

    /// Vault-relative for links in the vault; absolute for links in `~/.claude`.
    public var path: String
    public var target: String
    public var outcome: Outcome

    private enum CodingKeys: String, CodingKey { case path, target, outcome, previousTarget, reason }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encode(target, forKey: .target)
        var previous: String? = nil
        var reason: String? = nil
        let name: String
        switch outcome {
        case .created: name = "created"
        case .alreadyLinked: name = "already-linked"
        case .updated(let target): name = "updated"; previous = target
        case .skipped(let text): name = "skipped"; reason = text
        }
        try container.encode(name, forKey: .outcome)
        try container.encode(previous, forKey: .previousTarget)
        try container.encode(reason, forKey: .reason)
    }
}

/// A symlink and its target (as written).
public struct LinkedItem: Sendable, Equatable, Encodable {
    public var path: String
    public var target: String
}

public struct LinkReport: Sendable, Encodable {
    public var project: String
    public var links: [LinkResult] = []
    /// Broken symlinks anywhere in the layout (never deleted).
    public var broken: [LinkedItem] = []
    /// The project folder has no `.claude/agents/*.md` and no `.claude/skills/*/`.
    public var foundNothing = false
    /// The project's own plans folder (`plansDirectory` in its `.claude/settings.json`), linked as `Plans/<project>`.
    public var plansDirectory: String?

    public init(project: String) { self.project = project }

    public func count(_ outcome: (LinkResult.Outcome) -> Bool) -> Int { links.count { outcome($0.outcome) } }
    public var created: Int { count { $0 == .created } }
    public var alreadyLinked: Int { count { $0 == .alreadyLinked } }
    public var updated: Int { count { if case .updated = $0 { return true } else { return false } } }
    public var skipped: Int { count { if case .skipped = $0 { return true } else { return false } } }
}

public struct UnlinkPlan: Sendable, Encodable {
    public var project: String
    /// The symlinks to remove (or removed).
    public var symlinks: [LinkedItem] = []
    /// Real files or folders found among the project's links: left where they are.
    public var realFiles: [String] = []

    public init(project: String) { self.project = project }
}

/// One of `~/.claude`'s links to the vault (`agents`, `plans`, a global skill).
public enum HomeLinkState: Sendable, Equatable {
    case linked
    case missing
    case broken(target: String)
    /// A symlink to somewhere else (not Rhizome's): left alone.
    case elsewhere(target: String)
    /// A real folder (Claude Code's own): left alone.
    case realFolder

    public var name: String {
        switch self {
        case .linked: return "linked"
        case .missing: return "missing"
        case .broken: return "broken"
        case .elsewhere: return "elsewhere"
        case .realFolder: return "real-folder"
        }
    }
}

/// Why linking could not run at all (problems with single links are `LinkResult.Outcome.skipped`).
public enum AgentLinkError: RhizomeError, Equatable {
    case invalidProjectName(String)
    case notAFolder(String)
    case notInGitRepository(String)
    case cannotCreate(String, reason: String)
    case cannotRemove(String, reason: String)
    case unknownProject(String, known: [String])
    case notAProject(String)
    case layoutIsSymlink(String, target: String)
    case nameTaken(String, by: String)

    public var code: String {
        switch self {
        case .invalidProjectName: return "invalid-project-name"
        case .notAFolder: return "project-not-found"
        case .notInGitRepository: return "project-name-needed"
        case .cannotCreate, .cannotRemove: return "link-failed"
        case .unknownProject: return "project-not-linked"
        case .notAProject: return "not-a-project"
        case .layoutIsSymlink: return "layout-is-symlink"
        case .nameTaken: return "project-name-taken"
        }
    }

    /// A link or removal the filesystem refused is Rhizome's failure; the rest is the user's to fix.
    public var isUserMistake: Bool {
        switch self {
        case .cannotCreate, .cannotRemove: return false
        default: return true
        }
    }

    public var description: String {
        switch self {
        case .invalidProjectName(let name):
            return "`\(name)` cannot be a project name (it must be non-empty, not start with `.`, not be `global`, and hold none of / \\ # | [ ] ^ : * ? \" < >, which break folders or wikilinks). Use --name."
        case .notAFolder(let path):
            return "there is no folder at \(path). Give the project's folder: `rhizome claude link PATH`."
        case .notInGitRepository(let path):
            return "\(path) is not inside a git repository, so it has no name to use: give one with --name NAME."
        case .cannotCreate(let path, let reason):
            return "could not create \(path): \(reason). Check that the vault folder is writable."
        case .cannotRemove(let path, let reason):
            return "could not remove the link \(path): \(reason). Nothing else was changed."
        case .notAProject(let path):
            return "\(path)/.claude is Claude Code's own folder (~/.claude) or lies inside the vault: it is not a project to link. Run `rhizome claude link` in a repository."
        case .layoutIsSymlink(let path, let target):
            return "\(path) is a symlink (to \(target)), not a folder Rhizome made; nothing was linked there. Move it away to let Rhizome manage the layout."
        case .nameTaken(let name, let other):
            return "the project name `\(name)` is already used by \(other), which still exists. Give this one another name with --name."
        case .unknownProject(let name, let known):
            return "no project `\(name)` is linked into the vault" + (known.isEmpty ? "" : " (linked: \(known.joined(separator: ", ")))") + "."
        }
    }
}
