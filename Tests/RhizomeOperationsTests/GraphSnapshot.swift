import Foundation
import RhizomeCore
import RhizomeStore
import RhizomeOperations
import RhizomeTestSupport
import Testing

/// The link graph as the index has it: for each source, its links' targets in order (nil: unresolved,
/// with the link path kept so unresolved links are compared by text). Given the vault's folder, also the
/// headings each heading link reaches in its target note (their positions, as Obsidian reads `#A#B`).
struct GraphSnapshot: Equatable, CustomStringConvertible {
    struct Edge: Equatable, CustomStringConvertible {
        var target: String?
        var unresolvedText: String?
        /// The positions of the headings a `#Heading` subpath reaches (empty: it reaches none).
        var headings: [Int]? = nil
        var description: String {
            (target ?? "unresolved(\(unresolvedText ?? ""))") + (headings.map { "#\($0.map(String.init).joined(separator: "#"))" } ?? "")
        }
    }

    var edges: [String: [Edge]]

    init(_ store: IndexStore, vault: String? = nil) throws {
        var edges: [String: [Edge]] = [:]
        var headingsOf: [String: [String]] = [:]
        let files = try vault.map { try VaultFiles(vaultPath: $0, notesOnly: true) }
        for link in try store.allLinks() {
            var edge = Edge(target: link.target, unresolvedText: link.target == nil ? link.linkPath : nil)
            if let files, let target = link.target, VaultFileKind(path: target) == .note, let subpath = link.subpath, !subpath.hasPrefix("^") {
                if headingsOf[target] == nil {
                    let disk = try #require(files.diskPath(of: target), "\(target) is not on disk")
                    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: disk)))
                    headingsOf[target] = NoteParser.parse(bytes, path: target, includeBodyText: false).headings.map(\.text)
                }
                edge.headings = HeadingRenamePlanner.resolve(HeadingRenamePlanner.parts(of: subpath), in: headingsOf[target]!) ?? []
            }
            edges[link.source, default: []].append(edge)
        }
        self.edges = edges
    }

    init(edges: [String: [Edge]]) { self.edges = edges }

    /// The graph expected after files move: sources and targets renamed by `moves`.
    func moved(_ moves: [String: String]) -> GraphSnapshot {
        var result: [String: [Edge]] = [:]
        for (source, list) in edges {
            result[moves[source] ?? source] = list.map { Edge(target: $0.target.map { moves[$0] ?? $0 }, unresolvedText: $0.unresolvedText, headings: $0.headings) }
        }
        return GraphSnapshot(edges: result)
    }

    var description: String {
        edges.keys.sorted().map { "\($0): \(edges[$0]!.map(\.description))" }.joined(separator: "\n")
    }

    /// Human-readable differences, for failure messages.
    func differences(from other: GraphSnapshot) -> [String] {
        var lines: [String] = []
        for source in Set(edges.keys).union(other.edges.keys).sorted() where edges[source] != other.edges[source] {
            lines.append("\(source): \(edges[source]?.map(\.description) ?? []) vs \(other.edges[source]?.map(\.description) ?? [])")
        }
        return lines
    }
}
