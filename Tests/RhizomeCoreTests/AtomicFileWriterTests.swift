/// Tests of `AtomicFileWriter` on real files: replace through symlinks, refusal when the file changed
/// on disk, kept permissions, and create that never overwrites (not even a broken symlink).
import Foundation
import Testing
import RhizomeCore
import RhizomeTestSupport

private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

private func contents(_ path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map { Array($0) }
}

private func permissions(_ path: String) throws -> Int {
    try (FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
}

private func isSymlink(_ path: String) throws -> Bool {
    try FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType == .typeSymbolicLink
}

/// Files in a folder whose names say they are our temporary files.
private func leftoverTemporaryFiles(in folder: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains(".rhizome-") && $0.hasSuffix(".tmp") }
}

private func writeError(_ body: () throws(FileWriteError) -> Void) -> FileWriteError? {
    do {
        try body()
        return nil
    } catch {
        return error
    }
}

@Suite("AtomicFileWriter.replace") struct AtomicFileWriterReplaceTests {
    @Test func `replace writes the new bytes and leaves no temporary file`() throws {
        let vault = try TemporaryVault()
        let path = try vault.write("Note.md", "old").path
        try AtomicFileWriter.replace(path, expecting: bytes("old"), with: bytes("new content"))
        #expect(contents(path) == bytes("new content"))
        #expect(try leftoverTemporaryFiles(in: vault.path).isEmpty)
    }

    @Test func `a named temporary file left by a killed run is replaced, and a staged one goes in place`() throws {
        let vault = try TemporaryVault()
        let path = try vault.write("Note.md", "old").path
        let staging = vault.url("staging").path
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
        // What a run killed after writing its temporary file leaves: the same name, other bytes, read-only.
        let name = ".rhizome-op-test-0.tmp"
        try Data("half written".utf8).write(to: URL(fileURLWithPath: staging + "/" + name))
        chmod(staging + "/" + name, 0o400)
        try AtomicFileWriter.replace(path, expecting: bytes("old"), with: bytes("new"), temporaryName: name, staging: staging)
        #expect(contents(path) == bytes("new"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: staging).isEmpty)
        #expect(try leftoverTemporaryFiles(in: vault.path).isEmpty)
    }

    @Test func `replace through a symlink keeps the symlink and changes its target`() throws {
        let vault = try TemporaryVault()
        let target = try vault.write("Real/Target.md", "old").path
        try vault.symlink("Link.md", to: "Real/Target.md")
        let link = vault.url("Link.md").path
        try AtomicFileWriter.replace(link, expecting: bytes("old"), with: bytes("new"))
        #expect(try isSymlink(link))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "Real/Target.md")
        #expect(contents(target) == bytes("new"))
        #expect(try leftoverTemporaryFiles(in: vault.url("Real").path).isEmpty)
    }

    @Test func `replace refuses when the file changed on disk since it was read`() throws {
        let vault = try TemporaryVault()
        let path = try vault.write("Note.md", "saved by the user").path
        let error = writeError { () throws(FileWriteError) in try AtomicFileWriter.replace(path, expecting: bytes("what we read"), with: bytes("ours")) }
        #expect(error == .changedOnDisk(path: path))
        #expect(contents(path) == bytes("saved by the user"))
        #expect(try leftoverTemporaryFiles(in: vault.path).isEmpty)
    }

