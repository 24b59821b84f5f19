/// Works out a heading's rename: the heading's own line in its note, and every link that reaches that heading
/// (`[[Note#Old]]`, `[[Note#Old|shown]]`, `![[Note#Old]]`, `[x](Note.md#Old)`, `[[#Old]]` inside the note) or
/// names it on the way to another (`[[Note#Old#Sub]]`), each changed only in that part of its subpath.
///
/// A heading path is read as Obsidian reads it: each part is the first heading after the previous part's
/// (ignoring letter case), so with two `## Dup` headings `[[Note#Dup]]` reaches the first and `[[Note#B#Dup]]`
/// the one after `# B`. Only links that reach the renamed heading change, and every other heading link to the
/// note must reach the same heading after the rename as before (a new name that takes another link's heading
/// is a `Problem`; a link that reached no heading and would reach the renamed one is `newlyResolved`).
/// Everything else keeps its bytes; each rewritten file is parsed again and must hold the
/// same links, reaching the same files, with only those subpaths changed.
public struct HeadingRenamePlanner: Sendable {
    public let notePath: String
    public let oldHeading: String
    public let newHeading: String
    /// The note's headings' texts in order, before and after the rename.
    private let oldHeadings: [String]
    private let newHeadings: [String]
    private let renamedIndex: Int
    private let paths: [String]
    private let resolver: LinkResolver<Int>

    /// `filePaths`: every file of the vault; `headings`: the texts of the note's headings as the parser reads
    /// them; `index`: the one that becomes `newHeading`.
    public init(filePaths: [String], notePath: String, headings: [String], index: Int, newHeading: String) {
        paths = filePaths
        resolver = LinkResolver(files: filePaths.enumerated().map { (path: $0.element, id: $0.offset) })
        self.notePath = notePath
        oldHeadings = headings
        renamedIndex = index
        var renamed = headings
        renamed[index] = newHeading
        newHeadings = renamed
        oldHeading = headings[index]
        self.newHeading = newHeading
    }

    /// The headings a heading path's parts reach, in order (each the first after the one before, letter case
    /// ignored); nil when a part reaches none. Empty parts (`Note##A`) are skipped.
    public static func resolve(_ parts: [String], in headings: [String]) -> [Int]? {
        let lowered = headings.map { $0.lowercased() }
        var reached: [Int] = []
        var from = 0
        for part in parts {
            let wanted = part.lowercased()
            guard let index = lowered[from...].firstIndex(of: wanted) else { return nil }
            reached.append(index)
            from = index + 1
        }
        return reached
    }

