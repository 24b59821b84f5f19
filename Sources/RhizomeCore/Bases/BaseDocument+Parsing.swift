/// Reading a `.base` file's text into a `BaseDocument`: the YAML is parsed with `YAMLParser` (libyaml,
/// positions on every node), then `BaseDocumentReader` reads each section.
extension BaseDocument {
    /// Reads a `.base` file, or the body of a `base` code block with `lineOffset` the number of note lines
    /// before it (so every line reported is the note's). Fails only when Obsidian could not show the base at
    /// all: invalid YAML, a top level that is not a mapping, `views` that is not a list.
    public static func parse(_ text: String, lineOffset: Int = 0) -> Result<BaseDocument, BaseDocumentError> {
        var copy = text
        let (result, duplicates) = copy.withUTF8 { YAMLParser.parseReportingDuplicates($0, lineOffset: lineOffset) }
        let root: FrontmatterNode?
        switch result {
        case .failure(let error):
            // `- !file.hasTag("x")` unquoted: YAML reads `!` as the start of a tag.
            // The parser's limits speak of frontmatter, where it mostly reads YAML.
            let message = error.message.replacingOccurrences(of: "the frontmatter", with: "the base")
            let fix = error.isLimit
                ? "make the YAML smaller or less deeply nested"
                : error.message.contains("tag")
                ? "quote the expression: an unquoted `!` starts a YAML tag, e.g. `- '!file.hasTag(\"draft\")'`"
                : "correct the YAML here; quote an expression that contains `: ` or ` #`, or starts with `!`, `[`, `{`, `*`, `&`, `'` or `\"`"
            return .failure(BaseDocumentError(
                code: .baseInvalidYAML, message: "the base is not valid YAML: \(message)", line: error.line, column: error.column, fix: fix))
        case .success(let node):
            root = node
        }
        var reader = BaseDocumentReader(locator: BaseSourceLocator(text, lineOffset: lineOffset))
        for duplicate in duplicates {
            reader.report(
                .baseDuplicateKey, "`\(duplicate.key)` is given twice in one mapping; the later value is used",
                line: duplicate.line, column: duplicate.column, fix: "remove or rename one of the two `\(duplicate.key)` keys")
        }
        guard let root else { return .success(reader.finish(BaseDocument())) }
        switch root.value {
        case .map(let entries):
            return reader.read(entries)
        case .null:
            return .success(reader.finish(BaseDocument()))
        default:
            return .failure(BaseDocumentError(
                code: .baseNotMapping, message: "the base's top level is a \(root.value.typeName), not a mapping",
                line: root.line, column: root.column,
                fix: "write the base as a mapping with `filters:`, `formulas:`, `properties:`, `summaries:` and `views:`"))
        }
    }
}
