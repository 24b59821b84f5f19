import Foundation
import Testing
import RhizomeCore
import RhizomeTestSupport

/// Random vaults and random moves, checked against the graph read afresh from the rewritten files: every
/// link reaches what it reached (moved files at their new paths), unresolved links keep their text, and
/// lines without a rewritten link keep every byte. `RHIZOME_PROPERTY_SEQUENCES` runs more sequences.
@Suite struct RelinkPlannerPropertyTests {
    static let sequences = ProcessInfo.processInfo.environment["RHIZOME_PROPERTY_SEQUENCES"].flatMap(Int.init) ?? 1_000

    @Test func randomMovesKeepTheGraph() throws {
        var planned = 0, rewrittenLinks = 0
        var rewrittenKinds = Set<LinkOccurrence.Kind>()
        for seed in 0..<UInt64(Self.sequences) {
            var generator = SeededGenerator(state: seed)
            var files = Dictionary(uniqueKeysWithValues: RandomVault(generator: &generator).files.map { (UnicodeNormalization.nfc($0.key), $0.value) })
            for step in 0..<3 {
                guard let moves = Self.randomMove(in: files, generator: &generator) else { continue }
                let format = ObsidianSettings.LinkFormat.allCases.randomElement(using: &generator)!
                let before = RandomVault.graph(of: files)
                let planner = RelinkPlanner(filePaths: files.keys.sorted(), moves: moves, format: format)
                let result = planner.plan(files.sorted { $0.key < $1.key }.map { RelinkPlanner.Source(path: $0.key, bytes: $0.value) })
                try #require(result.problems.isEmpty, "seed \(seed) step \(step) \(moves) \(format): \(result.problems)")
                var next: [String: [UInt8]] = [:]
                for (path, bytes) in files { next[moves[path] ?? path] = bytes }
                for edit in result.fileEdits {
                    try Self.checkOnlyLinkTextChanged(edit, seed: seed)
                    next[edit.newPath] = edit.newBytes
                    rewrittenLinks += edit.edits.count
                    rewrittenKinds.formUnion(edit.edits.map(\.kind))
                }
                let after = RandomVault.graph(of: next)
                let newlyResolved = Set(result.newlyResolved.map { "\($0.path):\($0.line):\($0.column)" })
                for (source, targets) in before {
                    let movedSource = moves[source] ?? source
                    let now = try #require(after[movedSource], "seed \(seed): \(movedSource) missing")
                    try #require(now.count == targets.count, "seed \(seed): \(movedSource) has \(now.count) links, had \(targets.count)")
                    for (index, target) in targets.enumerated() {
                        let expected = target.map { moves[$0] ?? $0 }
                        if expected == nil, now[index] != nil {
                            try #require(!newlyResolved.isEmpty, "seed \(seed): an unresolved link in \(movedSource) now reaches \(now[index]!) unreported")
                            continue
                        }
                        try #require(now[index] == expected, "seed \(seed) step \(step) \(format): link \(index) of \(movedSource) reaches \(now[index] ?? "nothing"), expected \(expected ?? "nothing") (moves \(moves))")
                    }
                }
                files = next
                planned += 1
            }
        }
        #expect(planned > Self.sequences)
        #expect(rewrittenLinks > Self.sequences, "the moves must actually rewrite links")
        if Self.sequences >= 200 { #expect(rewrittenKinds == Set(LinkOccurrence.Kind.allCases), "every kind of link gets rewritten") }
    }

    /// A file or folder to a new name or into another folder; nil when the destination is taken.
    static func randomMove(in files: [String: [UInt8]], generator: inout SeededGenerator) -> [String: String]? {
        let paths = files.keys.sorted()
        let folders = Set(paths.map { VaultPath.folder(of: $0) }.filter { !$0.isEmpty }).sorted()
        let names = ["Note", "Plan", "Moved", "Café", "Idea", "New name", "index"]
        var moves: [String: String] = [:]
        if Int.random(in: 0..<4, using: &generator) == 0, let folder = folders.randomElement(using: &generator) {
            let destination = ["Moved", "Archive/Old", "People/Sub", "Deep/er/Folder"].randomElement(using: &generator)!
            guard !destination.hasPrefix(folder + "/"), destination != folder else { return nil }
            for path in paths where path.hasPrefix(folder + "/") { moves[path] = destination + String(path.dropFirst(folder.count)) }
        } else {
            let path = paths.randomElement(using: &generator)!
            let name = String(VaultPath.fileName(of: path))
            let extensionText = name.contains(".") ? String(name[name.lastIndex(of: ".")!...]) : ""
            let folder = (["", "Projects", "Archive/2026", "Elsewhere"] + folders).randomElement(using: &generator)!
            let newName = Bool.random(using: &generator) ? names.randomElement(using: &generator)! + extensionText : name
            moves[path] = folder.isEmpty ? newName : folder + "/" + newName
        }
        let remaining = Set(paths.filter { moves[$0] == nil }.map { $0.lowercased() })
        guard moves.allSatisfy({ $0.key != $0.value && !remaining.contains($0.value.lowercased()) }) else { return nil }
        return moves
    }

    /// Lines keep their count; a line without a rewritten link keeps its bytes; a line with one equals the
    /// old line with each old path text replaced by the new one.
    static func checkOnlyLinkTextChanged(_ edit: RelinkPlanner.FileEdit, seed: UInt64) throws {
        // Split on the bytes: "\r\n" is one Character, which a split on "\n" would not cut.
        let oldLines = edit.oldBytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        let newLines = edit.newBytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        try #require(oldLines.count == newLines.count, "seed \(seed): \(edit.oldPath) changed its line count")
        let editsByLine = Dictionary(grouping: edit.edits, by: \.line)
        for (index, (old, new)) in zip(oldLines, newLines).enumerated() {
            guard let edits = editsByLine[index + 1] else {
                try #require(old == new, "seed \(seed): \(edit.oldPath) line \(index + 1) changed without a link edit: \(old) → \(new)")
                continue
            }
            // Rightmost first, so that the columns of the others stay where they were.
            var expected = String(old)
            for linkEdit in edits.sorted(by: { $0.column > $1.column }) {
                var start = expected.unicodeScalars.index(expected.startIndex, offsetBy: linkEdit.column - 1)
                // A markdown link's path is in its destination, after `](` (its text may read the same).
                if linkEdit.kind == .markdown || linkEdit.kind == .markdownEmbed, let close = expected.range(of: "](", range: start..<expected.endIndex) {
                    start = close.upperBound
                }
                let range = try #require(expected.range(of: linkEdit.oldText, range: start..<expected.endIndex), "seed \(seed): old text not on its line")
                expected.replaceSubrange(range, with: linkEdit.newText)
            }
            try #require(expected == String(new), "seed \(seed): \(edit.oldPath) line \(index + 1): \(old) → \(new)")
        }
    }
}
