/// Aligned columns for human output.
struct TextTable {
    var headers: [String]
    var rows: [[String]] = []

    init(_ headers: String...) { self.headers = headers }
    init(headers: [String]) { self.headers = headers }

    mutating func add(_ cells: String...) { rows.append(cells) }
    mutating func add(cells: [String]) { rows.append(cells) }

    func render(indent: String = "") -> String {
        var widths = headers.map(\.displayWidth)
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], cell.displayWidth)
            }
        }
        func line(_ cells: [String]) -> String {
            var text = indent
            for (index, cell) in cells.enumerated() {
                let isLast = index == cells.count - 1
                text += isLast ? cell : cell + String(repeating: " ", count: widths[index] - cell.displayWidth + 2)
            }
            return text
        }
        return ([line(headers)] + rows.map(line)).joined(separator: "\n")
    }
}

extension String {
    /// Columns on a terminal: East Asian wide characters and emoji take two, combining marks none.
    var displayWidth: Int {
        var width = 0
        for character in self {
            guard let scalar = character.unicodeScalars.first else { continue }
            switch scalar.value {
            case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
                 0xFFE0...0xFFE6, 0x1F300...0x1FAFF, 0x20000...0x3FFFD:
                width += 2
            default:
                width += 1
            }
        }
        return width
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