    @Test func `replace refuses when the file grew or was deleted`() throws {
        let vault = try TemporaryVault()
        let path = try vault.write("Note.md", "old plus more").path
        #expect(writeError { () throws(FileWriteError) in try AtomicFileWriter.replace(path, expecting: bytes("old"), with: bytes("x")) } == .changedOnDisk(path: path))
        try vault.remove("Note.md")
        #expect(writeError { () throws(FileWriteError) in try AtomicFileWriter.replace(path, expecting: bytes("old"), with: bytes("x")) } == .changedOnDisk(path: path))
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func `replace refuses a read-only file and a hard-linked one, leaving them as they were`() throws {
        let vault = try TemporaryVault()
        let path = try vault.write("Note.md", "old").path
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
        guard case .refused(let refusedPath, _)? = writeError({ () throws(FileWriteError) in
            try AtomicFileWriter.replace(path, expecting: bytes("old"), with: bytes("new"))
        }) else {
            Issue.record("expected a refusal for a read-only file")
            return
        }
        #expect(refusedPath == path)
        #expect(contents(path) == bytes("old"))
        let other = try vault.write("Other.md", "shared").path
        try FileManager.default.linkItem(atPath: other, toPath: vault.url("Hard link.md").path)
        guard case .refused? = writeError({ () throws(FileWriteError) in
            try AtomicFileWriter.replace(other, expecting: bytes("shared"), with: bytes("new"))
        }) else {
            Issue.record("expected a refusal for a hard-linked file")
            return
        }
        #expect(contents(vault.url("Hard link.md").path) == bytes("shared"))
        #expect(try leftoverTemporaryFiles(in: vault.path).isEmpty)
    }

    @Test(arguments: [0o600, 0o640, 0o755, 0o200])
    func `replace keeps the file's permissions`(mode: Int) throws {
        let vault = try TemporaryVault()
        let path = try vault.write("Note.md", "old").path
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        try AtomicFileWriter.replace(path, expecting: bytes("old"), with: bytes("new"))
        #expect(try permissions(path) == mode)
        #expect(contents(path) == bytes("new"))
    }

    @Test func `replace can empty a file and write bytes that are not UTF-8`() throws {
        let vault = try TemporaryVault()
        let path = try vault.write("Note.md", "old").path
        try AtomicFileWriter.replace(path, expecting: bytes("old"), with: [0xFF, 0x00, 0xFE])
        #expect(contents(path) == [0xFF, 0x00, 0xFE])
        try AtomicFileWriter.replace(path, expecting: [0xFF, 0x00, 0xFE], with: [])
        #expect(contents(path) == [])
    }

    @Test func `replacing something that is not a regular file fails, leaving it and no temporary file`() throws {
        let vault = try TemporaryVault()
        let folder = vault.url("Folder.md").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        guard case .io(let errorPath, let operation, _)? = writeError({ () throws(FileWriteError) in
            try AtomicFileWriter.replace(folder, expecting: [], with: bytes("new"))
        }) else {
            Issue.record("expected an I/O error")
            return
        }
        #expect(errorPath == folder)
        #expect(operation == "read")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
        #expect(try leftoverTemporaryFiles(in: vault.path).isEmpty)
    }

    @Test func `a failed write leaves the original untouched`() throws {
        let vault = try TemporaryVault()
        let path = try vault.write("Locked/Note.md", "old").path
        let folder = vault.url("Locked").path
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder) }
        guard access(folder, W_OK) != 0 else { return }  // running as root: permissions do not stop us
        let error = writeError { () throws(FileWriteError) in try AtomicFileWriter.replace(path, expecting: bytes("old"), with: bytes("new")) }
        guard case .io(let errorPath, _, let reason)? = error else {
            Issue.record("expected an I/O error, got \(String(describing: error))")
            return
        }
        #expect(errorPath == path)
        #expect(!reason.isEmpty)
        #expect(contents(path) == bytes("old"))
    }
}

@Suite("AtomicFileWriter.create") struct AtomicFileWriterCreateTests {
    @Test func `create makes the file and its missing folders`() throws {
        let vault = try TemporaryVault()
        let path = vault.url("Inbox/2024/New note.md").path
        try AtomicFileWriter.create(path, bytes: bytes("# New\n"))
        #expect(contents(path) == bytes("# New\n"))
        let mask = umask(0)
        umask(mask)
        #expect(try permissions(path) == 0o644 & ~Int(mask))
        #expect(try permissions(vault.url("Inbox/2024").path) == 0o755 & ~Int(mask))
        #expect(try leftoverTemporaryFiles(in: vault.url("Inbox/2024").path).isEmpty)
    }

    @Test func `create never overwrites an existing file`() throws {
        let vault = try TemporaryVault()
        let path = try vault.write("Note.md", "precious").path
        #expect(writeError { () throws(FileWriteError) in try AtomicFileWriter.create(path, bytes: bytes("new")) } == .alreadyExists(path: path))
        #expect(contents(path) == bytes("precious"))
        #expect(try leftoverTemporaryFiles(in: vault.path).isEmpty)
    }

    @Test func `create refuses an existing symlink, even a broken one`() throws {
        let vault = try TemporaryVault()
        try vault.write("Target.md", "target")
        try vault.symlink("Link.md", to: "Target.md")
        try vault.symlink("Broken.md", to: "Nowhere.md")
        for name in ["Link.md", "Broken.md"] {
            let path = vault.url(name).path
            #expect(writeError { () throws(FileWriteError) in try AtomicFileWriter.create(path, bytes: bytes("new")) } == .alreadyExists(path: path))
            #expect(try isSymlink(path))
        }
        #expect(contents(vault.url("Target.md").path) == bytes("target"))
        #expect(!FileManager.default.fileExists(atPath: vault.url("Nowhere.md").path))
        #expect(try leftoverTemporaryFiles(in: vault.path).isEmpty)
    }

    @Test func `create where a folder is a file fails with an I/O error`() throws {
        let vault = try TemporaryVault()
        try vault.write("Plain", "a file, not a folder")
        let path = vault.url("Plain/Note.md").path
        guard case .io(_, let operation, _)? = writeError({ () throws(FileWriteError) in try AtomicFileWriter.create(path, bytes: bytes("x")) }) else {
            Issue.record("expected an I/O error")
            return
        }
        #expect(!operation.isEmpty)
    }

    @Test func `error messages name the file and say what to do`() {
        #expect(FileWriteError.changedOnDisk(path: "/v/a.md").description.contains("/v/a.md changed on disk"))
        #expect(FileWriteError.alreadyExists(path: "/v/a.md").description.contains("Choose another name"))
        #expect(FileWriteError.io(path: "/v/a.md", operation: "write", reason: "No space left on device").description
            .contains("could not write /v/a.md: No space left on device"))
    }
}
