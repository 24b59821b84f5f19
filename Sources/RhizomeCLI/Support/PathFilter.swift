import Foundation
import RhizomeCore

/// PATH arguments (`validate`, `fix`): files or folders, absolute, relative to the current folder, or
/// relative to the vault; matched against vault-relative note paths.
struct PathFilter {
    /// Vault-relative prefixes; empty = the whole vault.
    let prefixes: [String]

    init(
        _ arguments: [String], vaultPath: String, context: CommandContext, knownPaths: [String],
        resolveNote: ((String) -> String?)? = nil
    ) throws {
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
            // A note's name, as other commands take it (`Quick Note`, `Quick Note.md`).
            if !matchesSomething, let note = resolveNote?(argument) {
                prefixes.append(note)
                continue
            }
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
        // Compared both as written and with symlinks resolved (`/tmp` is `/private/tmp` on macOS; a vault
        // may be reached through a link).
        let roots = Set([URL(fileURLWithPath: vaultPath).standardizedFileURL.path, URL(fileURLWithPath: vaultPath).resolvingSymlinksInPath().path])
        func relative(toRoot absolute: String) -> String? {
            let url = URL(fileURLWithPath: absolute)
            for path in [url.standardizedFileURL.path, url.resolvingSymlinksInPath().path] {
                for root in roots {
                    if path == root { return "" }
                    if path.hasPrefix(root + "/") { return String(path.dropFirst(root.count + 1)) }
                }
            }
            return nil
        }
        if argument.hasPrefix("/") { return relative(toRoot: argument) }
        let fromCurrent = URL(fileURLWithPath: context.currentDirectory).appendingPathComponent(argument).path
        if FileManager.default.fileExists(atPath: fromCurrent), let inside = relative(toRoot: fromCurrent) { return inside }
        return VaultPath.normalize(argument).map(UnicodeNormalization.nfc)
    }
}
