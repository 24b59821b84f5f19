import ArgumentParser
import RhizomeCore
import RhizomeStore

/// `rhizome note NOTE`: everything known about one note.
struct NoteCommand: RhizomeSubcommand {
    static let pagesOutput = true  // a list a terminal may page

    static let configuration = CommandConfiguration(
        commandName: "note",
        abstract: "Show everything known about a note: properties, aliases, tags, headings, blocks, tasks, links and backlinks.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The note, as you would write it in a wikilink: Note, Folder/Note or Note.md.", completion: NoteCompletion.kind)
    var note: String

    func execute(in context: CommandContext) throws -> ExitStatus {
        let session = try VaultSession.open(global, context: context)
        let detail = try session.store.note(try session.note(note))
        if global.json {
            printJSON(detail, vault: session.vaultPath, context: context)
            return .success
        }
        context.print(detail.file.path)
        if let frontmatter = detail.frontmatter, case .object(let object) = frontmatter, !object.isEmpty {
            context.print("\nProperties")
            for key in object.keys.sorted() { context.print("  \(key): \(object[key]!.displayText)") }
        }
        if !detail.aliases.isEmpty { context.print("\nAliases: " + detail.aliases.joined(separator: ", ")) }
        if !detail.tags.isEmpty {
            var seen = Set<String>()
            let names = detail.tags.map { "#" + $0.name }.filter { seen.insert($0.lowercased()).inserted }
            context.print("\nTags: " + names.joined(separator: " "))
        }
        if !detail.headings.isEmpty {
            context.print("\nHeadings")
            for heading in detail.headings {
                context.print("  " + String(repeating: "  ", count: heading.level - 1) + "\(String(repeating: "#", count: heading.level)) \(heading.text)  (line \(heading.line))")
            }
        }
        if !detail.blocks.isEmpty { context.print("\nBlocks: " + detail.blocks.map { "^\($0.id) (line \($0.line))" }.joined(separator: ", ")) }
        if !detail.tasks.isEmpty {
            context.print("\nTasks")
            for task in detail.tasks { context.print("  [\(task.status)] \(task.text)  (line \(task.line))") }
        }
        context.print("\nLinks (\(detail.links.count))")
        LinkListing.printGrouped(detail.links, by: { $0.target ?? "unresolved: " + $0.linkPath }, context: context)
        context.print("\nBacklinks (\(detail.backlinks.count))")
        LinkListing.printGrouped(detail.backlinks, by: { $0.source }, context: context)
        if !detail.findings.isEmpty {
            context.print("\nFindings")
            for finding in detail.findings { context.print("  " + finding.diagnosticDescription) }
        }
        return .success
    }
}

/// Shared rendering of link lists grouped by one end, with counts and lines.
enum LinkListing {
    /// The columns of a link occurrence in CSV and TSV output.
    static var columns: [(name: String, value: (LinkRecord) -> String)] {
        [
            ("source", \.source), ("line", { String($0.line) }), ("column", { String($0.column) }), ("kind", \.kind),
            ("linkPath", \.linkPath), ("subpath", { $0.subpath ?? "" }), ("display", { $0.display ?? "" }), ("target", { $0.target ?? "" }),
        ]
    }

    static func printGrouped(
        _ links: [LinkRecord], by name: (LinkRecord) -> String, context: CommandContext
    ) {
        var order: [String] = []
        var groups: [String: [LinkRecord]] = [:]
        for link in links {
            let key = name(link)
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(link)
        }
        for key in order {
            let group = groups[key]!.sorted { ($0.line, $0.column) < ($1.line, $1.column) }
            let lines = group.map { link -> String in
                var text = "\(link.line)"
                if link.kind != "wikilink" {
                    text += " " + (link.propertyKey.map { link.isReference ? "reference \($0): \(link.linkPath)" : "property \($0)" } ?? link.kind)
                }
                return text
            }
            context.print("  \(key)  ×\(group.count)  (line\(group.count == 1 ? "" : "s") \(lines.joined(separator: ", ")))")
        }
    }
}
