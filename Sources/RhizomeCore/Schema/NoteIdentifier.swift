import Foundation

/// Ids inferred from titles and names, and the placeholders schemas use in defaults and scaffolds.
public enum NoteIdentifier {
    /// Lowercase, accents dropped, every run of other characters one `-`, at most 64 characters:
    /// `Café Culture!` → `cafe-culture`. Letters outside ASCII that have no ASCII form (CJK) are kept.
    public static func slug(_ text: String) -> String {
        let folded = text.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: Locale(identifier: "en_US_POSIX"))
        var result = ""
        var pendingDash = false
        for scalar in folded.unicodeScalars {
            let isASCIIAlphanumeric = scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar))
            let isOtherLetter = !scalar.isASCII && scalar.properties.isAlphabetic
            if isASCIIAlphanumeric || isOtherLetter || (scalar.isASCII && scalar.properties.numericType != nil) {
                if pendingDash && !result.isEmpty { result += "-" }
                pendingDash = false
                result.unicodeScalars.append(contentsOf: String(scalar).lowercased().unicodeScalars)
            } else {
                pendingDash = true
            }
        }
        if result.unicodeScalars.count > 64 {
            result = String(String.UnicodeScalarView(result.unicodeScalars.prefix(64)))
            while result.hasSuffix("-") { result.removeLast() }
        }
        return result
    }

    /// The values `{{title}}`, `{{date}}`, `{{datetime}}` and `{{id}}` stand for.
    public struct Placeholders: Sendable {
        public var title: String
        public var date: String
        public var dateTime: String
        public var id: String

        public init(title: String, id: String = "", now: Date = Date(), timeZone: TimeZone = .current) {
            self.title = title
            self.id = id
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: now)
            date = String(format: "%04d-%02d-%02d", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1)
            dateTime = date + String(format: "T%02d:%02d:%02d", parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
        }

        /// `text` with every known placeholder replaced.
        public func fill(_ text: String) -> String {
            guard text.contains("{{") else { return text }
            // One pass: a title that itself contains `{{date}}` is kept as written.
            let values = ["{{title}}": title, "{{date}}": date, "{{datetime}}": dateTime, "{{id}}": id]
            var result = ""
            var rest = text[...]
            while let open = rest.range(of: "{{") {
                result += rest[..<open.lowerBound]
                let candidate = rest[open.lowerBound...]
                if let (token, value) = values.first(where: { candidate.hasPrefix($0.key) }) {
                    result += value
                    rest = candidate.dropFirst(token.count)
                } else {
                    result += "{{"
                    rest = candidate.dropFirst(2)
                }
            }
            return result + rest
        }
    }

    /// Whether `text` contains a placeholder (such defaults are only filled by `rhizome new`).
    public static func containsPlaceholder(_ text: String) -> Bool {
        ["{{title}}", "{{date}}", "{{datetime}}", "{{id}}"].contains { text.contains($0) }
    }
}
