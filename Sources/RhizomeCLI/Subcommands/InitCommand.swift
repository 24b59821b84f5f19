import ArgumentParser
import Foundation
import RhizomeCore

/// `rhizome init`: tells Claude Code, in `~/.claude/CLAUDE.md`, to write plans that are good vault notes.
struct InitCommand: RhizomeSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Add (or update) a `## Plan Files` section in ~/.claude/CLAUDE.md asking Claude Code for Obsidian-friendly plan frontmatter.",
        discussion: "Shows the section and asks before writing. Other sections are never changed; the previous file is kept as a backup.")

    @OptionGroup var global: GlobalOptions

    @Option(name: .customLong("with"), parsing: .upToNextOption, help: "Optional fields plans should also carry: id, projects, priority, related, updated.")
    var fields: [String] = []

    @Option(help: "The file-name convention for plans.")
    var fileName = "<project>-<kebab-slug>.md"

    @Flag(help: "Write without asking.")
    var yes = false

    func validate() throws {
        let chosen = fields.flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
        if let unknown = chosen.first(where: { !PlanFilesInstructions.optionalFields.contains($0) }) {
            throw ValidationError("unknown field `\(unknown)`; choose from \(PlanFilesInstructions.optionalFields.joined(separator: ", "))")
        }
    }

    func execute(in context: CommandContext) throws -> ExitStatus {
        guard let home = context.environment["HOME"], !home.isEmpty else {
            throw CLIError.invalidArgument("HOME is not set, so `~/.claude/CLAUDE.md` cannot be found")
        }
        let path = home + "/.claude/CLAUDE.md"
        let chosen = fields.flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
        let section = PlanFilesInstructions.section(optionalFields: chosen, fileNamePattern: fileName)
        var current: [UInt8]? = nil
        switch FileSystemEntry.at(path) {
        case .missing: break
        case .file, .symlink(_, true):
            guard case .success(let bytes) = FileReader.read(DiskPath(path), maxBytes: 4 << 20) else {
                throw CLIError.invalidArgument("cannot read \(path); nothing was changed")
            }
            current = bytes
        case .symlink(let target, false):
            throw CLIError.invalidArgument("\(path) is a broken symlink (to \(target)); nothing was changed")
        case .directory:
            throw CLIError.invalidArgument("\(path) is a folder, not a file; nothing was changed")
        }
        let before = current.map { String(decoding: $0, as: UTF8.self) } ?? ""
        let after = PlanFilesInstructions.updating(before, with: section)
        let outcome: String
        if after == before {
            outcome = "unchanged"
        } else {
            if !global.json {
                context.print("This section will be \(PlanFilesInstructions.hasSection(before) ? "replaced in" : "added to") \(path):\n")
                context.print(section)
            }
            if !yes {
                context.standardError.write("Write it? [y/N] ")
                let answer = context.readAnswer()?.trimmingCharacters(in: .whitespaces).lowercased()
                guard answer == "y" || answer == "yes" else {
                    context.printError("nothing written" + (answer == nil ? " (no answer; use --yes when not at a terminal)" : ""))
                    return .problemsFound
                }
            }
            if let current {
                // The previous file, kept beside it under a name no one else uses.
                let stamp = path + ".rhizome-backup-" + NoteIdentifier.Placeholders(title: "", now: Date()).dateTime.replacingOccurrences(of: ":", with: "")
                var attempt = 1
                while true {
                    do {
                        try AtomicFileWriter.create(attempt == 1 ? stamp : stamp + "-\(attempt)", bytes: current)
                        break
                    } catch {
                        // Another run in the same second left a backup under that name: take the next one.
                        guard case .alreadyExists = error, attempt < 100 else { throw error }
                        attempt += 1
                    }
                }
                try AtomicFileWriter.replace(path, expecting: current, with: Array(after.utf8))
                outcome = PlanFilesInstructions.hasSection(before) ? "replaced" : "added"
            } else {
                try AtomicFileWriter.create(path, bytes: Array(after.utf8))
                outcome = "created"
            }
        }
        if global.json {
            printJSON(Output(path: path, outcome: outcome), vault: nil, context: context)
        } else {
            context.print(outcome == "unchanged" ? "\(path) already has this `## Plan Files` section; nothing changed" : "\(outcome): the `## Plan Files` section in \(path)")
        }
        return .success
    }

    struct Output: Encodable {
        var path: String
        var outcome: String
    }
}
