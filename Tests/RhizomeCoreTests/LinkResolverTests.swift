/// Tests of `LinkResolver`: one test per rule of docs/OBSIDIAN.md, "Resolving a link to a file",
/// and of the resolve keys incremental indexing relies on.
import Testing
@testable import RhizomeCore

private func resolver(_ paths: [String]) -> LinkResolver<Int> {
    LinkResolver<Int>(files: paths.enumerated().map { (path: $0.element, id: $0.offset + 1) })
}

/// The path a wikilink (or, with `markdown`, a markdown link) written in `source` resolves to.
private func target(of linkPath: String, markdown: Bool = false, from source: String = "Source.md", in paths: [String]) -> String? {
    resolver(paths).resolve(linkPath: linkPath, relativeFirst: markdown, from: source)?.path
}

// MARK: - Matching

@Suite("Link matching") struct LinkMatchingTests {
    @Test func `matching ignores case`() {
        #expect(target(of: "liNk_in_YaMl", in: ["link_in_yaml.md"]) == "link_in_yaml.md")
        #expect(target(of: "note", in: ["Folder/NOTE.md"]) == "Folder/NOTE.md")
    }

    @Test func `matching ignores case of non-ASCII letters`() {
        #expect(target(of: "ÉTÉ", in: ["Saisons/été.md"]) == "Saisons/été.md")
    }

    @Test func `the md extension is optional for notes`() {
        let files = ["Folder/Note.md"]
        #expect(target(of: "Note", in: files) == "Folder/Note.md")
        #expect(target(of: "Note.md", in: files) == "Folder/Note.md")
        #expect(target(of: "Folder/Note", in: files) == "Folder/Note.md")
        #expect(target(of: "Folder/Note.md", in: files) == "Folder/Note.md")
    }

    @Test func `an attachment needs its extension`() {
        let files = ["Images/diagram.png"]
        #expect(target(of: "diagram", in: files) == nil)
        #expect(target(of: "diagram.png", in: files) == "Images/diagram.png")
        #expect(target(of: "Diagram.PNG", in: files) == "Images/diagram.png")
    }

    @Test func `a name with dots and spaces resolves`() {
        #expect(target(of: "Figure 1.png", in: ["Figure 1.png"]) == "Figure 1.png")
        #expect(target(of: "v1.2 release notes", in: ["Docs/v1.2 release notes.md"]) == "Docs/v1.2 release notes.md")
    }

    @Test func `a canvas needs its extension`() {
        #expect(target(of: "Board", in: ["Board.canvas"]) == nil)
        #expect(target(of: "Board.canvas", in: ["Board.canvas"]) == "Board.canvas")
    }

    @Test func `a path with folders is taken from the vault root`() {
        let files = ["Folder/Note.md", "Other/Note.md", "Note.md"]
        #expect(target(of: "Folder/Note", from: "Other/Source.md", in: files) == "Folder/Note.md")
        #expect(target(of: "Other/Note", from: "Folder/Source.md", in: files) == "Other/Note.md")
    }

    @Test func `a leading slash is the vault root`() {
        #expect(target(of: "/Folder/Note", in: ["Folder/Note.md"]) == "Folder/Note.md")
    }

    @Test func `a folder path may be a suffix of the file's path`() {
        #expect(target(of: "Design/Note", in: ["Projects/Design/Note.md", "Note.md"]) == "Projects/Design/Note.md")
    }

    @Test func `a folder path suffix must match whole folder names`() {
        #expect(target(of: "sign/Note", in: ["Projects/Design/Note.md"]) == nil)
    }

    @Test func `a bare name matches a file anywhere in the vault`() {
        #expect(target(of: "Deep Note", from: "Top.md", in: ["A/B/C/Deep Note.md"]) == "A/B/C/Deep Note.md")
    }

    @Test func `a link written in NFD resolves to a file named in NFC`() {
        #expect(target(of: "Cafe\u{301}", in: ["Caf\u{E9}.md"]) == "Caf\u{E9}.md")
        #expect(target(of: "Dossier/Cafe\u{301}", in: ["Dossier/Caf\u{E9}.md"]) == "Dossier/Caf\u{E9}.md")
    }

