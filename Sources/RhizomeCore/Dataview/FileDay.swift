/// `file.day`: the date a note's name carries (`2024-01-31 Standup`, `20240131`), as Dataview reads it.
/// Dataview falls back to a `date` field when the name has none; the query engine applies that fallback.
public enum FileDay {
    /// The first valid `yyyy-MM-dd` in the name, else the first valid `yyyyMMdd` (`Standup 20260308`).
    public static func date(inName name: String) -> DataviewDate? {
        let bytes = Array(name.utf8)
        guard bytes.count >= 8 else { return nil }
        func digit(_ index: Int) -> Int? {
            index >= 0 && index < bytes.count && bytes[index] >= 48 && bytes[index] <= 57 ? Int(bytes[index] - 48) : nil
        }
        func number(_ start: Int, _ count: Int) -> Int? {
            var value = 0
            for offset in 0..<count {
                guard let next = digit(start + offset) else { return nil }
                value = value * 10 + next
            }
            return value
        }
        // As Dataview's extractDate: the first `yyyy-MM-dd` anywhere in the name, else the first `yyyyMMdd`.
        for start in 0..<max(0, bytes.count - 9) {
            if let year = number(start, 4), bytes[start + 4] == UInt8(ascii: "-"), let month = number(start + 5, 2),
               bytes[start + 7] == UInt8(ascii: "-"), let day = number(start + 8, 2),
               DataviewDate.isValid(year: year, month: month, day: day) {
                return DataviewDate(year: year, month: month, day: day)
            }
        }
        for start in 0...(bytes.count - 8) {
            if let year = number(start, 4), let month = number(start + 4, 2), let day = number(start + 6, 2),
               DataviewDate.isValid(year: year, month: month, day: day) {
                return DataviewDate(year: year, month: month, day: day)
            }
        }
        return nil
    }
}
