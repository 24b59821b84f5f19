/// Deterministic synthetic Obsidian vaults for Rhizome's benchmarks. The same note count and seed give
/// byte-identical files on every run and machine: all randomness comes from a seeded SplitMix64, and each
/// note depends only on (seed, note index), so a note's path or an edit to it needs no other note.
import Foundation
import RhizomeCore

/// Deterministic generator of synthetic Obsidian vaults for benchmarks.
public struct VaultGenerator: Sendable {
    public var noteCount: Int
    public var seed: UInt64

    public init(noteCount: Int, seed: UInt64 = 42) {
        self.noteCount = noteCount
        self.seed = seed
    }

    /// Writes the vault into `root` (created if needed; must be empty or absent). Returns a summary.
    public func generate(into root: URL) throws -> GeneratedVault {
        guard noteCount >= 0 else { throw VaultGeneratorError.invalidNoteCount(noteCount) }
        let fileManager = FileManager.default
        try Self.prepareEmptyDirectory(root, fileManager: fileManager)
        var summary = GeneratedVault(
            noteCount: noteCount, attachmentCount: attachmentCount, totalBytes: 0, linkCount: 0)
        for folder in [".obsidian", "Attachments"] {
            try fileManager.createDirectory(at: root.appending(path: folder), withIntermediateDirectories: true)
        }
        try Self.writeFile(Data("{}\n".utf8), to: root.appending(path: ".obsidian/app.json"))
        for number in 0..<attachmentCount {
            let bytes = Self.tinyPNG + [UInt8(truncatingIfNeeded: number)]  // The extra byte keeps files distinct.
            try Self.writeFile(bytes, to: root.appending(path: "Attachments/image-\(number).png"))
            summary.totalBytes += bytes.count
        }
        var createdFolders: Set<String> = []
        for index in 0..<noteCount {
            let path = relativePath(ofNote: index)
            if let slash = path.lastIndex(of: "/"), createdFolders.insert(String(path[..<slash])).inserted {
                let folder = root.appending(path: String(path[..<slash]))
                try fileManager.createDirectory(at: folder, withIntermediateDirectories: true)
            }
            var writer = NoteWriter(generator: self, index: index, salt: 1)
            writer.writeNote()
            let data = Data(writer.text.utf8)
            try Self.writeFile(data, to: root.appending(path: path))
            summary.totalBytes += data.count
            summary.linkCount += writer.linkCount
        }
        return summary
    }

    /// Appends a deterministic edit (a new paragraph with a new link and a tag) to note number `index`;
    /// returns its path. Used to time "one file changed" re-index.
    public func touchNote(at index: Int, in root: URL, revision: Int) throws -> URL {
        guard (0..<noteCount).contains(index) else {
            throw VaultGeneratorError.noteIndexOutOfRange(index: index, noteCount: noteCount)
        }
        let url = root.appending(path: relativePath(ofNote: index))
        var writer = NoteWriter(generator: self, index: index, salt: 0x5EED_0000 &+ UInt64(bitPattern: Int64(revision)))
        writer.text += "\nEdit \(revision): "
        writer.writeSentence(withLink: true, withTag: false)
        writer.text += " #bench/revision-\(revision)\n"
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(writer.text.utf8))
        return url
    }

    /// Vault-relative path of note `index` (stable for a given noteCount/seed); `index` is in `0..<noteCount`.
    public func relativePath(ofNote index: Int) -> String {
        if isDaily(index) { return "Daily/\(dailyDate(index).prefix(4))/\(dailyDate(index)).md" }
        let folder = folderPath(folderIndex(ofNote: index))
        return (folder.isEmpty ? "" : folder + "/") + basename(ofNote: index) + ".md"
    }

    /// Number of `Attachments/image-N.png` files: about one per 100 notes.
    public var attachmentCount: Int { noteCount <= 0 ? 0 : max(1, noteCount / 100) }
}

/// What `generate(into:)` wrote. `totalBytes` counts notes and attachments, not `.obsidian/`; `linkCount`
/// counts body links, embeds and property links (3–20 per note), not the decoys in code.
public struct GeneratedVault: Sendable, Equatable {
    public var noteCount, attachmentCount, totalBytes, linkCount: Int
}

