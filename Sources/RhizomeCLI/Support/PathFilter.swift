import Foundation
import RhizomeCore

/// PATH arguments (`validate`, `fix`): files or folders, absolute, relative to the current folder, or
/// relative to the vault; matched against vault-relative note paths.
struct PathFilter {
    /// Vault-relative prefixes; empty = the whole vault.
    let prefixes: [String]

    init(_ arguments: [String], vaultPath: String, context: CommandContext, knownPaths: [String]) throws {
        var prefixes: [String] = []
        for argument in arguments {
            guard let relative = Self.vaultRelative(argument, vaultPath: vaultPath, context: context) else {
                throw CLIError.invalidArgument("`\(argument)` is outside the vault \(vaultPath)")
            }
            if relative.isEmpty {
                prefixes = []
                break
            }
            let matchesSomething = knownPaths.contains { $0 == relative || $0.hasPrefix(relative + "/") }
            guard matchesSomething else {
                throw CLIError.invalidArgument("no note in the vault is at or under `\(argument)` (vault-relative: `\(relative)`)")
            }
            prefixes.append(relative)
        }
        self.prefixes = arguments.contains { Self.vaultRelative($0, vaultPath: vaultPath, context: context) == "" } ? [] : prefixes
    }

    func includes(_ path: String) -> Bool {
        prefixes.isEmpty || prefixes.contains { path == $0 || path.hasPrefix($0 + "/") }
    }

    /// `argument` as a vault-relative path (`""` for the vault itself); nil when it points outside the vault.
    static func vaultRelative(_ argument: String, vaultPath: String, context: CommandContext) -> String? {
        let root = URL(fileURLWithPath: vaultPath).standardizedFileURL.path
        func relative(toRoot absolute: String) -> String? {
            let path = URL(fileURLWithPath: absolute).standardizedFileURL.path
            if path == root { return "" }
            return path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : nil
        }
        if argument.hasPrefix("/") { return relative(toRoot: argument) }
        let fromCurrent = URL(fileURLWithPath: context.currentDirectory).appendingPathComponent(argument).path
        if FileManager.default.fileExists(atPath: fromCurrent), let inside = relative(toRoot: fromCurrent) { return inside }
        var trimmed = argument
        while trimmed.hasPrefix("./") { trimmed.removeFirst(2) }
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        return trimmed == "." ? "" : trimmed
    }
}
