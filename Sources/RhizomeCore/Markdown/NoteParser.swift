/// Turns a note file's bytes into everything Rhizome indexes about it.
///
/// Never throws: bad input (invalid YAML, invalid UTF-8, an unclosed frontmatter block) yields findings
/// and as much of the note as can be read.
public struct ParsedNote: Sendable {
    public var frontmatter: Frontmatter?
    /// Links from the body and from frontmatter values (property links).
    public var links: [LinkOccurrence]
    /// Tags from the body and from the `tags` property.
    public var tags: [TagOccurrence]
    public var headings: [Heading]
    public var blocks: [BlockID]
    public var tasks: [TaskItem]
    /// The page's Dataview inline fields (not those of tasks: `ListItemParser` reads those).
    public var inlineFields: [InlineField]
    public var aliases: [String]
    public var findings: [Finding]
    /// The body text after the frontmatter (for full-text search); nil when not requested.
    public var bodyText: String?
    /// The note checked against the schemas in effect (its findings are also in `findings`); nil when not checked.
    public var schemaCheck: NoteCheck?

    public init(
        frontmatter: Frontmatter? = nil, links: [LinkOccurrence] = [], tags: [TagOccurrence] = [], headings: [Heading] = [],
        blocks: [BlockID] = [], tasks: [TaskItem] = [], inlineFields: [InlineField] = [], aliases: [String] = [],
        findings: [Finding] = [], bodyText: String? = nil
    ) {
        self.frontmatter = frontmatter
        self.links = links
        self.tags = tags
        self.headings = headings
        self.blocks = blocks
        self.tasks = tasks
        self.inlineFields = inlineFields
        self.aliases = aliases
        self.findings = findings
        self.bodyText = bodyText
    }
}

public enum NoteParser {
    /// Parses a markdown note. `path` is only used to locate findings.
    public static func parse(_ bytes: [UInt8], path: String, includeBodyText: Bool = true) -> ParsedNote {
        var findings: [Finding] = []
        var input = bytes
        if let invalidOffset = UTF8Validation.firstInvalidOffset(input) {
            let (line, column) = UTF8Validation.lineAndColumn(of: invalidOffset, in: input)
            findings.append(Finding(
                code: .invalidUTF8, severity: .warning,
                message: "the file is not valid UTF-8; invalid bytes were replaced with U+FFFD for indexing",
                path: path, line: line, column: column,
                fix: "re-save the file as UTF-8 (e.g. `iconv -f latin1 -t utf-8`)"))
            input = Array(String(decoding: input, as: UTF8.self).utf8)
        }
        return input.withUnsafeBufferPointer { buffer in
            var body = buffer
            if buffer.count >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF {
                body = UnsafeBufferPointer(rebasing: buffer[3...])
            }
            return parseValidUTF8(body, path: path, includeBodyText: includeBodyText, findings: findings)
        }
    }

    /// Only the frontmatter of a note (what schema checks need), without reading the body: much cheaper
    /// than `parse` when the rest of the note is already indexed.
    public static func frontmatter(_ bytes: [UInt8], path: String) -> Frontmatter? {
        withValidUTF8(bytes) { text in
            guard case .found(let location) = FrontmatterBlock.detect(text) else { return nil }
            var findings: [Finding] = []
            return parseFrontmatter(
                UnsafeBufferPointer(rebasing: text[location.yamlStart..<location.yamlEnd]), closingLine: location.closingLine,
                path: path, findings: &findings)
        }
    }

    /// The byte offset where a note's body starts: after a byte-order mark and a closed frontmatter block.
    public static func bodyOffset(of bytes: [UInt8]) -> Int {
        let bom = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        guard case .found(let location) = bytes.withUnsafeBufferPointer({ FrontmatterBlock.detect(UnsafeBufferPointer(rebasing: $0[bom...])) }) else {
            return bom
        }
        return bom + location.bodyStart
    }

    /// The body of a note after its frontmatter, with the line it starts on (what `ListItemParser` reads).
    static func withBody<Result>(of bytes: [UInt8], _ body: (UnsafeBufferPointer<UInt8>, Int) -> Result) -> Result {
        withValidUTF8(bytes) { text in
            guard case .found(let location) = FrontmatterBlock.detect(text) else { return body(text, 1) }
            return body(UnsafeBufferPointer(rebasing: text[location.bodyStart...]), location.bodyFirstLine)
        }
    }

