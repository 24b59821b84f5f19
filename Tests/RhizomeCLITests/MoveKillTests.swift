import Foundation
import Testing
import RhizomeCore
import RhizomeTestSupport

/// The real `rhizome mv --write` of a 500-note folder, killed with SIGKILL at many moments: at journaled
/// step boundaries (`RHIZOME_CRASH_POINT`) and after random delays. The next command must leave the vault
/// exactly as before the move or exactly as a finished move leaves it, with the graph kept and no
/// temporary file anywhere. `RHIZOME_KILL_RUNS` sets how many kills of each kind (default 8).
@Suite(.serialized) struct MoveKillTests {
    static let runs = ProcessInfo.processInfo.environment["RHIZOME_KILL_RUNS"].flatMap(Int.init) ?? 8

    /// A vault of `Big/` (500 notes linking each other and out) and `Outside/` (100 notes linking in), and
    /// its index, in a template folder that each run copies.
    final class Template: @unchecked Sendable {
        let folder: URL
        var vault: String { folder.appendingPathComponent("vault").path }

        /// `withNotes: false`: an empty vault (with `.obsidian/`) for another kill test to fill.
        init(withNotes: Bool = true) throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("rhizome-kill-\(UUID().uuidString)")
            let vault = folder.appendingPathComponent("vault")
            try FileManager.default.createDirectory(at: vault.appendingPathComponent(".obsidian"), withIntermediateDirectories: true)
            guard withNotes else { return }
            func write(_ path: String, _ text: String) throws {
                let url = vault.appendingPathComponent(path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: url)
            }
            for index in 0..<500 {
                try write("Big/Note \(index).md", "# Note \(index)\n\n[[Note \((index + 1) % 500)]] and [[Outside \(index % 100)]], [up](../Outside/Outside%20\(index % 100).md)\n![[Note \(index)#Note \(index)]]\n")
            }
            for index in 0..<100 {
                try write("Outside/Outside \(index).md", "---\nsee: \"[[Big/Note \(index * 5)]]\"\n---\n[[Big/Note \(index)]] [x](../Big/Note%20\(index * 3).md) `[[Big/Note 1]]`\r\n")
            }
        }

        deinit { try? FileManager.default.removeItem(at: folder) }

