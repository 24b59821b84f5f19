/// Inline syntax: wikilinks and embeds, markdown links and images, tags, code spans, escapes and HTML
/// comments, which hide what they hold.
extension MarkdownByteScanner {
    /// Links and tags in `[start, end)`, honouring inline code, HTML comments and escapes.
    mutating func scanInline(_ start: Int, _ end: Int, line: Int) {
        var index = start
        if inHTMLComment { commentStart = start }
        while index < end {
            if inHTMLComment {
                if let close = find("-->", from: index, to: end) {
                    inHTMLComment = false
                    index = close + 3
                    if recordsHiddenRanges { hiddenRanges.append((commentStart, index)) }
                } else {
                    if recordsHiddenRanges { hiddenRanges.append((commentStart, end)) }
                    return
                }
                continue
            }
            let byte = bytes[index]
            switch byte {
            case ASCII.backslash:
                index += 2
                nodeEnd = index
            case ASCII.backtick:
                var runEnd = index
                while runEnd < end, bytes[runEnd] == ASCII.backtick { runEnd += 1 }
                if let close = closingBacktickRun(length: runEnd - index, from: runEnd, to: end) {
                    if recordsHiddenRanges { hiddenRanges.append((index, close)) }
                    index = close
                    nodeEnd = index
                } else {
                    index = runEnd
                }
            case ASCII.lessThan:
                if matches("<!--", at: index, end: end) {
                    inHTMLComment = true
                    commentStart = index
                    index += 4
                } else {
                    index += 1
                }
            case ASCII.bang:
                if index + 1 < end, bytes[index + 1] == ASCII.openBracket {
                    if index + 2 < end, bytes[index + 2] == ASCII.openBracket, let after = wikilink(index + 1, end, line: line, embedStart: index) {
                        index = after
                        nodeEnd = index
                    } else if let after = markdownLink(index + 1, end, line: line, embedStart: index) {
                        index = after
                        nodeEnd = index
                    } else {
                        index += 1
                    }
                } else {
                    index += 1
                }
            case ASCII.openBracket:
                if index + 1 < end, bytes[index + 1] == ASCII.openBracket, let after = wikilink(index, end, line: line, embedStart: nil) {
                    index = after
                    nodeEnd = index
                } else if let after = markdownLink(index, end, line: line, embedStart: nil) {
                    index = after
                    nodeEnd = index
                } else {
                    index += 1
                }
            case ASCII.hash:
                index = tag(index, end, line: line)
            default:
                index += 1
            }
        }
    }

    /// `[[…]]` starting at `open`; returns the index after `]]`, or nil if this is not a link.
    mutating func wikilink(_ open: Int, _ end: Int, line: Int, embedStart: Int?) -> Int? {
        let innerStart = open + 2
        if noWikilinkStartBefore.end == end && open < noWikilinkStartBefore.position { return nil }
        let knownAbsent = noWikilinkClose.end == end && innerStart >= noWikilinkClose.from
        guard !knownAbsent, let close = find("]]", from: innerStart, to: end) else {
            if !knownAbsent { noWikilinkClose = (innerStart, end) }
            return nil
        }
        // A wikilink does not contain `[[`: in `[[a [[b]]` the link is `[[b]]`, and text between may hold
        // a markdown link. Remember the last inner `[[` so a run of brackets is not searched again.
        var inner = close - 1
        while inner > innerStart, !(bytes[inner - 1] == ASCII.openBracket && bytes[inner] == ASCII.openBracket) { inner -= 1 }
        if inner > innerStart {
            noWikilinkStartBefore = (inner - 1, end)
            return nil
        }
        guard close > innerStart else { return close + 2 }  // `[[]]` is not a link
        var pathEnd = close
        var displayRange: (Int, Int)? = nil
        // Display text after the first `|` (written `\|` inside tables). A leading `|` is part of the path.
        var position = innerStart + 1
        while position < close {
            if bytes[position] == ASCII.pipe {
                pathEnd = bytes[position - 1] == ASCII.backslash ? position - 1 : position
                displayRange = (position + 1, close)
                break
            }
            position += 1
        }
        var linkPathEnd = pathEnd
        var subpath: String? = nil
        if let hashIndex = firstIndex(of: ASCII.hash, from: innerStart, to: pathEnd) {
            linkPathEnd = hashIndex
            subpath = text(hashIndex + 1, trimTrailingSpaces(hashIndex + 1, pathEnd))
        }
        let pathStart = skipSpaces(innerStart, linkPathEnd)
        let path = text(pathStart, trimTrailingSpaces(pathStart, linkPathEnd))
        let start = embedStart ?? open
        content.links.append(LinkOccurrence(
            kind: embedStart == nil ? .wikilink : .embed, path: UnicodeNormalization.nfc(path), subpath: subpath,
            display: displayRange.map { text($0.0, $0.1) }, line: line, column: column(of: start)))
        return close + 2
    }

