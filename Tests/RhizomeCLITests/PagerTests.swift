/// A list longer than a screen goes through a pager when standard output is a terminal, as git does:
/// the real binary, its output on a pseudo-terminal, and a stand-in pager (`sed`) that marks each line.
import Foundation
import Testing
import RhizomeTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct PagerTests {
    struct Terminal {
        let vault: TemporaryVault
        let home: URL

        init() throws {
            vault = try TemporaryVault()
            for index in 1...3 { try vault.write("Lonely \(index).md", "# Lonely \(index)\n") }
            home = URL(fileURLWithPath: vault.path).deletingLastPathComponent().appendingPathComponent("home-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        }

        /// Runs `rhizome` with standard output on a pseudo-terminal (or a pipe); what it printed, `\r` removed.
        func run(_ arguments: [String], environment: [String: String] = [:], onTerminal: Bool = true) throws -> String {
            let binary = try #require(RhizomeBinary.url, "the rhizome executable was not built next to the tests")
            let process = Process()
            process.executableURL = binary
            process.arguments = arguments + ["--vault", vault.path, "--db", home.appendingPathComponent("index.sqlite").path]
            process.environment = ["HOME": home.path, "PATH": "/usr/bin:/bin", "TERM": "dumb"].merging(environment) { $1 }
            process.standardError = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            guard onTerminal else {
                let pipe = Pipe()
                process.standardOutput = pipe
                try process.run()
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                return String(decoding: data, as: UTF8.self)
            }
            var master: Int32 = -1, terminal: Int32 = -1
            try #require(openpty(&master, &terminal, nil, nil, nil) == 0, "no pseudo-terminal")
            defer { close(master) }
            process.standardOutput = FileHandle(fileDescriptor: terminal, closeOnDealloc: false)
            try process.run()
            close(terminal)  // the child and its pager hold it now; reads end when both let go
            var output: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4_096)
            var poll = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            while systemPoll(&poll, 1, 10_000) > 0 {
                let count = read(master, &buffer, buffer.count)
                if count <= 0 { break }  // EIO: every holder of the terminal closed it
                output += buffer[0..<count]
            }
            process.waitUntilExit()
            return String(decoding: output, as: UTF8.self).replacingOccurrences(of: "\r", with: "")
        }
    }

    static let markingPager = ["PAGER": "sed s/^/paged:/"]

    @Test func `a list on a terminal goes through the pager, with LESS set as git sets it`() throws {
        let terminal = try Terminal()
        let output = try terminal.run(["orphans"], environment: Self.markingPager)
        let lines = output.split(separator: "\n")
        #expect(lines.count == 4 && lines.allSatisfy { $0.hasPrefix("paged:") }, "\(output)")
        let less = try terminal.run(["orphans"], environment: ["PAGER": #"printf 'LESS=%s\n' "$LESS"; cat >/dev/null"#])
        #expect(less == "LESS=FRX\n", "\(less)")
        let chosen = try terminal.run(["orphans"], environment: ["PAGER": #"printf 'LESS=%s\n' "$LESS"; cat >/dev/null"#, "LESS": "R"])
        #expect(chosen == "LESS=R\n")
    }

    @Test func `no pager with --no-pager, PAGER=cat, a pipe, or a command that lists nothing`() throws {
        let terminal = try Terminal()
        let plain = "3 orphan notes\n  Lonely 1.md\n  Lonely 2.md\n  Lonely 3.md\n"
        #expect(try terminal.run(["orphans", "--no-pager"], environment: Self.markingPager) == plain)
        #expect(try terminal.run(["--no-pager", "orphans"], environment: Self.markingPager) == plain)
        #expect(try terminal.run(["orphans"], environment: ["PAGER": "cat"]) == plain)
        #expect(try terminal.run(["orphans"], environment: ["PAGER": "sed s/^/paged:/", "RHIZOME_PAGER": ""]) == plain)
        #expect(try terminal.run(["orphans"], environment: Self.markingPager, onTerminal: false) == plain)
        #expect(!(try terminal.run(["index"], environment: Self.markingPager)).contains("paged:"))
    }
}

/// `poll(2)`, named apart from the local variable.
private func systemPoll(_ descriptors: UnsafeMutablePointer<pollfd>, _ count: nfds_t, _ timeout: Int32) -> Int32 {
    poll(descriptors, count, timeout)
}
