import Foundation
import RhizomeCore
import RhizomeStore

/// Edits of one note: text appended or prepended (to the note or to a section), properties set or
/// removed, a note created. Each is a plan first (`NoteEditPlan`), applied through the journal like a move,
/// so it can be undone; `expectedHash` refuses a note that changed since the caller read it.
public struct NoteEditPlan: Sendable {
    /// Vault-relative path of the note.
    public var path: String
    /// Its bytes before (nil: the note is created) and after.
    public var oldBytes: [UInt8]?
    public var newBytes: [UInt8]
    /// What changed, for people and agents: `appended 2 lines under ## Log`, `set status`, …
    public var summary: String
    public var operation: VaultOperation
    /// The note's hash after the edit (what `read_note` will return).
    public var newHash: String { VaultOperation.FileState(bytes: newBytes).hash }
}

extension VaultEditor {
    /// The hash of a note's current bytes, as `expectedHash` arguments compare it (`read_note` returns it).
    public static func hash(of bytes: [UInt8]) -> String { VaultOperation.FileState(bytes: bytes).hash }

    /// Plans adding `text` at the end of the note (or of the section under `heading`), or with `atStart`
    /// right after the frontmatter (or right after the heading line). Line endings follow the note's.
    public func planInsert(_ text: String, into note: String, heading: String? = nil, atStart: Bool = false, expectedHash: String? = nil) throws -> NoteEditPlan {
        let (path, disk, bytes) = try readNote(note, expectedHash: expectedHash)
        let lines = NoteLines(bytes)
        let inserted = text.replacingOccurrences(of: "\r\n", with: "\n")
        let offset: Int
        var place = atStart ? "at the start" : "at the end"
        if let heading {
            let parsed = NoteParser.parse(bytes, path: path, includeBodyText: false)
            guard let index = Self.headingIndex(heading, in: parsed.headings) else {
                throw EditError.headingNotFound(path: path, heading: heading, headings: parsed.headings.map(\.text))
            }
            let found = parsed.headings[index]
            place = (atStart ? "under" : "at the end of") + " the section `\(found.text)`"
            if atStart {
                offset = lines.start(ofLine: found.line + 1)
            } else {
                // The section ends at the next heading of the same or a higher level, before its blank lines.
                let next = parsed.headings[(index + 1)...].first { $0.level <= found.level }
                offset = lines.endOfLastNonBlankLine(before: next?.line ?? Int.max, notBefore: found.line)
            }
        } else {
            offset = atStart ? lines.bodyStart : lines.endOfLastNonBlankLine(before: Int.max, notBefore: 0)
        }
        var newBytes = bytes
        let newline = lines.lineEnding(near: offset)
        var insertion = lines.normalized(text, newline: newline)
        // Text goes on lines of its own: a newline before it when it follows text on the same line.
        if offset > 0, offset <= bytes.count, bytes[offset - 1] != UInt8(ascii: "\n") { insertion = newline + insertion }
        if !insertion.hasSuffix(newline) { insertion += newline }
        newBytes.insert(contentsOf: Array(insertion.utf8), at: offset)
        // The note's frontmatter stays as it was: text whose first line is `---`, at the start of a note
        // without properties, would open a block that a later `---` closes, and Obsidian would read the
        // lines between as properties.
        guard NoteParser.bodyOffset(of: newBytes) == lines.bodyStart, newBytes.prefix(lines.bodyStart) == bytes.prefix(lines.bodyStart) else {
            // A note whose first line is a `---` that nothing closes: the text's `---` would close it,
            // wherever the text goes, and a blank line before it would not help.
            let opensUnclosed = NoteParser.bodyOffset(of: bytes + Array("\n---\n".utf8)) > lines.bodyStart
            throw EditError.refused(path: path, reason: opensUnclosed
                ? "the text would change its frontmatter: the note's first line is `---` and nothing closes it, so a line `---` in the text would, and Obsidian would read the lines between as properties; write the rule as `***` instead, or remove the note's first line"
                : "the text would change its frontmatter (Obsidian would read a line `---` at the top of the note as the start of its properties); put a blank line before the text, or change properties with `rhizome set`")
        }
        let count = inserted.split(separator: "\n", omittingEmptySubsequences: false).count - (inserted.hasSuffix("\n") ? 1 : 0)
        let summary = "\(atStart ? "prepended" : "appended") \(count) line\(count == 1 ? "" : "s") \(place) of \(path)"
        return try plan(path: path, disk: disk, oldBytes: bytes, newBytes: newBytes, kind: atStart ? "prepend" : "append", summary: summary)
    }