    public func plan(_ sources: [RelinkPlanner.Source]) -> RelinkPlanner.Result {
        var result = RelinkPlanner.Result()
        for source in sources {
            let kind = VaultFileKind(path: source.path)
            guard kind.isParsed else { continue }
            let parsed = kind == .canvas ? CanvasParser.parse(source.bytes, path: source.path) : NoteParser.parse(source.bytes, path: source.path, includeBodyText: false)
            let targets = resolver.resolveAll(parsed.links, from: source.path).map { $0.target.map { paths[$0] } }
            let toNote = parsed.links.indices.filter { targets[$0] == notePath && Self.isHeadingPath(parsed.links[$0].subpath) }
            var replacements: [(range: Range<Int>, text: String)] = []
            var edits: [RelinkPlanner.LinkEdit] = []
            var renamed = Set<Int>()
            func problem(_ line: Int?, _ message: String, isRhizomeFault: Bool = false) {
                result.problems.append(RelinkPlanner.Problem(path: source.path, line: line, column: nil, message: message, isRhizomeFault: isRhizomeFault))
            }
            let located = LinkLocator.locate(toNote.map { parsed.links[$0] }, in: source.bytes, isCanvas: kind == .canvas)
            for (position, index) in toNote.enumerated() {
                let link = parsed.links[index]
                let shown = "[[\(link.path)#\(link.subpath ?? "")]]"
                let parts = Self.parts(of: link.subpath ?? "")
                let before = Self.resolve(parts, in: oldHeadings)
                let touched = before.map { reached in reached.indices.filter { reached[$0] == renamedIndex } } ?? []
                guard !touched.isEmpty else {
                    // A link to another heading must still reach it. One that reached no heading and reaches
                    // the renamed one is said, as a move says the unresolved links it resolves.
                    let after = Self.resolve(parts, in: newHeadings)
                    if let before, after != before {
                        problem(link.line, "`\(shown)` reaches the heading `\(oldHeadings[before.last!])`, but after the rename it would reach another; choose a name no other heading of \(notePath) has")
                    } else if before == nil, let after {
                        result.newlyResolved.append(RelinkPlanner.NewlyResolved(
                            path: source.path, line: link.line, column: link.column, linkPath: link.path + "#" + (link.subpath ?? ""),
                            target: notePath + "#" + newHeadings[after.last!]))
                    }
                    continue
                }
                guard let place = located[position], let subpath = place.subpathRange else {
                    problem(link.line, "the link `\(shown)` must follow the heading, but its text could not be found exactly; edit it by hand")
                    continue
                }
                let raw = Self.rawParts(Array(source.bytes[subpath]), offset: subpath.lowerBound)
                guard raw.count == parts.count else {
                    problem(link.line, "the link `\(shown)` must follow the heading, but its parts could not be told apart; edit it by hand")
                    continue
                }
                guard let text = LinkPathWriter<Int>.encode(newHeading, for: place), !newHeading.contains("#") else {
                    problem(link.line, "the new heading `\(newHeading)` cannot be written in this link (links cannot carry `#`, `|` or `]]`)")
                    continue
                }
                var newParts = parts
                for part in touched { newParts[part] = newHeading }
                if Self.resolve(newParts, in: newHeadings) != before {
                    problem(link.line, "`\(shown)` would no longer reach the renamed heading (another heading of \(notePath) comes first); choose another name")
                    continue
                }
                // A part already written as the new name (a rename that only changes letter case, seen from
                // a link that spelled it the new way) is left alone and not counted.
                for part in touched where !source.bytes[raw[part]].elementsEqual(text.utf8) {
                    replacements.append((raw[part], text))
                    edits.append(RelinkPlanner.LinkEdit(
                        line: link.line, column: link.column, kind: link.kind,
                        oldText: String(decoding: source.bytes[raw[part]], as: UTF8.self), newText: text, target: notePath))
                }
                renamed.insert(index)
            }
            if source.path == notePath {
                guard let headingRange = Self.headingTextRange(at: renamedIndex, of: oldHeading, in: source.bytes, headings: parsed.headings) else {
                    problem(nil, "no heading `\(oldHeading)` in \(notePath)", isRhizomeFault: true)
                    continue
                }
                replacements.append((headingRange, newHeading))
            }
            guard !replacements.isEmpty else { continue }
            var newBytes = source.bytes
            for replacement in replacements.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
                newBytes.replaceSubrange(replacement.range, with: Array(replacement.text.utf8))
            }
            if let message = verify(newBytes, old: parsed, renamed: renamed, source: source.path, kind: kind, targets: targets) {
                problem(nil, "renaming the heading would \(message); nothing was planned for this file. Please report this with the note's text", isRhizomeFault: true)
                continue
            }
            result.fileEdits.append(RelinkPlanner.FileEdit(oldPath: source.path, newPath: source.path, oldBytes: source.bytes, newBytes: newBytes, edits: edits))
        }
        return result
    }

    /// Whether a link's subpath is a heading path, not a block (`^id`).
    static func isHeadingPath(_ subpath: String?) -> Bool {
        guard let subpath else { return false }
        return !subpath.trimmingSpaces.hasPrefix("^") && !parts(of: subpath).isEmpty
    }

    /// A heading path's parts, trimmed, empty ones skipped.
    public static func parts(of subpath: String) -> [String] {
        subpath.split(separator: "#").map { String($0).trimmingSpaces }.filter { !$0.isEmpty }
    }

    /// The byte ranges of a subpath's parts as written (trimmed of spaces, empty ones skipped), matching `parts(of:)`.
    static func rawParts(_ bytes: [UInt8], offset: Int) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = 0
        for end in bytes.indices.filter({ bytes[$0] == UInt8(ascii: "#") }) + [bytes.count] {
            var (lower, upper) = (start, end)
            while lower < upper, bytes[lower] == UInt8(ascii: " ") { lower += 1 }
            while upper > lower, bytes[upper - 1] == UInt8(ascii: " ") { upper -= 1 }
            if lower < upper { ranges.append(offset + lower..<offset + upper) }
            start = end + 1
        }
        return ranges
    }

    private func verify(_ newBytes: [UInt8], old: ParsedNote, renamed: Set<Int>, source: String, kind: VaultFileKind, targets: [String?]) -> String? {
        let new = kind == .canvas ? CanvasParser.parse(newBytes, path: source) : NoteParser.parse(newBytes, path: source, includeBodyText: false)
        guard new.links.count == old.links.count else { return "change how many links it has" }
        let reached = resolver.resolveAll(new.links, from: source).map { $0.target.map { paths[$0] } }
        for index in old.links.indices {
            let (before, after) = (old.links[index], new.links[index])
            var expected = before.subpath.map(Self.parts(of:))
            if renamed.contains(index), let parts = expected, let chain = Self.resolve(parts, in: oldHeadings) {
                expected = parts.indices.map { chain[$0] == renamedIndex ? newHeading : parts[$0] }
            }
            let afterParts = after.subpath.map(Self.parts(of:))
            guard after.kind == before.kind, after.path == before.path, after.display == before.display, reached[index] == targets[index],
                  afterParts == expected || afterParts?.map(\.removingPercentEncodingIfValid) == expected else {
                return "change the link at line \(before.line) beyond its heading"
            }
        }
        guard new.headings.map(\.level) == old.headings.map(\.level), new.tags.map(\.name) == old.tags.map(\.name), new.tasks.count == old.tasks.count else {
            return "change its headings, tags or tasks"
        }
        if source == notePath, new.headings.map(\.text) != newHeadings { return "not give the note the new heading in place of the old" }
        return nil
    }

    /// The bytes of a heading's text on its line: after an ATX heading's `#`s (before a closing run of `#`s),
    /// or a setext heading's whole line, trimmed.
    static func headingTextRange(at index: Int, of text: String, in bytes: [UInt8], headings: [Heading]) -> Range<Int>? {
        guard headings.indices.contains(index), headings[index].text == text else { return nil }
        let heading = headings[index]
        var lineStart = 0, line = 1
        while line < heading.line, let newline = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) {
            lineStart = newline + 1
            line += 1
        }
        var end = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
        if end > lineStart, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        var start = lineStart
        while start < end, bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: ">") { start += 1 }
        if start < end, bytes[start] == UInt8(ascii: "#") {
            while start < end, bytes[start] == UInt8(ascii: "#") { start += 1 }
            while start < end, bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: "\t") { start += 1 }
            // A closing sequence: spaces, then only `#`s to the end.
            var closing = end
            while closing > start, bytes[closing - 1] == UInt8(ascii: " ") || bytes[closing - 1] == UInt8(ascii: "\t") { closing -= 1 }
            var hashes = closing
            while hashes > start, bytes[hashes - 1] == UInt8(ascii: "#") { hashes -= 1 }
            if hashes < closing, hashes > start, bytes[hashes - 1] == UInt8(ascii: " ") { closing = hashes }
            end = closing
        }
        while end > start, bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: "\t") { end -= 1 }
        let range = start..<end
        return String(decoding: bytes[range], as: UTF8.self).lowercased() == heading.text.lowercased() ? range : nil
    }
}
