/// Resolves link paths to vault files exactly as Obsidian does (docs/OBSIDIAN.md, "Resolving a
/// link path to a file"). This is the only place resolution rules live.
///
/// Rules, in order:
/// 1. Matching is case-insensitive and in Unicode NFC.
/// 2. `.md` is optional for notes; other files need their extension.
/// 3. Markdown links and `./`/`../` paths are first tried relative to the source note's folder.
/// 4. An exact vault-relative path wins (`[[Folder/Note]]`, or `[[Note]]` when `Note.md` is at the root).
/// 5. Otherwise the file name (or, for a path with folders, the path suffix) is matched anywhere; among
///    several: the one in the source's own folder, else the shortest path (fewest characters), else the
///    alphabetically first path (byte order).
/// 6. Aliases never resolve links.
///
/// Resolution of a link depends only on the files sharing its `resolveKey` (the lowercased file name
/// without `.md`), which is what incremental indexing uses to re-resolve exactly the affected links.
public struct LinkResolver<FileID: Hashable & Sendable>: Sendable {
    public struct File: Sendable, Hashable {
        public var path: String
        public var id: FileID
    }

    private var ids: [FileID] = []
    /// Everything but the ids: the rules run here, in code that is not generic (the resolver is used
    /// from other modules, where generic code would run unspecialized, looking up type metadata per file).
    private var table = FileTable()

    public init<S: Sequence>(files: S) where S.Element == (path: String, id: FileID) {
        ids.reserveCapacity(files.underestimatedCount)
        table.reserveCapacity(files.underestimatedCount)
        for (path, id) in files { insert(path: path, id: id) }
    }

    public mutating func insert(path: String, id: FileID) {
        ids.append(id)
        table.insert(path: path)
    }

    public var count: Int { ids.count }

    /// The file a link points to, or nil if it is unresolved.
    public func resolve(_ link: LinkOccurrence, from sourcePath: String) -> File? {
        file(at: table.resolve(normalizedPath: link.path, relativeFirst: link.isMarkdownSyntax, source: FileTable.Source(path: sourcePath)))
    }

    /// A link's target and its resolve key (what incremental indexing re-resolves by).
    public struct Resolution: Sendable {
        public var target: FileID?
        public var key: String
    }

    /// Resolves all links of one note (faster than one by one: the source folder is computed once and
    /// repeated link paths are resolved once).
    // Specialized here for the id types in use: called from other modules, generic code runs unspecialized
    // (type metadata looked up per link; 20% of resolving in a first index).
    @_specialize(exported: true, where FileID == Int64)
    @_specialize(exported: true, where FileID == Int)
    public func resolveAll(_ links: [LinkOccurrence], from sourcePath: String) -> [Resolution] {
        var memo = FileTable.Memo()
        return resolveAll(links, from: sourcePath, memo: &memo)
    }

    /// A resolver that remembers what it resolved, for one thread resolving the links of many notes (a
    /// first index): the same link paths recur from note to note, and most resolve the same way from any
    /// folder. Use one session per thread; results equal `resolveAll`'s.
    public final class Session: @unchecked Sendable {  // hot path: an unlocked memo, one session per thread
        private let resolver: LinkResolver
        private var memo = FileTable.Memo()

        /// `maximumEntries`: how many resolutions it remembers before it forgets them all and starts again.
        public init(_ resolver: LinkResolver, maximumEntries: Int = 40_000) {
            self.resolver = resolver
            memo.maximumEntries = max(1, maximumEntries)
            // Sized once for all it may hold (a few MB of address space, touched only as it fills), rather
            // than rehashed every time it doubles.
            memo.entries.reserveCapacity(memo.maximumEntries)
        }

        @_specialize(exported: true, where FileID == Int64)
        @_specialize(exported: true, where FileID == Int)
        public func resolveAll(_ links: [LinkOccurrence], from sourcePath: String) -> [Resolution] {
            resolver.resolveAll(links, from: sourcePath, memo: &memo)
        }
    }

    @_specialize(where FileID == Int64)
    @_specialize(where FileID == Int)
    private func resolveAll(_ links: [LinkOccurrence], from sourcePath: String, memo: inout FileTable.Memo) -> [Resolution] {
        table.resolveAll(links, from: sourcePath, memo: &memo).map { Resolution(target: $0.index.map { ids[$0] }, key: $0.key) }
    }

    /// Resolves a link path as written in a note at `sourcePath` (use `""` for the vault root).
    public func resolve(linkPath rawPath: String, relativeFirst: Bool = false, from sourcePath: String) -> File? {
        file(at: table.resolve(normalizedPath: UnicodeNormalization.nfc(rawPath), relativeFirst: relativeFirst, source: FileTable.Source(path: sourcePath)))
    }

