import Foundation
import Testing
import RhizomeCore
import RhizomeTestSupport

/// The real `rhizome fix --write` over 400 notes, killed with SIGKILL at journaled step boundaries
/// (`RHIZOME_CRASH_POINT`) and after random delays: the next command leaves no `.rhizome-*.tmp` anywhere
/// in the vault, and the vault as it was or as a finished fix leaves it. A temporary file a killed
/// process left behind otherwise stays for good, seen by sync tools and git. `RHIZOME_KILL_RUNS` sets
/// how many kills of each kind (default 8).
@Suite(.serialized) struct FixKillTests {
    static let runs = MoveKillTests.runs

    /// 400 notes with a legacy comma-separated `tag:` (each one a fix), in four folders.
    static func makeTemplate() throws -> MoveKillTests.Template {
        let template = try MoveKillTests.Template(withNotes: false)
        for index in 0..<400 {
            let url = URL(fileURLWithPath: template.vault).appendingPathComponent("Folder \(index % 4)/Note \(index).md")
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("---\ntag: a, b\nstatus: draft\n---\n# Note \(index)\n[[Note \((index + 1) % 400)]]\n".utf8).write(to: url)
        }
        return template
    }

    /// Rhizome's temporary files anywhere under the vault (hidden folders included).
    static func temporaryFiles(_ vault: URL) -> [String] {
        MoveKillTests.snapshot(vault).keys.filter { path in
            let name = path.split(separator: "/").last.map(String.init) ?? path
            return name.hasPrefix(".rhizome-") && name.hasSuffix(".tmp")
        }.sorted()
    }

    @Test func `a killed fix --write leaves no temporary file after the next command`() throws {
        let template = try Self.makeTemplate()
        let setup = try MoveKillTests.rhizome(["index"], in: template.folder)
        try #require(setup.status == 0, "indexing the template failed: \(setup.error)")
        let before = MoveKillTests.snapshot(URL(fileURLWithPath: template.vault))
        let reference = try template.copy("reference")
        defer { try? FileManager.default.removeItem(at: reference) }
        let finished = try MoveKillTests.rhizome(["fix", "--write"], in: reference)
        try #require(finished.status == 0, "the fix failed: \(finished.error)")
        let after = MoveKillTests.snapshot(reference.appendingPathComponent("vault"))
        #expect(after.filter { before[$0.key] != $0.value }.count == 400, "every note was fixed")

        // Step boundaries (the journal written, then spread over the 400 rewrites), then random moments.
        let points = [1, 2] + (0..<Self.runs).map { 3 + $0 * 400 / max(1, Self.runs) }
        var kills: [(String, [String: String], Duration?)] = points.map { ("point-\($0)", ["RHIZOME_CRASH_POINT": "\($0)"], nil) }
        var generator = SeededGenerator(state: 18)
        kills += (0..<Self.runs).map { ("timed-\($0)", [:], Duration.milliseconds(Int.random(in: 20...700, using: &generator))) }
        var outcomes: [String: Int] = [:]
        for (name, environment, delay) in kills {
            let copy = try template.copy(name)
            defer { try? FileManager.default.removeItem(at: copy) }
            let vault = copy.appendingPathComponent("vault")
            let killed = try MoveKillTests.rhizome(["fix", "--write"], in: copy, environment: environment, killAfter: delay)
            let leftBehind = Self.temporaryFiles(vault)
            let next = try MoveKillTests.rhizome(["backlinks", "Note 7"], in: copy)
            #expect(next.status == 0, "\(name): the next command failed: \(next.error)")
            let leftovers = Self.temporaryFiles(vault)
            #expect(leftovers.isEmpty, "\(name): temporary files left in the vault after the next command: \(leftovers)")
            let now = MoveKillTests.snapshot(vault)
            #expect(now == before || now == after, "\(name): the vault is neither as before nor as after the fix")
            let outcome = !killed.killedBySignal ? "finished" : now == after ? "completed" : "untouched"
            outcomes[outcome + (leftBehind.isEmpty ? "" : ", temporary files left by the kill"), default: 0] += 1
        }
        #expect(outcomes.keys.contains { $0.hasPrefix("completed") }, "some kills came after the journal was written: \(outcomes)")
    }
}
