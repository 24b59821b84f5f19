import Foundation
import Testing
import RhizomeCLI
import RhizomeTestSupport

/// `rhizome validate` over real vaults nobody on this project wrote (../shared/corpora, read in place:
/// validate writes no note, and the index goes to a temp --db). Expected values were checked by reading
/// the files. Skipped, with a message, when the corpora are absent.
@Suite struct CorpusValidationTests {
    @Test(.enabled(if: Fixtures.corpus("obsidian-hub") != nil, "../shared/corpora/obsidian-hub is absent (only CI and developers have it)"))
    func `validate over the obsidian hub locates every invalid-yaml finding`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let corpus = Fixtures.corpus("obsidian-hub")!
        let database = cli.home.appendingPathComponent("hub.sqlite").path
        let result = cli.run(["validate", "--json", "--vault", corpus.path, "--db", database])
        #expect(result.status == 1, "invalid YAML is an error: \(result.error.prefix(2_000))")
        #expect(result.json["command"] as? String == "validate")
        let findings = result.findings
        let yaml = findings.filter { $0["code"] as? String == "invalid-yaml" }
        #expect(yaml.count == 15)
        for finding in yaml {
            #expect(finding["path"] is String && finding["line"] is Int && finding["column"] is Int, "\(finding)")
            #expect(finding["severity"] as? String == "error")
        }
        let byPath = Dictionary(yaml.map { ($0["path"] as? String ?? "", $0) }, uniquingKeysWith: { first, _ in first })
        #expect(byPath["01 - Community/People/kepano.md"].map { [$0["line"] as? Int, $0["column"] as? Int] } == [3, 3])
        #expect(byPath["03 - Showcases & Templates/Vaults/Periodic PARA.md"].map { [$0["line"] as? Int, $0["column"] as? Int] } == [3, 1])
        // Every finding is located and carries a known severity.
        for finding in findings {
            #expect(finding["path"] is String, "\(finding)")
            #expect(["error", "warning", "info"].contains(finding["severity"] as? String ?? ""))
        }
        let summary = try #require(result.data["summary"] as? [String: Any])
        #expect(summary["errors"] as? Int == findings.count { $0["severity"] as? String == "error" })
        // The human form too, and a second (incremental) run agrees.
        let human = cli.run(["validate", "--vault", corpus.path, "--db", database])
        #expect(human.status == 1)
        #expect(human.output.contains("01 - Community/People/kepano.md:3:3: error: invalid YAML in frontmatter"))
        #expect(human.diagnosticLines.count == findings.count)
        // Nothing was written into the corpus.
        #expect(!FileManager.default.fileExists(atPath: corpus.appendingPathComponent(".rhizome").path))
    }

    @Test(.enabled(if: Fixtures.corpus("claude-skills") != nil, "../shared/corpora/claude-skills is absent (only CI and developers have it)"))
    func `the claude skills are typed skill by path and checked`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let corpus = Fixtures.corpus("claude-skills")!
        let database = cli.home.appendingPathComponent("skills.sqlite").path
        let skillFiles = try FileManager.default.subpathsOfDirectory(atPath: corpus.path).filter { ($0 as NSString).lastPathComponent == "SKILL.md" }.sorted()
        #expect(skillFiles.count == 17)
        let result = cli.run(["validate", "--json", "--vault", corpus.path, "--db", database])
        #expect(result.status == 1 || result.status == 0, "\(result.error)")
        let counts = cli.run(["sql", "select type, count(*) from note_types group by type", "--json", "--vault", corpus.path, "--db", database])
        #expect(counts.status == 0)
        let rows = (counts.data["rows"] as? [[Any]]) ?? []
        let byType = Dictionary(rows.compactMap { row -> (String, Int)? in
            guard row.count == 2, let type = row[0] as? String, let count = row[1] as? Int else { return nil }
            return (type, count)
        }, uniquingKeysWith: +)
        #expect(byType["skill"] == skillFiles.count, "\(counts.output)")
        let typed = cli.run(["sql", "select path from note_types where type = 'skill' order by path", "--json", "--vault", corpus.path, "--db", database])
        #expect(((typed.data["rows"] as? [[Any]]) ?? []).compactMap { $0.first as? String } == skillFiles)
        // What the skills' frontmatter says, checked against the built-in schema: each name equals its
        // folder; claude-api's description is 1,068 characters, over the 1,024 allowed.
        let findings = result.findings
        #expect(!findings.contains { $0["code"] as? String == "id-mismatch" }, "\(findings)")
        let tooLong = findings.filter { $0["code"] as? String == "invalid-length" }
        #expect(tooLong.compactMap { $0["path"] as? String } == ["skills/claude-api/SKILL.md"])
        #expect((tooLong.first?["message"] as? String)?.contains("1068") == true)
        // The prompt files under skill-creator/agents/ are not Claude Code agents: the agent schema matches
        // only `ClaudeCode/Agents/**` and `.claude/agents/`, so they are untyped and not reported.
        #expect(byType["agent"] == nil)
        #expect(!findings.contains { $0["code"] as? String == "missing-frontmatter" }, "\(findings)")
    }
}
