/// What Obsidian derives from properties: `tags`, `aliases`, and links inside text values.
struct FrontmatterProperties {
    var tags: [TagOccurrence] = []
    var aliases: [String] = []
    var links: [LinkOccurrence] = []
    var findings: [Finding] = []
    private var source: RawYAML?

    /// `yaml` is the raw frontmatter text (starting at file line 2), used to place property links exactly.
    static func read(_ frontmatter: Frontmatter, path: String, yaml: UnsafeBufferPointer<UInt8>? = nil) -> FrontmatterProperties {
        var properties = FrontmatterProperties()
        properties.source = yaml.map { RawYAML(bytes: Array($0)) }
        for entry in frontmatter.entries {
            switch entry.key {
            case "tags":
                properties.readTags(entry.value, path: path)
            case "aliases":
                properties.aliases = scalarItems(of: entry.value).map { UnicodeNormalization.nfc($0.text) }
            default:
                break
            }
            properties.collectLinks(in: entry.value, key: entry.key)
        }
        return properties
    }

    /// `tags: [a, b]`, a block list, or a single scalar (`tags: single`); each item with or without `#`.
    private mutating func readTags(_ node: FrontmatterNode, path: String) {
        for item in Self.scalarItems(of: node) {
            var name = Substring(item.text.trimmingSpaces)
            if name.hasPrefix("#") { name = name.dropFirst() }
            if name.hasSuffix("/"), name.count > 1 { name = name.dropLast() }  // as Obsidian reads `tags: [a/]`
            if TagSyntax.isValidTagName(name) {
                tags.append(TagOccurrence(name: UnicodeNormalization.nfc(String(name)), isFromFrontmatter: true, line: item.line, column: item.column))
            } else if !name.isEmpty {
                let allDigits = name.allSatisfy { $0.isASCII && $0.isNumber }
                findings.append(Finding(
                    code: .invalidTagValue, severity: .warning,
                    message: "`\(item.text)` is not a valid tag, so Obsidian ignores it (tags have no spaces or punctuation such as `,` `.` `:` `&`, and are not all digits)",
                    path: path, line: item.line, column: item.column,
                    fix: allDigits ? "add a letter: `y\(name)`" : name.contains(",") || name.contains(" ")
                        ? "write tags as a list: `tags: [a, b]`" : "leave out the punctuation (`_`, `-`, `/`, emoji and other symbols are allowed)"))
            }
        }
    }

    private static func scalarItems(of node: FrontmatterNode) -> [(text: String, line: Int, column: Int)] {
        switch node.value {
        case .list(let items):
            return items.compactMap { item in item.value.scalarText.map { ($0, item.line, item.column) } }
        case .map, .null:
            return []
        default:
            return node.value.scalarText.map { [($0, node.line, node.column)] } ?? []
        }
    }

    /// Wikilinks and markdown links inside text values (and list items) are links; `#` there is not a tag.
    private mutating func collectLinks(in node: FrontmatterNode, key: String) {
        switch node.value {
        case .string(let text):
            guard text.utf8.contains(UInt8(ascii: "[")) else { return }
            let found = MarkdownScanner.scanInline(text, line: node.line, column: node.column + (node.isQuoted ? 1 : 0))
            // The value's text may differ from what is written (escapes, quotes, folding): place each
            // wikilink at the matching `[[` in the raw text instead.
            var rawSearchFrom = source?.offset(line: node.line, column: node.column)
            for var link in found.links {
                if link.kind == .wikilink || link.kind == .embed, let from = rawSearchFrom,
                   let open = source?.nextWikilinkOpening(from: from), let bytes = source?.bytes {
                    let start = link.kind == .embed && open > 0 && bytes[open - 1] == UInt8(ascii: "!") ? open - 1 : open
                    if let position = source?.position(of: start) { (link.line, link.column) = position }
                    rawSearchFrom = open + 2
                }
                switch link.kind {
                case .wikilink, .embed, .markdown, .markdownEmbed: break
                case .property, .canvasFile: continue
                }
                link.kind = .property
                link.propertyKey = key
                links.append(link)
            }
        case .list(let items):
            for item in items { collectLinks(in: item, key: key) }
        case .map(let entries):
            for entry in entries { collectLinks(in: entry.value, key: "\(key).\(entry.key)") }
        default:
            break
        }
    }
}

/// The raw frontmatter text, for mapping value positions to file positions. Frontmatter starts at line 2.
/// Values and their links are looked up in the order they are written, which `LineIndex` makes linear.
private struct RawYAML {
    var lines: LineIndex
    var bytes: [UInt8] { lines.bytes }

    init(bytes: [UInt8]) { lines = LineIndex(bytes, firstLine: 2) }

    mutating func offset(line: Int, column: Int) -> Int? { lines.offset(line: line, column: column) }

    mutating func position(of offset: Int) -> (Int, Int) { lines.position(of: offset) }

    func nextWikilinkOpening(from start: Int) -> Int? {
        var index = start
        while index + 1 < bytes.count {
            if bytes[index] == UInt8(ascii: "["), bytes[index + 1] == UInt8(ascii: "[") { return index }
            index += 1
        }
        return nil
    }
}
