/// Dataview's emoji shorthands for task dates (the Tasks plugin's notation, which Dataview reads too):
/// `- [ ] file taxes 📅 2024-04-15 ➕ 2024-03-01` gives the task the fields `due` and `created`.
///
/// 🗓️ or 📅 due, ➕ created, 🛫 start, ⏳ scheduled, ✅ completion; each followed by optional spaces and a
/// `YYYY-MM-DD` date. The first date for a key counts; the task's text keeps the emoji and dates.
public enum DataviewTaskShorthand {
    static let markers: [(emoji: Unicode.Scalar, key: String)] = [
        ("\u{1F5D3}", "due"), ("\u{1F4C5}", "due"), ("\u{2795}", "created"), ("\u{1F6EB}", "start"),
        ("\u{23F3}", "scheduled"), ("\u{2705}", "completion"),
    ]

    /// The shorthand dates in a task's text, by field name, as `YYYY-MM-DD` text, in the order written.
    public static func fields(in text: String) -> [(key: String, date: String)] {
        let scalars = Array(text.unicodeScalars)
        var found: [(key: String, date: String)] = []
        var index = 0
        while index < scalars.count {
            guard let marker = markers.first(where: { $0.emoji == scalars[index] }) else {
                index += 1
                continue
            }
            var position = index + 1
            if position < scalars.count, scalars[position] == "\u{FE0F}" { position += 1 }  // emoji presentation
            while position < scalars.count, scalars[position] == " " || scalars[position] == "\t" { position += 1 }
            if let date = isoDate(scalars, at: position) {
                if !found.contains(where: { $0.key == marker.key }) { found.append((marker.key, date)) }
                index = position + 10
            } else {
                index += 1
            }
        }
        return found
    }

    /// `YYYY-MM-DD` at `start`, not followed by another digit.
    private static func isoDate(_ scalars: [Unicode.Scalar], at start: Int) -> String? {
        guard start + 10 <= scalars.count else { return nil }
        let shape = "dddd-dd-dd"
        for (offset, kind) in shape.enumerated() {
            let scalar = scalars[start + offset]
            if kind == "d" ? !("0"..."9").contains(scalar) : scalar != "-" { return nil }
        }
        if start + 10 < scalars.count, ("0"..."9").contains(scalars[start + 10]) { return nil }
        return String(String.UnicodeScalarView(scalars[start..<(start + 10)]))
    }
}
