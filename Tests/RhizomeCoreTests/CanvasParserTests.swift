/// Tests of `CanvasParser`: a `.canvas` (JSON Canvas) file links to its `file` nodes, and its `text`
/// nodes are read like a note body. Rules from docs/OBSIDIAN.md, "Canvas files".
import Testing
@testable import RhizomeCore

private func parseCanvas(_ json: String, path: String = "Board.canvas") -> ParsedNote {
    CanvasParser.parse(Array(json.utf8), path: path)
}

@Suite("Canvas parser") struct CanvasParserTests {
    static let board = """
        {
          "nodes": [
            {"id": "1", "type": "file", "file": "Projects/Plan.md", "x": 0, "y": 0, "width": 400, "height": 400},
            {"id": "2", "type": "file", "file": "Images/diagram.png", "x": 500, "y": 0, "width": 400, "height": 400},
            {"id": "3", "type": "text", "text": "# Idea\\nSee [[Other Note]] and #brainstorm\\n- [ ] follow up", "x": 0, "y": 500, "width": 400, "height": 200},
            {"id": "4", "type": "link", "url": "https://example.com", "x": 500, "y": 500, "width": 400, "height": 200},
            {"id": "5", "type": "group", "label": "Group [[Not a link]]", "x": -50, "y": -50, "width": 1000, "height": 1000}
          ],
          "edges": [
            {"id": "e1", "fromNode": "1", "toNode": "2"}
          ]
        }
        """

    @Test func `file nodes are canvas-file links to their paths`() {
        let links = parseCanvas(Self.board).links.filter { $0.kind == .canvasFile }
        #expect(links.map(\.path) == ["Projects/Plan.md", "Images/diagram.png"])
    }

    @Test func `a file node's subpath is kept without its hash`() {
        let json = ##"{"nodes": [{"id": "1", "type": "file", "file": "Note.md", "subpath": "#Heading"}]}"##
        let link = parseCanvas(json).links.first
        #expect(link?.kind == .canvasFile)
        #expect(link?.path == "Note.md")
        #expect(link?.subpath == "Heading")
    }

    @Test func `wikilinks in text nodes are links`() {
        let links = parseCanvas(Self.board).links.filter { $0.kind != .canvasFile }
        #expect(links.map(\.path) == ["Other Note"])
        #expect(links.first?.kind == .wikilink)
    }

    @Test func `tags in text nodes are tags`() {
        #expect(parseCanvas(Self.board).tags.map(\.name) == ["brainstorm"])
    }

    @Test func `headings and tasks in text nodes are read`() {
        let note = parseCanvas(Self.board)
        #expect(note.headings.map(\.text) == ["Idea"])
        #expect(note.tasks.map(\.text) == ["follow up"])
    }

    @Test func `markdown links and embeds in text nodes are links`() {
        let json = #"{"nodes": [{"id": "1", "type": "text", "text": "[doc](Docs/Spec.md) ![[chart.png]] [web](https://example.com)"}]}"#
        let links = parseCanvas(json).links
        #expect(links.map(\.path) == ["Docs/Spec.md", "chart.png"])
        #expect(links.map(\.kind) == [.markdown, .embed])
    }

    @Test func `text nodes keep the hiding rules of a note body`() {
        let json = #"{"nodes": [{"id": "1", "type": "text", "text": "```\n[[Hidden]]\n```\n`[[Code]]` [[Shown]]"}]}"#
        #expect(parseCanvas(json).links.map(\.path) == ["Shown"])
    }

    @Test func `link and group nodes are not links`() {
        let links = parseCanvas(Self.board).links
        #expect(!links.contains { $0.path.contains("example.com") })
        #expect(!links.contains { $0.path == "Not a link" })
        #expect(links.count == 3)
    }

    @Test func `text nodes make up the body text`() {
        let json = #"{"nodes": [{"id": "1", "type": "text", "text": "first"}, {"id": "2", "type": "text", "text": "second"}]}"#
        let body = parseCanvas(json).bodyText
        #expect(body?.contains("first") == true)
        #expect(body?.contains("second") == true)
    }

    @Test func `a valid canvas has no findings`() {
        #expect(parseCanvas(Self.board).findings.isEmpty)
    }

    @Test func `invalid JSON is a finding and no links`() {
        let note = parseCanvas(#"{"nodes": [{"type": "file", "file": "A.md"}"#, path: "Broken.canvas")
        #expect(note.findings.map(\.code) == [.invalidCanvas])
        #expect(note.findings.first?.path == "Broken.canvas")
        #expect(note.links.isEmpty)
        #expect(note.tags.isEmpty)
    }

    @Test func `bytes that are not JSON at all are a finding, not a crash`() {
        let note = CanvasParser.parse([0xFF, 0xFE, 0x00, 0x41], path: "Binary.canvas")
        #expect(note.findings.map(\.code) == [.invalidCanvas])
        #expect(note.links.isEmpty)
    }

    @Test func `a canvas without nodes is valid and empty`() {
        // JSON Canvas 1.0: `nodes` and `edges` are both optional, and Obsidian writes a new, empty canvas as `{}`.
        let note = parseCanvas("{}")
        #expect(note.links.isEmpty)
        #expect(note.findings.isEmpty)
        #expect(parseCanvas(#"{"edges": []}"#).findings.isEmpty)
    }

    @Test func `nodes with missing or odd fields are skipped`() {
        let json = #"{"nodes": [{"type": "file"}, {"type": "file", "file": ""}, {"type": "text"}, {"type": 3}, {"id": "x"}, {"type": "file", "file": "Kept.md"}]}"#
        let note = parseCanvas(json)
        #expect(note.links.map(\.path) == ["Kept.md"])
    }
}

/// Canvas positions are positions in the .canvas file, through JSON escapes.
@Suite struct CanvasPositionTests {
    @Test func linksInTextNodesAreLocatedInTheFileThroughEscapes() throws {
        let json = """
        {"nodes":[
          {"type":"text","id":"a","text":"caf\\u00e9 \\ud83d\\ude00 \\"q\\"\\n- [[Target]] #tag"},
          {"id":"b","x":0,"file":"Folder/Note.md","type":"file"}
        ]}
        """
        let note = CanvasParser.parse(Array(json.utf8), path: "Board.canvas")
        let lines = json.split(separator: "\n", omittingEmptySubsequences: false)
        for link in note.links {
            let rest = String(lines[link.line - 1].unicodeScalars.dropFirst(link.column - 1))
            #expect(rest.hasPrefix(link.kind == .canvasFile ? "Folder/Note.md" : "[[Target]]"), "\\(link)")
        }
        let tag = try #require(note.tags.first)
        #expect(String(lines[tag.line - 1].unicodeScalars.dropFirst(tag.column - 1)).hasPrefix("#tag"))
        #expect(note.links.count == 2)
    }
}
