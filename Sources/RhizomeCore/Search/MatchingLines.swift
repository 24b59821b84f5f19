import Foundation

/// The lines of a note that hold a search word, with lines around them: what `rhizome search --context N`
/// prints, as ripgrep does (`12:` a matching line, `13-` a line around it, `--` between groups). Words are
/// matched with case and accents ignored, anywhere in a line, as the full-text index matches them.
public struct MatchingLines: Sendable, Equatable {
    /// One line shown: its number (from 1), its text without the line ending, and whether a word is in it.
    public struct Line: Encodable, Sendable, Equatable {
        public var line: Int
        public var text: String
        public var match: Bool
    }

    /// The lines shown, in order.
    public var lines: [Line]
    /// How many of them hold a word.
    public var matchingLines: Int

    /// The words of a query to look for in lines: without FTS5 syntax (`*`, quotes, parentheses, and with
    /// `raw` the operators AND, OR, NOT, NEAR), folded (case and accents ignored).
    public static func words(of query: [String], raw: Bool) -> [String] {
        query.flatMap { $0.split(whereSeparator: { $0.isWhitespace }) }
            .map { String($0).trimmingCharacters(in: CharacterSet(charactersIn: "*\"()")) }
            .filter { !$0.isEmpty && !(raw && ["AND", "OR", "NOT", "NEAR"].contains($0)) }
            .map(folded)
    }

    /// The lines of `bytes` (a note's text; `\n` or `\r\n` line endings) that hold one of `words` (as
    /// `words(of:raw:)` gives them), with `around` lines before and after each.
    public init(in bytes: [UInt8], words: [String], around: Int) {
        // Split as bytes: in a `String`, "\r\n" is one character, which a split at "\n" never finds.
        let lines = bytes.split(separator: ASCII.newline, omittingEmptySubsequences: false)
            .map { String(decoding: $0.last == ASCII.carriageReturn ? $0.dropLast() : $0, as: UTF8.self) }
        let matching = lines.indices.filter { index in
            let line = Self.folded(lines[index])
            return words.contains { line.contains($0) }
        }
        var shown = Set<Int>()
        for index in matching {
            for near in max(0, index - around)...min(lines.count - 1, index + around) { shown.insert(near) }
        }
        let matchingSet = Set(matching)
        self.lines = shown.sorted().map { Line(line: $0 + 1, text: lines[$0], match: matchingSet.contains($0)) }
        matchingLines = matching.count
    }

    /// `line` with each occurrence of a word (case and accents ignored) between `open` and `close`;
    /// overlapping occurrences (`watch` and `watcher`) are marked once.
    public static func highlighted(_ line: String, words: [String], open: String, close: String) -> String {
        var ranges: [Range<String.Index>] = []
        for word in words where !word.isEmpty {
            var start = line.startIndex
            while start < line.endIndex, let found = line.range(of: word, options: [.caseInsensitive, .diacriticInsensitive], range: start..<line.endIndex) {
                ranges.append(found)
                start = found.upperBound
            }
        }
        guard !ranges.isEmpty else { return line }
        var merged: [Range<String.Index>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        var output = "", position = line.startIndex
        for range in merged {
            output += line[position..<range.lowerBound] + open + line[range] + close
            position = range.upperBound
        }
        return output + line[position...]
    }

    static func folded(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}
