import Dispatch
import Foundation

/// Works out the link text that keeps the graph as it is when files move: after the move, every link
/// reaches the file it reached before (at its new path), and every other byte of every file stays.
///
/// For each link of the notes and canvases it is given, it resolves the link before the move (from the
/// source's old path, among the old paths) and after it (from the source's new path, among the new
/// paths, with the text unchanged). Where the two differ, only the link's path text is rewritten, in the
/// form `LinkPathWriter` picks. That covers links to moved files, relative links inside moved notes, and
/// links to files that did not move but that a moved file's new name would take over. A link that was
/// unresolved keeps its text; when a moved file's new name makes it resolve, that is reported.
///
/// Each rewritten file is read back: its links, tags, headings, blocks and tasks must equal the old
/// ones but for the rewritten paths, and each link must reach its expected file, or the file is a
/// `Problem` and must not be written.
///
/// Which files to give it: every file with a link whose resolve key is a moved file's old or new key,
/// and every moved note or canvas (the resolver's rule: only files sharing a link's key can be its target).
public struct RelinkPlanner: Sendable {
    /// A note or canvas whose links may need new text.
    public struct Source: Sendable {
        public var path: String
        public var bytes: [UInt8]

        public init(path: String, bytes: [UInt8]) {
            self.path = path
            self.bytes = bytes
        }
    }

    /// One rewritten link.
    public struct LinkEdit: Sendable, Hashable, Codable {
        /// Where the link starts in the file before the change.
        public var line: Int
        public var column: Int
        public var kind: LinkOccurrence.Kind
        /// The path text as written before and after (the rest of the link is kept).
        public var oldText: String
        public var newText: String
        /// The file the link reaches, at its path after the move.
        public var target: String
    }

    /// A file whose text changes.
    public struct FileEdit: Sendable {
        /// Its path before and after the move (equal when it does not move).
        public var oldPath: String
        public var newPath: String
        public var oldBytes: [UInt8]
        public var newBytes: [UInt8]
        public var edits: [LinkEdit]
    }

    /// An unresolved link that a moved file's new name will resolve.
    public struct NewlyResolved: Sendable, Hashable, Codable {
        public var path: String
        public var line: Int
        public var column: Int
        public var linkPath: String
        public var target: String

        public init(path: String, line: Int, column: Int, linkPath: String, target: String) {
            (self.path, self.line, self.column, self.linkPath, self.target) = (path, line, column, linkPath, target)
        }
    }

    /// A link whose target cannot be kept by rewriting its text; the move must not go ahead.
    /// Most are the user's to fix (a file that is not UTF-8, a name no link can carry, a link to edit by
    /// hand); `isRhizomeFault` marks the one that is a bug of Rhizome's (a rewrite that did not read back
    /// as planned), which is reported as Rhizome's failure, not the user's mistake.
    public struct Problem: Sendable, Hashable, Codable, CustomStringConvertible {
        public var path: String
        public var line: Int?
        public var column: Int?
        public var message: String
        public var isRhizomeFault: Bool

        public init(path: String, line: Int?, column: Int?, message: String, isRhizomeFault: Bool = false) {
            (self.path, self.line, self.column, self.message, self.isRhizomeFault) = (path, line, column, message, isRhizomeFault)
        }

        public var description: String {
            var location = path
            if let line { location += ":\(line)" }
            if let column { location += ":\(column)" }
            return "\(location): \(message)"
        }
    }

    public struct Result: Sendable {
        public var fileEdits: [FileEdit] = []
        public var newlyResolved: [NewlyResolved] = []
        public var problems: [Problem] = []
    }

    public let oldPaths: [String]
    public let newPaths: [String]
    private let oldResolver: LinkResolver<Int>
    private let newResolver: LinkResolver<Int>
    private let writer: LinkPathWriter<Int>
    private let moves: [String: String]
    /// `affectedKeys`, computed once.
    private let affected: Set<String>

    /// `filePaths`: every file of the vault (notes, canvases, attachments); `moves`: old path → new path
    /// of each file that moves.
    public init(filePaths: [String], moves: [String: String], format: ObsidianSettings.LinkFormat) {
        oldPaths = filePaths
        newPaths = filePaths.map { moves[$0] ?? $0 }
        self.moves = moves
        // The two resolvers at once on a large vault (each is ~30 ms at 10,000 files).
        let resolvers = Self.resolvers(for: [oldPaths, newPaths], concurrently: filePaths.count >= 2_000)
        oldResolver = resolvers[0]
        newResolver = resolvers[1]
        writer = LinkPathWriter(resolver: newResolver, format: format)
        affected = Set(moves.flatMap { [LinkResolver<Int>.resolveKey(ofFilePath: $0.key), LinkResolver<Int>.resolveKey(ofFilePath: $0.value)] })
    }

