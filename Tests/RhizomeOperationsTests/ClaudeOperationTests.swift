import Foundation
import Testing
import RhizomeClaude
import RhizomeCore
import RhizomeOperations
import RhizomeTestSupport

/// `ExploreOperation` and `ReflectOperation` driven directly, as the MCP server or an embedding app would,
/// against a fake Messages API on loopback: the notes chosen, the streamed text with citations as
/// wikilinks, notices, the ledger, and the reflection note's place in the vault.
@Suite(.ownThread, .timeLimit(.minutes(1)))
struct ClaudeOperationTests {
    static let key = "sk-ant-api03-operations-test-key"

    /// A small vault about composting and one unrelated note, indexed, and a fake API.
    final class Fixture {
        let vault: TemporaryVault
        let server: FakeAnthropicServer
        let notices = Locked<[String]>([])

        init(script: [FakeAnthropicServer.Reply]) throws {
            vault = try TemporaryVault()
            try vault.write("Garden/Composting.md", "---\ndate: 2026-03-02\n---\n# Composting\nBrown and green layers; turn the compost heap weekly.\n")
            try vault.write("Garden/Worm bin.md", "---\ndate: 2026-03-04\n---\nThe worm bin takes kitchen scraps; see [[Composting]] for the compost heap.\n")
            try vault.write("Travel.md", "---\ndate: 2026-01-10\n---\nTrain tickets to Lisbon.\n")
            _ = try vault.index()
            server = try FakeAnthropicServer(script: script)
        }

        deinit { server.stop() }

        var environment: [String: String] {
            ["ANTHROPIC_API_KEY": ClaudeOperationTests.key, "ANTHROPIC_BASE_URL": server.baseURL.absoluteString,
             "RHIZOME_USAGE_LEDGER": vault.outside.appendingPathComponent("usage.jsonl").path]
        }

        var ledgerLines: [AnyJSON] {
            let text = (try? String(contentsOf: vault.outside.appendingPathComponent("usage.jsonl"), encoding: .utf8)) ?? ""
            return text.split(separator: "\n").compactMap { AnyJSON.parse(String($0)) }
        }

        func explore(_ question: String) throws -> ExploreOperation {
            let notices = self.notices
            return ExploreOperation(store: try vault.store(), vaultPath: vault.path, settings: ClaudeSettings(), question: question,
                                    environment: environment, notice: { line in notices.withLock { $0.append(line) } })
        }

        func reflect(force: Bool = false) throws -> ReflectOperation {
            let notices = self.notices
            return ReflectOperation(store: try vault.store(), vaultPath: vault.path, settings: ClaudeSettings(),
                                    period: Reflect.Period(fromDay: "2026-03-01", toDay: "2026-03-07"), force: force,
                                    environment: environment, notice: { line in notices.withLock { $0.append(line) } })
        }
    }

    static func answer(_ pieces: [String], stopReason: String = "end_turn") -> FakeAnthropicServer.Reply {
        Replies.stream([Replies.messageStart(inputTokens: 900), Replies.contentBlockStart()] + pieces.map { Replies.textDelta($0) }
                       + [Replies.contentBlockStop(), Replies.messageDelta(stopReason: stopReason, outputTokens: 40), Replies.messageStop],
                       chunkSize: 17, delay: .milliseconds(1))
    }

    @Test func `explore's plan quotes the matching notes and its answer streams with citations as wikilinks`() async throws {
        let fixture = try Fixture(script: [Self.answer(["Turn the heap weekly [", "1]; worms take scraps [2]."])])
        let plan = try fixture.explore("How often do I turn the compost heap?").plan()
        #expect(plan.included.map(\.path) == ["Garden/Composting.md", "Garden/Worm bin.md"])
        #expect(plan.searchWords.contains("compost"))
        #expect(plan.call.prompt.contains("[1] Composting: "), "\(plan.call.prompt)")
        #expect(fixture.server.requests.isEmpty, "planning sends nothing")

        let pieces = Locked<[String]>([])
        let answer = try await plan.answer { piece in pieces.withLock { $0.append(piece) } }
        #expect(answer.answer == "Turn the heap weekly [[Composting]]; worms take scraps [[Worm bin]].")
        #expect(pieces.withLock { $0.joined() } == answer.answer, "what was streamed is the answer, citations rewritten")
        #expect(answer.sources.map(\.cited) == [true, true])
        #expect(answer.usage.inputTokens == 900 && answer.usage.outputTokens == 40)
        #expect((answer.costUSD ?? 0) > 0)
        let request = try #require(fixture.server.requests.first?.json)
        #expect(request["model"] == "claude-haiku-4-5")
        let ledger = fixture.ledgerLines
        #expect(ledger.count == 1 && ledger.first?["feature"] == "explore", "\(ledger)")
        #expect(fixture.notices.withLock { $0 }.isEmpty)
    }

