import Foundation
import RhizomeCore

/// Walks of the link graph: neighbors within N links, the shortest path between two notes, and the
/// whole graph as nodes and counted edges.
extension IndexStore {
    public enum Direction: String, Sendable, CaseIterable { case outgoing, incoming, both }

    /// Files within `depth` links of `fileID` (breadth-first), nearest first.
    public func neighbors(of fileID: Int64, depth: Int, direction: Direction = .both) throws -> [NeighborRecord] {
        let adjacency = try LinkAdjacency(connection, direction: direction)
        var distance: [Int64: Int] = [fileID: 0]
        var frontier: [Int64] = [fileID]
        for level in 1...max(1, depth) {
            var next: [Int64] = []
            for node in frontier {
                for neighbor in try adjacency.files(linkedWith: node) where distance[neighbor] == nil {
                    distance[neighbor] = level
                    next.append(neighbor)
                }
            }
            frontier = next
            if frontier.isEmpty { break }
        }
        distance[fileID] = nil
        let pathOf = try connection.prepare("SELECT path FROM file WHERE id = ?")
        return try distance.compactMap { id, hops in
            try pathOf.bind(.integer(id)).rows { $0.text(0) }.first.map { NeighborRecord(path: $0, distance: hops) }
        }.sorted { ($0.distance, $0.path) < ($1.distance, $1.path) }
    }

    /// The shortest chain of links from one file to another (breadth-first), or nil.
    public func shortestPath(from start: Int64, to goal: Int64, direction: Direction = .outgoing) throws -> [FileRecord]? {
        let adjacency = try LinkAdjacency(connection, direction: direction)
        var previous: [Int64: Int64] = [start: start]
        var frontier = [start]
        while !frontier.isEmpty, previous[goal] == nil {
            var next: [Int64] = []
            for node in frontier {
                for neighbor in try adjacency.files(linkedWith: node) where previous[neighbor] == nil {
                    previous[neighbor] = node
                    next.append(neighbor)
                }
            }
            frontier = next
        }
        guard previous[goal] != nil else { return nil }
        var chain = [goal]
        while let last = chain.last, last != start, let before = previous[last] { chain.append(before) }
        return try chain.reversed().compactMap { try file(id: $0) }
    }

    /// Whether `source` has at least one resolved link to `target`.
    public func links(from source: Int64, to target: Int64) throws -> Bool {
        let statement = try connection.prepare("SELECT 1 FROM link WHERE id BETWEEN ? AND ? AND target_id = ? LIMIT 1")
        statement.bind(FileRows.bounds(of: source) + [.integer(target)])
        return try statement.step()
    }

    public func graph(includeAttachments: Bool = true) throws -> GraphExport {
        let kinds = includeAttachments ? "1" : "kind != 'attachment'"
        let nodes = try connection.prepare("SELECT path, kind FROM file WHERE \(kinds) ORDER BY path").rows {
            GraphExport.Node(path: $0.text(0), kind: $0.text(1))
        }
        let edges = try connection.prepare("""
            SELECT s.path, t.path, count(*) FROM link l JOIN file s ON s.id = l.source_id JOIN file t ON t.id = l.target_id
            WHERE \(includeAttachments ? "1" : "t.kind != 'attachment'") GROUP BY l.source_id, l.target_id ORDER BY s.path, t.path
            """).rows { GraphExport.Edge(source: $0.text(0), target: $0.text(1), count: Int($0.int(2))) }
        return GraphExport(nodes: nodes, edges: edges)
    }

    /// The files a file links to or is linked from, by id, with the two statements prepared once for a
    /// whole walk of the graph (prepared per file, they cost more than the lookups: a `neighbors` of depth 2
    /// reaches hundreds of files).
    private struct LinkAdjacency {
        let outgoing: SQLiteStatement?
        let incoming: SQLiteStatement?

        init(_ connection: SQLiteConnection, direction: Direction) throws {
            outgoing = direction == .incoming ? nil
                : try connection.prepare("SELECT DISTINCT target_id FROM link WHERE id BETWEEN ? AND ? AND target_id IS NOT NULL ORDER BY target_id")
            incoming = direction == .outgoing ? nil
                : try connection.prepare("SELECT DISTINCT source_id FROM link WHERE target_id = ? ORDER BY source_id")
        }

        /// Targets first, then sources, each in id order.
        func files(linkedWith node: Int64) throws -> [Int64] {
            var result: [Int64] = []
            if let outgoing { result += try outgoing.bind(FileRows.bounds(of: node)).rows { $0.int(0) } }
            if let incoming { result += try incoming.bind(.integer(node)).rows { $0.int(0) } }
            return result
        }
    }
}
