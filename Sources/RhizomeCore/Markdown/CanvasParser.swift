import Foundation

/// Reads a `.canvas` file (the open JSON Canvas format) as a link source: `file` nodes link to the
/// file they name, and the markdown of `text` nodes is read like a note body for links and tags.
///
/// Positions: a file node's link is at line 1; links and tags inside a text node carry their line and
/// column *within that node's text* (JSON Canvas has no stable source positions).
public enum CanvasParser {
    public static func parse(_ bytes: [UInt8], path: String) -> ParsedNote {
        var note = ParsedNote()
        // A new, empty canvas may be an empty file or `{}`: nothing to index, nothing wrong.
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return note }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(bytes), options: [])
        } catch {
            note.findings.append(Finding(
                code: .invalidCanvas, severity: .warning,
                message: "the canvas is not valid JSON (or is nested too deeply to read); its links are not indexed",
                path: path, line: 1, column: 1, fix: "open and re-save the canvas in Obsidian"))
            return note
        }
        // JSON Canvas makes `nodes` optional; it must be a list when present.
        guard let root = object as? [String: Any], root["nodes"] == nil || root["nodes"] is [[String: Any]] else {
            note.findings.append(Finding(
                code: .invalidCanvas, severity: .warning,
                message: "the canvas is not a JSON Canvas object with a `nodes` list; its links are not indexed",
                path: path, line: 1, column: 1, fix: "open and re-save the canvas in Obsidian"))
            return note
        }
        let nodes = root["nodes"] as? [[String: Any]] ?? []
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