    @Test func `a retry and an answer cut at its token limit reach the caller as notices`() async throws {
        let overloaded = Replies.status(529, type: "overloaded_error", message: "Overloaded", headers: ["retry-after": "0"])
        let fixture = try Fixture(script: [overloaded, Self.answer(["Weekly [1]"], stopReason: "max_tokens")])
        let answer = try await fixture.explore("compost heap").plan().answer { _ in }
        #expect(answer.attempts == 2 && answer.stopReason == "max_tokens")
        let notices = fixture.notices.withLock { $0 }
        #expect(notices.count == 2, "\(notices)")
        #expect(notices.first?.hasPrefix("(") == true && notices.first?.contains("retrying in") == true, "\(notices)")
        #expect(notices.last?.contains("cut off at its token limit (512 tokens)") == true, "\(notices)")
    }

    @Test func `a question no note matches sends nothing and says what to try`() async throws {
        let fixture = try Fixture(script: [Self.answer(["unused"])])
        let plan = try fixture.explore("zyxwvut qwertyuiop").plan()
        #expect(plan.included.isEmpty)
        await #expect(throws: ClaudeError.invalidRequest("no note matches the words of the question; try other words (`rhizome search` finds notes by word)")) {
            _ = try await plan.answer { _ in }
        }
        #expect(fixture.server.requests.isEmpty)
        #expect(ClaudeError.invalidRequest("x").code == "invalid-argument" && ClaudeError.invalidRequest("x").isUserMistake)
    }

    @Test func `reflect writes the period's note, refuses to replace it unasked, and replaces it unedited when forced`() async throws {
        let fixture = try Fixture(script: [Self.answer(["Compost and worms [1][2]."]), Self.answer(["Second take [1]."])])
        let plan = try fixture.reflect().plan()
        // The period's notes, the latest first; Travel.md is outside the period.
        #expect(plan.noteCount == 2 && plan.included.map(\.path) == ["Garden/Worm bin.md", "Garden/Composting.md"])
        #expect(plan.target.path == "Reflections/Reflection 2026-03-01 to 2026-03-07.md" && plan.target.action == .create)
        #expect(!FileManager.default.fileExists(atPath: plan.target.absolute), "planning writes nothing")

        let written = try await plan.write { _ in }
        #expect(written.path == plan.target.path && written.action == "create")
        let note = try fixture.vault.read(written.path)
        #expect(note.hasPrefix("---\ntype: reflection\n"), "\(note)")
        #expect(note.contains("Compost and worms [[Worm bin]][[Composting]]."), "\(note)")

        let again = try fixture.reflect().plan()
        #expect(again.target.action == .refuse)
        await #expect(throws: ClaudeError.self) { _ = try await again.write { _ in } }
        #expect(fixture.server.requests.count == 1, "a refused reflection sends nothing")

        let forced = try await fixture.reflect(force: true).plan().write { _ in }
        #expect(forced.path == written.path && forced.action == "replace")
        #expect(try fixture.vault.read(written.path).contains("Second take [[Worm bin]]."))
    }

    @Test func `a reflection the user edited is kept and the new one goes beside it`() async throws {
        let fixture = try Fixture(script: [Self.answer(["First [1]."]), Self.answer(["Second [2]."])])
        let first = try await fixture.reflect().plan().write { _ in }
        let edited = try fixture.vault.read(first.path) + "\nMy own thoughts.\n"
        try fixture.vault.write(first.path, edited)

        let plan = try fixture.reflect(force: true).plan()
        #expect(plan.target.action == .newVersion && plan.target.path == "Reflections/Reflection 2026-03-01 to 2026-03-07 (2).md")
        let second = try await plan.write { _ in }
        #expect(second.path == plan.target.path)
        #expect(try fixture.vault.read(first.path) == edited, "the edited reflection is byte for byte as the user left it")
    }
}
