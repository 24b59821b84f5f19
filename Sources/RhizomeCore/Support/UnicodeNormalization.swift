import Foundation

/// Names are compared in Unicode NFC (macOS may hand us NFD); link matching is case-insensitive.
public enum UnicodeNormalization {
    /// NFC form of `text`, with a fast path for ASCII (already normalized).
    public static func nfc(_ text: String) -> String {
        isKnownNFC(text) ? text : text.precomposedStringWithCanonicalMapping
    }

    /// The key used for case-insensitive matching: NFC, then lowercased.
    public static func matchKey(_ text: String) -> String {
        var hasUppercase = false
        for byte in text.utf8 {
            if byte >= 0x80 { return nfc(text).lowercased() }
            if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { hasUppercase = true }
        }
        // ASCII: already NFC; already lowercase keys (most link and path keys) are returned as they are.
        return hasUppercase ? text.lowercased() : text
    }

    /// A quick check (no allocation) that `text` is already NFC: true when no scalar is a combining mark,
    /// a conjoining Hangul jamo, or in a range that holds NFC_Quick_Check=No characters (the ranges are
    /// deliberately wide: a false "no" only costs a call to the full normalizer).
    static func isKnownNFC(_ text: String) -> Bool {
        // Every scalar from U+0300 on starts with a byte from 0xCC on: text without such a byte (ASCII, and
        // most Latin names, `Zürich`, `Café`) is NFC, found in one pass over its bytes.
        let hasLaterScalar = text.utf8.withContiguousStorageIfAvailable { $0.contains { $0 >= 0xCC } } ?? text.utf8.contains { $0 >= 0xCC }
        guard hasLaterScalar else { return true }
        for scalar in text.unicodeScalars where scalar.value >= 0x300 {
            let value = scalar.value
            switch value {
            case 0x0300...0x036F, 0x0374, 0x037E, 0x0387, 0x0958...0x095F, 0x09DC...0x09DF, 0x0A33, 0x0A36, 0x0A59...0x0A5E,
                 0x0B5C...0x0B5D, 0x0F43...0x0FB9, 0x1100...0x11FF, 0x1F00...0x1FFF, 0x2000...0x2001, 0x2126, 0x212A...0x212B,
                 0x2329...0x232A, 0x2ADC, 0x3099...0x309A, 0xF900...0xFAFF, 0xFB1D...0xFB4F, 0x1D15E...0x1D1C0, 0x2F800...0x2FA1D:
                return false
            default:
                switch scalar.properties.generalCategory {
                case .nonspacingMark, .spacingMark, .enclosingMark: return false
                default: continue
                }
            }
        }
        return true
    }
}

extension String {
    /// Byte search in the UTF-8 view (Foundation's `contains(_:)` bridges to NSString: slow in hot paths).
    func containsUTF8(_ needle: StaticString) -> Bool {
        let pattern = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
        guard !pattern.isEmpty else { return true }
        var copy = self
        return copy.withUTF8 { haystack in
            guard haystack.count >= pattern.count else { return false }
            for start in 0...(haystack.count - pattern.count) where haystack[start] == pattern[0] {
                if (1..<pattern.count).allSatisfy({ haystack[start + $0] == pattern[$0] }) { return true }
            }
            return false
        }
    }
}
