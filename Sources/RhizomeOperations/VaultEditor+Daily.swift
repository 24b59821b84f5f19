import Foundation
import RhizomeCore

/// `rhizome daily`: the day's note, where Obsidian's Daily notes (or Periodic Notes) settings put it.
extension VaultEditor {
    /// The day's note: its path, and the plan that creates it from the template when it does not exist
    /// (nil when it does). A template that cannot be read is `templateProblem`, and the note starts empty.
    public func planDaily(for date: Date, timeZone: TimeZone = .current) throws -> (path: String, create: NoteEditPlan?, templateProblem: String?) {
        let settings = DailyNoteSettings.load(vaultRoot: vaultPath)
        let path = UnicodeNormalization.nfc(settings.notePath(for: date, timeZone: timeZone))
        if let existing = try walk().existingNote(named: path) {
            return (String(existing.dropFirst(vaultPath.count + 1)), nil, nil)
        }
        var text = ""
        var problem: String?
        if let template = settings.template {
            let templatePath = VaultFileKind(path: template) == .note ? template : template + ".md"
            if case .success(let bytes) = FileReader.read(DiskPath(vaultPath + "/" + templatePath), maxBytes: 1 << 20) {
                text = settings.fill(String(decoding: bytes, as: UTF8.self), date: date, title: VaultPath.displayName(of: path), timeZone: timeZone)
            } else {
                problem = "the daily note template \(templatePath) (from the vault's daily notes settings) cannot be read; the note starts empty"
            }
        }
        return (path, try planCreate(at: path, text: text), problem)
    }

    /// `today`, `yesterday`, `tomorrow`, `+N`/`-N` days from today, or `YYYY-MM-DD`; nil otherwise.
    public static func day(_ text: String, now: Date = Date(), timeZone: TimeZone = .current) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let trimmed = text.trimmingSpaces.lowercased()
        let offsets = ["today": 0, "yesterday": -1, "tomorrow": 1]
        if let days = offsets[trimmed] ?? ((trimmed.hasPrefix("+") || trimmed.hasPrefix("-")) ? Int(trimmed) : nil) {
            return calendar.date(byAdding: .day, value: days, to: now)
        }
        // A given day at the current time of day: `{{time}}` in a template is the time the note is made.
        let parts = trimmed.split(separator: "-").compactMap { Int($0) }
        let time = calendar.dateComponents([.hour, .minute, .second], from: now)
        guard parts.count == 3, trimmed.count == 10,
              let date = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: time.hour, minute: time.minute, second: time.second)),
              calendar.component(.day, from: date) == parts[2] else { return nil }
        return date
    }
}