public enum VaultGeneratorError: LocalizedError, Equatable, Sendable {
    case invalidNoteCount(Int)
    case rootNotEmpty(path: String)
    case noteIndexOutOfRange(index: Int, noteCount: Int)
    case writeFailed(path: String)

    public var errorDescription: String? {
        switch self {
        case .invalidNoteCount(let count): "Note count must not be negative (got \(count))."
        case .rootNotEmpty(let path): "`\(path)` is not an empty folder; pass an empty or missing folder."
        case .noteIndexOutOfRange(let index, let count): "Note \(index) does not exist; the vault has \(count) notes."
        case .writeFailed(let path): "Could not create `\(path)`."
        }
    }
}

// MARK: - Layout: every note's folder, name, heading and block id derive from (seed, index) alone.

extension VaultGenerator {
    var folderCount: Int { max(2, Int(Double(noteCount).squareRoot())) }  // Folder 0 is the vault root.
    var hubCount: Int { max(1, Int(Double(noteCount).squareRoot())) }

    func hash(_ index: Int, _ salt: UInt64) -> UInt64 {
        var mixer = SplitMix64(state: seed ^ (UInt64(bitPattern: Int64(index)) &* 0xD1B5_4A32_D192_ED03))
        mixer.state ^= salt &* 0x8CB9_2BA7_2F3D_8DD7
        _ = mixer.next()
        return mixer.next()
    }

    func isDaily(_ index: Int) -> Bool { index % 10 == 3 }
    func dailyDate(_ index: Int) -> String { Self.isoDate(daysSince1970: 18_262 + index / 10) }  // From 2020-01-01.

    /// Every 50th note takes the previous note's name, in another folder: 2% duplicate basenames.
    func isDuplicate(_ index: Int) -> Bool { index % 50 == 25 }
    func hasSharedName(_ index: Int) -> Bool { isDuplicate(index) || (index + 1 < noteCount && isDuplicate(index + 1)) }

    func folderIndex(ofNote index: Int) -> Int {
        guard isDuplicate(index) else { return Int(hash(index, 2) % UInt64(folderCount)) }
        let offset = 1 + Int(hash(index, 2) % UInt64(folderCount - 1))
        return (folderIndex(ofNote: index - 1) + offset) % folderCount
    }

    /// Distinct for each `k`: `Area-a`, `Area-a/Topic-t` or `Area-a/Topic-t/Sub s`.
    func folderPath(_ k: Int) -> String {
        let areaCount = max(1, folderCount / 6), j = k - 1, topic = j - (j & 1)
        if k == 0 { return "" }
        if j < areaCount { return "Area-\(j)" }
        let topicPath = "Area-\(topic % areaCount)/Topic-\(topic / 2)"
        return j & 1 == 0 ? topicPath : topicPath + "/Sub \(j / 2)"
    }

    /// Unique (bar the deliberate duplicates) because each name ends with the note's index or is its date.
    func basename(ofNote index: Int) -> String {
        if isDaily(index) { return dailyDate(index) }
        if isDuplicate(index) { return basename(ofNote: index - 1) }
        let bits = hash(index, 3), names = Lexicon.nameWords
        let first = names[Int(bits % UInt64(names.count))], second = names[Int((bits >> 16) % UInt64(names.count))]
        switch (bits >> 32) % 10 {
        case 0...6: return "\(first) \(second) \(index)"
        case 7, 8: return "\(first.lowercased())-\(second.lowercased())-\(index)"
        default: return "\(first) \(second) \(names[Int((bits >> 40) % UInt64(names.count))]) \(index)"
        }
    }

    /// The note's first `##` heading, which `[[Name#Heading]]` links point at.
    func heading(ofNote index: Int) -> String { Lexicon.headings[Int(hash(index, 4) % UInt64(Lexicon.headings.count))] }

    /// The block id ending the note's first paragraph, which `[[Name#^id]]` links point at.
    func blockID(ofNote index: Int) -> String { Self.hexID(hash(index, 5)) }

