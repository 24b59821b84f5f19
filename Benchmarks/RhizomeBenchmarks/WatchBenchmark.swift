import Foundation
import RhizomeCore
import RhizomeStore
import RhizomeWatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `rhizome-benchmark --watch N`: a watcher (`VaultWatcher`, default options) on the N-note vault; 200 saves
/// of different notes, each appending a unique word; for each, the time from the write returning to a
/// full-text query on a separate read-only connection finding that word. Then the watcher's CPU use while
/// idle (5 s) and its resident memory; `rhizome backlinks` run as a process with the watcher vouching for
/// the index and with a walk (`measureQueries`). Last, the vault folder replaced by a copy (`mv V V.moved`, then
/// `cp -a` or `cp -r` back): from the copy's end to a query finding a word only the copy has.
struct WatchBenchmark {
    let noteCount: Int
    let workRoot: String
    var saves = 200

    func run() throws {
        let generator = VaultGenerator(noteCount: noteCount)
        let (vault, bytes) = try BenchmarkRun.prepareVault(generator, workRoot: workRoot)
        print("\n== watch: \(noteCount) notes (\(String(format: "%.1f", Double(bytes) / 1_000_000)) MB) ==")
        let database = URL(fileURLWithPath: workRoot).appendingPathComponent("index-watch-\(noteCount).sqlite").path
        let watcher = try VaultWatcher(vaultPath: vault.path, databasePath: database)
        let events = EventLog()
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            do { try watcher.run { events.append($0) } } catch { print("watcher failed: \(error)") }
            finished.signal()
        }
        let clock = ContinuousClock()
        let started = clock.now
        while watcher.status.snapshot.phase != .watching {
            if case .stopped = watcher.status.snapshot.phase { throw BenchmarkError.watcherStopped }
            usleep(2_000)
        }
        print(String(format: "  %-44@ %8.0f ms", "watcher ready (incremental index at start)" as NSString, (clock.now - started).inMilliseconds))
        let reader = try IndexStore(readOnlyPath: database)

        var originals: [(URL, Data)] = []
        var latencies: [Double] = []
        let runID = UInt32.random(in: 0..<UInt32.max)
        for save in 0..<saves {
            let url = vault.appendingPathComponent(generator.relativePath(ofNote: (save * 7_919 + 13) % noteCount))
            let original = try Data(contentsOf: url)
            originals.append((url, original))
            let word = "probe\(runID)x\(save)"
            var edited = original
            edited.append(Data("\nA line with \(word) in it.\n".utf8))
            // Written in place (truncate and write), as Obsidian saves.
            try edited.write(to: url)
            let saved = clock.now
            while try reader.search(word, limit: 1).isEmpty {
                if clock.now - saved > .seconds(10) { throw BenchmarkError.changeNeverSeen(url.path) }
                usleep(250)
            }
            latencies.append((clock.now - saved).inMilliseconds)
            usleep(30_000)  // saves are seconds apart in real life; 30 ms keeps them separate batches here
        }
        latencies.sort()
        print(String(format: "  %-44@ p50 %.1f ms · p95 %.1f ms · p99 %.1f ms · max %.1f ms (%d saves)",
                     "save → query sees it" as NSString, Measurements.percentile(latencies, 0.5), Measurements.percentile(latencies, 0.95),
                     Measurements.percentile(latencies, 0.99), latencies.last ?? 0, latencies.count))
        let batches = events.batches
        let applied = batches.map(\.milliseconds).sorted()
        print(String(format: "  %-44@ %d batches, %d walked the vault · apply p50 %.1f ms · p95 %.1f ms",
                     "batches" as NSString, batches.count, batches.filter(\.walkedVault).count, Measurements.percentile(applied, 0.5), Measurements.percentile(applied, 0.95)))

