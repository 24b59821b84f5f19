/// Finds where the characters of a YAML scalar were written in a `.base` file, to build its `BaseSource`.
///
/// libyaml gives the position of a scalar's start (its opening quote, its `|`), not of each character.
/// The locator walks the file from there alongside the text libyaml decoded: quotes, `\"` and `''`
/// escapes, folded line breaks and block indentation are skipped as they are met, so every character
/// gets its own line and column. If the walk and the decoded text ever disagree (an alias, a construct
/// the walk does not know), the source falls back to one run at the scalar's start.
struct BaseSourceLocator {
    private enum Style { case plain, singleQuoted, doubleQuoted, block }

    private struct Cursor {
        var index: Int
        var line: Int
        var column: Int
    }

    /// What a backslash escape in a double-quoted scalar stands for.
    private enum Escape {
        case scalar(Unicode.Scalar, length: Int)
        /// A `\` at the end of a line: the break and the next line's indentation are dropped.
        case lineBreak(length: Int)
    }

    private let scalars: [Unicode.Scalar]
    /// Index in `scalars` of each line's first scalar (line 1 first).
    private let lineStarts: [Int]
    /// Added to libyaml's lines (a `base` code block's first line is not line 1 of its note).
    private let lineOffset: Int

    init(_ text: String, lineOffset: Int) {
        var scalars = Array(text.unicodeScalars)
        // libyaml consumes a byte-order mark before counting columns.
        if scalars.first == "\u{FEFF}" { scalars.removeFirst() }
        var starts = [0]
        for (index, scalar) in scalars.enumerated() where scalar == "\n" { starts.append(index + 1) }
        self.scalars = scalars
        self.lineStarts = starts
        self.lineOffset = lineOffset
    }

    /// The source of `text`, the decoded value of the scalar `node`.
    func source(_ text: String, of node: FrontmatterNode) -> BaseSource {
        let lineIndex = node.line - lineOffset - 1
        guard lineStarts.indices.contains(lineIndex), lineStarts[lineIndex] + node.column - 1 < scalars.count else {
            return BaseSource(text: text, line: node.line, column: node.column)
        }
        var cursor = Cursor(index: lineStarts[lineIndex] + node.column - 1, line: node.line, column: node.column)
        let isAtQuote = scalars[cursor.index] == "\"" || scalars[cursor.index] == "'"
        let fallback = BaseSource(text: text, line: node.line, column: node.column + (isAtQuote ? 1 : 0))
        let style: Style
        switch scalars[cursor.index] {
        case "\"": style = .doubleQuoted
        case "'": style = .singleQuoted
        case "|", ">": style = .block
        default: style = .plain
        }
        guard (style == .singleQuoted || style == .doubleQuoted) == node.isQuoted else { return fallback }
        var blockIndentation = 0
        if style == .block {
            // Content starts on the line after the header (`|-`, `>+2`, a comment).
            while cursor.index < scalars.count, scalars[cursor.index] != "\n" { advance(&cursor) }
            guard cursor.index < scalars.count else { return fallback }
            advance(&cursor)
            blockIndentation = contentIndentation(from: cursor.index)
        } else if style != .plain {
            advance(&cursor)
        }
        guard let positions = walk(Array(text.unicodeScalars), from: cursor, style: style, blockIndentation: blockIndentation) else {
            return fallback
        }
        if text.isEmpty { return BaseSource(text: text, line: cursor.line, column: cursor.column) }
        return BaseSource(text: text, runs: Self.runs(of: text, positions: positions))
    }

    /// True when the file has `character` where `node` starts (an unquoted `!` that YAML read as a tag).
    func startsWith(_ character: Unicode.Scalar, _ node: FrontmatterNode) -> Bool {
        let lineIndex = node.line - lineOffset - 1
        guard lineStarts.indices.contains(lineIndex) else { return false }
        let index = lineStarts[lineIndex] + node.column - 1
        return index < scalars.count && scalars[index] == character
    }

