import Foundation

/// Where Obsidian puts a day's note and what it starts with: the core Daily notes plugin's settings
/// (`.obsidian/daily-notes.json`: `folder`, `format`, `template`), or the Periodic Notes plugin's daily
/// settings when that plugin is set up for daily notes (`.obsidian/plugins/periodic-notes/data.json`), and
/// the core Templates plugin's `{{date}}`/`{{time}}` formats (`.obsidian/templates.json`).
public struct DailyNoteSettings: Sendable, Equatable {
    /// Vault-relative folder ("" for the root).
    public var folder = ""
    /// A Moment.js format; `/` in it makes folders (`YYYY/MM/YYYY-MM-DD`).
    public var format = "YYYY-MM-DD"
    /// Vault-relative path of the template note (with or without `.md`), if any.
    public var template: String?
    /// Formats of `{{date}}` and `{{time}}` in templates.
    public var templateDateFormat = "YYYY-MM-DD"
    public var templateTimeFormat = "HH:mm"

    public init() {}

    public static func load(vaultRoot: String) -> DailyNoteSettings {
        var settings = DailyNoteSettings()
        func object(_ path: String) -> [String: Any]? {
            FileManager.default.contents(atPath: vaultRoot + "/.obsidian/" + path).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
        }
        func apply(_ values: [String: Any]) {
            if let folder = values["folder"] as? String { settings.folder = folder.trimmingCharacters(in: CharacterSet(charactersIn: "/ ")) }
            if let format = values["format"] as? String, !format.trimmingSpaces.isEmpty { settings.format = format.trimmingSpaces }
            if let template = values["template"] as? String, !template.trimmingSpaces.isEmpty { settings.template = template.trimmingSpaces }
        }
        if let periodic = object("plugins/periodic-notes/data.json"), let daily = periodic["daily"] as? [String: Any], daily["enabled"] as? Bool == true {
            apply(daily)
        } else if let core = object("daily-notes.json") {
            apply(core)
        }
        if let templates = object("templates.json") {
            if let date = templates["dateFormat"] as? String, !date.isEmpty { settings.templateDateFormat = date }
            if let time = templates["timeFormat"] as? String, !time.isEmpty { settings.templateTimeFormat = time }
        }
        return settings
    }

    /// The vault-relative path of the note for `date`.
    public func notePath(for date: Date, timeZone: TimeZone = .current) -> String {
        let name = MomentFormat.format(date, format, timeZone: timeZone)
        return (folder.isEmpty ? name : folder + "/" + name) + ".md"
    }

    /// A template's text with `{{date}}`, `{{time}}`, `{{title}}` and `{{date:FORMAT}}`/`{{time:FORMAT}}`
    /// filled as the core Templates plugin fills them.
    public func fill(_ template: String, date: Date, title: String, timeZone: TimeZone = .current) -> String {
        var output = ""
        var rest = Substring(template)
        while let open = rest.range(of: "{{") {
            output += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].range(of: "}}") else {
                rest = rest[open.lowerBound...]
                break
            }
            let inside = rest[open.upperBound..<close.lowerBound]
            let parts = inside.split(separator: ":", maxSplits: 1).map { String($0).trimmingSpaces }
            switch parts.first?.lowercased() {
            case "date": output += MomentFormat.format(date, parts.count > 1 ? parts[1] : templateDateFormat, timeZone: timeZone)
            case "time": output += MomentFormat.format(date, parts.count > 1 ? parts[1] : templateTimeFormat, timeZone: timeZone)
            case "title": output += title
            default: output += rest[open.lowerBound..<close.upperBound]
            }
            rest = rest[close.upperBound...]
        }
        return output + rest
    }
}

/// Moment.js date formatting, the tokens Obsidian's date settings use: `YYYY YY Q MMMM MMM MM M DDDD DDD DD D Do
/// dddd ddd dd d E e WW W ww w GGGG gggg HH H hh h mm m ss s A a Z ZZ X x` and `[literal text]`; English names.
public enum MomentFormat {
    static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    /// Longest first, so that `MMMM` is not read as `MM` twice.
    static let tokens = ["YYYY", "GGGG", "gggg", "MMMM", "dddd", "DDDD", "MMM", "ddd", "DDD", "YY", "MM", "DD", "Do", "dd", "HH", "hh", "mm", "ss",
                         "WW", "ww", "ZZ", "M", "D", "d", "E", "e", "W", "w", "Q", "H", "h", "m", "s", "A", "a", "Z", "X", "x"]

