import Foundation

/// The parts of Obsidian's own settings (`.obsidian/app.json`) that decide how Rhizome writes to a vault:
/// how new link text is written, and where deleted files go. Missing or unreadable settings are
/// Obsidian's defaults; a value Rhizome does not know is kept as written so errors can name it.
public struct ObsidianSettings: Sendable, Equatable {
    /// `newLinkFormat`: which path a new or updated link is written with.
    public enum LinkFormat: String, Sendable, Codable, CaseIterable {
        /// The file name when it reaches the file from the linking note, else the path from the vault root.
        case shortest
        /// The path relative to the linking note's folder.
        case relative
        /// The path from the vault root.
        case absolute
    }

    /// `trashOption`: where Obsidian puts deleted files.
    public enum TrashOption: String, Sendable, Codable {
        /// The vault's `.trash/` folder.
        case local
        /// The system's trash.
        case system
        /// Deleted for good.
        case none
    }

    public var newLinkFormat: LinkFormat = .shortest
    /// `useMarkdownLinks`: new links as `[text](path.md)` instead of `[[path]]`.
    public var useMarkdownLinks = false
    /// nil when `app.json` does not say (Obsidian's own default is the system trash).
    public var trashOption: TrashOption?

    public init(newLinkFormat: LinkFormat = .shortest, useMarkdownLinks: Bool = false, trashOption: TrashOption? = nil) {
        self.newLinkFormat = newLinkFormat
        self.useMarkdownLinks = useMarkdownLinks
        self.trashOption = trashOption
    }

    /// Reads `<vault>/.obsidian/app.json`; defaults for anything missing, unreadable or unknown.
    public static func load(vaultRoot: String) -> ObsidianSettings {
        guard let data = FileManager.default.contents(atPath: vaultRoot + "/.obsidian/app.json") else { return ObsidianSettings() }
        return parse(data)
    }

    public static func parse(_ data: Data) -> ObsidianSettings {
        var settings = ObsidianSettings()
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return settings }
        if let format = (object["newLinkFormat"] as? String).flatMap(LinkFormat.init(rawValue:)) { settings.newLinkFormat = format }
        if let markdown = object["useMarkdownLinks"] as? Bool { settings.useMarkdownLinks = markdown }
        settings.trashOption = (object["trashOption"] as? String).flatMap(TrashOption.init(rawValue:))
        return settings
    }
}
