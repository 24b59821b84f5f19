import Foundation
import Testing
import RhizomeCore
import RhizomeStore
import RhizomeTestSupport

/// Property test: after any sequence of creates, edits, deletes and renames, the incrementally
/// maintained index equals a full rebuild of the same vault.
@Suite struct IncrementalEquivalenceTests {
    /// Includes a name ending in `.md` (file `Report.md.md`, linked as `[[Report.md]]`) and case twins.
    static let names = ["Alpha", "beta", "Gamma", "alpha", "Delta note", "Café", "Zeta", "Eta", "Report.md"]
    static let folders = ["", "A", "A/B", "C", "a"]

    static func randomNote(_ random: inout SeededGenerator) -> String {
        var lines: [String] = []
        if Bool.random(using: &random) {
            let related = names.randomElement(using: &random)!
            lines += ["---", "tags: [t\(Int.random(in: 0..<4, using: &random)), nested/x]", "related: \"[[\(related)]]\"", "---"]
        }
        for _ in 0..<Int.random(in: 1...6, using: &random) {
            let name = names.randomElement(using: &random)!
            let folder = folders.randomElement(using: &random)!
            switch Int.random(in: 0..<7, using: &random) {
            case 0: lines.append("See [[\(name)]] #topic/\(Int.random(in: 0..<3, using: &random))")
            case 1: lines.append("- [ ] task with [[\(folder.isEmpty ? "" : folder + "/")\(name)|shown]]")
            case 2: lines.append("## Heading \(Int.random(in: 0..<9, using: &random))\n![[\(name)#Heading 1]]")
            case 3: lines.append("A [markdown](\(folder.isEmpty ? "" : folder + "/")\(name.replacingOccurrences(of: " ", with: "%20")).md) link ^b\(Int.random(in: 0..<9, using: &random))")
            case 4: lines.append("```\n[[\(name)]] in code\n```")
            case 5: lines.append("[[image.png]] and [[\(name).md]]")
            default: lines.append("plain text \(Int.random(in: 0..<1000, using: &random))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func randomPath(_ random: inout SeededGenerator) -> String {
        let folder = folders.randomElement(using: &random)!
        let name = names.randomElement(using: &random)!
        return (folder.isEmpty ? "" : folder + "/") + name + ".md"
    }

    /// Each seed runs twice: incremental runs resolving against candidate files only (small changes) and
    /// against the whole vault; the rebuild always uses bulk-load mode. Both fast paths are thus compared
    /// with the plain one.
    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64], [0, 256])
    func incrementalIndexAlwaysEqualsAFullRebuild(seed: UInt64, candidateResolutionMaximumFiles: Int) throws {
        var incrementalOptions = IndexOptions()
        incrementalOptions.candidateResolutionMaximumFiles = candidateResolutionMaximumFiles
        incrementalOptions.bulkLoadMinimumFiles = .max
        var rebuildOptions = IndexOptions()
        rebuildOptions.bulkLoadMinimumFiles = 0
        var random = SeededGenerator(state: seed)
        let vault = try TemporaryVault()
        try vault.write("image.png", bytes: [0x89, 0x50, 0x4E, 0x47])
        var existing = Set<String>()
        var clock = Date(timeIntervalSince1970: 1_700_000_000)
        for step in 0..<40 {
            // Apply one to three random operations, then index incrementally.
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                clock = clock.addingTimeInterval(1)
                let operation = existing.isEmpty ? 0 : Int.random(in: 0..<4, using: &random)
                switch operation {
                case 0:
                    let path = Self.randomPath(&random)
                    try vault.write(path, Self.randomNote(&random))
                    try vault.setModificationDate(path, clock)
                    existing.insert(path)
                case 1:
                    let path = existing.sorted().randomElement(using: &random)!
                    try vault.write(path, Self.randomNote(&random))
                    try vault.setModificationDate(path, clock)
                case 2:
                    let path = existing.sorted().randomElement(using: &random)!
                    try vault.remove(path)
                    existing.remove(path)
                default:
                    let path = existing.sorted().randomElement(using: &random)!
                    let destination = Self.randomPath(&random)
                    guard !existing.contains(destination), destination.lowercased() != path.lowercased() || destination == path else { continue }
                    if destination == path { continue }
                    try vault.move(path, to: destination)
                    existing.remove(path)
                    existing.insert(destination)
                }
            }
            try vault.index(options: incrementalOptions)
            let fresh = vault.scratchDatabasePath()
            try vault.index(database: fresh, options: rebuildOptions)
            let incremental = try vault.store().canonicalDump()
            let rebuilt = try vault.store(database: fresh).canonicalDump()
            if incremental != rebuilt {
                let onlyIncremental = Set(incremental).subtracting(rebuilt).sorted().prefix(10)
                let onlyRebuilt = Set(rebuilt).subtracting(incremental).sorted().prefix(10)
                Issue.record("seed \(seed), step \(step): incremental ≠ rebuild\nonly incremental: \(onlyIncremental)\nonly rebuilt: \(onlyRebuilt)")
                return
            }
            try? FileManager.default.removeItem(atPath: fresh)
        }
    }
}