    /// The key shared by a file and every link that can resolve to it: the lowercased NFC file name,
    /// without `.md` for notes.
    public static func resolveKey(ofFilePath path: String) -> String { FileTable.resolveKey(ofFilePath: path) }

    /// The key of a link path: see `resolveKey(ofFilePath:)`. Empty for same-note links (`[[#Heading]]`).
    public static func resolveKey(ofLinkPath path: String) -> String { FileTable.resolveKey(ofLinkPath: path) }

    private func file(at index: Int?) -> File? {
        index.map { File(path: table.entries[$0].path, id: ids[$0]) }
    }
}

/// The files a resolver knows, by position, with the keys the rules match on.
private struct FileTable: Sendable {
    struct Entry: Sendable, Equatable {
        var path: String
        var pathKey: String
        var folderKey: String
        var nameKey: String
        /// `pathKey` and `nameKey` without their last `.md`, for notes (nil for other files): what
        /// `[[Name]]` must equal to match `Name.md`, compared without building `key + ".md"`.
        var notePathKey: String?
        var noteNameKey: String?
        /// The path's length in Unicode scalars (the "shortest path" tie-break), counted once.
        var pathLength: Int
    }

    struct Source {
        var path: String
        var folder: String
        var folderKey: String

        init(path: String) {
            self.path = path
            folder = VaultPath.folder(of: path)
            folderKey = UnicodeNormalization.matchKey(folder)
        }
    }

    private(set) var entries: [Entry] = []
    // Keyed by bytes (`ByteKey`): every key is normalized (NFC, lowercased) before it is stored or looked up.
    private var indexesByResolveKey: [ByteKey: [Int]] = [:]
    private var indexesByPathKey: [ByteKey: [Int]] = [:]
    /// Notes by their path key without the last `.md`: `exactPath(key + ".md")` without building the string.
    private var indexesByNotePathKey: [ByteKey: [Int]] = [:]

    /// Room for `count` files (a vault's files are many: growing the tables one by one rehashes them often).
    mutating func reserveCapacity(_ count: Int) {
        entries.reserveCapacity(count)
        indexesByResolveKey.reserveCapacity(count)
        indexesByPathKey.reserveCapacity(count)
        indexesByNotePathKey.reserveCapacity(count)
    }

    mutating func insert(path: String) {
        let (entry, resolveKey) = Self.asciiEntry(for: path) ?? Self.entry(for: path)
        // Debug builds (the tests) check the fast path against the general one for every file they index.
        assert({ let general = Self.entry(for: path); return general.entry == entry && general.resolveKey == resolveKey }(),
               "asciiEntry(for: \(path)) differs from entry(for:)")
        let index = entries.count
        entries.append(entry)
        indexesByResolveKey[ByteKey(resolveKey), default: []].append(index)
        indexesByPathKey[ByteKey(entry.pathKey), default: []].append(index)
        if let notePathKey = entry.notePathKey { indexesByNotePathKey[ByteKey(notePathKey), default: []].append(index) }
    }

    /// A file's entry and resolve key, for any path: normalized, then taken apart as characters.
    private static func entry(for path: String) -> (entry: Entry, resolveKey: String) {
        let pathKey = UnicodeNormalization.matchKey(path)
        let nameKey = String(VaultPath.fileName(of: pathKey))
        let isNote = pathKey.utf8.count > 3 && pathKey.utf8.suffix(3).elementsEqual(".md".utf8)
        let entry = Entry(
            path: path, pathKey: pathKey, folderKey: VaultPath.folder(of: pathKey), nameKey: nameKey,
            notePathKey: isNote ? String(pathKey.utf8.dropLast(3))! : nil, noteNameKey: isNote ? String(nameKey.utf8.dropLast(3))! : nil,
            pathLength: path.unicodeScalars.count)
        return (entry, resolveKey(ofFilePath: path))
    }