    @Test func `a link resolves to a file given in NFD`() {
        #expect(target(of: "Caf\u{E9}", in: ["Cafe\u{301}.md"]) != nil)
    }

    @Test func `an empty path resolves to the source note itself`() {
        let files = ["Folder/Source.md", "Other.md"]
        #expect(target(of: "", from: "Folder/Source.md", in: files) == "Folder/Source.md")
    }

    @Test func `a same-note heading link resolves through its link occurrence`() {
        let link = MarkdownScanner.scan("[[#Heading]]").links[0]
        let file = resolver(["Folder/Source.md"]).resolve(link, from: "Folder/Source.md")
        #expect(file?.path == "Folder/Source.md")
        #expect(file?.id == 1)
    }

    @Test func `a path matching no file is unresolved`() {
        #expect(target(of: "Missing", in: ["Note.md", "Folder/Other.md"]) == nil)
        #expect(target(of: "Folder/Missing", in: ["Folder/Other.md"]) == nil)
        #expect(target(of: "Anything", in: []) == nil)
    }

    @Test func `aliases are not file names and do not resolve`() {
        // The resolver only knows paths; an alias is never a path, so `[[Alias]]` stays unresolved.
        #expect(target(of: "Big Plan", in: ["Project Plan.md"]) == nil)
    }

    @Test func `a path ending in a slash is unresolved`() {
        let files = ["Note.md", "Note/Inner.md"]
        #expect(target(of: "Note/", in: files) == nil)
        #expect(target(of: "Folder/Note/", in: ["Folder/Note.md"]) == nil)
    }

    @Test func `a markdown link ending in a slash is unresolved`() {
        #expect(target(of: "Note.md/", markdown: true, from: "Source.md", in: ["Note.md"]) == nil)
    }

    @Test func `a relative path ending in a slash is unresolved`() {
        #expect(target(of: "./Note/", from: "Source.md", in: ["Note.md"]) == nil)
    }

    @Test func `a path ending in a dot segment names a folder and is unresolved`() {
        #expect(target(of: "Note/.", in: ["Note.md"]) == nil)
        #expect(target(of: "..", markdown: true, from: "A/B/c.md", in: ["A.md", "A/B.md"]) == nil)
        #expect(target(of: "A/B/..", in: ["A.md"]) == nil)
    }

    @Test func `a link written with md resolves to a file named with md twice and shares its key`() {
        #expect(target(of: "Report.md", in: ["Report.md.md"]) == "Report.md.md")
        #expect(target(of: "Report.md", in: ["Report.md", "Report.md.md"]) == "Report.md")
        #expect(LinkResolver<Int>.resolveKey(ofLinkPath: "Report.md") == LinkResolver<Int>.resolveKey(ofFilePath: "Folder/Report.md.md"))
    }

    @Test func `the resolved file carries its id`() {
        let resolver = LinkResolver<Int>(files: [(path: "A.md", id: 10), (path: "B.md", id: 20)])
        #expect(resolver.resolve(linkPath: "B", from: "A.md")?.id == 20)
        #expect(resolver.count == 2)
    }

    @Test func `resolving all links of a note agrees with resolving them one by one`() {
        let files = ["Note.md", "A/Note.md", "A/Source.md", "B/Other.md", "Images/pic.png"]
        let resolver = resolver(files)
        let text = "[[Note]] [x](Note.md) [[Other]] ![[pic.png]] [[#Top]] [[Missing]] [[Note]] [y](../B/Other.md) [[pic]]"
        let links = MarkdownScanner.scan(text).links
        let resolutions = resolver.resolveAll(links, from: "A/Source.md")
        #expect(resolutions.count == links.count)
        for (link, resolution) in zip(links, resolutions) {
            #expect(resolution.target == resolver.resolve(link, from: "A/Source.md")?.id, "\(link.path)")
            #expect(resolution.key == LinkResolver<Int>.resolveKey(ofLinkPath: link.path), "\(link.path)")
        }
        #expect(resolutions.map(\.target) == [1, 2, 4, 5, 3, nil, 1, 4, nil])
    }

