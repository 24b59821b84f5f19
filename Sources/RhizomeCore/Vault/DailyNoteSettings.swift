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
