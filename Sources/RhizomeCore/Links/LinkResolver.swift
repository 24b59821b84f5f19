/// Resolves link paths to vault files exactly as Obsidian does (OBSIDIAN-SEMANTICS.md, "Resolving a
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
        fileprivate var pathKey: String
        fileprivate var folderKey: String
        fileprivate var nameKey: String
    }

    private var files: [File] = []
    private var indexesByResolveKey: [String: [Int]] = [:]
    private var indexesByPathKey: [String: [Int]] = [:]

    public init<S: Sequence>(files: S) where S.Element == (path: String, id: FileID) {
        for (path, id) in files { insert(path: path, id: id) }
    }

    public mutating func insert(path: String, id: FileID) {
        let pathKey = UnicodeNormalization.matchKey(path)
        let file = File(
            path: path, id: id, pathKey: pathKey, folderKey: VaultPath.folder(of: pathKey),
            nameKey: String(VaultPath.fileName(of: pathKey)))
        let index = files.count
        files.append(file)
        indexesByResolveKey[Self.resolveKey(ofFilePath: path), default: []].append(index)
        indexesByPathKey[pathKey, default: []].append(index)
    }

    public var count: Int { files.count }

    /// The file a link points to, or nil if it is unresolved.
    public func resolve(_ link: LinkOccurrence, from sourcePath: String) -> File? {
        resolve(linkPath: link.path, relativeFirst: link.isMarkdownSyntax, from: sourcePath)
    }

    /// Resolves a link path as written in a note at `sourcePath` (use `""` for the vault root).
    public func resolve(linkPath rawPath: String, relativeFirst: Bool = false, from sourcePath: String) -> File? {
        if rawPath.isEmpty { return exactPath(UnicodeNormalization.matchKey(sourcePath), preferring: sourcePath) }
        var path = UnicodeNormalization.nfc(rawPath)
        while path.hasPrefix("/") { path.removeFirst() }
        let isRelative = path.hasPrefix("./") || path.hasPrefix("../")
        let sourceFolder = VaultPath.folder(of: sourcePath)
        if relativeFirst || isRelative {
            let joined = sourceFolder.isEmpty ? path : sourceFolder + "/" + path
            if let normalized = VaultPath.normalize(joined), let hit = exactPathOrNote(normalized) { return hit }
        }
        guard let normalized = VaultPath.normalize(path), !normalized.isEmpty, !path.hasSuffix("/") else { return nil }
        if let hit = exactPathOrNote(normalized) { return hit }
        let key = UnicodeNormalization.matchKey(normalized)
        let candidates = matches(key) ?? matches(key + ".md") ?? []
        return choose(candidates, sourceFolderKey: UnicodeNormalization.matchKey(sourceFolder))
    }

    /// The key shared by a file and every link that can resolve to it: the lowercased NFC file name,
    /// without `.md` for notes.
    public static func resolveKey(ofFilePath path: String) -> String {
        stripMarkdownExtension(UnicodeNormalization.matchKey(String(VaultPath.fileName(of: path))))
    }

    /// The key of a link path: see `resolveKey(ofFilePath:)`. Empty for same-note links (`[[#Heading]]`).
    public static func resolveKey(ofLinkPath path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        return stripMarkdownExtension(UnicodeNormalization.matchKey(String(VaultPath.fileName(of: String(trimmed)))))
    }

    // MARK: Helpers

    private static func stripMarkdownExtension(_ key: String) -> String {
        key.hasSuffix(".md") ? String(key.dropLast(3)) : key
    }

    private func exactPathOrNote(_ path: String) -> File? {
        let key = UnicodeNormalization.matchKey(path)
        return exactPath(key, preferring: path) ?? exactPath(key + ".md", preferring: path + ".md")
    }

    /// A file whose whole path matches; among case variants the exact spelling, else the first in byte order.
    private func exactPath(_ key: String, preferring spelling: String) -> File? {
        guard let indexes = indexesByPathKey[key] else { return nil }
        let found = indexes.map { files[$0] }
        return found.first(where: { $0.path == spelling }) ?? found.min(by: { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) })
    }

    /// Files whose name (or, for a path with folders, whose path suffix) equals `key`.
    private func matches(_ key: String) -> [File]? {
        let resolveKey = Self.resolveKey(ofLinkPath: key)
        guard let indexes = indexesByResolveKey[resolveKey] else { return nil }
        let hasFolder = key.contains("/")
        let suffix = "/" + key
        let found = indexes.map { files[$0] }.filter { file in
            hasFolder ? (file.pathKey == key || file.pathKey.hasSuffix(suffix)) : file.nameKey == key
        }
        return found.isEmpty ? nil : found
    }

    private func choose(_ candidates: [File], sourceFolderKey: String) -> File? {
        guard candidates.count > 1 else { return candidates.first }
        let sameFolder = candidates.filter { $0.folderKey == sourceFolderKey }
        let pool = sameFolder.isEmpty ? candidates : sameFolder
        return pool.min { lhs, rhs in
            let lhsLength = lhs.path.unicodeScalars.count
            let rhsLength = rhs.path.unicodeScalars.count
            if lhsLength != rhsLength { return lhsLength < rhsLength }
            return lhs.path.utf8.lexicographicallyPrecedes(rhs.path.utf8)
        }
    }
}
