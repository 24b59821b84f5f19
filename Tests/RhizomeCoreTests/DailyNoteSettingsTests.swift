import Foundation
import Testing
@testable import RhizomeCore
import RhizomeTestSupport

/// Daily notes as Obsidian names and fills them: Moment.js formats, the core plugin's and Periodic Notes'
/// settings, and the Templates plugin's placeholders.
@Suite struct DailyNoteSettingsTests {
    static let utc = TimeZone(identifier: "UTC")!
    /// Wednesday 25 November 2026, 09:05:07 UTC.
    static let day = Date(timeIntervalSince1970: 1_795_597_507)

    @Test func momentTokens() {
        func format(_ text: String) -> String { MomentFormat.format(Self.day, text, timeZone: Self.utc) }
        #expect(format("YYYY-MM-DD") == "2026-11-25")
        #expect(format("YY/M/D") == "26/11/25")
        #expect(format("dddd, MMMM Do YYYY") == "Wednesday, November 25th YYYY".replacingOccurrences(of: "YYYY", with: "2026"))
        #expect(format("ddd MMM DDDD [day] Q") == "Wed Nov 329 day 4")
        #expect(format("GGGG-[W]WW-E") == "2026-W48-3")
        #expect(format("HH:mm:ss h A") == "09:05:07 9 AM")
        #expect(format("[YYYY] [literal]") == "YYYY literal", "letters outside brackets are tokens, as in Moment")
        #expect(MomentFormat.format(Date(timeIntervalSince1970: 1_767_139_200), "GGGG-[W]WW", timeZone: Self.utc) == "2026-W01", "31 Dec 2025 is in ISO week 1 of 2026")
        #expect(["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "31st"] == [1, 2, 3, 4, 11, 12, 13, 21, 22, 31].map { "\($0)" + MomentFormat.ordinalSuffix($0) })
    }

    @Test func corePluginSettingsAndTemplates() throws {
        let vault = try TemporaryVault()
        try vault.write(".obsidian/daily-notes.json", #"{"folder": "Journal/", "format": "YYYY/MM/YYYY-MM-DD", "template": "Templates/Day"}"#)
        try vault.write(".obsidian/templates.json", #"{"dateFormat": "DD.MM.YYYY", "timeFormat": "HH:mm"}"#)
        let settings = DailyNoteSettings.load(vaultRoot: vault.path)
        #expect(settings.notePath(for: Self.day, timeZone: Self.utc) == "Journal/2026/11/2026-11-25.md")
        #expect(settings.template == "Templates/Day")
        #expect(settings.fill("# {{title}} {{date}} {{time}} {{date:dddd}} {{TIME:ss}} {{unknown}} {{", date: Self.day, title: "T", timeZone: Self.utc)
                == "# T 25.11.2026 09:05 Wednesday 07 {{unknown}} {{")
    }

    @Test func periodicNotesWinWhenItsDailyNotesAreEnabled() throws {
        let vault = try TemporaryVault()
        try vault.write(".obsidian/daily-notes.json", #"{"folder": "Core"}"#)
        try vault.write(".obsidian/plugins/periodic-notes/data.json", #"{"daily": {"enabled": true, "folder": "Periodic", "format": "gggg-[W]ww-dd"}}"#)
        #expect(DailyNoteSettings.load(vaultRoot: vault.path).notePath(for: Self.day, timeZone: Self.utc) == "Periodic/2026-W48-We.md")
        try vault.write(".obsidian/plugins/periodic-notes/data.json", #"{"daily": {"enabled": false, "folder": "Periodic"}}"#)
        #expect(DailyNoteSettings.load(vaultRoot: vault.path).notePath(for: Self.day, timeZone: Self.utc) == "Core/2026-11-25.md")
    }

    @Test func withoutSettingsTheNoteIsNamedByDateAtTheRoot() throws {
        let vault = try TemporaryVault()
        #expect(DailyNoteSettings.load(vaultRoot: vault.path).notePath(for: Self.day, timeZone: Self.utc) == "2026-11-25.md")
    }
}
