/// The ```` ```dataview ```` code blocks of a note: where each starts and ends, and its query text.
public struct DataviewBlock: Sendable, Hashable {
    /// 1-based line of the opening fence.
    public var openingLine: Int
    /// 1-based line of the closing fence (the last line of the note when the block is never closed).
    public var closingLine: Int
    public var query: String

    /// Finds the blocks in `text` (fenced with three or more backticks or tildes; the info string's first
    /// word is `language`, in any case: `dataview`, or `base` for Obsidian's embedded bases). Other fenced
    /// blocks are skipped whole.
    /// The lines of `text` without their endings (`\n` or `\r\n`). In a `String`, "\r\n" is one
    /// character, which a split at "\n" alone never finds: a note saved on Windows would be one line.
    public static func lines(of text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
    }

    public static func find(in text: String, language: String = "dataview") -> [DataviewBlock] {
        var blocks: [DataviewBlock] = []
        let lines = lines(of: text)
        var index = 0
        while index < lines.count {
            guard let (marker, length, info) = fence(lines[index]) else { index += 1; continue }
            let opening = index
            var closing = lines.count - 1
            var body: [Substring] = []
            index += 1
            while index < lines.count {
                if let (closeMarker, closeLength, closeInfo) = fence(lines[index]), closeMarker == marker, closeLength >= length,
                   closeInfo.isEmpty {
                    closing = index
                    break
                }
                body.append(lines[index])
                index += 1
            }
            if info.split(separator: " ").first?.lowercased() == language {
                blocks.append(DataviewBlock(openingLine: opening + 1, closingLine: closing + 1, query: body.joined(separator: "\n")))
            }
            index = closing + 1
        }
        return blocks
    }

    private static func fence(_ line: Substring) -> (Character, Int, String)? {
        let trimmed = line.drop { $0 == " " }
        guard line.count - trimmed.count <= 3, let marker = trimmed.first, marker == "`" || marker == "~" else { return nil }
        let run = trimmed.prefix { $0 == marker }
        guard run.count >= 3 else { return nil }
        let info = String(trimmed.dropFirst(run.count)).trimmingSpaces
        if marker == "`", info.contains("`") { return nil }
        return (marker, run.count, info)
    }
}
