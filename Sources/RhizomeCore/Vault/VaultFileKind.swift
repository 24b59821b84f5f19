#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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
        let whole = Substring(path)
        guard let slash = lastIndex(of: "/", in: whole) else { return whole }
        return whole[whole.index(after: slash)...]
    }

    /// The folder part, `""` for the vault root.
    public static func folder(of path: String) -> String {
        let whole = Substring(path)
        guard let slash = lastIndex(of: "/", in: whole) else { return "" }
        return String(whole[..<slash])
    }

    public static func lowercasedExtension(of path: String) -> String {
        lowercasedExtension(ofName: fileName(of: path))
    }

    /// The extension of a file name, lowercased (`""` for none, and for a name that starts with its only dot).
    static func lowercasedExtension(ofName name: Substring) -> String {
        guard let dot = lastIndex(of: ".", in: name), dot != name.startIndex else { return "" }
        let text = name[name.index(after: dot)...]
        // Most extensions are lowercase ASCII already: no new string to lowercase them into.
        let isLowercase = text.utf8.allSatisfy { $0 < 0x80 && !($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) }
        return isLowercase ? String(text) : text.lowercased()
    }

    /// The name Obsidian shows for a file name: without `.md` for notes, with its extension otherwise.
    static func displayName(ofName name: Substring, lowercasedExtension: String) -> String {
        lowercasedExtension == "md" ? String(name.dropLast(3)) : String(name)
    }

    /// The last `character`, as `text.lastIndex(of: character)` finds it. These helpers run for every
    /// file and link, and the character search walks grapheme clusters: a byte search gives the same
    /// index whenever the byte's neighbours are ASCII (then it is a character of its own); only otherwise
    /// (a combining mark after it, say) does the character search decide.
    @inline(__always)
    static func lastIndex(of character: Unicode.Scalar, in text: Substring) -> String.Index? {
        guard let found = text.utf8.lastIndex(of: UInt8(ascii: character)) else { return nil }
        return isCharacterOfItsOwn(found, in: text.utf8) ? found : text.lastIndex(of: Character(character))
    }

    /// The first `character`, as `text.firstIndex(of: character)` finds it: see `lastIndex(of:in:)`.
    @inline(__always)
    static func firstIndex(of character: Unicode.Scalar, in text: Substring) -> String.Index? {
        guard let found = text.utf8.firstIndex(of: UInt8(ascii: character)) else { return nil }
        return isCharacterOfItsOwn(found, in: text.utf8) ? found : text.firstIndex(of: Character(character))
    }

    /// Whether the ASCII byte at `index` is a character of its own: so it is when its neighbours are ASCII.
    @inline(__always)
    private static func isCharacterOfItsOwn(_ index: String.Index, in bytes: Substring.UTF8View) -> Bool {
        let next = bytes.index(after: index)
        return (next == bytes.endIndex || bytes[next] < 0x80) && (index == bytes.startIndex || bytes[bytes.index(before: index)] < 0x80)
    }

    /// Whether `a` sorts before `b` by their UTF-8 bytes (the order of paths in a scan and the tie-break of
    /// link resolution): `a.utf8.lexicographicallyPrecedes(b.utf8)`, compared with `memcmp` when both are
    /// stored contiguously (native strings always are) instead of index by index.
    public static func precedesInBytes(_ a: String, _ b: String) -> Bool {
        let compared = a.utf8.withContiguousStorageIfAvailable { first in
            b.utf8.withContiguousStorageIfAvailable { second -> Bool in
                let common = min(first.count, second.count)
                if common > 0, let x = first.baseAddress, let y = second.baseAddress {
                    let order = memcmp(x, y, common)
                    if order != 0 { return order < 0 }
                }
                return first.count < second.count
            }
        }
        return (compared ?? nil) ?? a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    /// Whether `a` and `b` hold the same UTF-8 bytes (`==` on strings also equates canonically equivalent
    /// spellings, normalizing non-ASCII text on the way: for keys already normalized, bytes are enough).
    public static func equalInBytes(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        let compared = a.utf8.withContiguousStorageIfAvailable { first in
            b.utf8.withContiguousStorageIfAvailable { second -> Bool in
                guard let x = first.baseAddress, let y = second.baseAddress else { return true }  // both empty
                return memcmp(x, y, first.count) == 0
            }
        }
        return (compared ?? nil) ?? a.utf8.elementsEqual(b.utf8)
    }

    /// A path's name (as Obsidian shows it), folder and lowercased extension, each what `displayName(of:)`,
    /// `folder(of:)` and `lowercasedExtension(of:)` give, found with one search for the last `/`.
    public struct Parts: Sendable, Equatable {
        public var displayName: String
        public var folder: String
        public var lowercasedExtension: String

        public init(of path: String) {
            let whole = Substring(path)
            let slash = VaultPath.lastIndex(of: "/", in: whole)
            let name = slash.map { whole[whole.index(after: $0)...] } ?? whole
            folder = slash.map { String(whole[..<$0]) } ?? ""
            lowercasedExtension = VaultPath.lowercasedExtension(ofName: name)
            displayName = VaultPath.displayName(ofName: name, lowercasedExtension: lowercasedExtension)
        }
    }

    /// The name Obsidian shows: the file name without `.md` for notes, with its extension otherwise.
    public static func displayName(of path: String) -> String {
        let name = fileName(of: path)
        return displayName(ofName: name, lowercasedExtension: lowercasedExtension(ofName: name))
    }

    /// Resolves `.` and `..` components; nil when `..` climbs above the vault root.
    public static func normalize(_ path: String) -> String? {
        // Nothing to resolve without empty, `.` or `..` components (the usual case): the path as it is.
        if !path.hasPrefix("."), !path.hasPrefix("/"), !path.hasSuffix("/"), !path.containsUTF8("/."), !path.containsUTF8("//") {
            return path
        }
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
