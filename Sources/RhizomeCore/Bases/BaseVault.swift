import Foundation

/// What evaluating a base needs to know about the vault: each file's facts, how link text resolves, and
/// backlinks. The index implements it (`RhizomeStore`); tests can implement it over plain values.
public protocol BaseVault: Sendable {
    /// The facts of the file at `path` (any kind: notes, attachments, canvases, bases), nil if there is none.
    func facts(ofPath path: String) -> BaseFileFacts?
    /// The vault path `linkPath` (as written in a link, without `#subpath`) resolves to from `sourcePath`,
    /// as Obsidian resolves links; nil if it resolves to nothing.
    func resolve(_ linkPath: String, from sourcePath: String) -> String?
    /// Paths of the files that link to `path`, in path order.
    func backlinks(ofPath path: String) -> [String]
    /// `file.backlinks`: links to the files that link to `path`, in path order. A vault that keeps these
    /// links made can return them without making new ones for every row.
    func backlinkLinks(ofPath path: String) -> [BaseLink]
    /// `file.backlinks.length`, without making the list.
    func backlinkCount(ofPath path: String) -> Int
}

extension BaseVault {
    public func backlinkCount(ofPath path: String) -> Int {
        backlinks(ofPath: path).count
    }

    public func backlinkLinks(ofPath path: String) -> [BaseLink] {
        backlinks(ofPath: path).map { BaseLink.to(BaseFileReference(path: $0)) }
    }
}

/// A file as Bases sees it (the `file.*` properties).
public struct BaseFileFacts: Sendable {
    /// Vault-relative path with extension: `Books/Dune.md`.
    public var path: String
    /// The extension without the dot, `md`; empty when there is none.
    public var ext: String
    public var size: Int?
    public var ctime: DataviewDate?
    public var mtime: DataviewDate?
    /// Frontmatter properties (empty for files that are not notes), keys in the order written.
    public var properties: BaseObject
    /// Tags from the body and frontmatter, without `#`, in order, each once.
    public var tags: [String]
    /// Internal links (body and frontmatter, embeds excluded), resolved from this file.
    public var links: [BaseLink]
    /// Embeds `![[…]]`, resolved from this file.
    public var embeds: [BaseLink]

    public init(
        path: String, size: Int? = nil, ctime: DataviewDate? = nil, mtime: DataviewDate? = nil,
        properties: BaseObject = BaseObject(), tags: [String] = [], links: [BaseLink] = [], embeds: [BaseLink] = []
    ) {
        self.path = path
        // By bytes, without splitting the path: this runs for every file of the vault.
        let bytes = path.utf8
        let nameStart = bytes.lastIndex(of: UInt8(ascii: "/")).map { bytes.index(after: $0) } ?? bytes.startIndex
        if let dot = bytes[nameStart...].lastIndex(of: UInt8(ascii: ".")), dot != nameStart {
            ext = String(path[path.utf8.index(after: dot)...])
        } else {
            ext = ""
        }
        self.size = size
        self.ctime = ctime
        self.mtime = mtime
        self.properties = properties
        self.tags = tags
        self.links = links
        self.embeds = embeds
    }

    /// `file.name`: the file name with its extension (`Dune.md`).
    public var name: String { path.split(separator: "/").last.map(String.init) ?? path }
    /// `file.basename`: the name without the extension (`Dune`).
    public var basename: String {
        ext.isEmpty ? name : String(name.dropLast(ext.count + 1))
    }
    /// `file.folder`: the parent folder's path, `/` for the vault root (as Obsidian's `TFolder.path` of the root).
    public var folder: String {
        guard let slash = path.lastIndex(of: "/") else { return "/" }
        return String(path[..<slash])
    }
}

/// Where an expression is evaluated: the vault, the clock, and the time zone dates are shown in.
public struct BaseEnvironment: Sendable {
    public var vault: any BaseVault
    /// The moment `now()` returns; fixed for one evaluation so every row sees the same time.
    public var now: Date
    public var timeZone: TimeZone

    public init(vault: any BaseVault, now: Date = Date(), timeZone: TimeZone = .current) {
        self.vault = vault
        self.now = now
        self.timeZone = timeZone
    }
}
