import Testing
@testable import RhizomeCore
@testable import RhizomeStore

/// The "plan" stage of an indexing run alone: a walk compared with the index's file states, no I/O.
@Suite struct IndexDeltaTests {
    static func file(_ path: String, size: Int64 = 10, time: Int64 = 100, realPath: String? = nil) -> ScannedFile {
        ScannedFile(path: path, diskPath: DiskPath("/vault/" + path), size: size, modificationTime: time, realPath: realPath)
    }

    static func state(_ id: Int64, _ path: String, size: Int64? = 10, time: Int64? = 100, realPath: String? = nil) -> IndexStore.FileState {
        IndexStore.FileState(id: id, path: path, size: size, modificationTime: time, contentHash: "h\(id)", realPath: realPath)
    }

    static let indexed: [String: IndexStore.FileState] = Dictionary(uniqueKeysWithValues: [
        state(1, "Same.md"), state(2, "Grown.md"), state(3, "Touched.md"), state(4, "Gone.md"),
        state(5, "Unreadable/Kept.md"), state(6, "Link.md", realPath: "/elsewhere/A.md"), state(7, "Written ahead.md", size: nil, time: nil),
    ].map { ($0.path, $0) })

    @Test func `a walk sorts files into added, changed, unchanged and removed, and keeps what it could not look at`() {
        var delta = IndexDelta(schemas: Indexer.LoadedSchemas(fingerprint: "none"))
        delta.compareWalk([
            Self.file("Same.md"), Self.file("Grown.md", size: 11), Self.file("Touched.md", time: 101), Self.file("New.md"),
            Self.file("Link.md", realPath: "/elsewhere/B.md"), Self.file("Written ahead.md"),
        ], with: Self.indexed, isUncertain: { $0.hasPrefix("Unreadable/") })
        #expect(delta.added.map(\.path) == ["New.md"])
        #expect(delta.changed.map(\.0.path) == ["Grown.md", "Touched.md", "Link.md", "Written ahead.md"], "size, time, symlink target, or no size at all")
        #expect(delta.unchanged == 1)
        #expect(delta.removed.map(\.path) == ["Gone.md"], "a file in a folder the walk could not read is not removed")
        #expect(!delta.changesNothing)
    }

    @Test func `a new parser makes every walked file changed, and an empty index makes every file new`() {
        var reparse = IndexDelta(schemas: Indexer.LoadedSchemas(fingerprint: "none"))
        reparse.forceReparse = true
        reparse.compareWalk([Self.file("Same.md")], with: Self.indexed, isUncertain: { _ in false })
        #expect(reparse.changed.map(\.1.id) == [1] && reparse.unchanged == 0)

        var first = IndexDelta(schemas: Indexer.LoadedSchemas(fingerprint: "none"))
        first.compareWalk([Self.file("A.md"), Self.file("B.md")], with: [:], isUncertain: { _ in false })
        #expect(first.added.map(\.path) == ["A.md", "B.md"] && first.removed.isEmpty)
    }

    @Test func `a look at some paths removes only the missing paths the index holds`() {
        var delta = IndexDelta(schemas: Indexer.LoadedSchemas(fingerprint: "none"))
        delta.compareScoped([Self.file("Same.md"), Self.file("Grown.md", size: 12), Self.file("Fresh.md")],
                            missing: ["Gone.md", "Never indexed.md"], with: Self.indexed)
        #expect(delta.added.map(\.path) == ["Fresh.md"])
        #expect(delta.changed.map(\.0.path) == ["Grown.md"])
        #expect(delta.unchanged == 1)
        #expect(delta.removed.map(\.id) == [4], "Same.md is unchanged, not removed, though the look at paths did not list the others")
    }

    @Test func `nothing found changes nothing, until the stored vault findings or schemas differ`() {
        var delta = IndexDelta(schemas: Indexer.LoadedSchemas(fingerprint: "none"))
        delta.compareScoped([Self.file("Same.md")], missing: [], with: Self.indexed)
        #expect(delta.changesNothing)
        delta.scanFindingsChanged = true
        #expect(!delta.changesNothing)
    }
}
