import Foundation

/// The methods and fields of files (`file`, `this`, `link.asFile()`), read from the vault's facts.
///
/// Choices where Obsidian's help is silent:
/// - `file.tags` are written with `#` (`"#book"`), as Obsidian returns them (`file.tags.filter(value != "#task")`
///   works in Obsidian, and the `tags` property holds them without `#`: forum-zh.obsidian.md/t/topic/52970);
/// - `hasTag("a")` also matches nested tags (`a/b`), case-insensitively, with or without a leading `#`;
/// - `hasLink` and `link.linksTo` count embeds as links, as Obsidian's backlinks pane does, so
///   `file.hasLink(this.file)` lists the same files as it;
/// - `file.backlinks` is a list of links to the linking files, so a table shows them as links;
/// - `inFolder("")` and `inFolder("/")` are true for every file; leading and trailing `/` are ignored.
extension BaseMethods {
    static func fileMethod(
        _ name: String, on file: BaseFileReference, _ arguments: BaseArguments, environment: BaseEnvironment
    ) throws(BaseEvaluationError) -> BaseValue? {
        let facts = environment.vault.facts(ofPath: file.path)
        switch name {
        case "asLink":
            try arguments.expectCount(0, 1)
            let display = arguments.count == 1 && !arguments.values[0].isNull ? BaseText.string(arguments.values[0]) : nil
            return .link(BaseLink.to(file, display: display))
        case "hasLink":
            try arguments.expectCount(1)
            return .boolean(try fileLinks(file, to: arguments, environment: environment))
        case "hasProperty":
            try arguments.expectCount(1)
            let property = try arguments.text(at: 0)
            return .boolean(facts?.properties[property] != nil)
        case "hasTag":
            try arguments.expectCount(1, .max)
            let wanted = try arguments.texts().map(normalizedTag)
            let tags = (facts?.tags ?? []).map(normalizedTag)
            return .boolean(tags.contains { tag in wanted.contains { tag == $0 || tag.hasPrefix($0 + "/") } })
        case "inFolder":
            try arguments.expectCount(1)
            let folder = String(try arguments.text(at: 0).trimmingCharacters(in: CharacterSet(charactersIn: "/")))
            if folder.isEmpty { return .boolean(true) }
            let parent = file.path.lastIndex(of: "/").map { String(file.path[..<$0]) } ?? ""
            return .boolean(parent == folder || parent.hasPrefix(folder + "/"))
        default:
            return nil
        }
    }

    static func fileField(_ name: String, of file: BaseFileReference, environment: BaseEnvironment) -> BaseValue? {
        let vault = environment.vault
        let stored = vault.facts(ofPath: file.path)
        let facts = stored ?? BaseFileFacts(path: file.path)
        switch name {
        case "name": return .string(facts.name)
        case "basename": return .string(facts.basename)
        case "path": return .string(file.path)
        case "folder": return .string(facts.folder)
        case "ext": return .string(facts.ext)
        case "size": return facts.size.map { .number(Double($0)) } ?? .null
        case "ctime": return facts.ctime.map(BaseValue.date) ?? .null
        case "mtime": return facts.mtime.map(BaseValue.date) ?? .null
        case "properties": return stored == nil ? .null : .object(facts.properties)
        case "tags": return .list(facts.tags.map { .string("#" + $0) })
        case "links": return .list(facts.links.map(BaseValue.link))
        case "embeds": return .list(facts.embeds.map(BaseValue.link))
        case "backlinks":
            return .list(vault.backlinkLinks(ofPath: file.path).map(BaseValue.link))
        case "file": return .file(file)
        default: return nil
        }
    }

    /// Whether `file` links (or embeds) to the first argument: a file, a link, or link text or a path, which
    /// resolves from `file` as a link written in it would.
    static func fileLinks(_ file: BaseFileReference, to arguments: BaseArguments, environment: BaseEnvironment) throws(BaseEvaluationError) -> Bool {
        let vault = environment.vault
        let targetPath: String?
        let targetText: String
        switch arguments.values[0] {
        case .null: return false
        case .file(let other):
            targetPath = other.path
            targetText = other.path
        case .link(let link):
            targetPath = link.resolvedPath ?? (link.isExternal ? nil : vault.resolve(link.target, from: file.path))
            targetText = link.target
        case .string(let text):
            let link = BaseFunctions.parseLink(text, environment: environment)
            targetText = link.target
            targetPath = link.isExternal ? nil : vault.resolve(link.target, from: file.path) ?? (vault.facts(ofPath: text) != nil ? text : nil)
        default:
            throw arguments.mismatch(at: 0, expected: "a file, a link or a path")
        }
        guard let facts = vault.facts(ofPath: file.path) else { return false }
        return (facts.links + facts.embeds).contains { outgoing in
            if let targetPath, outgoing.resolvedPath == targetPath { return true }
            return outgoing.resolvedPath == nil && targetPath == nil && outgoing.target == targetText
        }
    }

    /// A tag compared as Obsidian compares tags: without `#`, case-insensitively.
    private static func normalizedTag(_ tag: String) -> String {
        (tag.hasPrefix("#") ? String(tag.dropFirst()) : tag).lowercased()
    }
}
