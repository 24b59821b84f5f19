import Foundation
import Testing
import RhizomeStore
import RhizomeTestSupport

/// Looks up one link occurrence by source path, line and link path, for answer-key assertions.
struct IndexedLinks {
    let links: [LinkRecord]

    init(_ store: IndexStore) throws {
        links = try store.allLinks()
    }

    func target(_ source: String, line: Int, _ linkPath: String, sourceLocation: SourceLocation = #_sourceLocation) -> String?? {
        let matches = links.filter { $0.source == source && $0.line == line && $0.linkPath == linkPath }
        guard let match = matches.first else {
            Issue.record("no link `\(linkPath)` at \(source):\(line); links on that line: \(links.filter { $0.source == source && $0.line == line }.map(\.linkPath))", sourceLocation: sourceLocation)
            return nil
        }
        return .some(match.target)
    }

    func lines(in source: String) -> Set<Int> {
        Set(links.filter { $0.source == source }.map(\.line))
    }

    func occurrences(in source: String) -> [LinkRecord] {
        links.filter { $0.source == source }
    }
}
