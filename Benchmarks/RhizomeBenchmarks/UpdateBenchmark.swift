import Foundation
import RhizomeCore
import RhizomeStore

/// `--update N`: re-indexing many changed notes of the generated N-note vault (default options, full text
/// on, as `rhizome mv` and the watcher run), each change applied to the files outside the timing and then
/// undone, both directions timed. Every update is made by a new `Indexer`, as `rhizome mv` makes one:
/// - 1,000 notes with one link's text changed, through `update(changedPaths:)`, then through `run()` (a walk);
/// - the same notes relinked to a hub note renamed into another folder (`rhizome mv Hub …`): 1,002 paths;
/// - a folder of 1,000 notes moved, with the 1,000 notes linking into it and its own notes rewritten (the
///   folder's paths make the update walk the vault).
/// `--repeat R` rounds (default 3); `--phases` prints each run's phases (`IndexOptions.tracePhases`);
/// `--no-full-text` indexes without full text. CPU is the process's (the parse workers' included).
struct UpdateBenchmark {
    let noteCount: Int
    let workRoot: String
    var rounds = 3
    var tracePhases = false
    var fullText = true

    /// Notes outside the moved folder linking to the hub and into the folder, and notes in the folder.
    static let linkingNotes = 1_000

    func run() throws {
        let generator = VaultGenerator(noteCount: noteCount)
        let (template, _) = try BenchmarkRun.prepareVault(generator, workRoot: workRoot)
        let vault = URL(fileURLWithPath: workRoot).appendingPathComponent("update-vault")
        let database = URL(fileURLWithPath: workRoot).appendingPathComponent("update-\(noteCount).sqlite").path
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) }
        // The copy is made once and reused (every change is undone): copying 10k files in each run left the
        // disk writing them back during its first rounds.
        let marker = vault.appendingPathComponent(".obsidian/update-fixtures")
        let linking: [String]
        if let kept = try? String(contentsOf: marker, encoding: .utf8) {
            linking = kept.split(separator: "\n").map(String.init)
        } else {
            try? FileManager.default.removeItem(at: vault)
            try FileManager.default.copyItem(at: template, to: vault)
            linking = try addFixtures(to: vault, generator: generator)
            try Data(linking.joined(separator: "\n").utf8).write(to: marker)
        }
        let store = try IndexStore(path: database)
        var options = IndexOptions()
        options.tracePhases = tracePhases
        options.fullText = fullText
        let first = try Indexer(store: store, vaultRoot: vault.path, options: options).run()
        print("\n== Re-index after many changes, \(noteCount) notes (release, in-process, \(fullText ? "" : "no ")full text; a new Indexer each) ==")
        print("  first index: \(Int(first.milliseconds.rounded())) ms, \(first.notes) notes, \(first.links) links")

        let scenarios = [
            Scenario(name: "1,000 notes edited, update(changedPaths:)", edits: linking.map { ($0, "[bulk](", "[bulk note](") }),
            Scenario(name: "1,000 notes edited, run() (walk)", edits: linking.map { ($0, "[bulk](", "[bulk note](") }, walks: true),
            Scenario(
                name: "hub renamed, 1,000 notes relinked", edits: linking.map { ($0, "[[Hub]]", "[[Hub renamed]]") },
                moves: [("Hub.md", "Archive/Hub renamed.md")]),
            Scenario(
                name: "folder of 1,000 moved, 2,000 rewritten",
                edits: linking.map { ($0, "Bulk/Bulk%20", "Archive/Bulk/Bulk%20") }
                    + (0..<Self.linkingNotes).map { ("Bulk/Bulk \($0).md", "[out](../", "[out](../../") },
                moves: [("Bulk", "Archive/Bulk")]),
        ]
        var samples = Array(repeating: [Double](), count: scenarios.count)
        var cpuSamples = Array(repeating: [Double](), count: scenarios.count)
        for round in 0..<rounds {
            var line: [String] = []
            for (number, scenario) in scenarios.enumerated() {
                var times: [String] = []
                for forward in [true, false] {
                    let paths = try scenario.apply(in: vault, forward: forward)
                    let indexer = Indexer(store: store, vaultRoot: vault.path, options: options)
                    let clock = ContinuousClock()
                    let cpuStart = Measurements.cpuSeconds()
                    let start = clock.now
                    let report = scenario.walks ? try indexer.run() : try indexer.update(changedPaths: paths.map { Array($0.utf8) })
                    let milliseconds = (clock.now - start).inMilliseconds
                    samples[number].append(milliseconds)
                    cpuSamples[number].append((Measurements.cpuSeconds() - cpuStart) * 1000)
                    times.append(String(format: "%.0f%@", milliseconds, report.walkedVault && !scenario.walks ? " (walked)" : ""))
                    precondition(report.modified + report.added >= Self.linkingNotes, "\(scenario.name): only \(report.modified) modified, \(report.added) added")
                }
                line.append(times.joined(separator: "/"))
            }
            print("  round \(round + 1) (forward/back, ms): " + line.joined(separator: " · "))
        }
        for (number, scenario) in scenarios.enumerated() {
            let times = samples[number]
            print(String(format: "  %-48@ median %6.0f ms  (min %.0f, max %.0f) · CPU median %.0f ms", scenario.name as NSString,
                         Measurements.median(times), times.min() ?? 0, times.max() ?? 0, Measurements.median(cpuSamples[number])))
        }
    }

    /// A change made to the vault's files, then undone: text replaced in notes (at their path after the
    /// moves when going forward), and files or folders moved.
    struct Scenario {
        var name: String
        /// (path before the moves, text, replacement).
        var edits: [(path: String, from: String, to: String)]
        var moves: [(from: String, to: String)] = []
        var walks = false

        /// Applies the change (or its undoing) and returns the vault-relative paths it touched.
        func apply(in vault: URL, forward: Bool) throws -> [String] {
            var touched: [String] = []
            for move in moves {
                let (from, to) = forward ? (move.from, move.to) : (move.to, move.from)
                try FileManager.default.moveItem(at: vault.appendingPathComponent(from), to: vault.appendingPathComponent(to))
                touched += [from, to]
            }
            for edit in edits {
                let path = forward ? movedPath(edit.path) : edit.path
                let url = vault.appendingPathComponent(path)
                let text = try String(contentsOf: url, encoding: .utf8)
                let (old, new) = forward ? (edit.from, edit.to) : (edit.to, edit.from)
                guard let range = text.range(of: old) else { throw UpdateBenchmarkError.textNotFound(old, path) }
                try Data(text.replacingCharacters(in: range, with: new).utf8).write(to: url)
                touched.append(path)
            }
            return touched
        }

        private func movedPath(_ path: String) -> String {
            for move in moves where path == move.from || path.hasPrefix(move.from + "/") {
                return move.to + path.dropFirst(move.from.count)
            }
            return path
        }
    }

    enum UpdateBenchmarkError: Error, CustomStringConvertible {
        case textNotFound(String, String)

        var description: String {
            switch self {
            case .textNotFound(let text, let path):
                return "`\(text)` is not in \(path): a run stopped half-way left the vault copy changed; delete the update-vault folder"
            }
        }
    }

    /// `Hub.md`, an empty `Archive/`, and `Bulk/` with 1,000 notes linking each other and out; 1,000 notes
    /// outside link to the hub and into `Bulk/`. Returns those notes' paths.
    private func addFixtures(to vault: URL, generator: VaultGenerator) throws -> [String] {
        try Data("# Hub\n\nThe note everyone links to.\n".utf8).write(to: vault.appendingPathComponent("Hub.md"))
        for folder in ["Bulk", "Archive"] {
            try FileManager.default.createDirectory(at: vault.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        for index in 0..<Self.linkingNotes {
            let outside = generator.relativePath(ofNote: index).replacingOccurrences(of: " ", with: "%20")
            let text = "# Bulk \(index)\n\n[[Bulk \((index + 1) % Self.linkingNotes)]] and [out](../\(outside))\n"
            try Data(text.utf8).write(to: vault.appendingPathComponent("Bulk/Bulk \(index).md"))
        }
        var linking: [String] = []
        for index in 0..<min(Self.linkingNotes, noteCount) {
            let path = generator.relativePath(ofNote: index * max(1, noteCount / Self.linkingNotes))
            let ups = String(repeating: "../", count: path.split(separator: "/").count - 1)
            let handle = try FileHandle(forWritingTo: vault.appendingPathComponent(path))
            handle.seekToEndOfFile()
            handle.write(Data("\nSee [[Hub]] and [bulk](\(ups)Bulk/Bulk%20\(index).md).\n".utf8))
            try handle.close()
            linking.append(path)
        }
        return linking
    }
}
