import Foundation
import Testing
import RhizomeCore

/// The text a rewritten link gets under each of Obsidian's "New link format" settings (`newLinkFormat`:
/// shortest, relative, absolute), for wikilinks and markdown links, as Obsidian's help describes them
/// (Settings → Files and links): the shortest form when it is unambiguous, else the path from the vault
/// root; the path relative to the linking note; the path from the root. A link keeps its syntax: the
/// "Use [[Wikilinks]]" setting (`useMarkdownLinks`) decides how new links are written, not how existing
/// ones are rewritten.
@Suite struct LinkFormatGoldenTests {
    static let source = "Notes/Source.md"
    static let text = "[[Target]] [t](../Target.md) ![[Target#Part|shown]] [u](<../Target.md#Part>)\n"

    func rewrite(_ format: ObsidianSettings.LinkFormat, extraFiles: [String] = []) -> String? {
        let files = [Self.source, "Target.md"] + extraFiles
        let planner = RelinkPlanner(filePaths: files, moves: ["Target.md": "Archive/2026/Target renamed.md"], format: format)
        let result = planner.plan([RelinkPlanner.Source(path: Self.source, bytes: Array(Self.text.utf8))])
        #expect(result.problems.isEmpty, "\(result.problems)")
        return result.fileEdits.first.map { String(decoding: $0.newBytes, as: UTF8.self) }
    }

    @Test func shortestWritesTheNameWhenItIsUnique() {
        #expect(rewrite(.shortest) == "[[Target renamed]] [t](Target%20renamed.md) ![[Target renamed#Part|shown]] [u](<Target renamed.md#Part>)\n")
    }

    @Test func shortestWritesThePathFromTheRootWhenTheNameIsTaken() {
        #expect(rewrite(.shortest, extraFiles: ["Other/Target renamed.md"])
                == "[[Archive/2026/Target renamed]] [t](Archive/2026/Target%20renamed.md) ![[Archive/2026/Target renamed#Part|shown]] [u](<Archive/2026/Target renamed.md#Part>)\n")
    }

    @Test func relativeWritesThePathFromTheLinkingNote() {
        #expect(rewrite(.relative) == "[[../Archive/2026/Target renamed]] [t](../Archive/2026/Target%20renamed.md) ![[../Archive/2026/Target renamed#Part|shown]] [u](<../Archive/2026/Target renamed.md#Part>)\n")
    }

    @Test func absoluteWritesThePathFromTheRoot() {
        #expect(rewrite(.absolute) == "[[Archive/2026/Target renamed]] [t](Archive/2026/Target%20renamed.md) ![[Archive/2026/Target renamed#Part|shown]] [u](<Archive/2026/Target renamed.md#Part>)\n")
    }

    @Test func appJSONIsReadWithObsidiansDefaults() {
        #expect(ObsidianSettings.parse(Data("{}".utf8)) == ObsidianSettings(newLinkFormat: .shortest, useMarkdownLinks: false, trashOption: nil))
        #expect(ObsidianSettings.parse(Data(#"{"newLinkFormat":"relative","useMarkdownLinks":true,"trashOption":"local"}"#.utf8))
                == ObsidianSettings(newLinkFormat: .relative, useMarkdownLinks: true, trashOption: .local))
        #expect(ObsidianSettings.parse(Data(#"{"newLinkFormat":"sideways"}"#.utf8)).newLinkFormat == .shortest, "an unknown value is the default")
        #expect(ObsidianSettings.parse(Data("not json".utf8)) == ObsidianSettings())
    }

    @Test func aMarkdownLinkThatSpelledNonASCIIEncodedKeepsDoingSo() {
        let planner = RelinkPlanner(filePaths: ["Café.md", "Index.md"], moves: ["Café.md": "Crème.md"], format: .shortest)
        let result = planner.plan([RelinkPlanner.Source(path: "Index.md", bytes: Array("[a](Caf%C3%A9.md) [b](Café.md)\n".utf8))])
        #expect(result.fileEdits.first.map { String(decoding: $0.newBytes, as: UTF8.self) } == "[a](Cr%C3%A8me.md) [b](Crème.md)\n")
    }
}