    /// `entry(for:)` of an ASCII path (nil for any other), from its bytes in one pass: ASCII is already NFC,
    /// lowercasing is per byte, every `/` is a character of its own, and the length in scalars is the
    /// length in bytes. Most vaults' paths are ASCII, and a resolver is built over every file of the vault
    /// (twice for a move's plan, once for a re-index).
    private static func asciiEntry(for path: String) -> (entry: Entry, resolveKey: String)? {
        var path = path
        let scan = path.withUTF8 { bytes -> (slash: Int, hasUppercase: Bool)? in
            var slash = -1, hasUppercase = false
            for offset in bytes.indices {
                let byte = bytes[offset]
                if byte >= 0x80 { return nil }
                if byte == UInt8(ascii: "/") { slash = offset } else if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { hasUppercase = true }
            }
            return (slash, hasUppercase)
        }
        guard let scan else { return nil }
        var pathKey = scan.hasUppercase ? path.lowercased() : path
        var made = pathKey.withUTF8 { key -> (entry: Entry, resolveKey: String) in
            let count = key.count, nameStart = scan.slash + 1
            func text(_ range: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: key[range]), as: UTF8.self) }
            func endsInMD(_ end: Int, from start: Int) -> Bool {
                end - start >= 3 && key[end - 3] == UInt8(ascii: ".") && key[end - 2] == UInt8(ascii: "m") && key[end - 1] == UInt8(ascii: "d")
            }
            let isNote = count > 3 && endsInMD(count, from: 0)
            // The resolve key strips every trailing `.md` of the name (`report.md.md` → `report`).
            var keyEnd = count
            while endsInMD(keyEnd, from: nameStart) { keyEnd -= 3 }
            let entry = Entry(
                path: "", pathKey: "", folderKey: scan.slash < 0 ? "" : text(0..<scan.slash), nameKey: text(nameStart..<count),
                notePathKey: isNote ? text(0..<(count - 3)) : nil, noteNameKey: isNote ? text(nameStart..<(count - 3)) : nil,
                pathLength: count)
            return (entry, text(nameStart..<keyEnd))
        }
        made.entry.path = path
        made.entry.pathKey = pathKey  // the path itself when it is lowercase already: no copy
        return made
    }

    /// Resolutions already worked out, by link path: those that hold from any folder, and, for link paths
    /// whose resolution depends on the source's folder, those per folder.
    struct Memo {
        /// Link paths and folders by their bytes: a spelling of its own is at worst resolved once more.
        struct Key: Hashable {
            var path: ByteKey
            var isMarkdownSyntax: Bool
            /// nil: the entry holds from any folder, or says that the path depends on the folder.
            var folder: ByteKey?
        }

        struct Entry {
            var index: Int?
            var key: String
            var dependsOnFolder: Bool
        }

        var entries: [Key: Entry] = [:]
        /// The memo is emptied when it reaches this many entries: its memory stays bounded (a few MB) in
        /// vaults with hundreds of thousands of link paths, and recent paths are remembered again.
        var maximumEntries = 40_000

        mutating func remember(_ entry: Entry, for key: Key) {
            if entries.count >= maximumEntries { entries.removeAll(keepingCapacity: true) }
            entries[key] = entry
        }
    }

    func resolveAll(_ links: [LinkOccurrence], from sourcePath: String, memo: inout Memo) -> [(index: Int?, key: String)] {
        var source: Source? = nil
        let folder = VaultPath.folder(of: sourcePath)
        return links.map { link in
            // `[[#Heading]]`: the note itself (its key is empty).
            if link.path.isEmpty {
                let resolvedSource = source ?? Source(path: sourcePath)
                source = resolvedSource
                return (resolve(normalizedPath: "", relativeFirst: false, source: resolvedSource), "")
            }
            let anyFolder = Memo.Key(path: ByteKey(link.path), isMarkdownSyntax: link.isMarkdownSyntax, folder: nil)
            var folderKey: Memo.Key? = nil
            if let known = memo.entries[anyFolder] {
                guard known.dependsOnFolder else { return (known.index, known.key) }
                let key = Memo.Key(path: ByteKey(link.path), isMarkdownSyntax: link.isMarkdownSyntax, folder: ByteKey(folder))
                if let here = memo.entries[key] { return (here.index, here.key) }
                folderKey = key
            }
            let resolvedSource = source ?? Source(path: sourcePath)
            source = resolvedSource
            let key = Self.resolveKey(ofLinkPath: link.path)
            // Only a file sharing the link's key can be its target (incremental indexing relies on the
            // same fact), so most unresolved links stop here.
            let candidates = indexesByResolveKey[ByteKey(key)]
            // An ASCII path's normalized key has the same resolve key (bytes: no case or NFC subtleties).
            let isASCII = link.path.utf8.allSatisfy { $0 < 0x80 }
            var dependsOnFolder = false
            let index = candidates == nil ? nil : resolve(
                normalizedPath: link.path, relativeFirst: link.isMarkdownSyntax, source: resolvedSource,
                candidates: isASCII ? candidates : nil, dependsOnFolder: &dependsOnFolder)
            let entry = Memo.Entry(index: index, key: key, dependsOnFolder: dependsOnFolder)
            memo.remember(entry, for: anyFolder)
            if dependsOnFolder {
                memo.remember(entry, for: folderKey ?? Memo.Key(path: ByteKey(link.path), isMarkdownSyntax: link.isMarkdownSyntax, folder: ByteKey(folder)))
            }
            return (index, key)
        }
    }

    /// `candidates`: the files sharing the link's resolve key, when the caller knows them.
    func resolve(normalizedPath: String, relativeFirst: Bool, source: Source, candidates: [Int]? = nil) -> Int? {
        var dependsOnFolder = false
        return resolve(normalizedPath: normalizedPath, relativeFirst: relativeFirst, source: source, candidates: candidates, dependsOnFolder: &dependsOnFolder)
    }

    /// `dependsOnFolder` is set when the source's folder took part: a relative path, or a choice among
    /// several files of one name.
    func resolve(normalizedPath: String, relativeFirst: Bool, source: Source, candidates: [Int]?, dependsOnFolder: inout Bool) -> Int? {
        if normalizedPath.isEmpty { return exactPath(UnicodeNormalization.matchKey(source.path), preferring: source.path) }
        // A path ending in `/`, `.` or `..` names a folder, never a file. (The byte checks first: each of
        // these character tests can only hold when the byte one does, and most paths pass neither.)
        let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
        if let last = normalizedPath.utf8.last, last == slash || last == dot {
            guard !normalizedPath.hasSuffix("/"), !normalizedPath.hasSuffix("/.."), !normalizedPath.hasSuffix("/."),
                  normalizedPath != ".", normalizedPath != ".." else { return nil }
        }
        var path = normalizedPath
        if path.utf8.first == slash { while path.hasPrefix("/") { path.removeFirst() } }
        let isRelative = path.utf8.first == dot && (path.hasPrefix("./") || path.hasPrefix("../"))
        if relativeFirst || isRelative {
            dependsOnFolder = true
            let joined = source.folder.isEmpty ? path : source.folder + "/" + path
            if let normalized = VaultPath.normalize(joined), let hit = exactPathOrNote(normalized) { return hit }
        }
        let needsNormalizing = isRelative || path.containsUTF8("//") || path.containsUTF8("/./") || (path.utf8.last == dot && path.hasSuffix("/."))
        guard let normalized = needsNormalizing ? VaultPath.normalize(path) : path, !normalized.isEmpty else { return nil }
        let key = UnicodeNormalization.matchKey(normalized)
        if let hit = exactPath(key, preferring: normalized) ?? exactNotePath(key, preferring: normalized) { return hit }
        return best(among: key, sourceFolderKey: source.folderKey, candidates: candidates, dependsOnFolder: &dependsOnFolder)
    }

    static func resolveKey(ofFilePath path: String) -> String {
        let name = VaultPath.fileName(of: path)
        if let key = asciiKey(name) { return key }
        return stripMarkdownExtension(UnicodeNormalization.matchKey(String(name)))
    }

    /// `resolveKey` of an ASCII file name, in one pass and at most one allocation (ASCII needs no
    /// normalization, and lowercasing and `.md` are bytes); nil for other names.
    private static func asciiKey(_ name: Substring) -> String? {
        var name = name
        return name.withUTF8 { bytes -> String? in
            var hasUppercase = false
            for byte in bytes {
                if byte >= 0x80 { return nil }
                if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { hasUppercase = true }
            }
            // `.md` in any letter case (`FOO.MD` is a note, as `.Md` is): the key is lowercased, then stripped.
            var end = bytes.count
            while end >= 3 && bytes[end - 3] == UInt8(ascii: ".") && bytes[end - 2] | 0x20 == UInt8(ascii: "m") && bytes[end - 1] | 0x20 == UInt8(ascii: "d") {
                end -= 3
            }
            let kept = UnsafeBufferPointer(rebasing: bytes[..<end])
            guard hasUppercase else { return String(decoding: kept, as: UTF8.self) }
            return String(unsafeUninitializedCapacity: end) { buffer in
                for (offset, byte) in kept.enumerated() {
                    buffer[offset] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
                }
                return end
            }
        }
    }

    static func resolveKey(ofLinkPath path: String) -> String {
        guard path.utf8.last == UInt8(ascii: "/") else { return resolveKey(ofFilePath: path) }
        var trimmed = Substring(path)
        while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        return resolveKey(ofFilePath: String(trimmed))
    }

    // MARK: Helpers

    /// Strips every trailing `.md` (`report.md.md` → `report`), so that a link and every file it could
    /// resolve to share one key, whichever of the `.md` spellings is written.
    private static func stripMarkdownExtension(_ key: String) -> String {
        // Most keys do not end in `.md` bytes; those cannot end in the characters `.md` either.
        guard key.utf8.count >= 3, key.utf8.suffix(3).elementsEqual(".md".utf8) else { return key }
        var stripped = Substring(key)
        while stripped.hasSuffix(".md") { stripped = stripped.dropLast(3) }
        return String(stripped)
    }

    private func exactPathOrNote(_ path: String) -> Int? {
        guard !path.isEmpty else { return nil }
        let key = UnicodeNormalization.matchKey(path)
        return exactPath(key, preferring: path) ?? exactNotePath(key, preferring: path)
    }

    /// A file whose whole path matches; among case variants the exact spelling, else the first in byte order.
    private func exactPath(_ key: String, preferring spelling: String) -> Int? {
        guard let indexes = indexesByPathKey[ByteKey(key)] else { return nil }
        if indexes.count == 1 { return indexes[0] }
        return indexes.first(where: { entries[$0].path == spelling })
            ?? indexes.min(by: { VaultPath.precedesInBytes(entries[$0].path, entries[$1].path) })
    }

    /// `exactPath(key + ".md", preferring: spelling + ".md")`.
    private func exactNotePath(_ key: String, preferring spelling: String) -> Int? {
        guard let indexes = indexesByNotePathKey[ByteKey(key)] else { return nil }
        if indexes.count == 1 { return indexes[0] }
        return exactPath(key + ".md", preferring: spelling + ".md")
    }

    /// Among files whose name (or, for a path with folders, whose path suffix) equals `key`, else, when
    /// none does, among those where it equals `key.md`: the one in the source's own folder, else the
    /// shortest path, else the first in byte order. One pass over the candidates for both.
    private func best(among key: String, sourceFolderKey: String, candidates: [Int]?, dependsOnFolder: inout Bool) -> Int? {
        guard let indexes = candidates ?? indexesByResolveKey[ByteKey(Self.resolveKey(ofLinkPath: key))] else { return nil }
        let hasFolder = key.utf8.contains(UInt8(ascii: "/"))
        let suffix = hasFolder ? "/" + key : ""
        var exact = Choice(), note = Choice()
        for index in indexes {
            let isExact: Bool
            if hasFolder {
                if entries[index].pathKey == key || entries[index].pathKey.hasSuffix(suffix) {
                    isExact = true
                } else if let notePath = entries[index].notePathKey, notePath == key || notePath.hasSuffix(suffix) {
                    isExact = false
                } else {
                    continue
                }
            } else if entries[index].nameKey == key {
                isExact = true
            } else if entries[index].noteNameKey == key {
                isExact = false
            } else {
                continue
            }
            let inSourceFolder = entries[index].folderKey == sourceFolderKey
            if isExact { exact.consider(index, inSourceFolder: inSourceFolder, entries: entries) }
            else { note.consider(index, inSourceFolder: inSourceFolder, entries: entries) }
        }
        let chosen = exact.index == nil ? note : exact
        // More than one file of this name: the source's folder may decide.
        if chosen.isChoice { dependsOnFolder = true }
        return chosen.index
    }

    /// The best file so far among several of one name (see `best`).
    private struct Choice {
        var index: Int? = nil
        var inSourceFolder = false
        var length = 0
        /// Whether more than one file was considered.
        var isChoice = false

        mutating func consider(_ candidate: Int, inSourceFolder candidateInSourceFolder: Bool, entries: [Entry]) {
            let candidateLength = entries[candidate].pathLength
            if let current = index {
                isChoice = true
                if inSourceFolder && !candidateInSourceFolder { return }
                if candidateInSourceFolder == inSourceFolder {
                    if candidateLength > length { return }
                    if candidateLength == length && !VaultPath.precedesInBytes(entries[candidate].path, entries[current].path) { return }
                }
            }
            index = candidate
            inSourceFolder = candidateInSourceFolder
            length = candidateLength
        }
    }
}

/// A string hashed and compared by its UTF-8 bytes, for keys normalized before they are stored and looked
/// up: `String`'s own hashing and `==` follow canonical equivalence, normalizing non-ASCII text as they go,
/// which made the resolver's lookups several times slower for names like `Zürich` or `東京`.
struct ByteKey: Hashable {
    var text: String

    init(_ text: String) { self.text = text }

    static func == (a: ByteKey, b: ByteKey) -> Bool { VaultPath.equalInBytes(a.text, b.text) }

    func hash(into hasher: inout Hasher) {
        hasher.combine(text.utf8.count)
        if text.utf8.withContiguousStorageIfAvailable({ hasher.combine(bytes: UnsafeRawBufferPointer($0)) }) == nil {
            Array(text.utf8).withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }
}