    /// Plans setting (a value) or removing (nil) frontmatter properties, with the editor `fix` uses: the
    /// body and every untouched line keep their bytes. When the note has a schema, an edit that adds an error
    /// finding is refused unless `force`.
    public func planProperties(_ changes: [(key: String, value: FrontmatterValue?)], of note: String, expectedHash: String? = nil, force: Bool = false) throws -> NoteEditPlan {
        let (path, disk, bytes) = try readNote(note, expectedHash: expectedHash)
        var editor: FrontmatterEditor
        do {
            editor = try FrontmatterEditor(fileBytes: bytes)
        } catch {
            throw EditError.frontmatterNotEditable(path: path, reason: error.description)
        }
        var said: [String] = []
        for (key, value) in changes {
            guard !key.isEmpty, !key.contains(":"), !key.hasPrefix("#"), key.trimmingSpaces == key else {
                throw EditError.invalidProperty(key: key, reason: "a key must not be empty, hold `:`, start with `#` or with spaces")
            }
            if let value {
                guard editor.setValue(value, forKey: key) else { throw EditError.invalidProperty(key: key, reason: "the YAML written for it would not read back as the value") }
                said.append("set \(key)")
            } else if editor.value(forKey: key) != nil {
                guard editor.removeKey(key) else { throw EditError.invalidProperty(key: key, reason: "removing it would leave invalid YAML (an alias to it?)") }
                said.append("removed \(key)")
            }
        }
        let newBytes = editor.renderedBytes()
        if !force {
            let catalog: SchemaCatalog
            do {
                catalog = try SchemaCatalog.load(vaultRoot: vaultPath)
            } catch {
                throw EditError.refused(path: path, reason: "the change cannot be checked against the vault's schemas (\(error)); fix the schema, or pass --force")
            }
            let checker = NoteChecker(catalog: catalog)
            func errors(_ bytes: [UInt8]) -> Set<String> {
                let parsed = NoteParser.parse(bytes, path: path, includeBodyText: false)
                return Set((parsed.findings + checker.check(parsed.frontmatter, path: path).findings).filter { $0.severity == .error }.map(\.message))
            }
            let parsedNew = NoteParser.parse(newBytes, path: path, includeBodyText: false)
            let added = errors(newBytes).subtracting(errors(bytes))
            if !added.isEmpty {
                let findings = (parsedNew.findings + checker.check(parsedNew.frontmatter, path: path).findings).filter { added.contains($0.message) }
                throw EditError.invalidResult(path: path, findings: findings)
            }
        }
        let summary = said.isEmpty ? "no property changed in \(path)" : said.joined(separator: ", ") + " in \(path)"
        return try plan(path: path, disk: disk, oldBytes: bytes, newBytes: newBytes, kind: "set", summary: summary)
    }

    /// Plans creating a note at `path` (vault-relative; `.md` added when missing) with `text`. Refuses an
    /// existing note of that name in any letter case or Unicode form, hidden folders and paths outside.
    public func planCreate(at path: String, text: String) throws -> NoteEditPlan {
        var relative = try vaultRelative(path)
        guard !relative.isEmpty else { throw EditError.invalidName(path: path, reason: "a note needs a name") }
        if VaultFileKind(path: relative) != .note { relative += ".md" }
        try checkVisible(relative, asDestination: true)
        for part in relative.split(separator: "/") { try checkName(String(part), path: relative) }
        try checkStaysInVault(relative)
        let files = try walk()
        if let existing = files.existingNote(named: relative) { throw EditError.destinationExists(path: String(existing.dropFirst(vaultPath.count + 1))) }
        if FileSystemEntry.at(vaultPath + "/" + relative) != .missing { throw EditError.destinationExists(path: relative) }
        let bytes = Array(text.utf8)
        let state = VaultOperation.FileState(bytes: bytes)
        let operation = VaultOperation(
            kind: "new", summary: "created \(relative)", steps: [.write(path: relative, before: nil, after: state)],
            result: [relative: state], createdFolders: missingFolders(above: relative))
        return NoteEditPlan(path: relative, oldBytes: nil, newBytes: bytes, summary: "created \(relative)", operation: operation)
    }