    static func hexID(_ bits: UInt64) -> String {
        let hex = String(bits & 0xFF_FFFF, radix: 16)
        return String(repeating: "0", count: 6 - hex.count) + hex
    }

    /// `yyyy-MM-dd` without a locale- or time-zone-dependent formatter.
    static func isoDate(daysSince1970 days: Int) -> String { DataviewDate(daysSince1970: days).isoText }

    static func prepareEmptyDirectory(_ root: URL, fileManager: FileManager) throws {
        let path = root.path(percentEncoded: false)
        var isDirectory: ObjCBool = false
        if fileManager.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue, try fileManager.contentsOfDirectory(atPath: path).isEmpty else {
                throw VaultGeneratorError.rootNotEmpty(path: path)
            }
        }
        try fileManager.createDirectory(at: root, withIntermediateDirectories: true)
    }

    /// Not `Data.write(to:)`: on Linux it fsyncs every file, which made 50k notes three times slower.
    static func writeFile(_ data: Data, to url: URL) throws {
        guard FileManager.default.createFile(atPath: url.path(percentEncoded: false), contents: nil) else {
            throw VaultGeneratorError.writeFailed(path: url.path(percentEncoded: false))
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.write(contentsOf: data)
    }

    /// A valid 1×1 RGBA PNG.
    static let tinyPNG = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk"
        + "YPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==") ?? Data()
}

// MARK: - Note text

/// Builds one note's markdown from a PRNG seeded by (seed, index, salt).
private struct NoteWriter {
    let generator: VaultGenerator
    let index: Int
    var rng: SplitMix64
    var text = ""
    var linkCount = 0, pendingLinks = 0, targetBytes = 0

    init(generator: VaultGenerator, index: Int, salt: UInt64) {
        (self.generator, self.index, rng) = (generator, index, SplitMix64(state: generator.hash(index, salt)))
    }

    /// 6% short notes (1–4 KB), the rest 7.1–7.8 KB before the last block: a mean near 7 KB, never above 8 KB.
    mutating func writeNote() {
        let isShort = rng.chance(0.06)
        targetBytes = isShort ? rng.int(1_000...4_000) : rng.int(7_100...7_800)
        pendingLinks = isShort ? rng.int(3...6) : rng.int(6...20)
        text.reserveCapacity(targetBytes + 1_024)
        if rng.chance(0.85) { writeFrontmatter() }
        text += "# \(generator.basename(ofNote: index))\n\n"
        if generator.isDaily(index) { text += "#daily #journal/y\(generator.dailyDate(index).prefix(4))\n\n" }
        text += "## \(generator.heading(ofNote: index))\n\n"
        writeParagraph(blockID: generator.blockID(ofNote: index))
        if rng.chance(0.10) { writeCodeBlock() }
        while text.utf8.count + pendingLinks * 45 + 300 < targetBytes || text.utf8.count < 1_100 { writeBlock() }
        if pendingLinks > 0 { text += "## Related\n\n" }
        while pendingLinks > 0 { text += "- \(link())\n" }
        if text.hasSuffix("\n\n") { text.removeLast() }  // End with one newline, not a blank line.
    }

    mutating func writeFrontmatter() {
        let title = generator.basename(ofNote: index)
        if generator.isDaily(index) {
            text += "---\ntitle: \"\(title)\"\ntype: daily\nstatus: logged\ncreated: \(title)\ntags:\n"
        } else {
            let (type, statuses) = Lexicon.noteTypes[rng.int(0...(Lexicon.noteTypes.count - 1))]
            let created = VaultGenerator.isoDate(daysSince1970: 17_897 + rng.int(0...2_400))  // 2019 to 2025.
            text += "---\ntitle: \(title)\ntype: \(type)\nstatus: \(rng.pick(statuses))\ncreated: \(created)\ntags:\n"
        }
        for _ in 0..<rng.int(1...4) {
            let tag = rng.pick(Lexicon.tags)
            text += rng.chance(0.05) ? "  - \"#\(tag)\"\n" : "  - \(tag)\n"
        }
        if rng.chance(0.20) {
            text += "aliases:\n  - \(rng.pick(Lexicon.nameWords)) \(index)\n"
            if rng.chance(0.5) { text += "  - \(title.lowercased())\n" }
        }
        if rng.chance(0.30) {
            let key = rng.pick(["related", "parent", "sources", "up"])
            if rng.chance(0.5) {
                text += "\(key): \"[[\(propertyLinkTarget())]]\"\n"
            } else {
                text += "\(key):\n"
                for _ in 0..<rng.int(2...3) { text += "  - \"[[\(propertyLinkTarget())]]\"\n" }
            }
        }
        text += "---\n"
    }

