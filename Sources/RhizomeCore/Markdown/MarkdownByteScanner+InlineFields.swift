#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Dataview inline fields: `key:: value` lines and the bracketed `[key:: value]` and `(key:: value)` forms,
/// outside the code spans and comments of their line.
extension MarkdownByteScanner {
    /// The cheap test that keeps field extraction off most lines: a `::` in the line's text.
    func mayHoldInlineField(_ start: Int, _ end: Int) -> Bool {
        guard end - start >= 2, end - start <= Self.maximumFieldLineBytes, let base = bytes.baseAddress else { return false }
        var index = start
        while index < end - 1, let found = memchr(base + index, Int32(ASCII.colon), end - 1 - index) {
            let position = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
            if bytes[position + 1] == ASCII.colon { return true }
            index = position + 1
        }
        return false
    }

    /// Dataview's fields on one line, whose text starts at `start` (after quote markers, or after a list
    /// marker and checkbox): `[key:: value]` and `(key:: value)` anywhere; when there are none (and the
    /// line is not a task's), `key:: value` filling the line. Wrappers and `::` inside inline code or an
    /// HTML comment do not count (`hiddenRanges`, filled by the scan of this line).
    mutating func inlineFields(_ start: Int, _ end: Int, line: Int, allowsFullLine: Bool) {
        wrappedFields.removeAll(keepingCapacity: true)
        findWrappedFields(start, end, open: ASCII.openBracket, close: ASCII.closeBracket, syntax: .bracket)
        let bracketCount = wrappedFields.count
        findWrappedFields(start, end, open: ASCII.openParen, close: ASCII.closeParen, syntax: .parenthesis)
        if wrappedFields.isEmpty {
            if allowsFullLine, let field = fullLineField(start, end, line: line) { content.inlineFields.append(field) }
            return
        }
        // Each wrapper's fields are found in order; columns are counted left to right.
        if bracketCount > 0 && bracketCount < wrappedFields.count { wrappedFields.sort { $0.open < $1.open } }
        for field in wrappedFields {
            let keyStart = skipSpaces(field.open + 1, field.separator)
            let keyEnd = trimTrailingSpaces(keyStart, field.separator)
            guard keyEnd > keyStart else { continue }
            let valueStart = skipSpaces(field.separator + 2, field.close)
            content.inlineFields.append(InlineField(
                key: text(keyStart, keyEnd), value: text(valueStart, trimTrailingSpaces(valueStart, field.close)),
                syntax: field.syntax, line: line, column: column(of: field.open)))
        }
    }

    /// Dataview's wrapped fields of one kind, in one walk over the line, appended to `wrappedFields`: each
    /// visible `open` followed by a key (no brackets or parentheses in it) and `::` is a candidate whose
    /// value ends at the first `close` not matched inside the value (backslash escapes and hidden ranges
    /// skipped). As in Dataview, candidates inside a field found before are not fields of their own.
    mutating func findWrappedFields(_ start: Int, _ end: Int, open: UInt8, close: UInt8, syntax: InlineField.Syntax) {
        wrappedCandidates.removeAll(keepingCapacity: true)
        unclosedCandidates.removeAll(keepingCapacity: true)
        var depth = 0
        var isEscaped = false
        var hidden = 0
        var index = start
        while index < end {
            while hidden < hiddenRanges.count, hiddenRanges[hidden].end <= index { hidden += 1 }
            if hidden < hiddenRanges.count, hiddenRanges[hidden].start <= index {
                index = hiddenRanges[hidden].end
                isEscaped = false
                continue
            }
            let byte = bytes[index]
            if byte == open {
                let keyLimit = hidden < hiddenRanges.count ? min(end, hiddenRanges[hidden].start) : end
                if let separator = fieldSeparator(after: index, limit: keyLimit) {
                    // The key holds no wrapper: its value starts at the depth after `open`.
                    wrappedCandidates.append((index, separator, -1, syntax))
                    unclosedCandidates.append((wrappedCandidates.count - 1, isEscaped ? depth : depth + 1))
                }
            }
            if byte == ASCII.backslash {
                isEscaped.toggle()
            } else if isEscaped {
                isEscaped = false
            } else if byte == open {
                depth += 1
            } else if byte == close {
                depth -= 1
                // Depths never decrease towards the top: the values this `close` ends are the top ones.
                while let top = unclosedCandidates.last, top.depth > depth {
                    wrappedCandidates[top.candidate].close = index
                    unclosedCandidates.removeLast()
                }
            }
            index += 1
        }
        var resume = start
        for candidate in wrappedCandidates where candidate.open >= resume && candidate.close >= 0 {
            wrappedFields.append(candidate)
            resume = candidate.close + 1
        }
    }

    /// The `::` ending a wrapped field's key that starts after `open`, or nil when a bracket or
    /// parenthesis (or `limit`: hidden text, the end of the line) comes first.
    func fieldSeparator(after open: Int, limit: Int) -> Int? {
        var index = open + 1
        while index < limit {
            switch bytes[index] {
            case ASCII.openBracket, ASCII.closeBracket, ASCII.openParen, ASCII.closeParen: return nil
            case ASCII.colon where index + 1 < limit && bytes[index + 1] == ASCII.colon: return index
            default: index += 1
            }
        }
        return nil
    }

    /// `key:: value` filling the line from `start`; the key must pass Dataview's full-line key grammar.
    mutating func fullLineField(_ start: Int, _ end: Int, line: Int) -> InlineField? {
        guard let separator = find("::", from: start, to: end),
              !hiddenRanges.contains(where: { $0.start < separator + 2 && $0.end > start }),
              let key = DataviewKey.fullLineKeyRange(bytes, start, trimTrailingSpaces(start, separator)) else { return nil }
        let valueStart = skipSpaces(separator + 2, end)
        return InlineField(
            key: text(key.start, key.end), value: text(valueStart, trimTrailingSpaces(valueStart, end)), syntax: .fullLine,
            line: line, column: column(of: start) + key.droppedScalars)
    }
}