    @Test func `a session resolves a path written in NFC and in NFD, in any case, to the same file`() {
        // The session remembers link paths by their bytes: each spelling is remembered apart, and each
        // must still resolve as a resolver does (NFC, case-insensitive), from a folder with a twin and without.
        let resolver = resolver(["Caf\u{E9}.md", "X/Cafe\u{301}.md", "X/Source.md", "Source.md"])
        let spellings = ["Caf\u{E9}", "Cafe\u{301}", "CAF\u{C9}", "CAFE\u{301}", "caf\u{E9}.md", "X/Cafe\u{301}", "x/caf\u{E9}"]
        let links = spellings.flatMap { path in
            [LinkOccurrence(kind: .wikilink, path: path, line: 1, column: 1)]
                + (path.hasSuffix(".md") ? [] : [LinkOccurrence(kind: .markdown, path: path + ".md", line: 1, column: 1)])
        }
        let session = LinkResolver<Int>.Session(resolver)
        for source in ["Source.md", "X/Source.md", "Source.md"] {
            let remembered = session.resolveAll(links, from: source)
            #expect(remembered.map(\.target) == resolver.resolveAll(links, from: source).map(\.target), "from \(source)")
            #expect(remembered.allSatisfy { $0.target != nil && $0.key == "caf\u{E9}" }, "from \(source): \(remembered)")
        }
    }

    @Test func `a session remembering resolutions across notes agrees with resolving each note afresh`() {
        // Names in several folders (the source folder decides), case variants (the spelling decides), and
        // relative markdown links (the folder decides): the memo must key on the folder exactly when it matters.
        let files = ["Note.md", "A/Note.md", "B/Note.md", "A/Sub/Note.md", "A/Source.md", "B/Source.md", "Other.md",
                     "b/other.md", "C/Plan.md", "D/Plan.md", "Images/pic.png", "A/été.md", "Deep/x/Unique.md"]
        let resolver = resolver(files)
        // A memo of three entries forgets often, while a large one never does: both must agree.
        for session in [LinkResolver<Int>.Session(resolver), LinkResolver<Int>.Session(resolver, maximumEntries: 3)] {
            let text = "[[Note]] [x](Note.md) [y](./Note.md) [z](../Note.md) [[Other]] [[other]] [[Plan]] [[C/Plan]] ![[pic.png]] "
                + "[[#Top]] [[Missing]] [[ÉTÉ]] [[Unique]] [[x/Unique]] [w](Sub/Note.md) [[Note.md]] [v](<Other.md>)"
            let links = MarkdownScanner.scan(text).links
            let sources = ["A/Source.md", "B/Source.md", "Source.md", "C/Sub/Deep.md", "A/Sub/Note.md", "D/Plan.md", "b/x.md", "B/y.md"]
            // Every source twice, interleaved, so that later notes hit what earlier ones left in the memo.
            for source in sources + sources.reversed() {
                let remembered = session.resolveAll(links, from: source)
                let afresh = resolver.resolveAll(links, from: source)
                #expect(remembered.map(\.target) == afresh.map(\.target), "from \(source)")
                #expect(remembered.map(\.key) == afresh.map(\.key), "from \(source)")
                for (link, resolution) in zip(links, remembered) {
                    #expect(resolution.target == resolver.resolve(link, from: source)?.id, "\(link.path) from \(source)")
                }
            }
        }
    }

    @Test func `a file inserted later resolves links`() {
        var resolver = LinkResolver<Int>(files: [(path: "A.md", id: 1)])
        #expect(resolver.resolve(linkPath: "New", from: "A.md") == nil)
        resolver.insert(path: "Later/New.md", id: 2)
        #expect(resolver.resolve(linkPath: "New", from: "A.md")?.path == "Later/New.md")
    }
}

// MARK: - Relative paths

