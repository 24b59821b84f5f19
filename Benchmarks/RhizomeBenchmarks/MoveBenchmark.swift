import Foundation
import RhizomeCore
import RhizomeOperations
import RhizomeStore

/// `--move N`: link-safe moves on a copy of the generated N-note vault, through `VaultEditor` as `rhizome mv
/// --write` runs them (plan, journaled apply, re-index), with `--repeat R` rounds (default 3):
/// - a note with 1,000 backlinks renamed into another folder (target: ≤ 1 s at 10k notes);
/// - a folder of 1,000 notes, linked from 1,000 notes outside it and linking out, moved (target: ≤ 5 s);
/// - undo of the folder move.
struct MoveBenchmark {
    let noteCount: Int
    let workRoot: String
    var rounds = 3
    /// `--hub-only`: the hub move only, there and back `rounds` times on one copy (for profiling it).
    var hubOnly = false

    func run() throws {
        defer { Self.deleteSetAside(workRoot: workRoot) }
        let generator = VaultGenerator(noteCount: noteCount)
        let (template, _) = try BenchmarkRun.prepareVault(generator, workRoot: workRoot)
        if hubOnly { return try runHubOnly(template: template, generator: generator) }
        print("\n== Link-safe moves, \(noteCount) notes (release, in-process; plan + journaled apply + re-index) ==")
        var hubTimes: [Double] = [], folderTimes: [Double] = [], undoTimes: [Double] = []
        var hubCPU: [Double] = [], folderCPU: [Double] = [], undoCPU: [Double] = []
        for round in 0..<rounds {
            let editor = try freshCopy(of: template, generator: generator)

            let (hubPlan, hub) = try phases { () throws -> MovePlan in try editor.planMove("Hub", to: "Archive/Hub renamed") } apply: { try editor.apply($0) }
            hubTimes.append(hub.total)
            hubCPU.append(hub.cpu)
            let (folderPlan, folder) = try phases { () throws -> MovePlan in try editor.planMove("Bulk", to: "Archive/Bulk") } apply: { try editor.apply($0) }
            folderTimes.append(folder.total)
            folderCPU.append(folder.cpu)
            let (_, undo) = try phases { () throws -> UndoPlan in try editor.planUndo() } apply: { try editor.apply($0) }
            undoTimes.append(undo.total)
            undoCPU.append(undo.cpu)
            print(String(format: "  round %d: hub (%d links in %d files) plan %.0f + apply %.0f = %.0f ms (CPU %.0f); folder (%d files, %d links in %d files) plan %.0f + apply %.0f = %.0f ms (CPU %.0f); undo %.0f ms (CPU %.0f)",
                         round + 1, hubPlan.linkCount, hubPlan.changes.count, hub.plan, hub.apply, hub.total, hub.cpu,
                         folderPlan.moves.count, folderPlan.linkCount, folderPlan.changes.count, folder.plan, folder.apply, folder.total, folder.cpu,
                         undo.total, undo.cpu))
        }
        for (name, samples) in [("note with 1,000 backlinks, renamed and moved", hubTimes), ("folder of 1,000 notes moved", folderTimes), ("undo of the folder move", undoTimes)] {
            print(String(format: "  %-48@ median %6.0f ms  (min %.0f, max %.0f)", name as NSString, Measurements.median(samples.sorted()), samples.min() ?? 0, samples.max() ?? 0))
        }
        // CPU time (user + system, all threads) is steadier than wall time on a machine busy with other work.
        for (name, samples) in [("  CPU time of the hub move", hubCPU), ("  CPU time of the folder move", folderCPU), ("  CPU time of the undo", undoCPU)] {
            print(String(format: "  %-48@ median %6.0f ms  (min %.0f, max %.0f)", name as NSString, Measurements.median(samples.sorted()), samples.min() ?? 0, samples.max() ?? 0))
        }
    }

    private func runHubOnly(template: URL, generator: VaultGenerator) throws {
        print("\n== Hub note moved there and back, \(noteCount) notes (release, in-process) ==")
        let editor = try freshCopy(of: template, generator: generator)
        var times: [Double] = [], cpu: [Double] = []
        for round in 0..<rounds {
            let (from, to) = round % 2 == 0 ? ("Hub", "Archive/Hub renamed") : ("Archive/Hub renamed", "Hub")
            let (_, move) = try phases { () throws -> MovePlan in try editor.planMove(from, to: to) } apply: { try editor.apply($0) }
            times.append(move.total)
            cpu.append(move.cpu)
            print(String(format: "  %@ → %@: plan %.0f + apply %.0f = %.0f ms (CPU %.0f)", from, to, move.plan, move.apply, move.total, move.cpu))
        }
        print(String(format: "  hub move median %.0f ms (min %.0f, max %.0f); CPU median %.0f ms", Measurements.median(times.sorted()), times.min() ?? 0, times.max() ?? 0, Measurements.median(cpu.sorted())))
    }

