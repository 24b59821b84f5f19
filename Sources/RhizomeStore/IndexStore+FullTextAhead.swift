import RhizomeCore

/// Full text written ahead of a planned change, while the change itself is being written to the vault.
///
/// Replacing a note's full text is most of what re-indexing a rewritten note costs (FTS5 reads and
/// tokenizes the old text to remove it, then the new): 400 of 625 ms for the 1,000 notes a hub note's
/// rename rewrites. A change planned in full (`rhizome mv`) knows every note's new bytes before it
/// writes them, so their full text can go in on this thread while the journal writes the files on
/// another, and the re-index that follows leaves it as it is.
///
/// Safe in any order and after a kill, because the index says what it holds: each note written ahead
/// gets no size and time (so any later run sees it changed and reads it) and the content hash
/// `fts:<hash of the new bytes>` (`fullTextAheadMarker(forContentHash:)`). The writer leaves a note's full text alone
/// only when the bytes it reads have that hash; when the change did not happen, or someone else's run
/// indexed the note meanwhile (replacing the marker with a real hash), the full text is written as usual.
extension IndexStore {
    /// A note a change will rewrite in place: its vault-relative path and its bytes before and after.
    public struct PlannedRewrite: Sendable {
        public var path: String
        public var before: [UInt8]
        public var after: [UInt8]

        public init(path: String, before: [UInt8], after: [UInt8]) {
            self.path = path
            self.before = before
            self.after = after
        }
    }

    /// The content hash stored for a note whose full text holds the text of the bytes with `hash`.
    static func fullTextAheadMarker(forContentHash hash: String) -> String { "fts:" + hash }

    /// Writes the full text of the notes in `rewrites` as they will read after the change, and marks them
    /// for re-reading. Leaves out (to the re-index) every note it cannot do exactly as the indexer
    /// would: not indexed as `before`, frontmatter changed (the title holds the aliases), not valid UTF-8,
    /// holding NUL bytes or over the size limit. Returns how many notes it wrote.
    @discardableResult
    public func writeFullTextAhead(of rewrites: [PlannedRewrite], options: IndexOptions) throws -> Int {
        guard options.fullText, !rewrites.isEmpty else { return 0 }
        let lock = try lockForWriting()
        defer { lock.release() }
        let find = try connection.prepare("SELECT f.id, f.content_hash, t.title FROM file f JOIN note_fts t ON t.rowid = f.id WHERE f.path = ? AND f.kind = 'note'")
        let replace = try connection.prepare("INSERT OR REPLACE INTO note_fts(rowid, title, body) VALUES (?, ?, ?)")
        let mark = try connection.prepare("UPDATE file SET size = NULL, mtime_ns = NULL, content_hash = ? WHERE id = ?")
        var phases = PhaseTimer(enabled: options.tracePhases, label: "full text ahead")
        defer { phases.finish() }
        var written = 0
        try writeTransaction { () throws(StoreError) in
            defer { phases.mark("rows") }
            for rewrite in rewrites {
                guard let body = Self.bodyTextIfTitleKept(rewrite, maxBytes: options.maxNoteBytes) else { continue }
                find.reset()
                find.bind(.text(rewrite.path), at: 1)
                guard try find.step(), find.optionalText(1) == ContentHash.hex(of: rewrite.before) else { continue }
                let id = find.int(0), title = find.text(2)
                find.reset()
                try replace.bind(.integer(id), .text(title), .text(FullTextSegmenter.indexable(body))).run()
                try mark.bind(.text(Self.fullTextAheadMarker(forContentHash: ContentHash.hex(of: rewrite.after))), .integer(id)).run()
                written += 1
            }
        }
        phases.mark("commit")
        return written
    }

    /// The body text the indexer would store for `after`, when its frontmatter (and so the title the
    /// index holds) is byte for byte that of `before`; nil when the note must be left to the re-index.
    private static func bodyTextIfTitleKept(_ rewrite: PlannedRewrite, maxBytes: Int64) -> String? {
        let before = rewrite.before, after = rewrite.after
        guard Int64(after.count) <= maxBytes, UTF8Validation.firstInvalidOffset(after) == nil, !UTF8Validation.containsNUL(after),
              UTF8Validation.firstInvalidOffset(before) == nil else { return nil }
        let beforeBody = NoteParser.bodyOffset(of: before), afterBody = NoteParser.bodyOffset(of: after)
        guard before[..<beforeBody].elementsEqual(after[..<afterBody]) else { return nil }
        // `NoteParser.parse` reads the body after a byte-order mark and a closed frontmatter block.
        return String(decoding: after[afterBody...], as: UTF8.self)
    }
}