@Suite("Relative links") struct RelativeLinkTests {
    @Test func `a markdown link is first tried relative to the source folder`() {
        let files = ["Note.md", "A/Note.md", "B/Note.md"]
        #expect(target(of: "Note.md", markdown: true, from: "A/Source.md", in: files) == "A/Note.md")
    }

    @Test func `a markdown link with folders is first tried relative to the source folder`() {
        let files = ["Sub/Note.md", "A/Sub/Note.md"]
        #expect(target(of: "Sub/Note.md", markdown: true, from: "A/Source.md", in: files) == "A/Sub/Note.md")
    }

    @Test func `a markdown link with folders falls back to the vault root`() {
        #expect(target(of: "Folder/Note.md", markdown: true, from: "A/Source.md", in: ["Folder/Note.md"]) == "Folder/Note.md")
    }

    @Test func `a markdown link falls back to a file of that name anywhere`() {
        let files = ["Test Attachments/markdownLink.md", "Test Data/Source.md"]
        #expect(target(of: "markdownLink.md", markdown: true, from: "Test Data/Source.md", in: files) == "Test Attachments/markdownLink.md")
    }

    @Test func `a markdown link without the md extension resolves relative to the source folder`() {
        #expect(target(of: "Note", markdown: true, from: "A/Source.md", in: ["Note.md", "A/Note.md"]) == "A/Note.md")
    }

    @Test func `a markdown link occurrence is resolved relative first`() {
        let link = MarkdownScanner.scan("[x](Note.md)").links[0]
        #expect(resolver(["Note.md", "A/Note.md"]).resolve(link, from: "A/Source.md")?.path == "A/Note.md")
    }

    @Test func `a parent-folder path is taken relative to the source folder`() {
        let files = ["Note.md", "A/Note.md", "A/B/Note.md"]
        #expect(target(of: "../Note.md", markdown: true, from: "A/B/Source.md", in: files) == "A/Note.md")
        #expect(target(of: "../Note", from: "A/B/Source.md", in: files) == "A/Note.md")
        #expect(target(of: "../../Note", from: "A/B/Source.md", in: files) == "Note.md")
    }

    @Test func `a dot-slash path is taken relative to the source folder`() {
        let files = ["Note.md", "A/Note.md"]
        #expect(target(of: "./Note", from: "A/Source.md", in: files) == "A/Note.md")
    }

    @Test func `a parent-folder path into a sibling folder resolves`() {
        let files = ["A/Source.md", "B/Target.md"]
        #expect(target(of: "../B/Target.md", markdown: true, from: "A/Source.md", in: files) == "B/Target.md")
    }
}

// MARK: - Duplicates

@Suite("Several files with the same name") struct DuplicateNameTests {
    @Test func `an exact vault path wins over the same folder for a bare link`() {
        let files = ["Note.md", "Folder/Note.md"]
        #expect(target(of: "Note", from: "Folder/Source.md", in: files) == "Note.md")
    }

    @Test func `an exact vault path with folders wins over a longer suffix match in the source folder`() {
        let files = ["X/Folder/Note.md", "Folder/Note.md"]
        #expect(target(of: "Folder/Note", from: "X/Folder/Source.md", in: files) == "Folder/Note.md")
    }

    @Test func `without an exact path the file in the source folder wins`() {
        let files = ["A/Note.md", "B/Note.md", "C/Note.md"]
        #expect(target(of: "Note", from: "B/Source.md", in: files) == "B/Note.md")
        #expect(target(of: "Note", from: "C/Source.md", in: files) == "C/Note.md")
    }

    @Test func `the source folder wins over a shorter path`() {
        let files = ["A/Note.md", "Long folder/Deeper/Note.md"]
        #expect(target(of: "Note", from: "Long folder/Deeper/Source.md", in: files) == "Long folder/Deeper/Note.md")
    }

    @Test func `otherwise the shortest path wins`() {
        let files = ["Aaaa/Note.md", "Zz/Note.md", "A/B/Note.md"]
        #expect(target(of: "Note", from: "Elsewhere/Source.md", in: files) == "Zz/Note.md")
    }

