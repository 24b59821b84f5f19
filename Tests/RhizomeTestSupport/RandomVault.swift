import Foundation
import RhizomeCore

/// Random vaults with what makes link rewriting hard: duplicate names in several folders, case
/// variants, NFC and NFD spellings, nested folders, relative markdown links, property links, embeds
/// with subpaths and display text, canvases, attachments, links inside code that are not links, and
/// unresolved links.
public struct RandomVault {
    /// Vault-relative path → file bytes.
    public var files: [String: [UInt8]]

    static let names = ["Note", "note", "Plan", "Idea", "Café", "Cafe\u{301}", "日記", "Read me", "A.B", "Index"]
    static let folders = ["", "Projects", "Projects/Alpha", "Archive", "Archive/2026", "People", "Daily Notes"]

    public init(generator: inout SeededGenerator, fileCount: Int = 14) {
        var paths: [String] = []
        while paths.count < fileCount {
            let folder = Self.folders.randomElement(using: &generator)!
            let roll = Int.random(in: 0..<10, using: &generator)
            let name = Self.names.randomElement(using: &generator)! + (roll == 0 ? ".png" : roll == 1 ? ".canvas" : ".md")
            let path = folder.isEmpty ? name : folder + "/" + name
            // One spelling per path as the index sees it (NFC, case kept): real file systems may hold both
            // NFC and NFD names, which Obsidian cannot tell apart either.
            if paths.contains(where: { UnicodeNormalization.nfc($0) == UnicodeNormalization.nfc(path) }) { continue }
            paths.append(path)
        }
        var files: [String: [UInt8]] = [:]
        for path in paths {
            switch VaultFileKind(path: path) {
            case .attachment: files[path] = Array("png bytes".utf8)
            case .canvas: files[path] = Array(Self.canvas(linkingTo: paths, generator: &generator).utf8)
            case .note: files[path] = Array(Self.note(at: path, linkingTo: paths, generator: &generator).utf8)
            }
        }
        self.files = files
    }

    static func note(at path: String, linkingTo paths: [String], generator: inout SeededGenerator) -> String {
        var lines: [String] = []
        if Bool.random(using: &generator) {
            let target = linkText(to: paths.randomElement(using: &generator)!, from: path, markdown: false, generator: &generator)
            lines += ["---", "up: \"[[\(target)]]\"", "tags: [one]", "# a comment: kept", "---"]
        }
        lines.append("# Heading")
        // Headings of the same name: `#Dup` reaches the first, `#Second#Dup` the one after `# Second`.
        if Bool.random(using: &generator) { lines += ["## Dup", "# Second", "## Dup", "### Sub"] }
        // A heading may hold a link (the Help vault's `### [[Properties]]`): its text changes with the link.
        if Int.random(in: 0..<3, using: &generator) == 0 {
            lines.append("## About [[\(linkText(to: paths.randomElement(using: &generator)!, from: path, markdown: false, generator: &generator))]]")
        }
        let lineEnding = Int.random(in: 0..<5, using: &generator) == 0 ? "\r\n" : "\n"
        for _ in 0..<Int.random(in: 1...6, using: &generator) {
            let target = paths.randomElement(using: &generator)!
            let markdown = Int.random(in: 0..<3, using: &generator) == 0
            let text = linkText(to: target, from: path, markdown: markdown, generator: &generator)
            let subpath = Int.random(in: 0..<4, using: &generator) == 0
                ? ["#Heading", "#Dup", "#Second#Dup", "#Heading#Dup", "#Dup#Sub", "#Second"].randomElement(using: &generator)! : ""
            switch (markdown, Int.random(in: 0..<6, using: &generator)) {
            case (true, 0): lines.append("An image ![alt](\(encode(text))\(subpath)) here.")
            case (true, 1): lines.append("Angle [link](<\(text)\(subpath)>) here.")
            case (true, _): lines.append("See [\(VaultPath.displayName(of: target))](\(encode(text))\(subpath) \"title\") and more.")
            case (false, 0): lines.append("Embed ![[\(text)\(subpath)]] here.")
            case (false, 1): lines.append("- [ ] task with [[\(text)\(subpath)|shown text]] #tag")
            case (false, 2): lines.append("| table | [[\(text)\\|alias]] |")
            case (false, 3): lines.append("Code `[[\(text)]]` is not a link, but [[\(text)]] is.")
            default: lines.append("Plain [[\(text)\(subpath)]] link.")
            }
        }
        if Int.random(in: 0..<3, using: &generator) == 0 { lines.append("Missing [[Nowhere \(Int.random(in: 0..<3, using: &generator))]] link.") }
        lines.append("```\n[[\(VaultPath.displayName(of: paths.randomElement(using: &generator)!))]] in a fence\n```")
        lines.append("Last line ^block1")
        return lines.joined(separator: lineEnding) + lineEnding
    }

    static func canvas(linkingTo paths: [String], generator: inout SeededGenerator) -> String {
        let file = paths.randomElement(using: &generator)!
        let text = VaultPath.displayName(of: paths.randomElement(using: &generator)!)
        return """
            {"nodes":[{"id":"a1","type":"file","file":"\(file)","x":0,"y":0,"width":10,"height":10},\
            {"id":"b2","type":"text","text":"Card with [[\(text)]]","x":0,"y":0,"width":10,"height":10}],"edges":[]}
            """
    }

    /// How a person might have written a link to `target` from `source`: by name, by path, relative.
    static func linkText(to target: String, from source: String, markdown: Bool, generator: inout SeededGenerator) -> String {
        let isNote = VaultFileKind(path: target) == .note
        let withoutExtension = isNote && !markdown ? String(target.dropLast(3)) : target
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: return String(VaultPath.fileName(of: withoutExtension))
        case 1: return withoutExtension
        case 2:
            let folder = VaultPath.folder(of: source)
            let ups = folder.isEmpty ? "" : String(repeating: "../", count: folder.split(separator: "/").count)
            return ups + withoutExtension
        default: return withoutExtension.lowercased()
        }
    }

    static func encode(_ text: String) -> String { text.replacingOccurrences(of: " ", with: "%20") }

    /// The graph as Obsidian reads these files: for each source, its links' targets in order (nil: unresolved).
    /// Paths are taken in NFC, as the index takes them.
    public static func graph(of files: [String: [UInt8]]) -> [String: [String?]] {
        var files = files
        for key in files.keys where UnicodeNormalization.nfc(key) != key {
            files[UnicodeNormalization.nfc(key)] = files.removeValue(forKey: key)
        }
        let paths = files.keys.sorted()
        let resolver = LinkResolver(files: paths.enumerated().map { (path: $0.element, id: $0.offset) })
        var graph: [String: [String?]] = [:]
        for path in paths {
            let kind = VaultFileKind(path: path)
            guard kind.isParsed else { continue }
            let parsed = kind == .canvas ? CanvasParser.parse(files[path]!, path: path) : NoteParser.parse(files[path]!, path: path, includeBodyText: false)
            graph[path] = resolver.resolveAll(parsed.links, from: path).map { $0.target.map { paths[$0] } }
        }
        return graph
    }
}
