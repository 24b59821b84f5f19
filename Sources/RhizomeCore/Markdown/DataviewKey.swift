/// Dataview's rules for field names: the canonical form under which a field can be queried, and the
/// grammar of the key of a full-line inline field (`**Key**:: value`).
///
/// Dataview makes every field available under its name as written and under a canonical name:
/// `Book Rating:: 5` is both `Book Rating` and `book-rating`. Frontmatter keys get the same treatment.
///
///     DataviewKey.canonicalKey("Book Rating")   // "book-rating"
///     DataviewKey.canonicalKey("**Bold**")      // "bold"
///     DataviewKey.canonicalKey("🎉 Party")       // "🎉-party"
///
/// Like Dataview's patterns, these rules look at one Unicode scalar at a time. They differ in one way:
/// combining marks count as part of a key (Dataview, matching letters only, drops them, so a decomposed
/// `é` would lose its accent).
public enum DataviewKey {
    /// Dataview's `canonicalizeVarName`: letters, ASCII digits, `_` and `-` lowercased; emoji kept; each
    /// run of whitespace becomes one `-`; anything else (punctuation, formatting) is dropped. The result
    /// is NFC. An empty result means the key has no canonical form (Dataview then keeps only the key as written).
    public static func canonicalKey(_ key: String) -> String {
        if key.utf8.allSatisfy({ $0 < 0x80 }) { return asciiCanonicalKey(key) }
        var result = String.UnicodeScalarView()
        var inWhitespace = false
        for scalar in UnicodeNormalization.nfc(key).unicodeScalars {
            let kind = ScalarKind(scalar)
            if kind == .whitespace {
                if !inWhitespace { result.append("-") }
                inWhitespace = true
                continue
            }
            inWhitespace = false
            switch kind {
            case .emoji, .mark: result.append(scalar)
            case .letter, .asciiDigit, .underscore, .dash: result.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
            case .whitespace, .slash, .other: break
            }
        }
        return String(result)
    }

    /// The key of a full-line field, from the raw text before `::` (Dataview's full-line key grammar):
    /// leading characters that are not letters, digits or `_` are dropped (`**`, `## `, `> `, emoji), then
    /// letters, ASCII digits, `_`, `-`, `/`, whitespace and emoji make the key, then trailing `_ * ~` and
    /// backticks are dropped; anything else makes the line no field. Returns the key (trimmed) and how
    /// many Unicode scalars were dropped before it, or nil.
    static func fullLineKey(_ raw: Substring) -> (key: String, droppedScalars: Int)? {
        var copy = String(raw)
        return copy.withUTF8 { bytes in
            guard let range = fullLineKeyRange(bytes, 0, bytes.count) else { return nil }
            let key = String(decoding: UnsafeBufferPointer(rebasing: bytes[range.start..<range.end]), as: UTF8.self)
            return (key, range.droppedScalars)
        }
    }

    /// `fullLineKey` over the UTF-8 bytes `[start, end)` (valid UTF-8): the byte range of the key.
    static func fullLineKeyRange(
        _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int
    ) -> (start: Int, end: Int, droppedScalars: Int)? {
        var index = start
        var droppedScalars = 0
        while index < end {
            let (kind, length) = ScalarKind.at(index, in: bytes, end: end)
            if kind == .letter || kind == .asciiDigit || kind == .underscore { break }
            droppedScalars += 1
            index += length
        }
        let keyStart = index
        while index < end {
            let (kind, length) = ScalarKind.at(index, in: bytes, end: end)
            guard kind != .other else { break }
            index += length
        }
        var keyEnd = index
        while index < end, bytes[index] == UInt8(ascii: "_") || bytes[index] == UInt8(ascii: "*")
                || bytes[index] == UInt8(ascii: "~") || bytes[index] == UInt8(ascii: "`") {
            index += 1
        }
        guard index == end else { return nil }
        while keyEnd > keyStart, bytes[keyEnd - 1] == UInt8(ascii: " ") || bytes[keyEnd - 1] == UInt8(ascii: "\t") { keyEnd -= 1 }
        return keyEnd > keyStart ? (keyStart, keyEnd, droppedScalars) : nil
    }

    private static func asciiCanonicalKey(_ key: String) -> String {
        var result: [UInt8] = []
        result.reserveCapacity(key.utf8.count)
        var inWhitespace = false
        for byte in key.utf8 {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), 0x0B, 0x0C:
                if !inWhitespace { result.append(UInt8(ascii: "-")) }
                inWhitespace = true
                continue
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): result.append(byte + 32)
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
                result.append(byte)
            default: break
            }
            inWhitespace = false
        }
        return String(decoding: result, as: UTF8.self)
    }
}

/// How Dataview's patterns see one Unicode scalar.
enum ScalarKind {
    /// Part of an emoji: a pictograph, a modifier, a joiner, a variation selector, a keycap, a tag.
    case emoji
    /// A combining mark (kept with the letter before it).
    case mark
    case letter, asciiDigit, underscore, dash, slash, whitespace, other

    init(_ scalar: Unicode.Scalar) {
        switch scalar.value {
        case 0x30...0x39: self = .asciiDigit
        case 0x41...0x5A, 0x61...0x7A: self = .letter
        case 0x5F: self = .underscore
        case 0x2D: self = .dash
        case 0x2F: self = .slash
        case 0x09...0x0D, 0x20: self = .whitespace
        case 0x00..<0x80: self = .other
        case 0x200D, 0xFE0F, 0x20E3, 0xE0020...0xE007F: self = .emoji
        default:
            let properties = scalar.properties
            switch properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: self = .letter
            case .nonspacingMark, .spacingMark, .enclosingMark: self = .mark
            default:
                if properties.isWhitespace {
                    self = .whitespace
                } else if properties.isEmoji || properties.isEmojiModifier {
                    self = .emoji
                } else {
                    self = .other
                }
            }
        }
    }

    /// The kind of the scalar starting at `index` and its length in bytes.
    static func at(_ index: Int, in bytes: UnsafeBufferPointer<UInt8>, end: Int) -> (ScalarKind, Int) {
        let lead = bytes[index]
        if lead < 0x80 { return (ScalarKind(Unicode.Scalar(lead)), 1) }
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        guard index + length <= end else { return (.other, 1) }
        var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for offset in 1..<length { value = value << 6 | (UInt32(bytes[index + offset]) & 0x3F) }
        guard let scalar = Unicode.Scalar(value) else { return (.other, length) }
        return (ScalarKind(scalar), length)
    }
}
