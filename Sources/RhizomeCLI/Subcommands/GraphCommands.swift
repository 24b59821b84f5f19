import ArgumentParser
import RhizomeStore

/// `rhizome neighbors NOTE --depth N`: files within N links.
struct NeighborsCommand: RhizomeSubcommand {
    static let pagesOutput = true  // a list a terminal may page

    static let configuration = CommandConfiguration(commandName: "neighbors", abstract: "List files within N links of a note (either direction by default).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The note (as in a wikilink).", completion: NoteCompletion.kind)
    var note: String

    @Option(name: .long, help: "How many links away (1–10).")
    var depth = 1

    @Option(name: .long, help: "Follow outgoing links, incoming links, or both.")
    var direction: IndexStore.Direction = .both

    @OptionGroup var shaping: ListShaping

    func validate() throws {
        guard (1...10).contains(depth) else { throw ValidationError("--depth must be between 1 and 10") }
    }

    func execute(in context: CommandContext) throws -> ExitStatus {
        let session = try VaultSession.open(global, context: context)
        let file = try session.note(note)
        let fields: [SortField<NeighborRecord>] = [.number("distance", descendingByDefault: false) { Double($0.distance) }, .text("path", \.path)]
        let (shown, total) = try shaping.shape(
            try session.store.neighbors(of: file.id, depth: depth, direction: direction), path: \.path, store: session.store, sortBy: fields)
        let columns: [(name: String, value: (NeighborRecord) -> String)] = [("path", \.path), ("distance", { String($0.distance) })]
        shaping.print(shown, total: total, columns: columns, path: \.path, command: self, session: session, context: context) {
            context.print("\(total.grouped) file\(total == 1 ? "" : "s") within \(depth) link\(depth == 1 ? "" : "s") of \(file.path)")
            for neighbor in shown { context.print("  \(neighbor.distance)  \(neighbor.path)") }
        }
        return .success
    }
}

extension IndexStore.Direction: ExpressibleByArgument {}

/// `rhizome path A B`: the shortest chain of links.
struct PathCommand: RhizomeSubcommand {
    static let configuration = CommandConfiguration(commandName: "path", abstract: "Show the shortest chain of links from one note to another.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The start note.", completion: NoteCompletion.kind)
    var from: String

    @Argument(help: "The goal note.", completion: NoteCompletion.kind)
    var to: String

    @Flag(name: .long, help: "Follow links in both directions (as the graph view draws them).")
    var undirected = false

    func execute(in context: CommandContext) throws -> ExitStatus {
        let session = try VaultSession.open(global, context: context)
        let start = try session.note(from)
        let goal = try session.note(to)
        let chain = try session.store.shortestPath(from: start.id, to: goal.id, direction: undirected ? .both : .outgoing)
        if global.json {
            printJSON(chain?.map(\.path), vault: session.vaultPath, context: context)
            return .success
        }
        guard let chain else {
            context.print("No chain of links from \(start.path) to \(goal.path)\(undirected ? "" : " (try --undirected)").")
            return .success
        }
        // Each step shows the real direction of its link (`--undirected` may walk a link backwards).
        var text = chain[0].path
        for (from, to) in zip(chain, chain.dropFirst()) {
            text += try session.store.links(from: from.id, to: to.id) ? " → " : " ← "
            text += to.path
        }
        context.print("\(chain.count - 1) link\(chain.count == 2 ? "" : "s"): " + text)
        return .success
    }
}

/// `rhizome graph`: the whole resolved graph as JSON or Graphviz DOT.
struct GraphCommand: RhizomeSubcommand {
    static let pagesOutput = true  // a list a terminal may page

    static let configuration = CommandConfiguration(commandName: "graph", abstract: "Export the link graph (resolved links, with counts) as JSON or Graphviz DOT.")

    enum Format: String, ExpressibleByArgument, CaseIterable { case json, dot }

    @OptionGroup var global: GlobalOptions

    @Option(name: .long, help: "json or dot.")
    var format: Format = .json

    @Flag(name: .long, help: "Leave out attachments (images, PDFs, …).")
    var noAttachments = false

    func execute(in context: CommandContext) throws -> ExitStatus {
        let session = try VaultSession.open(global, context: context)
        let graph = try session.store.graph(includeAttachments: !noAttachments)
        if format == .json || global.json {
            printJSON(graph, vault: session.vaultPath, context: context)
            return .success
        }
        func quoted(_ text: String) -> String { "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
        context.print("digraph vault {")
        context.print("  node [shape=box, style=rounded];")
        for node in graph.nodes {
            context.print("  \(quoted(node.path))\(node.kind == "note" ? "" : " [shape=note]");")
        }
        for edge in graph.edges {
            context.print("  \(quoted(edge.source)) -> \(quoted(edge.target))\(edge.count > 1 ? " [weight=\(edge.count), label=\"\(edge.count)\"]" : "");")
        }
        context.print("}")
        return .success
    }
}
