import Foundation

/// `ClaudeCode/README.md`: the generated note listing linked projects, their agents and skills, the
/// global ones and the plans, as wikilinks that resolve (through Rhizome's own resolver) to the right
/// files — the shortest unambiguous path, as Obsidian writes them. Rewritten only when its content
/// changes, and never over a README that Rhizome did not write.
public enum ClaudeIndexNote {
    public enum Outcome: String, Sendable, Encodable {
        case written, unchanged
        /// A README.md that Rhizome did not write is there: left alone.
        case notOurs = "not-ours"
    }

    /// The marker key in the note's frontmatter that says Rhizome wrote it.
    static let marker = "generated-by: rhizome"

    /// Writes the note if its content changed; `linker` supplies the link states.
    public static func update(_ linker: ClaudeLinker, now: Date = Date()) throws -> Outcome {
        let layout = linker.layout
        let text = try render(linker, now: now)
        let existing = FileSystemEntry.at(layout.indexNote)
        switch existing {
        case .missing:
            try AtomicFileWriter.create(layout.indexNote, bytes: Array(text.utf8))
            return .written
        case .file:
            guard case .success(let bytes) = FileReader.read(DiskPath(layout.indexNote), maxBytes: 4 << 20) else { return .notOurs }
            // Read with LF endings: a checkout with git's autocrlf or a Windows editor may have made them
            // CRLF (in a `String`, "\r\n" is one character, which no split at "\n" finds); kept as found.
            let usesCRLF = bytes.firstIndex(of: ASCII.newline).map { $0 > 0 && bytes[$0 - 1] == ASCII.carriageReturn } ?? false
            let current = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
            // The mark must be in the frontmatter, not just anywhere in a note.
            let frontmatter = current.hasPrefix("---\n") ? current.dropFirst(4).components(separatedBy: "\n---\n").first ?? "" : ""
            guard frontmatter.split(separator: "\n").contains(Substring(marker)) else { return .notOurs }
            if withoutUpdatedLine(current) == withoutUpdatedLine(text) { return .unchanged }
            let written = usesCRLF ? text.replacingOccurrences(of: "\n", with: "\r\n") : text
            try AtomicFileWriter.replace(layout.indexNote, expecting: bytes, with: Array(written.utf8))
            return .written
        case .symlink, .directory:
            return .notOurs
        }
    }

    /// The note's text.
    public static func render(_ linker: ClaudeLinker, now: Date) throws -> String {
        let layout = linker.layout
        let files = try VaultScanner(root: layout.vaultRoot).scan().files.map(\.path)
        let resolver = LinkResolver<Int>(files: files.enumerated().map { (path: $0.element, id: $0.offset) })
        let notePath = layout.vaultRelative(layout.indexNote)
        /// The shortest path that resolves to the file; `minimumParts` 2 keeps a skill's folder in its link
        /// (`pdf-tools/SKILL` says more than `SKILL`).
        func wikilink(_ vaultPath: String, minimumParts: Int = 1) -> String {
            let withoutExtension = vaultPath.hasSuffix(".md") ? String(vaultPath.dropLast(3)) : vaultPath
            // `#`, `|`, `^`, `[` and `]` cannot stand in a link to a file (Obsidian refuses them in names, and reads
            // them as headings, aliases or blocks): such a file is named, in code, not linked.
            if withoutExtension.contains(where: { "#|^[]".contains($0) }) {
                let name = String(withoutExtension.split(separator: "/").last ?? "").replacingOccurrences(of: "|", with: "\\|")
                return "`\(name)` (a name links cannot hold)"
            }
            let parts = withoutExtension.split(separator: "/")
            for count in min(minimumParts, parts.count)...max(1, parts.count) {
                let candidate = parts.suffix(count).joined(separator: "/")
                // Unambiguous: no other file ends with the same path (the resolver would pick one of several).
                let key = UnicodeNormalization.matchKey(candidate)
                let matching = files.filter { path in
                    let name = UnicodeNormalization.matchKey(path.hasSuffix(".md") ? String(path.dropLast(3)) : path)
                    return name == key || name.hasSuffix("/" + key)
                }
                if matching.count == 1, let file = resolver.resolve(linkPath: candidate, from: notePath), files[file.id] == vaultPath {
                    return "[[\(candidate)]]"
                }
            }
            return "[[\(withoutExtension)]]"
        }
        func agents(_ project: String) -> [String] {
            FileSystemEntry.names(in: layout.agentsFolder(project)).filter { $0.hasSuffix(".md") && !$0.hasPrefix(".") }
                .map { wikilink(layout.vaultRelative(layout.agentsFolder(project)) + "/" + $0) }
        }
        func skills(_ project: String) -> [String] {
            FileSystemEntry.names(in: layout.skillsFolder(project)).filter { !$0.hasPrefix(".") }.map { name in
                let skill = layout.vaultRelative(layout.skillsFolder(project)) + "/" + name + "/SKILL.md"
                return files.contains(skill) ? wikilink(skill, minimumParts: 2) : name
            }
        }
        let broken = linker.brokenLinks()
        var text = "---\ntype: index\ntitle: Claude Code\nupdated: \(timestamp(now))\ntags:\n  - claude-code\n\(marker)\n---\n"
        text += "# Claude Code\n\nAgents, skills and plans of Claude Code, linked into the vault by `rhizome claude link`. "
        text += "This note is rewritten by Rhizome: edit the files it links to, not this list.\n\n"
        text += "## Projects\n\n"
        let projects = layout.linkedProjects
        if projects.isEmpty {
            text += "No project is linked yet: run `rhizome claude link` in a repository.\n\n"
        } else {
            text += "| Project | Agents | Skills | Status |\n|---|---|---|---|\n"
            for project in projects {
                let prefix = layout.vaultRelative(layout.root) + "/"
                let brokenCount = broken.filter { $0.path.hasPrefix(prefix + "Agents/\(project)/") || $0.path.hasPrefix(prefix + "Skills/\(project)/") }.count
                let status = brokenCount == 0 ? "ok" : "\(brokenCount) broken link\(brokenCount == 1 ? "" : "s")"
                text += "| \(project) | \(cell(agents(project))) | \(cell(skills(project))) | \(status) |\n"
            }
            text += "\n"
        }
        text += "## Global\n\n| | Items | Linked from |\n|---|---|---|\n"
        text += "| Agents | \(cell(agents(ClaudeCodeLayout.globalName))) | `~/.claude/agents`: \(linker.homeLinkState(layout.homeAgents, expected: layout.agentsFolder(ClaudeCodeLayout.globalName)).name) |\n"
        text += "| Skills | \(cell(skills(ClaudeCodeLayout.globalName))) | `~/.claude/skills/<name>` |\n\n"
        let plans = FileSystemEntry.names(in: layout.plansFolder).filter { $0.hasSuffix(".md") }.count
        text += "## Plans\n\n\(plans) plan\(plans == 1 ? "" : "s") in `\(layout.vaultRelative(layout.plansFolder))/` (`~/.claude/plans`: "
        text += "\(linker.homeLinkState(layout.homePlans, expected: layout.plansFolder).name)).\n"
        return text
    }

    private static func cell(_ items: [String]) -> String { items.isEmpty ? "—" : items.joined(separator: ", ") }

    private static func timestamp(_ date: Date) -> String {
        NoteIdentifier.Placeholders(title: "", now: date).dateTime
    }

    private static func withoutUpdatedLine(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("updated: ") }.joined(separator: "\n")
    }
}
