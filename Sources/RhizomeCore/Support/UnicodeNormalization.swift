import Foundation

/// Names are compared in Unicode NFC (macOS may hand us NFD); link matching is case-insensitive.
public enum UnicodeNormalization {
    /// NFC form of `text`, with a fast path for ASCII (already normalized).
    public static func nfc(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text }
        return text.precomposedStringWithCanonicalMapping
    }

    /// The key used for case-insensitive matching: NFC, then lowercased.
    public static func matchKey(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        return text.precomposedStringWithCanonicalMapping.lowercased()
    }
}
