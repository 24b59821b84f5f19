import Foundation

/// Reads a `.canvas` file (the open JSON Canvas format) as a link source: `file` nodes link to the
/// file they name, and the markdown of `text` nodes is read like a note body for links and tags.
///
/// Positions are in the `.canvas` file: a file node's link is where its `file` value starts; a link or
/// tag in a text node is where it stands inside the node's JSON `text` string; headings and tasks of a
/// text node carry the line of that string.
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
        var sourceMap = CanvasSourceMap(bytes)
        var texts: [String] = []
        for node in nodes {
            let id = node["id"] as? String
            switch node["type"] as? String {
            case "file":
                guard let file = node["file"] as? String, !file.isEmpty else { continue }
                let subpath = (node["subpath"] as? String).map { $0.hasPrefix("#") ? String($0.dropFirst()) : $0 }
                let start = id.flatMap { sourceMap.valueStart(of: "file", inNodeWithID: $0) }
                let position = start.map { sourceMap.position(ofScalar: 0, inStringAt: $0) } ?? (line: 1, column: 1)
                note.links.append(LinkOccurrence(
                    kind: .canvasFile, path: UnicodeNormalization.nfc(file), subpath: subpath, line: position.line, column: position.column))
            case "text":
                guard let text = node["text"] as? String else { continue }
                var content = MarkdownScanner.scan(text)
                if let start = id.flatMap({ sourceMap.valueStart(of: "text", inNodeWithID: $0) }) {
                    let lineStarts = Self.lineStartScalarOffsets(text)
                    func filePosition(line: Int, column: Int) -> (line: Int, column: Int) {
                        let offset = (line - 1 < lineStarts.count ? lineStarts[line - 1] : 0) + column - 1
                        return sourceMap.position(ofScalar: offset, inStringAt: start)
                    }
                    for index in content.links.indices {
                        (content.links[index].line, content.links[index].column) = filePosition(line: content.links[index].line, column: content.links[index].column)
                    }
                    for index in content.tags.indices {
                        (content.tags[index].line, content.tags[index].column) = filePosition(line: content.tags[index].line, column: content.tags[index].column)
                    }
                    let textLine = sourceMap.lineAndColumn(of: start).line
                    for index in content.headings.indices { content.headings[index].line = textLine }
                    for index in content.tasks.indices { content.tasks[index].line = textLine }
                }
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

    /// Offsets (in Unicode scalars) at which each line of `text` starts.
    private static func lineStartScalarOffsets(_ text: String) -> [Int] {
        var starts = [0]
        for (offset, scalar) in text.unicodeScalars.enumerated() where scalar == "\n" { starts.append(offset + 1) }
        return starts
    }
}
