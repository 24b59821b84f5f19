import Foundation
import Testing
import RhizomeCLI
import RhizomeTestSupport

/// `rhizome reflect` end to end on a copy of Vault-Example against the fake Messages API: the notes of the
/// period, the request, the reflection note written into the vault (valid for the `reflection` schema,
/// linked into the graph), and what happens when it is run again — refused, replaced with --force, or a
/// new version beside a note the user edited, which is never touched.
@Suite(.ownThread, .timeLimit(.minutes(1)))
struct ReflectCommandTests {
    static let period = ["--from", "2026-11-16", "--to", "2026-11-22"]
    static let notePath = "Reflections/Reflection 2026-11-16 to 2026-11-22.md"
    static let secondVersionPath = "Reflections/Reflection 2026-11-16 to 2026-11-22 (2).md"

    /// The notes whose `date:` or `created:` falls in 2026-11-16…22 (every file's modification time is in
    /// January), newest day first, then by path. `Sessions/2026-11-19 Link resolver refactor.md` has a
    /// `date:` in the period but invalid YAML, so no properties; `Ideas/Embedding-free search.md` has JSON
    /// frontmatter with `created: 2026-11-19`.
    static let periodNotes = [
        "Daily/2026-11-22.md",
        "Daily/2026-11-21.md",
        "Projects/Rhizome/Plans/Plan - Schema validation.md",
        "Sessions/2026-11-21 Schema validator spike.md",
        "Daily/2026-11-20.md",
        "Meetings/2026-11-20 Rhizome review.md",
        "Daily/2026-11-19.md",
        "Ideas/Embedding-free search.md",
        "Projects/Alpha/ADR-A01 Render PDFs on the server.md",
        "Daily/2026-11-18.md",
        "Sessions/2026-11-18 Watcher debounce.md",
        "Daily/2026-11-17.md",
        "Meetings/2026-11-17 Alpha sync.md",
        "Daily/2026-11-16.md",
    ]
    static var periodNames: [String] { periodNotes.map { ($0 as NSString).lastPathComponent.replacingOccurrences(of: ".md", with: "") } }

    static let pieces = [
        "Your week kept returning to testing edge cases first: the debounce session [", "11",
        "] and the validator spike [4] both start from a failing case. The PDF decision for Alpha [9",
        "] follows the same habit, as your Sunday review notes [1]. Next week, carry it into incremental indexing.",
    ]
    static let shownText = "Your week kept returning to testing edge cases first: the debounce session [[2026-11-18 Watcher debounce]] "
        + "and the validator spike [[2026-11-21 Schema validator spike]] both start from a failing case. The PDF decision for Alpha "
        + "[[ADR-A01 Render PDFs on the server]] follows the same habit, as your Sunday review notes [[2026-11-22]]. Next week, carry it "
        + "into incremental indexing."
    static var answer: FakeAnthropicServer.Reply {
        ClaudeReplies.answer(pieces, model: "claude-sonnet-4-6", inputTokens: 3_000, outputTokens: 200)
    }
    static var otherAnswer: FakeAnthropicServer.Reply {
        ClaudeReplies.answer(["A second take on the week [2]."], model: "claude-sonnet-4-6", inputTokens: 3_000, outputTokens: 20)
    }

    @Test func `a reflection on the period is written as a valid reflection note that links its evidence`() async throws {
        let fixture = try ClaudeVault(script: [Self.answer])
        defer { fixture.expectKeyNeverShown() }
        let result = await fixture.run(["reflect"] + Self.period)

        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == Self.shownText + "\n\nWrote \(Self.notePath) (a new note)\n", "\(result.output)")
        #expect(result.error == "claude-sonnet-4-6 · 3,000 in / 200 out tokens · $0.0120\n", "\(result.error)")

