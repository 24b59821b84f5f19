import Foundation
import Testing
import RhizomeCLI
import RhizomeTestSupport

/// The command line pinned by transcripts: each `Transcripts/*.tesh` file is a session on a fresh copy of
/// Vault-Example, in the style of zk's `.tesh` tests. The format:
///
///     # A comment (ignored), saying what the session shows.
///     $ rhizome orphans --limit 2        a command, run in the vault (quotes as in a shell)
///     >2 orphan notes                    a line it must print on standard output, exactly
///     2>warning: …                       a line on standard error
///     2$ rhizome orphans --sort nope     a command that must exit 2 (`1$`, `70$`: other statuses)
///
/// `{{*}}` in an expected line matches any text (times, temporary paths). Every line of both streams must
/// be listed, in order. `RHIZOME_UPDATE_TRANSCRIPTS=1 swift test --filter TranscriptTests` rewrites the
/// files with what the commands print now: read the diff before committing it.
@Suite struct TranscriptTests {
    static var folder: URL { URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Transcripts") }

    static var files: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".tesh") }.sorted()
    }

    @Test func `there are transcripts`() {
        #expect(Self.files.count >= 5, "no .tesh files in \(Self.folder.path)")
    }

    @Test(arguments: files) func `a transcript's commands print what it says`(_ name: String) throws {
        let path = Self.folder.appendingPathComponent(name).path
        let transcript = try Transcript(parsing: try String(contentsOfFile: path, encoding: .utf8))
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        var actual: [Transcript.Step] = []
        for step in transcript.steps {
            guard let command = step.command else {
                actual.append(step)  // comments and blank lines
                continue
            }
            let arguments = try Transcript.words(of: command)
            try #require(arguments.first == "rhizome", "\(name): a command must start with `rhizome`: \(command)")
            let result = cli.run(Array(arguments.dropFirst()), environment: ["RHIZOME_VAULT": vault.path, "NO_COLOR": "1"], in: vault.path)
            let output = Transcript.lines(of: result.output), error = Transcript.lines(of: result.error.replacingOccurrences(of: vault.path, with: "VAULT"))
            var ran = step
            ran.status = result.status
            ran.output = output.map { $0.replacingOccurrences(of: vault.path, with: "VAULT") }
            ran.error = error
            actual.append(ran)
            if ProcessInfo.processInfo.environment["RHIZOME_UPDATE_TRANSCRIPTS"] == "1" { continue }
            let where_ = "\(name):\(step.line): $ \(command)"
            #expect(result.status == step.status, "\(where_)\nexit status \(result.status), expected \(step.status)\n\(result.error)")
            #expect(Transcript.matches(ran.output, step.output), "\(where_)\nstandard output:\n\(Transcript.difference(expected: step.output, actual: ran.output))")
            #expect(Transcript.matches(ran.error, step.error), "\(where_)\nstandard error:\n\(Transcript.difference(expected: step.error, actual: ran.error))")
        }
        if ProcessInfo.processInfo.environment["RHIZOME_UPDATE_TRANSCRIPTS"] == "1" {
            // Lines with a wildcard keep it when the new text still matches.
            let merged = zip(transcript.steps, actual).map { expected, ran -> Transcript.Step in
                var step = ran
                if Transcript.matches(ran.output, expected.output) { step.output = expected.output }
                if Transcript.matches(ran.error, expected.error) { step.error = expected.error }
                return step
            }
            try Transcript(steps: merged).text.write(toFile: path, atomically: true, encoding: .utf8)
        }
    }
}

/// A parsed `.tesh` file.
struct Transcript {
    struct Step {
        var line: Int
        /// nil: a comment or blank line, kept as `raw`.
        var command: String?
        var raw = ""
        var status: Int32 = 0
        var output: [String] = []
        var error: [String] = []
    }

    var steps: [Step]

    init(steps: [Step]) { self.steps = steps }

    init(parsing text: String) throws {
        steps = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(line)
            if line.hasPrefix("2>"), !steps.isEmpty, steps[steps.count - 1].command != nil {
                steps[steps.count - 1].error.append(String(line.dropFirst(2)))
            } else if line.hasPrefix(">"), !steps.isEmpty, steps[steps.count - 1].command != nil {
                steps[steps.count - 1].output.append(String(line.dropFirst()))
            } else if let dollar = line.firstIndex(of: "$"), line[..<dollar].allSatisfy(\.isNumber), line[line.index(after: dollar)...].hasPrefix(" ") {
                let status = line[..<dollar].isEmpty ? 0 : Int32(line[..<dollar]) ?? 0
                steps.append(Step(line: index + 1, command: String(line[line.index(dollar, offsetBy: 2)...]), status: status))
            } else if line.hasPrefix("#") || line.trimmingCharacters(in: .whitespaces).isEmpty {
                steps.append(Step(line: index + 1, command: nil, raw: line))
            } else {
                throw TranscriptError(line: index + 1, message: "a line must be `# comment`, `$ command`, `>output` or `2>error`: \(line)")
            }
        }
        while let last = steps.last, last.command == nil, last.raw.isEmpty { steps.removeLast() }
    }

    var text: String {
        var lines: [String] = []
        for step in steps {
            guard let command = step.command else {
                lines.append(step.raw)
                continue
            }
            lines.append((step.status == 0 ? "" : String(step.status)) + "$ " + command)
            lines += step.output.map { ">" + $0 }
            lines += step.error.map { "2>" + $0 }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    struct TranscriptError: Error, CustomStringConvertible {
        var line: Int
        var message: String
        var description: String { "line \(line): \(message)" }
    }

    /// A command's words, split as a shell would for plain words and '…' or "…" quotes.
    static func words(of command: String) throws -> [String] {
        var words: [String] = [], current = "", quote: Character? = nil, inWord = false
        for character in command {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "'" || character == "\"" {
                quote = character
                inWord = true
            } else if character == " " {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        guard quote == nil else { throw TranscriptError(line: 0, message: "unclosed quote in \(command)") }
        if inWord { words.append(current) }
        return words
    }

    /// A stream's lines (without the newline that ends the last).
    static func lines(of text: String) -> [String] {
        guard !text.isEmpty else { return [] }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    static func matches(_ actual: [String], _ expected: [String]) -> Bool {
        actual.count == expected.count && zip(actual, expected).allSatisfy { line, pattern in matches(line, pattern) }
    }

    /// `pattern` with each `{{*}}` matching any text.
    static func matches(_ line: String, _ pattern: String) -> Bool {
        let parts = pattern.components(separatedBy: "{{*}}")
        guard parts.count > 1 else { return line == pattern }
        guard line.hasPrefix(parts[0]), line.dropFirst(parts[0].count).hasSuffix(parts[parts.count - 1]) else { return false }
        var rest = Substring(line.dropFirst(parts[0].count).dropLast(parts[parts.count - 1].count))
        for part in parts.dropFirst().dropLast() where !part.isEmpty {
            guard let found = rest.range(of: part) else { return false }
            rest = rest[found.upperBound...]
        }
        return true
    }

    static func difference(expected: [String], actual: [String]) -> String {
        var lines: [String] = []
        for index in 0..<max(expected.count, actual.count) {
            let want = index < expected.count ? expected[index] : nil, got = index < actual.count ? actual[index] : nil
            if let want, let got, matches(got, want) { lines.append("  " + got); continue }
            if let want { lines.append("- " + want) }
            if let got { lines.append("+ " + got) }
        }
        return lines.joined(separator: "\n")
    }
}
