/// Text helpers of link and property parsing: percent-decoding that never fails, trimming spaces and tabs.
extension String {
    /// Percent-decoding that keeps the text as written when it is not valid percent-encoding.
    var removingPercentEncodingIfValid: String {
        guard utf8.contains(UInt8(ascii: "%")) else { return self }
        var output: [UInt8] = []
        var iterator = Array(utf8)[...]
        while let byte = iterator.popFirst() {
            if byte == UInt8(ascii: "%"), iterator.count >= 2,
               let high = hexValue(iterator[iterator.startIndex]), let low = hexValue(iterator[iterator.startIndex + 1]) {
                output.append(high << 4 | low)
                iterator = iterator.dropFirst(2)
            } else {
                output.append(byte)
            }
        }
        return UTF8Validation.string(validating: output) ?? self
    }

    public var trimmingSpaces: String {
        // Neither end is a space or a tab when neither end byte is (the usual case): nothing to trim.
        let isBlank = { (byte: UInt8?) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        if !isBlank(utf8.first) && !isBlank(utf8.last) { return self }
        var slice = Substring(self)
        while slice.first == " " || slice.first == "\t" { slice = slice.dropFirst() }
        while slice.last == " " || slice.last == "\t" { slice = slice.dropLast() }
        return String(slice)
    }
}

private func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 48...57: return byte - 48
    case 65...70: return byte - 55
    case 97...102: return byte - 87
    default: return nil
    }
}
