/// Searching the buffer, decoding text and counting columns (in Unicode scalars, as Obsidian reports them).
extension MarkdownByteScanner {
    func find(_ needle: StaticString, from start: Int, to end: Int) -> Int? {
        let length = needle.utf8CodeUnitCount
        let pointer = needle.utf8Start
        guard length > 0, end - start >= length else { return nil }
        var index = start
        let first = pointer[0]
        while index + length <= end {
            if bytes[index] == first {
                var matched = true
                for offset in 1..<length where bytes[index + offset] != pointer[offset] {
                    matched = false
                    break
                }
                if matched { return index }
            }
            index += 1
        }
        return nil
    }

    func matches(_ needle: StaticString, at index: Int, end: Int) -> Bool {
        find(needle, from: index, to: min(end, index + needle.utf8CodeUnitCount)) == index
    }

    func firstIndex(of byte: UInt8, from start: Int, to end: Int) -> Int? {
        var index = start
        while index < end {
            if bytes[index] == byte { return index }
            index += 1
        }
        return nil
    }

    /// The end of a backtick run of exactly `length` closing an inline code span, or nil.
    func closingBacktickRun(length: Int, from start: Int, to end: Int) -> Int? {
        var index = start
        while index < end {
            if bytes[index] == ASCII.backtick {
                var runEnd = index
                while runEnd < end, bytes[runEnd] == ASCII.backtick { runEnd += 1 }
                if runEnd - index == length { return runEnd }
                index = runEnd
            } else {
                index += 1
            }
        }
        return nil
    }

    func text(_ start: Int, _ end: Int) -> String {
        guard end > start else { return "" }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    /// 1-based column in Unicode scalars (counting resumes from the previous call on the same line).
    mutating func column(of index: Int) -> Int {
        var (position, scalars) = index >= columnCache.index && columnCache.index >= lineStart ? columnCache : (lineStart, 0)
        while position < index {
            if bytes[position] & 0xC0 != 0x80 { scalars += 1 }
            position += 1
        }
        columnCache = (index, scalars)
        return scalars + 1 + columnOffset
    }

    func utf8Length(_ lead: UInt8) -> Int {
        if lead < 0x80 { return 1 }
        if lead >= 0xF0 { return 4 }
        if lead >= 0xE0 { return 3 }
        if lead >= 0xC0 { return 2 }
        return 1
    }

    func decodeScalar(at index: Int, end: Int) -> (Unicode.Scalar?, Int) {
        let length = utf8Length(bytes[index])
        guard index + length <= end else { return (nil, 1) }
        var value = UInt32(bytes[index]) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for offset in 1..<length { value = value << 6 | (UInt32(bytes[index + offset]) & 0x3F) }
        return (Unicode.Scalar(value), length)
    }
}