    mutating func propertyLinkTarget() -> String {
        (pendingLinks, linkCount) = (pendingLinks - 1, linkCount + 1)
        return linkName(pickTarget())
    }

    mutating func writeBlock() {
        switch rng.int(0...99) {
        case 0..<48: writeParagraph(blockID: rng.chance(0.08) ? VaultGenerator.hexID(rng.next()) : nil)
        case 48..<62: writeList(.bullets)
        case 62..<68: writeList(.numbered)
        case 68..<78: writeList(.tasks)
        case 78..<90: text += "\(rng.chance(0.6) ? "##" : "###") \(rng.pick(Lexicon.headings))\n\n"
        case 90..<96:
            text += "> [!\(rng.pick(["note", "tip", "warning", "quote"]))] \(rng.pick(Lexicon.headings))\n> "
            writeSentence(withLink: linkShare(ofBytes: 120) > 0, withTag: false)
            text += "\n\n"
        default:
            text += "| Item | Owner | State |\n| --- | --- | --- |\n"
            for _ in 0..<rng.int(2...4) {
                let state = rng.chance(0.5) ? "open" : "done"
                text += "| \(rng.pick(Lexicon.words)) | \(rng.pick(Lexicon.nameWords)) | \(state) |\n"
            }
            text += "\n"
        }
    }

    mutating func writeParagraph(blockID: String?) {
        let sentenceCount = rng.int(3...6)
        var linksHere = linkShare(ofBytes: 450)
        for number in 0..<sentenceCount {
            if number > 0 { text += " " }
            let withLink = linksHere > 0 && (rng.chance(0.5) || sentenceCount - number <= linksHere)
            if withLink { linksHere -= 1 }
            writeSentence(withLink: withLink, withTag: rng.chance(0.08))
        }
        if rng.chance(0.03) { text += " Not a link: `[[\(rng.pick(Lexicon.nameWords))]]`." }
        if let blockID { text += " ^\(blockID)" }
        text += "\n\n"
    }

    mutating func writeSentence(withLink: Bool, withTag: Bool) {
        let wordCount = rng.int(7...16)
        let linkPosition = withLink ? rng.int(1...(wordCount - 1)) : -1
        let tagPosition = withTag ? rng.int(1...(wordCount - 1)) : -1
        text += Lexicon.capitalizedWords[rng.int(0...(Lexicon.words.count - 1))]
        for position in 1..<wordCount {
            if position == linkPosition { text += " \(link())" }
            text += " "
            text += rng.pick(Lexicon.words)
            if position == tagPosition { text += " #\(rng.pick(Lexicon.tags))" }
            if position < wordCount - 1 && rng.chance(0.06) { text += "," }
        }
        text += rng.chance(0.1) ? "?" : "."
    }

    enum ListStyle { case bullets, numbered, tasks }

    /// Items of 3–9 words, some nested, linked or ending in a block id; tasks are open, done or a custom `[-]`.
    mutating func writeList(_ style: ListStyle) {
        for number in 1...rng.int(2...7) {
            if number > 1 && style != .tasks && rng.chance(0.15) { text += "  " }
            switch style {
            case .bullets: text += "- "
            case .numbered: text += "\(number). "
            case .tasks: text += rng.pick(["- [ ] ", "- [ ] ", "- [x] ", "- [x] ", "- [-] "])
            }
            text += rng.pick(Lexicon.words)
            for _ in 1..<rng.int(3...9) {
                text += " "
                text += rng.pick(Lexicon.words)
            }
            if linkShare(ofBytes: 80) > 0 { text += " \(link())" }
            if rng.chance(0.08) { text += " ^\(VaultGenerator.hexID(rng.next()))" }
            text += "\n"
        }
        text += "\n"
    }