        // Restore the notes (the watcher applies that too), then measure it idle.
        for (url, data) in originals.reversed() { try data.write(to: url) }
        usleep(1_000_000)
        let cpuBefore = Measurements.cpuSeconds()
        let idleStart = clock.now
        usleep(5_000_000)
        let cpu = Measurements.cpuSeconds() - cpuBefore
        let idle = (clock.now - idleStart).inMilliseconds / 1000
        print(String(format: "  %-44@ %.2f%% of one core (%.3f s CPU in %.1f s)", "watcher idle CPU" as NSString, cpu / idle * 100, cpu, idle))
        print(String(format: "  %-44@ %.0f MB now · %.0f MB peak", "resident memory (watcher + reader)" as NSString, Measurements.currentResidentMegabytes(), Measurements.peakResidentMegabytes()))
        try measureQueries(vault: vault, database: database, note: generator.relativePath(ofNote: 1))
        for copyFlag in ["-a", "-r"] {
            try measureReplacement(vault: vault, copyFlag: copyFlag, word: "replaced\(runID)x\(copyFlag.dropFirst())", reader: reader,
                                   note: generator.relativePath(ofNote: 1))
        }
        watcher.stop()
        finished.wait()
    }

    /// `rhizome backlinks NOTE --json` (the release binary beside this one), 20 times each way, alternating:
    /// with the watcher vouching for the index (no walk), and with `RHIZOME_WALK=1` (a walk first, as
    /// without a watcher), and with `--no-refresh` (neither). Whole process: start, query, print, exit.
    private func measureQueries(vault: URL, database: String, note: String) throws {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("rhizome").path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            print("  (CLI query latency skipped: build the rhizome product in release too: swift build -c release)")
            return
        }
        let name = String(note.split(separator: "/").last ?? "").replacingOccurrences(of: ".md", with: "")
        let clock = ContinuousClock()
        var samples: [String: [Double]] = [:]
        let ways: [(String, [String], [String: String])] = [
            ("watched: no walk", [], [:]), ("watched, RHIZOME_WALK=1: walk", [], ["RHIZOME_WALK": "1"]), ("--no-refresh", ["--no-refresh"], [:]),
        ]
        for _ in 0..<20 {
            for (label, extra, environment) in ways {
                let arguments = [binary, "backlinks", name, "--vault", vault.path, "--db", database, "--json"] + extra
                let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0.key)=\($0.value)" }
                let started = clock.now
                try Self.spawnAndWait(arguments, environment: variables)
                samples[label, default: []].append((clock.now - started).inMilliseconds)
            }
        }
        for (label, _, _) in ways {
            let sorted = (samples[label] ?? []).sorted()
            print(String(format: "  %-44@ p50 %.1f ms · p95 %.1f ms", "rhizome backlinks (\(label))" as NSString,
                         Measurements.percentile(sorted, 0.5), Measurements.percentile(sorted, 0.95)))
        }
    }

    /// posix_spawn and waitpid, output to /dev/null: Foundation's `Process.waitUntilExit` notices the exit
    /// only at its run loop's next turn (up to ~50 ms late here), which would be most of what is measured.
    private static func spawnAndWait(_ arguments: [String], environment: [String]) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, arguments[0], &actions, nil, argv, envp) == 0 else { throw BenchmarkError.changeNeverSeen("cannot start \(arguments[0])") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }

    /// Moves the vault folder away, edits a note in it, copies it back with `cp copyFlag` (`-a` keeps the
    /// files' times: the walk compares them; `-r` does not: every file is read again), and times from the
    /// copy's end to the index having the edit. The settle interval (1 s) is most of it by design.
    private func measureReplacement(vault: URL, copyFlag: String, word: String, reader: IndexStore, note: String) throws {
        let clock = ContinuousClock()
        let moved = vault.appendingPathExtension("moved")
        try? FileManager.default.removeItem(at: moved)
        try FileManager.default.moveItem(at: vault, to: moved)
        let movedNote = moved.appendingPathComponent(note)
        let original = try Data(contentsOf: movedNote)
        try (original + Data("\nOnly the copy has \(word).\n".utf8)).write(to: movedNote)
        let copyStarted = clock.now
        let copy = Process()
        copy.executableURL = URL(fileURLWithPath: "/bin/cp")
        copy.arguments = [copyFlag, moved.path, vault.path]
        try copy.run()
        copy.waitUntilExit()
        let copied = clock.now
        while try reader.search(word, limit: 1).isEmpty {
            if clock.now - copied > .seconds(30) { throw BenchmarkError.changeNeverSeen("\(vault.path) copied back with cp \(copyFlag)") }
            usleep(1_000)
        }
        print(String(format: "  %-44@ %.0f ms (the copy took %.0f ms)", "vault folder replaced (cp \(copyFlag)) → current" as NSString,
                     (clock.now - copied).inMilliseconds, (copied - copyStarted).inMilliseconds))
        // Leave the vault as generated (the watcher applies that too), and quiet before what comes next.
        try original.write(to: vault.appendingPathComponent(note))
        try FileManager.default.removeItem(at: moved)
        usleep(1_500_000)
    }

    enum BenchmarkError: Error {
        case watcherStopped
        case changeNeverSeen(String)
    }

    /// Collects the watcher's events from its thread.
    final class EventLog: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [WatchBatch] = []

        func append(_ event: WatchEvent) {
            guard case .batch(let batch) = event else { return }
            lock.lock()
            items.append(batch)
            lock.unlock()
        }

        var batches: [WatchBatch] {
            lock.lock()
            defer { lock.unlock() }
            return items
        }
    }
}
