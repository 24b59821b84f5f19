/// Tests of `VaultScanner` (and `FileReader`) on real temporary folders: hidden files, nested folders,
/// symlinks (files, folders, loops, broken ones), names that are NFD or not UTF-8, and bad roots.
/// Rules from docs/OBSIDIAN.md, "Files" and "Symlinks". Permission cases are not tested: the
/// tests may run as root, which can read everything.
import Foundation
import Testing
@testable import RhizomeCore
import RhizomeTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Helpers

private func scan(_ vault: TemporaryVault, excluding excludedPaths: Set<String> = []) throws -> VaultScan {
    try VaultScanner(root: vault.path, excludedPaths: excludedPaths).scan()
}

private func withCPath<Result>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> Result) -> Result {
    (bytes + [0]).withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) }
    }
}

/// Creates a file whose name is exactly `nameBytes` (which may be NFD or not UTF-8 at all).
private func createFile(in directory: String, nameBytes: [UInt8], contents: [UInt8]) throws {
    let path = Array(directory.utf8) + [UInt8(ascii: "/")] + nameBytes
    let descriptor = withCPath(path) { open($0, O_CREAT | O_WRONLY | O_TRUNC, 0o644) }
    guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    defer { close(descriptor) }
    let written = contents.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    guard written == contents.count else { throw POSIXError(.EIO) }
}

/// Creates a folder whose name is exactly `nameBytes`; returns its path.
private func createFolder(in directory: String, nameBytes: [UInt8]) throws -> [UInt8] {
    let path = Array(directory.utf8) + [UInt8(ascii: "/")] + nameBytes
    guard withCPath(path, { mkdir($0, 0o755) }) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    return path
}

private func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
}

private func read(_ file: ScannedFile?) -> String? {
    guard let file, case .success(let bytes) = FileReader.read(file.diskPath, maxBytes: 1 << 20) else { return nil }
    return String(decoding: bytes, as: UTF8.self)
}

// MARK: - Tests

@Suite("Vault scanner") struct VaultScannerTests {
    @Test func `hidden files and folders are not part of the vault`() throws {
        let vault = try TemporaryVault()
        try vault.write(".obsidian/app.json", "{}")
        try vault.write(".trash/Deleted.md", "gone")
        try vault.write(".git/HEAD", "ref")
        try vault.write(".hidden.md", "secret")
        try vault.write("Folder/.secret.md", "secret")
        try vault.write("Folder/Visible.md", "shown")
        try vault.write("Visible.md", "shown")
        let result = try scan(vault)
        #expect(result.files.map(\.path) == ["Folder/Visible.md", "Visible.md"])
        #expect(result.findings.isEmpty)
        #expect(result.uncertainPaths.isEmpty)
    }

    @Test func `nested folders are listed with relative paths, sorted`() throws {
        let vault = try TemporaryVault()
        try vault.write("Root.md", "r")
        try vault.write("A/Top.md", "t")
        try vault.write("A/B/C/Deep.md", "d")
        try vault.write("A/B/image.png", "png")
        try vault.write("Boards/Plan.canvas", "{}")
        let result = try scan(vault)
        #expect(result.files.map(\.path) == ["A/B/C/Deep.md", "A/B/image.png", "A/Top.md", "Boards/Plan.canvas", "Root.md"])
        #expect(result.files.map(\.kind) == [.note, .attachment, .note, .canvas, .note])
        #expect(result.files.allSatisfy { $0.realPath == nil })
    }

    @Test func `paths sort by their UTF-8 bytes: uppercase before lowercase, a prefix first, non-ASCII after ASCII`() throws {
        let vault = try TemporaryVault()
        // No two names differ in case only: macOS's default file system would take them for one file.
        for path in ["c.md", "B.md", "a/b.md", "a b.md", "ab.md", "Zürich.md", "Zurich.md", "東京.md", "a.md.md", "a.md"] {
            try vault.write(path, "x")
        }
        #expect(try scan(vault).files.map(\.path) == ["B.md", "Zurich.md", "Zürich.md", "a b.md", "a.md", "a.md.md", "a/b.md", "ab.md", "c.md", "東京.md"])
    }

    @Test(arguments: ["Note.md", "Folder/Note.md", "A/B/C/Deep.MD", "image.PNG", "Folder/archive.tar.gz", "README", "Folder/.md", ".md",
                      "a.b/c", "Zürich/Café.md", "東京/ノート.md", "x.ÉT", "Folder/a.\u{301}md", "Folder/Name.Md", "dir/file."])
    func `a path's parts are what the functions for each part give`(path: String) {
        let parts = VaultPath.Parts(of: path)
        #expect(parts.displayName == VaultPath.displayName(of: path))
        #expect(parts.folder == VaultPath.folder(of: path))
        #expect(parts.lowercasedExtension == VaultPath.lowercasedExtension(of: path))
    }

