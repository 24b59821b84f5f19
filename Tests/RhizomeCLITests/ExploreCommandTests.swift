import Foundation
import Testing
import RhizomeCLI
import RhizomeTestSupport

/// `rhizome explore` end to end on a copy of Vault-Example, against a fake Messages API on loopback that
/// speaks real HTTP and SSE: what the user sees, what was sent, what the ledger records, the budget, the
/// vault config — and that the key never comes back out.
@Suite(.ownThread, .timeLimit(.minutes(1)))
struct ExploreCommandTests {
    static let question = "What is the decision on SQLite and FTS5?"
    static let adr = "Projects/Rhizome/Decisions/ADR-001 Use SQLite.md"
    static let fts = "Reading/SQLite FTS5 docs.md"

    /// `[1]` and `[2]` cut across text deltas (and the deltas across 29-byte writes).
    static let pieces = [
        "You chose one SQLite file per vault, with FTS5 for search and WAL mode [", "2",
        "]; ranking uses bm25, where lower is better [1", "] [2].",
    ]
    static let shownAnswer = "You chose one SQLite file per vault, with FTS5 for search and WAL mode [[ADR-001 Use SQLite]]; "
        + "ranking uses bm25, where lower is better [[SQLite FTS5 docs]] [[ADR-001 Use SQLite]]."
    static let streamModel = "claude-haiku-4-5-20251001"
    static var answer: FakeAnthropicServer.Reply {
        ClaudeReplies.answer(pieces, model: streamModel, inputTokens: 1_200, outputTokens: 60)
    }

    // MARK: --dry-run

    @Test func `a dry run without any key lists the relevant notes, the exact numbered prompt and the estimate`() async throws {
        let fixture = try ClaudeVault()
        defer { fixture.expectKeyNeverShown() }
        let result = await fixture.run(["explore", Self.question, "--dry-run"], key: false)

        #expect(result.status == 0, "\(result.error)")
        // The notes: numbered, the FTS5 reading note first (its name holds two of the question's three
        // words), the SQLite decision second; every one of them has a word of the question, and a note
        // with none of them is not offered.
        let listed = result.lines.compactMap { line -> (Int, String)? in
            guard let match = line.firstMatch(of: #/^  \[(\d+)\] (.+\.md)  \(score \d+\.\d\d, \d{4}-\d\d-\d\d\)$/#) else { return nil }
            return (Int(match.1)!, String(match.2))
        }
        // What the notes were searched for: the question's words without the commonest ones.
        #expect(result.lines.first == "Searched for: decision, sqlite, fts5")
        #expect(result.lines.dropFirst().first == "Notes (\(listed.count)):")
        #expect(listed.map(\.0) == Array(1...max(1, listed.count)))
        #expect(listed.count >= 5 && listed.count <= 20)
        #expect(listed.first?.1 == Self.fts)
        #expect(listed.dropFirst().first?.1 == Self.adr)
        for (_, path) in listed {
            let text = try fixture.vault.read(path).lowercased()
            #expect(["sqlite", "fts5", "decision"].contains { text.contains($0) }, "\(path) has no word of the question")
        }
        #expect(!listed.contains { $0.1 == "Café culture.md" || $0.1 == "Projects/Archive/Kettle.md" })

        #expect(result.output.contains("\nModel: claude-haiku-4-5 · max 512 output tokens · temperature 0.3\n"))
        #expect(result.output.contains("\nSystem prompt:\nYou answer questions about the user's own notes, using only the numbered excerpts"))
        // The exact user message: `[n] Name: excerpt (date)`, the excerpt flattened to one line (the FTS5
        // note's SQL code block left out), the note's own date or else its modification day, then the question.
        #expect(result.output.contains("""
            User message:
            Excerpts from my notes:

            [1] SQLite FTS5 docs: # SQLite FTS5 docs Summary of the parts of \
            https://www.sqlite.org/fts5.html#the_trigram_tokenizer that matter for [[Embedding-free search]] and the \
            [[Storage schema]]. - `tokenize = 'trigram'` gives substring matching; needs at least three characters in \
            the query. - `bm25(table)` for ranking; lower is better. - External-content tables save space but need \
            triggers to stay in sync. Back to the [reading list](../Reading%20list.md). rating:: 3 (2026-01-15)

            [2] ADR-001 Use SQLite: # ADR-001: Use SQLite for the index ## Context The index must answer graph queries \
            (backlinks, orphans, unresolved) and full-text search, run on a laptop, and be rebuildable at any time. \
            ## Decision One SQLite file per vault, FTS5 for search, WAL mode. ^decision-sqlite ## Alternatives - An \
            in-memory graph rebuilt on start: too slow past 20k notes. - A graph database: another server to run for a \
            personal tool. ## Consequences Schema in [[Storage schema]]. Reading list for this: [[Designing \
            Data-Intensive Applications]], chapter 3. (2026-09-04)

