import Foundation

/// A NOTE argument as people paste it: a link copied from a note (`[[Note]]`, `[[Note#Heading|alias]]`,
/// `![[Note]]`, `[text](Folder/Note%20name.md)`, `[text](<Note name.md>)`) or an Obsidian URI
/// (`obsidian://open?vault=Notes&file=Folder%2FNote`). `linkPath(in:)` gives the link path inside it, which
/// is then resolved like any NOTE argument; nil when the argument is none of these.
public enum NoteArgument {
    public static func linkPath(in argument: String) -> String? {
        var text = Substring(argument)
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        if text.hasPrefix("obsidian://") { return uriFile(String(text)) }
        if text.hasPrefix("!") { text.removeFirst() }
        if text.hasPrefix("[["), text.hasSuffix("]]"), text.count > 4 {
            let inner = text.dropFirst(2).dropLast(2)
            // `|` ends the path (`[[Note|alias]]`); in a table a pasted link may carry `\|`.
            let path = inner.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false).first ?? inner
            let trimmed = path.hasSuffix("\\") ? path.dropLast() : path
            return trimmed.isEmpty ? nil : String(trimmed)
        }
        // `[text](destination)` or `[text](destination "title")`.
        guard text.hasPrefix("["), text.hasSuffix(")"), let middle = text.range(of: "](") else { return nil }
        var destination = text[middle.upperBound..<text.index(before: text.endIndex)]
        if destination.hasPrefix("<"), let close = destination.firstIndex(of: ">") {
            destination = destination[destination.index(after: destination.startIndex)..<close]
        } else if let space = destination.firstIndex(of: " ") {
            destination = destination[..<space]  // a title follows
        }
        guard !destination.isEmpty, !destination.contains("://") else { return nil }
        return String(destination).removingPercentEncoding ?? String(destination)
    }

    /// The `file` of an `obsidian://open` URI (vault-relative, `.md` optional).
    private static func uriFile(_ uri: String) -> String? {
        guard let components = URLComponents(string: uri), components.host == "open" else { return nil }
        let file = components.queryItems?.first(where: { $0.name == "file" })?.value
        return file.flatMap { $0.isEmpty ? nil : $0 }
    }
}
