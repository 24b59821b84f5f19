import Foundation
import Testing
import RhizomeCore
import RhizomeStore
import RhizomeTestSupport

/// Property test: after any sequence of creates, edits, deletes and renames, the incrementally
/// maintained index equals a full rebuild of the same vault.
@Suite struct IncrementalEquivalenceTests {
    /// Includes a name ending in `.md` (file `Report.md.md`, linked as `[[Report.md]]`), case twins, and
    /// `Café` in both Unicode forms (NFC, and NFD as macOS file names may be).
    static let names = ["Alpha", "beta", "Gamma", "alpha", "Delta note", "Café", "Cafe\u{301}", "Zeta", "Eta", "Report.md"]
    /// Mostly `.md`, sometimes in other letter cases (`FOO.MD`, `Note.Md`).
    static let extensions = [".md", ".md", ".md", ".md", ".MD", ".Md"]
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
        return (folder.isEmpty ? "" : folder + "/") + name + extensions.randomElement(using: &random)!
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

/// The same property with symlinks: symlinked notes and a symlinked folder whose targets outside the vault
/// are moved away (into the vault too, where a stale entry would also be a false `duplicate-id`), deleted,
/// recreated and edited, and symlinks made and removed. A dangling symlink is a finding and its note
/// leaves the index, in an incremental run exactly as in a rebuild.
@Suite struct IncrementalEquivalenceWithSymlinksTests {
    /// Notes outside the vault that symlinks lead to, and the symlinks' names in the vault.
    static let targets = ["one.md", "two.md", "three.md"]
    static let links = ["Linked/One.md", "Two.md", "Linked/Deep/Three.md", "Again.md"]

    static func note(_ random: inout SeededGenerator, id: String) -> String {
        let name = IncrementalEquivalenceTests.names.randomElement(using: &random)!
        return "---\ntype: project\nid: \(id)\nstatus: active\n---\n# \(id)\n[[\(name)]] [[One]] #t\(Int.random(in: 0..<3, using: &random))\n"
    }

    @Test(arguments: [11, 12, 13, 14, 15, 16] as [UInt64])
    func incrementalIndexEqualsARebuildWhileSymlinkTargetsComeAndGo(seed: UInt64) throws {
        var options = IndexOptions()
        options.bulkLoadMinimumFiles = .max
        var random = SeededGenerator(state: seed)
        let vault = try TemporaryVault()
        let outside = vault.outside
        let shelf = outside.appendingPathComponent("shelf")
        let fileManager = FileManager.default
        try fileManager.createDirectory(at: shelf, withIntermediateDirectories: true)
        try vault.write("Home.md", "[[One]] [[Two]] [[Three]] [[Again]] [[Shelf/Book]]\n")
        for target in Self.targets { try Data(Self.note(&random, id: target).utf8).write(to: outside.appendingPathComponent(target)) }
        try Data(Self.note(&random, id: "book").utf8).write(to: shelf.appendingPathComponent("Book.md"))
        try vault.symlink("Shelf", to: shelf.path)
        for (link, target) in zip(Self.links, Self.targets + ["one.md"]) {
            try vault.symlink(link, to: outside.appendingPathComponent(target).path)
        }
        var clock = Date(timeIntervalSince1970: 1_700_000_000)
        var operations: [String] = []
        for step in 0..<30 {
            for _ in 0..<Int.random(in: 1...2, using: &random) {
                clock = clock.addingTimeInterval(1)
                let target = outside.appendingPathComponent(Self.targets.randomElement(using: &random)!)
                let away = outside.appendingPathComponent("away-" + target.lastPathComponent)
                let intoVault = vault.url("Moved/" + target.lastPathComponent)
                let exists = fileManager.fileExists(atPath: target.path)
                switch Int.random(in: 0..<9, using: &random) {
                case 0 where exists:  // the target moves away
                    try? fileManager.removeItem(at: away)
                    try fileManager.moveItem(at: target, to: away)
                    operations.append("move \(target.lastPathComponent) away")
                case 1 where exists && !fileManager.fileExists(atPath: intoVault.path):  // into the vault: same id, real note
                    try fileManager.createDirectory(at: intoVault.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try fileManager.moveItem(at: target, to: intoVault)
                    operations.append("move \(target.lastPathComponent) into the vault")
                case 2 where exists:
                    try fileManager.removeItem(at: target)
                    operations.append("delete \(target.lastPathComponent)")
                case 3 where !exists:  // recreated, or moved back
                    if fileManager.fileExists(atPath: away.path) {
                        try fileManager.moveItem(at: away, to: target)
                        operations.append("move \(target.lastPathComponent) back")
                    } else {
                        try Data(Self.note(&random, id: target.lastPathComponent).utf8).write(to: target)
                        operations.append("recreate \(target.lastPathComponent)")
                    }
                case 4 where exists:
                    try Data(Self.note(&random, id: target.lastPathComponent).utf8).write(to: target)
                    try fileManager.setAttributes([.modificationDate: clock], ofItemAtPath: target.path)
                    operations.append("edit \(target.lastPathComponent)")
                case 5:  // the symlinked folder's target moves away, or back
                    let awayShelf = outside.appendingPathComponent("away-shelf")
                    if fileManager.fileExists(atPath: shelf.path) {
                        try fileManager.moveItem(at: shelf, to: awayShelf)
                        operations.append("move the shelf away")
                    } else {
                        try fileManager.moveItem(at: awayShelf, to: shelf)
                        operations.append("move the shelf back")
                    }
                case 6:  // a symlink removed, or made again
                    let link = Self.links.randomElement(using: &random)!
                    if (try? fileManager.destinationOfSymbolicLink(atPath: vault.url(link).path)) != nil {
                        try vault.remove(link)
                        operations.append("remove the link \(link)")
                    } else {
                        try vault.symlink(link, to: target.path)
                        operations.append("link \(link) to \(target.lastPathComponent)")
                    }
                case 7 where fileManager.fileExists(atPath: intoVault.path) && !exists:  // out of the vault again
                    try fileManager.moveItem(at: intoVault, to: target)
                    operations.append("move \(target.lastPathComponent) out of the vault")
                default:
                    let path = IncrementalEquivalenceTests.randomPath(&random)
                    try vault.write(path, IncrementalEquivalenceTests.randomNote(&random))
                    try vault.setModificationDate(path, clock)
                    operations.append("write \(path)")
                }
            }
            try vault.index(options: options)
            let fresh = vault.scratchDatabasePath()
            try vault.index(database: fresh, options: options)
            let incremental = try vault.store().canonicalDump()
            let rebuilt = try vault.store(database: fresh).canonicalDump()
            try? fileManager.removeItem(atPath: fresh)
            if incremental != rebuilt {
                let onlyIncremental = Set(incremental).subtracting(rebuilt).sorted().prefix(10)
                let onlyRebuilt = Set(rebuilt).subtracting(incremental).sorted().prefix(10)
                Issue.record("seed \(seed), step \(step) after \(operations.suffix(4)): incremental ≠ rebuild\nonly incremental: \(onlyIncremental)\nonly rebuilt: \(onlyRebuilt)")
                return
            }
        }
    }
}