            [3] 
            """), "\(result.output)")
        #expect(!result.output.contains("CREATE VIRTUAL TABLE"), "code blocks are not excerpted")
        let entries = result.lines.filter { $0.hasPrefix("[") }
        #expect(entries.count == listed.count)
        for (index, entry) in entries.enumerated() {
            let match = entry.firstMatch(of: #/^\[(\d+)\] (.+?): .+ \((\d{4}-\d\d-\d\d)\)$/#)
            #expect(match.map { Int($0.1) } == index + 1, "\(entry.prefix(80))")
            let name = listed.indices.contains(index) ? (listed[index].1 as NSString).lastPathComponent.replacingOccurrences(of: ".md", with: "") : "?"
            #expect(match.map { String($0.2) } == name)
        }
        #expect(result.output.contains("\n\nQuestion: \(Self.question)\n"))
        // About 4 characters a token; the most it can cost is that input plus all 512 output tokens, at $1/$5 per million.
        let estimate = try #require(result.lines.last { $0.hasPrefix("Estimated:") }?
            .firstMatch(of: #/^Estimated: about ([\d,]+) input tokens, at most 512 output tokens · at most \$(\d+\.\d{4})$/#))
        let inputTokens = try #require(Int(estimate.1.replacingOccurrences(of: ",", with: "")))
        #expect(String(estimate.2) == String(format: "%.4f", (Double(inputTokens) * 1 + 512 * 5) / 1_000_000))
        #expect(fixture.server.requests.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: fixture.ledger.path))
    }

    @Test func `a dry run with --json has every key, and its prompt is what a real call sends`() async throws {
        let fixture = try ClaudeVault(script: [Self.answer])
        defer { fixture.expectKeyNeverShown() }
        let dryRun = await fixture.run(["explore", Self.question, "--dry-run", "--json"], key: false)
        #expect(dryRun.status == 0, "\(dryRun.error)")
        let envelope = try #require(AnyJSON.parse(dryRun.output), "\(dryRun.output)")
        #expect(envelope.keys == ["command", "data", "vault", "version"])
        #expect(envelope["command"] == "explore")
        let plan = envelope["data"]
        #expect(plan.keys == ["estimatedCostUSD", "estimatedInputTokens", "maxTokens", "model", "notes", "prompt", "scores", "searchWords", "system", "temperature", "translatesFirst", "translationEstimatedCostUSD"])
        #expect(plan["searchWords"] == ["decision", "sqlite", "fts5"])
        #expect(plan["model"] == "claude-haiku-4-5")
        #expect(plan["maxTokens"] == 512)
        #expect(plan["temperature"] == 0.3)
        let notes = try #require(plan["notes"].array)
        #expect(notes.first?["path"] == .string(Self.fts))
        #expect(notes.first?["name"] == "SQLite FTS5 docs")
        #expect(notes.first?["date"] == "2026-01-15")
        #expect(notes.first?["number"] == 1)
        for note in notes { #expect(note.keys == ["date", "excerpt", "name", "number", "path"]) }
        let scores = try #require(plan["scores"].array)
        #expect(scores.map(\.["path"]) == notes.map(\.["path"]))
        #expect(scores.dropFirst().first?["date"] == "2026-09-04")  // the decision's own date
        for score in scores {
            #expect(score.keys == ["date", "graphScore", "modified", "name", "path", "recencyScore", "score", "textScore"], "\(score["path"])")
        }
        let system = try #require(plan["system"].string)
        let prompt = try #require(plan["prompt"].string)
        #expect(prompt.hasPrefix("Excerpts from my notes:\n\n[1] SQLite FTS5 docs: # SQLite FTS5 docs Summary of the parts of"))
        #expect(prompt.hasSuffix("\n\nQuestion: \(Self.question)"))
        let estimatedTokens = try #require(plan["estimatedInputTokens"].int)
        // About 4 characters a token, and one token for each wide character (CJK, emoji).
        let scalars = (system + prompt).unicodeScalars
        let wide = scalars.filter { $0.value >= 0x2E80 }.count
        #expect(abs(Double(estimatedTokens) - (Double(scalars.count - wide) / 4 + Double(wide))) < 3, "about 4 characters a token")
        #expect(plan["estimatedCostUSD"].double.map { abs($0 - (Double(estimatedTokens) + 512 * 5) / 1e6) < 1e-9 } == true)
        #expect(fixture.server.requests.isEmpty)

        // The real call sends exactly that system prompt and user message.
        let call = await fixture.run(["explore", Self.question])
        #expect(call.status == 0, "\(call.error)")
        let body = try #require(fixture.server.requests.first?.json)
        #expect(body["system"] == .string(system))
        #expect(body["messages"] == [["role": "user", "content": .string(prompt)]])
    }

    // MARK: No key

    @Test func `without a key the call stops before any request with missing-api-key, saying how to set one`() async throws {
        let fixture = try ClaudeVault(script: [Self.answer])
        defer { fixture.expectKeyNeverShown() }
        let json = await fixture.run(["explore", Self.question, "--json"], key: false)
        #expect(json.status == 2)
        let error = try #require(AnyJSON.parse(json.output)?["error"], "\(json.output)")
        #expect(error["code"] == "missing-api-key")
        let message = try #require(error["message"].string)
        #expect(message.contains("ANTHROPIC_API_KEY"))
        #expect(message.contains("--dry-run"))

        let human = await fixture.run(["explore", Self.question], key: false)
        #expect(human.status == 2)
        #expect(human.output.isEmpty)
        #expect(human.error.hasPrefix("error: no Anthropic API key: set ANTHROPIC_API_KEY"), "\(human.error)")
        #expect(human.error.contains("--dry-run"))

        #expect(fixture.server.requests.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: fixture.ledger.path))
    }

    // MARK: A real call

    @Test func `the streamed answer shows citations as wikilinks, then the cited sources; the request has the defaults`() async throws {
        let fixture = try ClaudeVault(script: [Self.answer])
        defer { fixture.expectKeyNeverShown() }
        let result = await fixture.run(["explore", Self.question])

        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == Self.shownAnswer + "\n\n" + """
            Sources:
              [[SQLite FTS5 docs]] — \(Self.fts)
              [[ADR-001 Use SQLite]] — \(Self.adr)

