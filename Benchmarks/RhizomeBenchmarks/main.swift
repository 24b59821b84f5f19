/// `rhizome-benchmark`: measures indexing and query speed on generated vaults.
///
///     swift run -c release rhizome-benchmark                 # 1k, 10k, 50k notes
///     swift run -c release rhizome-benchmark --notes 10000   # one size
///     swift run -c release rhizome-benchmark --watch 10000   # save-to-query latency of a watcher
///     swift run -c release rhizome-benchmark --dataview 10000   # Dataview query latency
///     swift run -c release rhizome-benchmark --dataview 10000 --query 2   # one of its queries
///     swift run -c release rhizome-benchmark --bases 10000 [--base 2]   # Obsidian bases' latency
///     swift run -c release rhizome-benchmark --cold 10000 [--full-text] [--report-rss]   # one cold index, to profile
///     swift run -c release rhizome-benchmark --parse 10000   # parsing and resolving alone, one thread, to profile
///     swift run -c release rhizome-benchmark --move 10000 [--repeat 3]   # link-safe mv of a hub note and a folder, undo
///     swift run -c release rhizome-benchmark --update 10000 [--repeat 3] [--phases] [--no-full-text]   # re-index of 1,000 changed notes
///     swift build -c release && swift run -c release rhizome-benchmark --mcp 10000   # MCP call latency during a slow query
///     swift run -c release rhizome-benchmark --property-links 100000 [--repeat 3]   # one property value with 100k links
///     swift run -c release rhizome-benchmark --retrieval Benchmarks/retrieval-questions.json --vault ../shared/corpora/obsidian-help-en [--latency 10000] [--misses] [--translations FILE]
///
/// Each size runs in its own child process so that peak RSS belongs to that size alone. Vaults are
/// generated deterministically (VaultGenerator, seed 42) under $TMPDIR and reused between runs.
import Foundation
import RhizomeCore
import RhizomeStore
#if canImport(CJemalloc)
import CJemalloc  // links jemalloc as the process's allocator (Package.swift)
#endif

let arguments = Array(CommandLine.arguments.dropFirst())

func value(of option: String) -> String? {
    guard let index = arguments.firstIndex(of: option), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

let workRoot = value(of: "--work-dir") ?? FileManager.default.temporaryDirectory.appendingPathComponent("rhizome-bench").path

/// Runs one benchmark mode and exits: 0 when it finished, 70 (with the error on standard error) when not.
func runMode(_ name: String, _ body: () throws -> Void) -> Never {
    do {
        try body()
    } catch {
        FileHandle.standardError.write(Data("\(name) failed: \(error)\n".utf8))
        exit(70)
    }
    exit(0)
}

if let size = value(of: "--single-watch").flatMap(Int.init) {
    runMode("watch benchmark") { try WatchBenchmark(noteCount: size, workRoot: workRoot).run() }
}

// `--cold N [--full-text] [--report-rss]`: one cold index and nothing else (for profiling).
if let size = value(of: "--cold").flatMap(Int.init) {
    runMode("benchmark") {
        try BenchmarkRun(noteCount: size, workRoot: workRoot).runColdIndexOnly(fullText: arguments.contains("--full-text"))
        if arguments.contains("--report-rss") {
            print(String(format: "  %-44@ %.0f MB", "peak RSS (that first index, alone)" as NSString, Measurements.peakResidentMegabytes()))
        }
    }
}

// `--parse N`: what the parse workers do, on one thread, with no database (for profiling).
if let size = value(of: "--parse").flatMap(Int.init) {
    runMode("benchmark") { try BenchmarkRun(noteCount: size, workRoot: workRoot).runParseOnly() }
}

if let single = value(of: "--single").flatMap(Int.init) {
    runMode("benchmark") { try BenchmarkRun(noteCount: single, workRoot: workRoot).run() }
}

// `--move N`: link-safe moves through the operations layer.
if let size = value(of: "--move").flatMap(Int.init) {
    runMode("move benchmark") { try MoveBenchmark(noteCount: size, workRoot: workRoot, rounds: value(of: "--repeat").flatMap(Int.init) ?? 3, hubOnly: arguments.contains("--hub-only")).run() }
}

// `--update N`: re-indexing many changed notes (what `rhizome mv` does after rewriting them).
if let size = value(of: "--update").flatMap(Int.init) {
    runMode("update benchmark") {
        try UpdateBenchmark(
            noteCount: size, workRoot: workRoot, rounds: value(of: "--repeat").flatMap(Int.init) ?? 3, tracePhases: arguments.contains("--phases"),
            fullText: !arguments.contains("--no-full-text")
        ).run()
    }
}

// `--mcp N`: latency of parallel tool calls to the real `rhizome mcp` while a slow query runs.
if let size = value(of: "--mcp").flatMap(Int.init) {
    runMode("mcp benchmark") { try MCPBenchmark(noteCount: size, workRoot: workRoot).run() }
}

// `--property-links N`: one file with N links in one property value (in one body line, one canvas node).
if let count = value(of: "--property-links").flatMap(Int.init) {
    runMode("property links benchmark") {
        try PropertyLinksBenchmark(linkCount: count, workRoot: workRoot, rounds: value(of: "--repeat").flatMap(Int.init) ?? 3).run()
    }
}

// `--retrieval QUESTIONS --vault PATH`: recall@5, recall@20 and MRR of explore's note choice.
if let questions = value(of: "--retrieval") {
    runMode("retrieval benchmark") {
        guard let vault = value(of: "--vault") else { throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "--retrieval needs --vault PATH"]) }
        try RetrievalBenchmark(
            questionsPath: questions, vaultPath: vault, workRoot: workRoot, latencyNotes: value(of: "--latency").flatMap(Int.init),
            showsMisses: arguments.contains("--misses"), translationsPath: value(of: "--translations")
        ).run()
    }
}

// `--dataview N`: Dataview query latency on an indexed vault.
if let size = value(of: "--dataview").flatMap(Int.init) {
    runMode("dataview benchmark") {
        try DataviewBenchmark(noteCount: size, workRoot: workRoot, onlyQuery: value(of: "--query").flatMap(Int.init)).run()
    }
}

// `--bases N`: Obsidian bases over an indexed vault.
if let size = value(of: "--bases").flatMap(Int.init) {
    runMode("bases benchmark") {
        try BasesBenchmark(noteCount: size, workRoot: workRoot, onlyBase: value(of: "--base").flatMap(Int.init)).run()
    }
}

// `--watch N`: the watcher benchmark, in its own process (its memory is the watcher's alone).
if let size = value(of: "--watch").flatMap(Int.init) {
    let child = Process()
    child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    child.arguments = ["--single-watch", String(size), "--work-dir", workRoot]
    try child.run()
    child.waitUntilExit()
    exit(child.terminationStatus)
}

let sizes = value(of: "--notes").map { $0.split(separator: ",").compactMap { Int($0) } } ?? [1_000, 10_000, 50_000]
print("Rhizome benchmark · \(ProcessInfo.processInfo.activeProcessorCount) cores · sizes \(sizes.map(String.init).joined(separator: ", "))")
for size in sizes {
    // The size's measurements, then a first index with full text alone in a process of its own: the
    // peak RSS of `rhizome index` on that vault, without the benchmark's other phases (which hold
    // every parsed note at once to time parsing alone).
    for arguments in [["--single", String(size)], ["--cold", String(size), "--full-text", "--report-rss"]] {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = arguments + ["--work-dir", workRoot]
        try child.run()
        child.waitUntilExit()
        if child.terminationStatus != 0 { exit(child.terminationStatus) }
    }
}
