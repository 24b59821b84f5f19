/// A unified diff of two versions of a file (`fix` and `types migrate` dry runs). Only the part that
/// differs is compared line by line: a fix touches the frontmatter, so bodies are skipped cheaply.
enum UnifiedDiff {
    static func render(old: [UInt8], new: [UInt8], path: String, context contextLines: Int = 2) -> String {
        let oldLines = lines(old), newLines = lines(new)
        var prefix = 0
        while prefix < oldLines.count, prefix < newLines.count, oldLines[prefix] == newLines[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < oldLines.count - prefix, suffix < newLines.count - prefix,
              oldLines[oldLines.count - 1 - suffix] == newLines[newLines.count - 1 - suffix] { suffix += 1 }
        let a = Array(oldLines[prefix..<(oldLines.count - suffix)]), b = Array(newLines[prefix..<(newLines.count - suffix)])
        guard !a.isEmpty || !b.isEmpty else { return "" }

        // Longest common subsequence over the differing middle (frontmatter-sized).
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        var body: [String] = []
        var i = 0, j = 0
        while i < a.count || j < b.count {
            if i < a.count, j < b.count, a[i] == b[j] {
                body.append(" " + a[i]); i += 1; j += 1
            } else if i < a.count, j == b.count || table[i + 1][j] >= table[i][j + 1] {
                body.append("-" + a[i]); i += 1  // removals before additions, as `diff -u` shows them
            } else {
                body.append("+" + b[j]); j += 1
            }
        }
        let leading = oldLines[max(0, prefix - contextLines)..<prefix].map { " " + $0 }
        let trailingStart = oldLines.count - suffix
        let trailing = oldLines[trailingStart..<min(oldLines.count, trailingStart + contextLines)].map { " " + $0 }
        let oldCount = leading.count + a.count + trailing.count, newCount = leading.count + b.count + trailing.count
        let start = prefix - leading.count + 1
        var text = "--- a/\(path)\n+++ b/\(path)\n@@ -\(start),\(oldCount) +\(start),\(newCount) @@\n"
        text += (leading + body + trailing).joined(separator: "\n") + "\n"
        return text
    }

    private static func lines(_ bytes: [UInt8]) -> [String] {
        var result = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        if result.last == "" { result.removeLast() }
        return result
    }
}