        /// A fresh copy of the template (vault and index) for one run.
        func copy(_ name: String) throws -> URL {
            let destination = folder.deletingLastPathComponent().appendingPathComponent(folder.lastPathComponent + "-" + name)
            try? FileManager.default.removeItem(at: destination)
            try FileManager.default.copyItem(at: folder, to: destination)
            return destination
        }
    }

    struct Run {
        var status: Int32
        var killedBySignal: Bool
        var error: String
    }

    static func rhizome(_ arguments: [String], in folder: URL, environment: [String: String] = [:], killAfter delay: Duration? = nil) throws -> Run {
        let binary = try #require(RhizomeBinary.url, "the rhizome executable was not built next to the tests")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments + ["--vault", folder.appendingPathComponent("vault").path, "--db", folder.appendingPathComponent("index.sqlite").path]
        process.environment = ["HOME": folder.path, "PATH": "/usr/bin:/bin"].merging(environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        if let delay {
            Thread.sleep(forTimeInterval: delay.inSeconds)
            kill(process.processIdentifier, SIGKILL)
        }
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, killedBySignal: process.terminationReason == .uncaughtSignal, error: String(decoding: errorData, as: UTF8.self))
    }

    /// Every file under the vault (hidden ones included: the trash, and any temporary file), with its bytes.
    static func snapshot(_ vault: URL) -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        let enumerator = FileManager.default.enumerator(atPath: vault.path)
        while let relative = enumerator?.nextObject() as? String {
            var isFolder: ObjCBool = false
            let path = vault.appendingPathComponent(relative).path
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
                files[relative] = Array(FileManager.default.contents(atPath: path) ?? Data())
            }
        }
        return files
    }

    @Test func aKilledFolderMoveIsCompletedOrReversedByTheNextCommand() throws {
        let template = try Template()
        let setup = try Self.rhizome(["index"], in: template.folder)
        try #require(setup.status == 0, "indexing the template failed: \(setup.error)")
        let before = Self.snapshot(URL(fileURLWithPath: template.vault))

        // The finished move, once, for the state every completed run must reach.
        let reference = try template.copy("reference")
        defer { try? FileManager.default.removeItem(at: reference) }
        let finished = try Self.rhizome(["mv", "Big", "Archive/Big", "--write"], in: reference)
        try #require(finished.status == 0, "the move failed: \(finished.error)")
        let after = Self.snapshot(reference.appendingPathComponent("vault"))
        let moves = Dictionary(uniqueKeysWithValues: before.keys.filter { $0.hasPrefix("Big/") }.map { ($0, "Archive/" + $0) })
        let expectedGraph = Self.moved(RandomVault.graph(of: before.filter { !$0.key.hasPrefix(".") }), moves)
        #expect(RandomVault.graph(of: after.filter { !$0.key.hasPrefix(".") }) == expectedGraph, "the finished move keeps the graph")
        let rewritten = after.filter { before[$0.key] != nil && before[$0.key] != $0.value }.count
        #expect(rewritten == 100, "every Outside note had links into Big rewritten")

        // Step boundaries: the first ones (journal written, folder renamed), then spread over the rewrites.
        let boundaries = [1, 2, 3] + (0..<max(0, Self.runs - 3)).map { 4 + $0 * 597 / max(1, Self.runs - 3) } + [600, 601]
        var outcomes: [String: Int] = [:]
        for (number, point) in boundaries.enumerated() {
            let outcome = try killAndRecover(template: template, name: "point-\(number)", before: before, after: after, expectedGraph: expectedGraph) {
                try Self.rhizome(["mv", "Big", "Archive/Big", "--write"], in: $0, environment: ["RHIZOME_CRASH_POINT": "\(point)"])
            }
            outcomes[outcome, default: 0] += 1
        }
        // And at random moments.
        var generator = SeededGenerator(state: 42)
        for number in 0..<Self.runs {
            let delay = Duration.milliseconds(Int.random(in: 30...900, using: &generator))
            let outcome = try killAndRecover(template: template, name: "timed-\(number)", before: before, after: after, expectedGraph: expectedGraph) {
                try Self.rhizome(["mv", "Big", "Archive/Big", "--write"], in: $0, killAfter: delay)
            }
            outcomes[outcome, default: 0] += 1
        }
        #expect(outcomes["completed", default: 0] >= boundaries.count - 1, "kills after the journal was written are completed: \(outcomes)")
    }

    /// Runs `kill` on a fresh copy, then any command; the vault must be whole. Returns what happened.
    private func killAndRecover(
        template: Template, name: String, before: [String: [UInt8]], after: [String: [UInt8]], expectedGraph: [String: [String?]],
        kill: (URL) throws -> Run
    ) throws -> String {
        let copy = try template.copy(name)
        defer { try? FileManager.default.removeItem(at: copy) }
        let killed = try kill(copy)
        // The temporary files of a killed run are in the journal's staging folder (the index is on the
        // vault's file system here), never in the vault, even before the next command cleans up.
        let staged = Self.snapshot(copy.appendingPathComponent("vault")).keys.filter { $0.split(separator: "/").last?.hasPrefix(".rhizome") == true }
        #expect(staged.isEmpty, "\(name): temporary files in the vault right after the kill: \(staged.prefix(5))")
        let next = try Self.rhizome(["backlinks", "Note 7"], in: copy)
        #expect(next.status == 0, "\(name): the next command failed: \(next.error)")
        let now = Self.snapshot(copy.appendingPathComponent("vault"))
        let leftovers = now.keys.filter { $0.split(separator: "/").last?.hasPrefix(".rhizome") == true }
        #expect(leftovers.isEmpty, "\(name): temporary files left in the vault: \(leftovers)")
        if now == after {
            if killed.killedBySignal { #expect(next.error.contains("completed an interrupted change") || !FileManager.default.fileExists(atPath: copy.path + "/.index.sqlite.operations/pending.json")) }
            return killed.killedBySignal ? "completed" : "finished before the kill"
        }
        #expect(now == before, "\(name): the vault is neither as before nor as after the move (\(Set(now.keys).symmetricDifference(after.keys).count) paths differ from after)")
        #expect(RandomVault.graph(of: now.filter { !$0.key.hasPrefix(".") }) == RandomVault.graph(of: before.filter { !$0.key.hasPrefix(".") }))
        return "untouched"
    }

    static func moved(_ graph: [String: [String?]], _ moves: [String: String]) -> [String: [String?]] {
        Dictionary(uniqueKeysWithValues: graph.map { (moves[$0.key] ?? $0.key, $0.value.map { $0.map { moves[$0] ?? $0 } }) })
    }

    /// A single note's move is a second name then the first one removed: killed in between, the file has
    /// both names, and the next command must leave one, never a copy.
    @Test func aFileMoveKilledBetweenItsTwoNamesLeavesOneFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rhizome-kill-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let vault = folder.appendingPathComponent("vault")
        try FileManager.default.createDirectory(at: vault.appendingPathComponent(".obsidian"), withIntermediateDirectories: true)
        try Data("# Old\n".utf8).write(to: vault.appendingPathComponent("Old.md"))
        try Data("[[Old]]\n".utf8).write(to: vault.appendingPathComponent("Links.md"))
        #expect(try Self.rhizome(["index"], in: folder).status == 0)
        // Crash points: 1 the journal written, 2 the second name made.
        let killed = try Self.rhizome(["mv", "Old", "New", "--write"], in: folder, environment: ["RHIZOME_CRASH_POINT": "2"])
        #expect(killed.killedBySignal)
        #expect(FileManager.default.fileExists(atPath: vault.appendingPathComponent("Old.md").path), "killed with both names")
        let next = try Self.rhizome(["backlinks", "New"], in: folder)
        #expect(next.status == 0, "\(next.error)")
        let names = try FileManager.default.contentsOfDirectory(atPath: vault.path).filter { !$0.hasPrefix(".") }.sorted()
        #expect(names == ["Links.md", "New.md"])
        #expect(try String(contentsOf: vault.appendingPathComponent("Links.md"), encoding: .utf8) == "[[New]]\n")
    }
}