        // The request: the stronger model and its defaults, the period's notes numbered in order.
        #expect(fixture.server.requests.count == 1)
        let body = try #require(fixture.server.requests.first?.json)
        #expect(body["model"] == "claude-sonnet-4-6")
        #expect(body["max_tokens"] == 2_048)
        #expect(body["temperature"] == 0.7)
        #expect(body["stream"] == true)
        #expect(body["system"].string?.hasPrefix("You write a short reflection (150 to 200 words)") == true)
        let content = try #require(body["messages"][0]["content"].string)
        let numbered = content.split(separator: "\n").compactMap { $0.firstMatch(of: #/^\[(\d+)\] (.+?): /#).map { "\($0.1) \($0.2)" } }
        #expect(numbered == Self.periodNames.enumerated().map { "\($0.offset + 1) \($0.element)" })
        #expect(content.hasSuffix("\n\nQuestion: Write the reflection on my notes from 2026-11-16 to 2026-11-22."))

        // The note, as written.
        let text = try fixture.vault.read(Self.notePath)
        let (frontmatter, body_) = try Self.split(text)
        let sourceLines = Self.periodNames.map { #"  - "[[\#($0)]]""# }
        #expect(frontmatter.prefix(4) == [
            "type: reflection",
            "question: What stands out in my notes from 2026-11-16 to 2026-11-22?",
            #"period: "2026-11-16 to 2026-11-22""#,
            "sources:",
        ], "\(frontmatter)")
        #expect(Array(frontmatter.dropFirst(4).prefix(sourceLines.count)) == sourceLines)
        let rest = Array(frontmatter.dropFirst(4 + sourceLines.count))
        #expect(rest.count == 6, "\(rest)")
        #expect(rest.first == "model: claude-sonnet-4-6")
        #expect(rest.dropFirst().first?.contains(#/^created: "\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)"$/#) == true, "\(rest)")
        #expect(Array(rest.dropFirst(2).prefix(3)) == ["input-tokens: 3000", "output-tokens: 200", "cost-usd: 0.0120"])
        #expect(rest.last?.contains(#/^rhizome-checksum: [0-9a-f]{16}$/#) == true, "\(rest)")
        #expect(body_ == "# Reflection: 2026-11-16 to 2026-11-22\n\n" + Self.shownText + "\n\n## Sources\n\n"
            + Self.periodNames.map { "- [[\($0)]]" }.joined(separator: "\n") + "\n")

        // Read back through the index: the frontmatter parses to those values, and every link resolves.
        let note = await fixture.run(["note", Self.notePath, "--json"])
        let detail = try #require(AnyJSON.parse(note.output)?["data"], "\(note.output)\(note.error)")
        #expect(detail["frontmatter"]["type"] == "reflection")
        #expect(detail["frontmatter"]["sources"] == .array(Self.periodNames.map { .string("[[\($0)]]") }))
        #expect(detail["frontmatter"]["input-tokens"] == 3_000)
        let links = try #require(detail["links"].array)
        #expect(!links.isEmpty)
        let unresolved = links.filter { $0["target"].isNull }.map { $0["linkPath"] }
        #expect(unresolved.isEmpty, "\(unresolved)")
        let backlinks = await fixture.run(["backlinks", "ADR-A01 Render PDFs on the server", "--json"])
        let sources = (AnyJSON.parse(backlinks.output)?["data"].array ?? []).map(\.["source"])
        #expect(sources.contains(.string(Self.notePath)), "the reflection joins the graph")

        // Valid for the built-in `reflection` schema: no error or warning for it.
        let validate = await fixture.run(["validate", "--json"])
        #expect(AnyJSON.parse(validate.output)?["data"]["summary"]["checkedNotes"] == 35, "Vault-Example's 34 notes and the reflection")
        let findings = (AnyJSON.parse(validate.output)?["data"]["findings"].array ?? []).filter { $0["path"] == .string(Self.notePath) }
        #expect(findings.filter { $0["severity"] != "info" }.isEmpty, "\(findings)")
        #expect(!findings.contains { $0["code"] == "unknown-type" }, "typed by the reflection schema: \(findings)")

