/// Obsidian's tag grammar (docs: docs/OBSIDIAN.md, "Tags"; source: the character class in Obsidian's app.js, as read
/// by plugins that mirror it, e.g. Tag Wrangler, and checked against Obsidian's metadata cache by others):
/// a tag is one or more characters none of which is whitespace, General Punctuation (U+2000–U+206F),
/// Supplemental Punctuation (U+2E00–U+2E7F) or one of ``'!"#$%&()*+,.:;<=>?@^`{|}~[]\``; so letters and
/// digits of any script, `_`, `-`, `/`, emoji and other symbols (`→`, `€`) are allowed. At least one
/// character is not an ASCII digit (`#1984` is not a tag, `#١٢٣` is). Nested parts are not empty.
public enum TagSyntax {
    public static func isValidTagName<S: StringProtocol>(_ name: S) -> Bool {
        var hasNonDigit = false
        var previous: Unicode.Scalar? = nil
        for scalar in name.unicodeScalars {
            switch scalar {
            case "0"..."9": break
            case "/":
                // Nested parts may not be empty: no leading or doubled `/` (nor trailing, below).
                guard previous != nil, previous != "/" else { return false }
                hasNonDigit = true
            default:
                guard continuesTag(scalar) else { return false }
                hasNonDigit = true
            }
            previous = scalar
        }
        return hasNonDigit && previous != "/"
    }

    /// Whether `scalar` may be part of a tag (it does not end one).
    @inline(__always)
    public static func continuesTag(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x80 { return asciiContinuesTag(UInt8(value)) }
        switch value {
        case 0x2000...0x206F, 0x2E00...0x2E7F: return false  // punctuation blocks; also most Unicode spaces, ZWJ
        case 0x00A0, 0x1680, 0x3000, 0xFEFF: return false  // the other spaces JavaScript's `\s` matches
        default: return true
        }
    }

    /// Letters, digits, `_`, `-` and `/`: every other printable ASCII character is in the class that ends a tag.
    @inline(__always)
    static func asciiContinuesTag(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == 0x5F || byte == 0x2D || byte == 0x2F
    }

    /// Lowercased form used to group tags (tags are case-insensitive).
    public static func key(_ name: String) -> String { UnicodeNormalization.matchKey(name) }

    /// `a/b/c` → `["a", "a/b", "a/b/c"]`: a query for a parent tag matches its children.
    public static func selfAndAncestors(_ name: String) -> [String] {
        var result: [String] = []
        var prefix = ""
        for part in name.split(separator: "/", omittingEmptySubsequences: false) {
            prefix = prefix.isEmpty && result.isEmpty ? String(part) : prefix + "/" + part
            result.append(prefix)
        }
        return result
    }
}
