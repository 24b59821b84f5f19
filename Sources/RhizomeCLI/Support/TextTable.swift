/// Aligned columns for human output.
struct TextTable {
    var headers: [String]
    var rows: [[String]] = []

    init(_ headers: String...) { self.headers = headers }
    init(headers: [String]) { self.headers = headers }

    mutating func add(_ cells: String...) { rows.append(cells) }
    mutating func add(cells: [String]) { rows.append(cells) }

    func render(indent: String = "") -> String {
        var widths = headers.map(\.count)
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], cell.count)
            }
        }
        func line(_ cells: [String]) -> String {
            var text = indent
            for (index, cell) in cells.enumerated() {
                let isLast = index == cells.count - 1
                text += isLast ? cell : cell + String(repeating: " ", count: widths[index] - cell.count + 2)
            }
            return text
        }
        return ([line(headers)] + rows.map(line)).joined(separator: "\n")
    }
}

extension Int {
    /// 12345 → "12,345".
    var grouped: String {
        let digits = String(abs(self))
        var result = ""
        for (index, character) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result += "," }
            result.append(character)
        }
        return self < 0 ? "-" + result : result
    }
}
