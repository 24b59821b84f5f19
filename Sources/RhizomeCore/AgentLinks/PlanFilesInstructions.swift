import Foundation

/// The `## Plan Files` section `rhizome init` puts in `~/.claude/CLAUDE.md`: it tells Claude Code to give
/// every plan frontmatter that the `plan` schema accepts, and a file-name convention.
public enum PlanFilesInstructions {
    public static let heading = "## Plan Files"

    /// Optional fields a user may ask plans to carry, in the order they are written.
    public static let optionalFields = ["id", "projects", "priority", "related", "updated"]

    /// The section's text (heading included, ending with a newline).
    public static func section(optionalFields chosen: [String], fileNamePattern: String = "<project>-<kebab-slug>.md") -> String {
        var lines = [
            "type: plan",
            "title: <what the plan achieves, in one line>",
            "status: draft            # draft | approved | done",
            "created: <YYYY-MM-DD>",
            "tags: [plan]",
        ]
        let extra: [String: String] = [
            "id": "id: <project>-<kebab-slug>   # unique in the vault",
            "projects": "projects: [\"[[<Project note>]]\"]",
            "priority": "priority: medium        # low | medium | high",
            "related": "related: [\"[[<Related note>]]\"]",
            "updated": "updated: <YYYY-MM-DD>",
        ]
        for field in optionalFields where chosen.contains(field) { if let line = extra[field] { lines.append(line) } }
        return """
            \(heading)

            Every plan file you write is a note in an Obsidian vault. Start it with this frontmatter (YAML between \
            `---` lines; quote values that contain `: ` or start with `[`, and write links as quoted "[[Note]]"):

            ```yaml
            ---
            \(lines.joined(separator: "\n"))
            ---
            ```

            - Name the file `\(fileNamePattern)`.
            - Set `status` to `approved` when the user agrees to the plan and to `done` when it is carried out.
            - Keep the keys above; add others only when they help.

            """
    }

    /// Whether `document` has the section (outside code fences).
    public static func hasSection(_ document: String) -> Bool {
        var inFence = false
        for line in lines(of: document) {
            if line.hasPrefix("```") || line.hasPrefix("~~~") { inFence.toggle() }
            if !inFence, line.trimmingCharacters(in: .whitespacesAndNewlines) == heading { return true }
        }
        return false
    }

    /// `document` with its `## Plan Files` section replaced by `section` (or `section` appended), leaving
    /// every other byte as it was. The section runs from its heading to the next heading of level 1 or 2.
    public static func updating(_ document: String, with givenSection: String) -> String {
        // A CRLF file gets the section in CRLF too.
        let usesCRLF = document.contains("\r\n")
        let section = usesCRLF ? givenSection.replacingOccurrences(of: "\n", with: "\r\n") : givenSection
        var lines = lines(of: document)
        var inFence = false
        var start: Int? = nil
        var end: Int? = nil
        for (index, line) in lines.enumerated() {
            if line.hasPrefix("```") || line.hasPrefix("~~~") { inFence.toggle() }
            guard !inFence else { continue }
            if start == nil, line.trimmingCharacters(in: .whitespacesAndNewlines) == heading {
                start = index
            } else if start != nil, line.hasPrefix("# ") || line.hasPrefix("## ") {
                end = index
                break
            }
        }
        let sectionLines = Self.lines(of: section).dropLast()
        guard let start else {
            var text = document
            let newline = usesCRLF ? "\r\n" : "\n"
            // By byte: "\r\n" is one `Character`, which `hasSuffix("\n")` does not see.
            if !text.isEmpty && text.utf8.last != UInt8(ascii: "\n") { text += newline }
            if !text.isEmpty && !text.hasSuffix("\n\n") && !text.hasSuffix("\r\n\r\n") { text += newline }
            return text + section
        }
        let stop = end ?? lines.count
        // Keep a blank line before the next heading when there was one.
        var replacement = Array(sectionLines)
        let blank = usesCRLF ? "\r" : ""
        if end != nil { while replacement.last == "" || replacement.last == "\r" { replacement.removeLast() }; replacement.append(blank) }
        lines.replaceSubrange(start..<stop, with: end == nil ? Array(sectionLines) + [""] : replacement)
        var text = lines.joined(separator: "\n")
        if end == nil {
            while text.hasSuffix("\n\n") || text.hasSuffix("\r\n\r\n") { text.removeLast() }
        }
        return text
    }

    /// Lines split at `\n` only, each keeping a `\r` before it (Swift treats `\r\n` as one character).
    static func lines(of text: String) -> [String] {
        text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    }
}