    @Test func `comparing paths in bytes agrees with comparing their UTF-8 views`() {
        let long = String(repeating: "Folder/", count: 12)
        let samples = ["", "a", "A", "ab", "a b", "a/b", "é", "e\u{301}", "Zürich", "東京", long, long + "a", long + "b", long + "é",
                       "Café.md", "Cafe\u{301}.md", String(repeating: "x", count: 15), String(repeating: "x", count: 16)]
        for a in samples {
            for b in samples {
                #expect(VaultPath.precedesInBytes(a, b) == a.utf8.lexicographicallyPrecedes(b.utf8), "\(a) vs \(b)")
            }
        }
    }

    @Test func `a listed file has its size and disk path`() throws {
        let vault = try TemporaryVault()
        try vault.write("Folder/Note.md", "hello")
        let file = try scan(vault).files.first
        #expect(file?.size == 5)
        #expect(file?.diskPath.description == vault.path + "/Folder/Note.md")
        #expect(file?.modificationTime ?? 0 > 0)
        #expect(read(file) == "hello")
    }

    @Test func `names with spaces, Unicode and dots are listed as written`() throws {
        let vault = try TemporaryVault()
        let names = ["My Note.md", "日本語.md", "Arabic عربي.md", "Emoji 🌱.md", "It’s ‽.md", "v1.2.3 notes.md"]
        for name in names { try vault.write("Folder/\(name)", "x") }
        let paths = Set(try scan(vault).files.map(\.path))
        #expect(paths == Set(names.map { "Folder/\($0)" }))
    }

    @Test func `an excluded path is left out`() throws {
        let vault = try TemporaryVault()
        try vault.write("index.sqlite", "db")
        try vault.write("Note.md", "n")
        #expect(try scan(vault, excluding: ["index.sqlite"]).files.map(\.path) == ["Note.md"])
    }

    @Test func `a folder named in NFD is listed in NFC`() throws {
        let vault = try TemporaryVault()
        let folder = try createFolder(in: vault.path, nameBytes: Array("Cafe\u{301}".utf8))
        try createFile(in: String(decoding: folder, as: UTF8.self), nameBytes: Array("Note.md".utf8), contents: Array("in folder".utf8))
        let file = try scan(vault).files.first
        #expect(file?.path.unicodeScalars.elementsEqual("Caf\u{E9}/Note.md".unicodeScalars) == true)
        #expect(read(file) == "in folder")
    }

    @Test func `a file named in NFD is listed in NFC and read through its disk path`() throws {
        let vault = try TemporaryVault()
        let nfdName = Array("Cafe\u{301}.md".utf8)
        try createFile(in: vault.path, nameBytes: nfdName, contents: Array("café content".utf8))
        let result = try scan(vault)
        let file = result.files.first
        #expect(result.files.count == 1)
        #expect(file?.path.unicodeScalars.elementsEqual("Caf\u{E9}.md".unicodeScalars) == true)
        #expect(file?.diskPath.bytes == Array(vault.path.utf8) + [UInt8(ascii: "/")] + nfdName)
        #expect(read(file) == "café content")
        #expect(result.findings.isEmpty)
    }

    @Test func `a file name that is not UTF-8 is listed with a finding and can be read`() throws {
        let vault = try TemporaryVault()
        let nameBytes: [UInt8] = [0x66, 0xFF, 0x2E, 0x6D, 0x64]
        try createFile(in: vault.path, nameBytes: nameBytes, contents: Array("latin-1 name".utf8))
        let result = try scan(vault)
        #expect(result.files.count == 1)
        let file = result.files.first
        #expect(file?.path == "f%FF.md")  // invalid bytes as %XX: distinct names stay distinct
        #expect(file?.kind == .note)
        #expect(file?.diskPath.bytes == Array(vault.path.utf8) + [UInt8(ascii: "/")] + nameBytes)
        #expect(read(file) == "latin-1 name")
        let finding = result.findings.first { $0.code == .invalidUTF8 }
        #expect(finding?.path == "f%FF.md")
    }

    @Test func `two names that differ only in invalid bytes stay two files`() throws {
        let vault = try TemporaryVault()
        try createFile(in: vault.path, nameBytes: [0x61, 0xFF, 0x2E, 0x6D, 0x64], contents: Array("one".utf8))
        try createFile(in: vault.path, nameBytes: [0x61, 0xFE, 0x2E, 0x6D, 0x64], contents: Array("two".utf8))
        let result = try scan(vault)
        #expect(result.files.map(\.path) == ["a%FE.md", "a%FF.md"])
    }

