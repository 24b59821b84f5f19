/// "Did you mean" suggestions: the name closest to a mistyped one (a missing letter, a swap, another case).
public enum NearestName {
    /// The candidate closest to `text` ignoring case, within an edit distance of a third of its length
    /// (at least 1); nil when none is that close. For "did you mean" messages.
    public static func nearest(_ text: String, among candidates: [String]) -> String? {
        let lowered = Array(text.lowercased())
        var best: (String, Int)? = nil
        for candidate in candidates {
            let other = Array(candidate.lowercased())
            let limit = max(1, min(lowered.count, candidate.count) / 3)
            // Each edit changes the length by at most one: a candidate much longer or shorter is too far.
            guard abs(lowered.count - other.count) <= limit else { continue }
            let distance = editDistance(lowered, other)
            if distance <= limit, best == nil || distance < best!.1 { best = (candidate, distance) }
        }
        return best?.0
    }

    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        var previous = Array(0...b.count)
        var beforePrevious = previous
        var current = previous
        for (i, x) in a.enumerated() {
            current[0] = i + 1
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
                // A swap of two neighbours (`tsak` → `task`) is one edit.
                if i > 0, j > 0, x == b[j - 1], a[i - 1] == y { current[j + 1] = min(current[j + 1], beforePrevious[j - 1] + 1) }
            }
            // Rotate the three rows (no new arrays): `current` is overwritten from its first cell on.
            swap(&beforePrevious, &previous)
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
