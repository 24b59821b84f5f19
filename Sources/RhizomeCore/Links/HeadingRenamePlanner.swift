/// Works out a heading's rename: the heading's own line in its note, and every link to that heading
/// (`[[Note#Old]]`, `[[Note#Parent#Old|shown]]`, `![[Note#Old]]`, `[x](Note.md#Old)`, and `[[#Old]]` inside the
/// note), each changed only in the last part of its subpath. Everything else keeps its bytes; each rewritten
/// file is parsed again and must hold the same links, reaching the same files, with only those subpaths
/// changed, or it is a `Problem`.
public struct HeadingRenamePlanner: Sendable {
    public let notePath: String
    public let oldHeading: String
    public let newHeading: String
    private let paths: [String]
    private let resolver: LinkResolver<Int>

    /// `filePaths`: every file of the vault; `notePath`: the note whose heading `oldHeading` (its text as
    /// the parser reads it) becomes `newHeading`.
    public init(filePaths: [String], notePath: String, oldHeading: String, newHeading: String) {
        paths = filePaths
        resolver = LinkResolver(files: filePaths.enumerated().map { (path: $0.element, id: $0.offset) })
        self.notePath = notePath
        self.oldHeading = oldHeading
        self.newHeading = newHeading
    }

    public func plan(_ sources: [RelinkPlanner.Source]) -> RelinkPlanner.Result {
        var result = RelinkPlanner.Result()
        for source in sources {
            let kind = VaultFileKind(path: source.path)
            guard kind.isParsed else { continue }
            let parsed = kind == .canvas ? CanvasParser.parse(source.bytes, path: source.path) : NoteParser.parse(source.bytes, path: source.path, includeBodyText: false)
            let targets = resolver.resolveAll(parsed.links, from: source.path).map { $0.target.map { paths[$0] } }
            let renamed = parsed.links.indices.filter { targets[$0] == notePath && refersToHeading(parsed.links[$0].subpath) }
            var replacements: [(range: Range<Int>, text: String)] = []
            var edits: [RelinkPlanner.LinkEdit] = []
            func problem(_ line: Int?, _ message: String) { result.problems.append(RelinkPlanner.Problem(path: source.path, line: line, column: nil, message: message)) }
            let located = LinkLocator.locate(renamed.map { parsed.links[$0] }, in: source.bytes, isCanvas: kind == .canvas)
            for (position, index) in renamed.enumerated() {
                let link = parsed.links[index]
                guard let place = located[position], let subpath = place.subpathRange else {
                    problem(link.line, "the link to `\(link.path)#\(link.subpath ?? "")` must follow the heading, but its text could not be found exactly; edit it by hand")
                    continue
                }
                // Only the last part of the subpath (`Parent#Old`) is the heading's own text.
                let raw = Array(source.bytes[subpath])
                let lastStart = (raw.lastIndex(of: UInt8(ascii: "#")).map { $0 + 1 }) ?? 0
                var partStart = subpath.lowerBound + lastStart
                while partStart < subpath.upperBound, source.bytes[partStart] == UInt8(ascii: " ") { partStart += 1 }
                guard let text = LinkPathWriter<Int>.encode(newHeading, for: place), !newHeading.contains("#") else {
                    problem(link.line, "the new heading `\(newHeading)` cannot be written in this link (links cannot carry `#`, `|` or `]]`)")
                    continue
                }
                replacements.append((partStart..<subpath.upperBound, text))
                edits.append(RelinkPlanner.LinkEdit(
                    line: link.line, column: link.column, kind: link.kind,
                    oldText: String(decoding: source.bytes[partStart..<subpath.upperBound], as: UTF8.self), newText: text, target: notePath))
            }
            if source.path == notePath {
                guard let headingRange = Self.headingTextRange(of: oldHeading, in: source.bytes, headings: parsed.headings) else {
                    problem(nil, "no heading `\(oldHeading)` in \(notePath)")
                    continue
                }
                replacements.append((headingRange, newHeading))
            }
            guard !replacements.isEmpty else { continue }
            var newBytes = source.bytes
            for replacement in replacements.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
                newBytes.replaceSubrange(replacement.range, with: Array(replacement.text.utf8))
            }
            if let message = verify(newBytes, old: parsed, renamed: Set(renamed), source: source.path, kind: kind, targets: targets) {
                problem(nil, "renaming the heading would \(message); nothing was planned for this file")
                continue
            }
            result.fileEdits.append(RelinkPlanner.FileEdit(oldPath: source.path, newPath: source.path, oldBytes: source.bytes, newBytes: newBytes, edits: edits))
        }
        return result
    }

    /// Whether a link's subpath names the heading (its last `#` part), not a block (`^id`).
    func refersToHeading(_ subpath: String?) -> Bool {
        guard let subpath, !subpath.hasPrefix("^") else { return false }
        let last = subpath.split(separator: "#", omittingEmptySubsequences: false).last.map { String($0).trimmingSpaces } ?? ""
        return last == oldHeading || last.lowercased() == oldHeading.lowercased()
    }

    private func verify(_ newBytes: [UInt8], old: ParsedNote, renamed: Set<Int>, source: String, kind: VaultFileKind, targets: [String?]) -> String? {
        let new = kind == .canvas ? CanvasParser.parse(newBytes, path: source) : NoteParser.parse(newBytes, path: source, includeBodyText: false)
        guard new.links.count == old.links.count else { return "change how many links it has" }
        let reached = resolver.resolveAll(new.links, from: source).map { $0.target.map { paths[$0] } }
        for index in old.links.indices {
            let (before, after) = (old.links[index], new.links[index])
            var expected = before.subpath
            if renamed.contains(index), let subpath = before.subpath {
                var parts = subpath.split(separator: "#", omittingEmptySubsequences: false).map(String.init)
                parts[parts.count - 1] = newHeading
                expected = parts.joined(separator: "#")
            }
            guard after.kind == before.kind, after.path == before.path, after.display == before.display, reached[index] == targets[index],
                  after.subpath?.trimmingSpaces == expected?.trimmingSpaces || after.subpath?.removingPercentEncodingIfValid == expected else {
                return "change the link at line \(before.line) beyond its heading"
            }
        }
        guard new.headings.map(\.level) == old.headings.map(\.level), new.tags.map(\.name) == old.tags.map(\.name), new.tasks.count == old.tasks.count else {
            return "change its headings, tags or tasks"
        }
        if source == notePath, !new.headings.contains(where: { $0.text == newHeading }) { return "not give the note the new heading" }
        return nil
    }

    /// The bytes of a heading's text on its line: after an ATX heading's `#`s (before a closing run of `#`s),
    /// or a setext heading's whole line, trimmed.
    static func headingTextRange(of text: String, in bytes: [UInt8], headings: [Heading]) -> Range<Int>? {
        guard let heading = headings.first(where: { $0.text == text }) ?? headings.first(where: { $0.text.lowercased() == text.lowercased() }) else { return nil }
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
