/// One field of CSV output (RFC 4180), as every command that prints `--format csv` (or `--csv`) writes it.
enum CSVField {
    /// `text`, quoted (with its quotes doubled) when it holds a comma, a quote or a line break of any kind:
    /// `\n`, `\r`, or `\r\n`, which Swift counts as one character that equals neither of the other two.
    static func escaped(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
