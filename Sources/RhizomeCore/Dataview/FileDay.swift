/// `file.day`: the date a note's name carries (`2024-01-31 Standup`, `20240131`), as Dataview reads it.
/// Dataview falls back to a `date` field when the name has none; the query engine applies that fallback.
public enum FileDay {
    /// The first `yyyy-MM-dd` in the name, else a name that is `yyyyMMdd` followed by a non-digit or nothing.
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
        var start = 0
        while start + 10 <= bytes.count {
            if digit(start - 1) == nil, let year = number(start, 4), bytes[start + 4] == UInt8(ascii: "-"),
               let month = number(start + 5, 2), bytes[start + 7] == UInt8(ascii: "-"), let day = number(start + 8, 2),
               digit(start + 10) == nil, DataviewDate.isValid(year: year, month: month, day: day) {
                return DataviewDate(year: year, month: month, day: day)
            }
            start += 1
        }
        if let year = number(0, 4), let month = number(4, 2), let day = number(6, 2), digit(8) == nil,
           DataviewDate.isValid(year: year, month: month, day: day) {
            return DataviewDate(year: year, month: month, day: day)
        }
        return nil
    }
}
