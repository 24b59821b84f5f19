import Foundation
import Testing
import RhizomeCLI
import RhizomeTestSupport

/// The answer key for `rhizome validate` on Vault-Example (its README lists the deliberately invalid notes),
/// and what `fix` repairs there.
@Suite struct VaultExampleValidationTests {
    /// Every non-informational finding: path, code, line, column.
    static let expected: Set<String> = [
        "Ideas/Tag garden.md wrong-type 6:1",
        "Ideas/Tag garden.md invalid-tag-value 6:7",
        "Meetings/2026-11-17 Alpha sync.md broken-reference 7:5",
        "Meetings/2026-11-20 Rhizome review.md broken-reference 8:5",
        "People/Jonah Weiss.md wrong-type 4:1",
        "Plans/Backlog.md missing-required 1:1",
        "Projects/Archive/Kettle.md not-in-enum 5:1",
        "Projects/Rhizome/Decisions/ADR-003 FSEvents watcher.md duplicate-id 3:1",
        "Projects/Rhizome/Decisions/ADR-004 Aliases never resolve links.md duplicate-id 3:1",
        "Sessions/2026-11-19 Link resolver refactor.md invalid-yaml 7:16",
        "Reading/Designing Data-Intensive Applications.md legacy-key 6:1",
        "Reading/Designing Data-Intensive Applications.md legacy-key 7:1",
        "Sessions/2026-11-18 Watcher debounce.md unquoted-link 9:9",
    ]

    static func findings(_ result: CLIHarness.Result) throws -> (Set<String>, [String: Any]) {
        let data = try #require(result.json["data"] as? [String: Any])
        let findings = try #require(data["findings"] as? [[String: Any]])
        let keyed = findings.filter { $0["severity"] as? String != "info" }.map {
            "\($0["path"] as? String ?? "?") \($0["code"] as? String ?? "?") \($0["line"] as? Int ?? 0):\($0["column"] as? Int ?? 0)"
        }
        return (Set(keyed), try #require(data["summary"] as? [String: Any]))
    }

    @Test func `validate reports exactly the deliberately invalid notes of Vault-Example`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        let result = cli.run(["validate", "--vault", vault.path, "--json"])
        #expect(result.status == 1)
        let (found, summary) = try Self.findings(result)
        #expect(found == Self.expected)
        #expect(summary["errors"] as? Int == 9)
        #expect(summary["warnings"] as? Int == 4)
        #expect(summary["checkedNotes"] as? Int == 34)
    }

    @Test func `an id reference is an edge that backlinks follow but links --all leaves out`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        let backlinks = cli.run(["backlinks", "Project Alpha", "--vault", vault.path, "--json"])
        let links = try #require(backlinks.json["data"] as? [[String: Any]])
        let reference = links.filter { $0["reference"] as? Bool == true }
        #expect(reference.count == 1)
        #expect(reference.first?["source"] as? String == "Projects/Alpha/ADR-A01 Render PDFs on the server.md")
        #expect(reference.first?["propertyKey"] as? String == "project")
        #expect(reference.first?["linkPath"] as? String == "PRJ-ALPHA")
        let all = try #require(cli.run(["links", "--all", "--vault", vault.path, "--json"]).json["data"] as? [[String: Any]])
        #expect(all.count == 313)
        #expect(all.allSatisfy { $0["reference"] as? Bool == false })
    }

    @Test func `fix --write repairs what is safe, keeps every body, and a second run changes nothing`() throws {
        let cli = try CLIHarness()
        defer { cli.cleanUp() }
        let vault = try TemporaryVault(copying: Fixtures.vaultExample)
        let paths = try FileManager.default.subpathsOfDirectory(atPath: vault.path).filter { $0.hasSuffix(".md") }
        func bodies() throws -> [String: [UInt8]] {
            var result: [String: [UInt8]] = [:]
            for path in paths {
                let bytes = Array(try Data(contentsOf: vault.url(path)))
                result[path] = Self.body(of: bytes)
            }
            return result
        }
        let before = try bodies()
        let snapshot = try paths.map { try Data(contentsOf: vault.url($0)) }

        let dryRun = cli.run(["fix", "--vault", vault.path])
        #expect(dryRun.status == 0)
        #expect(dryRun.output.contains("--- a/Ideas/Tag garden.md"))
        #expect(try paths.map { try Data(contentsOf: vault.url($0)) } == snapshot, "a dry run writes nothing")

        let written = cli.run(["fix", "--write", "--populate", "--vault", vault.path])
        #expect(written.status == 0)
        #expect(try bodies() == before, "bodies are preserved byte for byte")
        let (found, _) = try Self.findings(cli.run(["validate", "--vault", vault.path, "--json"]))
        #expect(found == [
            "Meetings/2026-11-17 Alpha sync.md broken-reference 7:5",
            "Meetings/2026-11-20 Rhizome review.md broken-reference 8:5",
            "Projects/Archive/Kettle.md not-in-enum 5:1",
            "Projects/Rhizome/Decisions/ADR-003 FSEvents watcher.md duplicate-id 3:1",
            "Projects/Rhizome/Decisions/ADR-004 Aliases never resolve links.md duplicate-id 3:1",
            "Sessions/2026-11-19 Link resolver refactor.md invalid-yaml 7:16",
        ])
        #expect(try vault.read("Ideas/Tag garden.md").contains("tags:\n  - tagging\n  - maintenance\n"))
        #expect(try vault.read("Sessions/2026-11-18 Watcher debounce.md").contains("parent: \"[[Plan - Incremental indexing]]\""))

        let after = try paths.map { try Data(contentsOf: vault.url($0)) }
        let again = cli.run(["fix", "--write", "--populate", "--vault", vault.path])
        #expect(again.output.contains("nothing to fix"))
        #expect(try paths.map { try Data(contentsOf: vault.url($0)) } == after, "fixing twice changes nothing the second time")
    }

    /// The bytes after the closing `---` of the frontmatter (the whole file when there is none).
    static func body(of bytes: [UInt8]) -> [UInt8] {
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.hasPrefix("---") else { return bytes }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        lines.removeFirst()
        var offset = text.split(separator: "\n", omittingEmptySubsequences: false)[0].utf8.count + 1
        for line in lines {
            offset += line.utf8.count + 1
            if line.trimmingCharacters(in: .whitespaces) == "---" { return Array(bytes[min(offset, bytes.count)...]) }
        }
        return bytes
    }
}