            """, "\(result.output)")
        #expect(result.error == "claude-haiku-4-5-20251001 · 1,200 in / 60 out tokens · $0.0015\n", "\(result.error)")

        #expect(fixture.server.requests.count == 1)
        let request = try #require(fixture.server.requests.first)
        #expect(request.method == "POST")
        #expect(request.path == "/v1/messages")
        let carriesKey = request.headers["x-api-key"] == ClaudeVault.key
        #expect(carriesKey, "x-api-key is the key from ANTHROPIC_API_KEY")
        #expect(request.headers["anthropic-version"] == "2023-06-01")
        let body = try #require(request.json)
        #expect(body.keys == ["max_tokens", "messages", "model", "stream", "system", "temperature"])
        #expect(body["model"] == "claude-haiku-4-5")
        #expect(body["max_tokens"] == 512)
        #expect(body["temperature"] == 0.3)
        #expect(body["stream"] == true)
        #expect(body["system"].string?.hasPrefix("You answer questions about the user's own notes") == true)
        #expect(body["system"].string?.contains("Cite the excerpts you rely on as [n]") == true)
        let message = try #require(body["messages"].array?.first)
        #expect(message["role"] == "user")
        let content = try #require(message["content"].string)
        #expect(content.hasPrefix("Excerpts from my notes:\n\n[1] SQLite FTS5 docs: # SQLite FTS5 docs Summary of the parts of"))
        #expect(content.contains("\n\n[2] ADR-001 Use SQLite: # ADR-001: Use SQLite for the index"))
        #expect(content.hasSuffix("\n\nQuestion: \(Self.question)"))

        // One ledger line: the call's model and tokens as the stream reported them, and its cost; no prompt,
        // no answer, no key.
        let lines = fixture.ledgerLines
        #expect(lines.count == 1)
        let entry = try #require(lines.first ?? nil, "the ledger line is JSON: \(fixture.ledgerText)")
        #expect(entry.keys == ["cacheCreationInputTokens", "cacheReadInputTokens", "costUSD", "feature", "inputTokens", "model", "outputTokens", "priceBasis", "time", "vault"])
        #expect(entry["feature"] == "explore")
        #expect(entry["model"] == .string(Self.streamModel))
        #expect(entry["inputTokens"] == 1_200)
        #expect(entry["outputTokens"] == 60)
        #expect(entry["cacheReadInputTokens"] == 0)
        #expect(entry["costUSD"].double.map { abs($0 - 0.0015) < 1e-12 } == true, "1,200 × $1 + 60 × $5 per million")
        #expect(entry["vault"] == .string(fixture.vault.path))
        #expect(entry["time"].string?.hasPrefix(ClaudeVault.thisMonth) == true)
        let ledger = fixture.ledgerText
        for secret in [Self.question, "Excerpts from my notes", "WAL mode", "SQLite for the index", "You answer questions"] {
            #expect(!ledger.contains(secret), "the ledger holds `\(secret)`")
        }
    }

    @Test func `--json gives the answer, every offered source with its cited flag, usage, cost and attempts`() async throws {
        let fixture = try ClaudeVault(script: [Self.answer])
        defer { fixture.expectKeyNeverShown() }
        let result = await fixture.run(["explore", Self.question, "--json"])

        #expect(result.status == 0, "\(result.error)")
        let envelope = try #require(AnyJSON.parse(result.output), "\(result.output)")
        #expect(envelope["command"] == "explore")
        let data = envelope["data"]
        #expect(data.keys == ["answer", "attempts", "costUSD", "model", "sources", "stopReason", "translation", "usage"])
        #expect(data["answer"] == .string(Self.shownAnswer))
        #expect(data["model"] == .string(Self.streamModel))
        #expect(data["stopReason"] == "end_turn")
        #expect(data["attempts"] == 1)
        #expect(data["costUSD"].double.map { abs($0 - 0.0015) < 1e-12 } == true)
        #expect(data["usage"] == ["inputTokens": 1_200, "outputTokens": 60, "cacheReadInputTokens": 0, "cacheCreationInputTokens": 0])
        let sources = try #require(data["sources"].array)
        #expect(sources.count >= 5)
        for source in sources { #expect(source.keys == ["cited", "link", "number", "path"]) }
        #expect(sources.map(\.["number"]) == (1...sources.count).map { .number(Double($0)) })
        #expect(sources[0] == ["number": 1, "path": .string(Self.fts), "link": "[[SQLite FTS5 docs]]", "cited": true])
        #expect(sources[1] == ["number": 2, "path": .string(Self.adr), "link": "[[ADR-001 Use SQLite]]", "cited": true])
        #expect(sources.dropFirst(2).allSatisfy { $0["cited"] == false })
        #expect(!result.output.contains("Sources:"), "nothing but the JSON on standard output")
    }

    @Test func `--model and claude explore settings in the vault config change the request`() async throws {
        let fixture = try ClaudeVault(script: [Self.answer, Self.answer])
        defer { fixture.expectKeyNeverShown() }
        try fixture.appendConfig("""
            claude:
              explore:
                model: claude-sonnet-4-6
                maxTokens: 300
                temperature: 0.1
                prompt: "Answer like a careful librarian, citing [n]."

