/// A unified diff of two versions of a file (the dry runs of `fix`, `types migrate`, `mv` and the note
/// edits), in hunks with `context` lines around each change, as `diff -u` prints them. Only the part between
/// the first and the last differing line is compared line by line (a fix touches the frontmatter, a move a
/// few lines: bodies are skipped cheaply); when that part is large and keeps its line count (link rewrites
/// never add lines), lines are paired one to one instead of searching for the longest common subsequence.
public enum UnifiedDiff {
    private enum Line {
        case same(String), removed(String), added(String)
    }

    public static func render(old: [UInt8], new: [UInt8], path: String, context contextLines: Int = 2) -> String {
        let oldLines = lines(old), newLines = lines(new)
        var prefix = 0
        while prefix < oldLines.count, prefix < newLines.count, oldLines[prefix] == newLines[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < oldLines.count - prefix, suffix < newLines.count - prefix,
              oldLines[oldLines.count - 1 - suffix] == newLines[newLines.count - 1 - suffix] { suffix += 1 }
        let a = Array(oldLines[prefix..<(oldLines.count - suffix)]), b = Array(newLines[prefix..<(newLines.count - suffix)])
        guard !a.isEmpty || !b.isEmpty else { return "" }
        let script = oldLines[..<prefix].map(Line.same) + editScript(a, b) + oldLines[(oldLines.count - suffix)...].map(Line.same)

        var text = "--- a/\(path)\n+++ b/\(path)\n"
        // Hunks: runs of changes whose unchanged gaps are at most twice the context, with context around.
        var index = 0
        var oldLine = 1, newLine = 1
        while index < script.count {
            guard let firstChange = script[index...].firstIndex(where: { if case .same = $0 { false } else { true } }) else { break }
            var end = firstChange
            var scan = firstChange
            while scan < script.count {
                if case .same = script[scan] {
                    var run = scan
                    while run < script.count, case .same = script[run] { run += 1 }
                    if run == script.count || run - scan > 2 * contextLines { break }
                    scan = run
                } else {
                    scan += 1
                    end = scan
                }
            }
            let start = max(index, firstChange - contextLines)
            let stop = min(script.count, end + contextLines)
            // Line numbers at the hunk's start.
            for line in script[index..<start] {
                switch line {
                case .same: oldLine += 1; newLine += 1
                case .removed: oldLine += 1
                case .added: newLine += 1
                }
            }
            var oldCount = 0, newCount = 0, body: [String] = []
            for line in script[start..<stop] {
                switch line {
                case .same(let text): body.append(" " + text); oldCount += 1; newCount += 1
                case .removed(let text): body.append("-" + text); oldCount += 1
                case .added(let text): body.append("+" + text); newCount += 1
                }
            }
            text += "@@ -\(oldLine),\(oldCount) +\(newLine),\(newCount) @@\n" + body.joined(separator: "\n") + "\n"
            oldLine += oldCount
            newLine += newCount
            index = stop
        }
        return text
    }

    /// The lines of `a` and `b` as unchanged, removed and added lines.
    private static func editScript(_ a: [String], _ b: [String]) -> [Line] {
        if a.count == b.count, a.count > 200 {
            return zip(a, b).flatMap { $0 == $1 ? [Line.same($0)] : [.removed($0), .added($1)] }
        }
        // Longest common subsequence over the differing middle.
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        var script: [Line] = []
        var i = 0, j = 0
        while i < a.count || j < b.count {
            if i < a.count, j < b.count, a[i] == b[j] {
                script.append(.same(a[i])); i += 1; j += 1
            } else if i < a.count, j == b.count || table[i + 1][j] >= table[i][j + 1] {
                script.append(.removed(a[i])); i += 1  // removals before additions, as `diff -u` shows them
            } else {
                script.append(.added(b[j])); j += 1
            }
        }
        return script
    }

    private static func lines(_ bytes: [UInt8]) -> [String] {
        var result = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        if result.last == "" { result.removeLast() }
        return result
    }
}
