/// Writes the path text of a link so that it reaches a given file, as Obsidian writes links
/// (`newLinkFormat` in `.obsidian/app.json`), and encodes it for where the link stands.
///
/// Obsidian's forms: `shortest` writes the file name when that name reaches the file from the linking
/// note, else the path from the vault root; `relative` writes the path from the linking note's folder;
/// `absolute` the path from the root. Wikilinks to notes leave out `.md`; markdown links keep it.
/// Every form is checked with the resolver: when the preferred text would reach another file, the next,
/// more explicit form is taken (the vault path, then with `.md`, then for markdown links the relative
/// path, which is exact). Nil when no form reaches the file from that note.
public struct LinkPathWriter<FileID: Hashable & Sendable>: Sendable {
    public let resolver: LinkResolver<FileID>
    public let format: ObsidianSettings.LinkFormat

    public init(resolver: LinkResolver<FileID>, format: ObsidianSettings.LinkFormat) {
        self.resolver = resolver
        self.format = format
    }

    /// The raw bytes to put in `located.pathRange` so that the link, written in a note at `sourcePath`,
    /// reaches `targetPath` (both paths as they will be after the change).
    public func pathText(reaching targetPath: String, from sourcePath: String, for located: LocatedLink) -> String? {
        if located.syntax == .canvasFile {
            return Self.encode(targetPath, for: located)
        }
        let isMarkdown = located.syntax != .wikilink
        for candidate in candidates(targetPath: targetPath, sourcePath: sourcePath, markdown: isMarkdown) {
            guard resolver.resolve(linkPath: candidate, relativeFirst: isMarkdown, from: sourcePath)?.path == targetPath,
                  let encoded = Self.encode(candidate, for: located) else { continue }
            return encoded
        }
        return nil
    }

    /// The link texts to try, best first.
    func candidates(targetPath: String, sourcePath: String, markdown: Bool) -> [String] {
        let isNote = VaultPath.lowercasedExtension(of: targetPath) == "md"
        let dropsExtension = isNote && !markdown
        let name = String(VaultPath.fileName(of: targetPath))
        let bareName = dropsExtension ? String(name.dropLast(3)) : name
        let rooted = dropsExtension ? String(targetPath.dropLast(3)) : targetPath
        let relative = Self.relativePath(from: VaultPath.folder(of: sourcePath), to: targetPath, dropExtension: dropsExtension)
        var list: [String]
        switch format {
        case .shortest: list = [bareName, rooted]
        case .absolute: list = [rooted]
        case .relative: list = relative.hasPrefix("../") ? [relative] : [relative, "./" + relative]
        }
        list += [rooted, targetPath]
        if !relative.hasPrefix("../") { list.append("./" + relative) }
        list.append(relative)
        var seen = Set<String>()
        return list.filter { seen.insert($0).inserted }
    }

    /// `to` written from the folder `from` (`""` for the root): `../Other/Note`, `Sub/Note`, `Note`.
    static func relativePath(from folder: String, to path: String, dropExtension: Bool) -> String {
        let target = dropExtension ? String(path.dropLast(3)) : path
        let folderParts = folder.isEmpty ? [] : folder.split(separator: "/", omittingEmptySubsequences: false)
        let targetParts = target.split(separator: "/", omittingEmptySubsequences: false)
        var common = 0
        while common < folderParts.count, common < targetParts.count - 1, folderParts[common] == targetParts[common] { common += 1 }
        let ups = Array(repeating: "..", count: folderParts.count - common)
        return (ups + targetParts[common...].map(String.init)).joined(separator: "/")
    }

    /// `text` as it must be written in the link's syntax and container; nil when it cannot be.
    static func encode(_ text: String, for located: LocatedLink) -> String? {
        if text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { return nil }
        var written: String
        switch located.syntax {
        case .wikilink:
            // `#` and `|` end the path; brackets would end or restart the link.
            guard !text.contains("#"), !text.contains("|"), !text.contains("]]"), !text.contains("[["), !text.hasSuffix("]"),
                  text.trimmingSpaces == text else { return nil }
            written = text
        case .markdown:
            guard !text.contains("#") else { return nil }
            written = percentEncoded(text, nonASCII: located.encodesNonASCII)
        case .markdownAngle:
            guard !text.contains("#"), !text.contains("<"), !text.contains(">"), text.trimmingSpaces == text else { return nil }
            written = text
        case .canvasFile:
            written = text
        }
        switch located.container {
        case .markdown:
            return written
        case .yamlDoubleQuoted, .jsonString:
            return written.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        case .yamlSingleQuoted:
            return written.replacingOccurrences(of: "'", with: "''")
        case .yamlPlain:
            guard !written.contains(": "), !written.contains(" #") else { return nil }
            return written
        }
    }

    /// A markdown destination: what would end or break it is percent-encoded (and non-ASCII text too
    /// when the link being rewritten was written that way).
    static func percentEncoded(_ text: String, nonASCII: Bool) -> String {
        let reserved = Set(" %()<>\\^|\"'".unicodeScalars)
        var output = ""
        for scalar in text.unicodeScalars {
            if scalar.isASCII ? reserved.contains(scalar) : nonASCII {
                for byte in String(scalar).utf8 { output += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true) }
            } else {
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}

