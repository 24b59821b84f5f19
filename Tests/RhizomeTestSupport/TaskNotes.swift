/// Random notes full of tasks and list items in every kind of block (quotes, callouts, fenced code,
/// comment sections, frontmatter, continuation lines), for tests comparing two readings of tasks.
public enum TaskNotes {
    /// A note of random blocks: lists of tasks and items at several depths, in quotes and callouts,
    /// fenced code, comment sections, headings, paragraphs, frontmatter.
    public static func note(_ random: inout SeededGenerator) -> String {
        var lines: [String] = []
        if Bool.random(using: &random) { lines += ["---", "status: \(["open", "- [ ] not a task", "[x]"].randomElement(using: &random)!)", "---"] }
        for _ in 0..<Int.random(in: 1...8, using: &random) {
            let quote = ["", "", "> ", "> [!note] Title\n> "].randomElement(using: &random)!
            switch Int.random(in: 0..<7, using: &random) {
            case 0: lines.append("## Heading")
            case 1: lines += ["```", "- [ ] code", "```"]
            case 2: lines += ["%%", "- [ ] commented", "%%"]
            case 3: lines.append("Paragraph with %% inline %% comment and [[link]].")
            default:
                if quote.contains("\n") { lines.append(String(quote.prefix { $0 != "\n" })) }  // the callout's title line
                for _ in 0..<Int.random(in: 1...5, using: &random) {
                    let indent = ["", "", "  ", "    ", "\t", "   "].randomElement(using: &random)!
                    let marker = ["- ", "* ", "+ ", "1. ", "2) "].randomElement(using: &random)!
                    let box = ["[ ] ", "[x] ", "[X] ", "[-] ", "[>] ", "[✓] ", "", "[ ]", "[] "].randomElement(using: &random)!
                    let tail = ["task", "task [due:: 2024-01-01]", "task %% start", "end %%", "task ^block", "`- [ ] code`"].randomElement(using: &random)!
                    lines.append(quote.components(separatedBy: "\n").last! + indent + marker + box + tail)
                    // Continuation lines: lazy, indented, after a blank line, a fence inside the item.
                    switch Int.random(in: 0..<8, using: &random) {
                    case 0: lines.append("continued lazily")
                    case 1: lines.append(indent + "      indented more")
                    case 2: lines += ["", indent + "    after a blank line"]
                    case 3: lines += [indent + "    ```", indent + "    - [ ] fenced", indent + "    ```"]
                    default: break
                    }
                }
            }
            if Bool.random(using: &random) { lines.append("") }
        }
        return lines.joined(separator: Bool.random(using: &random) ? "\n" : "\r\n")
    }
}
