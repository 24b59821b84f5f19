/// Dataview's `normalizeHeaderForLink`: the subpath a link to a heading gets in Dataview, for a list
/// item's `section` and a `[[Note#Heading]]` link.
///
/// Letters, ASCII digits, `_`, `-` and emoji are kept; every other character (punctuation, markdown
/// formatting, the brackets of a wikilink) becomes a space; runs of spaces become one; the ends are
/// trimmed:
///
///     DataviewHeading.linkSubpath("Header  [[Outer Wilds]]  ")   // "Header Outer Wilds"
///     DataviewHeading.linkSubpath("**Header** *Value")            // "Header Value"
///
/// Like `DataviewKey`, this looks at one Unicode scalar at a time and keeps combining marks (Dataview's
/// pattern, matching letters only, would turn a decomposed `é` into `e `).
public enum DataviewHeading {
    public static func linkSubpath(_ heading: String) -> String {
        var result = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in heading.unicodeScalars {
            switch ScalarKind(scalar) {
            case .letter, .asciiDigit, .underscore, .dash, .emoji, .mark:
                if pendingSpace, !result.isEmpty { result.append(" ") }
                pendingSpace = false
                result.append(scalar)
            case .whitespace, .slash, .other:
                pendingSpace = true
            }
        }
        return String(result)
    }
}
