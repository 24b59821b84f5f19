/// What a vault file is, by its extension.
public enum VaultFileKind: String, Sendable, Codable, CaseIterable {
    /// A `.md` note: parsed for frontmatter, links, tags, headings, blocks and tasks.
    case note
    /// A `.canvas` file: a link source (file nodes and text nodes).
    case canvas
    /// Anything else (images, PDF, audio, `.base`, …): a node in the graph without content.
    case attachment

    public init(path: String) {
        switch VaultPath.lowercasedExtension(of: path) {
        case "md": self = .note
        case "canvas": self = .canvas
        default: self = .attachment
        }
    }

    /// Whether Rhizome reads the file's content.
    public var isParsed: Bool { self != .attachment }
}

/// Helpers for vault-relative paths (`/`-separated, NFC, no leading slash).
public enum VaultPath {
    public static func fileName(of path: String) -> Substring {
        guard let slash = path.lastIndex(of: "/") else { return Substring(path) }
        return path[path.index(after: slash)...]
    }

    /// The folder part, `""` for the vault root.
    public static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    public static func lowercasedExtension(of path: String) -> String {
        let name = fileName(of: path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return name[name.index(after: dot)...].lowercased()
    }

    /// The name Obsidian shows: the file name without `.md` for notes, with its extension otherwise.
    public static func displayName(of path: String) -> String {
        let name = fileName(of: path)
        if lowercasedExtension(of: path) == "md" { return String(name.dropLast(3)) }
        return String(name)
    }

    /// Resolves `.` and `..` components; nil when `..` climbs above the vault root.
    public static func normalize(_ path: String) -> String? {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." {
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
                continue
            }
            parts.append(part)
        }
        return parts.joined(separator: "/")
    }
}