    /// A new copy of the generated vault with the fixtures, indexed, and an editor on it.
    private func freshCopy(of template: URL, generator: VaultGenerator) throws -> VaultEditor {
        let vault = URL(fileURLWithPath: workRoot).appendingPathComponent("move-vault")
        let database = URL(fileURLWithPath: workRoot).appendingPathComponent("move-\(noteCount).sqlite").path
        setAside(vault)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) }
        try? FileManager.default.removeItem(atPath: workRoot + "/.move-\(noteCount).sqlite.operations")
        try FileManager.default.copyItem(at: template, to: vault)
        try addFixtures(to: vault, generator: generator)
        let store = try IndexStore(path: database)
        _ = try Indexer(store: store, vaultRoot: vault.path).run()
        return try VaultEditor(vaultPath: vault.path, databasePath: database, store: store)
    }

    /// Renames a previous copy out of the way rather than deleting it: the copies are deleted when the
    /// benchmark ends. On ext4 without a journal, every file created within about 30 s (5 min while the
    /// inode table is unwritten) of many deletions scans past each deleted inode (`recently_deleted` in
    /// the kernel's inode allocator): deleting a 10k-note copy just before the timed move added ~285 ms
    /// to it on the CI machine, a cost of the benchmark's own set-up that no user's move pays.
    private func setAside(_ vault: URL) {
        guard FileManager.default.fileExists(atPath: vault.path) else { return }
        let aside = URL(fileURLWithPath: workRoot).appendingPathComponent(".move-vaults-to-delete")
        try? FileManager.default.createDirectory(at: aside, withIntermediateDirectories: true)
        try? FileManager.default.moveItem(at: vault, to: aside.appendingPathComponent(UUID().uuidString))
    }

    /// Deletes the copies set aside, once nothing is timed any more.
    static func deleteSetAside(workRoot: String) {
        try? FileManager.default.removeItem(atPath: workRoot + "/.move-vaults-to-delete")
    }

    /// `Hub.md` with 1,000 backlinks, and `Bulk/` with 1,000 notes linking each other and out, linked from
    /// 1,000 notes outside it.
    private func addFixtures(to vault: URL, generator: VaultGenerator) throws {
        try Data("# Hub\n\nThe note everyone links to.\n".utf8).write(to: vault.appendingPathComponent("Hub.md"))
        try FileManager.default.createDirectory(at: vault.appendingPathComponent("Bulk"), withIntermediateDirectories: true)
        // Bulk notes link each other by name and out by relative path (which the move must rewrite).
        for index in 0..<1_000 {
            let outside = generator.relativePath(ofNote: index).replacingOccurrences(of: " ", with: "%20")
            let text = "# Bulk \(index)\n\n[[Bulk \((index + 1) % 1_000)]] and [out](../\(outside))\n"
            try Data(text.utf8).write(to: vault.appendingPathComponent("Bulk/Bulk \(index).md"))
        }
        // 1,000 notes outside link to the hub by name and into Bulk by relative path.
        for index in 0..<min(1_000, noteCount) {
            let path = generator.relativePath(ofNote: index * max(1, noteCount / 1_000))
            let ups = String(repeating: "../", count: path.split(separator: "/").count - 1)
            guard let handle = try? FileHandle(forWritingTo: vault.appendingPathComponent(path)) else { continue }
            handle.seekToEndOfFile()
            handle.write(Data("\nSee [[Hub]] and [bulk](\(ups)Bulk/Bulk%20\(index).md).\n".utf8))
            try handle.close()
        }
    }

    private func phases<Plan>(_ plan: () throws -> Plan, apply: (Plan) throws -> VaultOperation) throws -> (Plan, (plan: Double, apply: Double, total: Double, cpu: Double)) {
        let clock = ContinuousClock()
        let cpuStart = Measurements.cpuSeconds()
        let start = clock.now
        let made = try plan()
        let planned = clock.now
        _ = try apply(made)
        let end = clock.now
        let cpu = (Measurements.cpuSeconds() - cpuStart) * 1_000
        return (made, ((planned - start).inMilliseconds, (end - planned).inMilliseconds, (end - start).inMilliseconds, cpu))
    }
}