    /// `bytes` without a byte-order mark, invalid UTF-8 replaced with U+FFFD.
    private static func withValidUTF8<Result>(_ bytes: [UInt8], _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        var input = bytes
        if UTF8Validation.firstInvalidOffset(input) != nil { input = Array(String(decoding: input, as: UTF8.self).utf8) }
        return input.withUnsafeBufferPointer { buffer in
            let hasByteOrderMark = buffer.count >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF
            return body(hasByteOrderMark ? UnsafeBufferPointer(rebasing: buffer[3...]) : buffer)
        }
    }

    private static func parseValidUTF8(
        _ bytes: UnsafeBufferPointer<UInt8>, path: String, includeBodyText: Bool, findings initialFindings: [Finding]
    ) -> ParsedNote {
        var findings = initialFindings
        var frontmatter: Frontmatter? = nil
        var yamlText: UnsafeBufferPointer<UInt8>? = nil
        var bodyStart = 0
        var bodyFirstLine = 1
        switch FrontmatterBlock.detect(bytes) {
        case .none:
            break
        case .unclosed:
            findings.append(Finding(
                code: .unclosedFrontmatter, severity: .warning,
                message: "the file starts with `---` but the frontmatter block is never closed; the note has no properties",
                path: path, line: 1, column: 1, fix: "add a line `---` after the last property"))
        case .found(let location):
            bodyStart = location.bodyStart
            bodyFirstLine = location.bodyFirstLine
            let yaml = UnsafeBufferPointer(rebasing: bytes[location.yamlStart..<location.yamlEnd])
            frontmatter = parseFrontmatter(yaml, closingLine: location.closingLine, path: path, findings: &findings)
            yamlText = yaml
        }
        let bodyBytes = UnsafeBufferPointer(rebasing: bytes[bodyStart...])
        var content = MarkdownScanner.scan(bodyBytes, firstLine: bodyFirstLine)
        var aliases: [String] = []
        if let frontmatter, !frontmatter.isInvalid {
            let properties = FrontmatterProperties.read(frontmatter, path: path, yaml: yamlText)
            content.tags.insert(contentsOf: properties.tags, at: 0)
            content.links.insert(contentsOf: properties.links, at: 0)
            aliases = properties.aliases
            findings += properties.findings
        }
        return ParsedNote(
            frontmatter: frontmatter, links: content.links, tags: content.tags, headings: content.headings,
            blocks: content.blocks, tasks: content.tasks, inlineFields: content.inlineFields, aliases: aliases, findings: findings,
            bodyText: includeBodyText ? String(decoding: bodyBytes, as: UTF8.self) : nil)
    }

    private static func parseFrontmatter(
        _ yaml: UnsafeBufferPointer<UInt8>, closingLine: Int, path: String, findings: inout [Finding]
    ) -> Frontmatter {
        let (result, duplicates) = YAMLParser.parseReportingDuplicates(yaml, lineOffset: 1)
        switch result {
        case .failure(let error):
            findings.append(Finding(
                code: .invalidYAML, severity: .error,
                message: "invalid YAML in frontmatter: \(error.message); the note has no properties",
                path: path, line: error.line, column: error.column,
                fix: error.isLimit
                    ? "simplify the frontmatter (fewer nested levels, no alias chains)"
                    : "quote values that contain `: `, `#`, `@` or start with `[`, `{`, `*`, `&`, `!`"))
            return Frontmatter(entries: [], closingLine: closingLine, isInvalid: true)
        case .success(let root):
            for duplicate in duplicates {
                findings.append(Finding(
                    code: .duplicateKey, severity: .warning,
                    message: "the key `\(duplicate.key)` occurs more than once; the last value is used",
                    path: path, line: duplicate.line, column: duplicate.column, fix: "remove one of the `\(duplicate.key)` keys"))
            }
            guard let root else { return Frontmatter(entries: [], closingLine: closingLine, isInvalid: false) }
            guard case .map(let entries) = root.value else {
                findings.append(Finding(
                    code: .frontmatterNotMapping, severity: .error,
                    message: "frontmatter is a \(root.value.typeName), not a set of `key: value` properties",
                    path: path, line: root.line, column: root.column, fix: "write properties as `key: value` lines"))
                return Frontmatter(entries: [], closingLine: closingLine, isInvalid: true)
            }
            return Frontmatter(entries: entries, closingLine: closingLine, isInvalid: false)
        }
    }
}
