import Foundation
import Testing
import RhizomeCore
import RhizomeStore
import RhizomeTestSupport

/// Tests that need the real `rhizome` process: terminal behaviour and being killed mid-run.
@Suite(.serialized) struct ProcessTests {
    struct Run {
        var status: Int32
        var output: String
        var error: String
    }

    private func launch(_ arguments: [String], home: String, environment: [String: String] = [:]) throws -> Process {
        let binary = try #require(RhizomeBinary.url, "the rhizome executable was not built next to the tests")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = ["HOME": home, "XDG_CACHE_HOME": home + "/.cache", "PATH": "/usr/bin:/bin"].merging(environment) { $1 }
        return process
    }

    private func run(_ arguments: [String], home: String, environment: [String: String] = [:]) throws -> Run {
        let process = try launch(arguments, home: home, environment: environment)
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self), error: String(decoding: errorData, as: UTF8.self))
    }

    private func makeVault(notes: Int) throws -> TemporaryVault {
        let vault = try TemporaryVault()
        let filler = String(repeating: "Some prose about notes and links. ", count: 60)
        for index in 0..<notes {
            let next = (index * 7 + 3) % notes
            try vault.write("Folder \(index % 13)/Note \(index).md",
                            "---\ntags: [t\(index % 5)]\n---\n# Note \(index)\n[[Note \(next)]] [[Missing \(index % 17)]] #tag/\(index % 9)\n\(filler)\n- [ ] task \(index)\n")
        }
        return vault
    }

    @Test func twoProcessesRefreshingOneIndexTakeTurns() throws {
        let vault = try makeVault(notes: 2_000)
        // Each process's errors go to a file of its own, to show what went wrong if one fails.
        let folder = URL(fileURLWithPath: vault.databasePath).deletingLastPathComponent()
        let errorFiles = (0..<3).map { folder.appendingPathComponent("index-\($0).err") }
        let processes = try errorFiles.map { errorFile in
            let process = try launch(["index", "--vault", vault.path, "--db", vault.databasePath], home: vault.outside.path)
            process.standardOutput = FileHandle.nullDevice
            _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
            process.standardError = try FileHandle(forWritingTo: errorFile)
            return process
        }
        for process in processes { try process.run() }
        for process in processes { process.waitUntilExit() }
        let errors = errorFiles.map { (try? String(contentsOf: $0, encoding: .utf8)) ?? "" }
        #expect(processes.map(\.terminationStatus) == [0, 0, 0], "\(errors)")
        let fresh = vault.scratchDatabasePath()
        try vault.index(database: fresh)
        #expect(try IndexStore(path: vault.databasePath).canonicalDump() == (try IndexStore(path: fresh).canonicalDump()))
    }

    #if os(Linux)
    @Test func theExecutableAllocatesWithJemallocOnLinux() throws {
        // jemalloc prints its statistics at exit when asked to; glibc's malloc ignores the variable.
        let home = try TemporaryVault()
        let result = try run(["--version"], home: home.outside.path, environment: ["MALLOC_CONF": "stats_print:true"])
        #expect(result.status == 0)
        #expect(result.error.contains("Begin jemalloc statistics"), "rhizome does not run on jemalloc: see CJemalloc in Package.swift")
    }
    #endif

    @Test func nothingButResultsWhenOutputIsPiped() throws {
        let vault = try makeVault(notes: 1_200)
        let result = try run(["index", "--vault", vault.path, "--db", vault.databasePath], home: vault.outside.path)
        #expect(result.status == 0)
        #expect(!result.error.contains("\u{1B}"))
        #expect(!result.error.contains("Indexing"))
        #expect(result.output.contains("1,200 notes"))
    }

    @Test func killingIndexAtAnyMomentLeavesAConsistentIndexThatTheNextRunCompletes() throws {
        let vault = try makeVault(notes: 3_000)
        // Time one complete run, then kill runs at fractions of that time.
        let timing = vault.scratchDatabasePath()
        let started = Date()
        _ = try run(["index", "--vault", vault.path, "--db", timing], home: vault.outside.path)
        let fullRun = Date().timeIntervalSince(started)
        for fraction in [0.1, 0.3, 0.55, 0.8] {
            // Under load a run can finish sooner than measured: retry with a shorter delay until the
            // process is really killed mid-run.
            var delay = fraction * fullRun
            var killedMidRun = false
            for _ in 0..<4 where !killedMidRun {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: vault.databasePath + suffix) }
                let process = try launch(["index", "--vault", vault.path, "--db", vault.databasePath], home: vault.outside.path)
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                try process.run()
                Thread.sleep(forTimeInterval: delay)
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                killedMidRun = process.terminationReason == .uncaughtSignal
                delay /= 2
            }
            #expect(killedMidRun, "every run finished before it could be killed (fraction \(fraction))")
            // The database opens, passes SQLite's integrity check, and the next run completes the work.
            let store = try IndexStore(path: vault.databasePath)
            #expect(try store.readOnlyQuery("PRAGMA integrity_check").rows == [[.string("ok")]])
            let finish = try run(["index", "--vault", vault.path, "--db", vault.databasePath], home: vault.outside.path)
            #expect(finish.status == 0)
            let fresh = vault.scratchDatabasePath()
            try vault.index(database: fresh)
            #expect(try IndexStore(path: vault.databasePath).canonicalDump() == (try IndexStore(path: fresh).canonicalDump()), "killed at \(fraction) of a run")
        }
    }
}