    @Test func `path length is counted in characters, not bytes`() {
        // "日本/Note.md" is 10 characters (14 bytes); "abc/Note.md" is 11 characters (11 bytes).
        let files = ["abc/Note.md", "日本/Note.md"]
        #expect(target(of: "Note", in: files) == "日本/Note.md")
    }

    @Test func `paths of equal length are ordered alphabetically`() {
        #expect(target(of: "Note", in: ["b/Note.md", "a/Note.md"]) == "a/Note.md")
        #expect(target(of: "Note", in: ["a/Note.md", "b/Note.md"]) == "a/Note.md")
    }

    @Test func `alphabetical order is byte order`() {
        // In byte order uppercase sorts before lowercase.
        #expect(target(of: "Note", in: ["a/Note.md", "B/Note.md"]) == "B/Note.md")
    }

    @Test func `the choice does not depend on insertion order`() {
        let files = ["Zz/Note.md", "Yy/Note.md", "Aaaa/Note.md", "Xx/Note.md"]
        let expected = target(of: "Note", in: files)
        #expect(expected == "Xx/Note.md")
        #expect(target(of: "Note", in: files.reversed()) == expected)
    }

    @Test func `an attachment and a note with the same stem do not compete`() {
        let files = ["Pics/Logo.png", "Docs/Logo.md"]
        #expect(target(of: "Logo", in: files) == "Docs/Logo.md")
        #expect(target(of: "Logo.png", in: files) == "Pics/Logo.png")
    }

    @Test func `a folder suffix picks among files with the same name`() {
        let files = ["Work/Design/Note.md", "Home/Note.md", "Note.md"]
        #expect(target(of: "Design/Note", in: files) == "Work/Design/Note.md")
    }
}

// MARK: - Resolve keys

@Suite("Resolve keys") struct ResolveKeyTests {
    @Test func `a note and a bare link to it share a key`() {
        #expect(LinkResolver<Int>.resolveKey(ofFilePath: "Folder/Note.md") == "note")
        #expect(LinkResolver<Int>.resolveKey(ofLinkPath: "note") == "note")
        #expect(LinkResolver<Int>.resolveKey(ofLinkPath: "Folder/Note") == "note")
        #expect(LinkResolver<Int>.resolveKey(ofLinkPath: "Note.md") == "note")
    }

    @Test func `an attachment's key keeps its extension, lowercased`() {
        #expect(LinkResolver<Int>.resolveKey(ofFilePath: "Figure 1.PNG") == "figure 1.png")
        #expect(LinkResolver<Int>.resolveKey(ofLinkPath: "figure 1.png") == "figure 1.png")
        #expect(LinkResolver<Int>.resolveKey(ofLinkPath: "Images/Figure 1.png") == "figure 1.png")
    }

    @Test func `keys are NFC`() {
        #expect(LinkResolver<Int>.resolveKey(ofFilePath: "Cafe\u{301}.md") == "caf\u{E9}")
        #expect(LinkResolver<Int>.resolveKey(ofLinkPath: "CAFE\u{301}") == "caf\u{E9}")
    }

    @Test func `a same-note link has an empty key`() {
        #expect(LinkResolver<Int>.resolveKey(ofLinkPath: "") == "")
    }

    @Test(arguments: [
        ("Folder/Note.md", "note"),
        ("Folder/Note.md", "Folder/Note"),
        ("Folder/Note.md", "../Folder/Note.md"),
        ("Figure 1.PNG", "figure 1.png"),
        ("Saisons/été.md", "ÉTÉ"),
        ("Projects/Design/Note.md", "Design/Note"),
    ])
    func `every link that resolves to a file shares that file's key`(file: String, link: String) {
        let resolved = target(of: link, markdown: link.hasPrefix("."), from: "Folder/Source.md", in: [file, "Folder/Source.md"])
        #expect(resolved == file)
        #expect(LinkResolver<Int>.resolveKey(ofFilePath: file) == LinkResolver<Int>.resolveKey(ofLinkPath: link))
    }
}