    /// Decoy links, embeds and tags that a parser must ignore because they sit in fenced code.
    mutating func writeCodeBlock() {
        let decoy = "\(rng.pick(Lexicon.nameWords)) \(rng.pick(Lexicon.nameWords))"
        text += "```\(rng.pick(["swift", "python", "bash", "json"]))\n// See [[\(decoy)]] and #not-a-tag\n"
        text += "let reference = \"[[\(decoy)|shown]]\"\nlet embed = \"![[image-0.png]]\"\n```\n\n"
    }

    /// How many pending links a block of about `bytes` should carry, so links spread through the whole note.
    mutating func linkShare(ofBytes bytes: Int) -> Int {
        let bytesLeft = max(bytes, targetBytes - text.utf8.count - pendingLinks * 45)
        let expected = Double(pendingLinks * bytes) / Double(bytesLeft)
        return min(pendingLinks, Int(expected) + (rng.chance(expected - expected.rounded(.down)) ? 1 : 0))
    }

    /// Hub notes (the first sqrt(N)) draw 30% of links, like a real vault's index and project notes.
    mutating func pickTarget() -> Int {
        let count = generator.noteCount
        guard count > 1 else { return 0 }
        let target = rng.chance(0.3) ? rng.int(0...(generator.hubCount - 1)) : rng.int(0...(count - 1))
        return target == index ? (target + 1) % count : target
    }

    /// The bare name, or for half the links to a shared name the folder path (as Obsidian writes them).
    mutating func linkName(_ target: Int) -> String {
        guard generator.hasSharedName(target) && rng.chance(0.5) else { return generator.basename(ofNote: target) }
        return String(generator.relativePath(ofNote: target).dropLast(3))
    }

    /// One link in the mix; 5% are unresolved (`… draft` names no note has) and 2% differ in case.
    mutating func link() -> String {
        (pendingLinks, linkCount) = (pendingLinks - 1, linkCount + 1)
        let target = pickTarget()
        let name = linkName(target)
        switch rng.int(0...99) {
        case 0..<37: return "[[\(name)]]"
        case 37..<47: return "[[\(name)|\(rng.pick(Lexicon.words)) \(rng.pick(Lexicon.words))]]"
        case 47..<57: return "[[\(name)#\(generator.heading(ofNote: target))]]"
        case 57..<63: return "[[\(name)#^\(generator.blockID(ofNote: target))]]"
        case 63..<68: return "![[\(name)]]"
        case 68..<73: return "![[image-\(rng.int(0...(generator.attachmentCount - 1))).png]]"
        case 73..<85:
            let path = generator.relativePath(ofNote: target)
            let label = "\(rng.pick(Lexicon.words)) \(rng.pick(Lexicon.words))"
            if path.contains(" ") && rng.chance(0.2) { return "[\(label)](<\(path)>)" }
            return "[\(label)](\(path.replacingOccurrences(of: " ", with: "%20")))"
        case 85..<90: return "[[\(rng.pick(Lexicon.nameWords)) \(rng.pick(Lexicon.nameWords)) draft]]"
        case 90..<92: return "[[\(name.lowercased() == name ? name.uppercased() : name.lowercased())]]"
        default: return "[[\(generator.relativePath(ofNote: target).dropLast(3))]]"
        }
    }
}

/// SplitMix64 (Steele, Lea and Flood, 2014). Ranges use plain modulo: the bias is negligible here and, unlike
/// `Int.random(in:using:)`, the mapping cannot change between standard-library versions.
private struct SplitMix64 {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
    mutating func chance(_ probability: Double) -> Bool { Double(next() >> 11) * 0x1p-53 < probability }
    mutating func pick(_ items: [String]) -> String { items[Int(next() % UInt64(items.count))] }
}