    #if os(Linux)
    @Test func `NFC and NFD twins of one name are one vault path and a finding, not a failure`() throws {
        let vault = try TemporaryVault()
        try vault.write("Caf\u{E9}.md", "composed")
        try createFile(in: vault.path, nameBytes: Array("Cafe\u{301}.md".utf8), contents: Array("decomposed".utf8))
        let result = try scan(vault)
        #expect(result.files.count == 1)
        #expect(result.findings.contains { $0.code == .duplicatePath && $0.path == "Café.md" })
        #expect(result.isUncertain("Café.md"))
    }
    #endif

    @Test func `a symlinked file outside the vault is listed with its real path`() throws {
        let vault = try TemporaryVault()
        try FileManager.default.createDirectory(at: vault.outside, withIntermediateDirectories: true)
        let target = vault.outside.appendingPathComponent("Target.md")
        try Data("outside text".utf8).write(to: target)
        try vault.symlink("Linked.md", to: target.path)
        let result = try scan(vault)
        let file = result.files.first
        #expect(result.files.map(\.path) == ["Linked.md"])
        #expect(file?.realPath != nil)
        #expect(file?.realPath == realPath(target.path))
        #expect(file?.size == 12)
        #expect(read(file) == "outside text")
        #expect(result.findings.isEmpty)
    }

    @Test func `a symlinked folder is followed and its files carry real paths`() throws {
        let vault = try TemporaryVault()
        let outsideFolder = vault.outside.appendingPathComponent("Shared")
        try FileManager.default.createDirectory(at: outsideFolder.appendingPathComponent("Sub"), withIntermediateDirectories: true)
        try Data("inner".utf8).write(to: outsideFolder.appendingPathComponent("Inner.md"))
        try Data("deeper".utf8).write(to: outsideFolder.appendingPathComponent("Sub/Deeper.md"))
        try vault.symlink("Ext", to: outsideFolder.path)
        try vault.write("Local.md", "local")
        let result = try scan(vault)
        #expect(result.files.map(\.path) == ["Ext/Inner.md", "Ext/Sub/Deeper.md", "Local.md"])
        let realFolder = try #require(realPath(outsideFolder.path))
        #expect(result.files.first { $0.path == "Ext/Inner.md" }?.realPath == realFolder + "/Inner.md")
        #expect(result.files.first { $0.path == "Ext/Sub/Deeper.md" }?.realPath == realFolder + "/Sub/Deeper.md")
        #expect(result.files.first { $0.path == "Local.md" }?.realPath == nil)
        #expect(read(result.files.first { $0.path == "Ext/Sub/Deeper.md" }) == "deeper")
    }

    @Test func `a symlink to an ancestor folder is a loop finding and the walk ends`() throws {
        let vault = try TemporaryVault()
        try vault.write("A/Note.md", "n")
        try vault.symlink("A/up", to: vault.path)
        try vault.symlink("A/B/back", to: "..")
        let result = try scan(vault)
        #expect(result.files.map(\.path) == ["A/Note.md"])
        let loops = result.findings.filter { $0.code == .symlinkLoop }.compactMap(\.path)
        #expect(Set(loops) == ["A/up", "A/B/back"])
    }

    @Test func `a symlink to its own folder is a loop finding`() throws {
        let vault = try TemporaryVault()
        try vault.write("A/Note.md", "n")
        try vault.symlink("A/self", to: ".")
        let result = try scan(vault)
        #expect(result.files.map(\.path) == ["A/Note.md"])
        #expect(result.findings.map(\.code) == [.symlinkLoop])
        #expect(result.findings.first?.path == "A/self")
    }

    @Test func `a real folder keeps its own path when a symlink inside the vault points to it`() throws {
        let vault = try TemporaryVault()
        try vault.write("Real/Note.md", "n")
        for alias in ["Alias", "Other", "Zeta", "Beta", "Link"] { try vault.symlink(alias, to: "Real") }
        let result = try scan(vault)
        let note = result.files.first { $0.path == "Real/Note.md" }
        #expect(note != nil, "Real/Note.md was listed as \(result.files.map(\.path))")
        #expect(note?.realPath == nil)
        #expect(!result.findings.contains { $0.path == "Real" })
    }

    /// Dangling: its target does not exist, so nothing is there (what was indexed through it goes), unlike
    /// a path that cannot be read (permissions, I/O), which is uncertain and keeps what was indexed.
    @Test func `a broken symlink is a finding and nothing is there`() throws {
        let vault = try TemporaryVault()
        try vault.write("Note.md", "n")
        try vault.symlink("Broken.md", to: "/nonexistent/rhizome/target.md")
        let result = try scan(vault)
        #expect(result.files.map(\.path) == ["Note.md"])
        #expect(result.findings.map(\.code) == [.brokenSymlink])
        #expect(result.findings.first?.path == "Broken.md")
        #expect(result.uncertainPaths.isEmpty)
        #expect(!result.isUncertain("Broken.md"))
    }