    @discardableResult
    public func apply(_ plan: NoteEditPlan) throws -> VaultOperation {
        let applied = try journal.apply(plan.operation, contents: [plan.newBytes] + (plan.oldBytes.map { [$0] } ?? []))
        try reindex(after: applied)
        return applied
    }

    // MARK: Helpers

    /// The heading a `heading` argument names: its exact text (a leading `#`s allowed), else the first
    /// that matches ignoring case.
    public static func headingIndex(_ heading: String, in headings: [Heading]) -> Int? {
        let wanted = String(heading.trimmingSpaces.drop(while: { $0 == "#" })).trimmingSpaces
        return headings.firstIndex { $0.text == wanted } ?? headings.firstIndex { $0.text.lowercased() == wanted.lowercased() }
    }

    /// Throws `.hashMismatch` when the note `argument` names no longer has `expectedHash` (for changes
    /// that take a note's hash but do not otherwise read it: moves, trash).
    public func checkHash(of argument: String, expectedHash: String) throws {
        _ = try readNote(argument, expectedHash: expectedHash)
    }

    /// A note argument resolved to its path, disk path and bytes, checked against `expectedHash`.
    func readNote(_ argument: String, expectedHash: String?) throws -> (path: String, disk: String, bytes: [UInt8]) {
        let files = try walk()
        let path = try resolveSource(argument, files: files)
        guard VaultFileKind(path: path) == .note, let disk = files.diskPath(of: path) else { throw EditError.notANote(path: path) }
        guard case .success(let bytes) = FileReader.read(DiskPath(disk), maxBytes: 16 << 20) else {
            throw EditError.refused(path: path, reason: "it cannot be read, or is over 16 MiB")
        }
        if let expectedHash, Self.hash(of: bytes) != expectedHash {
            throw EditError.hashMismatch(path: path, expected: expectedHash, actual: Self.hash(of: bytes))
        }
        try checkRewritable(path, diskPath: disk, files: files, why: "the edit would rewrite it")
        return (path, disk, bytes)
    }

    private func plan(path: String, disk: String, oldBytes: [UInt8], newBytes: [UInt8], kind: String, summary: String) throws -> NoteEditPlan {
        let relative = String(disk.dropFirst(vaultPath.count + 1))
        let after = VaultOperation.FileState(bytes: newBytes)
        let steps: [VaultOperation.Step] = newBytes == oldBytes ? [] : [.write(path: relative, before: VaultOperation.FileState(bytes: oldBytes), after: after)]
        let operation = VaultOperation(kind: kind, summary: summary, steps: steps, result: [relative: after])
        return NoteEditPlan(path: path, oldBytes: oldBytes, newBytes: newBytes, summary: summary, operation: operation)
    }
}

