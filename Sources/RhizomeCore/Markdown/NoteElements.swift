/// The things Rhizome reads out of a note, as Obsidian's metadata cache does.

/// One link occurrence: a wikilink, an embed, a markdown link, a property link or a canvas file node.
public struct LinkOccurrence: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// `[[path#subpath|display]]`
        case wikilink
        /// `![[path]]`
        case embed
        /// `[display](path)`
        case markdown
        /// `![display](path)`
        case markdownEmbed = "markdown-embed"
        /// A quoted wikilink or markdown link in a frontmatter value; `propertyKey` names the key.
        case property
        /// A `file` node of a `.canvas` file.
        case canvasFile = "canvas-file"
    }

    public var kind: Kind
    /// The frontmatter key for property links (dotted for nested maps: `project.owner`).
    public var propertyKey: String?
    /// The link path as written, before `#` (trimmed; URL-decoded for markdown links). Empty for `[[#Heading]]`.
    public var path: String
    /// What follows the first `#`: `Heading`, `H1#H2`, `^block-id`; nil when absent.
    public var subpath: String?
    /// The display text after `|` (wikilinks) or between brackets (markdown links).
    public var display: String?
    /// 1-based line and column (in Unicode scalars) where the link starts.
    public var line: Int
    public var column: Int
    /// Written as a markdown link `[…](…)` (also for property links): such links resolve relative to the
    /// source note's folder first.
    public var isMarkdownSyntax: Bool

    public init(
        kind: Kind, propertyKey: String? = nil, path: String, subpath: String? = nil, display: String? = nil,
        line: Int, column: Int, isMarkdownSyntax: Bool? = nil
    ) {
        self.kind = kind
        self.propertyKey = propertyKey
        self.path = path
        self.subpath = subpath
        self.display = display
        self.line = line
        self.column = column
        self.isMarkdownSyntax = isMarkdownSyntax ?? (kind == .markdown || kind == .markdownEmbed)
    }

    /// Embeds (either syntax) render the target inside the note; they still count as links.
    public var isEmbed: Bool { kind == .embed || kind == .markdownEmbed }
}

/// A `#tag` in the body or a `tags:` value in frontmatter. `name` has no leading `#` and keeps its case.
public struct TagOccurrence: Sendable, Hashable, Codable {
    public var name: String
    public var isFromFrontmatter: Bool
    public var line: Int
    public var column: Int

    public init(name: String, isFromFrontmatter: Bool, line: Int, column: Int) {
        self.name = name
        self.isFromFrontmatter = isFromFrontmatter
        self.line = line
        self.column = column
    }
}

/// An ATX (`## Title`) or setext heading.
public struct Heading: Sendable, Hashable, Codable {
    public var level: Int
    public var text: String
    public var line: Int

    public init(level: Int, text: String, line: Int) {
        self.level = level
        self.text = text
        self.line = line
    }
}

/// A block id `^id` that `[[Note#^id]]` can point at.
public struct BlockID: Sendable, Hashable, Codable {
    public var id: String
    public var line: Int

    public init(id: String, line: Int) {
        self.id = id
        self.line = line
    }
}

/// A list item starting with `[c]`: space is open, `x`/`X` done, anything else a custom status.
public struct TaskItem: Sendable, Hashable, Codable {
    public var status: String
    /// The text of the task's first line, after the checkbox.
    public var text: String
    public var line: Int
    /// The line of the list item the task is nested in, when that item is a task too (what a Dataview
    /// `TASK` result indents it under).
    public var parentTaskLine: Int?
    /// The text with its continuation lines (`ListItem.text`, what Dataview shows), when it has any.
    public var continuedText: String?

    public init(status: String, text: String, line: Int, parentTaskLine: Int? = nil, continuedText: String? = nil) {
        self.status = status
        self.text = text
        self.line = line
        self.parentTaskLine = parentTaskLine
        self.continuedText = continuedText
    }

    public var isDone: Bool { status == "x" || status == "X" }
    public var isOpen: Bool { status == " " }
}

/// A Dataview inline field: `key:: value` as a line of its own, or `[key:: value]` / `(key:: value)`
/// anywhere in text. Values are kept as written; typing them (numbers, dates, links) is the query's job.
public struct InlineField: Sendable, Hashable, Codable {
    public enum Syntax: String, Sendable, Codable, CaseIterable {
        /// `key:: value` filling the rest of the line (also after a list marker, in quotes and callouts).
        case fullLine = "full-line"
        /// `[key:: value]`: rendered with its key.
        case bracket
        /// `(key:: value)`: rendered without its key.
        case parenthesis
    }

    /// The key as written, trimmed; for full-line fields without the formatting Dataview strips
    /// (`**Key**:: v` gives `Key`). `DataviewKey.canonicalKey` gives the name queries also accept.
    public var key: String
    /// The raw value after `::`, trimmed (empty for `key::`).
    public var value: String
    public var syntax: Syntax
    /// 1-based line and column (in Unicode scalars) where the field starts: the opening bracket or
    /// parenthesis, or for a full-line field the first character of its key after list markers, quote
    /// markers and formatting.
    public var line: Int
    public var column: Int

    public init(key: String, value: String, syntax: Syntax, line: Int, column: Int) {
        self.key = key
        self.value = value
        self.syntax = syntax
        self.line = line
        self.column = column
    }
}
