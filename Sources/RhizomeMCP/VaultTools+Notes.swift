import Foundation
import MCP
import RhizomeCore
import RhizomeOperations
import RhizomeStore

/// The read tools agents need before they write: a note's text with its hash (for `expectedHash`), paged
/// or one section at a time, and the notes changed recently.
extension VaultTools {
    static let noteCatalog: [Entry] = [
        Entry(
            tool: tool("read_note", title: "Read a note's text",
                       "A note's markdown text (frontmatter included) with its `hash`, which write tools take as `expectedHash`. Long notes come in pages: `offset` and `maxCharacters`, with `nextOffset` until the end (null on the last page). An `offset` past the end of the text is refused with `invalid-argument`, never answered with an empty page. `heading` returns only the section under that heading.",
                       properties: [
                        "note": string(noteHelp),
                        "offset": .object(["type": "integer", "minimum": 0, "default": 0, "description": "Where to start, in characters."]),
                        "maxCharacters": .object(["type": "integer", "minimum": 100, "maximum": 200_000, "default": 20_000, "description": "At most this many characters."]),
                        "heading": string("Only the section under this heading (its text, without `#`)."),
                       ], required: ["note"]),
            run: { tools, arguments, store in
                let file = try tools.resolve(try arguments.string("note"), store: store)
                guard case .success(let bytes) = FileReader.read(DiskPath(tools.vaultPath + "/" + file.path), maxBytes: 16 << 20) else {
                    throw ToolError.failed(code: "unreadable", message: "\(file.path) cannot be read, or is over 16 MiB")
                }
                var text = String(decoding: bytes, as: UTF8.self)
                var section: String?
                if let heading = arguments.optionalString("heading") {
                    guard let found = NoteSection.find(heading, in: bytes, path: file.path) else {
                        let headings = NoteParser.parse(bytes, path: file.path, includeBodyText: false).headings.map(\.text)
                        throw ToolError.failed(code: "heading-not-found", message: "\(file.path) has no heading `\(heading)`; its headings: \(headings.prefix(30).joined(separator: " | "))")
                    }
                    text = found.text
                    section = found.heading
                }
                let total = text.count
                let offset = try arguments.int("offset", default: 0, in: 0...Int.max)
                guard offset <= total else {
                    throw ToolError.invalidArgument("`offset` \(offset) is past the end of the text (\(total) characters)")
                }
                let maxCharacters = try arguments.int("maxCharacters", default: 20_000, in: 100...200_000)
                let start = text.index(text.startIndex, offsetBy: offset)
                let end = text.index(start, offsetBy: maxCharacters, limitedBy: text.endIndex) ?? text.endIndex
                let page = NotePage(
                    path: file.path, hash: VaultEditor.hash(of: bytes), heading: section, text: String(text[start..<end]),
                    offset: offset, characters: total, nextOffset: end == text.endIndex ? nil : offset + maxCharacters)
                return ToolOutput(page, total: nil, truncated: page.nextOffset != nil)
            }),
        Entry(
            tool: tool("recent_changes", title: "Recently changed notes",
                       "Notes created or modified since a time, newest first, optionally in a folder, with a tag (nested tags included) or of a type.",
                       properties: [
                        "since": string("An ISO 8601 date or date-time (`2026-11-20`, `2026-11-20T09:00:00Z`), or a duration back from now: `30m`, `24h`, `7d`."),
                        "folder": string("Only notes in this vault-relative folder (and its subfolders)."),
                        "tag": string("Only notes with this tag (nested tags included)."),
                        "type": string("Only notes of this type (see the `schema` tool)."),
                        "limit": limit(default: 50, maximum: 1_000),
                       ], required: ["since"]),
            run: { _, arguments, store in
                let since = try arguments.string("since")
                guard let seconds = TimeSpec.secondsSince1970(since, now: Date()) else {
                    throw ToolError.invalidArgument("`since` must be an ISO 8601 date or date-time, or a duration such as `30m`, `24h`, `7d` (got `\(since)`)")
                }
                let limit = try arguments.int("limit", default: 50, in: 1...1_000)
                let files = try store.recentlyModifiedNotes(
                    since: seconds, folder: arguments.optionalString("folder"), tag: arguments.optionalString("tag"), type: arguments.optionalString("type"), limit: limit + 1)
                let changes = files.prefix(limit).map { RecentChange(path: $0.path, modified: $0.modified.map { ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval($0))) }, size: $0.size) }
                return ToolOutput(Array(changes), total: nil, truncated: files.count > limit)
            }),
    ]
}

/// One section of a note: from its heading line to the next heading of the same or a higher level.
enum NoteSection {
    static func find(_ heading: String, in bytes: [UInt8], path: String) -> (heading: String, text: String)? {
        let headings = NoteParser.parse(bytes, path: path, includeBodyText: false).headings
        guard let index = VaultEditor.headingIndex(heading, in: headings) else { return nil }
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let first = headings[index].line - 1
        let next = headings[(index + 1)...].first { $0.level <= headings[index].level }.map { $0.line - 1 } ?? lines.count
        let text = lines[first..<min(next, lines.count)].map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n")
        return (headings[index].text, text)
    }
}

/// `since` arguments: ISO 8601 dates and date-times, or `30m`, `24h`, `7d`, `2w` back from now.
enum TimeSpec {
    static func secondsSince1970(_ text: String, now: Date) -> Int64? {
        let trimmed = text.trimmingSpaces
        if let unit = trimmed.last, let amount = Double(trimmed.dropLast()), amount >= 0 {
            let seconds: Double? = switch unit {
            case "s": amount
            case "m": amount * 60
            case "h": amount * 3_600
            case "d": amount * 86_400
            case "w": amount * 604_800
            default: nil
            }
            if let seconds { return Int64(now.timeIntervalSince1970 - seconds) }
        }
        let full = ISO8601DateFormatter()
        if let date = full.date(from: trimmed) { return Int64(date.timeIntervalSince1970) }
        let dateOnly = ISO8601DateFormatter()
        dateOnly.formatOptions = [.withFullDate]
        if let date = dateOnly.date(from: trimmed) { return Int64(date.timeIntervalSince1970) }
        return nil
    }
}

struct NotePage: Encodable, Sendable {
    var path: String
    var hash: String
    @NullEncoded var heading: String?
    var text: String
    var offset: Int
    var characters: Int
    @NullEncoded var nextOffset: Int?

    private enum CodingKeys: String, CodingKey { case path, hash, heading, text, offset, characters, nextOffset }
}

struct RecentChange: Encodable, Sendable {
    var path: String
    @NullEncoded var modified: String?
    @NullEncoded var size: Int64?

    private enum CodingKeys: String, CodingKey { case path, modified, size }
}
