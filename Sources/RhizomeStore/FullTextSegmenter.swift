/// Makes Chinese, Japanese and Korean text searchable with FTS5's `unicode61` tokenizer, which treats a
/// run of CJK characters without spaces as one token (so `カフェ` inside a sentence could never match).
/// Indexed text gets a space around every CJK character (one token each); a CJK query word becomes a
/// phrase of its characters, which matches them consecutively. Snippets are cleaned back.
enum FullTextSegmenter {
    /// The text as stored in the full-text index (the text itself when it holds no CJK character).
    static func indexable(_ text: String) -> String {
        var text = text
        let segmented = text.withUTF8 { bytes -> [UInt8]? in
            // Byte-level: every CJK range used here is 3-byte UTF-8 (or 4-byte for U+20000…), so the
            // scalar is decoded only at lead bytes E0 and above; the bytes between CJK characters are
            // copied in runs.
            var output: [UInt8] = []
            var changed = false
            var copied = 0  // bytes before this are in `output`
            var index = 0
            while index < bytes.count {
                let lead = bytes[index]
                guard lead >= 0xE0 else {
                    index += 1
                    continue
                }
                let length = lead >= 0xF0 ? 4 : 3
                guard index + length <= bytes.count else { break }
                var value = UInt32(lead) & (length == 3 ? 0x0F : 0x07)
                for offset in 1..<length { value = value << 6 | UInt32(bytes[index + offset] & 0x3F) }
                if let scalar = Unicode.Scalar(value), isCJK(scalar) {
                    if !changed {
                        output.reserveCapacity(bytes.count + bytes.count / 2)
                        changed = true
                    }
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<index]))
                    output.append(0x20)
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<(index + length)]))
                    output.append(0x20)
                    copied = index + length
                }
                index += length
            }
            guard changed else { return nil }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied...]))
            return output
        }
        return segmented.map { String(decoding: $0, as: UTF8.self) } ?? text
    }

    /// One query word as an FTS5 term: quoted, a phrase of characters when it holds CJK.
    static func term(_ word: String) -> String {
        let quoted = indexable(word).split(separator: " ").joined(separator: " ").replacingQuotes()
        return "\"" + quoted + "\""
    }

    /// The marks FTS5's `snippet()` puts around each match (private-use characters, which no note holds);
    /// `readable` turns them into markdown bold.
    static let matchStart: Unicode.Scalar = "\u{E000}", matchEnd: Unicode.Scalar = "\u{E001}"

    /// A snippet as shown: the spaces `indexable` inserted removed (`withoutSegmentSpaces`), then each match
    /// in `**bold**`, except a match the note already writes in emphasis (`**Mock**` stays `**Mock**`, never
    /// `****Mock****`).
    static func readable(_ snippet: String, highlight: SearchScope.Highlight = .markdown) -> String {
        var scalars = Array(withoutSegmentSpaces(snippet).unicodeScalars)
        // Neighbouring matches are one.
        var index = 0
        while index + 1 < scalars.count {
            if scalars[index] == matchEnd, scalars[index + 1] == matchStart { scalars.removeSubrange(index...(index + 1)) } else { index += 1 }
        }
        var output = String.UnicodeScalarView()
        index = 0
        while index < scalars.count {
            guard scalars[index] == matchStart, let end = scalars[index...].firstIndex(of: matchEnd) else {
                if scalars[index] != matchStart && scalars[index] != matchEnd { output.append(scalars[index]) }
                index += 1
                continue
            }
            if highlight == .terminal {
                output.append(contentsOf: "\u{1B}[1;31m".unicodeScalars)
                output.append(contentsOf: scalars[(index + 1)..<end])
                output.append(contentsOf: "\u{1B}[0m".unicodeScalars)
                index = end + 1
                continue
            }
            // (`_` is not looked at: it joins words, `the_trigram_tokenizer`, more often than it emphasizes.)
            let inEmphasis = output.last == "*" || (end + 1 < scalars.count && scalars[end + 1] == "*")
            if !inEmphasis { output.append(contentsOf: "**".unicodeScalars) }
            output.append(contentsOf: scalars[(index + 1)..<end])
            if !inEmphasis { output.append(contentsOf: "**".unicodeScalars) }
            index = end + 1
        }
        return String(output)
    }

    /// Removes the spaces `indexable` inserted, from a snippet of indexed text: each whitespace run loses
    /// one space for each CJK character beside it (looking through the match marks).
    private static func withoutSegmentSpaces(_ snippet: String) -> String {
        guard snippet.unicodeScalars.contains(where: isCJK) else { return snippet }
        let scalars = Array(snippet.unicodeScalars)
        var output = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            guard scalars[index] == " " || scalars[index] == "\n" else {
                output.append(scalars[index])
                index += 1
                continue
            }
            var runEnd = index
            while runEnd < scalars.count, scalars[runEnd] == " " || scalars[runEnd] == "\n" { runEnd += 1 }
            var run = Array(scalars[index..<runEnd])
            let previous = output.reversed().first { $0 != matchStart && $0 != matchEnd }
            let next = scalars[runEnd...].first { $0 != matchStart && $0 != matchEnd }
            for neighbour in [previous, next] where neighbour.map(isCJK) == true {
                if let space = run.firstIndex(of: " ") { run.remove(at: space) }
            }
            output.append(contentsOf: run)
            index = runEnd
        }
        return String(output)
    }

    static func isCJK(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3040...0x30FF, 0x31F0...0x31FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7AF,
             0xF900...0xFAFF, 0xFF66...0xFF9F, 0x20000...0x2FFFF:
            return true
        default:
            return false
        }
    }
}

private extension String {
    func replacingQuotes() -> String {
        var result = ""
        for character in self {
            result += character == "\"" ? "\"\"" : String(character)
        }
        return result
    }
}
