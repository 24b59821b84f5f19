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

    /// A link's target and its resolve key (what incremental indexing re-resolves by).
    public struct Resolution: Sendable {
        public var target: FileID?
        public var key: String
    }

    /// Resolves all links of one note (faster than one by one: the source folder is computed once and
    /// repeated link paths are resolved once).
    public func resolveAll(_ links: [LinkOccurrence], from sourcePath: String) -> [Resolution] {
        let source = Source(path: sourcePath)
        var memo: [String: Resolution] = [:]
        return links.map { link in
            let memoKey = link.isMarkdownSyntax ? "\u{1}" + link.path : link.path
            if let known = memo[memoKey] { return known }
            let resolution = Resolution(
                target: resolve(normalizedPath: link.path, relativeFirst: link.isMarkdownSyntax, source: source)?.id,
                key: Self.resolveKey(ofLinkPath: link.path))
            memo[memoKey] = resolution
            return resolution
        }
    }

    /// Resolves a link path as written in a note at `sourcePath` (use `""` for the vault root).
    public func resolve(linkPath rawPath: String, relativeFirst: Bool = false, from sourcePath: String) -> File? {
        resolve(normalizedPath: UnicodeNormalization.nfc(rawPath), relativeFirst: relativeFirst, source: Source(path: sourcePath))
    }

    private struct Source {
        var path: String
        var folder: String
        var folderKey: String

        init(path: String) {
            self.path = path
            folder = VaultPath.folder(of: path)
            folderKey = UnicodeNormalization.matchKey(folder)
        }
    }

    private func resolve(normalizedPath: String, relativeFirst: Bool, source: Source) -> File? {
        if normalizedPath.isEmpty { return exactPath(UnicodeNormalization.matchKey(source.path), preferring: source.path) }
        // A path ending in `/`, `.` or `..` names a folder, never a file.
        guard !normalizedPath.hasSuffix("/"), !normalizedPath.hasSuffix("/.."), !normalizedPath.hasSuffix("/."),
              normalizedPath != ".", normalizedPath != ".." else { return nil }
        var path = normalizedPath
        while path.hasPrefix("/") { path.removeFirst() }
        let isRelative = path.hasPrefix("./") || path.hasPrefix("../")
        if relativeFirst || isRelative {
            let joined = source.folder.isEmpty ? path : source.folder + "/" + path
            if let normalized = VaultPath.normalize(joined), let hit = exactPathOrNote(normalized) { return hit }
        }
        let needsNormalizing = isRelative || path.containsUTF8("//") || path.containsUTF8("/./") || path.hasSuffix("/.")
        guard let normalized = needsNormalizing ? VaultPath.normalize(path) : path, !normalized.isEmpty else { return nil }
        let key = UnicodeNormalization.matchKey(normalized)
        if let hit = exactPath(key, preferring: normalized) ?? exactPath(key + ".md", preferring: normalized + ".md") { return hit }
        return best(among: key, sourceFolderKey: source.folderKey) ?? best(among: key + ".md", sourceFolderKey: source.folderKey)
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

    /// Strips every trailing `.md` (`report.md.md` → `report`), so that a link and every file it could
    /// resolve to share one key, whichever of the `.md` spellings is written.
    private static func stripMarkdownExtension(_ key: String) -> String {
        var key = Substring(key)
        while key.hasSuffix(".md") { key = key.dropLast(3) }
        return String(key)
    }

    private func exactPathOrNote(_ path: String) -> File? {
        guard !path.isEmpty else { return nil }
        let key = UnicodeNormalization.matchKey(path)
        return exactPath(key, preferring: path) ?? exactPath(key + ".md", preferring: path + ".md")
    }

    /// A file whose whole path matches; among case variants the exact spelling, else the first in byte order.
    private func exactPath(_ key: String, preferring spelling: String) -> File? {
        guard let indexes = indexesByPathKey[key] else { return nil }
        let found = indexes.map { files[$0] }
        return found.first(where: { $0.path == spelling }) ?? found.min(by: { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) })
    }

    /// Among files whose name (or, for a path with folders, whose path suffix) equals `key`: the one in
    /// the source's own folder, else the shortest path, else the first in byte order.
    private func best(among key: String, sourceFolderKey: String) -> File? {
        guard let indexes = indexesByResolveKey[Self.resolveKey(ofLinkPath: key)] else { return nil }
        let hasFolder = key.utf8.contains(UInt8(ascii: "/"))
        let suffix = hasFolder ? "/" + key : ""
        var chosen: File? = nil
        var chosenInSourceFolder = false
        var chosenLength = 0
        for index in indexes {
            let file = files[index]
            let isMatch = hasFolder ? (file.pathKey == key || file.pathKey.hasSuffix(suffix)) : file.nameKey == key
            guard isMatch else { continue }
            let inSourceFolder = file.folderKey == sourceFolderKey
            let length = file.path.unicodeScalars.count
            if let current = chosen {
                if chosenInSourceFolder && !inSourceFolder { continue }
                if inSourceFolder == chosenInSourceFolder {
                    if length > chosenLength { continue }
                    if length == chosenLength && !file.path.utf8.lexicographicallyPrecedes(current.path.utf8) { continue }
                }
            }
            chosen = file
            chosenInSourceFolder = inSourceFolder
            chosenLength = length
        }
        return chosen
    }
}
