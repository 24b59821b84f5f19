import Foundation
import Testing
import RhizomeCore
import RhizomeStore
import RhizomeTestSupport

/// Real vaults nobody on this project wrote (../shared/corpora, copied to a temp dir). Every expected
/// value was checked by reading the files. Skipped, with a message, when the corpora are absent.
@Suite struct CorpusIndexTests {
    @Test(.enabled(if: Fixtures.corpus("obsidian-help-en") != nil, "../shared/corpora/obsidian-help-en is absent (only CI and developers have it)"))
    func obsidianHelpVaultResolvesLikeObsidian() throws {
        let vault = try TemporaryVault(copying: Fixtures.corpus("obsidian-help-en")!)
        let report = try vault.index()
        #expect(report.notes == 173)
        #expect(report.files == 306)
        #expect(report.findingsTotal == 0)
        let store = try vault.store()
        let links = try IndexedLinks(store)
        // Duplicate basenames: the source's own folder, or the exact vault path.
        #expect(links.target("Obsidian Publish/Introduction to Obsidian Publish.md", line: 34, "Security and privacy") == .some("Obsidian Publish/Security and privacy.md"))
        #expect(links.target("Obsidian Sync/Introduction to Obsidian Sync.md", line: 31, "Security and privacy") == .some("Obsidian Sync/Security and privacy.md"))
        #expect(links.target("Teams/Syncing for teams.md", line: 20, "Obsidian Sync/Security and privacy") == .some("Obsidian Sync/Security and privacy.md"))
        #expect(links.target("Obsidian Publish/Manage sites.md", line: 90, "Obsidian Publish/Security and privacy") == .some("Obsidian Publish/Security and privacy.md"))
        #expect(links.target("Plugins/Unique note creator.md", line: 30, "Plugins/Templates") == .some("Plugins/Templates.md"))
        #expect(links.target("Obsidian Web Clipper/Filters.md", line: 4, "Obsidian Web Clipper/Templates") == .some("Obsidian Web Clipper/Templates.md"))
        // Case-insensitive, and a trailing space in the link path.
        #expect(links.target("Linking notes and files/Internal links.md", line: 61, "Embed Files") == .some("Linking notes and files/Embed files.md"))
        #expect(links.target("User interface/Settings.md", line: 244, "Graph View") == .some("Plugins/Graph view.md"))
        #expect(links.target("User interface/Settings.md", line: 244, "Quick Switcher") == .some("Plugins/Quick switcher.md"))
        #expect(links.target("Licenses and payment/Obsidian Credit.md", line: 21, "sales tax") == .some("Licenses and payment/Sales tax.md"))
        // `\|` inside a table; an image with a subpath resolves by name.
        let table = try #require(links.occurrences(in: "Editing and formatting/Properties.md").first { $0.line == 280 && $0.linkPath == "Editing and formatting/Tags" })
        #expect(table.target == "Editing and formatting/Tags.md")
        #expect(table.display == "Tags")
        #expect(links.target("Bases/Introduction to Bases.md", line: 15, "bases-noshadow.png") == .some("Attachments/bases-noshadow.png"))
        // Backticks inside a wikilink do not hide it; a same-note heading link points at the note itself.
        #expect(links.target("Extending Obsidian/Obsidian CLI.md", line: 543, "") == .some("Extending Obsidian/Obsidian CLI.md"))
        // Links inside fenced code are not links.
        #expect(!links.lines(in: "Plugins/Templates.md").contains(72))
        #expect(!links.lines(in: "Contributing to Obsidian/Style guide.md").contains(324))
        #expect(!links.lines(in: "Editing and formatting/Advanced formatting syntax.md").contains(61))
        #expect(links.lines(in: "Editing and formatting/Advanced formatting syntax.md").contains(66))
        // Exactly the unresolved links the vault has.
        let unresolved = try store.unresolvedLinks().map { "\($0.source):\($0.line):\($0.linkPath)" }.sorted()
        #expect(unresolved == [
            "Extending Obsidian/Obsidian CLI.md:9:obsidian-cli.mp4",
            "Linking notes and files/Internal links.md:154:Example", "Linking notes and files/Internal links.md:155:Example",
            "Linking notes and files/Internal links.md:162:Example", "Linking notes and files/Internal links.md:163:Example",
            "Linking notes and files/Internal links.md:168:Example.md", "Linking notes and files/Internal links.md:169:Example.md",
        ])
        // Block ids: at a paragraph end; not without a space before `^`.
        let internalLinks = try store.note(try #require(try store.resolveNote("Linking notes and files/Internal links")))
        #expect(internalLinks.blocks.contains { $0.id == "b15695" && $0.line == 13 })
        let shared = try store.note(try #require(try store.resolveNote("Collaborate on a shared vault")))
        #expect(!shared.blocks.contains { $0.id == "version-history-image" })
    }

    @Test(.enabled(if: Fixtures.corpus("obsidian-hub") != nil, "../shared/corpora/obsidian-hub is absent (only CI and developers have it)"))
    func obsidianHubVaultIndexesWithEveryYAMLErrorLocated() throws {
        let vault = try TemporaryVault(copying: Fixtures.corpus("obsidian-hub")!)
        let report = try vault.index()
        #expect(report.notes == 6_571)
        #expect(report.files == 6_647)
        let store = try vault.store()
        let yamlErrors = try store.findings().filter { $0.code == .invalidYAML }
        #expect(yamlErrors.count == 15)
        #expect(yamlErrors.allSatisfy { $0.path != nil && $0.line != nil && $0.column != nil })
        let byPath = Dictionary(uniqueKeysWithValues: yamlErrors.map { ($0.path!, $0) })
        #expect(byPath["01 - Community/People/kepano.md"].map { [$0.line!, $0.column!] } == [3, 3])
        #expect(byPath["02 - Community Expansions/02.05 All Community Expansions/Plugins/at-symbol-linking.md"].map { [$0.line!, $0.column!] } == [4, 3])
        #expect(byPath["03 - Showcases & Templates/Templates/Daily notes/T - Thecookiemomma's Daily Log.md"].map { [$0.line!, $0.column!] } == [3, 37])
        #expect(byPath["03 - Showcases & Templates/Vaults/Periodic PARA.md"].map { [$0.line!, $0.column!] } == [3, 1])
        let links = try IndexedLinks(store)
        // Same folder beats a case variant elsewhere; otherwise the shortest path; emoji names.
        #expect(links.target("01 - Community/People/mbeckrich.md", line: 24, "Catppuccin") == .some("01 - Community/People/catppuccin.md"))
        #expect(links.target("01 - Community/Obsidian Roundup/2021-04-24 Inline Dataview, Showcases, & a Markdown GUI.md", line: 36, "LaTeX") == .some("05 - Concepts/LaTeX.md"))
        #expect(links.target("01 - Community/People/zcysxy.md", line: 24, "Terminal") == .some("02 - Community Expansions/02.05 All Community Expansions/Themes/Terminal.md"))
        #expect(links.target("01 - Community/People/Bluemoondragon07.md", line: 26, "🔔 Chime") == .some("02 - Community Expansions/02.05 All Community Expansions/Themes/🔔 Chime.md"))
        #expect(links.target("01 - Community/People/OlivierPS.md", line: 24, "Olivier’s Theme") == .some("02 - Community Expansions/02.05 All Community Expansions/Themes/Olivier’s Theme.md"))
        // Repeated block ids are all kept; `)^id` is not a block id.
        let konik = try store.note(try #require(try store.resolveNote("01 - Community/People/eleanorkonik")))
        #expect(konik.blocks.filter { $0.id == "github" }.map(\.line) == [13, 39])
        #expect(!konik.blocks.contains { $0.id == "newsletter" })
        // A second run over an unchanged vault changes nothing.
        let again = try vault.index()
        #expect(again.added == 0 && again.modified == 0 && again.removed == 0 && again.unchanged == 6_647)
    }
}