    /// The line and column of each decoded scalar, or nil when the file does not spell `expected` there.
    private func walk(
        _ expected: [Unicode.Scalar], from start: Cursor, style: Style, blockIndentation: Int
    ) -> [(line: Int, column: Int)]? {
        var positions: [(line: Int, column: Int)] = []
        positions.reserveCapacity(expected.count)
        var cursor = start
        var atLineStart = style == .block
        while positions.count < expected.count {
            if atLineStart {
                var skipped = 0
                while skipped < blockIndentation, cursor.index < scalars.count, scalars[cursor.index] == " " {
                    advance(&cursor)
                    skipped += 1
                }
                atLineStart = false
            }
            guard cursor.index < scalars.count else { return nil }
            let found = scalars[cursor.index]
            let wanted = expected[positions.count]
            if style == .doubleQuoted, found == "\\" {
                switch escape(at: cursor.index) {
                case .scalar(let decoded, let length)?:
                    guard decoded == wanted else { return nil }
                    positions.append((cursor.line, cursor.column))
                    for _ in 0..<length { advance(&cursor) }
                case .lineBreak(let length)?:
                    for _ in 0..<length { advance(&cursor) }
                    while cursor.index < scalars.count, scalars[cursor.index] == " " || scalars[cursor.index] == "\t" { advance(&cursor) }
                case nil:
                    return nil
                }
                continue
            }
            if style == .singleQuoted, found == "'" {
                // Inside single quotes `''` is one quote; a lone one closes the scalar too early.
                guard wanted == "'", cursor.index + 1 < scalars.count, scalars[cursor.index + 1] == "'" else { return nil }
                positions.append((cursor.line, cursor.column))
                advance(&cursor)
                advance(&cursor)
                continue
            }
            if style == .doubleQuoted, found == "\"" { return nil }
            if found == wanted {
                positions.append((cursor.line, cursor.column))
                advance(&cursor)
                if found == "\n" { atLineStart = style == .block }
                continue
            }
            switch found {
            case "\n":
                // A folded line break reads as a space: it is where the break was.
                if wanted == " " { positions.append((cursor.line, cursor.column)) }
                advance(&cursor)
                atLineStart = style == .block
            case "\r", " ", "\t":
                // The `\r` of a CRLF; indentation of a continued line; trailing spaces folding drops.
                advance(&cursor)
            default:
                return nil
            }
        }
        return positions
    }

    private func advance(_ cursor: inout Cursor) {
        if scalars[cursor.index] == "\n" {
            cursor.line += 1
            cursor.column = 1
        } else {
            cursor.column += 1
        }
        cursor.index += 1
    }

    /// The indentation of a block scalar's first non-empty content line.
    private func contentIndentation(from index: Int) -> Int {
        var index = index
        var spaces = 0
        while index < scalars.count {
            switch scalars[index] {
            case " ": spaces += 1
            case "\n": spaces = 0
            case "\r": break
            default: return spaces
            }
            index += 1
        }
        return spaces
    }

    /// `\n` and the like: the scalar value each letter after a backslash stands for.
    private static let singleLetterEscapes: [Unicode.Scalar: UInt32] = [
        "0": 0, "a": 7, "b": 8, "t": 9, "\t": 9, "n": 10, "v": 11, "f": 12, "r": 13, "e": 27, " ": 32, "\"": 34,
        "/": 47, "\\": 92, "N": 0x85, "_": 0xA0, "L": 0x2028, "P": 0x2029,
    ]

    /// The escape starting with the backslash at `index` (YAML 1.2, "Escaped Characters").
    private func escape(at index: Int) -> Escape? {
        guard index + 1 < scalars.count else { return nil }
        let letter = scalars[index + 1]
        if let value = Self.singleLetterEscapes[letter], let scalar = Unicode.Scalar(value) { return .scalar(scalar, length: 2) }
        switch letter {
        case "\n": return .lineBreak(length: 2)
        case "\r": return .lineBreak(length: index + 2 < scalars.count && scalars[index + 2] == "\n" ? 3 : 2)
        case "x", "u", "U":
            let digits = letter == "x" ? 2 : letter == "u" ? 4 : 8
            guard index + 2 + digits <= scalars.count else { return nil }
            let hex = String(String.UnicodeScalarView(scalars[(index + 2)..<(index + 2 + digits)]))
            guard let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) else { return nil }
            return .scalar(scalar, length: 2 + digits)
        default:
            return nil
        }
    }

    /// Runs of characters written one after another on a line, from each scalar's position.
    private static func runs(of text: String, positions: [(line: Int, column: Int)]) -> [BaseSource.Run] {
        var runs: [BaseSource.Run] = []
        var scalarIndex = 0
        var next: (line: Int, column: Int)? = nil
        for (offset, character) in text.enumerated() {
            let position = positions[scalarIndex]
            if next == nil || next! != position {
                runs.append(BaseSource.Run(offset: offset, line: position.line, column: position.column))
            }
            let count = character.unicodeScalars.count
            next = (position.line, position.column + count)
            scalarIndex += count
        }
        return runs
    }
}
