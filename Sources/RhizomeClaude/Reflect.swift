import Foundation
import RhizomeCore

/// `reflect`: a short reflection on the notes of a period, by a stronger model, written back as a note.
public enum Reflect {
    public static let defaultModel = "claude-sonnet-4-6"
    public static let defaultMaxTokens = 2_048
    public static let defaultTemperature = 0.7
    public static let defaultFolder = "Reflections"
    /// The notes of a period are trimmed to about this many tokens.
    public static let defaultContextTokens = 12_000

    public static let systemPrompt = """
        You write a short reflection (150 to 200 words) on the notes a person wrote or changed in a period, \
        from the numbered excerpts you are given. In plain paragraphs, without headings: one thematic \
        observation; the specific notes that show it, cited as [n] right after each claim; one connection \
        between notes the person may not have noticed; one forward-looking thought. Use only the numbers given, \
        write in the second person, and do not invent facts that are not in the excerpts.
        """

    /// A period of whole days, `from` to `to` inclusive (local time).
    public struct Period: Sendable, Equatable {
        public var fromDay: String
        public var toDay: String

        public init(fromDay: String, toDay: String) {
            self.fromDay = fromDay
            self.toDay = toDay
        }

        /// The last `days` days, today included.
        public static func last(_ days: Int, endingOn today: Date = Date(), calendar: Calendar = .current) -> Period {
            let start = calendar.date(byAdding: .day, value: -(max(1, days) - 1), to: today) ?? today
            return Period(fromDay: day(start, calendar: calendar), toDay: day(today, calendar: calendar))
        }

        /// `7d`, `2w` (days or weeks); nil for anything else.
        public static func parseSince(_ text: String, today: Date = Date()) -> Period? {
            guard let unit = text.last, let count = Int(text.dropLast()), count >= 1, count <= 3_660 else { return nil }
            switch unit {
            case "d": return last(count, endingOn: today)
            case "w": return last(count * 7, endingOn: today)
            default: return nil
            }
        }

        /// The first and last instant of the period (local time).
        public func bounds(calendar: Calendar = .current) -> (from: Date, to: Date)? {
            guard let start = Self.date(fromDay, calendar: calendar), let end = Self.date(toDay, calendar: calendar),
                  let afterEnd = calendar.date(byAdding: .day, value: 1, to: end), start <= end else { return nil }
            return (start, afterEnd.addingTimeInterval(-0.000_001))
        }

        /// `2026-11-16 to 2026-11-22`, or one day.
        public var description: String { fromDay == toDay ? fromDay : "\(fromDay) to \(toDay)" }

        /// `YYYY-MM-DD` of a moment, in local time.
        public static func day(_ date: Date, calendar: Calendar = .current) -> String {
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
        }

        /// Midnight (local) of a `YYYY-MM-DD` day (years 1900 to 2199); nil when it is not a real date.
        public static func date(_ day: String, calendar: Calendar = .current) -> Date? {
            guard day.utf8.count == 10, day.enumerated().allSatisfy({ $0.offset == 4 || $0.offset == 7 ? $0.element == "-" : $0.element.isASCII && $0.element.isNumber })
            else { return nil }
            let parts = day.split(separator: "-").compactMap { Int($0) }
            guard parts.count == 3, (1900...2199).contains(parts[0]) else { return nil }
            let components = DateComponents(calendar: calendar, year: parts[0], month: parts[1], day: parts[2])
            guard components.isValidDate(in: calendar) else { return nil }
            return calendar.date(from: components)
        }
    }

    /// The question recorded in the note (the `reflection` schema asks for one).
    public static func question(for period: Period) -> String {
        "What stands out in my notes from \(period.description)?"
    }

    /// The note's file name in the reflections folder.
    public static func fileName(for period: Period, version: Int = 1) -> String {
        "Reflection \(period.description)" + (version > 1 ? " (\(version))" : "") + ".md"
    }

    /// The note: frontmatter valid for the `reflection` schema, then the text with citations as wikilinks
    /// and the sources. `rhizome-checksum` lets a later run tell whether the user edited it.
    public static func note(
        period: Period, text: String, sources: [String], model: String, created: Date, usage: MessagesAPI.Usage, costUSD: Double?
    ) -> String {
        var lines = ["---", "type: reflection"]
        lines += YAMLWriter.entryLines(key: "question", value: .string(question(for: period)))
        lines += YAMLWriter.entryLines(key: "period", value: .string(period.description))
        lines.append("sources:")
        lines += sources.map { "  - " + YAMLWriter.quoted("[[\($0)]]") }
        if sources.isEmpty { lines[lines.count - 1] = "sources: []" }
        lines += YAMLWriter.entryLines(key: "model", value: .string(model))
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = .current
        lines += YAMLWriter.entryLines(key: "created", value: .string(formatter.string(from: created)))
        lines.append("input-tokens: \(usage.inputTokens ?? 0)")
        lines.append("output-tokens: \(usage.outputTokens ?? 0)")
        if let costUSD { lines.append(String(format: "cost-usd: %.4f", costUSD)) }
        lines.append("---")
        var body = "# Reflection: \(period.description)\n\n" + text.trimmingCharacters(in: .whitespacesAndNewlines) + "\n"
        if !sources.isEmpty { body += "\n## Sources\n\n" + sources.map { "- [[\($0)]]" }.joined(separator: "\n") + "\n" }
        let withoutChecksum = lines.joined(separator: "\n") + "\n" + body
        let checksum = "rhizome-checksum: " + checksum(of: withoutChecksum)
        lines.insert(checksum, at: lines.count - 1)
        return lines.joined(separator: "\n") + "\n" + body
    }

    /// Whether a reflection note is as Rhizome wrote it: its `rhizome-checksum` matches the rest of it.
    public static func isUnedited(_ text: String) -> Bool {
        // Line endings turned into CRLF (git's autocrlf, a Windows editor) are not an edit.
        var lines = text.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n")
        guard let index = lines.firstIndex(where: { $0.hasPrefix("rhizome-checksum: ") }) else { return false }
        let recorded = String(lines[index].dropFirst("rhizome-checksum: ".count))
        lines.remove(at: index)
        return checksum(of: lines.joined(separator: "\n")) == recorded
    }

    private static func checksum(of text: String) -> String {
        String(ContentHash.hex(of: Array(text.utf8)).prefix(16))
    }
}
