import Foundation
import RhizomeCore
import RhizomeStore
import RhizomeTestSupport

/// The link graph as the index has it: for each source, its links' targets in order (nil: unresolved,
/// with the link path kept so unresolved links are compared by text).
struct GraphSnapshot: Equatable, CustomStringConvertible {
    struct Edge: Equatable, CustomStringConvertible {
        var target: String?
        var unresolvedText: String?
        var description: String { target ?? "unresolved(\(unresolvedText ?? ""))" }
    }

    var edges: [String: [Edge]]

    init(_ store: IndexStore) throws {
        var edges: [String: [Edge]] = [:]
        for link in try store.allLinks() {
            edges[link.source, default: []].append(Edge(target: link.target, unresolvedText: link.target == nil ? link.linkPath : nil))
        }
        self.edges = edges
    }

    init(edges: [String: [Edge]]) { self.edges = edges }

    /// The graph expected after files move: sources and targets renamed by `moves`.
    func moved(_ moves: [String: String]) -> GraphSnapshot {
        var result: [String: [Edge]] = [:]
        for (source, list) in edges {
            result[moves[source] ?? source] = list.map { Edge(target: $0.target.map { moves[$0] ?? $0 }, unresolvedText: $0.unresolvedText) }
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
