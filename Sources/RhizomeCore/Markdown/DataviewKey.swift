import Foundation

/// Dataview's rules for field names: the canonical form under which a field can be queried, and the
/// grammar of the key of a full-line inline field (`**Key**:: value`).
///
/// Dataview makes every field available under its name as written and under a canonical name:
/// `Book Rating:: 5` is both `Book Rating` and `book-rating`. Frontmatter keys get the same treatment.
///
///     DataviewKey.canonicalKey("Book Rating")   // "book-rating"
///     DataviewKey.canonicalKey("**Bold**")      // "bold"
///     DataviewKey.canonicalKey("🎉 Party")       // "🎉-party"
public enum DataviewKey {
    /// Dataview's `canonicalizeVarName`: letters, ASCII digits, `_` and `-` lowercased; emoji kept; each
    /// run of whitespace becomes one `-`; anything else (punctuation, formatting) is dropped. The result
    /// is NFC. An empty result means the key has no canonical form (Dataview then keeps only the key as written).
    public static func canonicalKey(_ key: String) -> String {
        var result = ""
        var inWhitespace = false
        for character in UnicodeNormalization.nfc(key) {
            let kind = CharacterKind(character)
            if kind == .whitespace {
                if !inWhitespace { result.append("-") }
                inWhitespace = true
                continue
            }
            inWhitespace = false
            switch kind {
            case .emoji: result.append(character)
            case .letter, .asciiDigit, .underscore, .dash: result += character.lowercased()
            case .whitespace, .slash, .other: break
            }
        }
        return result
    }

    /// The key of a full-line field, from the raw text before `::` (Dataview's full-line key grammar):
    /// leading characters that are not letters, digits or `_` are dropped (`**`, `## `, `> `, emoji), then
    /// letters, ASCII digits, `_`, `-`, `/`, whitespace and emoji make the key, then trailing `_ * ~` and
    /// backticks are dropped; anything else makes the line no field. Returns the key (trimmed) and how
    /// many Unicode scalars were dropped before it, or nil.
    static func fullLineKey(_ raw: Substring) -> (key: String, droppedScalars: Int)? {
        var index = raw.startIndex
        var droppedScalars = 0
        while index < raw.endIndex {
            let kind = CharacterKind(raw[index])
            if kind == .letter || kind == .asciiDigit || kind == .underscore { break }
            droppedScalars += raw[index].unicodeScalars.count
            index = raw.index(after: index)
        }
        let keyStart = index
        while index < raw.endIndex, CharacterKind(raw[index]).isFullLineKeyPart { index = raw.index(after: index) }
        let keyEnd = index
        while index < raw.endIndex, "_*~`".contains(raw[index]) { index = raw.index(after: index) }
        guard index == raw.endIndex else { return nil }
        let key = String(raw[keyStart..<keyEnd]).trimmingCharacters(in: .whitespaces)
        return key.isEmpty ? nil : (key, droppedScalars)
    }
}

/// How Dataview's patterns see one character (a grapheme cluster: an emoji sequence or a letter with its
/// combining marks stays whole; Dataview, matching code points, would drop the marks).
private enum CharacterKind {
    case emoji, letter, asciiDigit, underscore, dash, slash, whitespace, other

    init(_ character: Character) {
        let scalars = character.unicodeScalars
        let first = scalars.first!
        // A keycap (`1️⃣`, `#️⃣`) is an emoji; the bare character is not.
        let isKeycap = scalars.count > 1 && scalars.contains("\u{20E3}")
        switch first {
        case "0"..."9": self = isKeycap ? .emoji : .asciiDigit; return
        case "#", "*": self = isKeycap ? .emoji : .other; return
        case "_": self = .underscore; return
        case "-": self = .dash; return
        case "/": self = .slash; return
        default: break
        }
        let properties = first.properties
        if properties.isWhitespace {
            self = .whitespace
            return
        }
        switch properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter:
            self = .letter
            return
        default: break
        }
        if first.value >= 0x80, properties.isEmojiPresentation || (properties.isEmoji && scalars.contains("\u{FE0F}")) {
            self = .emoji
        } else {
            self = .other
        }
    }

    var isFullLineKeyPart: Bool {
        self != .other
    }
}
