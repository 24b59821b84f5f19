/// The tags Dataview gives a list item or task (`file.lists.tags`, a `TASK` row's `tags`): its own reading
/// of the item's text, not Obsidian's. Each `#` starts a candidate that runs to whitespace or one of
/// ``, ; . : ! ? ' " ` ( ) [ ] { }``; a candidate is a tag only when all of it is letters, digits, `_`, `/`,
/// `-` or emoji, else it is dropped whole. Nothing is required before `#` and all-digit tags count, so
/// `- #one,#two, #three` has three tags here and two in Obsidian.
public enum DataviewListItemTags {
    public static func tags(in text: String) -> [String] {
        let scalars = Array(text.unicodeScalars)
        var found: [String] = []
        var index = 0
        while index < scalars.count {
            guard scalars[index] == "#" else {
                index += 1
                continue
            }
            var end = index + 1
            while end < scalars.count, !endsCandidate(scalars[end]) { end += 1 }
            let body = scalars[(index + 1)..<end]
            if !body.isEmpty, body.allSatisfy(isTagScalar) {
                let tag = "#" + String(String.UnicodeScalarView(body))
                if !found.contains(tag) { found.append(tag) }
            }
            index = end
        }
        return found
    }

    private static func endsCandidate(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || ",;.:!?'\"`()[]{}".unicodeScalars.contains(scalar)
    }

    /// Letters (any script), ASCII digits, `_`, `/`, `-`, and the scalars of emoji (with their variation
    /// selector and joiner).
    private static func isTagScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "0"..."9", "_", "/", "-", "\u{FE0F}", "\u{200D}": return true
        default:
            let properties = scalar.properties
            if properties.generalCategory.isLetter { return true }
            return !scalar.isASCII && (properties.isEmojiPresentation || properties.isEmoji)
        }
    }
}

private extension Unicode.GeneralCategory {
    var isLetter: Bool {
        switch self {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: return true
        default: return false
        }
    }
}