/// Word lists. Every non-ASCII word is written precomposed (NFC), as Obsidian stores names.
private enum Lexicon {
    static let words = list("""
        the a of and to in is that for it as with on by this be are from at or an which we not have can will more about
        their also one all when there if into these our than other they its time new some would only first use may
        should could been most after over such through where between each both because while during before under however
        without again still often already always never perhaps project plan decision idea note draft review index graph
        link vault folder file search query cache schema parser token stream buffer thread queue actor task signal
        window server client request response latency throughput memory storage disk network protocol message channel
        module package library framework interface function method variable constant pattern system process service
        database table column record field value key type error warning finding report metric benchmark budget deadline
        milestone meeting agenda summary outline chapter section paragraph sentence garden forest river mountain valley
        harbor island bridge lantern compass anchor meadow orchard morning evening winter summer autumn spring weather
        journey market village city station coffee bread tea kitchen recipe dinner breakfast music piano guitar painting
        poem story novel reader writer teacher student colleague friend family neighbor team manager designer engineer
        question answer problem solution approach result outcome evidence argument hypothesis theory model experiment
        sample dataset analysis insight lesson mistake improvement feedback build measure learn explore compare refactor
        rename move merge split test deploy release ship write read think discuss decide choose prefer consider remember
        forget notice capture connect organize archive collect gather sort filter rank group tag label mark highlight
        annotate quick slow careful simple complex clear vague useful fragile robust stable early late open closed small
        large tiny huge important minor major central local remote global private public shared daily weekly monthly
        yearly recent ancient modern classic practical abstract concrete naïve café résumé façade Zürich déjà crème
        jalapeño über Straße smörgåsbord São Paulo 日本 東京 ramen sushi kimchi croissant espresso matcha bookshelf notebook
        pencil whiteboard calendar inbox backlog roadmap retrospective postmortem prototype sketch diagram template
        habit routine focus energy attention curiosity patience clarity momentum friction leverage carefully quickly
        slowly rarely usually mostly nearly roughly exactly probably certainly
        """)
    /// Sentence openers: `words` with the first letter upper-cased, index for index.
    static let capitalizedWords = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }
    static let nameWords = list("""
        Harbor Lantern Compass Anchor Meadow Orchard Garden River Summit Valley Beacon Bridge Canvas Signal Atlas
        Ember Falcon Glacier Horizon Juniper Kernel Lattice Mosaic Nebula Obsidian Prism Quarry Rhizome Sparrow Tundra
        Umbra Vector Willow Zephyr Archive Ledger Cascade Delta Fjord Grove Hollow Island Journal Keystone Lumen
        Marble Nimbus Outpost Pillar Quartz Ridge Saffron Thicket Café Zürich 日本 Roadmap Budget Research Reading
        Weekly Planning Design Review Launch Migration Onboarding
        """)
    static let noteTypes: [(type: String, statuses: [String])] = [
        ("project", ["active", "paused", "done", "planned"]), ("plan", ["draft", "approved", "superseded"]),
        ("decision", ["proposed", "accepted", "rejected"]), ("idea", ["seed", "growing", "evergreen"]),
    ]
    static let headings = [
        "Overview", "Background", "Goals", "Open questions", "Decisions", "Next steps", "Notes", "References", "Risks",
        "Timeline", "Design", "Implementation", "Results", "Ideas", "Meeting notes", "Résumé des points", "Context",
        "Constraints", "Alternatives", "Summary", "Log", "Follow-ups",
    ]
    static let tags = [
        "area/dev/swift", "area/dev/rust", "area/dev/go", "area/research/ml", "area/research/graphs", "area/home",
        "area/health", "project/rhizome", "project/website", "project/garden", "reading/book", "reading/paper",
        "inbox/to-read", "idea", "meeting", "todo", "review", "evergreen", "status/active", "status/blocked",
        "people/team-a", "café/menu", "日本/旅行", "q3-2024", "writing/draft",
    ]

    static func list(_ text: String) -> [String] { text.split(whereSeparator: \.isWhitespace).map(String.init) }
}
