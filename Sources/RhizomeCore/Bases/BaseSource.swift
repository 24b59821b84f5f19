/// The text of one expression in a `.base` file (a filter statement, a formula, a summary formula) as
/// YAML delivered it, with where each of its characters was written, so an error found inside the
/// expression can point at the file's line and column.
///
/// Offsets count `Character`s of `text` (as `Array(text)` indexes them, like `BaseExpressionParser`'s
/// ranges); lines and columns are 1-based, columns counting Unicode scalars (as libyaml and the rest of
/// Rhizome do). For a `base` code block in a note, lines are the note's.
public struct BaseSource: Sendable, Hashable {
    /// A stretch of `text` written without a break in the file: from `offset` on, each character sits
    /// right after the one before, on `line`, starting at `column`.
    struct Run: Sendable, Hashable {
        var offset: Int
        var line: Int
        var column: Int
    }

    /// The expression as YAML delivered it: quotes removed, escapes decoded, lines folded.
    public var text: String
    /// Where `text`'s first character is in the file (after an opening quote; on the first content line of
    /// a block scalar). For an empty quoted text, the position after the opening quote.
    public var line: Int
    public var column: Int
    /// Sorted by offset; the first starts at offset 0. Exact for every character when the text was found
    /// in the file; a single run at the node's position when it could not be (an alias, for one).
    var runs: [Run]

    /// A source written in one stretch from `line`:`column` (a plain one-line scalar, or a text built in code).
    public init(text: String, line: Int, column: Int) {
        self.init(text: text, runs: [Run(offset: 0, line: line, column: column)])
    }

    init(text: String, runs: [Run]) {
        self.text = text
        self.runs = runs.isEmpty ? [Run(offset: 0, line: 1, column: 1)] : runs
        line = self.runs[0].line
        column = self.runs[0].column
    }

    /// The file's line and column of the character at `offset` in `text`; an offset at or past the end
    /// gives the position just after the last character (where "expected more" errors point).
    public func location(ofOffset offset: Int) -> (line: Int, column: Int) {
        let characters = Array(text)
        let offset = max(0, min(offset, characters.count))
        // The last run starting at or before the offset.
        var low = 0
        var high = runs.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if runs[middle].offset <= offset { low = middle } else { high = middle - 1 }
        }
        let run = runs[low]
        var column = run.column
        var index = run.offset
        while index < offset {
            column += characters[index].unicodeScalars.count
            index += 1
        }
        return (run.line, column)
    }
}
