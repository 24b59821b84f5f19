/// SQLite URI filenames (`file:/path?immutable=1`), for the one way of opening that needs a query parameter.
extension SQLiteConnection {
    /// `path` as an SQLite URI filename: every byte but unreserved ones and `/` percent-encoded (`?`, `#`
    /// and `%` would otherwise end or change the path).
    static func uri(_ path: String) -> String {
        var text = "file:"
        for byte in path.utf8 {
            let isPlain = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: "~")
            if isPlain {
                text.unicodeScalars.append(UnicodeScalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                text += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return text
    }
}
