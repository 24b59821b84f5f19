import Foundation

/// Finds the vault to work on: `--vault PATH`, else `RHIZOME_VAULT`, else `OBSIDIAN_VAULT`, else the path
/// in `~/.obsidian-vault` (one line), else the nearest folder at or above the current one that contains
/// `.obsidian/`.
public enum VaultLocator {
    public static func locate(
        explicit: String?, environment: [String: String], currentDirectory: String
    ) throws(VaultError) -> String {
        var searched: [String] = []
        if let explicit, !explicit.isEmpty {
            return try checked(absolute(explicit, relativeTo: currentDirectory, environment: environment))
        }
        searched.append("--vault (not given)")
        for variable in ["RHIZOME_VAULT", "OBSIDIAN_VAULT"] {
            if let value = environment[variable]?.trimmingCharacters(in: .whitespaces), !value.isEmpty {
                return try checked(absolute(value, relativeTo: currentDirectory, environment: environment))
            }
            searched.append("$\(variable) (not set)")
        }
        if let home = environment["HOME"] {
            let pointer = home + "/.obsidian-vault"
            if let text = try? String(contentsOfFile: pointer, encoding: .utf8),
               let line = text.split(whereSeparator: \.isNewline).first?.trimmingCharacters(in: .whitespaces), !line.isEmpty {
                return try checked(absolute(line, relativeTo: home, environment: environment))
            }
            searched.append("~/.obsidian-vault (absent)")
        }
        var folder = URL(fileURLWithPath: currentDirectory).standardizedFileURL.path
        while true {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/.obsidian", isDirectory: &isDirectory), isDirectory.boolValue {
                return folder
            }
            let parent = (folder as NSString).deletingLastPathComponent
            if parent == folder || parent.isEmpty { break }
            folder = parent
        }
        searched.append("no .obsidian/ folder in \(currentDirectory) or above")
        throw .notFound(searched: searched)
    }

    private static func absolute(_ path: String, relativeTo base: String, environment: [String: String]) -> String {
        var expanded = path
        if expanded == "~" || expanded.hasPrefix("~/"), let home = environment["HOME"] {
            expanded = home + expanded.dropFirst()
        }
        let url = expanded.hasPrefix("/") ? URL(fileURLWithPath: expanded) : URL(fileURLWithPath: base).appendingPathComponent(expanded)
        var result = url.standardizedFileURL.path
        while result.count > 1, result.hasSuffix("/") { result.removeLast() }
        return result
    }

    private static func checked(_ path: String) throws(VaultError) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .missingFolder(path: path)
        }
        guard isDirectory.boolValue else { throw .notADirectory(path: path) }
        return path
    }
}