    /// `[text](destination "title")` starting at `open`; returns the index after `)`, or nil.
    mutating func markdownLink(_ open: Int, _ end: Int, line: Int, embedStart: Int?) -> Int? {
        // Matching `]`, allowing nested brackets and escapes.
        let textClose = MarkdownLinkSyntax.textClose(bytes, open: open, limit: min(end, open + Self.maximumLinkTextBytes))
        guard let textEnd = textClose, textEnd + 1 < end, bytes[textEnd + 1] == ASCII.openParen else { return nil }
        let limit = min(end, textEnd + 2 + Self.maximumDestinationBytes)
        var destinationStart = skipSpaces(textEnd + 2, limit)
        var destinationEnd: Int
        var after: Int
        if destinationStart < limit, bytes[destinationStart] == ASCII.lessThan {
            destinationStart += 1
            guard let close = firstIndex(of: ASCII.greaterThan, from: destinationStart, to: limit) else { return nil }
            destinationEnd = close
            after = close + 1
        } else {
            destinationEnd = MarkdownLinkSyntax.bareDestinationEnd(bytes, from: destinationStart, limit: limit)
            after = destinationEnd
        }
        // Optional title, then `)`.
        after = skipSpaces(after, limit)
        if after < limit, bytes[after] == UInt8(ascii: "\"") || bytes[after] == UInt8(ascii: "'") {
            let quote = bytes[after]
            guard let close = firstIndex(of: quote, from: after + 1, to: limit) else { return nil }
            after = skipSpaces(close + 1, limit)
        }
        guard after < limit, bytes[after] == ASCII.closeParen else { return nil }
        // Links inside the link text (an image inside a link) still count, one level deep; the
        // destination is not text.
        if linkTextDepth == 0 {
            linkTextDepth += 1
            scanInline(open + 1, textEnd, line: line)
            linkTextDepth -= 1
        }
        let destination = text(destinationStart, destinationEnd)
        if let link = Self.internalLink(destination: destination, display: text(open + 1, textEnd),
                                        isEmbed: embedStart != nil, line: line, column: column(of: embedStart ?? open)) {
            content.links.append(link)
        }
        return after + 1
    }

    /// A markdown destination is internal unless it has a URL scheme (`https:`, `mailto:`, `obsidian:` …).
    static func internalLink(destination: String, display: String, isEmbed: Bool, line: Int, column: Int) -> LinkOccurrence? {
        guard !destination.isEmpty, !hasURLScheme(destination) else { return nil }
        let decoded = destination.removingPercentEncodingIfValid
        var path = decoded
        var subpath: String? = nil
        if let hashIndex = VaultPath.firstIndex(of: "#", in: Substring(decoded)) {
            path = String(decoded[..<hashIndex])
            subpath = String(decoded[decoded.index(after: hashIndex)...])
        }
        return LinkOccurrence(
            kind: isEmbed ? .markdownEmbed : .markdown, path: UnicodeNormalization.nfc(path.trimmingSpaces),
            subpath: subpath, display: display, line: line, column: column)
    }

    static func hasURLScheme(_ text: String) -> Bool {
        var sawLetter = false
        for scalar in text.unicodeScalars {
            if scalar == ":" { return sawLetter }
            let isLetter = (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z")
            if !sawLetter {
                guard isLetter else { return false }
                sawLetter = true
                continue
            }
            let isSchemeCharacter = isLetter || (scalar >= "0" && scalar <= "9") || scalar == "+" || scalar == "." || scalar == "-"
            if !isSchemeCharacter { return false }
        }
        return false
    }

    /// `#tag` (`TagSyntax` says which characters it holds). Returns the index to continue from.
    mutating func tag(_ index: Int, _ end: Int, line: Int) -> Int {
        guard startsTag(at: index) else { return index + 1 }
        var position = index + 1
        while position < end {
            let byte = bytes[position]
            if byte < 0x80 {
                guard TagSyntax.asciiContinuesTag(byte) else { break }
                position += 1
            } else {
                let (scalar, length) = decodeScalar(at: position, end: end)
                guard let scalar, TagSyntax.continuesTag(scalar) else { break }
                position += length
            }
        }
        // Nested parts may not be empty: a tag ends before `//` and does not end with `/`; `#/x` is no tag.
        let scanned = position
        if let doubled = find("//", from: index + 1, to: position) { position = doubled }
        while position > index + 1, bytes[position - 1] == UInt8(ascii: "/") { position -= 1 }
        guard position > index + 1, bytes[index + 1] != UInt8(ascii: "/"),
              bytes[(index + 1)..<position].contains(where: { $0 < 0x30 || $0 > 0x39 }) else { return max(scanned, index + 1) }
        content.tags.append(TagOccurrence(name: UnicodeNormalization.nfc(text(index + 1, position)), isFromFrontmatter: false, line: line, column: column(of: index)))
        nodeEnd = scanned  // `#a#b`: a tag right after a tag is one too
        return scanned
    }

    /// Whether a `#` at `index` may start a tag: at the start of the line's text (after quote markers), after
    /// whitespace (Unicode spaces too), or right after a piece of markup Obsidian's parser ends there: an
    /// escape (`\[\[#Escaped`), a link or code span, another tag, an opening `[` or a table's `|`. After
    /// other text or punctuation (`a#b`, `(#x)`, `.#x`) it is no tag.
    func startsTag(at index: Int) -> Bool {
        if index == lineStart || index == nodeEnd || index == skipQuoteMarkers(lineStart, index) { return true }
        let previous = bytes[index - 1]
        switch previous {
        case ASCII.space, ASCII.tab, ASCII.openBracket, ASCII.pipe: return true
        case 0xA0: return index >= 2 && bytes[index - 2] == 0xC2  // U+00A0
        case 0x80:  // U+3000, U+2000, U+1680
            return index >= 3 && ((bytes[index - 3] == 0xE3 && bytes[index - 2] == 0x80) || (bytes[index - 3] == 0xE2 && bytes[index - 2] == 0x80)
                || (bytes[index - 3] == 0xE1 && bytes[index - 2] == 0x9A))
        case 0x81...0x8A, 0xA8, 0xA9, 0xAF:  // U+2001–200A, U+2028, U+2029, U+202F
            return index >= 3 && bytes[index - 3] == 0xE2 && bytes[index - 2] == 0x80
        case 0x9F: return index >= 3 && bytes[index - 3] == 0xE2 && bytes[index - 2] == 0x81  // U+205F
        case 0xBF: return index >= 3 && bytes[index - 3] == 0xEF && bytes[index - 2] == 0xBB  // U+FEFF
        default: return false
        }
    }
}
