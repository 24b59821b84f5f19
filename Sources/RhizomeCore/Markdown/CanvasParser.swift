import Foundation

/// Reads a `.canvas` file (the open JSON Canvas format) as a link source: `file` nodes link to the
/// file they name, and the markdown of `text` nodes is read like a note body for links and tags.
///
/// Positions: a file node's link is at line 1; links and tags inside a text node carry their line and
/// column *within that node's text* (JSON Canvas has no stable source positions).
public enum CanvasParser {
    public static func parse(_ bytes: [UInt8], path: String) -> ParsedNote {
        var note = ParsedNote()
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(bytes), options: [])
        } catch {
            note.findings.append(Finding(
                code: .invalidCanvas, severity: .warning,
                message: "the canvas is not valid JSON (\(error.localizedDescription)); its links are not indexed",
                path: path, line: 1, column: 1, fix: "open and re-save the canvas in Obsidian"))
            return note
        }
        guard let root = object as? [String: Any], let nodes = root["nodes"] as? [[String: Any]] else {
            if !bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
                note.findings.append(Finding(
                    code: .invalidCanvas, severity: .warning, message: "the canvas has no `nodes` list",
                    path: path, line: 1, column: 1))
            }
            return note
        }
        var texts: [String] = []
        for node in nodes {
            switch node["type"] as? String {
            case "file":
                guard let file = node["file"] as? String, !file.isEmpty else { continue }
                let subpath = (node["subpath"] as? String).map { $0.hasPrefix("#") ? String($0.dropFirst()) : $0 }
                note.links.append(LinkOccurrence(kind: .canvasFile, path: UnicodeNormalization.nfc(file), subpath: subpath, line: 1, column: 1))
            case "text":
                guard let text = node["text"] as? String else { continue }
                let content = MarkdownScanner.scan(text)
                note.links += content.links
                note.tags += content.tags
                note.headings += content.headings
                note.tasks += content.tasks
                texts.append(text)
            default:
                continue
            }
        }
        note.bodyText = texts.joined(separator: "\n\n")
        return note
    }
}
