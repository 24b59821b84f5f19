/// The line starts of a UTF-8 text, to turn byte offsets into 1-based lines and columns (columns count
/// Unicode scalars) and back. Built once per text; each lookup is a binary search.
struct LineIndex {
    let bytes: [UInt8]
    /// The line number of the text's first line (frontmatter starts at file line 2).
    let firstLine: Int
    private let lineStarts: [Int]

    init(_ bytes: [UInt8], firstLine: Int = 1) {
        self.bytes = bytes
        self.firstLine = firstLine
        var starts = [0]
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { starts.append(index + 1) }
        lineStarts = starts
    }

    /// Line and column of a byte offset.
    func position(of offset: Int) -> (line: Int, column: Int) {
        let offset = min(max(offset, 0), bytes.count)
        // The last line start at or before `offset`.
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        let column = bytes[lineStarts[low]..<offset].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
        return (low + firstLine, column + 1)
    }

    /// Byte offset of a line and column, or nil when the line is outside the text.
    func offset(line: Int, column: Int) -> Int? {
        let lineIndex = line - firstLine
        guard lineStarts.indices.contains(lineIndex) else { return nil }
        var offset = lineStarts[lineIndex]
        var scalars = 1
        while scalars < column, offset < bytes.count, bytes[offset] != UInt8(ascii: "\n") {
            offset += 1
            while offset < bytes.count, bytes[offset] & 0xC0 == 0x80 { offset += 1 }
            scalars += 1
        }
        return offset
    }
}
