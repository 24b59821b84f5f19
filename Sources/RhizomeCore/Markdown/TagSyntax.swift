/// Obsidian's tag grammar: letters (any script), digits, `_`, `-`, `/`; at least one non-digit; no spaces.
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
            case "a"..."z", "A"..."Z", "_", "-": hasNonDigit = true
            default:
                guard scalar.value >= 0x80, isTagScalar(scalar) else { return false }
                hasNonDigit = true
            }
            previous = scalar
        }
        return hasNonDigit && previous != "/"
    }

    /// Non-ASCII scalars allowed inside a tag: letters, numbers and combining marks of any script.
    static func isTagScalar(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        return properties.isAlphabetic || properties.numericType != nil
            || properties.generalCategory == .nonspacingMark || properties.generalCategory == .spacingMark
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
