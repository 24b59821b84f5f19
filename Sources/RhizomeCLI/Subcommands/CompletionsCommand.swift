import ArgumentParser
import Foundation
import RhizomeCore
import RhizomeStore

/// `rhizome completions bash|zsh|fish`: the shell completion script, which completes commands, options,
/// note names (from the index, read-only), paths for `--vault` and `--db`.
struct CompletionsCommand: RhizomeSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "completions",
        abstract: "Print the shell completion script (bash, zsh or fish).",
        discussion: """
            bash: add `source <(rhizome completions bash)` to ~/.bashrc. zsh: `rhizome completions zsh > \
            ~/.zfunc/_rhizome` with ~/.zfunc in $fpath. fish: `rhizome completions fish > \
            ~/.config/fish/completions/rhizome.fish`.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "bash, zsh or fish.")
    var shell: String

    func validate() throws {
        guard CompletionShell(rawValue: shell) != nil else { throw ValidationError("no completion script for `\(shell)`; choose bash, zsh or fish") }
    }

    func execute(in context: CommandContext) throws -> ExitStatus {
        context.print(RhizomeCommand.completionScript(for: CompletionShell(rawValue: shell)!))
        return .success
    }
}

/// Completes NOTE arguments with note names from the index: read-only, no walk and no refresh (a shell
/// waits for it on every Tab), so at worst as stale as the last command left it.
public enum NoteCompletion {
    /// The completion of NOTE arguments.
    static let kind = CompletionKind.custom { words, _, prefix in candidates(words: words, prefix: prefix, environment: ProcessInfo.processInfo.environment) }

    /// Note names starting with `prefix` (case-insensitive; a `Folder/` prefix completes paths), at most 200,
    /// for the vault that `--vault` among `words`, or the environment, names.
    public static func candidates(words: [String], prefix: String, environment: [String: String], currentDirectory: String? = nil) -> [String] {
        let explicit = words.firstIndex(of: "--vault").flatMap { $0 + 1 < words.count ? words[$0 + 1] : nil }
        let directory = currentDirectory ?? FileManager.default.currentDirectoryPath
        guard let vault = try? VaultLocator.locate(explicit: explicit, environment: environment, currentDirectory: directory) else { return [] }
        let database = words.firstIndex(of: "--db").flatMap { $0 + 1 < words.count ? words[$0 + 1] : nil }
            ?? IndexLocation.defaultDatabasePath(forVault: vault, environment: environment)
        guard FileManager.default.fileExists(atPath: database), let store = try? IndexStore(readOnlyPath: database) else { return [] }
        return (try? store.noteNames(startingWith: prefix, limit: 200)) ?? []
    }
}