        // One ledger line, feature reflect.
        #expect(fixture.ledgerLines.count == 1)
        #expect(fixture.ledgerLines.first??["feature"] == "reflect")
        #expect(fixture.ledgerLines.first??["model"] == "claude-sonnet-4-6")
        #expect(fixture.ledgerLines.first??["outputTokens"] == 200)
        fixture.expectKeyNeverShown(also: [text])
    }

    @Test func `--json gives the path, the action, the answer, the sources and the usage`() async throws {
        let fixture = try ClaudeVault(script: [Self.answer])
        defer { fixture.expectKeyNeverShown() }
        let result = await fixture.run(["reflect"] + Self.period + ["--json"])
        #expect(result.status == 0, "\(result.error)")
        let data = try #require(AnyJSON.parse(result.output)?["data"], "\(result.output)")
        #expect(data.keys == ["action", "answer", "costUSD", "inputTokens", "model", "outputTokens", "path", "sources"])
        #expect(data["path"] == .string(Self.notePath))
        #expect(data["action"] == "create")
        #expect(data["answer"] == .string(Self.shownText))
        #expect(data["sources"] == .array(Self.periodNames.map { .string("[[\($0)]]") }))
        #expect(data["inputTokens"] == 3_000)
        #expect(data["outputTokens"] == 200)
        #expect(data["costUSD"].double.map { abs($0 - 0.012) < 1e-12 } == true)
        #expect(data["model"] == "claude-sonnet-4-6")
    }

    @Test func `running again is refused without --force, replaces an unedited note with it, and never touches an edited one`() async throws {
        let fixture = try ClaudeVault(script: [Self.answer, Self.otherAnswer, Self.otherAnswer])
        defer { fixture.expectKeyNeverShown() }
        let first = await fixture.run(["reflect"] + Self.period)
        #expect(first.status == 0, "\(first.error)")
        let written = try fixture.vault.bytes(Self.notePath)

        // Again without --force: refused before any call, the note unchanged.
        let refused = await fixture.run(["reflect"] + Self.period)
        #expect(refused.status == 2)
        #expect(refused.error.contains("--force"), "\(refused.error)")
        #expect(refused.error.hasPrefix("error: nothing: a reflection of this period exists"), "\(refused.error)")
        #expect(try fixture.vault.bytes(Self.notePath) == written)
        #expect(fixture.server.requests.count == 1)

        // With --force: replaced in place.
        let forced = await fixture.run(["reflect"] + Self.period + ["--force"])
        #expect(forced.status == 0, "\(forced.error)")
        #expect(forced.output.contains("Wrote \(Self.notePath) (replacing the unedited reflection of this period (--force))"), "\(forced.output)")
        let replaced = try fixture.vault.read(Self.notePath)
        #expect(replaced.contains("\nA second take on the week [[2026-11-21]].\n"))
        #expect(!replaced.contains("debounce session"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.vault.url("Reflections").path) == [(Self.notePath as NSString).lastPathComponent])
        #expect(fixture.server.requests.count == 2)

        // The user edits it: the next run writes a new version beside it and leaves the edit byte for byte.
        try fixture.vault.write(Self.notePath, replaced + "\nMy own thought: this matches the Q4 goals.\n")
        let edited = try fixture.vault.bytes(Self.notePath)
        let dryRun = await fixture.run(["reflect"] + Self.period + ["--dry-run", "--json"], key: false)
        #expect(AnyJSON.parse(dryRun.output)?["data"]["action"] == "new-version")
        #expect(AnyJSON.parse(dryRun.output)?["data"]["path"] == .string(Self.secondVersionPath))
        let forcedOverEdit = await fixture.run(["reflect"] + Self.period + ["--force"])
        #expect(forcedOverEdit.status == 0, "\(forcedOverEdit.error)")
        #expect(forcedOverEdit.output.contains("Wrote \(Self.secondVersionPath) (a new version: the reflection of this period was edited"), "\(forcedOverEdit.output)")
        #expect(try fixture.vault.bytes(Self.notePath) == edited, "even --force leaves an edited reflection alone")
        let second = try fixture.vault.read(Self.secondVersionPath)
        #expect(second.hasPrefix("---\ntype: reflection\n"))
        #expect(second.contains("\nA second take on the week [[2026-11-21]].\n"))
        #expect(fixture.server.requests.count == 3)
        fixture.expectKeyNeverShown(also: [second])
    }

    @Test func `a reflection is journaled: undo takes back a forced replacement, then the note itself`() async throws {
        let fixture = try ClaudeVault(script: [Self.answer, Self.otherAnswer])
        defer { fixture.expectKeyNeverShown() }
        #expect(await fixture.run(["reflect"] + Self.period).status == 0)
        let first = try fixture.vault.bytes(Self.notePath)
        #expect(await fixture.run(["reflect"] + Self.period + ["--force"]).status == 0)
        #expect(try fixture.vault.bytes(Self.notePath) != first)

        let history = await fixture.run(["history"], key: false)
        #expect(history.output.contains("replaced \(Self.notePath)") && history.output.contains("created \(Self.notePath)"), "\(history.output)")
        let undoReplace = await fixture.run(["undo", "--write"], key: false)
        #expect(undoReplace.status == 0, "\(undoReplace.error)")
        #expect(try fixture.vault.bytes(Self.notePath) == first, "the first reflection, byte for byte")
        let undoCreate = await fixture.run(["undo", "--write"], key: false)
        #expect(undoCreate.status == 0, "\(undoCreate.error)")
        #expect(!FileManager.default.fileExists(atPath: fixture.vault.url(Self.notePath).path))
        #expect(!FileManager.default.fileExists(atPath: fixture.vault.url("Reflections").path), "the folder the reflection made goes too")
        #expect(fixture.server.requests.count == 2)
    }

    @Test func `after an edit, a further run does not pile up versions beside the unedited new one`() async throws {
        let fixture = try ClaudeVault(script: [Self.answer, Self.otherAnswer, Self.otherAnswer])
        defer { fixture.expectKeyNeverShown() }
        _ = await fixture.run(["reflect"] + Self.period)
        try fixture.vault.write(Self.notePath, try fixture.vault.read(Self.notePath) + "\nEdited.\n")
        let newVersion = await fixture.run(["reflect"] + Self.period)
        #expect(newVersion.status == 0, "\(newVersion.error)")
        #expect(FileManager.default.fileExists(atPath: fixture.vault.url(Self.secondVersionPath).path))
        let secondBytes = try fixture.vault.bytes(Self.secondVersionPath)

        // "(2)" is unedited: like the first note before the edit, a run without --force should stop rather
        // than write "(3)", and --force should replace "(2)".
        let again = await fixture.run(["reflect"] + Self.period)
        let versions = try FileManager.default.contentsOfDirectory(atPath: fixture.vault.url("Reflections").path).sorted()
        #expect(again.status == 2, "\(again.output)")
        #expect(versions == ["Reflection 2026-11-16 to 2026-11-22 (2).md", "Reflection 2026-11-16 to 2026-11-22.md"])
        #expect(fixture.server.requests.count == 2)
        #expect(try fixture.vault.bytes(Self.secondVersionPath) == secondBytes)
        // --force replaces "(2)", the unedited latest version; the edited first note stays as the user left it.
        let edited = try fixture.vault.bytes(Self.notePath)
        let forced = await fixture.run(["reflect"] + Self.period + ["--force"])
        #expect(forced.status == 0, "\(forced.error)")
        #expect(fixture.server.requests.count == 3)
        #expect(forced.output.contains("Wrote \(Self.secondVersionPath) (replacing the unedited reflection"), "\(forced.output)")
        #expect(try fixture.vault.bytes(Self.notePath) == edited)
    }

    @Test func `a dry run lists the period's notes and the target, and calls and writes nothing`() async throws {
        let fixture = try ClaudeVault(script: [Self.answer])
        defer { fixture.expectKeyNeverShown() }
        let result = await fixture.run(["reflect"] + Self.period + ["--dry-run"], key: false)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.lines.first == "Period 2026-11-16 to 2026-11-22: 14 notes created or changed, 14 sent")
        let listed = result.lines.compactMap { $0.firstMatch(of: #/^  \[\d+\] (.+\.md)  \(\d{4}-\d\d-\d\d\)$/#).map { String($0.1) } }
        #expect(listed == Self.periodNotes)
        #expect(result.output.contains("\nWould write \(Self.notePath) (a new note)\n"))
        #expect(result.output.contains("\nModel: claude-sonnet-4-6 · max 2048 output tokens · temperature 0.7\n"))
        #expect(result.output.contains("\n\nQuestion: Write the reflection on my notes from 2026-11-16 to 2026-11-22.\n"))
        #expect(result.output.contains(#/\nEstimated: about [\d,]+ input tokens, at most 2048 output tokens · at most \$\d+\.\d{4}\n/#))
        let json = await fixture.run(["reflect"] + Self.period + ["--dry-run", "--json"], key: false)
        let data = try #require(AnyJSON.parse(json.output)?["data"], "\(json.output)")
        #expect(data.keys == ["action", "estimatedCostUSD", "estimatedInputTokens", "maxTokens", "model", "notes", "path", "period", "prompt", "system", "temperature"])
        #expect(data["action"] == "create")
        #expect(data["period"] == "2026-11-16 to 2026-11-22")
        #expect(data["notes"].array?.map(\.["path"]) == Self.periodNotes.map { .string($0) })

        #expect(fixture.server.requests.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: fixture.vault.url("Reflections").path))
        #expect(!FileManager.default.fileExists(atPath: fixture.ledger.path))
    }

    @Test func `a refused call writes no note`() async throws {
        let fixture = try ClaudeVault(script: [Replies.status(401, type: "authentication_error", message: "invalid x-api-key")])
        defer { fixture.expectKeyNeverShown() }
        let result = await fixture.run(["reflect"] + Self.period + ["--json"])
        #expect(result.status == 2)
        #expect(AnyJSON.parse(result.output)?["error"]["code"] == "api-refused")
        #expect(!FileManager.default.fileExists(atPath: fixture.vault.url(Self.notePath).path))
        #expect(fixture.ledgerLines.isEmpty)
    }

    /// The frontmatter's lines and the body after it.
    static func split(_ text: String) throws -> (frontmatter: [String], body: String) {
        let parts = text.components(separatedBy: "\n---\n")
        try #require(text.hasPrefix("---\n") && parts.count >= 2, "\(text)")
        let frontmatter = parts[0].dropFirst(4).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return (frontmatter, parts.dropFirst().joined(separator: "\n---\n"))
    }
}
