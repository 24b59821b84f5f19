import Foundation

/// The `format` checks (`date`, `date-time`, `email`, `uri`) and the date normalisation `fix` applies.
public enum DateText {
    /// Whether `text` is valid for `format`. A `date-time` may omit seconds and time zone, as Obsidian writes it.
    public static func matches(_ text: String, format: JSONSchema.Format) -> Bool {
        switch format {
        case .date: return parseDate(Array(text.utf8)[...], separators: [UInt8(ascii: "-")], strictWidth: true) != nil && text.utf8.count == 10
        case .dateTime: return isDateTime(text)
        case .email: return isEmail(text)
        case .uri: return isURI(text)
        }
    }

    /// The canonical spelling of a date or date-time written another way (`2024/1/5` → `2024-01-05`,
    /// `2024-01-05 09:30` → `2024-01-05T09:30`); nil when `text` is not recognisably one.
    public static func normalise(_ text: String, format: JSONSchema.Format) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch format {
        case .date:
            guard let (year, month, day) = lenientDate(trimmed) else { return nil }
            let result = formatDate(year, month, day)
            return result == text ? nil : result
        case .dateTime:
            let parts = trimmed.split(maxSplits: 1, whereSeparator: { $0 == " " || $0 == "T" })
            guard parts.count == 2, let (year, month, day) = lenientDate(String(parts[0])) else { return nil }
            let result = formatDate(year, month, day) + "T" + parts[1]
            return result != text && isDateTime(result) ? result : nil
        case .email, .uri:
            return nil
        }
    }

    // MARK: Helpers

    private static func formatDate(_ year: Int, _ month: Int, _ day: Int) -> String {
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    /// Year-month-day with `-`, `/` or `.` and one- or two-digit parts, or `YYYYMMDD`.
    private static func lenientDate(_ text: String) -> (Int, Int, Int)? {
        let bytes = Array(text.utf8)
        if bytes.count == 8, bytes.allSatisfy(isDigit) {
            let year = number(bytes[0..<4]), month = number(bytes[4..<6]), day = number(bytes[6..<8])
            return isValid(year, month, day) ? (year, month, day) : nil
        }
        return parseDate(bytes[...], separators: [UInt8(ascii: "-"), UInt8(ascii: "/"), UInt8(ascii: ".")], strictWidth: false)
    }

    private static func parseDate(_ bytes: ArraySlice<UInt8>, separators: Set<UInt8>, strictWidth: Bool) -> (Int, Int, Int)? {
        let parts = bytes.split(omittingEmptySubsequences: false, whereSeparator: { separators.contains($0) })
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(isDigit) }) else { return nil }
        // One separator kind only: `2024-01/05` is not a date.
        let used = Set(bytes.filter { separators.contains($0) })
        guard used.count == 1, parts[0].count == 4, parts[1].count <= 2, parts[2].count <= 2 else { return nil }
        if strictWidth, parts[1].count != 2 || parts[2].count != 2 { return nil }
        let year = number(parts[0]), month = number(parts[1]), day = number(parts[2])
        return isValid(year, month, day) ? (year, month, day) : nil
    }

    private static func isValid(_ year: Int, _ month: Int, _ day: Int) -> Bool {
        guard (1...12).contains(month), day >= 1 else { return false }
        let isLeap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let lengths = [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return day <= lengths[month - 1]
    }

    /// `YYYY-MM-DDTHH:MM[:SS[.fraction]][Z|±HH:MM]`.
    private static func isDateTime(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count >= 16, bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"),
              matches(String(decoding: bytes[0..<10], as: UTF8.self), format: .date)
        else { return false }
        var index = 11
        func twoDigits(max: Int) -> Bool {
            guard index + 2 <= bytes.count, isDigit(bytes[index]), isDigit(bytes[index + 1]), number(bytes[index..<index + 2]) <= max else { return false }
            index += 2
            return true
        }
        guard twoDigits(max: 23), index < bytes.count, bytes[index] == UInt8(ascii: ":"), { index += 1; return true }(), twoDigits(max: 59) else { return false }
        if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
            index += 1
            guard twoDigits(max: 60) else { return false }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                let start = index
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
                guard index > start else { return false }
            }
        }
        if index == bytes.count { return true }
        if bytes[index] == UInt8(ascii: "Z") || bytes[index] == UInt8(ascii: "z") { return index + 1 == bytes.count }
        guard bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") else { return false }
        index += 1
        guard twoDigits(max: 23), index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return false }
        index += 1
        return twoDigits(max: 59) && index == bytes.count
    }

    private static func isEmail(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !text.contains(where: \.isWhitespace) else { return false }
        let domain = parts[1]
        return domain.contains(".") && !domain.hasPrefix(".") && !domain.hasSuffix(".")
    }

    private static func isURI(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex, !text.contains(where: \.isWhitespace) else { return false }
        let scheme = text[..<colon]
        guard let first = scheme.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
        return scheme.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0)) }
            && text.index(after: colon) < text.endIndex
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private static func number(_ bytes: ArraySlice<UInt8>) -> Int {
        bytes.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }
}
