import ArgumentParser
import RhizomeStore

/// `rhizome links NOTE` and `rhizome links --all`: outgoing link occurrences.
struct LinksCommand: RhizomeSubcommand {
    static let pagesOutput = true  // a list a terminal may page

    static let configuration = CommandConfiguration(
        commandName: "links",
        abstract: "List a note's outgoing links (with counts and lines), or every link in the vault with --all.",
        discussion: "`rhizome links --all --json` is the stable contract for checking Rhizome's fidelity to Obsidian: one entry per link occurrence with source, target (or null), linkPath, subpath, display, kind, propertyKey, line and column.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The note (as in a wikilink).", completion: NoteCompletion.kind)
    var note: String?

    @Flag(name: .long, help: "Every link occurrence in the vault.")
    var all = false

    @OptionGroup var shaping: ListShaping

    func validate() throws {
        if all == (note != nil) { throw ValidationError("give either a NOTE or --all") }
    }

    func execute(in context: CommandContext) throws -> ExitStatus {
        let session = try VaultSession.open(global, context: context)
        if all {
            let all = try session.store.allLinks()
            let (links, total) = try shaping.shape(all, path: \.source, store: session.store, sortBy: SortField.linkFields(all))
            shaping.print(links, total: total, columns: LinkListing.columns, path: \.source, command: self, session: session, context: context) {
                for link in links {
                    context.print("\(link.source):\(link.line):\(link.column)  \(link.kind)  \(link.linkPath)\(link.subpath.map { "#" + $0 } ?? "")  → \(link.target ?? "(unresolved)")")
                }
            }
            return .success
        }
        let file = try session.note(note!)
        // A note's links are narrowed and listed by what they reach (`--folder Projects`: its links into Projects/).
        let reached = { (link: LinkRecord) in link.target ?? link.linkPath }
        let outgoing = try session.store.outgoingLinks(of: file.id)
        let (links, total) = try shaping.shape(outgoing, path: reached, store: session.store, sortBy: SortField.linkFields(outgoing))
        shaping.print(links, total: total, columns: LinkListing.columns, path: reached, command: self, session: session, context: context) {
            context.print("Links from \(file.path) (\(total))")
            LinkListing.printGrouped(links, by: { $0.target ?? "unresolved: " + $0.linkPath }, context: context)
        }
        return .success
    }
}

/// `rhizome backlinks NOTE`: who links here.
struct BacklinksCommand: RhizomeSubcommand {
    static let pagesOutput = true  // a list a terminal may page

    static let configuration = CommandConfiguration(commandName: "backlinks", abstract: "List the notes that link to a note, with counts and lines.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The note (as in a wikilink).", completion: NoteCompletion.kind)
    var note: String

    @OptionGroup var shaping: ListShaping

    func execute(in context: CommandContext) throws -> ExitStatus {
        let session = try VaultSession.open(global, context: context)
        let file = try session.note(note)
        let backlinks = try session.store.backlinks(of: file.id)
        let (links, total) = try shaping.shape(backlinks, path: \.source, store: session.store, sortBy: SortField.linkFields(backlinks))
        shaping.print(links, total: total, columns: LinkListing.columns, path: \.source, command: self, session: session, context: context) {
            let sources = Set(links.map(\.source)).count
            context.print("Backlinks to \(file.path): \(total)" + (links.count < total ? "" : " from \(sources) file\(sources == 1 ? "" : "s")"))
            LinkListing.printGrouped(links, by: { $0.source }, context: context)
        }
        return .success
    }
}

/// `rhizome unresolved`: links that point at no file. Exit 1 when there are any.
struct UnresolvedCommand: RhizomeSubcommand {
    static let pagesOutput = true  // a list a terminal may page

    static let configuration = CommandConfiguration(
        commandName: "unresolved",
        abstract: "List links that resolve to no file, grouped by link path (exit status 1 when there are any).")

    @OptionGroup var global: GlobalOptions

    @OptionGroup var shaping: ListShaping

    func execute(in context: CommandContext) throws -> ExitStatus {
        let session = try VaultSession.open(global, context: context)
        let unresolved = try session.store.unresolvedLinks()
        let (links, total) = try shaping.shape(unresolved, path: \.source, store: session.store, sortBy: SortField.linkFields(unresolved))
        shaping.print(links, total: total, columns: LinkListing.columns, path: \.source, command: self, session: session, context: context) {
            var order: [String] = []
            var groups: [String: [LinkRecord]] = [:]
            for link in links {
                let key = link.linkPath.lowercased()
                if groups[key] == nil { order.append(key) }
                groups[key, default: []].append(link)
            }
            context.print("\(total) unresolved link\(total == 1 ? "" : "s")"
                + (links.count < total ? "" : " to \(order.count) missing file\(order.count == 1 ? "" : "s")"))
            for key in order {
                let group = groups[key]!
                context.print("  \(group[0].linkPath.isEmpty ? "(empty)" : group[0].linkPath)  ×\(group.count)")
                for link in group { context.print("      \(link.source):\(link.line):\(link.column)") }
            }
        }
        return total == 0 ? .success : .problemsFound
    }
}