            """)
        let configured = await fixture.run(["explore", Self.question])
        #expect(configured.status == 0, "\(configured.error)")
        let overridden = await fixture.run(["explore", Self.question, "--model", "claude-opus-4-5"])
        #expect(overridden.status == 0, "\(overridden.error)")

        let bodies = fixture.server.requests.compactMap(\.json)
        #expect(bodies.count == 2)
        #expect(bodies.first?["model"] == "claude-sonnet-4-6")
        #expect(bodies.first?["max_tokens"] == 300)
        #expect(bodies.first?["temperature"] == 0.1)
        #expect(bodies.first?["system"] == "Answer like a careful librarian, citing [n].")
        #expect(bodies.last?["model"] == "claude-opus-4-5", "--model wins over the config")
        #expect(bodies.last?["max_tokens"] == 300)
        #expect(bodies.last?["temperature"] == 0.1)
        #expect(bodies.last?["system"] == "Answer like a careful librarian, citing [n].")

        let dryRun = await fixture.run(["explore", Self.question, "--dry-run"], key: false)
        #expect(dryRun.output.contains("\nModel: claude-sonnet-4-6 · max 300 output tokens · temperature 0.1\n"), "\(dryRun.output)")
        #expect(dryRun.output.contains("\nSystem prompt:\nAnswer like a careful librarian, citing [n].\n"))
        #expect(fixture.server.requests.count == 2)
    }

    // MARK: Errors and retries

    @Test func `a 401 stops at once with api-refused and the API's error type, never showing the key it echoed`() async throws {
        let fixture = try ClaudeVault(script: [
            Replies.status(401, type: "authentication_error", message: "invalid x-api-key: \(ClaudeVault.key)"),
        ])
        defer { fixture.expectKeyNeverShown() }
        let result = await fixture.run(["explore", Self.question, "--json"])

        #expect(result.status == 2)
        let error = try #require(AnyJSON.parse(result.output)?["error"], "\(result.output)")
        #expect(error["code"] == "api-refused")
        let message = error["message"].string ?? ""
        #expect(message.contains("HTTP 401 authentication_error"))
        #expect(message.contains("check ANTHROPIC_API_KEY"))
        #expect(result.error.hasPrefix("error: the Anthropic API refused the request (HTTP 401 authentication_error"))
        #expect(fixture.server.requests.count == 1, "a 401 is not retried")
        #expect(fixture.ledgerLines.isEmpty, "no usage to record")
    }

    @Test func `a 529 is retried with a notice on standard error, then the answer is shown`() async throws {
        let fixture = try ClaudeVault(script: [ClaudeReplies.overloaded, Self.answer, ClaudeReplies.overloaded, Self.answer])
        defer { fixture.expectKeyNeverShown() }
        let human = await fixture.run(["explore", Self.question])
        #expect(human.status == 0, "\(human.error)")
        #expect(human.output.hasPrefix(Self.shownAnswer + "\n\nSources:\n"))
        let notice = human.error.split(separator: "\n").first.map(String.init) ?? ""
        #expect(notice.contains(#/^\(.*529.*; retrying in \d+\.\d s\)$/#), "\(human.error)")

        let json = await fixture.run(["explore", Self.question, "--json"])
        #expect(json.status == 0, "\(json.error)")
        #expect(AnyJSON.parse(json.output)?["data"]["attempts"] == 2)
        #expect(json.error.contains("retrying in"))
        #expect(fixture.server.requests.count == 4)
        #expect(fixture.ledgerLines.count == 2, "one line per answered call, not per attempt")
    }

    // MARK: Budget

    @Test func `a call that would take this month's spending over the budget stops before any request`() async throws {
        let fixture = try ClaudeVault(script: [Self.answer])
        defer { fixture.expectKeyNeverShown() }
        try fixture.appendConfig("claude:\n  budget: 1\n")
        let now = ISO8601DateFormatter().string(from: Date())
        let spent = #"{"cacheCreationInputTokens":0,"cacheReadInputTokens":0,"costUSD":0.999,"feature":"reflect","inputTokens":100000,"model":"claude-sonnet-4-6","outputTokens":46600,"time":"TIME","vault":"/elsewhere"}"#
        try fixture.seedLedger([spent.replacingOccurrences(of: "TIME", with: now)])

        let refused = await fixture.run(["explore", Self.question, "--json"])
        #expect(refused.status == 2)
        let error = try #require(AnyJSON.parse(refused.output)?["error"], "\(refused.output)")
        #expect(error["code"] == "over-budget")
        let message = error["message"].string ?? ""
        #expect(message.contains("($0.9990 so far) over the budget of $1.00"), "\(message)")
        #expect(message.contains("claude: budget:"))
        #expect(fixture.server.requests.isEmpty)

        // The same spending in another month does not count.
        try fixture.seedLedger([spent.replacingOccurrences(of: "TIME", with: "2020-01-31T23:00:00Z")])
        let allowed = await fixture.run(["explore", Self.question])
        #expect(allowed.status == 0, "\(allowed.error)")
        #expect(fixture.server.requests.count == 1)
        #expect(fixture.ledgerLines.count == 2)
    }

    @Test func `a tiny budget with spending already recorded this month refuses the call`() async throws {
        let fixture = try ClaudeVault(script: [Self.answer])
        defer { fixture.expectKeyNeverShown() }
        try fixture.appendConfig("claude: {budget: 0.0001}\n")
        let now = ISO8601DateFormatter().string(from: Date())
        try fixture.seedLedger([
            #"{"cacheCreationInputTokens":0,"cacheReadInputTokens":0,"costUSD":0.00005,"feature":"explore","inputTokens":50,"model":"claude-haiku-4-5","outputTokens":0,"time":"\#(now)","vault":"/elsewhere"}"#,
        ])
        let result = await fixture.run(["explore", Self.question])
        #expect(result.status != 0)
        #expect(result.error.contains("over the budget of $0.00"), "\(result.error)")
        #expect(result.output.isEmpty)
        #expect(fixture.server.requests.isEmpty)
    }

    // MARK: Config errors

    @Test func `an unknown key under claude is a config error with file, line and column`() async throws {
        let fixture = try ClaudeVault(script: [Self.answer])
        defer { fixture.expectKeyNeverShown() }
        try fixture.appendConfig("claude:\n  budget: 5\n  exploer:\n    model: claude-haiku-4-5\n")
        let result = await fixture.run(["explore", Self.question, "--json"])
        #expect(result.status == 2)
        let error = try #require(AnyJSON.parse(result.output)?["error"], "\(result.output)")
        #expect(error["code"] == "config-invalid")
        #expect(error["message"] == ".rhizome/config.yaml:11:3: unknown key `claude.exploer`. Fix: use only: budget, timeouts, prices, explore, reflect")
        #expect(fixture.server.requests.isEmpty)
    }

    @Test func `a temperature above 1 is a config error at its value, for explore and reflect alike`() async throws {
        let fixture = try ClaudeVault(script: [Self.answer])
        defer { fixture.expectKeyNeverShown() }
        try fixture.appendConfig("claude:\n  explore:\n    temperature: 2\n")
        let expected = "error: .rhizome/config.yaml:11:18: `temperature` must be from 0 to 1. Fix: write it like `temperature: 0.3`\n"
        let explore = await fixture.run(["explore", Self.question, "--dry-run"], key: false)
        #expect(explore.status == 2)
        #expect(explore.error == expected)
        let reflect = await fixture.run(["reflect", "--dry-run"], key: false)
        #expect(reflect.status == 2)
        #expect(reflect.error == expected)
        #expect(fixture.server.requests.isEmpty)
    }
}