/// A note's lines, for placing inserted text: where each starts, where the body starts, its line ending.
struct NoteLines {
    let bytes: [UInt8]
    /// Byte offset of each line's start (line 1 at index 0).
    let starts: [Int]
    /// Where the body starts (after a BOM and the frontmatter block).
    let bodyStart: Int

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var starts = [0]
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { starts.append(index + 1) }
        self.starts = starts
        bodyStart = NoteParser.bodyOffset(of: bytes)
    }

    /// The start of 1-based `line` (the end of the text past the last line).
    func start(ofLine line: Int) -> Int { line - 1 < starts.count ? starts[line - 1] : bytes.count }

    /// The end (after its line ending) of the last line before `line` that is not blank, but not before
    /// `notBefore`'s end; the body's start when there is none.
    func endOfLastNonBlankLine(before line: Int, notBefore: Int) -> Int {
        var candidate = min(line - 1, starts.count) - 1  // 0-based index of the line before `line`
        while candidate >= max(notBefore, 0) {
            let start = starts[candidate]
            let end = candidate + 1 < starts.count ? starts[candidate + 1] : bytes.count
            if start >= bodyStart, bytes[start..<end].contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) { return end }
            candidate -= 1
        }
        return notBefore > 0 ? start(ofLine: notBefore + 1) : bodyStart
    }

    /// The line ending where text goes in at `offset`: the following line's, else the previous line's, else
    /// `\n` (a note may mix them: frontmatter written by one tool, the body by another).
    func lineEnding(near offset: Int) -> String {
        func ending(ofLineEndingAt newline: Int) -> String { newline > 0 && bytes[newline - 1] == UInt8(ascii: "\r") ? "\r\n" : "\n" }
        if let next = bytes[min(offset, bytes.count)...].firstIndex(of: UInt8(ascii: "\n")) { return ending(ofLineEndingAt: next) }
        if let previous = bytes[..<min(offset, bytes.count)].lastIndex(of: UInt8(ascii: "\n")) { return ending(ofLineEndingAt: previous) }
        return "\n"
    }

    /// `text` with `newline` line endings.
    func normalized(_ text: String, newline: String) -> String {
        let lf = text.replacingOccurrences(of: "\r\n", with: "\n")
        return newline == "\n" ? lf : lf.replacingOccurrences(of: "\n", with: "\r\n")
    }
}

extension VaultEditor {
    /// Plans setting the status character of the task on `line` of a note (` ` open, `x` done, or any
    /// other character Obsidian's themes give meaning to). Only that character changes.
    public func planTaskStatus(_ status: Character, note: String, line: Int, expectedHash: String? = nil) throws -> NoteEditPlan {
        let (path, disk, bytes) = try readNote(note, expectedHash: expectedHash)
        guard status.unicodeScalars.count == 1, status != "\n", status != "\r", status != "]" else {
            throw EditError.invalidProperty(key: "status", reason: "a task's status is one character other than `]` or a line break")
        }
        let tasks = NoteParser.parse(bytes, path: path, includeBodyText: false).tasks
        guard let task = tasks.first(where: { $0.line == line }) else {
            // The three nearest, in line order.
            let nearby = tasks.map(\.line).sorted { abs($0 - line) < abs($1 - line) }.prefix(3).sorted().map(String.init).joined(separator: ", ")
            throw EditError.refused(path: path, reason: "line \(line) holds no task\(nearby.isEmpty ? " (the note has none)" : "; the nearest tasks are on lines \(nearby)")")
        }
        let lines = NoteLines(bytes)
        let start = lines.start(ofLine: line)
        let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
        // The first `[c]` after the list marker is the task's box (quotes and indentation before it).
        guard let open = bytes[start..<end].firstIndex(of: UInt8(ascii: "[")) else {
            throw EditError.refused(path: path, reason: "the task on line \(line) has no `[ ]` box")
        }
        let oldStatus = Array(task.status.utf8)
        let boxEnd = open + 1 + oldStatus.count
        guard boxEnd < end, Array(bytes[(open + 1)..<boxEnd]) == oldStatus, bytes[boxEnd] == UInt8(ascii: "]") else {
            throw EditError.refused(path: path, reason: "the task on line \(line) could not be read again exactly")
        }
        var newBytes = bytes
        newBytes.replaceSubrange((open + 1)..<boxEnd, with: Array(String(status).utf8))
        let described = status == " " ? "open" : status == "x" || status == "X" ? "done" : "`\(status)`"
        return try plan(path: path, disk: disk, oldBytes: bytes, newBytes: newBytes, kind: "task",
                        summary: "marked the task on line \(line) of \(path) \(described)")
    }
}