    @Test func `a broken symlink to a folder inside a subfolder is a finding and nothing is under it`() throws {
        let vault = try TemporaryVault()
        try vault.symlink("A/Gone", to: "Missing Folder")
        let result = try scan(vault)
        #expect(result.files.isEmpty)
        #expect(result.findings.map(\.code) == [.brokenSymlink])
        #expect(result.uncertainPaths.isEmpty)
        #expect(!result.isUncertain("A/Gone/Note.md"))
    }

    @Test func `a symlink loop between two files is a broken symlink`() throws {
        let vault = try TemporaryVault()
        try vault.symlink("One.md", to: "Two.md")
        try vault.symlink("Two.md", to: "One.md")
        let result = try scan(vault)
        #expect(result.files.isEmpty)
        #expect(result.findings.map(\.code) == [.brokenSymlink, .brokenSymlink])
        #expect(result.uncertainPaths.isEmpty)
    }

    @Test func `a scoped look at a broken symlink finds it missing, with the walk's finding`() throws {
        let vault = try TemporaryVault()
        try vault.symlink("Broken.md", to: "/nonexistent/rhizome/target.md")
        let scoped = try VaultScanner(root: vault.path).scan(paths: [Array("Broken.md".utf8)])
        #expect(scoped.missing == ["Broken.md"])
        #expect(scoped.uncertainPaths.isEmpty)
        #expect(scoped.findings == (try scan(vault)).findings)
    }

    @Test func `a missing root throws unreadable root`() throws {
        let vault = try TemporaryVault()
        let missing = vault.path + "/does-not-exist"
        let error = #expect(throws: VaultError.self) { try VaultScanner(root: missing).scan() }
        guard case .unreadableRoot(let path, _)? = error else {
            Issue.record("expected .unreadableRoot, got \(String(describing: error))")
            return
        }
        #expect(path == missing)
    }

    @Test func `a file as root throws not a directory`() throws {
        let vault = try TemporaryVault()
        let file = try vault.write("Note.md", "n")
        let error = #expect(throws: VaultError.self) { try VaultScanner(root: file.path).scan() }
        #expect(error == .notADirectory(path: file.path))
    }

    @Test func `an empty vault lists nothing`() throws {
        let vault = try TemporaryVault()
        let result = try scan(vault)
        #expect(result.files.isEmpty)
        #expect(result.findings.isEmpty)
    }
}

@Suite("File reader") struct FileReaderTests {
    @Test func `a file over the size limit is refused`() throws {
        let vault = try TemporaryVault()
        let url = try vault.write("Big.md", String(repeating: "x", count: 100))
        #expect(FileReader.read(DiskPath(url.path), maxBytes: 10) == .failure(.tooLarge(size: 100)))
    }

    @Test func `a file at the size limit is read`() throws {
        let vault = try TemporaryVault()
        let url = try vault.write("Exact.md", "0123456789")
        #expect(FileReader.read(DiskPath(url.path), maxBytes: 10) == .success(Array("0123456789".utf8)))
    }

    @Test func `an empty file and a file of many reads are read whole`() throws {
        let vault = try TemporaryVault()
        let empty = try vault.write("Empty.md", "")
        #expect(FileReader.read(DiskPath(empty.path), maxBytes: 10) == .success([]))
        let text = (0..<20_000).map { "line \($0)\n" }.joined()  // about 200 KB
        let long = try vault.write("Long.md", text)
        #expect(FileReader.read(DiskPath(long.path), maxBytes: 1 << 20) == .success(Array(text.utf8)))
    }

    #if os(Linux)
    @Test func `a file longer than its stated size is read to its end, within the limit`() {
        // Files under /proc state a size of 0 and have content: the reader reads on past the size it was told.
        guard case .success(let bytes) = FileReader.read(DiskPath("/proc/self/status"), maxBytes: 1 << 20) else {
            Issue.record("/proc/self/status was not read")
            return
        }
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("Name:"))
        guard case .failure(.tooLarge) = FileReader.read(DiskPath("/proc/self/status"), maxBytes: 10) else {
            Issue.record("content past the limit was read")
            return
        }
    }
    #endif

    @Test func `a missing file is unreadable and gone`() throws {
        let vault = try TemporaryVault()
        guard case .failure(.unreadable(_, let isGone)) = FileReader.read(DiskPath(vault.path + "/Missing.md"), maxBytes: 10) else {
            Issue.record("a missing file was read")
            return
        }
        #expect(isGone)
    }
}