    private static func resolvers(for pathLists: [[String]], concurrently: Bool) -> [LinkResolver<Int>] {
        let build: @Sendable ([String]) -> LinkResolver<Int> = { paths in LinkResolver(files: paths.enumerated().map { (path: $0.element, id: $0.offset) }) }
        guard concurrently else { return pathLists.map(build) }
        let built = ThreadSlots<LinkResolver<Int>>(count: pathLists.count)
        DispatchQueue.concurrentPerform(iterations: pathLists.count) { built.set($0, build(pathLists[$0])) }
        return built.values
    }

    /// The resolve keys a link must have to be affected: those of the moved files' old and new paths.
    public var affectedKeys: Set<String> { affected }

    /// Plans every source; on two threads when there are many (each source is planned on its own, and the
    /// results are put back in the sources' order).
    public func plan(_ sources: [Source]) -> Result {
        guard sources.count >= 64 else {
            var result = Result()
            for source in sources { plan(source, into: &result) }
            return result
        }
        let workers = 2
        let parts = ThreadSlots<Result>(count: workers)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var result = Result()
            var index = worker
            while index < sources.count {
                plan(sources[index], into: &result)
                index += workers
            }
            parts.set(worker, result)
        }
        // Back in the sources' order: edits and problems by path.
        let order = Dictionary(uniqueKeysWithValues: sources.enumerated().map { ($0.element.path, $0.offset) })
        var merged = Result()
        for part in parts.values {
            merged.fileEdits += part.fileEdits
            merged.newlyResolved += part.newlyResolved
            merged.problems += part.problems
        }
        merged.fileEdits.sort { order[$0.oldPath, default: 0] < order[$1.oldPath, default: 0] }
        merged.newlyResolved.sort { ($0.path, $0.line, $0.column) < ($1.path, $1.line, $1.column) }
        merged.problems.sort { order[$0.path, default: 0] < order[$1.path, default: 0] }
        return merged
    }

    private func plan(_ source: Source, into result: inout Result) {
        let kind = VaultFileKind(path: source.path)
        guard kind.isParsed else { return }
        let newSourcePath = moves[source.path] ?? source.path
        let parsed = Self.parse(source.bytes, path: source.path, kind: kind)
        // Only a link sharing a moved file's old or new key can reach another file after the move (the
        // resolver's rule: only files of its key are candidates), unless its source moves too (relative
        // paths, and the choice among files of one name, depend on the source's folder). The others keep
        // their target and their text; 1 link in 12 is checked when a note with many backlinks moves.
        let checked = newSourcePath != source.path
            ? Array(parsed.links.indices)
            : parsed.links.indices.filter { affected.contains(LinkResolver<Int>.resolveKey(ofLinkPath: parsed.links[$0].path)) }
        let checkedLinks = checked.map { parsed.links[$0] }
        let before = oldResolver.resolveAll(checkedLinks, from: source.path)
        let after = newResolver.resolveAll(checkedLinks, from: newSourcePath)
        /// The file each checked link must reach after the move, by the link's index.
        var expected: [Int: String?] = [:]
        var needsText: [Int] = []
        for (position, index) in checked.enumerated() {
            let link = parsed.links[index]
            let want = before[position].target.map { newPaths[$0] }
            let have = after[position].target.map { newPaths[$0] }
            if want == nil, let have {
                result.newlyResolved.append(NewlyResolved(path: newSourcePath, line: link.line, column: link.column, linkPath: link.path, target: have))
                expected[index] = have
            } else {
                expected[index] = want
                // A canvas names its file by exact path (Obsidian looks it up as written), so a moved
                // file's node gets its new path even where the old text would still resolve, as after a
                // rename that only changes letter case.
                let movedTarget = before[position].target.map { oldPaths[$0] != newPaths[$0] } ?? false
                if want != have || (link.kind == .canvasFile && movedTarget && link.path != want) { needsText.append(index) }
            }
        }
        guard !needsText.isEmpty else { return }
        if UTF8Validation.firstInvalidOffset(source.bytes) != nil {
            result.problems.append(Problem(
                path: source.path, line: nil, column: nil,
                message: "links in this file must be rewritten, but it is not valid UTF-8; re-save it as UTF-8 first"))
            return
        }
        let located = LinkLocator.locate(needsText.map { parsed.links[$0] }, in: source.bytes, isCanvas: kind == .canvas)
        var replacements: [(range: Range<Int>, text: String)] = []
        var edits: [LinkEdit] = []
        var failed = false
        for (position, index) in needsText.enumerated() {
            let link = parsed.links[index]
            guard let target = expected[index] ?? nil else { continue }
            guard let place = located[position] else {
                result.problems.append(Problem(
                    path: source.path, line: link.line, column: link.column,
                    message: "the link to `\(link.path)` must be rewritten to keep reaching \(target), but its text could not be found exactly; edit it by hand"))
                failed = true
                continue
            }
            guard let text = writer.pathText(reaching: target, from: newSourcePath, for: place) else {
                result.problems.append(Problem(
                    path: source.path, line: link.line, column: link.column,
                    message: "no link text in this note can reach \(target) after the move (its name holds characters a link cannot carry)"))
                failed = true
                continue
            }
            replacements.append((place.pathRange, text))
            edits.append(LinkEdit(
                line: link.line, column: link.column, kind: link.kind,
                oldText: String(decoding: source.bytes[place.pathRange], as: UTF8.self), newText: text, target: target))
        }
        guard !failed else { return }
        var newBytes = source.bytes
        for replacement in replacements.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
            newBytes.replaceSubrange(replacement.range, with: Array(replacement.text.utf8))
        }
        if let problem = verify(newBytes, of: parsed, kind: kind, source: source.path, newSourcePath: newSourcePath, expected: expected) {
            result.problems.append(problem)
            return
        }
        result.fileEdits.append(FileEdit(oldPath: source.path, newPath: newSourcePath, oldBytes: source.bytes, newBytes: newBytes, edits: edits))
    }

    /// Reads the rewritten file back: the same elements, each link reaching what it must.
    private func verify(
        _ newBytes: [UInt8], of old: ParsedNote, kind: VaultFileKind, source: String, newSourcePath: String, expected: [Int: String?]
    ) -> Problem? {
        let new = Self.parse(newBytes, path: source, kind: kind)
        func problem(_ message: String) -> Problem {
            Problem(
                path: source, line: nil, column: nil,
                message: "rewriting its links would \(message); nothing was planned for it. Please report this with the note's text", isRhizomeFault: true)
        }
        guard new.links.count == old.links.count else { return problem("change how many links it has (\(old.links.count) → \(new.links.count))") }
        // The checked links must reach what they must; the others keep their text (and so their target).
        let checked = expected.keys.sorted()
        let reached = newResolver.resolveAll(checked.map { new.links[$0] }, from: newSourcePath)
        for (position, index) in checked.enumerated() where reached[position].target.map({ newPaths[$0] }) != expected[index] ?? nil {
            return problem("leave the link at line \(old.links[index].line) reaching another file")
        }
        for (index, (oldLink, newLink)) in zip(old.links, new.links).enumerated() {
            guard oldLink.kind == newLink.kind, oldLink.subpath == newLink.subpath, oldLink.display == newLink.display,
                  oldLink.propertyKey == newLink.propertyKey, oldLink.isMarkdownSyntax == newLink.isMarkdownSyntax else {
                return problem("change the link at line \(oldLink.line) beyond its path")
            }
            guard expected[index] != nil || oldLink.path == newLink.path else {
                return problem("change the link at line \(oldLink.line), which needed no change")
            }
        }
        // A heading's text may hold a rewritten link (`### [[Properties]]`): headings are compared by level and line.
        guard new.tags.map(\.name) == old.tags.map(\.name), new.headings.map(\.level) == old.headings.map(\.level),
              new.headings.map(\.line) == old.headings.map(\.line),
              new.blocks.map(\.id) == old.blocks.map(\.id), new.tasks.count == old.tasks.count,
              (new.frontmatter == nil) == (old.frontmatter == nil), new.aliases == old.aliases else {
            return problem("change its tags, headings, blocks, tasks or properties")
        }
        return nil
    }

    static func parse(_ bytes: [UInt8], path: String, kind: VaultFileKind) -> ParsedNote {
        kind == .canvas ? CanvasParser.parse(bytes, path: path) : NoteParser.parse(bytes, path: path, includeBodyText: false)
    }
}

/// What threads working in parallel hand back, one slot each (planning results, resolvers).
private final class ThreadSlots<Value: Sendable>: Sendable {
    private let slots: Locked<[Value?]>

    init(count: Int) { slots = Locked(Array(repeating: nil, count: count)) }

    func set(_ slot: Int, _ value: Value) {
        slots.withLock { $0[slot] = value }
    }

    /// The values set, in slot order.
    var values: [Value] {
        slots.withLock { $0.compactMap { $0 } }
    }
}
