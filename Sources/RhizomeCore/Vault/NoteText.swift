import Foundation

/// Reading a note's text by its vault path, for showing it (MCP `note`) or quoting it (`explore`).
public enum NoteText {
    /// The file's text (lossy UTF-8), at most `maxBytes`; nil when it cannot be read. On disk the name may be
    /// in NFD (macOS) rather than the NFC of the vault path: the folder is searched for it then.
    public static func read(vaultRoot: String, path: String, maxBytes: Int = 16 << 20) -> (text: String, isWhole: Bool)? {
        guard let handle = open(vaultRoot: vaultRoot, path: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: maxBytes + 1) else { return nil }
        let isWhole = data.count <= maxBytes
        return (String(decoding: data.prefix(maxBytes), as: UTF8.self), isWhole)
    }

    /// The text after the frontmatter block (the whole text when there is none, or it is not closed).
    public static func body(of text: String) -> Substring {
        let bytes = Array(text.utf8)
        let start = bytes.withUnsafeBufferPointer { buffer -> Int in
            if case .found(let location) = FrontmatterBlock.detect(buffer) { return location.bodyStart }
            return 0
        }
        let utf8 = text.utf8
        return Substring(utf8[utf8.index(utf8.startIndex, offsetBy: start)...])
    }

    private static func open(vaultRoot: String, path: String) -> FileHandle? {
        if let handle = FileHandle(forReadingAtPath: vaultRoot + "/" + path) { return handle }
        let folder = VaultPath.folder(of: path)
        let folderPath = folder.isEmpty ? vaultRoot : vaultRoot + "/" + folder
        let name = String(VaultPath.fileName(of: path))
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folderPath),
              let match = entries.first(where: { UnicodeNormalization.nfc($0) == name }) else { return nil }
        return FileHandle(forReadingAtPath: folderPath + "/" + match)
    }
}
