import Foundation
import Testing
import RhizomeCLI
import RhizomeTestSupport

/// A vault, a temp `HOME` and temp git repositories for the `link`, `unlink` and `status` tests: real
/// files and real symlinks, nothing shared with the user's own `~/.claude`.
final class ClaudeLinkFixture {
    let cli: CLIHarness
    let vault: TemporaryVault

    init() throws {
        cli = try CLIHarness()
        vault = try TemporaryVault()
    }

    deinit { cli.cleanUp() }

    /// The temp `HOME`.
    var home: String { cli.home.path }
    /// `~/.claude` in the temp `HOME`.
    var claudeHome: String { home + "/.claude" }

    /// A git repository (a folder with a `.git` folder) at `outside/<relativePath>`, with
    /// `.claude/agents/<file>` for each agent and `.claude/skills/<folder>/SKILL.md` for each skill.
    @discardableResult
    func repository(_ relativePath: String, agents: [String: String] = [:], skills: [String: String] = [:]) throws -> URL {
        let root = vault.outside.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: root.appendingPathComponent(".git"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent(".claude"), withIntermediateDirectories: true)
        for (name, text) in agents { try write(root.appendingPathComponent(".claude/agents/" + name), text) }
        for (name, text) in skills { try write(root.appendingPathComponent(".claude/skills/\(name)/SKILL.md"), text) }
        return root
    }

    /// The usual test project: `outside/Acme` (project `acme`) with two agents and two skills, one of
    /// which has a reference file beside its SKILL.md.
    @discardableResult
    func acme(at relativePath: String = "Acme") throws -> URL {
        let root = try repository(
            relativePath,
            agents: ["code-reviewer.md": Self.agent("code-reviewer", "Reviews code before a merge."),
                     "test-writer.md": Self.agent("test-writer", "Writes focused unit tests.", body: "Write tests that pin down behaviour.")],
            skills: ["pdf-tools": Self.skill("pdf-tools", "Fills and merges PDF files."),
                     "release": Self.skill("release", "Cuts a release, with changelog, tag and notes.")])
        try write(root.appendingPathComponent(".claude/skills/pdf-tools/reference.md"), "# PDF reference\n\nForms, fields, merging.\n")
        return root
    }

    static func agent(_ name: String, _ description: String, body: String = "You review carefully.") -> String {
        "---\nname: \(name)\ndescription: \(description)\ntools: Read, Grep\n---\n\n\(body)\n"
    }

    static func skill(_ name: String, _ description: String, body: String = "## Instructions\n\nDo the thing.") -> String {
        "---\nname: \(name)\ndescription: \(description)\n---\n\n# \(name)\n\n\(body)\n"
    }

    func write(_ url: URL, _ text: String) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    /// Runs a command on the vault (its own index file), from `directory` (default: the temp `HOME`).
    func run(_ arguments: [String], in directory: String? = nil) -> CLIHarness.Result {
        cli.run(arguments, vault: vault, in: directory)
    }

    /// Runs a command whose confirmation prompt gets `answer` (nil: end of input).
    func run(_ arguments: [String], answering answer: String?) -> CLIHarness.Result {
        let output = OutputSink.capturing()
        let error = OutputSink.capturing()
        let context = CommandContext(
            environment: cli.environment, currentDirectory: home, standardOutput: output, standardError: error, isTerminal: false,
            readAnswer: { answer })
        let status = CLI.run(arguments + ["--vault", vault.path, "--db", vault.databasePath], context: context)
        return CLIHarness.Result(status: status, output: output.text, error: error.text)
    }

    /// `rhizome link DIR [--json]` for a repository.
    func link(_ repository: URL, _ extra: [String] = []) -> CLIHarness.Result {
        run(["link", repository.path] + extra)
    }

    // MARK: The file system, without following symlinks

    /// The target of the symlink at `path`, or nil when `path` is not a symlink.
    func symlinkTarget(_ path: String) -> String? {
        guard (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType == .typeSymbolicLink else { return nil }
        return try? FileManager.default.destinationOfSymbolicLink(atPath: path)
    }

    func isRealFolder(_ path: String) -> Bool {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType == .typeDirectory
    }

    func isRealFile(_ path: String) -> Bool {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType == .typeRegular
    }

    /// Whether anything, even a broken symlink, is at `path`.
    func exists(_ path: String) -> Bool {
        (try? FileManager.default.attributesOfItem(atPath: path)) != nil
    }

    func bytes(_ path: String) -> [UInt8]? {
        (try? Data(contentsOf: URL(fileURLWithPath: path))).map(Array.init)
    }

    /// Every entry under `path`, without following symlinks: `link → target`, `file <bytes>` or `folder`,
    /// keyed by the path relative to `path`. Two equal snapshots mean nothing was created, removed,
    /// retargeted or rewritten.
    func snapshot(_ path: String) -> [String: String] {
        var entries: [String: String] = [:]
        func walk(_ folder: String, _ prefix: String) {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
                let full = folder + "/" + name
                let key = prefix + name
                if let target = symlinkTarget(full) {
                    entries[key] = "link → " + target
                } else if isRealFolder(full) {
                    entries[key] = "folder"
                    walk(full, key + "/")
                } else {
                    entries[key] = "file " + (bytes(full).map { String(decoding: $0, as: UTF8.self) } ?? "<unreadable>")
                }
            }
        }
        walk(path, "")
        return entries
    }

    /// The vault and `~/.claude`, for "nothing changed" comparisons.
    func snapshotAll() -> [String: String] {
        snapshot(vault.path).mapKeysWithPrefix("vault/").merging(snapshot(claudeHome).mapKeysWithPrefix("~/.claude/")) { $1 }
    }

    /// Moves a folder under `outside` (a repository that moved).
    func moveOutside(_ from: String, to destination: String) throws {
        let target = vault.outside.appendingPathComponent(destination)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: vault.outside.appendingPathComponent(from), to: target)
    }
}

extension Dictionary where Key == String {
    fileprivate func mapKeysWithPrefix(_ prefix: String) -> [String: Value] {
        Dictionary(uniqueKeysWithValues: map { (prefix + $0.key, $0.value) })
    }
}

extension CLIHarness.Result {
    /// `data.report.links` of `link --json`.
    var linkResults: [[String: Any]] { (data["report"] as? [String: Any])?["links"] as? [[String: Any]] ?? [] }
    /// `data.report.broken` of `link --json`.
    var linkBroken: [[String: Any]] { (data["report"] as? [String: Any])?["broken"] as? [[String: Any]] ?? [] }
    /// How many links of `link --json` had each outcome.
    var outcomeCounts: [String: Int] {
        linkResults.reduce(into: [:]) { counts, link in counts[link["outcome"] as? String ?? "?", default: 0] += 1 }
    }
    /// The link result for `path` in `link --json`.
    func linkResult(_ path: String) -> [String: Any]? { linkResults.first { $0["path"] as? String == path } }
    var outputLines: [String] { output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
    var errorLines: [String] { error.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
}