    public static func format(_ date: Date, _ format: String, timeZone: TimeZone = .current) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        var iso = Calendar(identifier: .iso8601)
        iso.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .weekday, .hour, .minute, .second, .weekOfYear, .yearForWeekOfYear], from: date)
        let isoParts = iso.dateComponents([.weekOfYear, .yearForWeekOfYear], from: date)
        let dayOfYear = calendar.ordinality(of: .day, in: .year, for: date) ?? 1
        let (year, month, day, weekday) = (parts.year!, parts.month!, parts.day!, parts.weekday! - 1)
        let (hour, minute, second) = (parts.hour!, parts.minute!, parts.second!)
        func pad(_ value: Int, _ width: Int) -> String { String(repeating: "0", count: max(0, width - String(value).count)) + String(value) }
        var output = ""
        var index = format.startIndex
        while index < format.endIndex {
            if format[index] == "[" , let close = format[index...].firstIndex(of: "]") {
                output += format[format.index(after: index)..<close]
                index = format.index(after: close)
                continue
            }
            guard let token = tokens.first(where: { format[index...].hasPrefix($0) }) else {
                output.append(format[index])
                index = format.index(after: index)
                continue
            }
            let offset = timeZone.secondsFromGMT(for: date) / 60
            let zone = (offset < 0 ? "-" : "+") + pad(abs(offset) / 60, 2) + (token == "ZZ" ? "" : ":") + pad(abs(offset) % 60, 2)
            switch token {
            case "YYYY": output += pad(year, 4)
            case "YY": output += pad(year % 100, 2)
            case "GGGG": output += pad(isoParts.yearForWeekOfYear ?? year, 4)
            case "gggg": output += pad(parts.yearForWeekOfYear ?? year, 4)
            case "Q": output += String((month - 1) / 3 + 1)
            case "MMMM": output += months[month - 1]
            case "MMM": output += String(months[month - 1].prefix(3))
            case "MM": output += pad(month, 2)
            case "M": output += String(month)
            case "DDDD": output += pad(dayOfYear, 3)
            case "DDD": output += String(dayOfYear)
            case "DD": output += pad(day, 2)
            case "D": output += String(day)
            case "Do": output += String(day) + ordinalSuffix(day)
            case "dddd": output += weekdays[weekday]
            case "ddd": output += String(weekdays[weekday].prefix(3))
            case "dd": output += String(weekdays[weekday].prefix(2))
            case "d", "e": output += String(weekday)
            case "E": output += String(weekday == 0 ? 7 : weekday)
            case "WW": output += pad(isoParts.weekOfYear ?? 1, 2)
            case "W": output += String(isoParts.weekOfYear ?? 1)
            case "ww": output += pad(parts.weekOfYear ?? 1, 2)
            case "w": output += String(parts.weekOfYear ?? 1)
            case "HH": output += pad(hour, 2)
            case "H": output += String(hour)
            case "hh": output += pad(hour % 12 == 0 ? 12 : hour % 12, 2)
            case "h": output += String(hour % 12 == 0 ? 12 : hour % 12)
            case "mm": output += pad(minute, 2)
            case "m": output += String(minute)
            case "ss": output += pad(second, 2)
            case "s": output += String(second)
            case "A": output += hour < 12 ? "AM" : "PM"
            case "a": output += hour < 12 ? "am" : "pm"
            case "Z", "ZZ": output += zone
            case "X": output += String(Int(date.timeIntervalSince1970))
            case "x": output += String(Int(date.timeIntervalSince1970 * 1000))
            default: output += token
            }
            index = format.index(index, offsetBy: token.count)
        }
        return output
    }

    static func ordinalSuffix(_ day: Int) -> String {
        if (11...13).contains(day % 100) { return "th" }
        switch day % 10 {
        case 1: return "st"
        case 2: return "nd"
        case 3: return "rd"
        default: return "th"
        }
    }
}
