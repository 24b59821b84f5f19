import Foundation

/// A link value: `file.link`, an entry of `file.outlinks`, a `[[…]]` literal or a link-valued field.
/// `path` is the vault path of the target when the link resolves (`Projects/Alpha.md`), otherwise the
/// link text as written (`Missing note`). Links are equal when path and subpath are.
public struct DataviewLink: Sendable, Hashable {
    public var path: String
    public var subpath: String?
    public var display: String?
    public var isEmbed: Bool

    public init(path: String, subpath: String? = nil, display: String? = nil, isEmbed: Bool = false) {
        self.path = path
        self.subpath = subpath
        self.display = display
        self.isEmbed = isEmbed
    }

    /// The text inside `[[…]]` split into its path, `#subpath` and `|display` (the path as written, untrimmed),
    /// as Dataview's `parseInnerLink` splits it: at the first `|` not escaped as `\|`, and `\|` in the path
    /// is a `|` (`[[Hello \| There]]` is a link to `Hello | There`; the display is kept as written). A heading
    /// subpath is normalized (`DataviewHeading`); a block's keeps its `^`.
    public static func parts(of linkText: String) -> (path: String, subpath: String?, display: String?) {
        var path = Substring(linkText)
        var display: String? = nil
        var searchFrom = path.startIndex
        while let bar = path[searchFrom...].firstIndex(of: "|") {
            if bar > path.startIndex, path[path.index(before: bar)] == "\\" {
                searchFrom = path.index(after: bar)
                continue
            }
            display = String(path[path.index(after: bar)...])
            path = path[..<bar]
            break
        }
        if path.contains("\\|") { path = Substring(path.replacingOccurrences(of: "\\|", with: "|")) }
        // Then Dataview's `Link.infer`: a block `#^id` (up to a further `#^`), else a heading (up to a further
        // `#`, so `[[Note#A#B]]` is heading A, as in Dataview), normalized as Dataview links headings.
        var subpath: String? = nil
        if let block = path.range(of: "#^") {
            let rest = path[block.upperBound...]
            subpath = "^" + (rest.range(of: "#^").map { rest[..<$0.lowerBound] } ?? rest)
            path = path[..<block.lowerBound]
        } else if let hash = path.firstIndex(of: "#") {
            let rest = path[path.index(after: hash)...]
            subpath = DataviewHeading.linkSubpath(String(rest.firstIndex(of: "#").map { rest[..<$0] } ?? rest))
            path = path[..<hash]
        }
        return (String(path), subpath, display)
    }

    /// The file name without folder and `.md` extension (what Obsidian shows for a bare link).
    public var fileName: String {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        return name.hasSuffix(".md") ? String(name.dropLast(3)) : name
    }

    /// The text shown for the link: its display text, else `Note > Heading`, else the file name.
    public var shownText: String {
        if let display, !display.isEmpty { return display }
        if let subpath, !subpath.isEmpty { return "\(fileName) > \(subpath)" }
        return fileName
    }

    /// `[[Projects/Alpha.md|Alpha]]` in markdown (a wikilink by full path, so it resolves uniquely).
    public var markdown: String {
        let target = path.hasSuffix(".md") ? String(path.dropLast(3)) : path
        var text = (isEmbed ? "!" : "") + "[[" + target
        if let subpath, !subpath.isEmpty { text += "#" + subpath }
        text += "|" + shownText.replacingOccurrences(of: "|", with: "\\|") + "]]"
        return text
    }
}

/// A link to a web address, as `elink(url, display)` makes it (Dataview's `ExternalLinkWidget`). It reads as
/// markdown `[display](url)`; without a display text, the address is shown.
public struct DataviewExternalLink: Sendable, Hashable {
    public var url: String
    public var display: String?

    public init(url: String, display: String? = nil) {
        self.url = url
        self.display = display
    }

    /// The text shown for the link: its display text, else the address.
    public var shownText: String { display ?? url }

    /// `[display](url)`, as Dataview writes the widget in markdown.
    public var markdown: String { "[\(shownText)](\(url))" }
}
